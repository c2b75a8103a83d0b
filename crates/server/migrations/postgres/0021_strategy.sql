-- (PostgreSQL twin of ../0021_strategy.sql, which explains the columns.)
ALTER TABLE games ADD COLUMN strategy TEXT;
ALTER TABLE records ADD COLUMN strategy TEXT;
UPDATE games SET dedupe_key = NULL WHERE over;
UPDATE records SET dedupe_key = NULL;
