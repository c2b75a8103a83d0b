-- Imported records (POST /api/import?save=1) and game analyses.
-- (PostgreSQL twin of ../0002_archive.sql.)

-- An imported record: the uploaded bytes as they came (read again with the
-- same reader on every use), plus the columns the archive lists.
CREATE TABLE records (
    id          TEXT PRIMARY KEY NOT NULL,   -- 16 hex digits, the same space as game ids
    created_at  BIGINT NOT NULL,             -- Unix milliseconds
    source      BYTEA NOT NULL,              -- the file's bytes
    sente       TEXT,
    gote        TEXT,
    handicap    TEXT NOT NULL,               -- a handicap name or "custom"
    time_json   TEXT,                        -- JSON time control, or NULL
    winner      TEXT,                        -- sente | gote | NULL
    reason      TEXT,                        -- the ending's name, NULL when the record just stops
    plies       BIGINT NOT NULL
);

-- The analysis of a game or an imported record (id of either).
CREATE TABLE analyses (
    id          TEXT PRIMARY KEY NOT NULL,
    status      TEXT NOT NULL,               -- queued | running | done
    total_plies BIGINT NOT NULL,
    done_plies  BIGINT NOT NULL DEFAULT 0,
    evals       TEXT NOT NULL DEFAULT '[]',  -- JSON array, one entry per position
    updated_at  BIGINT NOT NULL
);
