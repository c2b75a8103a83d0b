// The review board: stepping through a record's main line and variations,
// moves played on the board as new variations, comments saved on the server,
// SFEN, downloads and diagrams, continuing from the shown position; with the
// analysis panel (analysis.ts) and the mate search (engine/mate.ts)
// (docs/PROTOCOL.md, "Review and analysis").

import type { Api } from 'shogiground/api';
import type { DrawShape } from 'shogiground/draw';

import { GameAnalysis, type AnalysisView } from './analysis';
import {
  ApiError,
  createGame,
  legalMoves,
  request as call,
  saveToken,
  savedToken,
  type CreateRequest,
  type LegalMoves,
  type ProgramNote,
} from '../api/api';
import { takeNote } from '../records/opennote';
import { clockRulesFields, clockRulesRequest, DEFAULT_CLOCK_RULES, type ClockRules } from '../rules/gameoptions';
import { h, option } from '../dom';
import { strategyText } from '../records/strategy';
import { factsText, playersHeading, type RecordHead } from '../records/summary';
import { programNotePanel } from '../engine/programnote';
import { defaultNotation } from '../board/movetext';
import { groundDests, lastDests, moveShape } from '../board/ground';
import { t } from '../i18n/i18n';
import { MateSearch } from '../engine/mate';
import { ExplorerPanel } from '../explorer/panel';
import { renderNotFound } from '../screen';
import { boardColumn, playBoard } from '../board/playboard';
import { moveListBox, moveListItems, scrollIntoList } from '../records/movelist';
import type { Navigate, Screen } from '../screen';
import { boardSfen, handsSfen, replay, toSfen, type MoveInfo, type Position } from '../board/shogi';
import {
  fromJson,
  nodeAt,
  play,
  promoteVariation,
  removeVariation,
  resolve,
  toJson,
  type Cursor,
  type Path,
  type TreeNode,
} from '../records/tree';
import { writeUsen } from '../records/usen';

/** A stored record as the review board reads it (`GET /api/games/{id}/record?format=json`). */

interface RecordJson extends RecordHead {
  start_sfen: string;
  moves: string[];
  nodes: TreeNode[];
  start_comments: string[];
  /** A game played here keeps its moves; an imported record's main line may change (absent: fixed). */
  main_line_fixed?: boolean;
  /** A game programs played: their evaluations and expected lines, by ply (absent: none). */
  notes?: ProgramNote[];
}

/** The record formats offered for download. */
const FORMATS = ['kif', 'ki2', 'csa', 'jkf', 'sfen'];

/** Loads the record `id` and opens it on the review board. */
export async function openReview(root: HTMLElement, id: string, navigate: Navigate): Promise<Screen> {
  root.replaceChildren(h('p', { class: 'loading' }, '…'));
  let rec: RecordJson;
  try {
    rec = await call<RecordJson>('GET', `/api/games/${id}/record?format=json`);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return renderNotFound(root, 'game');
    root.replaceChildren(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    return { destroy() {}, rerender() {} };
  }
  return new Review(root, id, rec, navigate);
}

/** The review board of one record. */
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
  private legal = new Map<string, LegalMoves>();
  private asking = new Set<string>();
  private dirty = false;
  private note: { text: string; error: boolean } | null = null;
  private saveBtn: HTMLButtonElement | null = null;
  private noteEl: HTMLElement | null = null;
  private level = 3;
  /** Continuing from the shown position: against whom (the form is open), with which clock and rules. */
  private continueMode: 'ai' | 'friend' | null = null;
  private continueForm: ClockRules = { ...DEFAULT_CLOCK_RULES };
  private analysis: GameAnalysis;
  private mate: MateSearch;
  private explorer = new ExplorerPanel({ play: (usi) => this.playMove(usi), notation: defaultNotation });
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
    this.analysis = new GameAnalysis(id, this);
    this.mate = new MateSearch(this);
    // A note the screen that opened this record left (the import page: "already in the archive").
    const left = takeNote(id);
    if (left) this.note = { text: left, error: false };
    this.tree = fromJson(rec.nodes);
    this.startComments = [...rec.start_comments];
    const main = replay(rec.start_sfen, rec.moves);
    this.mainPositions = main.positions;
    this.mainInfos = main.infos;
    this.setLine([]);
    const boardCol = boardColumn({ board: this.boardEl, handTop: this.handTop, handBottom: this.handBottom });
    root.replaceChildren(h('div', { class: 'game review' }, boardCol, this.side));
    this.ground = playBoard(
      {
        board: this.boardEl,
        handTop: this.handTop,
        handBottom: this.handBottom,
        legal: () => this.legalHere(),
        play: (usi) => this.playMove(usi),
      },
      { drawable: { enabled: true, visible: true } },
    );
    document.addEventListener('keydown', this.keyHandler);
    window.addEventListener('beforeunload', this.unloadHandler);
    this.analysis.load();
    this.render();
  }

  destroy(): void {
    document.removeEventListener('keydown', this.keyHandler);
    window.removeEventListener('beforeunload', this.unloadHandler);
    this.analysis.destroy();
    this.explorer.destroy();
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
    const played = replay(
      this.rec.start_sfen,
      r.line.map((n) => n.usi),
    );
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
    this.mate.clear();
    this.note = null;
    this.ply = Math.max(0, Math.min(this.last(), ply));
    this.render();
  }

  /** Goes to a place on the main line (analysis graph and mistakes). */
  goMain(ply: number): void {
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
    if (this.mate.open && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      this.mate.stepBy(e.key === 'ArrowLeft' ? -1 : 1);
    } else if (e.key === 'ArrowLeft') this.go(this.ply - 1);
    else if (e.key === 'ArrowRight') this.go(this.ply + 1);
    else if (e.key === 'Home' || e.key === 'ArrowUp') this.go(0);
    else if (e.key === 'End' || e.key === 'ArrowDown') this.go(this.last());
    else return;
    e.preventDefault();
  }

  private shownPosition(): { pos: Position; info: MoveInfo | undefined } {
    const mate = this.mate.shown();
    if (mate) return mate;
    return { pos: this.positions[this.ply], info: this.ply > 0 ? this.infos[this.ply - 1] : undefined };
  }

  // ---- playing moves on the board ----

  /** The legal moves of the shown position, once the server has sent them. */
  private legalHere(): LegalMoves | undefined {
    if (this.mate.shown()) return undefined;
    return this.legal.get(toSfen(this.positions[this.ply]));
  }

  private async fetchLegal(sfen: string): Promise<void> {
    if (this.legal.has(sfen) || this.asking.has(sfen)) return;
    this.asking.add(sfen);
    try {
      const l = await legalMoves(sfen, true);
      this.legal.set(sfen, l);
    } catch {
      return;
    } finally {
      this.asking.delete(sfen);
    }
    if (this.legalHere() && toSfen(this.positions[this.ply]) === sfen) this.syncBoard();
  }

  private playMove(usi: string): void {
    const r = play(this.tree, { path: this.path, ply: this.ply }, usi, this.mainFixed());
    if (!r) {
      this.note = { text: t('mainLineFixed'), error: true };
      this.render();
      return;
    }
    if (r.added) this.dirty = true;
    if (r.added && r.cursor.path.length === 0) this.setMain();
    this.setLine(r.cursor.path);
    this.mate.clear();
    this.note = null;
    this.ply = Math.min(this.last(), r.cursor.ply);
    this.render();
  }

  /** Whether the main line is the game played here (it cannot change). */
  private mainFixed(): boolean {
    return this.rec.main_line_fixed !== false;
  }

  /** The main line's positions and moves, replayed from the tree (after it changed). */
  private setMain(): void {
    const main = replay(
      this.rec.start_sfen,
      this.tree.map((n) => n.usi),
    );
    this.mainPositions = main.positions;
    this.mainInfos = main.infos;
  }

  /** Makes the shown variation the line it branches from (the main line only for imported records). */
  private promoteVariation(): void {
    const at = promoteVariation(this.tree, { path: this.path, ply: this.ply }, this.mainFixed());
    if (!at) return;
    this.dirty = true;
    this.setMain();
    this.goTo(at);
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
    const { dests, drops } = groundDests(legal);
    if (!legal && !this.mate.shown()) this.fetchLegal(toSfen(pos));
    g.set({
      sfen: { board: boardSfen(pos), hands: handsSfen(pos) },
      turnColor: pos.turn,
      activeColor: legal ? pos.turn : undefined,
      lastDests: lastDests(info),
      movable: { dests },
      droppable: { dests: drops },
    });
    const shapes: DrawShape[] = [];
    const ev = this.mate.open || !this.onMain() ? undefined : this.analysis.evalAt(this.ply);
    if (ev?.best_move) {
      const s = moveShape(ev.best_move, pos.turn, 'primary');
      if (s) shapes.push(s);
    }
    g.setAutoShapes(shapes);
    this.explorer.show(toSfen(pos), info?.to);
  }

  // ---- the move list with its variations ----

  private moveList(): HTMLElement {
    const mistakeAt = new Map(this.analysis.mistakes().map((m) => [m.ply, m]));
    const items = moveListItems(this.tree, this.mainPositions[0], { path: this.path, ply: this.ply });
    // Flag the main line's mistakes.
    for (const el of items) {
      if (el.dataset.path !== '' || !el.classList.contains('move')) continue;
      const m = mistakeAt.get(Number(el.dataset.ply));
      if (!m) continue;
      el.classList.add(`flag-${m.kind}`);
      el.title = `${t(m.kind)}: ${t('better')} ${this.analysis.betterText(this.analysisView(), m)}`;
    }
    return moveListBox(items, (at) => this.goTo(at));
  }

  // ---- comments, saving, continuing ----

  private commentBox(): HTMLElement {
    const node = nodeAt(this.tree, { path: this.path, ply: this.ply });
    const lines = node ? node.comments : this.startComments;
    const area = h(
      'textarea',
      { id: 'comment-edit', rows: 3, placeholder: t('commentHere'), 'aria-label': t('comments') },
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
    return h('div', { class: 'comments', id: 'comments' }, h('h2', {}, t('comments')), area);
  }

  private updateSaveState(): void {
    if (this.saveBtn) this.saveBtn.disabled = !this.dirty || !savedToken(this.id);
    if (this.noteEl) {
      const n = this.note ?? (this.dirty ? { text: t('unsaved'), error: false } : null);
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
      // A changed main line is analysed afresh (the server forgets the old line's analysis).
      this.analysis.load();
      this.note = { text: t('saved'), error: false };
    } catch (e) {
      this.note = { text: e instanceof Error ? e.message : String(e), error: true };
    }
    this.updateSaveState();
  }

  /** Opens the clock-and-rules form for continuing against the computer or a friend. */
  private askContinue(mode: 'ai' | 'friend'): void {
    this.continueMode = mode;
    this.continueForm.impasse = mode === 'ai' ? '27' : 'count24';
    this.render();
    document.getElementById('continue-form')?.scrollIntoView({ block: 'nearest' });
  }

  /** The form that asks for the time control and rules before continuing (as the start screen does). */
  private continueFormEl(): HTMLElement | null {
    const mode = this.continueMode;
    if (!mode) return null;
    const start = h('button', { type: 'submit', class: 'primary', id: 'continue-start' }, t('create'));
    const cancel = h('button', { type: 'button', id: 'continue-cancel' }, t('cancel'));
    cancel.addEventListener('click', () => {
      this.continueMode = null;
      this.render();
    });
    const form = h(
      'form',
      { class: 'start continue-form', id: 'continue-form' },
      h('h2', {}, mode === 'ai' ? t('continueAi') : t('continueFriend')),
      ...clockRulesFields(this.continueForm),
      h('div', { class: 'controls' }, start, cancel),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      start.disabled = true;
      this.continueFrom(mode);
    });
    return form;
  }

  private async continueFrom(mode: 'ai' | 'friend'): Promise<void> {
    const { pos } = this.shownPosition();
    const req: CreateRequest = { mode, side: pos.turn, sfen: toSfen(pos), ...clockRulesRequest(this.continueForm) };
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

  /** Draws the board and the side panel (also when the analysis or the mate search changed). */
  render(): void {
    this.syncBoard();
    const rec = this.rec;
    const title = h('h1', { class: 'review-title' }, playersHeading(rec));
    const info = h('p', { class: 'review-result', id: 'review-result' }, factsText(rec));
    const tags = strategyText(rec.strategy);
    const strategy = tags ? h('p', { class: 'review-strategy note', id: 'review-strategy' }, tags) : null;
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
          btn('to-main', t('backToMain'), () => this.goMain(this.path[0][0])),
          btn('remove-variation', t('removeVariation'), () => this.removeVariation()),
          !this.mainFixed() || this.path.length > 1
            ? btn('promote-variation', t('promoteVariation'), () => this.promoteVariation())
            : null,
        );
    const moves = this.moveList();
    const token = savedToken(this.id);
    this.saveBtn = btn('save-annotations', t('save'), () => this.save(), token ? undefined : t('saveNeedsToken'));
    this.noteEl = h('span', { class: 'note', id: 'review-note', role: 'status' });
    const editRow = h(
      'div',
      { class: 'controls save-row' },
      this.saveBtn,
      this.noteEl,
      token ? null : h('p', { class: 'hint', id: 'save-hint' }, t('saveNeedsToken')),
    );
    const sfen = toSfen(this.shownPosition().pos);
    const sfenInput = h('input', { id: 'sfen', readonly: true, value: sfen, size: 40 });
    const copyBtn = btn('copy-sfen', t('copySfen'), () => {
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
      btn('open-analysis', t('anOpen'), () => this.navigate(this.analysisLink())),
      btn('continue-ai', t('continueAi'), () => this.askContinue('ai')),
      levelSelect,
      btn('continue-friend', t('continueFriend'), () => this.askContinue('friend')),
    );
    const q = this.diagramQuery();
    const downloads = h(
      'div',
      { class: 'downloads' },
      `${t('download')}: `,
      FORMATS.map((f) =>
        h('a', { href: `/api/games/${this.id}/record?format=${f}`, download: '', id: `dl-${f}` }, f.toUpperCase()),
      ),
      h('a', { href: `/api/games/${this.id}/diagram.svg?${q}`, download: '', id: 'dl-svg' }, t('diagram')),
      h('a', { href: `/api/games/${this.id}/diagram.png?${q}`, download: '', id: 'dl-png' }, t('diagramPng')),
    );
    this.side.replaceChildren(
      ...[
        title,
        info,
        strategy,
        nav,
        variationRow,
        this.programPanel(),
        this.analysis.panel(this.analysisView()),
        moves,
        this.analysis.mistakeList(this.analysisView()),
        this.explorer.el,
        this.commentBox(),
        editRow,
        h('div', { class: 'controls sfen-row' }, sfenInput, copyBtn),
        continueRow,
        this.continueFormEl(),
        downloads,
        this.mate.panel(() => toSfen(this.positions[this.ply])),
      ].filter((el): el is HTMLElement => el !== null),
    );
    this.explorer.render();
    this.updateSaveState();
    scrollIntoList(moves, moves.querySelector<HTMLElement>('.current'));
  }

  /** In a game with a program: its evaluation and expected line for the main-line move shown. */
  private programPanel(): HTMLElement | null {
    const rec = this.rec;
    if (!rec.sente_bot && !rec.gote_bot) return null;
    const ply = this.ply;
    const mover = ply > 0 ? this.positions[ply - 1].turn : null;
    return programNotePanel({
      notes: rec.notes,
      ply: this.onMain() && !this.mate.open ? ply : null,
      after: this.positions[ply],
      prevTo: this.infos[ply - 1]?.to,
      mover,
      name: mover ? (rec.headers[mover] ?? t(mover)) : '',
      notation: defaultNotation(),
    });
  }

  /** The analysis board's address for the shown position and the shown line's moves from it. */
  private analysisLink(): string {
    const { pos } = this.shownPosition();
    const moves = this.mate.shown() ? [] : this.line.slice(this.ply).map((n) => n.usi);
    const sfen = toSfen({ ...pos, moveNumber: 1 });
    return `/analysis?usen=${writeUsen({ sfen, moves, variations: [] })}&ply=0`;
  }

  /** Where the board stands, for the analysis panel. */
  private analysisView(): AnalysisView {
    return { ply: this.ply, onMain: this.onMain(), mainInfos: this.mainInfos, mainPositions: this.mainPositions };
  }
}
