// The position the analysis board showed last, remembered in this browser
// so that the game search can look for games through it.

const STORE_KEY = 'shogi.analysis.shown';

/** Remembers `sfen` as the analysis board's position. */
export function rememberAnalysisSfen(sfen: string): void {
  try {
    localStorage.setItem(STORE_KEY, sfen);
  } catch {
    // storage full or refused: the search then uses the start position
  }
}

/** The analysis board's last position, or null when it was never opened here. */
export function analysisSfen(): string | null {
  return localStorage.getItem(STORE_KEY);
}
