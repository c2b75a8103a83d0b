// The round robin's N×N table (the Russian "круговая таблица"): a row and a
// column per player by entry number, in each cell the row player's results
// against the column's player in round order (one per cycle in a double
// round robin), the diagonal blacked out, then points, the tie-breaks and
// the place. Pure functions of the event's data, tested in
// tests/unit-tournament.ts; crosstable.ts draws it.

import type { EventView } from '../api/tournaments';
import { resultFor } from './words';

/** One result in a cell: `1` won, `½` drew, `0` lost, `+` / `−` won or lost by forfeit, `` not played yet. */
export type GridMark = '1' | '½' | '0' | '+' | '−' | '';

/** One row of the table. */
export interface GridRow {
  player: number;
  name: string;
  /** The rank as entered (`1d`), or null. */
  grade: string | null;
  /** A cell per player by entry number: null on the diagonal, else the results in round order. */
  cells: (GridMark[] | null)[];
  points: number;
  tiebreaks: Partial<Record<string, number>>;
  /** The place in the standings (0 when the player has none). */
  place: number;
}

/** A board's result from one side as a mark of the table. */
export function gridMark(result: Parameters<typeof resultFor>[0], side: 'sente' | 'gote'): GridMark {
  const { mark, forfeit } = resultFor(result, side);
  if (forfeit) return mark === '+' ? '+' : '−';
  return mark === '+' ? '1' : mark === '=' ? '½' : mark === '-' ? '0' : '';
}

/** The table: a row per player in entry order. */
export function roundRobinGrid(e: Pick<EventView, 'players' | 'paired' | 'standings'>): GridRow[] {
  const players = [...e.players].sort((a, b) => a.player - b.player);
  const column = new Map(players.map((p, i) => [p.player, i]));
  const standing = new Map(e.standings.map((s) => [s.player, s]));
  const rows: GridRow[] = players.map((p) => {
    const s = standing.get(p.player);
    return {
      player: p.player,
      name: p.name,
      grade: p.rank ?? null,
      cells: players.map((q) => (q.player === p.player ? null : [])),
      points: s?.points ?? 0,
      tiebreaks: s?.tiebreaks ?? {},
      place: s?.rank ?? 0,
    };
  });
  const rounds = [...e.paired].sort((a, b) => a.round - b.round);
  for (const r of rounds) {
    for (const b of r.pairings) {
      const [i, j] = [column.get(b.sente), column.get(b.gote)];
      if (i === undefined || j === undefined) continue;
      rows[i].cells[j]?.push(gridMark(b.result, 'sente'));
      rows[j].cells[i]?.push(gridMark(b.result, 'gote'));
    }
  }
  return rows;
}
