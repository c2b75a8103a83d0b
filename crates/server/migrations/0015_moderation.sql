-- Moderation (issue 43, point 11).
--
-- An account's role: 'player', 'moderator' (the /admin page: disables
-- accounts, hides chat, annuls ratings, reads reports) or 'admin' (a
-- moderator who also sets roles). It replaces the `admin` flag.
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'player';
UPDATE users SET role = 'admin' WHERE admin = 1;
ALTER TABLE users DROP COLUMN admin;
-- When a moderator disabled the account (NULL: it may log in).
ALTER TABLE users ADD COLUMN disabled_at INTEGER;

-- A game whose rating effect a moderator annulled: its history points are
-- gone and the ratings of its time class were recomputed without it.
ALTER TABLE games ADD COLUMN rating_annulled INTEGER NOT NULL DEFAULT 0;

-- A player's report of a game or of one chat message in it. The message's
-- text is copied from the game's room when the report is made, so that the
-- moderator reads what was written, not what the reporter says was.
CREATE TABLE reports (
    id            INTEGER PRIMARY KEY,
    reporter      INTEGER REFERENCES users (id) ON DELETE SET NULL,
    reporter_name TEXT NOT NULL,
    game_id       TEXT NOT NULL,
    chat_n        INTEGER,                      -- the message's number in the game
    chat_from     TEXT,                         -- who wrote it
    chat_text     TEXT,
    reason        TEXT NOT NULL,
    created_at    INTEGER NOT NULL,             -- Unix milliseconds
    closed_at     INTEGER,
    closed_by     TEXT                          -- the moderator's name
);
CREATE INDEX reports_by_time ON reports (created_at);
CREATE INDEX reports_by_reporter ON reports (reporter, created_at);

-- Every moderator's action: who, when, what, on whom or what, and why.
CREATE TABLE moderation_log (
    id             INTEGER PRIMARY KEY,
    moderator      INTEGER REFERENCES users (id) ON DELETE SET NULL,
    moderator_name TEXT NOT NULL,
    action         TEXT NOT NULL,               -- disable | enable | role | annul | hide_chat | close_report
    target         TEXT NOT NULL,               -- an account's name, a game id, a report's number
    reason         TEXT NOT NULL,
    at             INTEGER NOT NULL             -- Unix milliseconds
);
CREATE INDEX moderation_log_by_time ON moderation_log (at);
