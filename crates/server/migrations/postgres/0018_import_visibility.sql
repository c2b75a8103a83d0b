-- Visibility, owner account and dedupe key of imported records; dedupe key
-- of finished games. (PostgreSQL twin of ../0018_import_visibility.sql,
-- which explains the columns.)
ALTER TABLE records ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public';
ALTER TABLE records ADD COLUMN owner_user BIGINT;
ALTER TABLE records ADD COLUMN dedupe_key TEXT;
CREATE INDEX records_by_dedupe_key ON records (dedupe_key);
ALTER TABLE games ADD COLUMN dedupe_key TEXT;
CREATE INDEX games_by_dedupe_key ON games (dedupe_key) WHERE dedupe_key IS NOT NULL;
-- The finished games still without a key, which every import's look-up
-- fills first: found without reading the live games or the keyed ones.
CREATE INDEX games_needing_key ON games (id) WHERE over AND dedupe_key IS NULL;
