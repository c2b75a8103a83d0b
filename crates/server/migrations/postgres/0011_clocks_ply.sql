-- PostgreSQL twin of ../0011_clocks_ply.sql: a move no longer rewrites its
-- game's row; the games row's clocks are as of `clocks_ply` moves, and
-- `turn_used_ms` counts only while `turn_ply` equals the number of moves.
ALTER TABLE games ADD COLUMN clocks_ply BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN turn_ply BIGINT NOT NULL DEFAULT 0;
UPDATE games SET
    clocks_ply = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id),
    turn_ply = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id);
