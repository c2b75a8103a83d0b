// The unit tests' one assertion and their closing line: `eq` counts a check
// that holds and prints one that does not; `finish` prints `N passed, M
// failed` and exits 1 when anything failed.

let passed = 0;
let failed = 0;

/** Checks that `got` is `want` (===), printing `FAIL name` with both when it is not. */
export function eq(name: string, got: unknown, want: unknown): void {
  if (got === want) passed++;
  else {
    failed++;
    console.log(`FAIL ${name}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
}

/** Prints the count and ends the process, with status 1 on a failure. */
export function finish(): never {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}
