-- The strategy tags of a finished game and of an imported record
-- (docs/STRATEGY.md): each tag as `side:id` (`sente:`, `gote:` or `line:`),
-- separated by spaces with a space at each end, e.g.
-- ` sente:static_rook sente:funagakoi gote:ranging_rook gote:fourth_file_rook
-- gote:mino line:static_vs_ranging `, so that the archive finds a tag by
-- looking for `:id ` in it. Computed with the dedupe key (`review::dedupe`):
-- NULL until then; empty for a record that no longer reads.
ALTER TABLE games ADD COLUMN strategy TEXT;
ALTER TABLE records ADD COLUMN strategy TEXT;

-- Every key is computed again, and the tags with it, at the next start.
UPDATE games SET dedupe_key = NULL WHERE over;
UPDATE records SET dedupe_key = NULL;
