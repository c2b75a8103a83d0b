//! The legal moves of a position in the shape the board UI needs
//! (destinations per square, drop squares per piece, promotion choices): the
//! rooms send them with every state, and the review board asks for them
//! before letting a move be played on it.

use serde::Serialize;
use shogi_core::Position;

use crate::board::dests::{self, Drops, Promotions};
pub use crate::board::dests::{Dests, Squares};
use crate::error::{Error, Problem};
use crate::game::Side;

/// The legal moves of a position, grouped as shogiground wants them
/// ([`dests`]: built without a string, the squares are written only when
/// serialised).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LegalMoves {
    /// The side to move (`sente` or `gote`; `None` only for [`LegalMoves::default`]).
    pub side_to_move: Option<Side>,
    /// Board moves: origin square → destination squares (USI squares).
    pub dests: Dests,
    /// Drops: piece letter (`P`, `L`, ...) → squares.
    pub drops: Drops,
    /// `<from><to>` → `may` (either is legal) or `must` (only the promotion is).
    pub promotions: Promotions,
}

impl LegalMoves {
    /// The legal moves of `pos`.
    #[must_use]
    pub fn of(pos: &Position) -> LegalMoves {
        let (dests, drops, promotions) = dests::group(pos);
        LegalMoves {
            side_to_move: Some(Side::from(pos.side_to_move())),
            dests,
            drops,
            promotions,
        }
    }
}

/// The longest SFEN accepted.
pub const MAX_SFEN_BYTES: usize = 200;

/// Reads `sfen` (at most [`MAX_SFEN_BYTES`]) allowing missing kings, as
/// lesson and tsume positions need (a lone piece on the board; mate problems
/// without the attacker's king).
///
/// # Errors
/// [`Problem::BadSfen`] for a bad SFEN, [`Error::BadRequest`] for a too long one.
pub fn parse_lenient(sfen: &str) -> Result<Position, Error> {
    parse(sfen, true)
}

/// Reads `sfen` (at most [`MAX_SFEN_BYTES`]); `missing_kings` allows a
/// position without one or both kings.
fn parse(sfen: &str, missing_kings: bool) -> Result<Position, Error> {
    if sfen.len() > MAX_SFEN_BYTES {
        return Err(Error::BadRequest("sfen too long".into()));
    }
    shogi_core::sfen::parse_position_with(
        sfen,
        shogi_core::Leniency {
            allow_missing_kings: missing_kings,
        },
    )
    .map_err(|e| {
        Error::Problem(Problem::BadSfen {
            detail: e.to_string(),
        })
    })
}

/// The legal moves of the position `sfen`; `missing_kings` allows a
/// position without one or both kings (lessons), otherwise both must stand
/// (the position editor asks whether a setup can be played).
///
/// # Errors
/// [`Problem::BadSfen`] for a bad SFEN, [`Error::BadRequest`] for a too long one.
pub fn of_sfen(sfen: &str, missing_kings: bool) -> Result<LegalMoves, Error> {
    Ok(LegalMoves::of(&parse(sfen, missing_kings)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use shogi_core::Square;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn start_position_has_thirty_moves_and_no_drops() {
        let m = LegalMoves::of(&Position::startpos());
        assert_eq!(m.side_to_move, Some(Side::Sente));
        assert_eq!(m.dests.count(), 30);
        assert!(m.drops.is_empty());
        assert!(m.promotions.is_empty());
    }

    #[test]
    fn a_pawn_on_the_last_rank_but_one_may_promote_and_a_lance_onto_the_last_must() {
        let pos = shogi_core::sfen::parse_position("4k4/L8/4P4/9/9/9/9/9/4K4 b - 1").unwrap();
        let m = LegalMoves::of(&pos);
        assert_eq!(m.promotions.get(sq("5c"), sq("5b")), Some("may"));
        assert_eq!(m.promotions.get(sq("9b"), sq("9a")), Some("must"));
        assert_eq!(
            m.dests.from(sq("9b")).iter().collect::<Vec<_>>(),
            [sq("9a")]
        );
    }

    #[test]
    fn the_json_lists_squares_by_name_in_order_and_each_destination_once() {
        // Sente: a pawn that may promote, a lance that must, a bishop, and
        // a gold and a pawn in hand.
        let pos = shogi_core::sfen::parse_position("6k2/L8/4P4/9/9/9/9/9/4K3B b GP 1").unwrap();
        let v = serde_json::to_value(LegalMoves::of(&pos)).unwrap();
        assert_eq!(v["side_to_move"], "sente");
        assert_eq!(v["dests"]["5c"], json!(["5b"]));
        assert_eq!(v["dests"]["9b"], json!(["9a"]));
        assert_eq!(
            v["dests"]["1i"],
            json!(["2h", "3g", "4f", "5e", "6d", "7c", "8b", "9a"])
        );
        assert_eq!(
            v["promotions"],
            json!({"1i7c": "may", "1i8b": "may", "1i9a": "may", "5c5b": "may", "9b9a": "must"})
        );
        let keys: Vec<&String> = v["drops"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["G", "P"]);
        // A pawn drops on any empty square but file 5 (a pawn there) and rank a.
        let pawn: Vec<&str> = v["drops"]["P"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert!(!pawn.iter().any(|s| s.starts_with('5') || s.ends_with('a')));
        // 8 files × 8 ranks, less the lance's and the bishop's squares.
        assert_eq!(pawn.len(), 8 * 8 - 2);
    }

    #[test]
    fn a_position_without_kings_is_read_when_allowed() {
        let m = of_sfen("9/9/9/9/4B4/9/9/9/9 b - 1", true).unwrap();
        assert_eq!(m.dests.from(sq("5e")).len(), 16);
        assert!(of_sfen("9/9/9/9/4B4/9/9/9/9 b - 1", false).is_err());
        assert!(of_sfen("9/9/9/9/4B4/9/9/9 b - 1", true).is_err());
    }
}
