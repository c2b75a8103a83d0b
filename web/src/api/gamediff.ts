// Diffs of a game's state (docs/PROTOCOL.md, "Diffs"): what changed after a
// move or another change the server can tell in a few fields, applied to the
// state the client holds.

import type { GameState, ProgramNote } from './api';

/**
 * A `diff` message: the fields it carries replace the state's, `move` is appended to
 * `moves` and `note`, the move's program note if it has one, to `notes`.
 */
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
  /** The program's note on that move, when it has one. */
  note?: ProgramNote;
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
  let notes = state.notes;
  if (diff.move !== null) {
    if (diff.ply !== n + 1) return null;
    moves = [...state.moves, diff.move];
    if (diff.note) notes = [...(notes ?? []), diff.note];
  } else if (diff.ply !== n) {
    return null;
  }
  const next: GameState = { ...state, moves };
  if (notes) next.notes = notes;
  for (const k of REPLACED) (next as unknown as Record<string, unknown>)[k] = diff[k];
  return next;
}
