// An engine evaluation in words, the same on every page that shows one (the
// review's analysis, the analysis board's engine lines, a program's own
// evaluation beside the board): pawns from Sente's side with two decimals
// (`+1.19`, `-0.40`, `0.00`), or a mate (`☗ #3`: Sente mates in 3 plies,
// `☖ #1`: Gote mates, `☗ #?`: a program saw Sente mate and did not say in
// how many). The server's scores are centipawns (`score_cp`);
// docs/ANALYSIS.md says why pawns are shown.

/** The evaluation `scoreCp` (Sente's view, centipawns; `mate`: plies to a mate, positive when
 * Sente mates) in words: `+1.19`, `☗ #3`. */
export function scoreText(scoreCp: number, mate: number | null = null): string {
  if (mate !== null) return mateText(mate > 0 || (mate === 0 && scoreCp > 0) ? 'sente' : 'gote', Math.abs(mate));
  const pawns = (scoreCp / 100).toFixed(2);
  return scoreCp > 0 ? `+${pawns}` : pawns === '-0.00' ? '0.00' : pawns;
}

/** A mate by `winner` in `plies` (`null`: not told) in words: `☗ #3`, `☖ #?`. */
export function mateText(winner: 'sente' | 'gote', plies: number | null): string {
  return `${winner === 'sente' ? '☗' : '☖'} #${plies ?? '?'}`;
}
