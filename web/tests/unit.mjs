// Unit tests of the move notations, the position model and the review board's
// move tree (no browser): bundles src/notation.ts, src/shogi.ts and
// src/tree.ts with esbuild (vite's) and checks them.
//
//   node tests/unit.mjs      (prints `N passed, M failed`)

import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'shogi-unit-'));
const entry = join(dir, 'entry.ts');
writeFileSync(
  entry,
  `export * from ${JSON.stringify(resolve(here, '../src/notation.ts'))};\nexport * from ${JSON.stringify(resolve(here, '../src/shogi.ts'))};\nexport * from ${JSON.stringify(resolve(here, '../src/tree.ts'))};\n`,
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

/** The text of the last of `moves` from `sfen` in every notation. */
function texts(sfen, moves) {
  const { infos } = m.replay(sfen, moves);
  const last = infos[infos.length - 1];
  const prevTo = infos.length > 1 ? infos[infos.length - 2].to : undefined;
  return {
    ja: m.formatMove('japanese', last, prevTo, false),
    we: m.formatMove('western', last, prevTo, false),
    ru: m.formatMove('russian', last, prevTo, false),
    uk: m.formatMove('russian', last, prevTo, true),
    usi: m.formatMove('usi', last, prevTo, false),
  };
}

let t = texts(START, ['7g7f']);
eq('ja 7g7f', t.ja, '▲７六歩');
eq('western 7g7f', t.we, 'P-7f');
eq('russian 7g7f', t.ru, '7g-7f');
eq('usi 7g7f', t.usi, '7g7f');
t = texts(START, ['4i5h']);
eq('ja gold right', t.ja, '▲５八金右');
eq('western ambiguous gold', t.we, 'G4i-5h');
t = texts(START, ['6i5h']);
eq('ja gold left', t.ja, '▲５八金左');
eq('western G6i-5h', t.we, 'G6i-5h');
t = texts(START, ['9i9h']);
eq('russian lance', t.ru, 'Кп9i-9h');
eq('ukrainian lance', t.uk, 'Сп9i-9h');
t = texts(START, ['7g7f', '3c3d', '8h2b+']);
eq('ja bishop takes and promotes', t.ja, '▲２二角成');
eq('western Bx2b+', t.we, 'Bx2b+');
eq('russian С8hx2b+', t.ru, 'С8hx2b+');
t = texts(START, ['7g7f', '3c3d', '8h2b+', '3a2b']);
eq('ja same square', t.ja, '△同　銀');
eq('western Sx2b', t.we, 'Sx2b');
t = texts(START, ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e']);
eq('ja drop without 打', t.ja, '▲４五角');
eq('western drop', t.we, 'B*4e');
eq('russian drop', t.ru, 'С*4e');
t = texts(START, ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e', '2b3c']);
eq('ja gote moves up', t.ja, '△３三銀');
// A gold in hand dropped where a gold on the board could also go gets 打.
t = texts('4k4/9/9/9/9/9/9/9/4K4 b G 1', ['G*5h']);
eq('ja drop next to nothing', t.ja, '▲５八金');
t = texts('4k4/9/9/9/9/9/9/4G4/4K4 b G 1', ['G*4g']);
eq('ja drop with 打', t.ja, '▲４七金打');
// A silver that may promote and does not.
t = texts('4k4/9/9/4S4/9/9/9/9/4K4 b - 1', ['5d5c']);
eq('ja declined promotion', t.ja, '▲５三銀不成');
eq('western declined promotion', t.we, 'S-5c=');
eq('russian declined promotion', t.ru, 'Ср5d-5c=');
// Promoted pieces.
t = texts('4k4/9/9/9/9/9/9/9/+R3K4 b - 1', ['9i9a']);
eq('ja dragon', t.ja, '▲９一龍');
eq('western dragon', t.we, '+R-9a');
eq('russian dragon', t.ru, '+Л9i-9a');
// Gote, moving down the board.
t = texts('4k4/9/9/9/9/9/9/9/4K4 w - 1', ['5a5b']);
eq('ja gote king', t.ja, '△５二玉');
// SFEN round trip.
const pos = m.parseSfen('ln1g1g1nl/1r2k2b1/p1sppps1p/2p3p2/1p5p1/2P3P2/PPSPPPS1P/1B1K3R1/LN1G1G1NL b 2Pp 17');
eq('sfen round trip', m.toSfen(pos), 'ln1g1g1nl/1r2k2b1/p1sppps1p/2p3p2/1p5p1/2P3P2/PPSPPPS1P/1B1K3R1/LN1G1G1NL b 2Pp 17');
const after = m.replay(START, ['7g7f', '3c3d', '8h2b+', '3a2b']).positions[4];
eq('captures go to the hand', m.toSfen(after), 'lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5');

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
