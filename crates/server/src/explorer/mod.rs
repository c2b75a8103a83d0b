//! A club's memory: collections of games, the opening explorer and
//! position search (docs/EXPLORER.md).
//!
//! Every finished game played here joins the `site` collection ([`site`]);
//! organisers import records into collections of their own ([`import`]).
//! Each game contributes every position it reached, once, keyed by its
//! 64-bit Zobrist key ([`entry`]); the explorer answers a position's moves
//! with their counts and the games through it, and the search finds games
//! by position, player, event, date, result, handicap or strategy
//! ([`query`]).

pub mod collection;
pub mod entry;
pub mod import;
pub mod query;
pub mod repertoire;
pub mod site;
pub mod zip_names;
