-- (PostgreSQL twin of ../0020_move_comments.sql, which explains the column.)
ALTER TABLE moves ADD COLUMN comment TEXT;
