-- Several app instances on one database (issue 17): each live game's room
-- lives on one instance at a time, which holds the game's lease.
--
-- An instance: its id (random, chosen at start), the address other
-- instances reach it at, and when it last renewed its leases.
CREATE TABLE instances (
    id       TEXT PRIMARY KEY NOT NULL,
    address  TEXT NOT NULL,
    seen_at  BIGINT NOT NULL                    -- Unix milliseconds
);

-- A game's lease: who holds it, until when (renewed while the room lives),
-- and its epoch, one more at every change of holder. A write of the game
-- checks the epoch in its transaction, so an instance that lost the lease
-- cannot write after the new holder has taken it.
CREATE TABLE leases (
    game_id     TEXT PRIMARY KEY NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    instance_id TEXT NOT NULL,
    epoch       BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL                 -- Unix milliseconds
);
CREATE INDEX leases_by_instance ON leases (instance_id);
