// A game's strategy tags as the review shows them (docs/STRATEGY.md): each
// side's opening and castles and the game's line, in the reader's language,
// from the names the server sends with each tag.

import { h, option } from '../dom';
import { type Lang, lang, t } from '../i18n/i18n';

/** A tag: its stable id and its names in the site's four languages. */
export interface StrategyTag {
  id: string;
  names: Record<Lang, string>;
}

/** One side's tags. */
export interface SideStrategy {
  family: StrategyTag | null;
  opening: StrategyTag | null;
  later_opening: StrategyTag | null;
  castles: StrategyTag[];
}

/** The `strategy` of the record JSON. */
export interface Strategy {
  sente: SideStrategy;
  gote: SideStrategy;
  line: StrategyTag | null;
}

function name(tag: StrategyTag, l: Lang): string {
  return tag.names[l] ?? tag.id;
}

/** One side: "Fourth-file Rook → Opposing Rook, Mino, High Mino" (empty when nothing was recognised). */
export function sideText(s: SideStrategy, l: Lang = lang()): string {
  const parts: string[] = [];
  if (s.opening)
    parts.push(s.later_opening ? `${name(s.opening, l)} → ${name(s.later_opening, l)}` : name(s.opening, l));
  for (const c of s.castles) parts.push(name(c, l));
  return parts.join(', ');
}

/** "Strategy: ☗ Static Rook, Funagakoi — ☖ Fourth-file Rook, Mino · Static vs Ranging", or '' when nothing was recognised. */
export function strategyText(s: Strategy | undefined, l: Lang = lang()): string {
  if (!s) return '';
  const sente = sideText(s.sente, l);
  const gote = sideText(s.gote, l);
  if (!sente && !gote && !s.line) return '';
  const sides = `☗ ${sente || '—'} — ☖ ${gote || '—'}`;
  return `${t('strategy')}: ${sides}${s.line ? ` · ${name(s.line, l)}` : ''}`;
}

/** The tags the server knows (`GET /api/strategies`). */
export type StrategyTags = Record<'families' | 'openings' | 'castles' | 'lines', StrategyTag[]>;

/** A select of every tag by group ("any" first), `value` chosen; empty groups until `tags` are loaded. */
export function strategySelect(
  tags: StrategyTags | null,
  value: string,
  attrs: Record<string, string>,
): HTMLSelectElement {
  const group = (label: string, list: StrategyTag[] | undefined) =>
    h('optgroup', { label }, ...(list ?? []).map((g) => option(g.id, g.names[lang()] ?? g.id, value)));
  return h(
    'select',
    attrs,
    option('', t('any'), value),
    group(
      t('strategyOpenings'),
      tags ? [...tags.families, ...tags.openings.filter((o) => o.id !== 'static_rook')] : [],
    ),
    group(t('strategyCastles'), tags?.castles),
    group(t('strategyLines'), tags?.lines),
  );
}
