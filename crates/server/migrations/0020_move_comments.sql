-- A comment kept with a move: the evaluation a CSA program appended to it
-- (`+7776FU,'* 123 -3334FU`, docs/CSA.md), written after the move as a
-- `'*` line in the CSA download and as a comment in the other formats.
-- NULL: none. At most 1024 bytes, without control characters.
ALTER TABLE moves ADD COLUMN comment TEXT;
