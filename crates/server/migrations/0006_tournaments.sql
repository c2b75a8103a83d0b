-- Club tournaments (events): settings, organisers, players, rounds, boards,
-- byes and the audit log. Pairing and standings are computed from these rows
-- by the crate shogi-tournament; nothing derived is stored.

-- An event. `settings` is the JSON of the organiser's choices (name, place,
-- dates, format, rounds, time control, play, impasse rule, tie-breaks...),
-- read back as `tournaments::Settings`. `seed` draws the furigoma tosses.
CREATE TABLE tournaments (
    id          TEXT PRIMARY KEY NOT NULL,
    created_by  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at  INTEGER NOT NULL,              -- Unix milliseconds
    name        TEXT NOT NULL,
    settings    TEXT NOT NULL,
    seed        INTEGER NOT NULL
);
CREATE INDEX tournaments_created ON tournaments (created_at);

-- Co-organisers (arbiters); the creator is one too.
CREATE TABLE tournament_organisers (
    tournament TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (tournament, user_id)
);

-- An entrant; `number` (from 1, in order of entry) is also the Berger number.
CREATE TABLE tournament_players (
    tournament     TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number         INTEGER NOT NULL,
    name           TEXT NOT NULL,
    user_id        INTEGER REFERENCES users (id) ON DELETE SET NULL,
    rating         INTEGER,
    rank           TEXT,                       -- 3k, 1d
    club           TEXT,
    from_round     INTEGER NOT NULL DEFAULT 1,
    withdrawn_from INTEGER,
    PRIMARY KEY (tournament, number)
);
CREATE UNIQUE INDEX tournament_players_account ON tournament_players (tournament, user_id)
    WHERE user_id IS NOT NULL;
CREATE INDEX tournament_players_user ON tournament_players (user_id);

-- A paired round: the warnings its pairing carried (JSON list).
CREATE TABLE tournament_rounds (
    tournament TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round      INTEGER NOT NULL,
    paired_at  INTEGER NOT NULL,
    warnings   TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (tournament, round)
);

-- A board of a round. `result` is the organiser's (or the players'
-- agreed) result; an online board without one takes its last game's.
CREATE TABLE tournament_boards (
    tournament   TEXT NOT NULL,
    round        INTEGER NOT NULL,
    board        INTEGER NOT NULL,
    sente        INTEGER NOT NULL,
    gote         INTEGER NOT NULL,
    colours      TEXT NOT NULL,               -- table | furigoma | balance | forced
    toss_tosser  INTEGER,
    toss_fu      INTEGER,
    handicap     TEXT NOT NULL DEFAULT 'even',
    play         TEXT NOT NULL,               -- online | otb
    result       TEXT,
    record       TEXT,                        -- an uploaded over-the-board record (KIF)
    report_sente TEXT,
    report_gote  TEXT,
    PRIMARY KEY (tournament, round, board),
    FOREIGN KEY (tournament, round) REFERENCES tournament_rounds (tournament, round) ON DELETE CASCADE
);

-- The in-app games of a board: the first game, then its sennichite replays.
CREATE TABLE tournament_games (
    tournament TEXT NOT NULL,
    round      INTEGER NOT NULL,
    board      INTEGER NOT NULL,
    seq        INTEGER NOT NULL,
    game_id    TEXT NOT NULL REFERENCES games (id),
    PRIMARY KEY (tournament, round, board, seq),
    FOREIGN KEY (tournament, round, board)
        REFERENCES tournament_boards (tournament, round, board) ON DELETE CASCADE
);
CREATE UNIQUE INDEX tournament_games_game ON tournament_games (game_id);

-- A player without a game in a round: kind pairing | zero | half | full.
CREATE TABLE tournament_byes (
    tournament TEXT NOT NULL,
    round      INTEGER NOT NULL,
    player     INTEGER NOT NULL,
    kind       TEXT NOT NULL,
    PRIMARY KEY (tournament, round, player),
    FOREIGN KEY (tournament, round) REFERENCES tournament_rounds (tournament, round) ON DELETE CASCADE
);

-- Every change an organiser (or a player) made.
CREATE TABLE tournament_audit (
    id         INTEGER PRIMARY KEY,
    tournament TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    at         INTEGER NOT NULL,
    by_user    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    by_name    TEXT NOT NULL,
    action     TEXT NOT NULL,
    detail     TEXT NOT NULL
);
CREATE INDEX tournament_audit_event ON tournament_audit (tournament, id);
