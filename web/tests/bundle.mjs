// What the unit test files share: the client modules under test bundled with
// esbuild (vite's) for node, with the few browser globals i18n/i18n.ts reads
// (localStorage, navigator, document) stubbed.

import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The modules `src/<path>.ts` of `names` (`board/notation`), bundled and imported as one module. */
export async function bundle(names) {
  const dir = mkdtempSync(join(tmpdir(), 'shogi-unit-'));
  try {
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      names.map((f) => `export * from ${JSON.stringify(resolve(here, `../src/${f}.ts`))};\n`).join(''),
    );
    const out = join(dir, 'bundle.mjs');
    await build({
      entryPoints: [entry],
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile: out,
      logLevel: 'error',
    });
    const store = new Map();
    globalThis.localStorage ??= {
      getItem: (k) => (store.has(k) ? store.get(k) : null),
      setItem: (k, v) => store.set(k, String(v)),
      removeItem: (k) => store.delete(k),
    };
    if (!globalThis.navigator)
      Object.defineProperty(globalThis, 'navigator', { value: { language: 'en-US', languages: ['en-US'] } });
    globalThis.document ??= { documentElement: {} };
    return await import(pathToFileURL(out).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
