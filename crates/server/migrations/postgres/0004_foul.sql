-- The kind of foul that lost a game (PostgreSQL twin of ../0004_foul.sql).
ALTER TABLE games ADD COLUMN foul TEXT;
