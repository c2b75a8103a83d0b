//! Ratings: Glicko-2 ratings updated once per rating period
//! ([`glicko2`], with [`Glicko2::rate`] the entry point), the amateur rank
//! of a rating ([`rank`]) and the time classes that keep a rating per pool
//! ([`class`]). Arithmetic on plain values only, so that the storage may
//! use these types too.

pub mod class;
pub mod glicko2;
pub mod rank;
pub mod replay;

pub use class::TimeClass;
pub use glicko2::{Glicko2, Rating, Score};
pub use rank::{Rank, RankError};
