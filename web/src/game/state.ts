// What the game screen knows of its game: the server's last state, the seat
// this browser plays, every position of the game replayed from the moves, and
// the ply looked at when not the live one. The questions the screen asks of
// it (may I move, is the live position shown, may I ask for a takeback) are
// answered here, without the DOM.

import type { GameState, Side } from '../api/api';
import { type MoveInfo, type Position, replay } from '../board/shogi';

/** The seat this browser plays: one side, both (a local game), or none (a spectator). */
export type Seat = Side | 'both' | null;

/** The game as the screen holds it. */
export class LiveGame {
  st: GameState | null = null;
  you: Seat = null;
  /** The position before each move and after the last. */
  positions: Position[] = [];
  infos: MoveInfo[] = [];
  /** The ply looked at; null: the live position. */
  viewPly: number | null = null;

  /** Takes a new state from the server; returns how many moves the previous one had (-1: none before). */
  update(s: GameState): number {
    const prevMoves = this.st?.moves.length ?? -1;
    this.st = s;
    this.you = s.you ?? null;
    const r = replay(s.start_sfen, s.moves);
    this.positions = r.positions;
    this.infos = r.infos;
    // Looking at an earlier position stays there; past the end means live.
    if (this.viewPly !== null && this.viewPly >= s.moves.length) this.viewPly = null;
    return prevMoves;
  }

  /** The number of moves played. */
  moveCount(): number {
    return this.st?.moves.length ?? 0;
  }

  /** Whether this browser may move now. */
  canAct(): boolean {
    const s = this.st;
    if (!s || s.status.over || !this.you) return false;
    return this.you === 'both' || this.you === s.side_to_move;
  }

  /** Whether the live position is shown. */
  live(): boolean {
    return this.viewPly === null || (this.st !== null && this.viewPly >= this.st.moves.length);
  }

  /** Looks at `ply` (kept within the game), or at the live position (null or the last ply). */
  setView(ply: number | null): void {
    const n = this.moveCount();
    if (ply !== null) ply = Math.max(0, Math.min(n, ply));
    this.viewPly = ply === n ? null : ply;
  }

  /** A takeback: in a casual game, by a seated player after a move of their own, none proposed yet. */
  canProposeTakeback(): boolean {
    const s = this.st;
    const you = this.you;
    if (!s || s.status.over || s.rated !== false || !s.takeback || (you !== 'sente' && you !== 'gote')) return false;
    if (s.event && !s.event.takebacks) return false;
    if (s.takeback.proposed_by !== null || !(s.seats.sente && s.seats.gote)) return false;
    return this.positions.slice(0, s.moves.length).some((p) => p.turn === you);
  }
}

/** Whether a declaration by the side to move would win on points (27: 28 for Sente, 27 for Gote; 24: 31). */
export function declarationWins(s: GameState): boolean {
  const mover = s.side_to_move;
  const points = mover === 'sente' ? s.impasse.sente_points : s.impasse.gote_points;
  const needed = s.impasse.rule === '24' ? 31 : mover === 'sente' ? 28 : 27;
  return s.impasse.can_declare && points >= needed;
}
