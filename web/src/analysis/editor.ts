// The position editor of the analysis board: pieces dragged from the trays
// onto the board and off it (shogiground's free mode), both hands counted
// with +/- buttons, the side to move, flip, clear, the start position, the
// handicaps (`GET /api/handicaps`) and an SFEN field. "Analyse" asks the
// server (`POST /api/legal`) whether the setup is a legal position and shows
// why not.

import type { Api } from 'shogiground/api';
import type * as sg from 'shogiground/types';

import { ApiError, legalMoves, request as call } from '../api/api';
import { h, option } from '../dom';
import { makeGround } from '../board/ground';
import { t, type MsgKey } from '../i18n/i18n';
import {
  boardSfen,
  handsSfen,
  HAND_ROLES,
  parseSfen,
  toSfen,
  type Color,
  type Position,
  type Role,
} from '../board/shogi';
import { START_SFEN } from '../records/usen';

/** The pieces of a tray, as they are placed on the board. */
const TRAY_ROLES: Role[] = [
  'king',
  'rook',
  'bishop',
  'gold',
  'silver',
  'knight',
  'lance',
  'pawn',
  'dragon',
  'horse',
  'promotedsilver',
  'promotedknight',
  'promotedlance',
  'tokin',
];

const EMPTY_SFEN = '9/9/9/9/9/9/9/9/9 b - 1';

interface HandicapView {
  name: string;
  kif: string;
  sfen: string;
}

let handicapList: HandicapView[] | null = null;

/** A piece drawn as the board draws it (a `piece` element). */
function pieceEl(color: Color, role: Role): HTMLElement {
  const el = document.createElement('piece');
  el.className = `${color} ${role}`;
  return el;
}

/** The editor: `done` gets the SFEN of a position the server accepted. */
export class PositionEditor {
  private ground: Api;
  private pos: Position;
  private orientation: Color = 'sente';
  private error = h('p', { class: 'error', id: 'editor-error', role: 'alert' });
  private sfenInput = h('input', { id: 'editor-sfen', size: 40, 'aria-label': 'SFEN' });
  private hands = h('div', { class: 'editor-hands', id: 'editor-hands' });
  private turnSelect = h('select', { id: 'editor-turn', 'aria-label': t('anSideToMove') });
  private handicapSelect = h('select', { id: 'editor-handicap', 'aria-label': t('handicap') });
  private boardEl = h('div', { class: 'board' });
  private handTop = h('div', { class: 'hand hand-top-el' });
  private handBottom = h('div', { class: 'hand hand-bottom-el' });
  private trayTop = h('div', { class: 'editor-tray', id: 'tray-gote' });
  private trayBottom = h('div', { class: 'editor-tray', id: 'tray-sente' });

  constructor(
    private root: HTMLElement,
    sfen: string,
    private done: (sfen: string) => void,
  ) {
    this.pos = parseSfen(sfen);
    const boardCol = h(
      'div',
      { class: 'board-col pieces-kanji editor-board' },
      this.trayTop,
      this.handTop,
      h('div', { class: 'board-wrap' }, this.boardEl),
      this.handBottom,
      this.trayBottom,
    );
    const side = h('div', { class: 'side editor-side' });
    root.replaceChildren(h('div', { class: 'game analysis-board editor' }, boardCol, side));
    this.ground = makeGround(
      {
        orientation: 'sente',
        activeColor: 'both',
        movable: { free: true, showDests: false },
        droppable: { free: true, showDests: false },
        draggable: { enabled: true, showGhost: true, deleteOnDropOff: true, addToHandOnDropOff: true },
        selectable: { enabled: true, forceSpares: true },
        highlight: { lastDests: false, check: false },
        drawable: { enabled: false },
        premovable: { enabled: false },
        predroppable: { enabled: false },
        promotion: { movePromotionDialog: () => false, dropPromotionDialog: () => false },
        events: { change: () => this.readBoard() },
      },
      { board: this.boardEl, hands: { top: this.handTop, bottom: this.handBottom } },
    );
    this.renderSide(side);
    this.renderTrays();
    this.setPosition(this.pos);
    this.loadHandicaps();
  }

  destroy(): void {
    this.ground.destroy();
  }

  rerender(): void {
    const side = this.root.querySelector<HTMLElement>('.editor-side');
    if (side) this.renderSide(side);
    this.renderTrays();
    this.syncControls();
  }

  /** The position as the editor holds it now. */
  sfen(): string {
    return toSfen(this.pos);
  }

  private setPosition(pos: Position): void {
    this.pos = { ...pos, moveNumber: 1 };
    this.ground.set({
      sfen: { board: boardSfen(this.pos), hands: handsSfen(this.pos) },
      turnColor: this.pos.turn,
      orientation: this.orientation,
    });
    this.error.textContent = '';
    this.syncControls();
  }

  /** The board and hands after a drag: read back from shogiground. */
  private readBoard(): void {
    // A spare placed: nothing stays selected for the next drag.
    this.ground.selectPiece(null);
    const turn = this.pos.turn === 'sente' ? 'b' : 'w';
    this.pos = parseSfen(`${this.ground.getBoardSfen()} ${turn} ${this.ground.getHandsSfen() || '-'} 1`);
    this.error.textContent = '';
    this.syncControls();
  }

  private syncControls(): void {
    this.sfenInput.value = toSfen(this.pos);
    this.turnSelect.value = this.pos.turn;
    this.renderHands();
  }

  private renderTrays(): void {
    const tray = (color: Color) =>
      TRAY_ROLES.map((role) => {
        const b = h(
          'button',
          {
            type: 'button',
            class: 'tray-piece',
            'data-piece': `${color} ${role}`,
            'aria-label': `${t(color)}: ${t(`piece_${role}` as MsgKey)}`,
            title: t(`piece_${role}` as MsgKey),
          },
          pieceEl(color, role),
        );
        const piece = { color, role } as sg.Piece;
        b.addEventListener('mousedown', (e) => this.ground.dragNewPiece(piece, e, true));
        b.addEventListener('touchstart', (e) => this.ground.dragNewPiece(piece, e, true), { passive: true });
        b.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' || e.key === ' ') this.ground.selectPiece(piece, true, true);
        });
        return b;
      });
    const top = this.orientation === 'sente' ? 'gote' : 'sente';
    const bottom = top === 'sente' ? 'gote' : 'sente';
    this.trayTop.id = `tray-${top}`;
    this.trayBottom.id = `tray-${bottom}`;
    this.trayTop.setAttribute('aria-label', t('anPalette').replace('{side}', t(top)));
    this.trayBottom.setAttribute('aria-label', t('anPalette').replace('{side}', t(bottom)));
    this.trayTop.className = `editor-tray orientation-${this.orientation}`;
    this.trayBottom.className = `editor-tray orientation-${this.orientation}`;
    this.trayTop.replaceChildren(...tray(top));
    this.trayBottom.replaceChildren(...tray(bottom));
  }

  /** Both hands as counts with − and + (a keyboard's way to fill them). */
  private renderHands(): void {
    const row = (color: Color) =>
      h(
        'div',
        { class: 'editor-hand', id: `editor-hand-${color}` },
        h('span', { class: 'editor-hand-name' }, t('anHandOf').replace('{side}', t(color))),
        HAND_ROLES.map((role) => {
          const n = this.pos.hands[color][role];
          const name = t(`piece_${role}` as MsgKey);
          const minus = h(
            'button',
            {
              type: 'button',
              class: 'hand-minus',
              disabled: n === 0,
              'aria-label': t('anMinus').replace('{piece}', name),
            },
            '−',
          );
          const plus = h(
            'button',
            {
              type: 'button',
              class: 'hand-plus',
              id: `hand-plus-${color}-${role}`,
              'aria-label': t('anPlus').replace('{piece}', name),
            },
            '+',
          );
          minus.addEventListener('click', () => this.changeHand(color, role, -1));
          plus.addEventListener('click', () => this.changeHand(color, role, 1));
          return h(
            'span',
            { class: 'editor-hand-role', 'data-role': role },
            h('span', { class: 'editor-hand-label', title: name }, `${name} `),
            minus,
            h('output', { class: 'hand-count', id: `hand-count-${color}-${role}` }, String(n)),
            plus,
          );
        }),
      );
    this.hands.replaceChildren(row('gote'), row('sente'));
  }

  private changeHand(color: Color, role: (typeof HAND_ROLES)[number], by: number): void {
    const n = Math.max(0, Math.min(18, this.pos.hands[color][role] + by));
    const hands = { ...this.pos.hands, [color]: { ...this.pos.hands[color], [role]: n } };
    this.setPosition({ ...this.pos, hands });
  }

  private async loadHandicaps(): Promise<void> {
    if (!handicapList) {
      try {
        handicapList = await call<HandicapView[]>('GET', '/api/handicaps');
      } catch {
        return;
      }
    }
    this.fillHandicaps();
  }

  private fillHandicaps(): void {
    this.handicapSelect.replaceChildren(
      option('', `${t('handicap')}…`, ''),
      ...(handicapList ?? []).map((hc) =>
        option(hc.name, `${t(`hc_${hc.name}` as MsgKey) ?? hc.name} (${hc.kif})`, ''),
      ),
    );
  }

  private renderSide(side: HTMLElement): void {
    const btn = (id: string, label: string, fn: () => void) => {
      const b = h('button', { type: 'button', id }, label);
      b.addEventListener('click', fn);
      return b;
    };
    this.turnSelect.replaceChildren(
      option('sente', `☗ ${t('sente')}`, this.pos.turn),
      option('gote', `☖ ${t('gote')}`, this.pos.turn),
    );
    this.turnSelect.onchange = () => this.setPosition({ ...this.pos, turn: this.turnSelect.value as Color });
    this.handicapSelect.onchange = () => {
      const hc = handicapList?.find((x) => x.name === this.handicapSelect.value);
      if (hc) this.setPosition(parseSfen(hc.sfen));
      this.handicapSelect.value = '';
    };
    this.fillHandicaps();
    const load = btn('editor-load', t('anLoadSfen'), () => {
      const text = this.sfenInput.value.trim().replace(/^sfen\s+/, '');
      if (!/^[1-9+A-Za-z/]+ [bw] (-|[0-9A-Za-z]+)( \d+)?$/.test(text)) {
        this.error.textContent = t('anBadSfen');
        return;
      }
      this.setPosition(parseSfen(text));
    });
    const analyse = h('button', { type: 'button', id: 'editor-analyse', class: 'primary' }, t('anAnalyse'));
    analyse.addEventListener('click', () => this.submit());
    side.replaceChildren(
      h('h1', {}, t('anEditor')),
      h('p', { class: 'hint' }, t('anEditorHint')),
      h('label', { class: 'field' }, h('span', {}, t('anSideToMove')), this.turnSelect),
      h(
        'div',
        { class: 'controls' },
        btn('editor-flip', t('flip'), () => {
          this.orientation = this.orientation === 'sente' ? 'gote' : 'sente';
          this.renderTrays();
          this.setPosition(this.pos);
        }),
        btn('editor-clear', t('anClear'), () => this.setPosition(parseSfen(EMPTY_SFEN))),
        btn('editor-start', t('anStartPos'), () => this.setPosition(parseSfen(START_SFEN))),
        this.handicapSelect,
      ),
      this.hands,
      h('div', { class: 'controls sfen-row' }, this.sfenInput, load),
      h('div', { class: 'controls' }, analyse),
      this.error,
    );
  }

  /** Asks the server whether the setup is legal; on yes, hands it to `done`. */
  private async submit(): Promise<void> {
    const sfen = toSfen(this.pos);
    try {
      await legalMoves(sfen);
    } catch (e) {
      // The SFEN reader's words (`bad_sfen`'s detail) say what is wrong with the setup.
      const detail = e instanceof ApiError && e.code === 'bad_sfen' ? e.params.detail : undefined;
      const why =
        typeof detail === 'string'
          ? detail.replace(/^SFEN column \d+: /, '')
          : e instanceof Error
            ? e.message
            : String(e);
      this.error.textContent = t('anIllegal').replace('{why}', why);
      return;
    }
    this.done(sfen);
  }
}
