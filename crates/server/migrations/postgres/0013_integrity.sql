-- Fair play and integrity (issue 43).
--
-- Names: the UTS #39 confusable skeleton of each account's case-folded name,
-- so that a new name that looks like an existing one (`аlice` beside
-- `alice`) is refused. Filled for older accounts at start-up.
ALTER TABLE users ADD COLUMN name_skeleton TEXT;
CREATE INDEX users_by_skeleton ON users (name_skeleton);

-- Sessions are now stored as the SHA-256 of the cookie's value; the clear
-- values stored before cannot be hashed in SQL, so those sessions end (their
-- players log in once more).
DELETE FROM sessions;

-- Every event an account created, kept when the event is deleted: the limit
-- of events a day counts creations, not the events that remain.
CREATE TABLE tournament_creations (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL                  -- Unix milliseconds
);
CREATE INDEX tournament_creations_by_user ON tournament_creations (user_id, created_at);
INSERT INTO tournament_creations (user_id, created_at)
    SELECT created_by, created_at FROM tournaments WHERE created_by IS NOT NULL;
