-- Puzzles: the puzzles' ratings as attempts change them, the accounts'
-- puzzle ratings and best streaks, and each account's attempts.

-- A puzzle's Glicko-2 rating once an account's attempt has changed it; a
-- missing row is the rating the puzzle file gives (deviation 200).
CREATE TABLE puzzle_ratings (
    puzzle_id  TEXT PRIMARY KEY NOT NULL,
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL
);

-- An account's puzzle rating (a missing row: 1500, RD 350) and best streak.
CREATE TABLE puzzle_players (
    user_id     INTEGER PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    rating      REAL NOT NULL,
    rd          REAL NOT NULL,
    volatility  REAL NOT NULL,
    best_streak INTEGER NOT NULL DEFAULT 0,
    updated_at  INTEGER NOT NULL
);

-- The puzzles an account has finished an attempt at: whether the first
-- finished attempt (the rated one) solved it, and whether any did.
CREATE TABLE puzzle_attempts (
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    puzzle_id    TEXT NOT NULL,
    first_solved INTEGER NOT NULL,
    solved       INTEGER NOT NULL,
    at           INTEGER NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
);
