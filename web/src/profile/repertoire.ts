// A player's repertoire on the profile (`GET /api/players/{name}/repertoire`):
// for each side, the positions the player reached most as that side and the
// moves they played from each, with their wins, losses and draws. Each
// position shows a small diagram and opens in the analysis board. A server
// without the route (404) shows nothing.

import { ApiError, request } from '../api/api';
import { usiMoveText } from '../board/movetext';
import { parseSfen, type Position } from '../board/shogi';
import { h } from '../dom';
import { t } from '../i18n/i18n';
import { writeUsen } from '../records/usen';

/** A move the player played from a position, with its outcomes for them. */
export interface RepertoireMove {
  usi: string;
  games: number;
  wins: number;
  losses: number;
  draws: number;
}

/** A position the player reached, and their moves from it. */
export interface RepertoirePosition {
  sfen: string;
  games: number;
  moves: RepertoireMove[];
}

/** `GET /api/players/{name}/repertoire`. */
export interface Repertoire {
  sente: RepertoirePosition[];
  gote: RepertoirePosition[];
}

/** The positions shown per side. */
const SHOWN = 8;

/** "+3 −1 =0". */
export function outcomeText(m: RepertoireMove): string {
  return `+${m.wins} −${m.losses} =${m.draws}`;
}

function positionRow(p: RepertoirePosition): HTMLElement {
  let pos: Position | undefined;
  try {
    pos = parseSfen(p.sfen);
  } catch {
    pos = undefined;
  }
  const number = Number(p.sfen.trim().split(/\s+/)[3] ?? '1') || 1;
  const open = `/analysis?usen=${writeUsen({ sfen: p.sfen, moves: [], variations: [] })}&ply=0`;
  const moves = p.moves.map((m) =>
    h(
      'li',
      { class: 'repertoire-move', 'data-usi': m.usi },
      h(
        'a',
        {
          href: `/analysis?usen=${writeUsen({ sfen: p.sfen, moves: [m.usi], variations: [] })}&ply=1`,
          'data-link': true,
        },
        usiMoveText(pos, m.usi, undefined),
      ),
      ` ${m.games} · ${outcomeText(m)}`,
    ),
  );
  return h(
    'tr',
    { class: 'repertoire-position' },
    h(
      'td',
      {},
      h(
        'a',
        { href: open, 'data-link': true, title: t('anOpen') },
        h('img', {
          class: 'repertoire-diagram',
          src: `/api/diagram.png?sfen=${encodeURIComponent(p.sfen)}&width=160`,
          alt: p.sfen,
          width: 160,
          loading: 'lazy',
        }),
      ),
    ),
    h(
      'td',
      { class: 'nowrap' },
      t('repMoveNumber').replace('{n}', String(number)),
      h('br', {}),
      `${t('games')}: ${p.games}`,
    ),
    h('td', {}, h('ul', { class: 'repertoire-moves' }, moves)),
  );
}

function sideTable(positions: RepertoirePosition[], id: string): HTMLElement {
  if (positions.length === 0) return h('p', { class: 'note', id }, t('repNone'));
  return h(
    'table',
    { class: 'repertoire-table', id },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        [t('repPosition'), '', t('repMoves')].map((c) => h('th', {}, c)),
      ),
    ),
    h('tbody', {}, positions.slice(0, SHOWN).map(positionRow)),
  );
}

/** The repertoire's section, filled once the server answers (left empty on a 404). */
export class RepertoireBox {
  readonly el = h('section', { class: 'repertoire', id: 'repertoire' });
  private data: Repertoire | null = null;
  private error = '';

  constructor(private name: string) {
    this.load();
  }

  private async load(): Promise<void> {
    try {
      this.data = await request<Repertoire>('GET', `/api/players/${encodeURIComponent(this.name)}/repertoire`);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return;
      this.error = e instanceof Error ? e.message : String(e);
    }
    this.draw();
  }

  /** Draws the section again (the language may have changed). */
  draw(): void {
    if (this.error) {
      this.el.replaceChildren(h('h2', {}, t('repTitle')), h('p', { class: 'error' }, this.error));
      return;
    }
    const d = this.data;
    if (!d) {
      this.el.replaceChildren();
      return;
    }
    this.el.replaceChildren(
      h('h2', {}, t('repTitle')),
      h('h3', {}, t('repAsSente')),
      sideTable(d.sente ?? [], 'repertoire-sente'),
      h('h3', {}, t('repAsGote')),
      sideTable(d.gote ?? [], 'repertoire-gote'),
    );
  }
}
