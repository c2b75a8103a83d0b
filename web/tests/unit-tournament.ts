// Unit tests of a tournament in words (no browser): crosstable cells,
// results from each side, points with halves, tie-break names in every
// language, the event JSON as documented, the create request of the form,
// and the ready-game banner's words.
//
//   node scripts/run-ts.mjs tests/unit-tournament.ts      (prints `N passed, M failed`)

import './globals';
import * as accounts_tournamentbanner from '../src/accounts/tournamentbanner';
import type { Board, Bye, Round } from '../src/api/tournaments';
import * as api_tournaments from '../src/api/tournaments';
import * as i18n_i18n from '../src/i18n/i18n';
import * as rules_timecontrol from '../src/rules/timecontrol';
import * as tournament_audit from '../src/tournament/audit';
import * as tournament_grid from '../src/tournament/grid';
import * as tournament_tournaments from '../src/tournament/tournaments';
import * as tournament_eventform from '../src/tournament/eventform';
import * as tournament_words from '../src/tournament/words';
import { eq, finish } from './unit-harness';

/** Every module under test, as one namespace. */
const m = {
  ...i18n_i18n,
  ...rules_timecontrol,
  ...tournament_words,
  ...api_tournaments,
  ...accounts_tournamentbanner,
  ...tournament_tournaments,
  ...tournament_eventform,
  ...tournament_audit,
  ...tournament_grid,
};

// A tournament in words. Cells as a crosstable prints them: the opponent's
// number, one's colour (☗ Sente, ☖ Gote), + won, - lost, = drew, * by forfeit.
m.setLang('en');
const board = (n: number, sente: number, gote: number, result: Board['result']): Board => ({
  board: n,
  sente,
  gote,
  result,
  game: null,
  games: [],
  play: 'otb',
  colours: 'balance',
  toss: null,
  handicap: 'even',
  record: false,
  reports: null,
});
const round = (n: number, pairings: Board[], byes: Bye[] = []): Round => ({
  round: n,
  pairings,
  bye: byes.find((b) => b.kind === 'pairing')?.player ?? null,
  byes,
  warnings: [],
});
const r1 = round(
  1,
  [board(1, 3, 7, 'sente'), board(2, 1, 2, 'draw'), board(3, 4, 6, 'gote_forfeit')],
  [{ player: 5, kind: 'pairing', points: 1 }],
);
eq('the winner as Sente', m.crossCell(r1, 3).text, '7☗+');
eq('the loser as Gote', m.crossCell(r1, 7).text, '3☖-');
eq('a draw', m.crossCell(r1, 2).text, '1☖=');
eq('a forfeit win is marked *', m.crossCell(r1, 4).text, '6☗+*');
eq('the forfeiting player loses', m.crossCell(r1, 6).text, '4☖-*');
eq('a pairing bye counts as a win', m.crossCell(r1, 5).text, '+');
eq('a player not in the round has an empty cell', m.crossCell(r1, 9).text, '');
eq('a game not finished: opponent and colour only', m.crossCell(round(2, [board(1, 7, 3, null)]), 3).text, '7☖');
eq('sitting out with half a point', m.crossCell(round(2, [], [{ player: 8, kind: 'half', points: 0.5 }]), 8).text, '=');
eq('sitting out with nothing', m.crossCell(round(2, [], [{ player: 8, kind: 'zero', points: 0 }]), 8).text, '-');
eq(
  'double forfeit: both lose',
  [
    m.crossCell(round(3, [board(1, 2, 9, 'double_forfeit')]), 2).text,
    m.crossCell(round(3, [board(1, 2, 9, 'double_forfeit')]), 9).text,
  ].join(' '),
  '9☗-* 2☖-*',
);
// Points before round 3 of a small event, by hand: player 3 won round 1 (1) and drew round 2 (½);
// player 5 had the bye (1) and drew round 2 (½); round 3's result does not count.
const small = {
  paired: [r1, round(2, [board(1, 3, 5, 'draw'), board(2, 7, 1, 'sente')]), round(3, [board(1, 3, 1, 'sente')])],
};
eq('points before a round, player 3', m.pointsBefore(small, 3, 3), 1.5);
eq('points before a round, player 5 (bye, then a draw)', m.pointsBefore(small, 5, 3), 1.5);
eq('points before round 1 are 0', m.pointsBefore(small, 3, 1), 0);
// The crosstable: standings order, the players the standings lack after them.
const ct = m.crosstable({
  players: [1, 2, 3].map((n) => ({
    player: n,
    name: `P${n}`,
    account: null,
    rating: 1500 + n,
    rank: null,
    club: n === 2 ? 'SPb' : null,
    from_round: 1,
    withdrawn: false,
  })),
  paired: [round(1, [board(1, 2, 1, 'sente')], [{ player: 3, kind: 'pairing', points: 1 }])],
  standings: [
    { rank: 1, player: 2, name: 'P2', points: 1, tiebreaks: { sos: 0 } },
    { rank: 1, player: 3, name: 'P3', points: 1, tiebreaks: { sos: 0 } },
  ],
});
eq(
  'crosstable rows in standings order, missing players last',
  ct.map((r) => `${r.rank}:${r.player}`).join(' '),
  '1:2 1:3 0:1',
);
eq('crosstable cells per round', ct.map((r) => r.cells.map((c) => c.text).join('|')).join(' '), '1☗+ + 2☖-');
eq('crosstable keeps the club and rating', `${ct[0].club} ${ct[0].rating}`, 'SPb 1502');
// Points with halves, tie-break values.
eq(
  'points with a half',
  [m.pointsText(2.5), m.pointsText(0.5), m.pointsText(3), m.pointsText(0)].join(' '),
  '2½ ½ 3 0',
);
eq(
  'tie-break values',
  [m.tiebreakValue(12.25), m.tiebreakValue(3.5), m.tiebreakValue(8), m.tiebreakValue(undefined)].join(' '),
  '12¼ 3½ 8 ',
);
eq(
  'scores in quarters, negative, and other values in the locale',
  [m.fractionText(0.75), m.fractionText(-1.5), m.fractionText(0), m.fractionText(4 / 3)].join(' '),
  '¾ −1½ 0 1.33',
);
// Results from each side; score lines.
eq('Sente forfeits: Gote wins', JSON.stringify(m.resultFor('sente_forfeit', 'gote')), '{"mark":"+","forfeit":true}');
eq('score lines', m.RESULTS.map((r) => m.scoreText(r)).join(' '), '1–0 0–1 ½–½ −/+ +/− −/−');
eq('no result yet', m.scoreText(null), '');
// Names in every language: every tie-break key has its own name and short name.
for (const l of ['en', 'ru', 'uk', 'ja'] as const) {
  m.setLang(l);
  const names = m.TIEBREAKS.map((k) => m.tiebreakName(k));
  eq(`${l}: eight distinct tie-break names`, new Set(names).size, 8);
  eq(`${l}: eight distinct short names`, new Set(m.TIEBREAKS.map((k) => m.tiebreakShort(k))).size, 8);
  eq(
    `${l}: every pairing rule named`,
    m.WARNING_RULES.every((w) => m.warningText(w) !== w),
    true,
  );
  eq(`${l}: every result named`, new Set(m.RESULTS.map((r) => m.resultLabel(r))).size, 6);
}
m.setLang('en');
eq('Sonneborn-Berger in English', m.tiebreakName('sb'), 'Sonneborn-Berger');
eq('an unknown tie-break key as it came', m.tiebreakName('xyz'), 'xyz');
eq(
  'furigoma with the toss (English)',
  m.coloursText({ colours: 'furigoma', toss: { tosser: 3, fu: 4 } }),
  'Furigoma: 4 pawns',
);
eq('a result label', m.resultLabel('gote_forfeit'), 'Gote forfeits (Sente wins)');
eq('a double round robin', m.formatText('round_robin', true), 'Double round robin');
eq(
  'a ready game in words',
  m.readyGameText({ tournament: 'a', name: 'Cup', round: 2, board: 1, game: 'b', side: 'gote', opponent: 'Борис' }),
  'Cup, round 2, board 1: you play ☖ Gote against Борис',
);
m.setLang('ja');
eq('振り駒 with the toss', m.coloursText({ colours: 'furigoma', toss: { tosser: 3, fu: 4 } }), '振り駒: 歩×4');
eq('Japanese Swiss', m.formatText('swiss'), 'スイス式');
eq('Japanese round robin', m.formatText('round_robin'), '総当たり');
eq('Japanese bye', m.byeText({ player: 1, kind: 'pairing', points: 1 }), '不戦勝 (1)');
m.setLang('ru');
eq('Russian round robin', m.formatText('round_robin'), 'Круговой');
eq('Russian Swiss', m.formatText('swiss'), 'Швейцарская система');
eq('Russian Buchholz', m.tiebreakName('sos'), 'Бухгольц (сумма очков соперников)');
eq('Russian half-point sit-out', m.byeText({ player: 1, kind: 'half', points: 0.5 }), 'пропускает тур (½)');
m.setLang('uk');
eq('Ukrainian double round robin', m.formatText('round_robin', true), 'Двоколовий');
m.setLang('en');
// The event JSON as documented: "planned_rounds" the number, "rounds" the paired rounds.
const doc = JSON.parse(
  '{"id":"a1b2c3d4e5f60718","name":"x","format":"swiss","planned_rounds":5,"players":[],"rounds":[{"round":1,"pairings":[],"bye":5}],"standings":[]}',
);
const view = m.eventView(doc);
eq('the paired rounds from the documented JSON', view.paired.length, 1);
eq(
  'a lone pairing bye becomes a bye of 1 point',
  JSON.stringify(view.paired[0].byes),
  '[{"player":5,"kind":"pairing","points":1}]',
);
eq('the planned number', view.planned, 5);
eq('no rounds yet', m.eventView({ planned_rounds: 7 }).paired.length, 0);
eq(
  'a round robin defaults to direct encounter, wins, SB (FIDE)',
  m.defaultTiebreaks('round_robin').join(),
  'direct,wins,sb',
);
eq('a Swiss defaults to SOS, SOSOS, direct encounter', m.defaultTiebreaks('swiss').join(), 'sos,sosos,direct');
// The create request.
const tc30 = { main_ms: 1800000, byoyomi_ms: 30000, periods: 1, increment_ms: 0 };
const formBase: Parameters<typeof m.createRequest>[0] = {
  name: ' Рождественский турнир ',
  place: '',
  starts: '2026-12-25',
  ends: '',
  time: '30+30',
  mainMin: 30,
  byoSec: 30,
  periods: 1,
  incSec: 0,
  format: 'double_round_robin',
  rounds: '',
  rated: false,
  play: 'mixed',
  impasse: '27',
  tiebreaks: ['sb', 'wins'],
  tiebreaksTouched: true,
  open: true,
  handicap: false,
  chat: false,
  takebacks: false,
  bar: '1d',
  floor: '10k',
};
const req = m.createRequest(formBase);
eq('an event allows no chat and no takebacks unless asked', `${req.chat} ${req.takebacks}`, 'false false');
eq('double round robin: round_robin with double', `${req.format} ${req.double}`, 'round_robin true');
eq('an empty rounds field is left to the server', 'rounds' in req, false);
eq(
  'the name is trimmed, empty fields left out',
  `${req.name}|${'place' in req}|${req.starts}|${'ends' in req}`,
  'Рождественский турнир|false|2026-12-25|false',
);
eq('the 30+30 preset is 30 min + 30 s byoyomi', JSON.stringify(req.time), JSON.stringify(tc30));
const sw = m.createRequest({
  ...formBase,
  format: 'mcmahon',
  rounds: '5',
  time: 'custom',
  mainMin: 15,
  byoSec: 10,
  periods: 3,
});
eq(
  'McMahon with bar and floor, rounds',
  `${sw.format} ${sw.rounds} ${JSON.stringify(sw.mcmahon)} ${'double' in sw}`,
  'mcmahon 5 {"bar":"1d","floor":"10k"} false',
);
eq(
  'a custom clock',
  JSON.stringify(sw.time),
  JSON.stringify({ main_ms: 900000, byoyomi_ms: 10000, periods: 3, increment_ms: 0 }),
);
// The edit form starts from the event's settings and asks for them unchanged.
{
  const ev = m.eventView({
    id: 'e1',
    name: 'Кубок',
    place: 'СПб',
    starts: '2026-12-25',
    ends: null,
    format: 'round_robin',
    double: true,
    time: { main_ms: 600000, byoyomi_ms: 10000, periods: 2, increment_ms: 0 },
    rated: true,
    play: 'online',
    impasse: '24',
    tiebreaks: ['direct', 'sb'],
    open: false,
    handicap: true,
    chat: true,
    takebacks: false,
    mcmahon: null,
  });
  const f = m.formFromEvent(ev);
  const again = m.createRequest(f);
  eq('edit: the format menu shows a double round robin', f.format, 'double_round_robin');
  eq(
    'edit: a clock that is no preset is a custom one',
    `${f.time} ${JSON.stringify(again.time)}`,
    `custom ${JSON.stringify(ev.time)}`,
  );
  eq(
    'edit: the settings come back unchanged',
    JSON.stringify([
      again.name,
      again.place,
      again.starts,
      again.format,
      again.double,
      again.rated,
      again.play,
      again.impasse,
      again.tiebreaks,
      again.open,
      again.handicap,
      again.chat,
      again.takebacks,
    ]),
    JSON.stringify([
      'Кубок',
      'СПб',
      '2026-12-25',
      'round_robin',
      true,
      true,
      'online',
      '24',
      ['direct', 'sb'],
      false,
      true,
      true,
      false,
    ]),
  );
  eq('edit: the 30+30 preset is found again', m.formFromEvent({ ...ev, time: tc30 }).time, '30+30');
}

// The round robin's N×N table: rows and columns by entry number, the
// diagonal empty, a result per meeting in round order (two in a double
// round robin), forfeits as + and −.
{
  const player = (n: number, rank: string | null = null) => ({
    player: n,
    name: `P${n}`,
    account: null,
    rating: null,
    rank,
    club: null,
    from_round: 1,
    withdrawn_from: null,
  });
  const players = [player(3), player(1, '1d'), player(2, '5k')];
  const paired = [
    round(1, [board(1, 1, 2, 'sente')]),
    round(2, [board(1, 3, 1, 'draw')]),
    round(3, [board(1, 2, 3, 'gote_forfeit')]),
    round(4, [board(1, 2, 1, 'sente')]),
    round(5, [board(1, 1, 3, null)]),
  ];
  const standings = [
    { rank: 1, player: 1, name: 'P1', points: 1.5, tiebreaks: { sb: 0.75 } },
    { rank: 2, player: 2, name: 'P2', points: 2, tiebreaks: { sb: 1 } },
  ];
  const g = m.roundRobinGrid({ players, paired, standings } as never);
  eq('rows by entry number', g.map((r) => r.player).join(), '1,2,3');
  eq('the diagonal is empty', g.map((r, i) => r.cells[i]).join('|'), '||');
  eq('1 against 2: won then lost', g[0].cells[1]?.join(' '), '1 0');
  eq('2 against 1: the mirror', g[1].cells[0]?.join(' '), '0 1');
  eq('1 against 3: a draw, then a game without a result', JSON.stringify(g[0].cells[2]), '["½",""]');
  eq('a forfeit: + for who came, − for who did not', `${g[1].cells[2]?.join()} ${g[2].cells[1]?.join()}`, '+ −');
  eq('points and place from the standings', `${g[0].points} ${g[0].place} ${g[2].place}`, '1.5 1 0');
  eq('the rank as entered', g[1].grade, '5k');
}

// The audit log worded per action in the reader's language; an entry of
// plain words (written before the parameters) shown as it came.
m.setLang('ru');
eq('ru: create', m.auditText({ action: 'create', params: { name: 'Кубок' } }), 'Турнир «Кубок» создан');
eq(
  'ru: a pairing with a bye',
  m.auditText({ action: 'pair_round', params: { round: 1, boards: 6, byes: [13], forced: [] } }),
  'Тур 1 сведён (досок: 6); без пары: 13',
);
eq(
  'ru: a board result',
  m.auditText({
    action: 'board',
    params: { round: 1, board: 2, changes: [{ what: 'result', result: 'sente' }, { what: 'record' }] },
  }),
  `Тур 1, доска 2: Результат: ${m.resultLabel('sente')}, запись партии загружена`,
);
eq('ru: an old entry', m.auditText({ action: 'create', params: { text: 'x' } }), 'create: x');
for (const l of ['en', 'ru', 'uk', 'ja'] as const) {
  m.setLang(l);
  for (const [action, params] of [
    ['create', { name: 'N' }],
    ['settings', { settings: {} }],
    ['add_player', { number: 1, name: 'N' }],
    ['edit_player', { number: 1, name: 'N' }],
    ['withdraw', { number: 1, name: 'N' }],
    ['add_organiser', { name: 'N' }],
    ['remove_organiser', { name: 'N' }],
    ['pair_round', { round: 1, boards: 2, byes: [3], forced: [[1, 2]] }],
    ['unpair_round', { round: 1 }],
    [
      'board',
      {
        round: 1,
        board: 1,
        changes: [
          { what: 'result', result: null },
          { what: 'handicap', handicap: 'lance' },
          { what: 'play', play: 'otb' },
        ],
      },
    ],
    ['report', { round: 1, board: 1, result: 'gote' }],
    ['sennichite_replay', { round: 1, board: 1, game: 'a', replay: 'b' }],
  ] as const) {
    const text = m.auditText({ action, params: params as Record<string, unknown> });
    eq(`${l}: ${action} is worded`, !text.includes('{') && !text.includes('audit_') && !text.startsWith(action), true);
  }
}
m.setLang('en');

finish();
