//! Squares as one side sees them, so that every rule is written once, in
//! Sente's coordinates, and read for Gote by turning the board around.
//!
//! A side's file 1 is on its right and file 9 on its left; its rank 1 is the
//! far rank and rank 9 its own back rank. For Sente these are the board's
//! own numbers (`2h` is file 2, rank 8); for Gote every square is rotated
//! (`8b` is Gote's file 2, rank 8, where its rook starts).
//!
//! ```text
//! Sente's 2h = Gote's 8b (the rook's start), Sente's 7g = Gote's 3c.
//! ```

use shogi_core::{Color, Square};

/// `sq` as `color` sees it: `(file, rank)`, both 1-9.
pub(crate) fn relative(sq: Square, color: Color) -> (u8, u8) {
    let (file, rank) = (sq.file().number(), sq.rank().number());
    match color {
        Color::Sente => (file, rank),
        Color::Gote => (10 - file, 10 - rank),
    }
}

/// The board square that `color` calls `(file, rank)`; `None` off the board.
pub(crate) fn absolute(color: Color, file: u8, rank: u8) -> Option<Square> {
    let sq = Square::from_numbers(file, rank)?;
    Some(match color {
        Color::Sente => sq,
        Color::Gote => sq.flip(),
    })
}

/// Ranks 7-9 as `color` sees them: its own camp (自陣).
pub(crate) fn in_own_camp(sq: Square, color: Color) -> bool {
    relative(sq, color).1 >= 7
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().expect("square")
    }

    #[test]
    fn gote_sees_the_board_turned_around() {
        assert_eq!(relative(sq("2h"), Color::Sente), (2, 8));
        assert_eq!(relative(sq("8b"), Color::Gote), (2, 8));
        assert_eq!(relative(sq("3c"), Color::Gote), (7, 7));
        assert_eq!(absolute(Color::Gote, 2, 8), Some(sq("8b")));
        assert_eq!(absolute(Color::Sente, 10, 8), None);
    }

    #[test]
    fn own_camp_is_the_three_near_ranks() {
        assert!(in_own_camp(sq("5g"), Color::Sente));
        assert!(!in_own_camp(sq("5f"), Color::Sente));
        assert!(in_own_camp(sq("5c"), Color::Gote));
        assert!(!in_own_camp(sq("5d"), Color::Gote));
    }
}
