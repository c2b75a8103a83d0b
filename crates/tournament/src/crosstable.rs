//! The crosstable: a row a player in standings order, a cell a round.
