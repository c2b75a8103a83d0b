-- The day an imported record says its game was played (its header's
-- 開始日時 / $START_TIME / 対局日), as Unix milliseconds of that day's
-- midnight UTC; NULL when the header gives no date, and for records imported
-- before this migration (the archive shows their import time then).
ALTER TABLE records ADD COLUMN played_at BIGINT;
