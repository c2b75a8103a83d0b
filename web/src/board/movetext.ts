// Move text in the reader's language: the notation each language reads by default.

import { lang } from '../i18n/i18n';
import { formatMove, type Notation } from './notation';
import { applyUsi, type MoveInfo, type Position } from './shogi';

/** The notation of the current language: Japanese for ja, Western for en, Russian style for ru and uk. */
export function defaultNotation(): Notation {
  return lang() === 'ja' ? 'japanese' : lang() === 'en' ? 'western' : 'russian';
}

/** The text of `info` in `notation` (default: the language's), Ukrainian piece letters for uk. */
export function moveText(info: MoveInfo, prevTo: string | undefined, notation = defaultNotation()): string {
  return formatMove(notation, info, prevTo, lang() === 'uk');
}

/** The text of the `i`-th move of the line `infos` (the move before it decides "same square"). */
export function lineMoveText(infos: MoveInfo[], i: number, notation = defaultNotation()): string {
  return moveText(infos[i], i > 0 ? infos[i - 1].to : undefined, notation);
}

/**
 * The text of the USI move `usi` played in `pos` (after a move to `prevTo`),
 * in `notation`; the USI text itself when it cannot be played there.
 */
export function usiMoveText(
  pos: Position | undefined,
  usi: string,
  prevTo: string | undefined,
  notation = defaultNotation(),
): string {
  const r = pos ? applyUsi(pos, usi) : null;
  return r ? moveText(r.info, prevTo, notation) : usi;
}
