// The opening explorer beside a board (the analysis board, the review, the
// learn pages): for the position shown, the moves the collections' games
// played from it (games, Sente wins / draws / Gote wins, the average rating,
// when last played) and the games through it, each opening in the review.
// A collection and filters (time class, ratings, period) narrow the games;
// they are remembered in this browser. A new position asks the server again
// (`GET /api/explorer`) once it has stayed shown for a moment.

import { ApiError } from '../api/api';
import {
  collections,
  explore,
  NO_FILTER,
  type Collection,
  type ExplorerAnswer,
  type ExplorerMove,
  type GameFilter,
  type ListedGame,
  type Outcomes,
} from '../api/explorer';
import { usiMoveText } from '../board/movetext';
import type { Notation } from '../board/notation';
import { parseSfen, type Position } from '../board/shogi';
import { h, option, scrollBox } from '../dom';
import { t } from '../i18n/i18n';
import { isoDayText, monthNames } from '../records/dates';
import { CLASSES, className } from '../rules/timecontrol';

/** How long a position must stay shown before the server is asked. */
const SETTLE_MS = 120;
/** The games listed under the moves. */
const GAMES_SHOWN = 8;
const STORE_KEY = 'shogi.explorer.filter';
const EMPTY: Outcomes = { games: 0, sente_wins: 0, gote_wins: 0, draws: 0 };

/** What the panel needs from its board. */
export interface ExplorerHost {
  /** Plays `usi` from the shown position; absent, the moves are only shown. */
  play?: (usi: string) => void;
  /** The notation moves are written in. */
  notation: () => Notation;
}

/** The shares of Sente wins, draws and Gote wins in whole percents (summing to 100), or null without an ended game. */
export function shares(o: Outcomes): { sente: number; draw: number; gote: number } | null {
  const ended = o.sente_wins + o.draws + o.gote_wins;
  if (ended === 0) return null;
  const sente = Math.round((100 * o.sente_wins) / ended);
  const gote = Math.round((100 * o.gote_wins) / ended);
  return { sente, gote, draw: Math.max(0, 100 - sente - gote) };
}

/** Rating points in a band: the server sums whole bands from its count rows. */
const BAND = 100;
/** The highest band offered. */
const TOP_BAND = 30;

/**
 * The filter as the panel offers it: ratings on whole bands (from 1200, to
 * 1499) and whole months (`YYYY-MM`), which the server answers from its
 * count rows however many games reach the position. A value saved by an
 * older panel (a day, any rating) is moved to the band or month holding it.
 */
export function inBands(f: GameFilter): GameFilter {
  const rating = (v: string, top: boolean) => {
    const n = Number.parseInt(v, 10);
    if (v.trim() === '' || !Number.isFinite(n) || n < 0) return '';
    const band = Math.min(Math.floor(n / BAND), TOP_BAND);
    return String(band * BAND + (top ? BAND - 1 : 0));
  };
  const month = (v: string) => (/^\d{4}-\d{2}/.test(v) ? v.slice(0, 7) : /^\d{4}$/.test(v) ? `${v}-01` : '');
  return {
    ...f,
    min_rating: rating(f.min_rating, false),
    max_rating: rating(f.max_rating, true),
    since: month(f.since),
    until: /^\d{4}$/.test(f.until) ? `${f.until}-12` : month(f.until),
  };
}

function savedFilter(): GameFilter {
  try {
    return inBands({ ...NO_FILTER, ...(JSON.parse(localStorage.getItem(STORE_KEY) ?? '{}') as Partial<GameFilter>) });
  } catch {
    return { ...NO_FILTER };
  }
}

/** A bar of Sente wins, draws and Gote wins, each share written on it when there is room. */
export function outcomeBar(o: Outcomes): HTMLElement {
  const s = shares(o);
  if (!s) return h('div', { class: 'explorer-bar empty' }, '—');
  const part = (cls: string, pct: number) => {
    const el = h('span', { class: cls }, pct >= 15 ? `${pct}%` : '');
    // Through the CSSOM: the Content-Security-Policy refuses style attributes.
    el.style.width = `${pct}%`;
    return el;
  };
  return h(
    'div',
    {
      class: 'explorer-bar',
      title: `${t('sente')} ${s.sente}% · ${t('draw')} ${s.draw}% · ${t('gote')} ${s.gote}%`,
      'aria-label': `${t('sente')} ${s.sente}%, ${t('draw')} ${s.draw}%, ${t('gote')} ${s.gote}%`,
    },
    part('bar-sente', s.sente),
    part('bar-draw', s.draw),
    part('bar-gote', s.gote),
  );
}

/** A game's result in words. */
export function listedResult(g: ListedGame): string {
  if (g.result === 'sente') return t('senteWins');
  if (g.result === 'gote') return t('goteWins');
  if (g.result === 'draw') return t('draw');
  return t('noResult');
}

/** "☗ Name (1650) — ☖ Name (1580)". */
export function listedPlayers(g: ListedGame): string {
  const side = (mark: string, name: string | null, rating: number | null, fallback: string) =>
    `${mark} ${name ?? fallback}${rating !== null ? ` (${rating})` : ''}`;
  return `${side('☗', g.sente, g.sente_rating, t('sente'))} — ${side('☖', g.gote, g.gote_rating, t('gote'))}`;
}

/** A table of listed games, each player cell a link to the game's review. */
export function listedGamesTable(games: ListedGame[], id: string): HTMLElement {
  return h(
    'table',
    { class: 'explorer-games', id },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        [t('players'), t('result'), t('date')].map((c) => h('th', {}, c)),
      ),
    ),
    h(
      'tbody',
      {},
      games.map((g) =>
        h(
          'tr',
          { class: 'explorer-game', 'data-id': g.id },
          h(
            'td',
            {},
            h('a', { href: `/review/${g.id}`, 'data-link': true, class: 'explorer-game-link' }, listedPlayers(g)),
            g.event ? h('span', { class: 'note explorer-event' }, ` · ${g.event}`) : null,
          ),
          h('td', { class: 'nowrap' }, listedResult(g)),
          h('td', { class: 'nowrap' }, isoDayText(g.date) ?? '—'),
        ),
      ),
    ),
  );
}

export class ExplorerPanel {
  readonly el = h('section', { class: 'explorer', id: 'explorer' });
  private head = h('div', { class: 'explorer-head' });
  private body = h('div', { class: 'explorer-body', id: 'explorer-body' });
  private sfen = '';
  private pos: Position | null = null;
  private prevTo: string | undefined;
  private answer: ExplorerAnswer | null = null;
  /** The position the answer is about and the move that reached it (the board may have moved on). */
  private answerAt: { pos: Position | null; prevTo: string | undefined } = { pos: null, prevTo: undefined };
  private error = '';
  private filter = savedFilter();
  private cols: Collection[] = [];
  /** Whether the reader opened (`true`) or closed the filters; `null`: neither yet. */
  private filtersOpen: boolean | null = null;
  /** A year being typed and not yet entered, kept through a new drawing of the head. */
  private typedYear: Partial<Record<'since' | 'until', string>> = {};
  private latest = 0;
  private timer: number | undefined;

  constructor(private host: ExplorerHost) {
    this.el.append(this.head, this.body);
    collections()
      .then((cols) => {
        this.cols = cols;
        if (this.filter.collection && !cols.some((c) => c.name === this.filter.collection)) {
          this.filter.collection = '';
          this.reload();
        }
        this.renderHead();
      })
      .catch(() => {});
  }

  /** Stops asking (the board went away). */
  destroy(): void {
    window.clearTimeout(this.timer);
    this.latest++;
    this.sfen = '';
  }

  /** The board shows `sfen` now (reached by a move to `prevTo`): asks about it unless it already did. */
  show(sfen: string, prevTo?: string): void {
    this.prevTo = prevTo;
    if (sfen === this.sfen) return;
    this.sfen = sfen;
    try {
      this.pos = parseSfen(sfen);
    } catch {
      this.pos = null;
    }
    this.reload();
  }

  private reload(): void {
    window.clearTimeout(this.timer);
    const seq = ++this.latest;
    this.error = '';
    this.body.dataset.state = 'loading';
    this.timer = window.setTimeout(() => this.load(seq), SETTLE_MS);
  }

  private async load(seq: number): Promise<void> {
    const sfen = this.sfen;
    if (!sfen) return;
    const at = { pos: this.pos, prevTo: this.prevTo };
    try {
      const answer = await explore(sfen, this.filter, GAMES_SHOWN);
      if (seq !== this.latest) return;
      this.answer = answer;
      this.answerAt = at;
      this.error = '';
    } catch (e) {
      if (seq !== this.latest) return;
      this.answer = null;
      this.error = e instanceof Error ? e.message : String(e);
      // A setup the rules refuse (a lesson without kings): no game reaches it.
      if (e instanceof ApiError && e.code === 'bad_sfen') {
        this.error = '';
        this.answer = { sfen, total: 0, ended: EMPTY, moves: [], games: [], collections: [] };
        this.answerAt = at;
      }
    }
    delete this.body.dataset.state;
    this.renderBody();
  }

  private setFilter(f: Partial<GameFilter>): void {
    this.filter = { ...this.filter, ...f };
    localStorage.setItem(STORE_KEY, JSON.stringify(this.filter));
    this.reload();
  }

  /** Draws the panel again (the language or the notation may have changed). */
  render(): void {
    this.renderHead();
    this.renderBody();
  }

  private renderHead(): void {
    const f = this.filter;
    const collection = h(
      'select',
      { id: 'explorer-collection', 'aria-label': t('exCollection') },
      option('', t('exAllCollections'), f.collection),
      this.cols.map((c) => option(c.name, `${c.name} (${c.games})`, f.collection)),
    );
    collection.addEventListener('change', () => this.setFilter({ collection: collection.value }));
    const timeClass = h(
      'select',
      { id: 'explorer-time-class', 'aria-label': t('exTimeClass') },
      option('', t('any'), f.time_class),
      CLASSES.map((c) => option(c, className(c), f.time_class)),
    );
    timeClass.addEventListener('change', () => this.setFilter({ time_class: timeClass.value }));
    // Whole bands of ratings: "from 1200" and "to 1499".
    const rating = (key: 'min_rating' | 'max_rating', label: string) => {
      const top = key === 'max_rating' ? BAND - 1 : 0;
      const values = Array.from({ length: TOP_BAND + 1 }, (_, b) => String(b * BAND + top));
      const el = h(
        'select',
        { id: `explorer-${key.replace('_', '-')}`, 'aria-label': label, class: 'explorer-rating' },
        option('', t('any'), f[key]),
        values.map((v) => option(v, v, f[key])),
      );
      el.addEventListener('change', () => this.setFilter({ [key]: el.value }));
      return h('label', {}, `${label} `, el);
    };
    // A period of whole months: a year typed (records go back centuries)
    // and a month named in the page's language (a browser's month picker
    // speaks the browser's); the filter keeps `YYYY-MM`.
    const period = (key: 'since' | 'until', label: string) => {
      const [entered, m] = f[key] ? f[key].split('-') : ['', key === 'since' ? '01' : '12'];
      const y = this.typedYear[key] ?? entered;
      const id = `explorer-${key}`;
      const year = h('input', {
        id: `${id}-year`,
        type: 'number',
        min: 1,
        max: 9999,
        value: y,
        placeholder: t('exYearHint'),
        'aria-label': `${label}: ${t('exYear')}`,
        class: 'explorer-year',
      });
      const month = h(
        'select',
        { id: `${id}-month`, 'aria-label': `${label}: ${t('exMonth')}` },
        monthNames().map((name, i) => option(String(i + 1).padStart(2, '0'), name, m)),
      );
      year.addEventListener('input', () => {
        this.typedYear[key] = year.value;
      });
      const changed = () => {
        delete this.typedYear[key];
        const n = Number.parseInt(year.value, 10);
        const value = n >= 1 && n <= 9999 ? `${String(n).padStart(4, '0')}-${month.value}` : '';
        if (value !== this.filter[key]) this.setFilter({ [key]: value });
      };
      year.addEventListener('change', changed);
      month.addEventListener('change', changed);
      return h('label', {}, `${label} `, month, ' ', year);
    };
    const narrowed = Boolean(f.time_class || f.min_rating || f.max_rating || f.since || f.until);
    const filters = h(
      'details',
      { class: 'explorer-filters', open: (this.filtersOpen ?? narrowed) ? true : undefined },
      h('summary', {}, t('filter')),
      h(
        'div',
        { class: 'controls' },
        h('label', {}, `${t('exTimeClass')} `, timeClass),
        rating('min_rating', t('exMinRating')),
        rating('max_rating', t('exMaxRating')),
      ),
      h('div', { class: 'controls' }, period('since', t('exSince')), period('until', t('exUntil'))),
    );
    filters.addEventListener('toggle', () => {
      this.filtersOpen = (filters as HTMLDetailsElement).open;
    });
    this.head.replaceChildren(
      h('h2', {}, t('exTitle')),
      h('div', { class: 'controls' }, h('label', {}, `${t('exCollection')} `, collection)),
      filters,
    );
  }

  private moveRow(m: ExplorerMove, rated: boolean): HTMLElement {
    const { pos, prevTo } = this.answerAt;
    const text = usiMoveText(pos ?? undefined, m.usi, prevTo, this.host.notation());
    const play = this.host.play;
    const move = play
      ? h('button', { type: 'button', class: 'explorer-play link', title: t('exPlayMove') }, text)
      : h('span', { class: 'explorer-san' }, text);
    const row = h(
      'tr',
      { class: play ? 'explorer-move playable' : 'explorer-move', 'data-usi': m.usi },
      h('td', { class: 'explorer-move-text' }, move),
      h('td', { class: 'num explorer-count' }, m.games.toLocaleString()),
      h('td', { class: 'explorer-outcomes' }, outcomeBar(m)),
      ...(rated ? [h('td', { class: 'num' }, m.average_rating === null ? '—' : String(m.average_rating))] : []),
      // The month only (the day in the tooltip), so the table fits the side panel.
      h(
        'td',
        { class: 'nowrap num', title: isoDayText(m.last_played) ?? '' },
        m.last_played ? m.last_played.slice(0, -3) : '—',
      ),
    );
    if (play) row.addEventListener('click', () => play(m.usi));
    return row;
  }

  private renderBody(): void {
    const a = this.answer;
    if (this.error) {
      this.body.replaceChildren(h('p', { class: 'error', id: 'explorer-error' }, this.error));
      return;
    }
    if (!a) {
      this.body.replaceChildren(h('p', { class: 'note' }, t('exLoading')));
      return;
    }
    this.body.dataset.sfen = a.sfen;
    if (a.total === 0) {
      this.body.replaceChildren(h('p', { class: 'note', id: 'explorer-empty' }, t('exNoGames')));
      return;
    }
    // The average rating's column only when some move has one.
    const rated = a.moves.some((m) => m.average_rating !== null);
    const moves = h(
      'table',
      { class: 'explorer-moves', id: 'explorer-moves' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          [t('exMove'), t('games'), t('exResults'), ...(rated ? [t('exAvgRating')] : []), t('exLastPlayed')].map((c) =>
            h('th', {}, c),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        a.moves.map((m) => this.moveRow(m, rated)),
      ),
    );
    this.body.replaceChildren(
      h('p', { class: 'explorer-total', id: 'explorer-total' }, t('exTotal').replace('{n}', a.total.toLocaleString())),
      ...(a.moves.length ? [scrollBox(moves)] : []),
      h('h3', {}, t('exGamesThrough')),
      scrollBox(listedGamesTable(a.games, 'explorer-games')),
    );
  }
}
