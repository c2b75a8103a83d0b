//! What KIF and KI2 share: the words that end a game ([`ending`]: the terminal
//! move word and the `まで…` summary line, both ways), the headers and start
//! position written before the moves ([`preamble`]), and the lookahead that
//! resolves KI2 moves written without their relative markers ([`lookahead`]).
//!
//! [`crate::kif`] and [`crate::ki2`] both use this module and it uses neither,
//! so the two formats do not import each other.

pub(crate) mod ending;
pub(crate) mod lookahead;
pub(crate) mod preamble;

use shogi_core::Color;

/// The name KIF and KI2 give a side: 先手/後手, or 下手/上手 in handicap games.
pub(crate) fn side_name(c: Color, handicapped: bool) -> &'static str {
    match (c, handicapped) {
        (Color::Sente, false) => "先手",
        (Color::Gote, false) => "後手",
        (Color::Sente, true) => "下手",
        (Color::Gote, true) => "上手",
    }
}
