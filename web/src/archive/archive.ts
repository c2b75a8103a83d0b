// The archive: every finished or imported game, filtered by player, result
// and strategy (an opening, a castle or a line: docs/STRATEGY.md), a page at
// a time, each opening in the review board.

import { request as call } from '../api/api';
import { h, option } from '../dom';
import { gameTable, type ArchiveEntry } from '../records/gametable';
import { t } from '../i18n/i18n';
import { strategySelect as strategySelectOf, type StrategyTags } from '../records/strategy';
import type { Screen } from '../screen';

/** Draws the archive list, its filter and pager, from the query of the address. */
export function renderArchive(root: HTMLElement): Screen {
  const params = new URLSearchParams(location.search);
  let player = params.get('player') ?? '';
  let result = params.get('result') ?? '';
  let strategy = params.get('strategy') ?? '';
  // The tags the server knows, loaded once (the select waits for them).
  let tags: StrategyTags | null = null;
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
    const strategySelect = strategySelectOf(tags, strategy, { name: 'strategy', id: 'archive-strategy' });
    const form = h(
      'form',
      { class: 'archive-filter', id: 'archive-form' },
      h('label', {}, t('player'), ' ', input),
      h('label', {}, t('result'), ' ', select),
      h('label', {}, t('strategy'), ' ', strategySelect),
      h('button', { type: 'submit' }, t('filter')),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      player = input.value.trim();
      result = select.value;
      strategy = strategySelect.value;
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
    if (strategy) q.set('strategy', strategy);
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
        data.entries.length === 0 ? h('p', {}, t('noGames')) : gameTable(data.entries),
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
  call<typeof tags>('GET', '/api/strategies')
    .then((all) => {
      tags = all;
      render();
    })
    .catch(() => {});
  return { destroy() {}, rerender: render };
}
