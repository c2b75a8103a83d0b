//! One move played on a position outside any game, for the lessons of the
//! learn pages (`POST /api/play`): the position after it with its check, mate
//! and legal moves, or the rule that refuses it, named as the rooms name a
//! refused move ([`Refusal`]). Lesson positions often lack a king (a lone
//! rook crossing the board), so the SFEN is read with missing kings allowed.
//!
//! ```
//! use shogi_server::learn::play::{play, Played};
//! let after = play("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*5h").unwrap();
//! assert!(matches!(after, Played::Legal(_)));
//! let refused = play("9/9/9/9/9/9/4P4/9/9 b P 1", "P*5e").unwrap();
//! match refused {
//!     Played::Refused(r) => assert_eq!(r.refusal.rule, "nifu"),
//!     Played::Legal(_) => unreachable!(),
//! }
//! ```

use serde::Serialize;
use shogi_core::{Move, Position};

use crate::board::legal::{parse_lenient, LegalMoves};
use crate::error::Error;
use crate::game::Refusal;

/// The longest USI move text accepted.
pub const MAX_MOVE_BYTES: usize = 16;

/// A legal move's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Legal {
    /// Always `true`.
    pub legal: bool,
    /// The position after the move.
    pub sfen: String,
    /// Whether the side now to move is in check.
    pub in_check: bool,
    /// Whether the side now to move is checkmated.
    pub checkmate: bool,
    /// The legal moves of the position after the move.
    pub legal_moves: LegalMoves,
}

/// A refused move: the rule and where to show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refused {
    /// Always `false`.
    pub legal: bool,
    /// The rule's code, the move and the square, as a room's `error` says them.
    #[serde(flatten)]
    pub refusal: Refusal,
}

/// What playing a move did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Played {
    /// The move was legal.
    Legal(Legal),
    /// The rules refuse it.
    Refused(Refused),
}

/// Plays `usi` on `sfen` (kings may be missing).
///
/// # Errors
/// [`Error::BadRequest`] for a bad or too long SFEN or move text.
pub fn play(sfen: &str, usi: &str) -> Result<Played, Error> {
    let pos = parse_lenient(sfen)?;
    if usi.len() > MAX_MOVE_BYTES {
        return Err(Error::BadRequest("move too long".into()));
    }
    let mv: Move = usi
        .parse()
        .map_err(|e| Error::BadRequest(format!("move: {e}")))?;
    Ok(play_move(&pos, mv))
}

/// Plays `mv` on `pos`.
#[must_use]
pub fn play_move(pos: &Position, mv: Move) -> Played {
    let mut after = pos.clone();
    match after.play(mv) {
        Err(reason) => Played::Refused(Refused {
            legal: false,
            refusal: Refusal::of(mv, reason),
        }),
        Ok(_) => {
            let legal_moves = LegalMoves::of(&after);
            let in_check = after.in_check();
            let no_moves = legal_moves.dests.is_empty() && legal_moves.drops.is_empty();
            Played::Legal(Legal {
                legal: true,
                sfen: after.to_sfen(),
                in_check,
                checkmate: in_check && no_moves,
                legal_moves,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(sfen: &str, usi: &str) -> Refusal {
        match play(sfen, usi).unwrap() {
            Played::Refused(r) => r.refusal,
            Played::Legal(l) => panic!("{usi} was legal: {}", l.sfen),
        }
    }

    fn legal(sfen: &str, usi: &str) -> Legal {
        match play(sfen, usi).unwrap() {
            Played::Legal(l) => l,
            Played::Refused(r) => panic!("{usi} was refused: {}", r.refusal.rule),
        }
    }

    #[test]
    fn a_lone_rook_moves_without_kings_on_the_board() {
        let l = legal("9/9/9/9/4R4/9/9/9/9 b - 1", "5e5a+");
        assert_eq!(l.sfen, "4+R4/9/9/9/9/9/9/9/9 w - 2");
        assert!(!l.in_check && !l.checkmate);
        // Gote has nothing to move.
        assert!(l.legal_moves.dests.is_empty());
    }

    #[test]
    fn nifu_names_the_file_and_the_square() {
        let r = refused("9/9/9/9/9/9/2P6/9/9 b P 1", "P*7c");
        assert_eq!((r.rule, r.square.as_str(), r.file), ("nifu", "7c", Some(7)));
    }

    #[test]
    fn a_dead_drop_and_a_pawn_drop_mate_are_refused_by_their_rules() {
        assert_eq!(
            refused("9/9/9/9/9/9/9/9/9 b N 1", "N*5b").rule,
            "dead_piece"
        );
        // The gote king on 1a boxed in by its own knight on 2a; the sente gold
        // on 2c guards 1b and 2b: P*1b would mate.
        let r = refused("7nk/9/7G1/9/9/9/9/9/4K4 b P 1", "P*1b");
        assert_eq!(r.rule, "uchifuzume");
    }

    #[test]
    fn a_move_the_piece_cannot_make_names_its_destination() {
        let r = refused("9/9/9/9/4S4/9/9/9/9 b - 1", "5e4e");
        assert_eq!((r.rule, r.square.as_str()), ("not_reachable", "4e"));
        let r = refused("9/9/9/9/4S4/9/9/9/9 b - 1", "6e5d");
        assert_eq!((r.rule, r.square.as_str()), ("no_piece", "6e"));
    }

    #[test]
    fn a_mating_drop_reports_check_and_mate() {
        let l = legal("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "G*5b");
        assert!(l.in_check && l.checkmate);
        assert_eq!(l.legal_moves.side_to_move, Some(crate::game::Side::Gote));
        let l = legal("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "G*4b");
        assert!(l.in_check && !l.checkmate, "check: the king takes the gold");
        let l = legal("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "G*4c");
        assert!(!l.in_check && !l.checkmate);
    }

    #[test]
    fn bad_text_is_a_bad_request() {
        assert!(play("9/9/9/9/9/9/9/9/9 b - 1", "zz").is_err());
        assert!(play("not a position", "7g7f").is_err());
        assert!(play(&"9/".repeat(100), "7g7f").is_err());
        assert!(play("9/9/9/9/9/9/9/9/9 b - 1", &"7g7f".repeat(10)).is_err());
    }
}
