-- Review annotations (PUT /api/games/{id}/annotations), the owner token of
-- imported records, and lower-case player names for the archive filter.

-- The comments and variations saved for a game or an imported record (id of
-- either): JSON {"start_comments": [...], "nodes": [{"comments": [...],
-- "variations": [[{"usi": ..., "comments": [...], "variations": [...]}]]}]},
-- one entry per main-line move. They replace the record's own comments and
-- variations whenever the record is read.
CREATE TABLE annotations (
    id          TEXT PRIMARY KEY NOT NULL,
    updated_at  INTEGER NOT NULL,            -- Unix milliseconds
    tree        TEXT NOT NULL
);

-- The token handed to whoever imported the record; it allows saving
-- annotations. NULL for records imported before this migration.
ALTER TABLE records ADD COLUMN owner_token TEXT;

-- The players' names in Unicode lower case (SQLite's lower() folds ASCII only),
-- for the archive's player filter; filled at import, and at start-up for
-- older rows.
ALTER TABLE records ADD COLUMN sente_lc TEXT;
ALTER TABLE records ADD COLUMN gote_lc TEXT;
