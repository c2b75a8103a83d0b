//! The legal moves of a position in the shape the board UI needs
//! (destinations per square, drop squares per piece, promotion choices): the
//! rooms send them with every state, and the review board asks for them
//! before letting a move be played on it.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;
use shogi_core::{Move, Position};

use crate::error::{Error, Problem};
use crate::protocol::Side;

/// The legal moves of a position, grouped as shogiground wants them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LegalMoves {
    /// The side to move (`sente` or `gote`; `None` only for [`LegalMoves::default`]).
    pub side_to_move: Option<Side>,
    /// Board moves: origin square → destination squares (USI squares).
    pub dests: BTreeMap<String, Vec<String>>,
    /// Drops: piece letter (`P`, `L`, ...) → squares.
    pub drops: BTreeMap<String, Vec<String>>,
    /// `<from><to>` → `may` (either is legal) or `must` (only the promotion is).
    pub promotions: BTreeMap<String, &'static str>,
}

impl LegalMoves {
    /// The legal moves of `pos`.
    #[must_use]
    pub fn of(pos: &Position) -> LegalMoves {
        let legal = pos.legal_moves();
        let plain: HashSet<Move> = legal.iter().copied().collect();
        let mut out = LegalMoves {
            side_to_move: Some(Side::from(pos.side_to_move())),
            ..LegalMoves::default()
        };
        for &m in &legal {
            match m {
                Move::Board { from, to, promote } => {
                    let (f, t) = (from.to_string(), to.to_string());
                    if promote {
                        let unpromoted = Move::Board {
                            from,
                            to,
                            promote: false,
                        };
                        let may = plain.contains(&unpromoted);
                        out.promotions
                            .insert(format!("{f}{t}"), if may { "may" } else { "must" });
                    }
                    let list = out.dests.entry(f).or_default();
                    if !list.contains(&t) {
                        list.push(t);
                    }
                }
                Move::Drop { kind, to } => out
                    .drops
                    .entry(kind.piece_kind().sfen().to_string())
                    .or_default()
                    .push(to.to_string()),
            }
        }
        out
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

    #[test]
    fn start_position_has_thirty_moves_and_no_drops() {
        let m = LegalMoves::of(&Position::startpos());
        assert_eq!(m.side_to_move, Some(Side::Sente));
        assert_eq!(m.dests.values().map(Vec::len).sum::<usize>(), 30);
        assert!(m.drops.is_empty());
        assert!(m.promotions.is_empty());
    }

    #[test]
    fn a_pawn_on_the_last_rank_but_one_may_promote_and_a_lance_onto_the_last_must() {
        let pos = shogi_core::sfen::parse_position("4k4/L8/4P4/9/9/9/9/9/4K4 b - 1").unwrap();
        let m = LegalMoves::of(&pos);
        assert_eq!(m.promotions.get("5c5b"), Some(&"may"));
        assert_eq!(m.promotions.get("9b9a"), Some(&"must"));
        assert_eq!(m.dests["9b"], vec!["9a".to_string()]);
    }

    #[test]
    fn a_position_without_kings_is_read_when_allowed() {
        let m = of_sfen("9/9/9/9/4B4/9/9/9/9 b - 1", true).unwrap();
        assert_eq!(m.dests["5e"].len(), 16);
        assert!(of_sfen("9/9/9/9/4B4/9/9/9/9 b - 1", false).is_err());
        assert!(of_sfen("9/9/9/9/4B4/9/9/9 b - 1", true).is_err());
    }
}
