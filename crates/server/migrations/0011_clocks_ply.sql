-- A move no longer rewrites its game's row (issue 17: one row written per
-- move, not two). The clocks after a move are in its `moves` row
-- (`main_ms_after`, `periods_after` of the side that moved); the games row's
-- clocks are those as of `clocks_ply` moves (written at creation, takeback
-- and ending), and `turn_used_ms` counts only while `turn_ply` equals the
-- number of moves (it was saved at shutdown with that many moves played).
ALTER TABLE games ADD COLUMN clocks_ply INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN turn_ply INTEGER NOT NULL DEFAULT 0;
-- Until now every move rewrote the row: its clocks and turn time are as of its last move.
UPDATE games SET
    clocks_ply = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id),
    turn_ply = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id);
