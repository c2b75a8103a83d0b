-- The explorer's counts by month, time class and rating band (docs/EXPLORER.md):
-- a filtered answer that keeps to whole months and to hundreds of rating
-- points is summed from these rows as an unfiltered one is, the way
-- lichess's explorer keeps its counts per month, speed and rating group.
-- The rows of `explorer_moves` are counted again from the games.
CREATE TABLE explorer_counts (
    hash        BIGINT NOT NULL,
    collection  BIGINT NOT NULL,
    month       BIGINT NOT NULL,   -- YYYYMM (UTC) of collection_games.played_at; 0 outside years 1-9999
    time_class  BIGINT NOT NULL,   -- 0 unknown, 1 bullet, 2 blitz, 3 rapid, 4 classical
    band        BIGINT NOT NULL,   -- the players' average rating / 100; -1 unknown, -2 below 0
    next        BIGINT NOT NULL,
    games       BIGINT NOT NULL,
    sente_wins  BIGINT NOT NULL,
    gote_wins   BIGINT NOT NULL,
    draws       BIGINT NOT NULL,
    rating_sum  BIGINT NOT NULL,
    rated_games BIGINT NOT NULL,
    last_played BIGINT NOT NULL,
    PRIMARY KEY (hash, collection, month, time_class, band, next)
);

INSERT INTO explorer_counts (hash, collection, month, time_class, band, next, games,
        sente_wins, gote_wins, draws, rating_sum, rated_games, last_played)
SELECT p.hash, g.collection,
    CASE WHEN g.played_at BETWEEN -62135596800000 AND 253402300799999
        THEN CAST(to_char(to_timestamp(g.played_at / 1000.0) AT TIME ZONE 'UTC', 'YYYYMM') AS BIGINT)
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
