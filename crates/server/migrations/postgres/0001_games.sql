-- Games and their moves. Clocks are in milliseconds.
-- (PostgreSQL twin of ../0001_games.sql: the same tables, columns, indexes
-- and constraints; integers are BIGINT, flags BOOLEAN.)
CREATE TABLE games (
    id                TEXT PRIMARY KEY NOT NULL,
    created_at        BIGINT NOT NULL,            -- Unix milliseconds
    mode              TEXT NOT NULL,              -- ai | friend | local
    start_sfen        TEXT NOT NULL,
    settings          TEXT NOT NULL,              -- JSON: rules, time control, AI
    sente_token       TEXT,
    gote_token        TEXT,
    invite            TEXT,                       -- NULL once used (or never issued)
    sente_main_ms     BIGINT NOT NULL DEFAULT 0,
    sente_periods     BIGINT NOT NULL DEFAULT 0,
    gote_main_ms      BIGINT NOT NULL DEFAULT 0,
    gote_periods      BIGINT NOT NULL DEFAULT 0,
    clock_started     BOOLEAN NOT NULL DEFAULT FALSE, -- both seats taken: the clock runs
    turn_used_ms      BIGINT NOT NULL DEFAULT 0,  -- time used on the current turn at shutdown
    over              BOOLEAN NOT NULL DEFAULT FALSE,
    winner            TEXT,
    reason            TEXT
);

CREATE INDEX games_unfinished ON games (over) WHERE over = FALSE;

CREATE TABLE moves (
    game_id       TEXT NOT NULL REFERENCES games (id),
    ply           BIGINT NOT NULL,                -- 1 for the first move
    usi           TEXT NOT NULL,
    used_ms       BIGINT NOT NULL,
    main_ms_after BIGINT NOT NULL,
    periods_after BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
