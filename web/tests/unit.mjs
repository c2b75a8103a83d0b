// Unit tests of the move notations, the position model, the board's legal
// move destinations and the review board's move tree (no browser): bundles
// src/notation.ts, src/shogi.ts, src/ground.ts and src/tree.ts with esbuild
// (vite's) and checks them. The notation cases are the ones the Rust notation
// module is tested on: crates/record/tests/data/notation-cases.json.
//
//   node tests/unit.mjs      (prints `N passed, M failed`)

import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'shogi-unit-'));
const entry = join(dir, 'entry.ts');
writeFileSync(
  entry,
  ['notation', 'shogi', 'ground', 'tree']
    .map((f) => `export * from ${JSON.stringify(resolve(here, `../src/${f}.ts`))};\n`)
    .join(''),
);
const out = join(dir, 'bundle.mjs');
await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile: out, logLevel: 'error' });
const m = await import(pathToFileURL(out).href);
rmSync(dir, { recursive: true, force: true });

const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
let passed = 0;
let failed = 0;

function eq(name, got, want) {
  if (got === want) passed++;
  else {
    failed++;
    console.log(`FAIL ${name}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
}

// The notation cases shared with the Rust notation module. The web client
// writes every style of the file but KIF and Western with numbers.
const CASES = resolve(here, '../../crates/record/tests/data/notation-cases.json');
const STYLES = {
  japanese: (info, prevTo) => m.formatMove('japanese', info, prevTo, false),
  western: (info, prevTo) => m.formatMove('western', info, prevTo, false),
  russian: (info, prevTo) => m.formatMove('russian', info, prevTo, false),
  ukrainian: (info, prevTo) => m.formatMove('russian', info, prevTo, true),
  usi: (info, prevTo) => m.formatMove('usi', info, prevTo, false),
};
const RUST_ONLY = new Set(['kif', 'western_numeric']);
const { cases } = JSON.parse(readFileSync(CASES, 'utf8'));
eq('the shared notation cases are there', cases.length > 0, true);
for (const c of cases) {
  const { infos } = m.replay(c.sfen, [...c.before, c.move]);
  eq(`${c.name}: every move replays`, infos.length, c.before.length + 1);
  if (infos.length !== c.before.length + 1) continue;
  const last = infos[infos.length - 1];
  const prevTo = infos.length > 1 ? infos[infos.length - 2].to : undefined;
  for (const [style, want] of Object.entries(c.text)) {
    if (RUST_ONLY.has(style)) continue;
    const write = STYLES[style];
    if (!write) eq(`${c.name}: a known style`, style, 'one of ' + Object.keys(STYLES).join(', '));
    else eq(`${c.name} (${style})`, write(last, prevTo), want);
  }
}
// SFEN round trip.
const pos = m.parseSfen('ln1g1g1nl/1r2k2b1/p1sppps1p/2p3p2/1p5p1/2P3P2/PPSPPPS1P/1B1K3R1/LN1G1G1NL b 2Pp 17');
eq('sfen round trip', m.toSfen(pos), 'ln1g1g1nl/1r2k2b1/p1sppps1p/2p3p2/1p5p1/2P3P2/PPSPPPS1P/1B1K3R1/LN1G1G1NL b 2Pp 17');
const after = m.replay(START, ['7g7f', '3c3d', '8h2b+', '3a2b']).positions[4];
eq('captures go to the hand', m.toSfen(after), 'lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5');

// The legal moves as the board's destinations.
const legal = {
  side_to_move: 'gote',
  dests: { '3c': ['3d'], '8b': ['7b', '6b'] },
  drops: { P: ['5e', '5f'], X: ['1a'] },
  promotions: {},
};
const g = m.groundDests(legal);
eq('board moves by origin square', JSON.stringify([...g.dests]), '[["3c",["3d"]],["8b",["7b","6b"]]]');
eq('drops by the piece of the side to move', JSON.stringify([...g.drops]), '[["gote pawn",["5e","5f"]]]');
eq('nothing moves without legal moves', m.groundDests(undefined).dests.size + m.groundDests(undefined).drops.size, 0);
eq('a drop made on the board as USI', m.dropUsi('silver', '5e'), 'S*5e');
eq('a king cannot be dropped', m.dropUsi('king', '5e'), null);
eq('a promotion made on the board as USI', m.moveUsi('8h', '2b', true), '8h2b+');
const drop = m.replay(START, ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e']).infos[4];
eq('a drop highlights only its square', JSON.stringify(m.lastDests(drop)), '["4e"]');

// The review board's move tree.
const usis = (line) => line.map((n) => n.usi).join(' ');
const tree = m.fromJson([{ usi: '7g7f' }, { usi: '3c3d' }, { usi: '2g2f' }]);
let r = m.play(tree, { path: [], ply: 1 }, '3c3d');
eq('the main move is followed', JSON.stringify(r), JSON.stringify({ cursor: { path: [], ply: 2 }, added: false }));
r = m.play(tree, { path: [], ply: 1 }, '8c8d');
eq('another move adds a variation', JSON.stringify(r.cursor), JSON.stringify({ path: [[1, 0]], ply: 2 }));
eq('the variation hangs off the move it replaces', usis(tree[1].variations[0]), '8c8d');
eq('the line through the variation', usis(m.resolve(tree, r.cursor.path).line), '7g7f 8c8d');
r = m.play(tree, r.cursor, '2g2f');
eq('the end of a variation grows', usis(tree[1].variations[0]), '8c8d 2g2f');
eq('still on the variation', JSON.stringify(r.cursor), JSON.stringify({ path: [[1, 0]], ply: 3 }));
r = m.play(tree, { path: [[1, 0]], ply: 1 }, '3c3d');
eq('back at the branch, the main move returns to the main line', JSON.stringify(r.cursor.path), '[]');
r = m.play(tree, { path: [[1, 0]], ply: 1 }, '8c8d');
eq('an existing variation is followed', JSON.stringify(r), JSON.stringify({ cursor: { path: [[1, 0]], ply: 2 }, added: false }));
r = m.play(tree, { path: [[1, 0]], ply: 1 }, '4c4d');
eq('a second variation at the same move', JSON.stringify(r.cursor.path), '[[1,1]]');
r = m.play(tree, { path: [[1, 0]], ply: 2 }, '2h2f');
eq('a variation inside a variation', JSON.stringify(r.cursor.path), '[[1,0],[2,0]]');
eq('its line', usis(m.resolve(tree, r.cursor.path).line), '7g7f 8c8d 2h2f');
eq('the end of the main line cannot grow', m.play(tree, { path: [], ply: 3 }, '8c8d'), null);
eq('path keys round trip', JSON.stringify(m.parsePathKey(m.pathKey([[1, 0], [2, 3]]))), '[[1,0],[2,3]]');
eq('the main line key is empty', m.pathKey([]), '');
m.nodeAt(tree, { path: [[1, 0]], ply: 2 }).comments = ['note'];
eq('a comment on a variation move', tree[1].variations[0][0].comments[0], 'note');
const back = m.removeVariation(tree, { path: [[1, 0], [2, 0]], ply: 3 });
eq('removing a variation goes to the move it replaced', JSON.stringify(back), JSON.stringify({ path: [[1, 0]], ply: 2 }));
eq('the inner variation is gone', tree[1].variations[0][1].variations.length, 0);
eq('nothing to remove on the main line', m.removeVariation(tree, { path: [], ply: 2 }), null);
eq('the JSON has no times', JSON.stringify(m.toJson([{ usi: '7g7f', time: 3, comments: [], variations: [] }])), '[{"usi":"7g7f","comments":[],"variations":[]}]');

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
