-- The explorer's counts by month, time class and rating band (docs/EXPLORER.md):
-- a filtered answer that keeps to whole months and to hundreds of rating
-- points is summed from these rows as an unfiltered one is, the way
-- lichess's explorer keeps its counts per month, speed and rating group.
-- The rows of `explorer_moves` are counted again from the games.
CREATE TABLE explorer_counts (
    hash        INTEGER NOT NULL,
    collection  INTEGER NOT NULL,
    month       INTEGER NOT NULL,   -- YYYYMM (UTC) of collection_games.played_at; 0 outside years 1-9999
    time_class  INTEGER NOT NULL,   -- 0 unknown, 1 bullet, 2 blitz, 3 rapid, 4 classical
    band        INTEGER NOT NULL,   -- the players' average rating / 100; -1 unknown, -2 below 0
    next        INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    sente_wins  INTEGER NOT NULL,
    gote_wins   INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    rating_sum  INTEGER NOT NULL,
    rated_games INTEGER NOT NULL,
    last_played INTEGER NOT NULL,
    PRIMARY KEY (hash, collection, month, time_class, band, next)
) WITHOUT ROWID;

INSERT INTO explorer_counts (hash, collection, month, time_class, band, next, games,
        sente_wins, gote_wins, draws, rating_sum, rated_games, last_played)
SELECT p.hash, g.collection,
    CASE WHEN g.played_at BETWEEN -62135596800000 AND 253402300799999
        THEN COALESCE(CAST(strftime('%Y%m', g.played_at / 1000.0, 'unixepoch') AS INTEGER), 0)
        ELSE 0 END,
    CASE g.time_class WHEN 'bullet' THEN 1 WHEN 'blitz' THEN 2 WHEN 'rapid' THEN 3
        WHEN 'classical' THEN 4 ELSE 0 END,
    CASE WHEN g.sente_rating IS NULL OR g.gote_rating IS NULL THEN -1
        WHEN (g.sente_rating + g.gote_rating) / 2 < 0 THEN -2
        ELSE (g.sente_rating + g.gote_rating) / 2 / 100 END,
    p.next,
    COUNT(*),
    SUM(CASE WHEN g.result = 'sente' THEN 1 ELSE 0 END),
    SUM(CASE WHEN g.result = 'gote' THEN 1 ELSE 0 END),
    SUM(CASE WHEN g.result = 'draw' THEN 1 ELSE 0 END),
    SUM(CASE WHEN g.sente_rating IS NULL OR g.gote_rating IS NULL THEN 0
        ELSE (g.sente_rating + g.gote_rating) / 2 END),
    SUM(CASE WHEN g.sente_rating IS NULL OR g.gote_rating IS NULL THEN 0 ELSE 1 END),
    MAX(g.played_at)
FROM explorer_positions p JOIN collection_games g ON g.n = p.game
GROUP BY 1, 2, 3, 4, 5, 6;

DROP TABLE explorer_moves;
