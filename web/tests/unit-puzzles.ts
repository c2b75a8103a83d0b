// Unit tests of the puzzles' words (src/puzzles/words.ts): the prompt in each
// language (Japanese counts plies, the others moves), the reason of a wrong
// move, the kind choices and the guest's stored rating (no browser; the few
// globals i18n/i18n.ts reads are stubbed).
//
//   node scripts/run-ts.mjs tests/unit-puzzles.ts      (prints `N passed, M failed`)

import './globals';
import * as puzzles_words from '../src/puzzles/words';
import * as i18n from '../src/i18n/i18n';
import { eq, finish } from './unit-harness';

/** Every module under test, as one namespace. */
const m = { ...puzzles_words, ...i18n };

const m3 = { kind: 'mate', plies: 3, side_to_move: 'gote' } as const;
m.setLang('en');
eq('en: moves, not plies', m.puzzlePrompt(m3), 'Gote to move, mate in 2');
eq(
  'en: best move',
  m.puzzlePrompt({ kind: 'best', plies: 1, side_to_move: 'sente' } as const),
  'Sente to move: find the best move',
);
eq(
  'en: escape names the move',
  m.whyText('escapes', 'K-2b'),
  'The king escapes: after K-2b there is no mate in the moves left.',
);
eq('en: kind label', m.kindLabel('mate-5'), 'Mate in 3');
eq('kind query of mate in 3', m.kindQuery('mate-5'), 'kind=mate&plies=5');
eq('kind query of best', m.kindQuery('best'), 'kind=best');
eq('kind query of any', m.kindQuery(''), '');
m.setLang('ja');
eq('ja: plies (手詰め)', m.puzzlePrompt(m3), '後手番・3手詰め');
eq('ja: kind label', m.kindLabel('mate-7'), '7手詰め');
m.setLang('ru');
eq('ru: moves', m.puzzlePrompt(m3), 'Ходит Готэ. Мат в 2');
eq('ru: no check', m.whyText('no_check', ''), 'Этот ход не объявляет шах: цумэ решается только шахами.');
m.setLang('uk');
eq('uk: moves', m.puzzlePrompt(m3), 'Ходить Ґоте. Мат у 2');
for (const why of ['no_check', 'not_mate', 'escapes', 'not_best'] as const) {
  for (const l of m.LANGS) {
    m.setLang(l);
    eq(`${l}: ${why} has words`, m.whyText(why, 'X').length > 5, true);
  }
}
eq('a new guest: 1500', m.guestRating().rating, 1500);
localStorage.setItem(m.RATING_KEY, JSON.stringify({ rating: 1612.5, deviation: 120, volatility: 0.06 }));
eq('a stored guest rating', m.guestRating().rating, 1612.5);
localStorage.setItem(m.RATING_KEY, '{"rating": "x"}');
eq('a damaged guest rating starts again', m.guestRating().rating, 1500);
eq('no best streak yet', m.guestBestStreak(), 0);
localStorage.setItem(m.STREAK_KEY, '7');
eq('a best streak', m.guestBestStreak(), 7);

finish();
