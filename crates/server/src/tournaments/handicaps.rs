//! Handicaps in a handicap event, from the gap between the players'
//! grades (dan/kyu steps, docs/TOURNAMENTS.md "Handicaps").
//!
//! The stronger player gives the handicap and plays Gote, which moves first
//! in a handicap game; one grade apart, the game is even with the weaker
//! player as Sente. The steps follow the usual amateur table:
//!
//! | grades apart | handicap |
//! |---|---|
//! | 0 | even, colours by furigoma or balance |
//! | 1 | even, the weaker player Sente |
//! | 2 | lance (香落ち) |
//! | 3 | bishop (角落ち) |
//! | 4 | rook (飛車落ち) |
//! | 5 | rook and lance (飛香落ち) |
//! | 6 | two pieces (二枚落ち) |
//! | 7–8 | four pieces (四枚落ち) |
//! | 9–10 | six pieces (六枚落ち) |
//! | 11 and more | eight pieces (八枚落ち) |

use shogi_core::Handicap;
use shogi_tournament::Grade;

/// The handicap for players `gap` grades apart.
///
/// ```
/// use shogi_core::Handicap;
/// use shogi_server::tournaments::handicaps::for_gap;
/// assert_eq!(for_gap(1), Handicap::Even);
/// assert_eq!(for_gap(3), Handicap::Bishop);
/// assert_eq!(for_gap(14), Handicap::EightPieces);
/// ```
#[must_use]
pub fn for_gap(gap: u32) -> Handicap {
    match gap {
        0 | 1 => Handicap::Even,
        2 => Handicap::Lance,
        3 => Handicap::Bishop,
        4 => Handicap::Rook,
        5 => Handicap::RookLance,
        6 => Handicap::TwoPieces,
        7 | 8 => Handicap::FourPieces,
        9 | 10 => Handicap::SixPieces,
        _ => Handicap::EightPieces,
    }
}

/// A board of a handicap event: whether the colours must be swapped so
/// that the stronger player is Gote, and the handicap. Players of the same
/// grade, or one without a grade, keep the pairing's colours and play even.
#[must_use]
pub fn orient(sente: Option<Grade>, gote: Option<Grade>) -> (bool, Handicap) {
    match (sente, gote) {
        (Some(s), Some(g)) if s != g => (s > g, for_gap(s.abs_diff(g))),
        _ => (false, Handicap::Even),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stronger_player_gives_the_handicap_as_gote() {
        // 2 dan (2) against 3 kyu (-2): four grades, rook; the dan player
        // sits as Sente in the pairing, so the board turns round.
        assert_eq!(orient(Some(2), Some(-2)), (true, Handicap::Rook));
        assert_eq!(orient(Some(-2), Some(2)), (false, Handicap::Rook));
        assert_eq!(orient(Some(1), Some(0)), (true, Handicap::Even));
        assert_eq!(orient(Some(1), Some(1)), (false, Handicap::Even));
        assert_eq!(orient(None, Some(5)), (false, Handicap::Even));
    }

    #[test]
    fn more_grades_never_mean_a_smaller_handicap() {
        let order = |h: Handicap| Handicap::ALL.iter().position(|&x| x == h).unwrap();
        for gap in 1..20 {
            assert!(order(for_gap(gap + 1)) >= order(for_gap(gap)), "{gap}");
        }
    }
}
