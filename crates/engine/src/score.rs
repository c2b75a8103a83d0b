//! The mate scores the search and everything reading its results share.
//!
//! ```
//! use shogi_engine::score::{MATE, MATE_IN_MAX_PLY};
//! assert!(MATE_IN_MAX_PLY < MATE);
//! ```

/// The score of a mate on the board (the side to move is mated: `-MATE`).
pub const MATE: i32 = 32000;
/// The deepest ply searched.
pub const MAX_PLY: usize = 128;
/// Scores at least this large are mates found by the search.
#[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)] // 128 fits.
pub const MATE_IN_MAX_PLY: i32 = MATE - 2 * MAX_PLY as i32;
