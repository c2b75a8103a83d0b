-- Puzzles: the puzzles' ratings as attempts change them, the accounts'
-- puzzle ratings and best streaks, and each account's attempts.

-- A puzzle's Glicko-2 rating once an account's attempt has changed it; a
-- missing row is the rating the puzzle file gives (deviation 200).
CREATE TABLE puzzle_ratings (
    puzzle_id  TEXT PRIMARY KEY NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts   BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
);

-- An account's puzzle rating (a missing row: 1500, RD 350) and best streak.
CREATE TABLE puzzle_players (
    user_id     BIGINT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    rating      DOUBLE PRECISION NOT NULL,
    rd          DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    best_streak BIGINT NOT NULL DEFAULT 0,
    updated_at  BIGINT NOT NULL
);

-- The puzzles an account has finished an attempt at: whether the first
-- finished attempt (the rated one) solved it, and whether any did.
CREATE TABLE puzzle_attempts (
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    puzzle_id    TEXT NOT NULL,
    first_solved BOOLEAN NOT NULL,
    solved       BOOLEAN NOT NULL,
    at           BIGINT NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
);
