// Browser tests: Debian's Chromium driven by playwright-core against a running
// shogi server, scenario by scenario (e2e-*.ts; the harness in e2e-harness.ts).
//
//   SHOGI_URL=http://127.0.0.1:8080 npm run test:e2e
//
// Without SHOGI_URL the script starts a server itself with the command in
// SHOGI_SERVE_CMD ({port}, {csa} and {db} are replaced), by default
// `$SHOGI_BIN serve --port {port} --db {db} --no-rate-limits --csa-port {csa}`
// when SHOGI_BIN names the `shogi` binary, else `cargo run --quiet -p
// shogi-cli -- serve ...` with the same arguments, run from the repository
// root (the tests register 7 accounts from one address; the limit is 5 an
// hour; the programs' scenario plays over the CSA port, SHOGI_CSA_PORT for a
// server given by SHOGI_URL). Screenshots go to web/test-results/.
// E2E_ONLY=<part of a name> runs the scenarios whose names contain it.
// The last line is `N passed, M failed`; the exit status is 1 on failure.

import { chromium } from 'playwright-core';

import { analysisScenarios } from './e2e-analysis';
import { boardScenarios } from './e2e-boards';
import { explorerScenarios } from './e2e-explorer';
import { clubSheetScenarios } from './e2e-clubsheets';
import { gameScenarios } from './e2e-game';
import { i18nScenarios } from './e2e-i18n';
import { importScenarios } from './e2e-import';
import { ARGS, CHROMIUM, cspViolations, results, setBase, startServer } from './e2e-harness';
import { learnTests } from './e2e-learn';
import { moderationScenarios } from './e2e-moderation';
import { phoneScenarios } from './e2e-phones';
import { playScenarios } from './e2e-play';
import { programScenarios } from './e2e-programs';
import { puzzleTests } from './e2e-puzzles';
import { reviewScenarios } from './e2e-review';
import { tournamentScenarios } from './e2e-tournament';

async function main(): Promise<void> {
  const server = await startServer();
  setBase(server.url);
  // A browser that does not start must not leave the server running (it
  // would hold the output open and the run would never end).
  const browser = await chromium
    .launch({ executablePath: CHROMIUM, args: ARGS, headless: true })
    .catch(async (e: unknown) => {
      await server.stop();
      throw e;
    });
  try {
    await learnTests(browser);
    await boardScenarios(browser);
    await gameScenarios(browser);
    await playScenarios(browser);
    await reviewScenarios(browser);
    await programScenarios(browser);
    await importScenarios(browser);
    await tournamentScenarios(browser);
    await clubSheetScenarios(browser);
    await puzzleTests(browser);
    await analysisScenarios(browser);
    await explorerScenarios(browser);
    await i18nScenarios(browser);
    await moderationScenarios(browser);
    await phoneScenarios(browser);
  } finally {
    await browser.close();
    await server.stop();
  }
  if (cspViolations.length > 0) {
    results.push({ name: 'no Content-Security-Policy violations', ok: false });
    console.log(`FAIL the Content-Security-Policy blocked ${cspViolations.length} things (above)`);
  }
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

main().catch((e) => {
  console.log(`FAIL setup: ${e?.stack ?? e}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
