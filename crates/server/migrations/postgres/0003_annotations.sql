-- Review annotations, the owner token of imported records, and lower-case
-- player names for the archive filter. (PostgreSQL twin of
-- ../0003_annotations.sql, which explains the columns.)
CREATE TABLE annotations (
    id          TEXT PRIMARY KEY NOT NULL,
    updated_at  BIGINT NOT NULL,             -- Unix milliseconds
    tree        TEXT NOT NULL
);

ALTER TABLE records ADD COLUMN owner_token TEXT;
ALTER TABLE records ADD COLUMN sente_lc TEXT;
ALTER TABLE records ADD COLUMN gote_lc TEXT;
