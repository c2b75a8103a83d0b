//! Pairing the next round, whatever the format.

use crate::check::Warning;
use crate::{Board, Bye, Event, PlayerId};

/// What the organiser asks of the next round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// Players sitting the round out (kinds `Zero`, `Half` or `Full`).
    pub sit_out: Vec<Bye>,
    /// Pairs the organiser fixes (Swiss, McMahon); colours still follow
    /// the colour rules.
    pub forced: Vec<(PlayerId, PlayerId)>,
}

/// A paired round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The boards, board 1 first (highest scores first; a withdrawn round
    /// robin player's games come with the forfeit result already set).
    pub boards: Vec<Board>,
    /// The pairing bye, if any, and the sit-outs.
    pub byes: Vec<Bye>,
    /// The rules this pairing breaks (only when forced, or where nothing
    /// better exists).
    pub warnings: Vec<Warning>,
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

/// Pairs the next round of `event`.
///
/// # Errors
/// [`PairingError`].
pub fn pair_next(event: &Event, request: &Request) -> Result<Pairing, PairingError> {
    let _ = (event, request);
    todo!("helper P1")
}
