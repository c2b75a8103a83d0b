//! Club tournaments without I/O: who plays whom, with which colour, and who
//! stands where.
//!
//! An [`Event`] is everything the pairing and the standings read: the
//! players, the format and the rounds played so far. The same event always
//! gives the same pairing (the furigoma tosses are drawn from the event's
//! seed), so a server may store the state and pair again at will.
//!
//! - [`berger`]: FIDE's Berger tables for round robins.
//! - [`swiss`]: Swiss and McMahon pairing as a minimum-weight perfect
//!   matching over a ladder of rules; [`check`] names the rules a pairing
//!   breaks (for pairings an organiser forced).
//! - [`colours`]: colour history, furigoma.
//! - [`standings`]: points and tie-breaks; [`crosstable`]: the grid, its
//!   CSV and the plain-text report European federations rate from.

pub mod berger;
mod brackets;
pub mod check;
pub mod colours;
pub mod crosstable;
pub mod model;
pub mod pair;
pub mod request;
pub mod score;
pub mod standings;
pub mod swiss;
pub mod translit;

pub use model::*;
