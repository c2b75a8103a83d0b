-- Who may see an imported record, who imported it, and the key that finds
-- the same record imported again (docs/PROTOCOL.md, `POST /api/import`).

-- `public` (listed in the archive and its search), `unlisted` (readable by
-- anyone with the id, not listed) or `private` (readable only by the owner
-- account; every other reader gets 404). Records imported before this
-- migration stay public.
ALTER TABLE records ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public';

-- The account (`users.id`) that was logged in when the record was imported;
-- NULL for a guest's import and for older rows. Not a foreign key: deleting
-- an account deletes its private records and sets this to NULL on the others
-- (`Store::delete_user`).
ALTER TABLE records ADD COLUMN owner_user INTEGER;

-- The dedupe key: lower-case hex SHA-256 over the start position, the main
-- line's USI moves and both players' names (NFKC, Unicode lower case); see
-- `review::dedupe`. NULL for records imported before this migration (they
-- are never found as duplicates) until the start-up fill computes it.
ALTER TABLE records ADD COLUMN dedupe_key TEXT;
CREATE INDEX records_by_dedupe_key ON records (dedupe_key);

-- The same key for a finished game played here, so that importing its record
-- finds the game. Computed after the game is over (at start-up and before
-- each import's look-up, for every finished game without one); reset when a
-- seat's name changes (an account deleted).
ALTER TABLE games ADD COLUMN dedupe_key TEXT;
CREATE INDEX games_by_dedupe_key ON games (dedupe_key) WHERE dedupe_key IS NOT NULL;
-- The finished games still without a key, which every import's look-up
-- fills first: found without reading the live games or the keyed ones.
CREATE INDEX games_needing_key ON games (id) WHERE over AND dedupe_key IS NULL;
