-- Collections of games, the opening explorer and position search
-- (docs/EXPLORER.md, `shogi db import`, `GET /api/explorer`, `GET /api/search`).

-- A named set of games: the site's own finished games (`site`, id 1) or the
-- records an organiser imported. `public` ones are read by anyone;
-- `private` ones by their owner account and, when `tournament` names an
-- event, by that event's organisers.
CREATE TABLE collections (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    owner_user  INTEGER,                 -- users.id; NULL for the site's own and the CLI's
    tournament  TEXT,                    -- tournaments.id whose organisers may read it
    visibility  TEXT NOT NULL,           -- public | private
    created_at  INTEGER NOT NULL         -- Unix milliseconds
);
INSERT INTO collections (id, name, owner_user, tournament, visibility, created_at)
    VALUES (1, 'site', NULL, NULL, 'public', 0);

-- A game of a collection: what the lists show and the filters read, and the
-- record file itself (deflated) for an imported one; a game played here is
-- read from `games` (same id).
CREATE TABLE collection_games (
    n            INTEGER PRIMARY KEY,    -- the positions' compact reference
    id           TEXT NOT NULL UNIQUE,   -- 16 hex digits, the space of game ids
    collection   INTEGER NOT NULL,
    source       BLOB,                   -- the file's bytes, deflated; NULL for a game played here
    start_sfen   TEXT NOT NULL,
    sente        TEXT,
    gote         TEXT,
    names        TEXT NOT NULL,          -- both names in Unicode lower case, for the search
    sente_rating INTEGER,
    gote_rating  INTEGER,
    result       TEXT,                   -- sente | gote | draw | NULL (unknown)
    played_at    INTEGER NOT NULL,       -- Unix milliseconds (the record's date, else its import)
    time_class   TEXT,                   -- bullet | blitz | rapid | classical | NULL
    handicap     TEXT NOT NULL,          -- a handicap name or custom
    event        TEXT,
    strategy     TEXT NOT NULL,          -- as games.strategy (migration 0021)
    plies        INTEGER NOT NULL,
    dedupe       INTEGER                 -- the first 64 bits of the dedupe key; NULL for games played here
);
CREATE UNIQUE INDEX collection_games_dedupe ON collection_games (collection, dedupe);
CREATE INDEX collection_games_recent ON collection_games (collection, played_at);

-- Every position a game reached (once per game, where it first reached it),
-- keyed by its 64-bit Zobrist key (board, hands, side to move), then by the
-- game's date, so that the most recent games through a position are the
-- first rows of its range, however many games reached it; with the move the
-- game then played (`Move::to_u16`, 0 when the game ended there).
CREATE TABLE explorer_positions (
    hash       INTEGER NOT NULL,
    played_at  INTEGER NOT NULL,             -- collection_games.played_at
    game       INTEGER NOT NULL,             -- collection_games.n
    ply        INTEGER NOT NULL,
    next       INTEGER NOT NULL,
    PRIMARY KEY (hash, played_at, game)
) WITHOUT ROWID;

-- The explorer's counts: per position, collection and move, the games that
-- played it and how they ended; the sum of both players' ratings over the
-- games where both are known; when it was last played.
CREATE TABLE explorer_moves (
    hash        INTEGER NOT NULL,
    collection  INTEGER NOT NULL,
    next        INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    sente_wins  INTEGER NOT NULL,
    gote_wins   INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    rating_sum  INTEGER NOT NULL,
    rated_games INTEGER NOT NULL,
    last_played INTEGER NOT NULL,
    PRIMARY KEY (hash, collection, next)
) WITHOUT ROWID;

-- The finished games not yet in the `site` collection (filled before each
-- explorer or search request and at start-up).
ALTER TABLE games ADD COLUMN explored INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_to_explore ON games (id) WHERE over AND explored = 0;
