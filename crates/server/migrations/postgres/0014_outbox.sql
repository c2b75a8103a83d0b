-- The consequences of a game's ending still to be carried out (issue 43,
-- "nothing lost when the process dies"): one row per consequence due,
-- written in the transaction that stores the ending and deleted in the
-- transaction that carries the consequence out. What a dead process left
-- is carried out at the next start.
--
-- consequence: 'rating' (a rated game changes its players' ratings) or
-- 'tournament' (an event game's board hears of it: a sennichite is replayed).
-- Endings stored before this migration have none.
CREATE TABLE game_outbox (
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    consequence TEXT NOT NULL,
    ended_at    BIGINT NOT NULL,                -- Unix milliseconds
    PRIMARY KEY (game_id, consequence)
);
