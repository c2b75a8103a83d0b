// How the board labels its ranks: `a`-`i` (the convention outside Japan,
// used by the Russian and Ukrainian rules pages and by USI) or `一`-`九`
// (Japanese). One setting for every board, kept in localStorage; until it
// is set, Japanese readers get `一`-`九` and everyone else `a`-`i`.

import { h, option } from '../dom';
import { lang } from '../i18n/i18n';

export type RankLabels = 'latin' | 'kanji';

export const RANK_LABELS: RankLabels[] = ['latin', 'kanji'];

const KEY = 'shogi.rankLabels';

/** The rank labels the reader chose, or the default of their language. */
export function rankLabels(): RankLabels {
  const saved = localStorage.getItem(KEY);
  if (saved === 'latin' || saved === 'kanji') return saved;
  return lang() === 'ja' ? 'kanji' : 'latin';
}

/** Remembers the reader's choice for every board. */
export function setRankLabels(labels: RankLabels): void {
  localStorage.setItem(KEY, labels);
}

/** The rank labels as shogiground names them. */
export function groundRanks(labels: RankLabels = rankLabels()): 'engine' | 'japanese' {
  return labels === 'kanji' ? 'japanese' : 'engine';
}

/** A select of the rank labels (`#rank-labels`); a change is remembered, then `changed` is called. */
export function rankLabelsSelect(changed: () => void): HTMLSelectElement {
  const select = h(
    'select',
    { id: 'rank-labels' },
    option('latin', 'a-i', rankLabels()),
    option('kanji', '一-九', rankLabels()),
  );
  select.addEventListener('change', () => {
    setRankLabels(select.value as RankLabels);
    changed();
  });
  return select;
}
