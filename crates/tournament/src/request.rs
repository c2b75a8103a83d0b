//! What an organiser asks of a round (sit-outs, forced pairs), and why a
//! round cannot be paired: the words [`crate::pair`], [`crate::swiss`] and
//! [`crate::check`] share.

use crate::{Bye, PlayerId};

/// What the organiser asks of the next round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// Players sitting the round out (kinds `Zero`, `Half` or `Full`).
    pub sit_out: Vec<Bye>,
    /// Pairs the organiser fixes (Swiss, McMahon); colours still follow
    /// the colour rules.
    pub forced: Vec<(PlayerId, PlayerId)>,
}

/// Why a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// Every planned round is paired.
    #[error("all {0} rounds are paired")]
    Finished(u32),
    /// A result of the previous round is missing (Swiss and McMahon pair on results).
    #[error("round {round} board {board} has no result yet")]
    ResultMissing {
        /// The round (1-based).
        round: u32,
        /// The board (1-based).
        board: u32,
    },
    /// Fewer than two players take part.
    #[error("fewer than two players to pair")]
    TooFewPlayers,
    /// A round robin's field is fixed once round 1 is paired.
    #[error("a round robin takes no new players after round 1")]
    LateEntry,
    /// A request names a player who is not in the event or not playing.
    #[error("player {0} cannot be paired this round")]
    BadPlayer(PlayerId),
}
