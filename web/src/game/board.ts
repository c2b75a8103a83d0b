// The game screen's board: shogiground set up for the seat (who may move,
// promotion choices from the server's list or, for moves that may be tried
// under "illegal moves lose", by the zone), kept in step with the shown
// position, turned round, and the bubble that names the rule a refused move
// broke at its square.

import type { Api } from 'shogiground/api';
import type { Config } from 'shogiground/config';
import type * as sg from 'shogiground/types';

import type { ClientMessage } from './socket';
import type { Side } from '../api/api';
import { dropUsi, groundDests, lastDests, makeGround, moveUsi } from '../board/ground';
import { couldTry, isListed } from '../board/keyboard';
import { boardSfen, fileRank, handsSfen, inZone, opposite, promoted, type Role, unpromoted } from '../board/shogi';
import { h } from '../dom';
import { type MsgKey, t } from '../i18n/i18n';
import type { LiveGame, Seat } from './state';

export class GameBoard {
  /** The board's column: players, hands, the board, and what the screen adds below. */
  readonly col = h('div', { class: 'board-col' });
  readonly el = h('div', { class: 'board' });
  readonly handTop = h('div', { class: 'hand hand-top-el' });
  readonly handBottom = h('div', { class: 'hand hand-bottom-el' });
  readonly playerTop = h('div', { class: 'player top' });
  readonly playerBottom = h('div', { class: 'player bottom' });
  orientation: Side = 'sente';
  private orientationSet = false;
  private ground: Api | null = null;
  private shown = '';

  /** `send`: a move made on the board, for the server. */
  constructor(
    private game: LiveGame,
    private send: (msg: ClientMessage) => void,
  ) {
    this.col.append(
      this.playerTop,
      this.handTop,
      h('div', { class: 'board-wrap' }, this.el),
      this.handBottom,
      this.playerBottom,
    );
  }

  /** The first state: the board is seen from the seat's side (Sente's for spectators). */
  orientFor(you: Seat): void {
    if (this.orientationSet) return;
    this.orientation = you === 'gote' ? 'gote' : 'sente';
    this.orientationSet = true;
  }

  /** Makes the board once there is a state to show. */
  ensure(): void {
    if (!this.ground) this.create();
  }

  destroy(): void {
    this.ground?.destroy();
  }

  /** Turns the board round. */
  flip(): void {
    this.orientation = opposite(this.orientation);
    this.create();
    this.sync();
  }

  private config(): Config {
    return {
      orientation: this.orientation,
      viewOnly: this.game.you === null,
      animation: { enabled: true, duration: 150 },
      premovable: { enabled: false },
      predroppable: { enabled: false },
      draggable: { enabled: true, showGhost: true },
      highlight: { lastDests: true, check: true },
      drawable: { enabled: true, visible: true },
      promotion: {
        promotesTo: (role) => promoted(role as Role),
        unpromotesTo: (role) => unpromoted(role as Role),
        movePromotionDialog: (orig, dest) => this.promotionChoice(orig, dest),
        forceMovePromotion: (orig, dest) => this.game.st?.promotions[orig + dest] === 'must',
        dropPromotionDialog: () => false,
        forceDropPromotion: () => false,
      },
      movable: {
        showDests: true,
        events: {
          after: (orig, dest, prom) => this.tryMove(moveUsi(orig, dest, prom)),
        },
      },
      droppable: {
        showDests: true,
        events: {
          after: (piece, key) => {
            const usi = dropUsi(piece.role, key);
            if (usi) this.tryMove(usi);
          },
        },
      },
      events: {
        insert: () => this.titleHandPieces(),
      },
    };
  }

  /** A move made on the board: sent when it is legal, or when the piece could
   * make it but a rule forbids it (the server then names the rule, shown at the
   * square); a move no piece makes is put back silently. */
  private tryMove(usi: string): void {
    const s = this.game.st;
    const pos = this.game.positions[this.game.positions.length - 1];
    if (!s || !pos) return;
    if (s.rules.illegal === 'lose' || isListed(s, usi) || couldTry(pos, usi)) this.send({ type: 'move', usi });
    else this.sync(true);
  }

  /** The rule that refused a move, in a bubble over `square` for a few seconds. */
  showBubble(square: string, text: string): void {
    const wrap = this.el;
    if (!/^[1-9][a-i]$/.test(square)) return;
    wrap.querySelector('.rule-bubble')?.remove();
    const [file, rank] = fileRank(square);
    // Sente's view: file 9 on the left, rank a at the top; Gote's view turned round.
    const col = this.orientation === 'sente' ? 9 - file : file - 1;
    const row = this.orientation === 'sente' ? rank - 1 : 9 - rank;
    const bubble = h('div', { class: 'rule-bubble', id: 'rule-bubble', role: 'status', 'data-square': square }, text);
    bubble.style.left = `${((col + 0.5) / 9) * 100}%`;
    bubble.style.top = `${(row / 9) * 100}%`;
    bubble.classList.toggle('below', row < 2);
    if (row < 2) bubble.style.top = `${((row + 1) / 9) * 100}%`;
    wrap.append(bubble);
    window.setTimeout(() => bubble.remove(), 4000);
  }

  /** Whether a move offers the choice to promote: as the server says, or for
   * moves outside its list (illegal moves that lose) by the promotion zone. */
  private promotionChoice(orig: string, dest: string): boolean {
    const s = this.game.st;
    if (!s) return false;
    const known = s.promotions[orig + dest];
    if (known) return known === 'may';
    if (s.rules.illegal !== 'lose' || s.dests[orig]?.includes(dest)) return false;
    const piece = this.ground?.state.pieces.get(orig as sg.Key);
    if (!piece || !promoted(piece.role as Role)) return false;
    return inZone(piece.color, orig) || inZone(piece.color, dest);
  }

  /** Makes the board again (a new orientation or piece set). */
  create(): void {
    this.ground?.destroy();
    this.ground = makeGround(this.config(), {
      board: this.el,
      hands: { top: this.handTop, bottom: this.handBottom },
    });
  }

  /** The hands' pieces named in the reader's language (their tooltips). */
  titleHandPieces(): void {
    for (const el of this.col.querySelectorAll<HTMLElement>('sg-hand piece')) {
      const role = [...el.classList].find((c) => c !== 'sente' && c !== 'gote');
      if (role) el.title = t(`piece_${role}` as MsgKey);
    }
  }

  /** Shows the looked-at position (the server's for the live one); `force` drops a half-made move. */
  sync(force = false): void {
    const game = this.game;
    const s = game.st;
    const g = this.ground;
    if (!s || !g) return;
    const ply = game.live() ? s.moves.length : (game.viewPly ?? 0);
    const pos = game.positions[Math.min(ply, game.positions.length - 1)];
    const info = ply > 0 ? game.infos[ply - 1] : undefined;
    const live = game.live() && ply === s.moves.length;
    const act = live && game.canAct();
    const { dests, drops } = groundDests(act ? s : undefined);
    const useServerSfen = live;
    const sfenParts = s.sfen.split(' ');
    g.set({
      sfen: useServerSfen
        ? { board: sfenParts[0], hands: sfenParts[2] ?? '-' }
        : { board: boardSfen(pos), hands: handsSfen(pos) },
      turnColor: live ? s.side_to_move : pos.turn,
      activeColor: act ? s.side_to_move : undefined,
      checks: live ? s.in_check : false,
      lastDests: lastDests(info),
      // Any move can be tried (tryMove decides what is sent); the dots show the legal ones.
      movable: { dests, free: act },
      droppable: { dests: drops, free: act },
    });
    // A new position (or a refused move) drops any half-made move.
    const shown = `${ply}:${s.moves.length}:${s.status.over}`;
    if (force || shown !== this.shown) g.cancelMoveOrDrop();
    this.shown = shown;
  }
}
