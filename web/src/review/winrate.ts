// Sente's win rate from the engine's evaluation, as the review's evaluation graph draws it.

/**
 * The centipawns that make a win rate of 1/(1+e⁻¹) ≈ 73 %: the evaluation
 * graph draws Sente's win rate as `1 / (1 + exp(-cp / WIN_RATE_SCALE))`
 * (documented in web/README.md). It is the server's `WIN_RATE_SCALE`
 * (crates/server/src/review/marks.rs), by which it marks the moves that
 * lowered their player's chance, so a marked drop is the drop the graph
 * shows: this engine's own scale, fitted to its games (docs/ANALYSIS.md).
 * +1200 cp reads as 73 %, +600 as 62 %.
 */
export const WIN_RATE_SCALE = 1200;

/** Sente's win rate (0..1) for an evaluation: 1 or 0 for a mate (positive `score_cp`: Sente mates). */
export function winRate(scoreCp: number, mate: number | null = null): number {
  if (mate !== null) return scoreCp > 0 ? 1 : scoreCp < 0 ? 0 : 0.5;
  return 1 / (1 + Math.exp(-scoreCp / WIN_RATE_SCALE));
}

/** The win-rate gridlines of the evaluation graph, in percent. */
export const WIN_RATE_GRID = [0, 25, 50, 75, 100];
