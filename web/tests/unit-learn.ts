// Unit tests of the learn pages' logic (no browser): the judging of a move in
// each kind of exercise against answers shaped like POST /api/play's, the
// targets of reach and capture exercises, the coordinates trainer's square
// names and its reading of a click; bundles src/learn/lessons.ts with esbuild.
//
//   node scripts/run-ts.mjs tests/unit-learn.ts      (prints `N passed, M failed`)

import './globals';
import * as learn_lessons from '../src/learn/lessons';
import type { Exercise, PlayAnswer, Run } from '../src/learn/lessons';

/** Every module under test, as one namespace. */
const m = { ...learn_lessons };

let passed = 0;
let failed = 0;
function test(name: string, fn: () => void): void {
  try {
    fn();
    passed++;
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e instanceof Error ? e.stack : e}`);
  }
}
function eq(a: unknown, b: unknown, msg: string): void {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  if (x !== y) throw new Error(`${msg}: ${x} !== ${y}`);
}

const legal = (sfen: string, extra: Partial<PlayAnswer> = {}): PlayAnswer => ({
  legal: true,
  sfen,
  in_check: false,
  checkmate: false,
  legal_moves: { side_to_move: 'gote', dests: {}, drops: {}, promotions: {} },
  ...(extra as object),
});
const refused = (rule: string, square: string, file?: number): PlayAnswer => ({
  legal: false,
  rule,
  square,
  file,
  move: '',
});
/** The exercise `id` of the course. */
function ex(id: string): Exercise {
  const e = m.LESSONS.flatMap((l) => l.exercises).find((e) => e.id === id);
  if (!e) throw new Error(`no exercise ${id}`);
  return e;
}
const run = (): Run => ({ moves: 0, reached: new Set() });

test('the course has at least 15 lessons with texts in four languages', () => {
  if (m.LESSONS.length < 15) throw new Error(`${m.LESSONS.length} lessons`);
  for (const l of m.LESSONS)
    for (const lang of ['en', 'ru', 'uk', 'ja'] as const)
      if (!l.title[lang] || !l.text[lang]?.length) throw new Error(`${l.id} ${lang}`);
});

test('capture targets are the Gote pieces of the start, promoted ones too', () => {
  eq(m.targets(ex('rook-2')), ['6d', '4d', '6h'], 'rook-2');
  eq(m.targets({ ...ex('rook-2'), kind: 'capture', sfen: '4+p4/9/9/9/9/9/9/9/8L b - 1' }), ['5a'], 'a tokin');
  eq(m.targets(ex('rook-1')), ['9a', '1a', '1i'], 'reach: the stars');
});

test('a reach run: steps pass the move back, the fewest solve, one more is "not the fewest"', () => {
  const e = ex('rook-1');
  const r = run();
  eq(
    m.judge(e, '9i9a', legal('R8/9/9/9/9/9/9/9/9 w - 2'), r),
    { kind: 'step', sfen: 'R8/9/9/9/9/9/9/9/9 b - 2' },
    'first',
  );
  eq(m.judge(e, '9a1a', legal('8R/9/9/9/9/9/9/9/9 w - 3'), r).kind, 'step', 'second');
  eq(m.judge(e, '1a1i', legal('9/9/9/9/9/9/9/9/8R w - 4'), r), { kind: 'solved' }, 'third');
  const slow = run();
  m.judge(e, '9i9e', legal('x'), slow);
  m.judge(e, '9e9a', legal('x'), slow);
  eq(m.judge(e, '9a1a', legal('x'), slow), { kind: 'miss', miss: 'not_fewest' }, 'three moves, one star left');
});

test('a refused move names the rule; in an illegal exercise the right rule on the star solves it', () => {
  eq(
    m.judge(ex('drops-2'), 'S*5c', refused('occupied', '5c'), run()),
    { kind: 'refused', rule: 'occupied', square: '5c' },
    'occupied',
  );
  eq(m.judge(ex('nifu-1'), 'P*7e', refused('nifu', '7e', 7), run()), { kind: 'solved' }, 'nifu seen');
  eq(m.judge(ex('nifu-1'), 'P*6e', legal('x'), run()), { kind: 'miss', miss: 'was_legal' }, 'a legal drop elsewhere');
  eq(
    m.judge(ex('nifu-2'), 'P*7d', refused('nifu', '7d', 7), run()),
    { kind: 'refused', rule: 'nifu', square: '7d', file: 7 },
    'nifu in a drop exercise',
  );
});

test('drop, promote, check, mate and escape goals', () => {
  eq(m.judge(ex('nifu-2'), 'P*3d', legal('x'), run()).kind, 'solved', 'drop on the star');
  eq(m.judge(ex('nifu-2'), 'P*2d', legal('x'), run()), { kind: 'miss', miss: 'off_star' }, 'drop off the stars');
  eq(m.judge(ex('promotion-2'), '3d3c', legal('x', { in_check: true }), run()).kind, 'solved', 'unpromoted silver');
  eq(m.judge(ex('promotion-2'), '3d3c+', legal('x'), run()), { kind: 'miss', miss: 'wrong_choice' }, 'promoted silver');
  eq(m.judge(ex('promotion-2'), '3d4c', legal('x'), run()), { kind: 'miss', miss: 'not_asked' }, 'another move');
  eq(m.judge(ex('mate-1'), '2h2b', legal('x'), run()), { kind: 'miss', miss: 'no_check' }, 'no check');
  eq(m.judge(ex('mate-1'), '2h5h', legal('x', { in_check: true }), run()).kind, 'solved', 'check');
  eq(
    m.judge(ex('mate-2'), 'G*4b', legal('x', { in_check: true }), run()),
    { kind: 'miss', miss: 'check_not_mate' },
    'check only',
  );
  eq(m.judge(ex('mate-2'), 'G*5b', legal('x', { in_check: true, checkmate: true }), run()).kind, 'solved', 'mate');
  eq(m.judge(ex('escape-1'), '6h5h', legal('x'), run()).kind, 'solved', 'a block');
});

test('square names in the three notations', () => {
  eq(
    (['usi', 'japanese', 'numeric'] as const).map((s) => m.squareName('7f', s)),
    ['7f', '７六', '76'],
    '7f',
  );
  eq(m.squareName('1a', 'japanese'), '１一', '1a');
  eq(m.squareName('9i', 'numeric'), '99', '9i');
});

test('a click on the board names the square from either side', () => {
  eq(m.squareAt(5, 5, 90, 90, 'sente'), '9a', 'top left from Sente');
  eq(m.squareAt(85, 85, 90, 90, 'sente'), '1i', 'bottom right from Sente');
  eq(m.squareAt(5, 5, 90, 90, 'gote'), '1i', 'top left from Gote');
  eq(m.squareAt(25, 55, 90, 90, 'sente'), '7f', '7f');
  eq(m.squareAt(95, 5, 90, 90, 'sente'), null, 'outside');
});

test('random squares cover the board and avoid the last one', () => {
  const seen = new Set<string>();
  let x = 0;
  for (let i = 0; i < 81; i++) seen.add(m.randomSquare(() => i / 81));
  eq(seen.size, 81, 'all 81 squares');
  eq(
    m.randomSquare(() => (x++ === 0 ? 0 : 0.5), '9a'),
    '5e',
    'not the same twice',
  );
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
