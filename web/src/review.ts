// The archive list, the import page and the review board (variations,
// comments saved on the server, continuing from a position) with analysis
// and the mate search (docs/PROTOCOL.md, "Review and analysis").

import { Shogiground } from 'shogiground';
import type { Api } from 'shogiground/api';
import type { DrawShape } from 'shogiground/draw';
import type * as sg from 'shogiground/types';

import { h, option } from './dom';
import { lang, t, tr, type MsgKey } from './i18n';
import { createGame, request as call, saveToken, savedToken, type CreateRequest } from './api';
import { formatMove, type Notation } from './notation';
import {
  applyUsi,
  boardSfen,
  DROP_LETTERS,
  handsSfen,
  promoted,
  replay,
  toSfen,
  unpromoted,
  type MoveInfo,
  type Position,
  type Role,
} from './shogi';
import {
  fromJson,
  nodeAt,
  parsePathKey,
  pathKey,
  play,
  removeVariation,
  resolve,
  toJson,
  type Cursor,
  type Path,
  type TreeNode,
} from './tree';

export interface Screen {
  destroy(): void;
  rerender(): void;
}

type Navigate = (path: string) => void;

function reasonText(r: string | null): string {
  if (!r) return tr('noResult');
  return t(`reason_${r}` as MsgKey) ?? r;
}

function resultText(winner: string | null, reason: string | null): string {
  if (!reason) return tr('noResult');
  const head = winner === 'sente' ? tr('senteWins') : winner === 'gote' ? tr('goteWins') : t('draw');
  return `${head} (${reasonText(reason)})`;
}

function notation(): Notation {
  return lang() === 'ja' ? 'japanese' : lang() === 'en' ? 'western' : 'russian';
}

// ---- archive ----

interface Entry {
  id: string;
  kind: 'game' | 'import';
  created_at_ms: number;
  sente: string | null;
  gote: string | null;
  time: { main_ms: number; byoyomi_ms: number; periods: number; increment_ms: number } | null;
  handicap: string;
  winner: 'sente' | 'gote' | null;
  reason: string | null;
  moves: number;
}

function timeText(tc: Entry['time']): string {
  if (!tc) return '—';
  const m = Math.round(tc.main_ms / 60000);
  if (tc.increment_ms) return `${m}′ + ${tc.increment_ms / 1000}″/move`;
  return `${m}′ + ${tc.byoyomi_ms / 1000}″`;
}

export function renderArchive(root: HTMLElement): Screen {
  const params = new URLSearchParams(location.search);
  let player = params.get('player') ?? '';
  let result = params.get('result') ?? '';
  let page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const perPage = 20;
  const list = h('div', { id: 'archive-list' });
  const render = () => {
    const input = h('input', { name: 'player', id: 'archive-player', value: player, placeholder: tr('player') });
    const select = h(
      'select',
      { name: 'result', id: 'archive-result' },
      option('', tr('any'), result),
      option('sente', tr('senteWins'), result),
      option('gote', tr('goteWins'), result),
      option('draw', t('draw'), result),
    );
    const form = h(
      'form',
      { class: 'archive-filter', id: 'archive-form' },
      h('label', {}, tr('player'), ' ', input),
      h('label', {}, tr('result'), ' ', select),
      h('button', { type: 'submit' }, tr('filter')),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      player = input.value.trim();
      result = select.value;
      page = 1;
      load();
    });
    root.replaceChildren(h('section', { class: 'archive' }, h('h1', {}, tr('archive')), form, list));
    load();
  };
  const load = async () => {
    const q = new URLSearchParams({ page: String(page), per_page: String(perPage) });
    if (player) q.set('player', player);
    if (result) q.set('result', result);
    history.replaceState(null, '', `/archive?${q.toString()}`);
    try {
      const data = await call<{ total: number; entries: Entry[] }>('GET', `/api/archive?${q.toString()}`);
      const pages = Math.max(1, Math.ceil(data.total / perPage));
      const rows = data.entries.map((e) =>
        h(
          'tr',
          { class: 'archive-row', 'data-id': e.id },
          h('td', {}, new Date(e.created_at_ms).toLocaleString(lang())),
          h(
            'td',
            {},
            `☗ ${e.sente ?? t('sente')} — ☖ ${e.gote ?? t('gote')}`,
            e.kind === 'import' ? h('span', { class: 'tag' }, ` ${tr('imported')}`) : null,
          ),
          h('td', {}, timeText(e.time)),
          h('td', {}, e.handicap === 'custom' ? '—' : (t(`hc_${e.handicap}` as MsgKey) ?? e.handicap)),
          h('td', {}, resultText(e.winner, e.reason)),
          h('td', {}, String(e.moves)),
          h('td', {}, h('a', { href: `/review/${e.id}`, 'data-link': true }, tr('open'))),
        ),
      );
      const prev = h('button', { type: 'button', id: 'archive-prev', disabled: page <= 1 }, tr('prev'));
      const next = h('button', { type: 'button', id: 'archive-next', disabled: page >= pages }, tr('next'));
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
          ? h('p', {}, tr('noGames'))
          : h(
              'table',
              { class: 'archive-table' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  [tr('date'), tr('players'), t('timeControl'), t('handicap'), tr('result'), tr('moves'), ''].map((c) =>
                    h('th', {}, c),
                  ),
                ),
              ),
              h('tbody', {}, rows),
            ),
        h('div', { class: 'pager' }, prev, h('span', {}, `${tr('page')} ${page} / ${pages}`), next),
      );
    } catch (e) {
      list.replaceChildren(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    }
  };
  render();
  return { destroy() {}, rerender: render };
}

// ---- import ----

export function renderImport(root: HTMLElement, navigate: Navigate): Screen {
  let text = '';
  const render = () => {
    const area = h('textarea', { id: 'import-text', rows: 14, cols: 60, spellcheck: false });
    area.value = text;
    area.addEventListener('input', () => (text = area.value));
    const file = h('input', { type: 'file', id: 'import-file' });
    const err = h('p', { class: 'error', id: 'import-error' });
    const send = async (body: BodyInit) => {
      err.textContent = '';
      try {
        const r = await call<{ id: string; token: string }>('POST', '/api/import?save=1', body);
        // The owner token lets this browser save comments and variations on the record.
        saveToken(r.id, r.token);
        navigate(`/review/${r.id}`);
      } catch (e) {
        err.textContent = e instanceof Error ? e.message : String(e);
      }
    };
    file.addEventListener('change', () => {
      const f = file.files?.[0];
      if (f) send(f);
    });
    const button = h('button', { type: 'button', id: 'import-submit' }, tr('importButton'));
    button.addEventListener('click', () => send(new Blob([area.value])));
    root.replaceChildren(
      h(
        'section',
        { class: 'import' },
        h('h1', {}, tr('importTitle')),
        h('p', {}, tr('importHelp')),
        area,
        h('div', { class: 'controls' }, button, h('label', {}, `${tr('chooseFile')}: `, file)),
        err,
      ),
    );
  };
  render();
  return { destroy() {}, rerender: render };
}

// ---- review ----

interface RecordJson {
  start_sfen: string;
  moves: string[];
  nodes: TreeNode[];
  start_comments: string[];
  ending: { reason: string | null; winner: 'sente' | 'gote' | null };
  headers: { sente: string | null; gote: string | null; event: string | null; start_time: string | null };
}

interface Eval {
  ply: number;
  score_cp: number;
  mate: number | null;
  best_move: string | null;
}

interface Analysis {
  status: 'none' | 'queued' | 'running' | 'done';
  done_plies: number;
  /** The analysis is paused because live games are being played. */
  waiting_for_live_play?: boolean;
  total_plies: number;
  evals: Eval[];
  mistakes: { ply: number; kind: 'inaccuracy' | 'mistake' | 'blunder'; better: string }[];
}

/** The legal moves of a position (`POST /api/legal`). */
interface Legal {
  side_to_move: 'sente' | 'gote';
  dests: Record<string, string[]>;
  drops: Record<string, string[]>;
  promotions: Record<string, 'may' | 'must'>;
}

const FORMATS = ['kif', 'ki2', 'csa', 'jkf', 'sfen'];

function moveShape(usi: string, color: 'sente' | 'gote', brush: string): DrawShape | null {
  const m = usi.match(/^([PLNSGBR])\*([1-9][a-i])$/);
  if (m) {
    const role = DROP_LETTERS[m[1]];
    return role ? { orig: { role, color } as sg.Piece, dest: m[2] as sg.Key, brush } : null;
  }
  const n = usi.match(/^([1-9][a-i])([1-9][a-i])\+?$/);
  return n ? { orig: n[1] as sg.Key, dest: n[2] as sg.Key, brush } : null;
}

export async function openReview(root: HTMLElement, id: string, navigate: Navigate): Promise<Screen> {
  root.replaceChildren(h('p', { class: 'loading' }, '…'));
  let rec: RecordJson;
  try {
    rec = await call<RecordJson>('GET', `/api/games/${id}/record?format=json`);
  } catch (e) {
    root.replaceChildren(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    return { destroy() {}, rerender() {} };
  }
  return new Review(root, id, rec, navigate);
}

class Review implements Screen {
  private ground: Api | null = null;
  /** The move tree: the main line with its variations (edited in place). */
  private tree: TreeNode[];
  private startComments: string[];
  /** The line shown (named by `path`), its positions and moves, and how far into it. */
  private path: Path = [];
  private line: TreeNode[] = [];
  private positions: Position[] = [];
  private infos: MoveInfo[] = [];
  private ply = 0;
  private mainPositions: Position[];
  private mainInfos: MoveInfo[];
  private legal = new Map<string, Legal>();
  private asking = new Set<string>();
  private dirty = false;
  private note: { text: string; error: boolean } | null = null;
  private saveBtn: HTMLButtonElement | null = null;
  private noteEl: HTMLElement | null = null;
  private level = 3;
  private analysis: Analysis | null = null;
  private poll = 0;
  private mate: { result: string; moves: string[]; positions: Position[]; infos: MoveInfo[]; at: number } | null =
    null;
  private mateBusy = false;
  private boardEl = h('div', { class: 'board' });
  private handTop = h('div', { class: 'hand hand-top-el' });
  private handBottom = h('div', { class: 'hand hand-bottom-el' });
  private side = h('div', { class: 'side review-side' });
  private keyHandler = (e: KeyboardEvent) => this.onKey(e);
  private unloadHandler = (e: BeforeUnloadEvent) => {
    if (this.dirty) e.preventDefault();
  };

  constructor(
    root: HTMLElement,
    private id: string,
    private rec: RecordJson,
    private navigate: Navigate,
  ) {
    this.tree = fromJson(rec.nodes);
    this.startComments = [...rec.start_comments];
    const main = replay(rec.start_sfen, rec.moves);
    this.mainPositions = main.positions;
    this.mainInfos = main.infos;
    this.setLine([]);
    const boardCol = h(
      'div',
      { class: 'board-col pieces-kanji' },
      this.handTop,
      h('div', { class: 'board-wrap' }, this.boardEl),
      this.handBottom,
    );
    root.replaceChildren(h('div', { class: 'game review' }, boardCol, this.side));
    this.ground = Shogiground(
      {
        orientation: 'sente',
        viewOnly: false,
        scaleDownPieces: false,
        coordinates: { enabled: true, files: 'numeric', ranks: 'japanese' },
        highlight: { lastDests: true, check: false },
        drawable: { enabled: true, visible: true },
        animation: { enabled: true, duration: 120 },
        premovable: { enabled: false },
        predroppable: { enabled: false },
        draggable: { enabled: true, showGhost: true },
        promotion: {
          promotesTo: (role) => promoted(role as Role),
          unpromotesTo: (role) => unpromoted(role as Role),
          movePromotionDialog: (orig, dest) => this.legalHere()?.promotions[orig + dest] === 'may',
          forceMovePromotion: (orig, dest) => this.legalHere()?.promotions[orig + dest] === 'must',
          dropPromotionDialog: () => false,
          forceDropPromotion: () => false,
        },
        movable: {
          free: false,
          showDests: true,
          events: { after: (orig, dest, prom) => this.playMove(`${orig}${dest}${prom ? '+' : ''}`) },
        },
        droppable: {
          free: false,
          showDests: true,
          events: {
            after: (piece, key) => {
              const letter = Object.entries(DROP_LETTERS).find(([, r]) => r === piece.role)?.[0];
              if (letter) this.playMove(`${letter}*${key}`);
            },
          },
        },
      },
      { board: this.boardEl, hands: { top: this.handTop, bottom: this.handBottom } },
    );
    document.addEventListener('keydown', this.keyHandler);
    window.addEventListener('beforeunload', this.unloadHandler);
    this.loadAnalysis();
    this.render();
  }

  destroy(): void {
    document.removeEventListener('keydown', this.keyHandler);
    window.removeEventListener('beforeunload', this.unloadHandler);
    window.clearTimeout(this.poll);
    this.ground?.destroy();
  }

  rerender(): void {
    this.render();
  }

  /** Shows the line `path` names (positions and moves replayed from the start). */
  private setLine(path: Path): void {
    const r = resolve(this.tree, path);
    this.path = r.path;
    this.line = r.line;
    const played = replay(this.rec.start_sfen, r.line.map((n) => n.usi));
    this.positions = played.positions;
    this.infos = played.infos;
  }

  private onMain(): boolean {
    return this.path.length === 0;
  }

  private last(): number {
    return this.positions.length - 1;
  }

  private go(ply: number): void {
    this.mate = null;
    this.note = null;
    this.ply = Math.max(0, Math.min(this.last(), ply));
    this.render();
  }

  /** Goes to a place on the main line (analysis graph and mistakes). */
  private goMain(ply: number): void {
    if (!this.onMain()) this.setLine([]);
    this.go(ply);
  }

  private goTo(at: Cursor): void {
    this.setLine(at.path);
    this.go(at.ply);
  }

  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
    if (this.mate && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      this.stepMate(this.mate.at + (e.key === 'ArrowLeft' ? -1 : 1));
    } else if (e.key === 'ArrowLeft') this.go(this.ply - 1);
    else if (e.key === 'ArrowRight') this.go(this.ply + 1);
    else if (e.key === 'Home' || e.key === 'ArrowUp') this.go(0);
    else if (e.key === 'End' || e.key === 'ArrowDown') this.go(this.last());
    else return;
    e.preventDefault();
  }

  private shownPosition(): { pos: Position; info: MoveInfo | undefined } {
    if (this.mate && this.mate.at > 0) {
      return { pos: this.mate.positions[this.mate.at], info: this.mate.infos[this.mate.at - 1] };
    }
    return { pos: this.positions[this.ply], info: this.ply > 0 ? this.infos[this.ply - 1] : undefined };
  }

  // ---- playing moves on the board ----

  /** The legal moves of the shown position, once the server has sent them. */
  private legalHere(): Legal | undefined {
    if (this.mate && this.mate.at > 0) return undefined;
    return this.legal.get(toSfen(this.positions[this.ply]));
  }

  private async fetchLegal(sfen: string): Promise<void> {
    if (this.legal.has(sfen) || this.asking.has(sfen)) return;
    this.asking.add(sfen);
    try {
      const l = await call<Legal>('POST', '/api/legal', JSON.stringify({ sfen }), true);
      this.legal.set(sfen, l);
    } catch {
      return;
    } finally {
      this.asking.delete(sfen);
    }
    if (this.legalHere() && toSfen(this.positions[this.ply]) === sfen) this.syncBoard();
  }

  private playMove(usi: string): void {
    const r = play(this.tree, { path: this.path, ply: this.ply }, usi);
    if (!r) {
      this.note = { text: tr('mainLineFixed'), error: true };
      this.render();
      return;
    }
    if (r.added) this.dirty = true;
    this.setLine(r.cursor.path);
    this.mate = null;
    this.note = null;
    this.ply = Math.min(this.last(), r.cursor.ply);
    this.render();
  }

  private removeVariation(): void {
    const at = removeVariation(this.tree, { path: this.path, ply: this.ply });
    if (!at) return;
    this.dirty = true;
    this.goTo(at);
  }

  private syncBoard(): void {
    const g = this.ground;
    if (!g) return;
    const { pos, info } = this.shownPosition();
    const legal = this.legalHere();
    const dests = new Map<sg.Key, sg.Key[]>();
    const drops = new Map<sg.PieceName, sg.Key[]>();
    if (legal) {
      for (const [from, tos] of Object.entries(legal.dests)) dests.set(from as sg.Key, tos as sg.Key[]);
      for (const [letter, tos] of Object.entries(legal.drops)) {
        const role = DROP_LETTERS[letter];
        if (role) drops.set(`${legal.side_to_move} ${role}`, tos as sg.Key[]);
      }
    } else if (!(this.mate && this.mate.at > 0)) {
      this.fetchLegal(toSfen(pos));
    }
    g.set({
      sfen: { board: boardSfen(pos), hands: handsSfen(pos) },
      turnColor: pos.turn,
      activeColor: legal ? pos.turn : undefined,
      lastDests: info ? ((info.from ? [info.from, info.to] : [info.to]) as sg.Key[]) : undefined,
      movable: { dests },
      droppable: { dests: drops },
    });
    const shapes: DrawShape[] = [];
    const ev = this.mate || !this.onMain() ? undefined : this.analysis?.evals[this.ply];
    if (ev?.best_move) {
      const s = moveShape(ev.best_move, pos.turn, 'primary');
      if (s) shapes.push(s);
    }
    g.setAutoShapes(shapes);
  }

  private moveText(i: number, infos: MoveInfo[]): string {
    const prev = i > 0 ? infos[i - 1].to : undefined;
    return formatMove(notation(), infos[i], prev, lang() === 'uk');
  }

  // ---- the move list with its variations ----

  /**
   * The moves of `nodes`, a line that starts after `offset` moves of the
   * line `path` names, from `pos`; each move's variations follow it, indented.
   */
  private lineItems(
    nodes: TreeNode[],
    offset: number,
    path: Path,
    pos: Position,
    prevTo: string | undefined,
  ): HTMLElement[] {
    const current = nodeAt(this.tree, { path: this.path, ply: this.ply });
    const items: HTMLElement[] = [];
    for (let k = 0; k < nodes.length; k++) {
      const node = nodes[k];
      const r = applyUsi(pos, node.usi);
      if (!r) break;
      const ply = offset + k + 1;
      const text = formatMove(notation(), r.info, prevTo, lang() === 'uk');
      items.push(
        h(
          'span',
          {
            class: `move${node === current ? ' current' : ''}${node.comments.length ? ' has-comment' : ''}`,
            'data-ply': String(ply),
            'data-path': pathKey(path),
          },
          `${ply}. ${text}`,
        ),
      );
      if (node.variations.length) {
        items.push(
          h(
            'div',
            { class: 'variations' },
            node.variations.map((v, i) =>
              h('div', { class: 'variation' }, this.lineItems(v, offset + k, [...path, [offset + k, i]], pos, prevTo)),
            ),
          ),
        );
      }
      pos = r.pos;
      prevTo = r.info.to;
    }
    return items;
  }

  private moveList(): HTMLElement {
    const mistakeAt = new Map((this.analysis?.mistakes ?? []).map((m) => [m.ply, m]));
    const start = h(
      'span',
      { class: `move${this.ply === 0 ? ' current' : ''}`, 'data-ply': '0', 'data-path': '' },
      tr('start'),
    );
    const items = [start, ...this.lineItems(this.tree, 0, [], this.mainPositions[0], undefined)];
    // Flag the main line's mistakes.
    for (const el of items) {
      if (el.dataset.path !== '' || !el.classList.contains('move')) continue;
      const m = mistakeAt.get(Number(el.dataset.ply));
      if (!m) continue;
      el.classList.add(`flag-${m.kind}`);
      el.title = `${tr(m.kind)}: ${tr('better')} ${m.better}`;
    }
    const moves = h('div', { class: 'moves', id: 'moves' }, items);
    moves.addEventListener('click', (e) => {
      const el = (e.target as HTMLElement).closest<HTMLElement>('.move');
      if (el?.dataset.ply === undefined) return;
      const ply = Number(el.dataset.ply);
      this.goTo({ path: parsePathKey(el.dataset.path ?? ''), ply });
    });
    return moves;
  }

  // ---- comments, saving, continuing ----

  private commentBox(): HTMLElement {
    const node = nodeAt(this.tree, { path: this.path, ply: this.ply });
    const lines = node ? node.comments : this.startComments;
    const area = h(
      'textarea',
      { id: 'comment-edit', rows: 3, placeholder: tr('commentHere'), 'aria-label': tr('comments') },
      lines.join('\n'),
    );
    area.addEventListener('input', () => {
      const text = area.value.replace(/\r/g, '').replace(/\s+$/, '');
      const next = text ? text.split('\n') : [];
      if (node) node.comments = next;
      else this.startComments = next;
      this.dirty = true;
      this.note = null;
      this.updateSaveState();
    });
    return h('div', { class: 'comments', id: 'comments' }, h('h2', {}, tr('comments')), area);
  }

  private updateSaveState(): void {
    if (this.saveBtn) this.saveBtn.disabled = !this.dirty || !savedToken(this.id);
    if (this.noteEl) {
      const n = this.note ?? (this.dirty ? { text: tr('unsaved'), error: false } : null);
      this.noteEl.textContent = n?.text ?? '';
      this.noteEl.className = n?.error ? 'note error' : 'note';
    }
  }

  private async save(): Promise<void> {
    const token = savedToken(this.id);
    if (!token) return;
    try {
      const body = JSON.stringify({ token, start_comments: this.startComments, nodes: toJson(this.tree) });
      this.rec = await call<RecordJson>('PUT', `/api/games/${this.id}/annotations`, body, true);
      this.dirty = false;
      this.note = { text: tr('saved'), error: false };
    } catch (e) {
      this.note = { text: e instanceof Error ? e.message : String(e), error: true };
    }
    this.updateSaveState();
  }

  private async continueFrom(mode: 'ai' | 'friend'): Promise<void> {
    const { pos } = this.shownPosition();
    const req: CreateRequest = { mode, side: pos.turn, sfen: toSfen(pos), time: null };
    if (mode === 'ai') req.ai = { level: this.level };
    try {
      const created = await createGame(req);
      saveToken(created.id, created.token);
      if (created.invite) localStorage.setItem(`shogi.invite.${created.id}`, created.invite);
      this.navigate(`/g/${created.id}`);
    } catch (e) {
      this.note = { text: e instanceof Error ? e.message : String(e), error: true };
      this.updateSaveState();
    }
  }

  private diagramQuery(): string {
    if (this.onMain()) return `ply=${this.ply}`;
    return `moves=${this.line
      .slice(0, this.ply)
      .map((n) => n.usi)
      .join(',')}`;
  }

  private render(): void {
    this.syncBoard();
    const rec = this.rec;
    const title = h(
      'h1',
      { class: 'review-title' },
      `☗ ${rec.headers.sente ?? t('sente')} — ☖ ${rec.headers.gote ?? t('gote')}`,
    );
    const info = h(
      'p',
      { class: 'review-result', id: 'review-result' },
      [rec.headers.event, rec.headers.start_time, resultText(rec.ending.winner, rec.ending.reason)]
        .filter(Boolean)
        .join(' · '),
    );
    const btn = (id: string, label: string, fn: () => void, title?: string) => {
      const b = h('button', { type: 'button', id, title }, label);
      b.addEventListener('click', fn);
      return b;
    };
    const nav = h(
      'div',
      { class: 'nav' },
      btn('nav-first', '«', () => this.go(0)),
      btn('nav-prev', '‹', () => this.go(this.ply - 1)),
      btn('nav-next', '›', () => this.go(this.ply + 1)),
      btn('nav-last', '»', () => this.go(this.last())),
    );
    const variationRow = this.onMain()
      ? null
      : h(
          'div',
          { class: 'controls variation-row' },
          btn('to-main', tr('backToMain'), () => this.goMain(this.path[0][0])),
          btn('remove-variation', tr('removeVariation'), () => this.removeVariation()),
        );
    const moves = this.moveList();
    const token = savedToken(this.id);
    this.saveBtn = btn('save-annotations', tr('save'), () => this.save(), token ? undefined : tr('saveNeedsToken'));
    this.noteEl = h('span', { class: 'note', id: 'review-note', role: 'status' });
    const editRow = h(
      'div',
      { class: 'controls save-row' },
      this.saveBtn,
      this.noteEl,
      token ? null : h('p', { class: 'hint', id: 'save-hint' }, tr('saveNeedsToken')),
    );
    const sfen = toSfen(this.shownPosition().pos);
    const sfenInput = h('input', { id: 'sfen', readonly: true, value: sfen, size: 40 });
    const copyBtn = btn('copy-sfen', tr('copySfen'), () => {
      navigator.clipboard?.writeText(sfen).catch(() => undefined);
      sfenInput.select();
    });
    const levelSelect = h(
      'select',
      { id: 'continue-level', 'aria-label': t('level') },
      Array.from({ length: 10 }, (_, i) => option(String(i + 1), `${t('level')} ${i + 1}`, String(this.level))),
    );
    levelSelect.addEventListener('change', () => (this.level = Number(levelSelect.value)));
    const continueRow = h(
      'div',
      { class: 'controls continue-row' },
      btn('continue-ai', tr('continueAi'), () => this.continueFrom('ai')),
      levelSelect,
      btn('continue-friend', tr('continueFriend'), () => this.continueFrom('friend')),
    );
    const q = this.diagramQuery();
    const downloads = h(
      'div',
      { class: 'downloads' },
      `${tr('download')}: `,
      FORMATS.map((f) =>
        h('a', { href: `/api/games/${this.id}/record?format=${f}`, download: '', id: `dl-${f}` }, f.toUpperCase()),
      ),
      h('a', { href: `/api/games/${this.id}/diagram.svg?${q}`, download: '', id: 'dl-svg' }, tr('diagram')),
      h('a', { href: `/api/games/${this.id}/diagram.png?${q}`, download: '', id: 'dl-png' }, tr('diagramPng')),
    );
    this.side.replaceChildren(
      ...[
        title,
        info,
        nav,
        variationRow,
        moves,
        this.commentBox(),
        editRow,
        h('div', { class: 'controls sfen-row' }, sfenInput, copyBtn),
        continueRow,
        downloads,
        this.analysisPanel(),
        this.matePanel(),
      ].filter((el): el is HTMLElement => el !== null),
    );
    this.updateSaveState();
    moves.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  }

  // ---- analysis ----

  private async loadAnalysis(): Promise<void> {
    try {
      this.analysis = await call<Analysis>('GET', `/api/games/${this.id}/analysis`);
    } catch {
      return;
    }
    this.render();
    if (this.analysis.status === 'queued' || this.analysis.status === 'running') {
      this.poll = window.setTimeout(() => this.loadAnalysis(), 1000);
    }
  }

  private async startAnalysis(): Promise<void> {
    try {
      this.analysis = await call<Analysis>('POST', `/api/games/${this.id}/analysis`);
    } catch (e) {
      window.alert(e instanceof Error ? e.message : String(e));
      return;
    }
    this.render();
    window.clearTimeout(this.poll);
    this.poll = window.setTimeout(() => this.loadAnalysis(), 500);
  }

  private analysisPanel(): HTMLElement {
    const a = this.analysis;
    const parts: (Element | string)[] = [h('h2', {}, tr('analysis'))];
    if (!a || a.status === 'none') {
      const b = h('button', { type: 'button', id: 'analyse' }, tr('analyse'));
      b.addEventListener('click', () => this.startAnalysis());
      parts.push(b);
    } else {
      const status =
        a.status === 'queued'
          ? tr('queued')
          : a.status === 'running'
            ? `${tr('analysing')} ${a.done_plies}/${a.total_plies}`
            : tr('analysed');
      const paused = a.status !== 'done' && a.waiting_for_live_play ? ` (${tr('waitingForLive')})` : '';
      parts.push(h('p', { id: 'analysis-status', 'data-status': a.status }, status + paused));
      parts.push(this.graph(a));
      const ev = this.onMain() ? a.evals[this.ply] : undefined;
      if (ev) {
        const score = ev.mate !== null ? `${tr('mateFound')} ${ev.mate}` : String(ev.score_cp);
        parts.push(
          h(
            'p',
            { id: 'eval-now' },
            `${tr('evaluation')}: ${score}`,
            ev.best_move ? ` · ${tr('bestMove')}: ${ev.best_move}` : '',
          ),
        );
      }
      const list = h(
        'ul',
        { class: 'mistakes', id: 'mistakes' },
        a.mistakes.map((m) => {
          const li = h(
            'li',
            { class: `flag-${m.kind}`, 'data-ply': String(m.ply) },
            `${m.ply}. ${this.mainInfos[m.ply - 1] ? this.moveText(m.ply - 1, this.mainInfos) : ''} — ${tr(m.kind)}; ${tr('better')}: ${m.better}`,
          );
          li.addEventListener('click', () => this.goMain(m.ply - 1));
          return li;
        }),
      );
      parts.push(list);
    }
    const panel = h('div', { class: 'analysis', id: 'analysis' });
    panel.append(...parts);
    return panel;
  }

  /** The evaluation graph: Sente's score, capped at ±2000, one point per position. */
  private graph(a: Analysis): SVGSVGElement {
    const NS = 'http://www.w3.org/2000/svg';
    const W = 320;
    const H = 120;
    const n = Math.max(1, a.total_plies);
    const x = (ply: number) => (ply / n) * (W - 8) + 4;
    const y = (cp: number) => H / 2 - (Math.max(-2000, Math.min(2000, cp)) / 2000) * (H / 2 - 6);
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('class', 'eval-graph');
    svg.setAttribute('id', 'eval-graph');
    const el = (tag: string, attrs: Record<string, string | number>) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      svg.append(e);
      return e;
    };
    el('rect', { x: 0, y: 0, width: W, height: H, class: 'bg' });
    el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'axis' });
    el('line', { x1: x(this.ply), y1: 0, x2: x(this.ply), y2: H, class: 'cursor' });
    if (a.evals.length) {
      el('polyline', { points: a.evals.map((e) => `${x(e.ply)},${y(e.score_cp)}`).join(' '), class: 'line' });
    }
    const flagged = new Set(a.mistakes.map((m) => m.ply));
    for (const e of a.evals) {
      const c = el('circle', {
        cx: x(e.ply),
        cy: y(e.score_cp),
        r: flagged.has(e.ply) ? 4 : 3,
        class: `point${flagged.has(e.ply) ? ' flagged' : ''}${e.ply === this.ply ? ' current' : ''}`,
        'data-ply': e.ply,
      });
      const title = document.createElementNS(NS, 'title');
      title.textContent = `${e.ply}: ${e.mate !== null ? `${tr('mateFound')} ${e.mate}` : e.score_cp}`;
      c.append(title);
    }
    svg.addEventListener('click', (ev) => {
      const target = ev.target as Element;
      const p = target.getAttribute('data-ply');
      if (p !== null) {
        this.goMain(Number(p));
        return;
      }
      // A click anywhere else picks the nearest ply.
      const box = svg.getBoundingClientRect();
      const px = ((ev.clientX - box.left) / box.width) * W;
      this.goMain(Math.round(((px - 4) / (W - 8)) * n));
    });
    return svg;
  }

  // ---- mate search ----

  private async searchMate(): Promise<void> {
    const sfen = toSfen(this.positions[this.ply]);
    this.mateBusy = true;
    this.render();
    try {
      const r = await call<{ result: string; moves: string[] }>(
        'POST',
        '/api/mate',
        JSON.stringify({ sfen, time_ms: 5000 }),
        true,
      );
      const line = replay(sfen, r.moves);
      this.mateBusy = false;
      this.mate = { ...r, positions: line.positions, infos: line.infos, at: 0 };
    } catch (e) {
      this.mateBusy = false;
      this.mate = { result: e instanceof Error ? e.message : String(e), moves: [], positions: [], infos: [], at: 0 };
    }
    this.render();
  }

  private stepMate(at: number): void {
    if (!this.mate) return;
    this.mate.at = Math.max(0, Math.min(this.mate.infos.length, at));
    this.render();
  }

  private matePanel(): HTMLElement {
    const b = h('button', { type: 'button', id: 'mate-search', disabled: this.mateBusy }, tr('mateSearch'));
    b.addEventListener('click', () => this.searchMate());
    const parts: (HTMLElement | string | null)[] = [b];
    if (this.mateBusy) parts.push(h('span', {}, ` ${tr('searching')}`));
    const m = this.mate;
    if (m) {
      const head =
        m.result === 'mate'
          ? `${tr('mateFound')} (${m.moves.length})`
          : m.result === 'nomate'
            ? tr('noMate')
            : m.result === 'timeout'
              ? tr('mateTimeout')
              : m.result;
      parts.push(h('p', { id: 'mate-result', 'data-result': m.result }, head));
      if (m.infos.length) {
        const line = h(
          'div',
          { class: 'moves mate-line', id: 'mate-line' },
          m.infos.map((_, i) =>
            h(
              'span',
              { class: `move${m.at === i + 1 ? ' current' : ''}`, 'data-step': String(i + 1) },
              `${i + 1}. ${this.moveText(i, m.infos)}`,
            ),
          ),
        );
        line.addEventListener('click', (e) => {
          const el = (e.target as HTMLElement).closest<HTMLElement>('.move');
          if (el?.dataset.step) this.stepMate(Number(el.dataset.step));
        });
        const back = h('button', { type: 'button', id: 'mate-prev' }, '‹');
        back.addEventListener('click', () => this.stepMate(m.at - 1));
        const fwd = h('button', { type: 'button', id: 'mate-next' }, '›');
        fwd.addEventListener('click', () => this.stepMate(m.at + 1));
        parts.push(h('h3', {}, tr('mateLine')), line, h('div', { class: 'nav' }, back, fwd));
      }
    }
    return h('div', { class: 'mate', id: 'mate' }, parts);
  }
}
