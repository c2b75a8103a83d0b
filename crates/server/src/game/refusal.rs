//! A move the rules refuse, named in the protocol's words.
//!
//! A value of the game's model, not of the wire, although it is serialised as
//! the fields of an `error` message: the rooms refuse moves with it and so
//! do the lessons' single moves (`learn::play`), and both hand it to the
//! handlers that send it.

use serde::Serialize;
use shogi_core::{IllegalMove, Move};

use super::ending::{nifu_file, rule_code};

/// A move the rules refuse, as an `error` message names it: the move, the
/// rule's code and the square to show it at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// Always `illegal_move`.
    pub code: &'static str,
    /// The move in USI.
    #[serde(rename = "move")]
    pub mv: String,
    /// The rule it breaks ([`rule_code`]).
    pub rule: &'static str,
    /// Where the move went (its origin when there is no piece of the mover's there).
    pub square: String,
    /// The file of the pawn already there (`nifu` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<u8>,
}

impl Refusal {
    /// The refusal of `mv` for `reason`.
    #[must_use]
    pub fn of(mv: Move, reason: IllegalMove) -> Refusal {
        let square = match reason {
            IllegalMove::NoPiece(sq) | IllegalMove::NotYourPiece(sq) => sq,
            _ => mv.to(),
        };
        Refusal {
            code: "illegal_move",
            mv: mv.to_string(),
            rule: rule_code(reason),
            square: square.to_string(),
            file: nifu_file(reason),
        }
    }
}
