// Runs one TypeScript test file under node with nothing but esbuild (already
// the build's): the file is bundled with the client modules it imports into
// a temporary .mjs under node_modules/.cache (so the packages left outside
// the bundle, playwright-core and esbuild, resolve from there), then
// imported. `import.meta.url` keeps naming the source file, so a test finds
// files relative to itself. Types are checked apart: `tsc -p tests`.
//
//   node scripts/run-ts.mjs tests/unit.ts

import { build } from 'esbuild';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.log('usage: node scripts/run-ts.mjs tests/<file>.ts');
  process.exit(2);
}
const entry = resolve(file);
const out = join(webDir, 'node_modules', '.cache', 'run-ts', basename(entry).replace(/\.ts$/, '.mjs'));
await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: out,
  external: ['playwright-core', 'esbuild'],
  define: { 'import.meta.url': JSON.stringify(pathToFileURL(entry).href) },
  logLevel: 'error',
});
await import(pathToFileURL(out).href);
