// What the board (shogiground) needs from our positions and moves: the
// legal moves as its destinations, the last move's squares, arrows for moves,
// and its drops back as USI moves. The one place that converts between the
// server's move lists and the board, used by the game and the review screens;
// and the one place every board is made (`makeGround`), so that every screen
// draws its pieces the same way.

import { Shogiground } from 'shogiground';
import type { Api } from 'shogiground/api';
import type { Config } from 'shogiground/config';
import type { DrawShape } from 'shogiground/draw';
import type * as sg from 'shogiground/types';

import type { LegalMoves } from '../api/api';
import { groundRanks } from './ranklabels';
import { DROP_LETTERS, type Color, type MoveInfo } from './shogi';

/**
 * A shogiground board on `elements`, with `config` laid over the settings
 * every board shares, whatever the screen: files numbered, ranks labelled
 * as the reader chose (`ranklabels.ts`; a board may still hide its
 * labels), and `scaleDownPieces` off. shogiground's default for the last
 * draws each piece element at twice the square and scales it by ½
 * (translating by half as much), while our stylesheet sizes a piece
 * element to one square; with the default every piece is drawn at half
 * size at half its coordinates.
 */
export function makeGround(config: Config, elements: Parameters<typeof Shogiground>[1]): Api {
  return Shogiground(
    {
      ...config,
      coordinates: { enabled: true, ...config.coordinates, files: 'numeric', ranks: groundRanks() },
      scaleDownPieces: false,
    },
    elements,
  );
}

/** The legal moves as shogiground's destinations: board moves by origin square, drops by piece. */
export interface GroundDests {
  dests: Map<sg.Key, sg.Key[]>;
  drops: Map<sg.PieceName, sg.Key[]>;
}

/** The board's destinations for `legal`; none at all when `legal` is undefined (nothing may move). */
export function groundDests(legal: LegalMoves | undefined): GroundDests {
  const dests = new Map<sg.Key, sg.Key[]>();
  const drops = new Map<sg.PieceName, sg.Key[]>();
  if (legal) {
    for (const [from, tos] of Object.entries(legal.dests)) dests.set(from as sg.Key, tos as sg.Key[]);
    for (const [letter, tos] of Object.entries(legal.drops)) {
      const role = DROP_LETTERS[letter];
      if (role) drops.set(`${legal.side_to_move} ${role}`, tos as sg.Key[]);
    }
  }
  return { dests, drops };
}

/** The USI move of a board move the player made. */
export function moveUsi(orig: string, dest: string, promote: boolean | undefined): string {
  return `${orig}${dest}${promote ? '+' : ''}`;
}

/** The USI move of a drop the player made (`P*5e`), or null for a piece that cannot be dropped. */
export function dropUsi(role: string, to: string): string | null {
  const letter = Object.entries(DROP_LETTERS).find(([, r]) => r === role)?.[0];
  return letter ? `${letter}*${to}` : null;
}

/** The squares the board highlights for the last move: from and to, or only to for a drop. */
export function lastDests(info: MoveInfo | undefined): sg.Key[] | undefined {
  if (!info) return undefined;
  return (info.from ? [info.from, info.to] : [info.to]) as sg.Key[];
}

/** An arrow for the USI move `usi` of `color` (a drop starts from the piece in hand). */
export function moveShape(usi: string, color: Color, brush: string): DrawShape | null {
  const m = usi.match(/^([PLNSGBR])\*([1-9][a-i])$/);
  if (m) {
    const role = DROP_LETTERS[m[1]];
    return role ? { orig: { role, color } as sg.Piece, dest: m[2] as sg.Key, brush } : null;
  }
  const n = usi.match(/^([1-9][a-i])([1-9][a-i])\+?$/);
  return n ? { orig: n[1] as sg.Key, dest: n[2] as sg.Key, brush } : null;
}
