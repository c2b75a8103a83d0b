// Unit tests of the analysis board's pieces (no browser): the USEN codec of
// the share link (src/records/usen.ts) against strings the Rust codec wrote
// (crates/server/src/board/export.rs, `usen_vectors`, and the doc example of
// crates/record/src/usen.rs), the engine score in words, a program's
// evaluation and line as the panel beside the board words them, and the
// explorer's shares of results and a repertoire move's outcomes.
//
//   node scripts/run-ts.mjs tests/unit-analysis.ts      (prints `N passed, M failed`)

import './globals';
import * as records_usen from '../src/records/usen';
import * as analysis_enginelines from '../src/analysis/enginelines';
import * as engine_score from '../src/engine/score';
import * as engine_programnote from '../src/engine/programnote';
import * as explorer_panel from '../src/explorer/panel';
import * as profile_repertoire from '../src/profile/repertoire';
import { replay } from '../src/board/shogi';
import { setLang } from '../src/i18n/i18n';

/** Every module under test, as one namespace. */
const m = {
  ...records_usen,
  ...analysis_enginelines,
  ...engine_score,
  ...engine_programnote,
  ...explorer_panel,
  ...profile_repertoire,
};

let passed = 0;
let failed = 0;
function eq(name: string, got: unknown, want: unknown): void {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g === w) passed++;
  else {
    failed++;
    console.log(`FAIL ${name}\n  got  ${g}\n  want ${w}`);
  }
}

const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
// Written by the Rust codec (shogi_record::usen::write); see export.rs `usen_vectors`.
const VECTORS = [
  {
    name: 'the record crate doc example (a final action, read and ignored)',
    usen: '~0.7ku2jm6y21cx.r',
    line: { sfen: START, moves: ['7g7f', '3c3d', '2g2f', '2b8h+'], variations: [] },
    written: '~0.7ku2jm6y21cx.',
  },
  {
    name: 'variations off the main line, a promotion and a drop',
    usen: '~0.7ku2jm8rl09kbxo.~1.36e6y2.~3.20k.',
    line: {
      sfen: START,
      moves: ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e'],
      variations: [
        { at: 1, moves: ['8c8d', '2g2f'] },
        { at: 3, moves: ['8b2b'] },
      ],
    },
  },
  {
    name: 'a handicap start (Gote to move)',
    usen: 'lnsgkgsnl_7b1_ppppppppp_9_9_9_PPPPPPPPP_1B5R1_LNSGKGSNL.w.-~0.2jm7ku.',
    line: {
      sfen: 'lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
      moves: ['3c3d', '7g7f'],
      variations: [],
    },
  },
  {
    name: 'a problem with pieces in hand, a capture by the king, a variation of the first move',
    usen: '4k4_9_9_9_9_9_9_9_4K4.b.2Gp~0.b9q0iqba8.~0.b9s.',
    line: {
      sfen: '4k4/9/9/9/9/9/9/9/4K4 b 2Gp 1',
      moves: ['G*5b', '5a5b', 'G*5c'],
      variations: [{ at: 0, moves: ['G*6b'] }],
    },
  },
];
for (const v of VECTORS) {
  eq(`read: ${v.name}`, m.readUsen(v.usen), v.line);
  eq(`write: ${v.name}`, m.writeUsen(v.line), v.written ?? v.usen);
}

// Every move kind round-trips through its three digits.
for (const usi of ['7g7f', '8h2b+', '1a9i', '9i1a+', 'P*5e', 'L*1a', 'N*9i', 'S*5e', 'G*5e', 'B*5e', 'R*5e']) {
  eq(`move ${usi}`, m.decodeMove(m.encodeMove(usi) ?? ''), usi);
}
eq('a drop cannot promote', m.decodeMove((((81 + 10) * 81 + 40) * 2 + 1).toString(36)), null);
eq('a move to its own square is none', m.decodeMove(((40 * 81 + 40) * 2).toString(36)), null);
eq('not base 36', m.readUsen('~0.7k!.'), null);
eq('moves not in threes', m.readUsen('~0.7ku2.'), null);
eq('a variation past the end', m.readUsen('~0.7ku.~1.2ee.'), null);
eq('no sections', m.readUsen('lnsgkgsnl'), null);

// Scores from Sente's side, in pawns with two decimals everywhere (the review and the analysis board).
eq('a score', m.lineScoreText({ score_cp: 45, mate: null, pv: [] }), '+0.45');
eq('a negative score', m.lineScoreText({ score_cp: -120, mate: null, pv: [] }), '-1.20');
eq('Sente mates', m.lineScoreText({ score_cp: 10000, mate: 3, pv: [] }), '☗ #3');
eq('Gote mates', m.lineScoreText({ score_cp: -10000, mate: -1, pv: [] }), '☖ #1');
eq("the issue's +119 cp reads as pawns", m.scoreText(119), '+1.19');
eq('a level position', m.scoreText(0), '0.00');
eq('a small minus keeps its sign', m.scoreText(-4), '-0.04');
eq('the review and the board agree', m.scoreText(67, null), m.lineScoreText({ score_cp: 67, mate: null, pv: [] }));
eq('mated now, Gote to move', m.scoreText(10000, 0), '☗ #0');

// A program's note beside the board: its score in the same words, its line in the reader's notation.
{
  const game = replay(START, ['7g7f']);
  const after = game.positions[1];
  const prevTo = game.infos[0].to;
  const note = { ply: 1, score: 35, mate: null, pv: ['3c3d', '8h2b+', '3a2b'] };
  eq('a program score is the site score', m.noteScoreText(note), '+0.35');
  eq('a program score from Gote: still Sente’s side', m.noteScoreText({ ...note, score: -42 }), '-0.42');
  eq('a mate in so many plies', m.noteScoreText({ ...note, score: null, mate: { winner: 'sente', plies: 7 } }), '☗ #7');
  eq(
    'a mate of untold length',
    m.noteScoreText({ ...note, score: null, mate: { winner: 'gote', plies: null } }),
    '☖ #?',
  );
  eq(
    'the line in Western notation, numbered by ply',
    m.noteLineText(note, after, prevTo, 'western'),
    '2. P-3d 3. Bx2b+ 4. Sx2b',
  );
  eq(
    'the line in Japanese, marks for the sides, 同 for the same square',
    m.noteLineText(note, after, prevTo, 'japanese'),
    '△３四歩▲２二角成△同　銀',
  );
  eq('the line in USI', m.noteLineText(note, after, prevTo, 'usi'), '2. 3c3d 3. 8h2b+ 4. 3a2b');
  eq(
    'a move the board cannot play ends the line',
    m.noteLineText({ ...note, pv: ['3c3d', 'zz', '2g2f'] }, after, prevTo, 'western'),
    '2. P-3d',
  );
  eq('no line', m.noteLineText({ ...note, pv: [] }, after, prevTo, 'western'), '');
  eq('the note of the move shown', m.noteAt([note], 1), note);
  eq('no note for the start', m.noteAt([note], 0), undefined);
  eq('no note for another move', m.noteAt([note], 2), undefined);
  eq('no notes at all', m.noteAt(undefined, 1), undefined);
  eq('who moved, in English', m.noteWhoText('gote', 'beta', 2), '☖ beta — after move 2');
  setLang('ru');
  eq('who moved, in Russian', m.noteWhoText('sente', 'alpha', 3), '☗ alpha — после 3-го хода');
  eq('the line in Russian notation', m.noteLineText(note, after, prevTo, 'russian'), '2. 3c-3d 3. С8hx2b+ 4. Ср3ax2b');
  setLang('ja');
  eq('who moved, in Japanese', m.noteWhoText('sente', 'alpha', 3), '☗ alpha — 3手目');
  setLang('en');
}

// The explorer's bar: whole percents of the games that ended, summing to 100.
{
  const o = (sente_wins: number, draws: number, gote_wins: number) => ({
    games: sente_wins + draws + gote_wins + 1,
    sente_wins,
    draws,
    gote_wins,
  });
  eq('shares of 2 Sente wins, 1 Gote win', m.shares(o(2, 0, 1)), { sente: 67, gote: 33, draw: 0 });
  eq('thirds sum to 100', m.shares(o(1, 1, 1)), { sente: 33, gote: 33, draw: 34 });
  eq('no ended game: no shares', m.shares(o(0, 0, 0)), null);
  eq('a repertoire move in words', m.outcomeText({ usi: '7g7f', games: 5, wins: 3, losses: 1, draws: 1 }), '+3 −1 =1');
}

// The explorer's filters keep to whole rating bands and months (summed by
// the server from its count rows); an older panel's values move to theirs.
{
  const f = { collection: 'club', time_class: 'rapid', min_rating: '', max_rating: '', since: '', until: '' };
  eq('an empty filter stays empty', m.inBands(f), f);
  eq(
    'ratings to their bands, days to their months',
    m.inBands({ ...f, min_rating: '1250', max_rating: '1500', since: '2025-03-04', until: '2025-05-31' }),
    { ...f, min_rating: '1200', max_rating: '1599', since: '2025-03', until: '2025-05' },
  );
  eq('a year is its months', m.inBands({ ...f, since: '2024', until: '2025' }), {
    ...f,
    since: '2024-01',
    until: '2025-12',
  });
  eq('no negative rating', m.inBands({ ...f, min_rating: '-5', max_rating: 'x' }), f);
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
