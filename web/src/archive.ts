// The archive: every finished or imported game, filtered by player and
// result, a page at a time, each opening in the review board.

import { request as call } from './api';
import { h, option } from './dom';
import { resultText } from './ending';
import { dayText } from './dates';
import { t, type MsgKey } from './i18n';
import type { Screen } from './screen';
import { timeControlText } from './timecontrol';

/** One game of the archive list (`GET /api/archive`). */
export interface ArchiveEntry {
  id: string;
  kind: 'game' | 'import';
  created_at_ms: number;
  /** When the game was played: a game's start, a record's header date (else its import time). */
  played_at_ms: number;
  sente: string | null;
  gote: string | null;
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
        `☗ ${e.sente ?? t('sente')} — ☖ ${e.gote ?? t('gote')}`,
        e.kind === 'import' ? h('span', { class: 'tag' }, ` ${t('imported')}`) : null,
      ),
      h('td', {}, timeControlText(e.time)),
      h('td', {}, e.handicap === 'custom' ? '—' : (t(`hc_${e.handicap}` as MsgKey) ?? e.handicap)),
      h('td', {}, resultText(e.winner, e.reason)),
      h('td', {}, String(e.moves)),
      h('td', {}, h('a', { href: `/review/${e.id}`, 'data-link': true }, t('open'))),
    ),
  );
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'archive-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          [t('date'), t('players'), t('timeControl'), t('handicap'), t('result'), t('moveCount'), ''].map((c) => h('th', {}, c)),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

/** Draws the archive list, its filter and pager, from the query of the address. */
export function renderArchive(root: HTMLElement): Screen {
  const params = new URLSearchParams(location.search);
  let player = params.get('player') ?? '';
  let result = params.get('result') ?? '';
  let page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const perPage = 20;
  const list = h('div', { id: 'archive-list' });
  // Loads may overlap (the first page, then a filter at once): only the
  // newest one's answer is drawn, so an older answer never replaces it.
  let latest = 0;
  const render = () => {
    const input = h('input', { name: 'player', id: 'archive-player', value: player, placeholder: t('player') });
    const select = h(
      'select',
      { name: 'result', id: 'archive-result' },
      option('', t('any'), result),
      option('sente', t('senteWins'), result),
      option('gote', t('goteWins'), result),
      option('draw', t('draw'), result),
    );
    const form = h(
      'form',
      { class: 'archive-filter', id: 'archive-form' },
      h('label', {}, t('player'), ' ', input),
      h('label', {}, t('result'), ' ', select),
      h('button', { type: 'submit' }, t('filter')),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      player = input.value.trim();
      result = select.value;
      page = 1;
      load();
    });
    root.replaceChildren(h('section', { class: 'archive' }, h('h1', {}, t('archive')), form, list));
    load();
  };
  const load = async () => {
    const q = new URLSearchParams({ page: String(page), per_page: String(perPage) });
    if (player) q.set('player', player);
    if (result) q.set('result', result);
    history.replaceState(null, '', `/archive?${q.toString()}`);
    const seq = ++latest;
    try {
      const data = await call<{ total: number; entries: ArchiveEntry[] }>('GET', `/api/archive?${q.toString()}`);
      if (seq !== latest) return;
      const pages = Math.max(1, Math.ceil(data.total / perPage));
      const prev = h('button', { type: 'button', id: 'archive-prev', disabled: page <= 1 }, t('pagePrev'));
      const next = h('button', { type: 'button', id: 'archive-next', disabled: page >= pages }, t('pageNext'));
      prev.addEventListener('click', () => {
        page--;
        load();
      });
      next.addEventListener('click', () => {
        page++;
        load();
      });
      list.replaceChildren(
        data.entries.length === 0
          ? h('p', {}, t('noGames'))
          : gameTable(data.entries),
        h('div', { class: 'pager' }, prev, h('span', {}, `${t('page')} ${page} / ${pages}`), next),
      );
      // The query the list shows, for whoever waits for a filter to apply.
      list.dataset.query = q.toString();
    } catch (e) {
      if (seq !== latest) return;
      list.replaceChildren(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    }
  };
  render();
  return { destroy() {}, rerender: render };
}
