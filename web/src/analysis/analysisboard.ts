// The free analysis board `/analysis`: a start position (from the position
// editor, a share link or a game's review), moves played for both sides as
// a tree with variations (records/tree.ts, listed by records/movelist.ts),
// the engine's lines (enginelines.ts), the mate search (engine/mate.ts), the
// export as SFEN, KIF, KI2, CSA or a PNG diagram, and a share link holding
// the position and the moves in USEN (`/analysis?usen=...&ply=N`).

import type { Api } from 'shogiground/api';

import { moveField } from '../board/movefield';
import { legalMoves, type LegalMoves } from '../api/api';
import { h, option } from '../dom';
import { PositionEditor } from './editor';
import { EngineLines } from './enginelines';
import { groundDests, lastDests, moveShape } from '../board/ground';
import { t, type MsgKey } from '../i18n/i18n';
import { MateSearch } from '../engine/mate';
import { ExplorerPanel } from '../explorer/panel';
import { rememberAnalysisSfen } from '../explorer/remembered';
import { moveListBox, moveListItems, scrollIntoList } from '../records/movelist';
import { defaultNotation } from '../board/movetext';
import { NOTATIONS, type Notation } from '../board/notation';
import { boardColumn, playBoard } from '../board/playboard';
import type { Screen } from '../screen';
import { boardSfen, handsSfen, replay, toSfen, type MoveInfo, type Position } from '../board/shogi';
import {
  fromJson,
  parsePathKey,
  pathKey,
  play,
  removeVariation,
  resolve,
  type Cursor,
  type Path,
  type TreeNode,
} from '../records/tree';
import { readUsen, START_SFEN, writeUsen, type UsenLine } from '../records/usen';

const NOTATION_LABEL: Record<Notation, MsgKey> = {
  japanese: 'notJapanese',
  western: 'notWestern',
  russian: 'notRussian',
  usi: 'notUsi',
};

const EXPORT_FORMATS = ['kif', 'ki2', 'csa', 'sfen'];

/** The line a share link (`?usen=` or `#usen`) holds, null without one, `'bad'` for one that cannot be read. */
export function linkLine(search: string, hash: string): { line: UsenLine; at: Cursor } | 'bad' | null {
  const q = new URLSearchParams(search);
  const text = q.get('usen') ?? (hash.length > 1 ? decodeURIComponent(hash.slice(1)) : null);
  if (text === null) return null;
  const line = readUsen(text);
  if (!line) return 'bad';
  const path = parsePathKey(q.get('path') ?? '');
  return { line, at: { path, ply: Number(q.get('ply') ?? line.moves.length) || 0 } };
}

/** The tree of a USEN line: the main line and its variations. */
function treeOf(line: UsenLine): TreeNode[] {
  const tree = fromJson(line.moves.map((usi) => ({ usi })));
  for (const v of line.variations) tree[v.at]?.variations.push(fromJson(v.moves.map((usi) => ({ usi }))));
  return tree;
}

/** Opens the analysis board (the editor first for `/analysis?edit`). */
export function openAnalysisBoard(root: HTMLElement): Screen {
  return new AnalysisBoard(root);
}

class AnalysisBoard implements Screen {
  private ground: Api | null = null;
  private editor: PositionEditor | null = null;
  private startSfen = START_SFEN;
  private tree: TreeNode[] = [];
  private path: Path = [];
  private ply = 0;
  private positions: Position[] = [];
  private infos: MoveInfo[] = [];
  private legal = new Map<string, LegalMoves | 'illegal'>();
  private notation: Notation = defaultNotation();
  private note = '';
  private exportText = '';
  private exportFormat = 'kif';
  private engine = new EngineLines(
    { linesChanged: () => this.drawShapes(), playLine: (moves) => this.playLine(moves) },
    () => this.notation,
  );
  private mate = new MateSearch(this);
  private explorer = new ExplorerPanel({ play: (usi) => this.playMove(usi), notation: () => this.notation });
  private boardEl = h('div', { class: 'board' });
  private handTop = h('div', { class: 'hand hand-top-el' });
  private handBottom = h('div', { class: 'hand hand-bottom-el' });
  private side = h('div', { class: 'side analysis-side' });
  private orientation: 'sente' | 'gote' = 'sente';
  private keyHandler = (e: KeyboardEvent) => this.onKey(e);

  constructor(private root: HTMLElement) {
    const link = linkLine(location.search, location.hash);
    if (link === 'bad') this.note = t('anBadLink');
    else if (link) {
      this.startSfen = link.line.sfen;
      this.tree = treeOf(link.line);
      this.path = link.at.path;
      this.ply = link.at.ply;
    }
    document.addEventListener('keydown', this.keyHandler);
    if (new URLSearchParams(location.search).has('edit')) this.openEditor();
    else this.openBoard();
  }

  destroy(): void {
    document.removeEventListener('keydown', this.keyHandler);
    this.engine.destroy();
    this.explorer.destroy();
    this.ground?.destroy();
    this.editor?.destroy();
  }

  rerender(): void {
    if (this.editor) this.editor.rerender();
    else this.render();
  }

  private openEditor(): void {
    this.engine.destroy();
    this.ground?.destroy();
    this.ground = null;
    const sfen = this.positions.length ? toSfen(this.positions[this.ply]) : this.startSfen;
    this.editor = new PositionEditor(this.root, sfen, (s) => {
      this.editor?.destroy();
      this.editor = null;
      this.startSfen = s;
      this.tree = [];
      this.path = [];
      this.ply = 0;
      this.note = '';
      this.openBoard();
    });
  }

  private openBoard(): void {
    this.setLine(this.path);
    this.ply = Math.max(0, Math.min(this.ply, this.positions.length - 1));
    const boardCol = boardColumn(
      { board: this.boardEl, handTop: this.handTop, handBottom: this.handBottom },
      moveField('analysis-move-input', {
        current: () => {
          const legal = this.legalHere();
          return legal
            ? { pos: this.positions[this.ply], legal, prevTo: this.ply > 0 ? this.infos[this.ply - 1]?.to : undefined }
            : null;
        },
        play: (usi) => this.playMove(usi),
        notation: () => this.notation,
      }),
    );
    this.root.replaceChildren(h('div', { class: 'game review analysis-board' }, boardCol, this.side));
    this.ground = playBoard(
      {
        board: this.boardEl,
        handTop: this.handTop,
        handBottom: this.handBottom,
        legal: () => this.legalHere(),
        play: (usi) => this.playMove(usi),
      },
      { orientation: this.orientation, drawable: { enabled: true, visible: true } },
    );
    this.render();
  }

  private setLine(path: Path): void {
    const r = resolve(this.tree, path);
    this.path = r.path;
    const played = replay(
      this.startSfen,
      r.line.map((n) => n.usi),
    );
    this.positions = played.positions;
    this.infos = played.infos;
  }

  private go(at: Cursor): void {
    this.setLine(at.path);
    this.mate.clear();
    this.ply = Math.max(0, Math.min(this.positions.length - 1, at.ply));
    this.render();
  }

  private onKey(e: KeyboardEvent): void {
    if (this.editor) return;
    const target = e.target as HTMLElement | null;
    if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
    const here = { path: this.path, ply: this.ply };
    if (this.mate.open && (e.key === 'ArrowLeft' || e.key === 'ArrowRight'))
      this.mate.stepBy(e.key === 'ArrowLeft' ? -1 : 1);
    else if (e.key === 'ArrowLeft') this.go({ ...here, ply: this.ply - 1 });
    else if (e.key === 'ArrowRight') this.go({ ...here, ply: this.ply + 1 });
    else if (e.key === 'Home' || e.key === 'ArrowUp') this.go({ ...here, ply: 0 });
    else if (e.key === 'End' || e.key === 'ArrowDown') this.go({ ...here, ply: this.positions.length - 1 });
    else return;
    e.preventDefault();
  }

  private shown(): { pos: Position; info: MoveInfo | undefined } {
    return (
      this.mate.shown() ?? { pos: this.positions[this.ply], info: this.ply > 0 ? this.infos[this.ply - 1] : undefined }
    );
  }

  private legalHere(): LegalMoves | undefined {
    if (this.mate.shown()) return undefined;
    const l = this.legal.get(toSfen(this.positions[this.ply]));
    return l === 'illegal' ? undefined : l;
  }

  private async fetchLegal(sfen: string): Promise<void> {
    if (this.legal.has(sfen)) return;
    this.legal.set(sfen, 'illegal');
    try {
      this.legal.set(sfen, await legalMoves(sfen));
    } catch {
      return;
    }
    if (!this.mate.shown() && toSfen(this.positions[this.ply]) === sfen) this.syncBoard();
  }

  private playMove(usi: string): void {
    const r = play(this.tree, { path: this.path, ply: this.ply }, usi, false);
    if (r) this.go(r.cursor);
  }

  /** Plays an engine line's moves from the shown position (following moves already in the tree). */
  private playLine(moves: string[]): void {
    let at: Cursor = { path: this.path, ply: this.ply };
    for (const usi of moves) {
      const r = play(this.tree, at, usi, false);
      if (!r) break;
      at = r.cursor;
    }
    this.go(at);
  }

  private syncBoard(): void {
    const g = this.ground;
    if (!g) return;
    const { pos, info } = this.shown();
    const sfen = toSfen(pos);
    if (!this.mate.shown()) this.fetchLegal(sfen);
    const legal = this.legalHere();
    const { dests, drops } = groundDests(legal);
    g.set({
      sfen: { board: boardSfen(pos), hands: handsSfen(pos) },
      orientation: this.orientation,
      turnColor: pos.turn,
      activeColor: legal ? pos.turn : undefined,
      lastDests: lastDests(info),
      movable: { dests },
      droppable: { dests: drops },
    });
    this.engine.show(sfen);
    this.explorer.show(sfen, info?.to);
    rememberAnalysisSfen(sfen);
    this.drawShapes();
  }

  private drawShapes(): void {
    const { pos } = this.shown();
    const shapes = this.mate.open ? [] : this.engine.shapes(pos.turn);
    const m = this.mate.shown();
    if (m?.info) {
      const s = moveShape(m.info.usi, m.info.color, 'primary');
      if (s) shapes.push(s);
    }
    this.ground?.setAutoShapes(shapes);
  }

  /** The main line and its variations, as USEN and the export hold them. */
  private usenLine(): UsenLine {
    const variations = this.tree.flatMap((n, at) => n.variations.map((v) => ({ at, moves: v.map((x) => x.usi) })));
    return { sfen: this.startSfen, moves: this.tree.map((n) => n.usi), variations };
  }

  private shareLink(): string {
    const q = new URLSearchParams({ usen: writeUsen(this.usenLine()), ply: String(this.ply) });
    if (this.path.length === 1) q.set('path', pathKey(this.path));
    return `${location.origin}/analysis?${q.toString().replace(/%7E/gi, '~')}`;
  }

  private async export(): Promise<void> {
    const l = this.usenLine();
    try {
      const res = await fetch('/api/export', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sfen: l.sfen, moves: l.moves, variations: l.variations, format: this.exportFormat }),
      });
      const text = await res.text();
      this.exportText = res.ok ? text : ((JSON.parse(text) as { error?: string }).error ?? text);
    } catch (e) {
      this.exportText = e instanceof Error ? e.message : String(e);
    }
    this.render();
  }

  render(): void {
    if (this.editor) return;
    this.syncBoard();
    const btn = (id: string, label: string, fn: () => void) => {
      const b = h('button', { type: 'button', id }, label);
      b.addEventListener('click', fn);
      return b;
    };
    const here = { path: this.path, ply: this.ply };
    const nav = h(
      'div',
      { class: 'nav' },
      btn('nav-first', '«', () => this.go({ ...here, ply: 0 })),
      btn('nav-prev', '‹', () => this.go({ ...here, ply: this.ply - 1 })),
      btn('nav-next', '›', () => this.go({ ...here, ply: this.ply + 1 })),
      btn('nav-last', '»', () => this.go({ ...here, ply: this.positions.length - 1 })),
    );
    const notation = h(
      'select',
      { id: 'analysis-notation', 'aria-label': t('notation') },
      NOTATIONS.map((n) => option(n, t(NOTATION_LABEL[n]), this.notation)),
    );
    notation.addEventListener('change', () => {
      this.notation = notation.value as Notation;
      this.render();
    });
    const tools = h(
      'div',
      { class: 'controls' },
      btn('analysis-edit', t('anEdit'), () => this.openEditor()),
      btn('analysis-flip', t('flip'), () => {
        this.orientation = this.orientation === 'sente' ? 'gote' : 'sente';
        this.render();
      }),
      h('label', {}, `${t('notation')} `, notation),
    );
    const variationRow =
      this.path.length === 0
        ? null
        : h(
            'div',
            { class: 'controls variation-row' },
            btn('to-main', t('backToMain'), () => this.go({ path: [], ply: this.path[0][0] })),
            btn('remove-variation', t('removeVariation'), () => {
              const at = removeVariation(this.tree, here);
              if (at) this.go(at);
            }),
          );
    const items = moveListItems(this.tree, this.positions[0], here, this.notation);
    const moves = moveListBox(items, (at) => this.go(at));
    this.engine.render();
    this.explorer.render();
    const { pos, info } = this.shown();
    const sfen = toSfen(pos);
    const field = (id: string, value: string, label: string) => {
      const input = h('input', { id, readonly: true, value, size: 40, 'aria-label': label });
      const copy = btn(`${id}-copy`, t('anCopy'), () => {
        navigator.clipboard?.writeText(value).catch(() => undefined);
        input.select();
      });
      return h('div', { class: 'controls sfen-row' }, h('span', { class: 'field-name' }, label), input, copy);
    };
    const format = h(
      'select',
      { id: 'export-format', 'aria-label': t('anFormat') },
      EXPORT_FORMATS.map((f) => option(f, f.toUpperCase(), this.exportFormat)),
    );
    format.addEventListener('change', () => {
      this.exportFormat = format.value;
      this.exportText = '';
      this.render();
    });
    const exportArea = this.exportText
      ? h('textarea', { id: 'export-text', readonly: true, rows: 8, 'aria-label': t('anExport') }, this.exportText)
      : null;
    const download = this.exportText
      ? btn('export-download', t('anDownload'), () => {
          const a = h('a', {
            download: `analysis.${this.exportFormat === 'sfen' ? 'usi' : this.exportFormat}`,
            href: URL.createObjectURL(new Blob([this.exportText], { type: 'text/plain;charset=utf-8' })),
          });
          a.click();
          setTimeout(() => URL.revokeObjectURL(a.href), 1000);
        })
      : null;
    const png = `/api/diagram.png?sfen=${encodeURIComponent(sfen)}${info ? `&last=${encodeURIComponent(info.usi)}` : ''}`;
    const exportBox = h(
      'div',
      { class: 'analysis-export', id: 'analysis-export' },
      h('h2', {}, t('anExport')),
      field('analysis-sfen', sfen, t('anSfen')),
      h(
        'div',
        { class: 'controls' },
        format,
        btn('export-show', t('anShow'), () => this.export()),
        download,
        h('a', { href: png, download: 'position.png', id: 'analysis-png' }, t('diagramPng')),
      ),
      exportArea,
      field('share-link', this.shareLink(), t('anShare')),
    );
    this.side.replaceChildren(
      ...[
        h('h1', {}, t('anBoard')),
        this.note ? h('p', { class: 'error', id: 'analysis-note' }, this.note) : null,
        tools,
        nav,
        variationRow,
        this.engine.el,
        moves,
        this.explorer.el,
        this.mate.panel(() => toSfen(this.positions[this.ply])),
        exportBox,
      ].filter((el): el is HTMLElement => el !== null),
    );
    scrollIntoList(moves, moves.querySelector<HTMLElement>('.current'));
    // The side panel may have moved the board: the pieces are placed from fresh bounds.
    const g = this.ground;
    if (g) {
      g.state.dom.bounds.board.bounds.clear();
      g.state.dom.bounds.hands.bounds.clear();
      g.state.dom.bounds.hands.pieceBounds.clear();
      g.state.dom.redraw();
    }
  }
}
