//! Floodgate's evaluation comment on a move: `+7776FU,'* 123 -3334FU +2726FU`,
//! the engine's score and the rest of its principal variation in CSA moves.
//!
//! The score is from Sente's point of view whichever side moved (positive:
//! good for Sente), as floodgate's records are read; a mate is written
//! ±[`MATE_VALUE`]. The variation starts after the move played (the move
//! that the comment is on is not repeated) and stops at the first move
//! that cannot be played, or before the comment would pass
//! [`MAX_COMMENT`] bytes (our server keeps 1024; a line over 4096 is
//! skipped, which would cost the move).

use shogi_core::{Color, Move, Position};
use shogi_record::csa::CsaMove;

use super::usi::Score;

/// How a mate is written (the mover mates: `+` from its point of view).
pub const MATE_VALUE: i32 = 100_000;
/// The longest comment written, in bytes, after `'`.
pub const MAX_COMMENT: usize = 1000;

/// The comment (without its `'`) for `best`, played in `pos`, that the
/// engine scored `score` with the variation `pv` (USI moves, the first
/// normally `best` itself).
#[must_use]
pub fn floodgate(pos: &Position, best: Move, score: Score, pv: &[String]) -> String {
    let for_mover = match score {
        Score::Cp(cp) => cp.clamp(-(MATE_VALUE - 1), MATE_VALUE - 1),
        Score::Mate(n) if n < 0 => -MATE_VALUE,
        Score::Mate(_) => MATE_VALUE,
    };
    let value = match pos.side_to_move() {
        Color::Sente => for_mover,
        Color::Gote => -for_mover,
    };
    let mut out = format!("* {value}");
    let mut line = pos.clone();
    if line.play(best).is_err() {
        return out;
    }
    let rest = match pv.split_first() {
        Some((first, rest)) if first.parse::<Move>() == Ok(best) => rest,
        _ => return out,
    };
    for text in rest {
        let Ok(m) = text.parse::<Move>() else { break };
        if !line.is_legal(m) {
            break;
        }
        let written = CsaMove::of(&line, m).to_string();
        if out.len() + 1 + written.len() > MAX_COMMENT {
            break;
        }
        out.push(' ');
        out.push_str(&written);
        line.make_move(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pv(moves: &str) -> Vec<String> {
        moves.split_whitespace().map(str::to_owned).collect()
    }

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn the_variation_after_the_move_in_csa_with_sentes_score() {
        let pos = Position::startpos();
        assert_eq!(
            floodgate(&pos, mv("7g7f"), Score::Cp(123), &pv("7g7f 3c3d 2g2f")),
            "* 123 -3334FU +2726FU"
        );
    }

    #[test]
    fn a_gote_move_is_scored_from_sentes_side() {
        let mut pos = Position::startpos();
        pos.make_move(mv("7g7f"));
        assert_eq!(
            floodgate(&pos, mv("3c3d"), Score::Cp(40), &pv("3c3d 2g2f")),
            "* -40 +2726FU"
        );
        assert_eq!(
            floodgate(&pos, mv("3c3d"), Score::Mate(7), &[]),
            "* -100000"
        );
        assert_eq!(
            floodgate(&pos, mv("3c3d"), Score::Mate(-2), &[]),
            "* 100000"
        );
    }

    #[test]
    fn a_stale_or_broken_variation_stops_where_it_goes_wrong() {
        let pos = Position::startpos();
        // A variation for another move: the score alone.
        assert_eq!(
            floodgate(&pos, mv("2g2f"), Score::Cp(5), &pv("7g7f 3c3d")),
            "* 5"
        );
        // An illegal or unreadable move ends it.
        assert_eq!(
            floodgate(&pos, mv("7g7f"), Score::Cp(5), &pv("7g7f 3c3d 5i5h 5a6a")),
            "* 5 -3334FU +5958OU"
        );
        assert_eq!(
            floodgate(&pos, mv("7g7f"), Score::Cp(5), &pv("7g7f 3c3d 9z9z")),
            "* 5 -3334FU"
        );
        assert_eq!(
            floodgate(&pos, mv("7g7f"), Score::Cp(5), &pv("7g7f 7g7f")),
            "* 5"
        );
    }

    #[test]
    fn a_long_variation_is_cut_below_the_limit() {
        // Kings walking back and forth: a legal variation of any length.
        let shuffle: Vec<String> = std::iter::once("7g7f".to_owned())
            .chain(
                ["5a4b", "5i4h", "4b5a", "4h5i"]
                    .iter()
                    .cycle()
                    .take(400)
                    .map(|m| (*m).to_owned()),
            )
            .collect();
        let text = floodgate(&Position::startpos(), mv("7g7f"), Score::Cp(0), &shuffle);
        assert!(
            text.len() <= MAX_COMMENT && text.len() > MAX_COMMENT - 9,
            "{}",
            text.len()
        );
        assert!(text.starts_with("* 0 -5142OU +5948OU"));
    }
}
