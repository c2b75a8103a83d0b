// The house rule of the client's folders (web/README.md, "Layout"): a screen
// never imports another screen, and a shared module never imports a screen.
// Reads the import lines of every .ts file under src/ and prints each import
// that breaks the rule; the exit status is 1 if there is one.
//
//   node scripts/check-imports.mjs

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folders of src/ that hold a screen (what the router opens). */
const SCREENS = [
  'admin',
  'analysis',
  'archive',
  'game',
  'learn',
  'lobby',
  'profile',
  'puzzles',
  'review',
  'tournament',
];
/** The folders every screen may use. */
const SHARED = ['accounts', 'api', 'board', 'engine', 'explorer', 'i18n', 'records', 'rules'];
/** Files at the top of src/: the router may import any screen; the others are shared. */
const ROUTER = 'main.ts';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function tsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** The folder of src/ a path lies in (`''` for the top). */
function folderOf(path) {
  const parts = relative(src, path).split(sep);
  return parts.length > 1 ? parts[0] : '';
}

const faults = [];
for (const file of tsFiles(src)) {
  const rel = relative(src, file);
  const from = folderOf(file);
  if (from && !SCREENS.includes(from) && !SHARED.includes(from)) {
    faults.push(
      `src/${rel}: the folder ${from}/ is neither a screen nor shared (scripts/check-imports.mjs lists both)`,
    );
  }
  const lines = readFileSync(file, 'utf8').split('\n');
  // An import may span lines; its specifier is on the line that closes it.
  lines.forEach((line, i) => {
    const m = line.match(/(?:^import\s.*|^\}\s*)from\s+'(\.[^']*)'|^import\s+'(\.[^']*)'|import\('(\.[^']*)'\)/);
    if (!m) return;
    const spec = m[1] ?? m[2] ?? m[3];
    const to = folderOf(resolve(dirname(file), spec));
    if (to === from || !SCREENS.includes(to) || rel === ROUTER) return;
    const who = from
      ? SCREENS.includes(from)
        ? `the screen ${from}/`
        : `the shared ${from}/`
      : 'a shared top-level file';
    faults.push(`src/${rel}:${i + 1}: ${who} imports the screen ${to}/: ${line.trim()}`);
  });
}
for (const f of faults) console.log(f);
if (faults.length) {
  console.log(
    `${faults.length} import(s) across screens: move what they share into a shared folder (${SHARED.join(', ')})`,
  );
  process.exit(1);
}
console.log('imports: no screen imports another screen');
