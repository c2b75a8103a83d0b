// Diffs of a game's state (docs/PROTOCOL.md, "Diffs"): what changed after a
// move or another change the server can tell in a few fields, applied to the
// state the client holds.

import type { GameState } from './api';

/** A `diff` message: the fields it carries replace the state's, `move` is appended to `moves`. */
export type GameDiff = Pick<
  GameState,
  | 'sfen'
  | 'last_move'
  | 'side_to_move'
  | 'in_check'
  | 'dests'
  | 'drops'
  | 'promotions'
  | 'clocks'
  | 'status'
  | 'rating_change'
  | 'impasse'
  | 'connected'
  | 'takeback'
  | 'computer'
> & {
  type: 'diff';
  /** Moves played after the change. */
  ply: number;
  /** The move the change played (USI), or `null` for a change without a move. */
  move: string | null;
};

/** The fields a diff replaces. */
const REPLACED = [
  'sfen',
  'last_move',
  'side_to_move',
  'in_check',
  'dests',
  'drops',
  'promotions',
  'clocks',
  'status',
  'rating_change',
  'impasse',
  'connected',
  'takeback',
  'computer',
] as const;

/**
 * The state after `diff`, or `null` when `diff` does not follow `state` (it
 * plays a move onto another number of moves than `state` has, or changes a
 * state after another number of moves): the client then asks for the whole
 * state (`{"type":"sync"}`) and ignores diffs until it comes.
 */
export function applyDiff(state: GameState, diff: GameDiff): GameState | null {
  const n = state.moves.length;
  let moves = state.moves;
  if (diff.move !== null) {
    if (diff.ply !== n + 1) return null;
    moves = [...state.moves, diff.move];
  } else if (diff.ply !== n) {
    return null;
  }
  const next: GameState = { ...state, moves };
  for (const k of REPLACED) (next as unknown as Record<string, unknown>)[k] = diff[k];
  return next;
}
