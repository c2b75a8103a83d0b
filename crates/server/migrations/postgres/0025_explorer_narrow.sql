-- The explorer's columns in the narrowest integer types their values fit
-- (docs/EXPLORER.md): PostgreSQL stores every BIGINT in 8 bytes, and these
-- two tables are most of the database. A game number, ply, move code,
-- collection, month and count fit in INTEGER, a time class and a rating
-- band in SMALLINT; keys and dates (hash, played_at, last_played) and the
-- rating sum stay BIGINT. sqlx reads any of them as i64. Each ALTER
-- rewrites its table once.
ALTER TABLE explorer_positions
    ALTER COLUMN game TYPE INTEGER,
    ALTER COLUMN ply TYPE INTEGER,
    ALTER COLUMN next TYPE INTEGER;
ALTER TABLE explorer_counts
    ALTER COLUMN collection TYPE INTEGER,
    ALTER COLUMN month TYPE INTEGER,
    ALTER COLUMN time_class TYPE SMALLINT,
    ALTER COLUMN band TYPE SMALLINT,
    ALTER COLUMN next TYPE INTEGER,
    ALTER COLUMN games TYPE INTEGER,
    ALTER COLUMN sente_wins TYPE INTEGER,
    ALTER COLUMN gote_wins TYPE INTEGER,
    ALTER COLUMN draws TYPE INTEGER,
    ALTER COLUMN rated_games TYPE INTEGER;
