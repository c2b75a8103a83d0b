-- Consent (issue 43): an account enters an event only by joining it itself
-- or by accepting an organiser's invitation. An invitation waits here until
-- the account accepts it (then it becomes an entry), declines it, or an
-- organiser withdraws it; deleting the event or the account deletes it.
--
-- rank, club: what the organiser gave when inviting, carried to the entry.
CREATE TABLE tournament_invitations (
    tournament  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    invited_by  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    by_name     TEXT NOT NULL,                  -- the organiser's name then
    invited_at  INTEGER NOT NULL,               -- Unix milliseconds
    rank        TEXT,
    club        TEXT,
    PRIMARY KEY (tournament, user_id)
);
CREATE INDEX tournament_invitations_user ON tournament_invitations (user_id);

-- The rank a player proposed when accepting an invitation; the entry's
-- `rank` is still set by organisers only.
ALTER TABLE tournament_players ADD COLUMN proposed_rank TEXT;
