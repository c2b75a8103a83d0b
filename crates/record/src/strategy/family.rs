//! Each side's opening family: Static Rook (居飛車) or Ranging Rook (振り飛車),
//! and the file its rook fights on ([`Opening`]).
//!
//! The rule, in the side's own coordinates (see `docs/STRATEGY.md`): within
//! the first [`OPENING_PLIES`] plies, the first time the side's unpromoted
//! rook moves sideways inside its own camp (ranks 7-9 as it sees them),
//! without capturing, to a file 5-8 counted from its right while its king
//! is not on files 6-9, the side plays Ranging Rook on that file. The first
//! later such move to another file 5-8 in the window is kept as the side's
//! [`later`](crate::strategy::SideStrategy::later_opening) opening. Without
//! one, the side plays Static Rook; a first sideways move to file 3 or 4
//! makes that Sleeve Rook or Right Fourth-file Rook.
//!
//! ```
//! use shogi_record::strategy::{Family, Opening};
//! assert_eq!(Opening::FourthFileRook.family(), Family::RangingRook);
//! assert_eq!(Opening::SleeveRook.family(), Family::StaticRook);
//! ```

use shogi_core::{Color, Move, PieceKind, Position};

use super::relative::{in_own_camp, relative};

/// How many plies from the start the rook's moves can decide the opening.
///
/// Long enough for a Ranging Rook played late after a feint (陽動振り飛車:
/// the rook ranges at ply 31 in one of the test records), short enough that
/// a rook swung in the middle game is not mistaken for an opening.
pub const OPENING_PLIES: usize = 40;

/// The two broad families of openings.
///
/// ```
/// use shogi_record::strategy::{Family, Lang};
/// assert_eq!(Family::RangingRook.name(Lang::Ja), "振り飛車");
/// assert_eq!(Family::StaticRook.id(), "static_rook");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Family {
    /// Static Rook (居飛車): the rook fights on its own right side.
    StaticRook,
    /// Ranging Rook (振り飛車): the rook moves to the centre or the left.
    RangingRook,
}

impl Family {
    /// Both families.
    pub const ALL: [Family; 2] = [Family::StaticRook, Family::RangingRook];
}

/// One side's opening: its family and the file its rook chose.
///
/// Files are counted as the side sees them, from its right: Sente's Fourth-file
/// Rook stands on 6h, Gote's on 4b.
///
/// ```
/// use shogi_record::strategy::{Lang, Opening};
/// assert_eq!(Opening::ThirdFileRook.name(Lang::Ja), "三間飛車");
/// assert_eq!(Opening::ThirdFileRook.name(Lang::En), "Third-file Rook");
/// assert_eq!("central_rook".parse::<Opening>(), Ok(Opening::CentralRook));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Opening {
    /// Static Rook (居飛車) with the rook on its own file (2h / 8b).
    StaticRook,
    /// Sleeve Rook (袖飛車): Static Rook moved to the third file (3h / 7b).
    SleeveRook,
    /// Right Fourth-file Rook (右四間飛車): Static Rook on the fourth file (4h / 6b).
    RightFourthFileRook,
    /// Central Rook (中飛車): Ranging Rook on the fifth file (5h / 5b).
    CentralRook,
    /// Fourth-file Rook (四間飛車): Ranging Rook on 6h / 4b.
    FourthFileRook,
    /// Third-file Rook (三間飛車): Ranging Rook on 7h / 3b.
    ThirdFileRook,
    /// Opposing Rook (向かい飛車): Ranging Rook on 8h / 2b, facing the other rook.
    OpposingRook,
}

impl Opening {
    /// Every opening, Static Rook ones first.
    pub const ALL: [Opening; 7] = [
        Opening::StaticRook,
        Opening::SleeveRook,
        Opening::RightFourthFileRook,
        Opening::CentralRook,
        Opening::FourthFileRook,
        Opening::ThirdFileRook,
        Opening::OpposingRook,
    ];

    /// The family the opening belongs to.
    ///
    /// ```
    /// use shogi_record::strategy::{Family, Opening};
    /// assert_eq!(Opening::RightFourthFileRook.family(), Family::StaticRook);
    /// assert_eq!(Opening::CentralRook.family(), Family::RangingRook);
    /// ```
    #[must_use]
    pub const fn family(self) -> Family {
        match self {
            Opening::StaticRook | Opening::SleeveRook | Opening::RightFourthFileRook => {
                Family::StaticRook
            }
            Opening::CentralRook
            | Opening::FourthFileRook
            | Opening::ThirdFileRook
            | Opening::OpposingRook => Family::RangingRook,
        }
    }

    /// The opening of a rook on `file`, counted from the side's right
    /// (2 is the rook's own file); `None` for files 1 and 9, which name no opening.
    ///
    /// ```
    /// use shogi_record::strategy::Opening;
    /// assert_eq!(Opening::on_file(7), Some(Opening::ThirdFileRook));
    /// assert_eq!(Opening::on_file(9), None);
    /// ```
    #[must_use]
    pub const fn on_file(file: u8) -> Option<Opening> {
        Some(match file {
            2 => Opening::StaticRook,
            3 => Opening::SleeveRook,
            4 => Opening::RightFourthFileRook,
            5 => Opening::CentralRook,
            6 => Opening::FourthFileRook,
            7 => Opening::ThirdFileRook,
            8 => Opening::OpposingRook,
            _ => return None,
        })
    }
}

/// One side's rook, watched move by move through the opening.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RookWatch {
    /// The opening decided so far (`None`: the side has no rook).
    pub(crate) opening: Option<Opening>,
    /// The first other Ranging Rook file the rook moved to afterwards.
    pub(crate) later: Option<Opening>,
}

impl RookWatch {
    /// A watch for `color` in `start`: Static Rook until its rook says otherwise.
    pub(crate) fn new(start: &Position, color: Color) -> RookWatch {
        let has_rook = start.pieces(color, PieceKind::Rook).any();
        RookWatch {
            opening: has_rook.then_some(Opening::StaticRook),
            later: None,
        }
    }

    /// Looks at `mv`, about to be played by `color` in `pos` at `ply` (1-based).
    pub(crate) fn on_move(&mut self, pos: &Position, color: Color, mv: Move, ply: usize) {
        let Some(current) = self.opening else { return };
        if ply > OPENING_PLIES {
            return;
        }
        let Move::Board { from, to, .. } = mv else {
            return;
        };
        let sideways_rook = pos
            .piece_at(from)
            .is_some_and(|p| p.color == color && p.kind == PieceKind::Rook)
            && from.rank() == to.rank()
            && pos.piece_at(to).is_none()
            && in_own_camp(to, color);
        if !sideways_rook {
            return;
        }
        let Some(opening) = Opening::on_file(relative(to, color).0) else {
            return;
        };
        match (current.family(), opening.family()) {
            (Family::StaticRook, Family::RangingRook) => {
                let king_file = pos.king(color).map_or(5, |k| relative(k, color).0);
                if king_file <= 5 {
                    self.opening = Some(opening);
                }
            }
            (Family::RangingRook, Family::RangingRook) => {
                if opening != current && self.later.is_none() {
                    self.later = Some(opening);
                }
            }
            (Family::StaticRook, Family::StaticRook) => {
                if current == Opening::StaticRook && opening != Opening::StaticRook {
                    self.opening = Some(opening);
                }
            }
            (Family::RangingRook, Family::StaticRook) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watch(moves: &str) -> [RookWatch; 2] {
        let mut pos = Position::startpos();
        let mut w = [
            RookWatch::new(&pos, Color::Sente),
            RookWatch::new(&pos, Color::Gote),
        ];
        for (i, m) in moves.split_whitespace().enumerate() {
            let mv: Move = m.parse().expect("usi move");
            let us = pos.side_to_move();
            w[us.index()].on_move(&pos, us, mv, i + 1);
            pos.play(mv).expect("legal");
        }
        w
    }

    #[test]
    fn files_count_from_the_sides_right() {
        assert_eq!(Opening::on_file(6), Some(Opening::FourthFileRook));
        assert_eq!(Opening::on_file(9), None);
        for o in Opening::ALL {
            assert!(
                Opening::ALL
                    .iter()
                    .filter(|x| x.family() == o.family())
                    .count()
                    >= 3
            );
        }
    }

    #[test]
    fn rook_swung_before_the_king_moves_left_is_ranging() {
        let w = watch("7g7f 3c3d 2g2f 4c4d 2f2e 8b4b");
        assert_eq!(w[1].opening, Some(Opening::FourthFileRook));
        assert_eq!(w[0].opening, Some(Opening::StaticRook));
    }

    #[test]
    fn rook_swung_beside_a_king_castled_left_stays_static() {
        // Sente's king walks to 7h, then its rook goes to 5h: a defence, not Central Rook.
        let w = watch("7g7f 3c3d 5i6h 8c8d 6h7h 8d8e 2h5h");
        assert_eq!(w[0].opening, Some(Opening::StaticRook));
    }

    #[test]
    fn second_ranging_file_is_kept_as_later() {
        let w = watch("7g7f 3c3d 2g2f 3d3e 6i7h 8b3b 2f2e 2b3c 5i6h 3b2b");
        assert_eq!(w[1].opening, Some(Opening::ThirdFileRook));
        assert_eq!(w[1].later, Some(Opening::OpposingRook));
    }

    #[test]
    fn no_rook_no_opening() {
        let pos = shogi_core::Handicap::Rook.position();
        assert_eq!(RookWatch::new(&pos, Color::Gote).opening, None);
        assert_eq!(
            RookWatch::new(&pos, Color::Sente).opening,
            Some(Opening::StaticRook)
        );
    }
}
