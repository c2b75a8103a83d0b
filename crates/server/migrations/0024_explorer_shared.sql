-- Count rows only for the positions two or more games reached
-- (docs/EXPLORER.md): a position one game reached is counted from its
-- `explorer_positions` row, the way the explorer counts a filtered answer.
-- Most positions past the opening are reached by one game only, and their
-- count rows were most of the database.
DELETE FROM explorer_counts WHERE hash IN (
    SELECT hash FROM explorer_counts GROUP BY hash HAVING SUM(games) < 2
);
