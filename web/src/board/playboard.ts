// A board on which the side to move plays (the review, the analysis board,
// the puzzles, the lessons): shogiground set up one way for all of them,
// with promotion choices from the legal moves and every move or drop handed
// back as USI. Each screen adds or replaces options of its own.

import type { Api } from 'shogiground/api';
import type { Config } from 'shogiground/config';

import type { LegalMoves } from '../api/api';
import { h } from '../dom';
import { dropUsi, makeGround, moveUsi } from './ground';
import { promoted, unpromoted, type Role } from './shogi';

/** What the board needs of its screen. */
export interface PlayBoard {
  board: HTMLElement;
  handTop: HTMLElement;
  handBottom: HTMLElement;
  /** The legal moves now (their promotion choices), if any. */
  legal(): LegalMoves | undefined;
  /** A move or drop made on the board, as USI. */
  play(usi: string): void;
  /**
   * Whether a move that may promote asks first (default: yes). Without the
   * question such a move is played unpromoted; a move that must promote
   * still promotes.
   */
  promotionChoice?: () => boolean;
}

/** The board of `b`, with `options` laid over the shared ones (top-level keys replace them). */
export function playBoard(b: PlayBoard, options: Config = {}): Api {
  return makeGround(
    {
      orientation: 'sente',
      viewOnly: false,
      highlight: { lastDests: true, check: false },
      animation: { enabled: true, duration: 120 },
      premovable: { enabled: false },
      predroppable: { enabled: false },
      draggable: { enabled: true, showGhost: true },
      promotion: {
        promotesTo: (role) => promoted(role as Role),
        unpromotesTo: (role) => unpromoted(role as Role),
        movePromotionDialog: (orig, dest) =>
          (b.promotionChoice?.() ?? true) && b.legal()?.promotions[orig + dest] === 'may',
        forceMovePromotion: (orig, dest) => b.legal()?.promotions[orig + dest] === 'must',
        dropPromotionDialog: () => false,
        forceDropPromotion: () => false,
      },
      movable: {
        free: false,
        showDests: true,
        events: { after: (orig, dest, prom) => b.play(moveUsi(orig, dest, prom)) },
      },
      droppable: {
        free: false,
        showDests: true,
        events: {
          after: (piece, key) => {
            const usi = dropUsi(piece.role, key);
            if (usi) b.play(usi);
          },
        },
      },
      ...options,
    },
    { board: b.board, hands: { top: b.handTop, bottom: b.handBottom } },
  );
}

/** The column of `b`'s board: Gote's hand, the board, Sente's hand, then `below` (a typed-move field). */
export function boardColumn(
  b: Pick<PlayBoard, 'board' | 'handTop' | 'handBottom'>,
  ...below: HTMLElement[]
): HTMLElement {
  return h(
    'div',
    { class: 'board-col pieces-kanji' },
    b.handTop,
    h('div', { class: 'board-wrap' }, b.board),
    b.handBottom,
    ...below,
  );
}
