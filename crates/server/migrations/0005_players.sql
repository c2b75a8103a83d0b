-- Accounts, their sessions and ratings, and the players of each game.

-- An account. `name` is as registered (NFC); `name_key` is its Unicode case
-- folding, which makes names unique ignoring case and finds them.
CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,
    name_key      TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,                -- argon2id, PHC string format
    admin         INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL              -- Unix milliseconds
);

-- A logged-in client: the cookie's 32 hex digits.
CREATE TABLE sessions (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- One Glicko-2 rating per account and time class (bullet, blitz, rapid,
-- classical); a missing row is the starting rating.
CREATE TABLE ratings (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    class      TEXT NOT NULL,
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, class)
);

-- Every rating after a rated game.
CREATE TABLE rating_history (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    class   TEXT NOT NULL,
    game_id TEXT NOT NULL,
    at      INTEGER NOT NULL,
    rating  REAL NOT NULL,
    rd      REAL NOT NULL
);
CREATE INDEX rating_history_user ON rating_history (user_id, class, at);

-- Who sat where: the account (NULL for a guest, the computer, or a deleted
-- account), the name shown (the account's, a guest's typed name, or
-- 'deleted'), whether it is a guest, and the name in Unicode lower case for
-- the archive's player filter.
ALTER TABLE games ADD COLUMN sente_user INTEGER;
ALTER TABLE games ADD COLUMN gote_user INTEGER;
ALTER TABLE games ADD COLUMN sente_name TEXT;
ALTER TABLE games ADD COLUMN gote_name TEXT;
ALTER TABLE games ADD COLUMN sente_guest INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN gote_guest INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN sente_lc TEXT;
ALTER TABLE games ADD COLUMN gote_lc TEXT;
-- Rated games change both ratings when they end; the ratings at the start
-- are kept for display.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN sente_rating REAL;
ALTER TABLE games ADD COLUMN gote_rating REAL;
ALTER TABLE games ADD COLUMN sente_rd REAL;
ALTER TABLE games ADD COLUMN gote_rd REAL;
CREATE INDEX games_sente_user ON games (sente_user) WHERE sente_user IS NOT NULL;
CREATE INDEX games_gote_user ON games (gote_user) WHERE gote_user IS NOT NULL;
