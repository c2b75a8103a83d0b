//! The sides of a game in the protocol's words: a colour ([`Side`]), who a
//! connection or token plays ([`Seat`]) and the creator's choice of seat
//! ([`SideChoice`]).

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shogi_core::Color;

/// A colour as JSON text: `"sente"` or `"gote"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Sente (moves first in even games).
    Sente,
    /// Gote.
    Gote,
}

impl Side {
    /// The JSON word.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Side::Sente => "sente",
            Side::Gote => "gote",
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Sente => Side::Sente,
            Color::Gote => Side::Gote,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::Sente => Color::Sente,
            Side::Gote => Color::Gote,
        }
    }
}

impl FromStr for Side {
    type Err = ();
    fn from_str(s: &str) -> Result<Side, ()> {
        match s {
            "sente" => Ok(Side::Sente),
            "gote" => Ok(Side::Gote),
            _ => Err(()),
        }
    }
}

/// Who a connection or token plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// Sente.
    Sente,
    /// Gote.
    Gote,
    /// Both sides (a local game).
    Both,
}

impl Seat {
    /// Whether this seat plays `color`.
    #[must_use]
    pub fn plays(self, color: Color) -> bool {
        match self {
            Seat::Both => true,
            Seat::Sente => color == Color::Sente,
            Seat::Gote => color == Color::Gote,
        }
    }
}

impl From<Color> for Seat {
    fn from(c: Color) -> Seat {
        match c {
            Color::Sente => Seat::Sente,
            Color::Gote => Seat::Gote,
        }
    }
}

/// The creator's choice of seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideChoice {
    /// Sente.
    #[default]
    Sente,
    /// Gote.
    Gote,
    /// Chosen by the server at random.
    Random,
}
