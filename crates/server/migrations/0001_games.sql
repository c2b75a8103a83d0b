-- Games and their moves. Clocks are in milliseconds.
CREATE TABLE games (
    id                TEXT PRIMARY KEY NOT NULL,
    created_at        INTEGER NOT NULL,           -- Unix milliseconds
    mode              TEXT NOT NULL,              -- ai | friend | local
    start_sfen        TEXT NOT NULL,
    settings          TEXT NOT NULL,              -- JSON: rules, time control, AI
    sente_token       TEXT,
    gote_token        TEXT,
    invite            TEXT,                       -- NULL once used (or never issued)
    sente_main_ms     INTEGER NOT NULL DEFAULT 0,
    sente_periods     INTEGER NOT NULL DEFAULT 0,
    gote_main_ms      INTEGER NOT NULL DEFAULT 0,
    gote_periods      INTEGER NOT NULL DEFAULT 0,
    clock_started     INTEGER NOT NULL DEFAULT 0, -- both seats taken: the clock runs
    turn_used_ms      INTEGER NOT NULL DEFAULT 0, -- time used on the current turn at shutdown
    over              INTEGER NOT NULL DEFAULT 0,
    winner            TEXT,
    reason            TEXT
);

CREATE INDEX games_unfinished ON games (over) WHERE over = 0;

CREATE TABLE moves (
    game_id       TEXT NOT NULL REFERENCES games (id),
    ply           INTEGER NOT NULL,               -- 1 for the first move
    usi           TEXT NOT NULL,
    used_ms       INTEGER NOT NULL,
    main_ms_after INTEGER NOT NULL,
    periods_after INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
