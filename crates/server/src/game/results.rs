//! A player's tally of finished games.

use serde::Serialize;

/// Wins, losses and draws.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Results {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}
