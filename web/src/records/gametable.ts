// A table of finished or imported games (the archive's, a player's on the
// profile), each row opening the review board.

import { botBadge } from '../accounts/players';
import { h, scrollBox } from '../dom';
import { t, type MsgKey } from '../i18n/i18n';
import { timeControlText } from '../rules/timecontrol';
import { dayText } from './dates';
import { resultText } from './ending';

/** One game of the archive list (`GET /api/archive`). */
export interface ArchiveEntry {
  id: string;
  kind: 'game' | 'import';
  created_at_ms: number;
  /** When the game was played: a game's start, a record's header date (else its import time). */
  played_at_ms: number;
  sente: string | null;
  gote: string | null;
  /** Sente is a program's account (absent otherwise). */
  sente_bot?: boolean;
  /** Gote is a program's account (absent otherwise). */
  gote_bot?: boolean;
  time: { main_ms: number; byoyomi_ms: number; periods: number; increment_ms: number } | null;
  handicap: string;
  winner: 'sente' | 'gote' | null;
  reason: string | null;
  moves: number;
}

/** A table of games (the archive's, a player's), each row opening the review board. */
export function gameTable(entries: ArchiveEntry[]): HTMLElement {
  const rows = entries.map((e) =>
    h(
      'tr',
      { class: 'archive-row', 'data-id': e.id },
      h('td', { class: 'nowrap' }, dayText(e.played_at_ms ?? e.created_at_ms)),
      h(
        'td',
        {},
        `☗ ${e.sente ?? t('sente')}`,
        botBadge(e.sente_bot),
        ` — ☖ ${e.gote ?? t('gote')}`,
        botBadge(e.gote_bot),
        e.kind === 'import' ? h('span', { class: 'tag' }, ` ${t('imported')}`) : null,
      ),
      h('td', {}, timeControlText(e.time)),
      h('td', {}, e.handicap === 'custom' ? '—' : (t(`hc_${e.handicap}` as MsgKey) ?? e.handicap)),
      h('td', {}, resultText(e.winner, e.reason)),
      h('td', {}, String(e.moves)),
      h('td', {}, h('a', { href: `/review/${e.id}`, 'data-link': true }, t('open'))),
    ),
  );
  return scrollBox(
    h(
      'table',
      { class: 'archive-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          [t('date'), t('players'), t('timeControl'), t('handicap'), t('result'), t('moveCount'), ''].map((c) =>
            h('th', {}, c),
          ),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}
