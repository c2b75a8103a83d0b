// Unit tests of the move notations, the position model, the board's legal
// move destinations, the review board's move tree, typed moves, byoyomi
// beeps, refusals in words, and the players' words and numbers: time
// controls, ratings and ranks, the rating chart's scaling, the win rate,
// dates, a game's diffs applied to its state (no browser; the few browser
// globals the modules read are stubbed by globals.ts). The notation cases are
// the ones the Rust notation module is tested on:
// crates/record/tests/data/notation-cases.json. A tournament in words is in
// unit-tournament.ts.
//
//   node scripts/run-ts.mjs tests/unit.ts      (prints `N passed, M failed`)

import './globals';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import * as players from '../src/accounts/players';
import type { GameState, LegalMoves, PlayerView } from '../src/api/api';
import * as gamediff from '../src/api/gamediff';
import type { GameDiff } from '../src/api/gamediff';
import * as problem from '../src/api/problem';
import * as ground from '../src/board/ground';
import * as keyboard from '../src/board/keyboard';
import * as notation from '../src/board/notation';
import * as shogi from '../src/board/shogi';
import type { Key, MoveInfo, Position } from '../src/board/shogi';
import * as byoyomi from '../src/game/byoyomi';
import type { ClockNow } from '../src/game/countdown';
import * as i18n from '../src/i18n/i18n';
import * as ratingchart from '../src/profile/ratingchart';
import * as dates from '../src/records/dates';
import * as movetree from '../src/records/tree';
import type { TreeNode } from '../src/records/tree';
import * as winrate from '../src/review/winrate';
import * as refusal from '../src/rules/refusal';
import * as timecontrol from '../src/rules/timecontrol';
import * as strategy from '../src/records/strategy';
import { eq, finish } from './unit-harness';

/** Every module under test, as one namespace. */
const m = {
  ...notation,
  ...shogi,
  ...ground,
  ...movetree,
  ...players,
  ...timecontrol,
  ...ratingchart,
  ...winrate,
  ...dates,
  ...i18n,
  ...refusal,
  ...keyboard,
  ...byoyomi,
  ...problem,
  ...gamediff,
};

const here = dirname(fileURLToPath(import.meta.url));

const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

/** `x`, which the test needs to be there. */
function must<T>(x: T | null | undefined, what: string): T {
  if (x === null || x === undefined) throw new Error(`${what}: missing`);
  return x;
}

/** A move played in the move tree, which must be playable. */
function played(...args: Parameters<typeof m.play>) {
  return must(m.play(...args), `playing ${args[2]}`);
}

// The notation cases shared with the Rust notation module. The web client
// writes every style of the file but KIF and Western with numbers.
const CASES = resolve(here, '../../crates/record/tests/data/notation-cases.json');
const STYLES: Record<string, (info: MoveInfo, prevTo?: Key) => string> = {
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
    if (!write) eq(`${c.name}: a known style`, style, `one of ${Object.keys(STYLES).join(', ')}`);
    else eq(`${c.name} (${style})`, write(last, prevTo), want);
  }
}
// SFEN round trip.
const pos = m.parseSfen('ln1g1g1nl/1r2k2b1/p1sppps1p/2p3p2/1p5p1/2P3P2/PPSPPPS1P/1B1K3R1/LN1G1G1NL b 2Pp 17');
eq(
  'sfen round trip',
  m.toSfen(pos),
  'ln1g1g1nl/1r2k2b1/p1sppps1p/2p3p2/1p5p1/2P3P2/PPSPPPS1P/1B1K3R1/LN1G1G1NL b 2Pp 17',
);
const after = m.replay(START, ['7g7f', '3c3d', '8h2b+', '3a2b']).positions[4];
eq('captures go to the hand', m.toSfen(after), 'lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5');

// The legal moves as the board's destinations.
const legal: LegalMoves = {
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
const usis = (line: TreeNode[]) => line.map((n) => n.usi).join(' ');
const tree = m.fromJson([{ usi: '7g7f' }, { usi: '3c3d' }, { usi: '2g2f' }]);
let r = played(tree, { path: [], ply: 1 }, '3c3d');
eq('the main move is followed', JSON.stringify(r), JSON.stringify({ cursor: { path: [], ply: 2 }, added: false }));
r = played(tree, { path: [], ply: 1 }, '8c8d');
eq('another move adds a variation', JSON.stringify(r.cursor), JSON.stringify({ path: [[1, 0]], ply: 2 }));
eq('the variation hangs off the move it replaces', usis(tree[1].variations[0]), '8c8d');
eq('the line through the variation', usis(m.resolve(tree, r.cursor.path).line), '7g7f 8c8d');
r = played(tree, r.cursor, '2g2f');
eq('the end of a variation grows', usis(tree[1].variations[0]), '8c8d 2g2f');
eq('still on the variation', JSON.stringify(r.cursor), JSON.stringify({ path: [[1, 0]], ply: 3 }));
r = played(tree, { path: [[1, 0]], ply: 1 }, '3c3d');
eq('back at the branch, the main move returns to the main line', JSON.stringify(r.cursor.path), '[]');
r = played(tree, { path: [[1, 0]], ply: 1 }, '8c8d');
eq(
  'an existing variation is followed',
  JSON.stringify(r),
  JSON.stringify({ cursor: { path: [[1, 0]], ply: 2 }, added: false }),
);
r = played(tree, { path: [[1, 0]], ply: 1 }, '4c4d');
eq('a second variation at the same move', JSON.stringify(r.cursor.path), '[[1,1]]');
r = played(tree, { path: [[1, 0]], ply: 2 }, '2h2f');
eq('a variation inside a variation', JSON.stringify(r.cursor.path), '[[1,0],[2,0]]');
eq('its line', usis(m.resolve(tree, r.cursor.path).line), '7g7f 8c8d 2h2f');
eq('the end of the main line cannot grow', m.play(tree, { path: [], ply: 3 }, '8c8d'), null);
eq(
  'path keys round trip',
  JSON.stringify(
    m.parsePathKey(
      m.pathKey([
        [1, 0],
        [2, 3],
      ]),
    ),
  ),
  '[[1,0],[2,3]]',
);
eq('the main line key is empty', m.pathKey([]), '');
must(m.nodeAt(tree, { path: [[1, 0]], ply: 2 }), 'the node').comments = ['note'];
eq('a comment on a variation move', tree[1].variations[0][0].comments[0], 'note');
const back = m.removeVariation(tree, {
  path: [
    [1, 0],
    [2, 0],
  ],
  ply: 3,
});
eq(
  'removing a variation goes to the move it replaced',
  JSON.stringify(back),
  JSON.stringify({ path: [[1, 0]], ply: 2 }),
);
eq('the inner variation is gone', tree[1].variations[0][1].variations.length, 0);
eq('nothing to remove on the main line', m.removeVariation(tree, { path: [], ply: 2 }), null);
// Promoting a variation; extending the main line of an imported record.
{
  const t2 = m.fromJson([
    { usi: '7g7f' },
    { usi: '3c3d', variations: [[{ usi: '8c8d' }, { usi: '2g2f' }], [{ usi: '4c4d' }]] },
    { usi: '6g6f' },
  ] as Partial<TreeNode>[]);
  eq('a fixed main line keeps its moves', m.promoteVariation(t2, { path: [[1, 0]], ply: 2 }, true), null);
  const at = m.promoteVariation(t2, { path: [[1, 0]], ply: 3 });
  eq('the promoted line is the main line', usis(t2), '7g7f 8c8d 2g2f');
  eq(
    'the cursor stays on the same position, now on the main line',
    JSON.stringify(at),
    JSON.stringify({ path: [], ply: 3 }),
  );
  eq('the old main line is the first variation', usis(t2[1].variations[0]), '3c3d 6g6f');
  eq('the other alternative stays', usis(t2[1].variations[1]), '4c4d');
  eq('the old main move lost its variations', t2[1].variations[0][0].variations.length, 0);
  m.promoteVariation(t2, { path: [[1, 0]], ply: 2 });
  eq('promoting back restores the main line', usis(t2), '7g7f 3c3d 6g6f');
  eq('and the order of the alternatives', t2[1].variations.map(usis).join(' | '), '8c8d 2g2f | 4c4d');
  m.play(t2, { path: [[1, 1]], ply: 2 }, '2g2f');
  const sub = played(t2, { path: [[1, 1]], ply: 2 }, '6g6f');
  eq(
    'a variation inside the second one',
    JSON.stringify(sub.cursor),
    JSON.stringify({
      path: [
        [1, 1],
        [2, 0],
      ],
      ply: 3,
    }),
  );
  const inner = m.promoteVariation(t2, sub.cursor, true);
  eq('inside a variation, no main-line move changes', usis(t2), '7g7f 3c3d 6g6f');
  eq(
    'a variation of a variation can be promoted within it',
    JSON.stringify(inner),
    JSON.stringify({ path: [[1, 1]], ply: 3 }),
  );
  eq('the variation now goes on with it', usis(t2[1].variations[1]), '4c4d 6g6f');
  eq('and its old move is its alternative', usis(t2[1].variations[1][1].variations[0]), '2g2f');
  const grown = played(t2, { path: [], ply: 3 }, '8c8d', false);
  eq(
    'an imported main line grows at its end',
    `${usis(t2)} ${JSON.stringify(grown.cursor)}`,
    '7g7f 3c3d 6g6f 8c8d {"path":[],"ply":4}',
  );
  eq("the main line is the record's", m.mainLineIs(t2, ['7g7f', '3c3d', '6g6f']), false);
}
eq(
  'the JSON has no times',
  JSON.stringify(m.toJson([{ usi: '7g7f', time: 3, comments: [], variations: [] }])),
  '[{"usi":"7g7f","comments":[],"variations":[]}]',
);

// Time controls in words, in every language; the lobby's presets.
m.setLang('en');
const tc = (main: number, byo: number, periods: number, inc: number) => ({
  main_ms: main,
  byoyomi_ms: byo,
  periods,
  increment_ms: inc,
});
const presets = Object.fromEntries(m.SEEK_PRESETS);
eq('the lobby offers four presets', m.SEEK_PRESETS.length, 4);
eq('preset 30 min + 30 s', m.timeControlText(presets['30+30']), '30 min + 30 s');
eq('preset 10 min + 30 s', m.timeControlText(presets['10+30']), '10 min + 30 s');
eq('preset 0 + 30 s × 3 periods', m.timeControlText(presets['0+30x3']), '0 + 30 s × 3');
eq('preset Fischer 3 min + 2 s', m.timeControlText(presets['fischer3+2']), 'Fischer 3 min + 2 s');
eq('the presets are the documented clocks', JSON.stringify(presets['0+30x3']), JSON.stringify(tc(0, 30000, 3, 0)));
eq('sudden death', m.timeControlText(tc(300000, 0, 1, 0)), '5 min');
eq('main time in seconds when not whole minutes', m.timeControlText(tc(90000, 10000, 1, 0)), '90 s + 10 s');
eq('no clock', m.timeControlText(null), '—');
m.setLang('ru');
eq('Russian time control', m.timeControlText(presets['10+30']), '10 мин + 30 с');
m.setLang('uk');
eq('Ukrainian time control', m.timeControlText(presets['fischer3+2']), 'Фішер 3 хв + 2 с');
m.setLang('ja');
eq('Japanese time control', m.timeControlText(presets['0+30x3']), '0 + 30秒 × 3');
eq('Japanese class name', m.className('blitz'), '早指し');

// Ratings and ranks.
m.setLang('en');
eq('a settled rating', m.ratingText(1623.4, false), '1623');
eq('a provisional rating is marked ?', m.ratingText(1500, true), '1500?');
eq('no rating', m.ratingText(null, false), '');
eq('dan rank', m.rankText('1d'), '1 dan');
eq('kyu rank, long form', m.rankText('3 kyu'), '3 kyu');
eq('an unknown rank is shown as it came', m.rankText('master'), 'master');
eq('no rank', m.rankText(null), '');
const alice = { name: 'Алиса', guest: false, rating: 1500, provisional: true, rank: '2k' };
eq('a player with a provisional rating', m.playerText(alice), 'Алиса 1500? · 2 kyu');
eq(
  'a guest',
  m.playerText({ name: 'Гость', guest: true, rating: null, provisional: false, rank: null }),
  'Гость (guest)',
);
eq(
  'the computer',
  m.playerText({ name: 'AI 3', guest: false, computer: true, rating: null, provisional: false, rank: null }),
  'Computer, level 3',
);
const program: PlayerView = { ...alice, bot: true };
eq('a program gets the badge word', m.botMark(program.bot), 'program');
eq('a person gets none', m.botMark((alice as PlayerView).bot), '');
eq('nor does a missing flag', m.botMark(null), '');
eq('the program is still shown by name and rating', m.playerText(program), 'Алиса 1500? · 2 kyu');
eq('a guest has no profile', m.hasProfile({ name: 'Гость', guest: true } as PlayerView), false);
eq('an account has one', m.profilePath('Алиса'), '/@/%D0%90%D0%BB%D0%B8%D1%81%D0%B0');
m.setLang('ja');
eq('Japanese 1 dan is shodan', m.rankText('1d'), '初段');
eq('Japanese 3 dan', m.rankText('3d'), '三段');
eq('Japanese kyu', m.rankText('5k'), '5級');
eq('Japanese program badge', m.botMark(true), 'ソフト');
eq('Japanese guest', m.playerDetail({ name: 'x', guest: true } as PlayerView), '（ゲスト）');
m.setLang('ru');
eq('Russian rank', m.rankText('4k'), '4 кю');
eq('Russian program badge', m.botMark(true), 'программа');
m.setLang('uk');
eq('Ukrainian program badge', m.botMark(true), 'програма');
m.setLang('en');

// The rating chart's scaling.
eq('nice steps', [m.niceStep(100, 4), m.niceStep(430, 4), m.niceStep(9, 4)].join(' '), '25 200 2.5');
const box = { width: 200, height: 120, left: 40, right: 10, top: 10, bottom: 10 };
let lay = m.chartLayout(
  [
    { at_ms: 3000, rating: 1600 },
    { at_ms: 1000, rating: 1500 },
    { at_ms: 2000, rating: 1400 },
  ],
  box,
);
eq('points in time order, first at the left edge', lay.points.map((p) => p.x).join(' '), '40 115 190');
eq('the range is widened to round ticks', `${lay.min}-${lay.max}`, '1400-1600');
eq('the lowest rating at the bottom', lay.points[1].y, 110);
eq('the highest at the top', lay.points[2].y, 10);
eq('the middle rating in the middle', lay.points[0].y, 60);
eq('rating ticks cover the range', lay.yTicks.map((t) => t.value).join(' '), '1400 1450 1500 1550 1600');
eq('date ticks at both ends and the middle', lay.xTicks.map((t) => t.x).join(' '), '40 115 190');
lay = m.chartLayout([{ at_ms: 5, rating: 1500 }], box);
eq('one point alone sits in the middle', `${lay.points[0].x},${lay.points[0].y}`, '115,60');
eq('a flat history gets a range 100 tall', `${lay.min}-${lay.max}`, '1450-1550');
lay = m.chartLayout([], box);
eq('an empty history draws no points', lay.points.length + lay.xTicks.length, 0);

// The evaluation graph's win rate: 1 / (1 + exp(-cp / 600)), mates at the ends.
eq('an even position is 50 %', m.winRate(0), 0.5);
eq('+1200 cp is about 73 %', Math.round(m.winRate(1200) * 100), 73);
eq('-1200 cp is about 27 %', Math.round(m.winRate(-1200) * 100), 27);
eq('+600 cp is about 62 %', Math.round(m.winRate(600) * 100), 62);
{
  const marks = readFileSync(resolve(here, '../../crates/server/src/review/marks.rs'), 'utf8');
  const server = Number(marks.match(/pub const WIN_RATE_SCALE: f64 = ([\d.]+);/)?.[1]);
  eq('the graph has the scale the server marks moves by', m.WIN_RATE_SCALE, server);
}
eq('a mate for Sente is 100 %, for Gote 0 %', `${m.winRate(10000, 5)} ${m.winRate(-10000, -4)}`, '1 0');
eq('the win rate grows with the score', m.winRate(100) < m.winRate(101) && m.winRate(-3000) > 0, true);

// One date format per language (UTC days): the archive's and the review's.
const jan5 = Date.UTC(2024, 0, 5);
eq('a day in English', m.dayText(jan5, 'en'), '5 Jan 2024');
eq('a day in Japanese', m.dayText(jan5, 'ja'), '2024年1月5日');
eq('a day in Russian', m.dayText(jan5, 'ru').startsWith('5 янв. 2024'), true);
eq('a day in Ukrainian', m.dayText(jan5, 'uk').startsWith('5 січ. 2024'), true);
eq('the review reads the ISO day the server sends', m.isoDayText('2024-01-05', 'en'), '5 Jan 2024');
eq('an Edo-period day', m.isoDayText('1709-11-08', 'en'), '8 Nov 1709');
eq('no day without an ISO date', m.isoDayText(null, 'en'), null);
eq(
  'a day late in the evening west of Greenwich is still that UTC day',
  m.dayText(Date.UTC(2024, 0, 5, 23, 59), 'en'),
  '5 Jan 2024',
);

// A refused move in words, per rule code and language.
m.setLang('en');
eq('nifu names the file', m.ruleText('nifu', 5), 'Nifu: a second pawn on file 5');
eq('an unknown code has no words', m.ruleText('teleport'), null);
eq(
  'every rule code has words',
  m.RULE_CODES.every((c) => {
    const text = m.ruleText(c);
    return typeof text === 'string' && !text.startsWith('rule_');
  }),
  true,
);
eq('a nifu foul in an ending', m.foulText({ kind: 'illegal_move', rule: 'nifu', file: 7 }), 'nifu on file 7');
eq('a foul with no words of its own', m.foulText({ kind: 'illegal_move', rule: 'not_reachable' }), 'illegal move');
m.setLang('ru');
eq('Russian nifu', m.ruleText('nifu', 5), 'Нифу: вторая пешка на вертикали 5');
eq('Russian nifu ending', m.foulText({ kind: 'illegal_move', rule: 'nifu', file: 7 }), 'нифу на вертикали 7');
eq('Russian pawn-drop mate', m.ruleText('uchifuzume'), 'Утифудзумэ: мат сбросом пешки запрещён');
m.setLang('uk');
eq('Ukrainian nifu', m.ruleText('nifu', 3), 'Ніфу: другий пішак на вертикалі 3');
m.setLang('ja');
eq('Japanese nifu ending', m.foulText({ kind: 'illegal_move', rule: 'nifu', file: 7 }), '二歩（7筋）');
m.setLang('en');

// Typed moves: every notation the client writes, read against the legal moves.
const startLegal = (() => {
  const pos = m.parseSfen(START);
  const dests: Record<string, string[]> = {};
  for (const [k, p] of pos.board) {
    if (p.color !== 'sente') continue;
    for (let f = 1; f <= 9; f++)
      for (const r of 'abcdefghi') {
        const to = `${f}${r}`;
        if (!m.canReach(pos, k, to)) continue;
        dests[k] ??= [];
        dests[k].push(to);
      }
  }
  const legal: LegalMoves = { side_to_move: 'sente', dests, drops: {}, promotions: {} };
  return { pos, legal };
})();
const typed = (text: string, legal: LegalMoves = startLegal.legal, pos: Position = startLegal.pos, prevTo?: Key) =>
  m
    .matchMove(text, legal, pos, prevTo)
    .map((c) => c.usi)
    .sort()
    .join(' ');
eq('USI', typed('7g7f'), '7g7f');
eq('Western', typed('P-7f'), '7g7f');
eq('Western with numbers', typed('P-76'), '7g7f');
eq('Russian', typed('7g-7f'), '7g7f');
eq('Japanese', typed('▲７六歩'), '7g7f');
eq('Japanese typed with ASCII digits and kanji', typed('76歩'), '7g7f');
eq('full-width USI and spaces', typed(' ７ｇ７ｆ '), '7g7f');
eq('case does not matter', typed('p-7F'), '7g7f');
eq('a gold move both golds make is ambiguous', typed('G-5h'), '4i5h 6i5h');
eq('the Japanese side marker picks one', typed('５八金右'), '4i5h');
eq('Western with the origin picks one', typed('G4i-5h'), '4i5h');
eq('the Russian gold is Зл', typed('Зл4i-5h'), '4i5h');
eq('the old Russian gold З is still read', typed('З4i-5h'), '4i5h');
eq('З alone names no other piece', typed('З7g-7f'), '');
eq('no such move', typed('K-5e'), '');
eq('nonsense', typed('hello'), '');
// A promotion left open asks; a compulsory one need not be typed.
{
  const pos = m.parseSfen('4k4/9/2P6/9/9/9/9/9/4K4 b - 1');
  const legal: LegalMoves = {
    side_to_move: 'sente',
    dests: { '7c': ['7b'] },
    drops: { P: ['5e'] },
    promotions: { '7c7b': 'may' },
  };
  eq('promote or not: asked', typed('P-7b', legal, pos), '7c7b 7c7b+');
  eq('promote', typed('P-7b+', legal, pos), '7c7b+');
  eq('decline', typed('P-7b=', legal, pos), '7c7b');
  eq('Japanese promotion', typed('７二歩成', legal, pos), '7c7b+');
  eq('Japanese decline', typed('７二歩不成', legal, pos), '7c7b');
  eq('a drop in USI', typed('P*5e', legal, pos), 'P*5e');
  eq('a drop in Japanese', typed('５五歩打', legal, pos), 'P*5e');
  eq('a drop in Russian', typed('П*5e', legal, pos), 'P*5e');
  const mustPromote: LegalMoves = { side_to_move: 'sente', dests: { '7c': ['7b'] }, drops: {}, promotions: {} };
  const pos2 = m.parseSfen('4k4/9/9/9/9/9/9/2P6/4K4 b - 1');
  eq('a plain move', typed('7h7g', { ...mustPromote, dests: { '7h': ['7g'] } }, pos2), '7h7g');
}
// The board lets a player try a move a piece makes; the rules may still refuse it.
{
  const pos = m.parseSfen('4k4/9/9/9/9/9/4P4/9/4K4 b P 1');
  eq('a second pawn on a file can be tried', m.couldTry(pos, 'P*5e'), true);
  eq('a drop onto a piece cannot', m.couldTry(pos, 'P*5g'), false);
  eq('a pawn moving sideways cannot', m.couldTry(pos, '5g4g'), false);
  eq('a pawn moving forward can', m.couldTry(pos, '5g5f'), true);
  eq('listed drops', m.isListed({ dests: {}, drops: { P: ['4e'] } } as unknown as LegalMoves, 'P*4e'), true);
  eq('unlisted drops', m.isListed({ dests: {}, drops: { P: ['4e'] } } as unknown as LegalMoves, 'P*5e'), false);
  const words = m.describePosition(pos);
  eq('the position in words: pieces with squares', words.includes('☗ Sente: king 5i; pawn 5g.'), true);
  eq(
    'the position in words: hands',
    words.includes('in hand: pawn.') && words.includes('☖ Gote: king 5a. in hand: nothing.'),
    true,
  );
}

// Byoyomi beeps: which one a clock reading calls for.
{
  const reading = (byoyomiMs: number, periodsLeft = 3, extra: Partial<ClockNow> = {}): ClockNow => ({
    mainMs: 0,
    byoyomiMs,
    periodsLeft,
    inByoyomi: true,
    hasByoyomi: true,
    running: true,
    ...extra,
  });
  eq('no beep before 10 s are left', m.beepDue(reading(12000), reading(10500)), null);
  eq('10 s left: a tick', m.beepDue(reading(10100), reading(9950)), 'tick');
  eq('6 s left: a tick', m.beepDue(reading(6050), reading(5990)), 'tick');
  eq('5 s left: the higher beep', m.beepDue(reading(5050), reading(4990)), 'high');
  eq('1 s left: the higher beep', m.beepDue(reading(1050), reading(900)), 'high');
  eq('within a second: nothing', m.beepDue(reading(4900), reading(4200)), null);
  eq('a period used up', m.beepDue(reading(300, 3), reading(29700, 2)), 'period');
  eq('the last period used up', m.beepDue(reading(100, 1), reading(0, 0)), 'period');
  eq('no previous reading', m.beepDue(null, reading(4990)), null);
  eq(
    'main time: no beeps',
    m.beepDue(
      reading(30000, 3, { mainMs: 5000, inByoyomi: false }),
      reading(30000, 3, { mainMs: 4000, inByoyomi: false }),
    ),
    null,
  );
  eq(
    'a clock standing still: no beeps',
    m.beepDue(reading(5050, 3, { running: false }), reading(4990, 3, { running: false })),
    null,
  );
  eq('a jump over several seconds beeps once, for the last', m.beepDue(reading(8200), reading(4100)), 'high');
}

// Server errors by code (problem.ts): every code docs/PROTOCOL.md lists, in
// the table of HTTP codes and the WebSocket's list, is worded in each
// language; the generic codes of a kind fall back to the English words.
{
  const doc = readFileSync(resolve(here, '../../docs/PROTOCOL.md'), 'utf8');
  const table = doc.slice(doc.indexOf('### Error codes'), doc.indexOf('Every other error carries'));
  const tableCodes = [...table.matchAll(/^\| `(\w+)`(?: \([^|]*\))?(?: \/ `(\w+)`)?(?: \/ `(\w+)`)?/gm)].flatMap((x) =>
    x.slice(1).filter(Boolean),
  );
  const wsList = doc.slice(doc.indexOf('The codes: `bad_message`'), doc.indexOf('#### Refused moves'));
  const wsCodes = [...wsList.matchAll(/`(\w+)`/g)]
    .map((x) => x[1])
    .filter((c) => !['reason', 'rule', 'max', 'illegal_move'].includes(c));
  eq('the doc lists the HTTP codes', tableCodes.length >= 25, true);
  eq('the doc lists the WebSocket codes', wsCodes.length >= 20, true);
  const samples = {
    what: 'player',
    retry_after_s: 30,
    name: 'Ivan',
    max: 1000,
    min: 8,
    len: 5,
    bad: '<',
    line: 4,
    column: 1,
    token: '+7776XX',
    reason: 'bad_move',
    move: '5e5d',
    rule: 'no_piece',
    detail: 'x',
    rank: '2 дана',
    max_kib: 256,
    ply: 5,
    handicap: 'lance',
  };
  for (const l of ['en', 'ru', 'uk', 'ja'] as const) {
    m.setLang(l);
    const refused = m.problemText({ code: 'bad_request', error: 'x' });
    for (const code of [...tableCodes, ...wsCodes]) {
      const text = m.problemText({ ...samples, code, error: 'ENGLISH' });
      eq(
        `${l}: ${code} is worded`,
        !text.includes('ENGLISH') && !text.includes('err_') && !text.includes('{') && text !== refused,
        true,
      );
    }
  }
  m.setLang('ru');
  eq(
    'Russian bad rank names the text',
    m.problemText({ code: 'bad_rank', rank: '2 дана', error: '"2 дана" is not a rank' }),
    '«2 дана» — не разряд: пишите от 15 кю до 1 кю или от 1 дана до 8 дана (5 кю, 1 дан).',
  );
  eq(
    'Russian illegal move of an uploaded record, with its rule',
    m
      .problemText({ code: 'illegal_record_move', ply: 5, move: '２二角(99)', rule: 'no_piece', error: 'x' })
      .startsWith('Ход 5 (２二角(99)) невозможен: '),
    true,
  );
  eq(
    'Russian wrong start names the handicap in Russian',
    m.problemText({ code: 'wrong_start', handicap: 'even', error: 'x' }),
    'Запись начинается не с позиции этой доски (Без форы).',
  );
  eq(
    'Russian seat taken',
    m.problemText({ code: 'seat_taken', error: 'this game has no free seat' }),
    'Оба места в этой партии заняты.',
  );
  eq(
    'Russian record error names line, column and token',
    m.problemText({
      code: 'unreadable_record',
      line: 4,
      column: 1,
      token: '+7776XX',
      reason: 'bad_move',
      error: 'line 4...',
    }),
    'Строка 4, столбец 1: ход не читается «+7776XX»',
  );
  eq(
    'Russian retry time',
    m.problemText({ code: 'too_many_requests', retry_after_s: 42 }),
    'Слишком много запросов; попробуйте через 42 с.',
  );
  eq(
    'Russian unknown code keeps the English words',
    m.problemText({ code: 'bad_request', error: 'rating must be 0 to 4000' }),
    'Сервер отказал: rating must be 0 to 4000',
  );
  eq('no code at all: the fallback', m.problemText({}, '502 Bad Gateway'), 'Сервер отказал: 502 Bad Gateway');
  m.setLang('uk');
  eq(
    'Ukrainian name length',
    m.problemText({ code: 'bad_length', what: 'password', min: 8, max: 256, len: 5 }),
    'Пароль: від 8 до 256 символів, а не 5.',
  );
  m.setLang('en');
}

// Diffs (docs/PROTOCOL.md, "Diffs"): a diff after a move appends it and
// replaces the fields it carries; one that does not follow is refused.
{
  const base: GameState = {
    type: 'state',
    id: 'g1',
    mode: 'friend',
    sfen: START,
    start_sfen: START,
    moves: [],
    last_move: null,
    side_to_move: 'sente',
    in_check: false,
    dests: { '7g': ['7f'] },
    drops: {},
    promotions: {},
    seats: { sente: true, gote: true },
    clocks: null,
    status: { over: false, winner: null, reason: null },
    impasse: {
      rule: 'count24',
      sente_points: 27,
      gote_points: 27,
      can_declare: false,
      can_propose_count: false,
      count_proposed_by: null,
    },
    rules: { impasse: 'count24', illegal: 'prevent', max_moves: null },
    you: 'sente',
    players: { sente: null, gote: null },
    rated: false,
    connected: { sente: true, gote: true },
    takeback: { proposed_by: null },
    computer: null,
  };
  const after = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2';
  const diff: GameDiff = {
    type: 'diff',
    ply: 1,
    move: '7g7f',
    sfen: after,
    last_move: '7g7f',
    side_to_move: 'gote',
    in_check: false,
    dests: { '3c': ['3d'] },
    drops: {},
    promotions: {},
    clocks: null,
    status: { over: false, winner: null, reason: null },
    impasse: base.impasse,
    connected: { sente: true, gote: false },
    takeback: { proposed_by: null },
    computer: null,
  };
  const next = m.applyDiff(base, diff);
  eq('a diff with a move appends it', JSON.stringify(next?.moves), '["7g7f"]');
  eq('a diff replaces the position', next?.sfen, after);
  eq('a diff replaces the destinations', JSON.stringify(next?.dests), '{"3c":["3d"]}');
  eq('a diff replaces who is connected', next?.connected?.gote, false);
  eq('a diff keeps the seat', next?.you, 'sente');
  eq('a diff keeps the start', next?.start_sfen, START);
  eq('the state applied to is unchanged', base.moves.length, 0);
  eq(
    'a diff with a move on the wrong ply does not apply',
    m.applyDiff(must(next, 'the state after the diff'), diff),
    null,
  );
  const resign: GameDiff = {
    ...diff,
    ply: 1,
    move: null,
    status: { over: true, winner: 'gote', reason: 'resign' },
    dests: {},
  };
  const ended = m.applyDiff(must(next, 'the state after the diff'), resign);
  eq('a diff without a move keeps the moves', JSON.stringify(ended?.moves), '["7g7f"]');
  eq('a diff without a move replaces the status', ended?.status.reason, 'resign');
  eq('a diff without a move for another ply does not apply', m.applyDiff(base, resign), null);
  const note = { ply: 1, score: 35, mate: null, pv: ['3c3d'] };
  const noted = m.applyDiff(base, { ...diff, note });
  eq("a diff's program note is added to the notes", JSON.stringify(noted?.notes), JSON.stringify([note]));
  eq('a diff without a note adds none', next?.notes, undefined);
}

{
  // A game's strategy in words, from the names the server sends.
  const tag = (id: string, en: string, ru: string) => ({ id, names: { en, ru, uk: ru, ja: id } });
  const s: strategy.Strategy = {
    sente: {
      family: null,
      opening: tag('static_rook', 'Static Rook', 'Статичная ладья'),
      later_opening: null,
      castles: [tag('funagakoi', 'Boat', 'Фунагакои')],
    },
    gote: {
      family: null,
      opening: tag('third_file_rook', 'Third-file Rook', 'Сангэнбися'),
      later_opening: tag('opposing_rook', 'Opposing Rook', 'Мукаибися'),
      castles: [tag('mino', 'Mino', 'Мино'), tag('takamino', 'High Mino', 'Такамино')],
    },
    line: tag('static_vs_ranging', 'Static vs Ranging', 'Статичная против смещённой'),
  };
  i18n.setLang('en');
  eq(
    'strategy in English',
    strategy.strategyText(s),
    'Strategy: ☗ Static Rook, Boat — ☖ Third-file Rook → Opposing Rook, Mino, High Mino · Static vs Ranging',
  );
  i18n.setLang('ru');
  eq('strategy in Russian', strategy.strategyText(s).startsWith('Стратегия: ☗ Статичная ладья, Фунагакои'), true);
  i18n.setLang('en');
  const none = { family: null, opening: null, later_opening: null, castles: [] };
  eq('nothing recognised: no line', strategy.strategyText({ sente: none, gote: none, line: null }), '');
  eq(
    'one side only',
    strategy.strategyText({ sente: s.sente, gote: none, line: null }),
    'Strategy: ☗ Static Rook, Boat — ☖ —',
  );
}

finish();
