// The collections page `/collections`: the collections the reader may read;
// for a logged-in reader, a new collection (public or private) and a ZIP of
// records uploaded into one, with a progress bar (the upload's own bytes,
// then the server's streamed lines: files read, games added, duplicates) and
// at the end the files that could not be read, with their line and column;
// and the game search (`GET /api/search`: player, event, result, dates,
// strategy, the analysis board's position).

import { me, onAccountChange } from '../accounts/account';
import { request } from '../api/api';
import { recordReasonText } from '../api/problem';
import {
  collections as listCollections,
  createCollection,
  importRecords,
  searchGames,
  type Collection,
  type ImportProgress,
  type ListedGame,
} from '../api/explorer';
import { filePicker, h, option, scrollBox } from '../dom';
import { listedGamesTable } from '../explorer/panel';
import { analysisSfen } from '../explorer/remembered';
import { t } from '../i18n/i18n';
import { strategySelect, type StrategyTags } from '../records/strategy';
import type { Screen } from '../screen';

/** The games a search asks for at a time. */
const SEARCH_PAGE = 20;

/** Where an upload stands. */
type Upload =
  | { phase: 'idle' }
  | { phase: 'sending'; loaded: number; total: number }
  | { phase: 'reading'; p: ImportProgress }
  | { phase: 'failed'; message: string; p: ImportProgress | null };

function fill(text: string, params: Record<string, string | number>): string {
  return Object.entries(params).reduce((s, [k, v]) => s.replace(`{${k}}`, String(v)), text);
}

/** Where a file could not be read: "line 3, column 5", "line 3" or nothing. */
function placeText(u: ImportProgress['unreadable'][number]): string {
  if (u.line && u.column) return fill(t('collLineColumn'), { line: u.line, column: u.column });
  if (u.line) return fill(t('collLine'), { line: u.line });
  return '';
}

/**
 * Why a file did not import, in the reader's language (the server's English
 * words, without the place, for a reason this page does not know).
 */
function reasonText(u: ImportProgress['unreadable'][number]): string {
  const reader = recordReasonText(u.reason);
  if (reader) return u.token ? `${reader} «${u.token}»` : reader;
  if (u.reason === 'empty_file') return t('collEmptyFile');
  if (u.reason === 'too_large') return t('collTooLarge');
  if (u.reason === 'unreadable_file') return t('collUnreadableFile');
  return u.problem.replace(/^line \d+(, column \d+)?: /, '');
}

/** Draws the collections page. */
export function renderCollections(root: HTMLElement): Screen {
  let cols: Collection[] = [];
  let listError = '';
  let message = '';
  let formError = '';
  let upload: Upload = { phase: 'idle' };
  let target = '';
  /** The file chosen for the upload, named again each time the form is drawn. */
  let chosen: File | null = null;
  let tags: StrategyTags | null = null;
  // What is typed into the forms, kept as it is typed: the page is drawn
  // again when its lists arrive, and a field drawn anew must not lose it.
  const draft = { name: '', visibility: 'public' as 'public' | 'private' };
  const search = { player: '', event: '', result: '', since: '', until: '', strategy: '', collection: '', here: false };
  let found: ListedGame[] | null = null;
  let more = false;
  let searchError = '';
  const listBox = h('div', { id: 'collections-list' });
  const uploadBox = h('div', { class: 'collection-upload', id: 'collection-upload' });
  const resultsBox = h('div', { id: 'search-results' });

  const load = async () => {
    try {
      cols = await listCollections();
      listError = '';
    } catch (e) {
      listError = e instanceof Error ? e.message : String(e);
    }
    render();
  };

  const drawList = () => {
    if (listError) {
      listBox.replaceChildren(h('p', { class: 'error' }, listError));
      return;
    }
    if (cols.length === 0) {
      listBox.replaceChildren(h('p', { id: 'collections-none' }, t('collNone')));
      return;
    }
    const rows = cols.map((c) =>
      h(
        'tr',
        { class: 'collection-row', 'data-name': c.name },
        h('td', {}, c.name),
        h('td', {}, c.visibility === 'private' ? t('collPrivate') : t('collPublic')),
        h('td', {}, c.tournament ?? '—'),
        h('td', { class: 'num' }, c.games.toLocaleString()),
      ),
    );
    listBox.replaceChildren(
      scrollBox(
        h(
          'table',
          { class: 'collections-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              [t('collName'), t('collVisibility'), t('collTournament'), t('games')].map((c) => h('th', {}, c)),
            ),
          ),
          h('tbody', {}, rows),
        ),
      ),
    );
  };

  const create = async (name: string, visibility: 'public' | 'private') => {
    formError = '';
    message = '';
    try {
      const c = await createCollection(name, visibility);
      message = fill(t('collCreated'), { name: c.name });
      target = c.name;
      draft.name = '';
      await load();
      return;
    } catch (e) {
      formError = e instanceof Error ? e.message : String(e);
    }
    render();
  };

  const newForm = (): HTMLElement => {
    const name = h('input', {
      id: 'collection-name',
      required: true,
      maxlength: 64,
      'aria-label': t('collName'),
      value: draft.name,
    });
    name.addEventListener('input', () => {
      draft.name = name.value;
    });
    const visibility = h(
      'select',
      { id: 'collection-visibility', 'aria-label': t('collVisibility') },
      option('public', t('collPublic'), draft.visibility),
      option('private', t('collPrivate'), draft.visibility),
    );
    visibility.addEventListener('change', () => {
      draft.visibility = visibility.value as 'public' | 'private';
    });
    const form = h(
      'form',
      { class: 'controls collection-new', id: 'collection-new' },
      h('label', {}, `${t('collName')} `, name),
      h('label', {}, `${t('collVisibility')} `, visibility),
      h('button', { type: 'submit', id: 'collection-create' }, t('collCreate')),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (name.value.trim()) create(name.value.trim(), visibility.value as 'public' | 'private');
    });
    return h(
      'div',
      {},
      h('h2', {}, t('collNew')),
      form,
      formError ? h('p', { class: 'error', id: 'collection-error' }, formError) : null,
      message ? h('p', { class: 'note', id: 'collection-message', role: 'status' }, message) : null,
    );
  };

  /** The bar and the words of the upload in progress or finished. */
  const drawProgress = () => {
    const parts: HTMLElement[] = [];
    const bar = (value: number, max: number) =>
      h('progress', { id: 'upload-progress', value: String(value), max: String(Math.max(1, max)) });
    if (upload.phase === 'sending') {
      const pct = upload.total > 0 ? Math.floor((100 * upload.loaded) / upload.total) : 0;
      parts.push(
        bar(upload.loaded, upload.total),
        h('p', { id: 'upload-status', role: 'status' }, fill(t('collSending'), { percent: pct })),
      );
    }
    const p = upload.phase === 'reading' || upload.phase === 'failed' ? upload.p : null;
    if (p) {
      const words = p.finished && upload.phase === 'reading' ? t('collFinished') : t('collReading');
      parts.push(
        bar(p.done, p.files),
        h('p', { id: 'upload-status', role: 'status' }, fill(words, { done: p.done, files: p.files })),
        h(
          'p',
          { id: 'upload-counts' },
          h('span', { id: 'upload-added' }, fill(t('collAdded'), { n: p.added })),
          ' · ',
          h('span', { id: 'upload-duplicates' }, fill(t('collDuplicates'), { n: p.duplicates })),
        ),
      );
      if (p.finished && p.unreadable.length > 0)
        parts.push(
          h('h3', {}, t('collUnreadable')),
          h(
            'ul',
            { id: 'upload-unreadable' },
            p.unreadable.map((u) => {
              const place = placeText(u);
              // The server names the body `upload.zip` and repeats the place in the problem.
              const file = u.file.replace(/^upload\.zip\//, '');
              return h(
                'li',
                { class: 'unreadable-file' },
                h('strong', {}, file),
                place ? `: ${place}` : '',
                ` — ${reasonText(u)}`,
              );
            }),
          ),
        );
    }
    if (upload.phase === 'failed') parts.push(h('p', { class: 'error', id: 'upload-error' }, upload.message));
    return parts;
  };

  const start = async (name: string, file: File) => {
    upload = { phase: 'sending', loaded: 0, total: file.size };
    drawUpload();
    try {
      const last = await importRecords(name, file, {
        sent: (loaded, total) => {
          if (upload.phase !== 'sending') return;
          upload = { phase: 'sending', loaded, total };
          drawUpload();
        },
        progress: (p) => {
          upload = { phase: 'reading', p };
          drawUpload();
        },
      });
      upload = last.error
        ? { phase: 'failed', message: fill(t('collStopped'), { message: last.message ?? last.error }), p: last }
        : { phase: 'reading', p: last };
    } catch (e) {
      upload = { phase: 'failed', message: e instanceof Error ? e.message : String(e), p: null };
    }
    drawUpload();
    load();
  };

  const drawUpload = () => {
    const writable = cols.filter((c) => c.can_import);
    if (!writable.some((c) => c.name === target)) target = writable[0]?.name ?? '';
    const busy = upload.phase === 'sending' || (upload.phase === 'reading' && !upload.p.finished);
    const into = h(
      'select',
      { id: 'upload-collection', 'aria-label': t('collInto') },
      writable.map((c) => option(c.name, c.name, target)),
    );
    into.addEventListener('change', () => {
      target = into.value;
    });
    const picker = filePicker(
      t('pickFile'),
      { id: 'upload-file', accept: '.zip,.kif,.kifu,.ki2,.csa,.jkf,.usi,.sfen' },
      chosen,
    );
    const file = picker.input;
    file.addEventListener('change', () => {
      chosen = file.files?.[0] ?? null;
    });
    const button = h('button', { type: 'button', id: 'upload-start', disabled: busy }, t('collUploadButton'));
    button.addEventListener('click', () => {
      const f = file.files?.[0];
      if (f && target) start(target, f);
    });
    uploadBox.replaceChildren(
      h('h2', {}, t('collUpload')),
      h('p', { class: 'hint' }, t('collUploadHelp')),
      writable.length === 0
        ? h('p', { class: 'note', id: 'upload-none' }, t('collNoWritable'))
        : h('div', { class: 'controls' }, h('label', {}, `${t('collInto')} `, into), picker.element, button),
      ...drawProgress(),
    );
  };

  const find = async (offset: number) => {
    const params: Record<string, string> = {
      player: search.player,
      event: search.event,
      result: search.result,
      since: search.since,
      until: search.until,
      strategy: search.strategy,
      collection: search.collection,
      offset: String(offset),
      limit: String(SEARCH_PAGE),
    };
    if (search.here) params.sfen = analysisSfen() ?? 'startpos';
    try {
      const answer = await searchGames(params);
      found = offset === 0 ? answer.games : [...(found ?? []), ...answer.games];
      more = answer.more;
      searchError = '';
    } catch (e) {
      searchError = e instanceof Error ? e.message : String(e);
    }
    drawResults();
  };

  const drawResults = () => {
    if (searchError) {
      resultsBox.replaceChildren(h('p', { class: 'error', id: 'search-error' }, searchError));
      return;
    }
    if (!found) {
      resultsBox.replaceChildren();
      return;
    }
    const moreButton = h('button', { type: 'button', id: 'search-more' }, t('srchMore'));
    moreButton.addEventListener('click', () => find(found?.length ?? 0));
    resultsBox.replaceChildren(
      found.length === 0
        ? h('p', { id: 'search-none' }, t('srchNone'))
        : scrollBox(listedGamesTable(found, 'search-games')),
      more ? moreButton : '',
    );
  };

  const searchForm = (): HTMLElement => {
    const text = (key: 'player' | 'event' | 'since' | 'until', label: string, attrs: Record<string, string> = {}) => {
      const el = h('input', { id: `search-${key}`, value: search[key], ...attrs });
      el.addEventListener('input', () => {
        search[key] = el.value.trim();
      });
      return h('label', {}, `${label} `, el);
    };
    const result = h(
      'select',
      { id: 'search-result' },
      option('', t('any'), search.result),
      option('sente', t('senteWins'), search.result),
      option('gote', t('goteWins'), search.result),
      option('draw', t('draw'), search.result),
    );
    result.addEventListener('change', () => {
      search.result = result.value;
    });
    const strategy = strategySelect(tags, search.strategy, { id: 'search-strategy' });
    strategy.addEventListener('change', () => {
      search.strategy = strategy.value;
    });
    const collection = h(
      'select',
      { id: 'search-collection' },
      option('', t('exAllCollections'), search.collection),
      cols.map((c) => option(c.name, c.name, search.collection)),
    );
    collection.addEventListener('change', () => {
      search.collection = collection.value;
    });
    const here = h('input', { type: 'checkbox', id: 'search-here', checked: search.here });
    here.addEventListener('change', () => {
      search.here = here.checked;
    });
    const day = { placeholder: t('exDateHint'), size: '10' };
    const form = h(
      'form',
      { class: 'archive-filter search-form', id: 'search-form' },
      text('player', t('player')),
      text('event', t('srchEvent')),
      h('label', {}, `${t('result')} `, result),
      text('since', t('exSince'), day),
      text('until', t('exUntil'), day),
      h('label', {}, `${t('strategy')} `, strategy),
      h('label', {}, `${t('exCollection')} `, collection),
      h('label', {}, here, ` ${t('srchPosition')}`),
      h('button', { type: 'submit', id: 'search-submit' }, t('srchButton')),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      find(0);
    });
    return form;
  };

  const render = () => {
    // The field being typed into keeps the focus through the new drawing.
    const active = document.activeElement;
    const focused = active instanceof HTMLInputElement && root.contains(active) ? active.id : '';
    drawList();
    drawUpload();
    drawResults();
    root.replaceChildren(
      h(
        'section',
        { class: 'collections', id: 'collections' },
        h('h1', {}, t('collTitle')),
        listBox,
        me() ? newForm() : h('p', { class: 'hint', id: 'collections-login' }, t('collLogin')),
        me() ? uploadBox : null,
        h('h2', {}, t('srchTitle')),
        searchForm(),
        resultsBox,
      ),
    );
    if (focused) document.getElementById(focused)?.focus();
  };

  const stop = onAccountChange(load);
  render();
  load();
  request<StrategyTags>('GET', '/api/strategies')
    .then((all) => {
      tags = all;
      render();
    })
    .catch(() => {});
  return { destroy: stop, rerender: render };
}
