//! The game's line (戦型): Double Static Rook lines (Yagura, Bishop Exchange,
//! Double Wing Attack, Side Pawn Capture, Gangi), Double Ranging Rook, and
//! Static Rook against Ranging Rook.
//!
//! Double Static Rook games are named by the first rule that holds, in this
//! order (squares in Sente's coordinates, Gote's turned around; see
//! `docs/STRATEGY.md`):
//!
//! 1. Side Pawn Capture (横歩取り): within the first [`YOKOFUDORI_PLIES`]
//!    plies a rook on 2d takes the pawn on 3d sideways (Gote: 8f takes 7f).
//! 2. Bishop Exchange (角換わり): within the first [`EXCHANGE_PLIES`] plies,
//!    with only pawns captured before, a bishop takes the other bishop and is
//!    taken back at once.
//! 3. Double Wing Attack (相掛かり): within the first [`EXCHANGE_PLIES`]
//!    plies both rook pawns stand on the fifth rank (2e and 8e) while both
//!    bishops' diagonals are still closed (pawns on 7g and 3c).
//! 4. Yagura: a side's first castle of the Yagura and Gangi kinds is a
//!    Yagura (see [`Castle`]).
//! 5. Gangi: a side's first castle of those kinds is a Gangi.
//! 6. Otherwise plain Double Static Rook.
//!
//! ```
//! use shogi_record::strategy::{Lang, Line};
//! assert_eq!(Line::Kakugawari.name(Lang::Ja), "角換わり");
//! assert_eq!(Line::Kakugawari.name(Lang::En), "Bishop Exchange");
//! assert!(Line::Yokofudori.is_double_static());
//! ```

use shogi_core::{ByColor, Color, Move, PieceKind, Position, Square};

use super::castle::Castle;
use super::family::{Family, Opening};
use super::relative::relative;

/// Plies within which a rook taking the side pawn makes the game Side Pawn Capture.
pub const YOKOFUDORI_PLIES: usize = 40;

/// Plies within which the bishops' exchange (Bishop Exchange) or the rook
/// pawns' advance (Double Wing Attack) name the game.
pub const EXCHANGE_PLIES: usize = 30;

/// A game's line.
///
/// ```
/// use shogi_record::strategy::{Line, Lang};
/// assert_eq!(Line::DoubleRangingRook.name(Lang::Ru), "Обоюдная смещённая ладья");
/// assert_eq!(Line::Yagura.id(), "yagura");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Line {
    /// Double Static Rook (相居飛車) with none of the lines below.
    DoubleStaticRook,
    /// Yagura (矢倉): Double Static Rook where a side's first castle of the
    /// Yagura and Gangi kinds is a Yagura.
    Yagura,
    /// Bishop Exchange (角換わり).
    Kakugawari,
    /// Double Wing Attack (相掛かり).
    Aigakari,
    /// Side Pawn Capture (横歩取り).
    Yokofudori,
    /// Gangi (雁木): Double Static Rook where a side builds a Gangi and
    /// neither side a Yagura before its Gangi.
    Gangi,
    /// Double Ranging Rook (相振り飛車): both sides range their rooks.
    DoubleRangingRook,
    /// Static Rook against Ranging Rook (対抗形).
    StaticVsRanging,
}

impl Line {
    /// Every line.
    pub const ALL: [Line; 8] = [
        Line::DoubleStaticRook,
        Line::Yagura,
        Line::Kakugawari,
        Line::Aigakari,
        Line::Yokofudori,
        Line::Gangi,
        Line::DoubleRangingRook,
        Line::StaticVsRanging,
    ];

    /// Whether this is one of the Double Static Rook lines (相居飛車).
    ///
    /// ```
    /// use shogi_record::strategy::Line;
    /// assert!(Line::Gangi.is_double_static());
    /// assert!(!Line::StaticVsRanging.is_double_static());
    /// ```
    #[must_use]
    pub const fn is_double_static(self) -> bool {
        !matches!(self, Line::DoubleRangingRook | Line::StaticVsRanging)
    }
}

/// The square `(file, rank)` in Sente's coordinates.
const fn square(file: u8, rank: u8) -> Square {
    match Square::from_numbers(file, rank) {
        Some(sq) => sq,
        None => panic!("square off the board"),
    }
}

/// Double Wing Attack's pawns: the rook pawns on the fifth rank and the
/// bishops' pawns still on their start squares.
const AIGAKARI_PAWNS: [(Color, Square); 4] = [
    (Color::Sente, square(2, 5)),
    (Color::Gote, square(8, 5)),
    (Color::Sente, square(7, 7)),
    (Color::Gote, square(3, 3)),
];

/// The Double Static Rook lines a move or a position can prove, strongest first.
const PROVABLE: [Line; 3] = [Line::Yokofudori, Line::Kakugawari, Line::Aigakari];

/// What the line rules have seen so far, fed every ply of the opening.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineWatch {
    /// The strongest of [`PROVABLE`] seen so far.
    proven: Option<Line>,
    /// Only pawns have been captured so far.
    only_pawns: bool,
    /// A bishop took the other bishop at this ply on this square.
    bishop_taken: Option<(usize, Square)>,
    /// Each side's first castle of the Yagura and Gangi kinds.
    first_double_static_castle: ByColor<Option<Castle>>,
}

impl LineWatch {
    pub(crate) fn new() -> LineWatch {
        LineWatch {
            proven: None,
            only_pawns: true,
            bishop_taken: None,
            first_double_static_castle: ByColor::default(),
        }
    }

    /// Looks at `mv`, about to be played by `color` in `pos` at `ply` (1-based).
    pub(crate) fn on_move(&mut self, pos: &Position, color: Color, mv: Move, ply: usize) {
        let bishop_taken = self.bishop_taken.take();
        let Move::Board { from, to, .. } = mv else {
            return;
        };
        let mover = pos.piece_at(from).map(|p| p.kind);
        let Some(taken) = pos.piece_at(to).map(|p| p.kind) else {
            return;
        };
        if ply <= YOKOFUDORI_PLIES
            && mover == Some(PieceKind::Rook)
            && taken == PieceKind::Pawn
            && relative(from, color) == (2, 4)
            && relative(to, color) == (3, 4)
        {
            self.prove(Line::Yokofudori);
        }
        if bishop_taken.is_some_and(|(at, sq)| at + 1 == ply && sq == to) {
            self.prove(Line::Kakugawari);
        }
        if ply <= EXCHANGE_PLIES
            && self.only_pawns
            && mover == Some(PieceKind::Bishop)
            && taken == PieceKind::Bishop
        {
            self.bishop_taken = Some((ply, to));
        }
        self.only_pawns &= taken == PieceKind::Pawn;
    }

    /// Looks at the position after the move of `ply`.
    pub(crate) fn after(&mut self, pos: &Position, ply: usize) {
        if ply > EXCHANGE_PLIES || self.proven.is_some() {
            return;
        }
        let aigakari = AIGAKARI_PAWNS.iter().all(|&(color, sq)| {
            pos.piece_at(sq)
                .is_some_and(|p| p.color == color && p.kind == PieceKind::Pawn)
        });
        if aigakari {
            self.prove(Line::Aigakari);
        }
    }

    /// Keeps `line` if it is stronger than what was proven before.
    fn prove(&mut self, line: Line) {
        let rank = |l: Line| PROVABLE.iter().position(|&x| x == l);
        if self.proven.is_none_or(|p| rank(line) < rank(p)) {
            self.proven = Some(line);
        }
    }

    /// Notes that `color`'s king sits in `castle`.
    pub(crate) fn castle_formed(&mut self, color: Color, castle: Castle) {
        let first = &mut self.first_double_static_castle[color];
        if first.is_none() && (castle.is_yagura() || castle == Castle::Gangi) {
            *first = Some(castle);
        }
    }

    /// The line of a game whose sides play `sente` and `gote`.
    pub(crate) fn line(&self, sente: Option<Opening>, gote: Option<Opening>) -> Option<Line> {
        Some(match (sente?.family(), gote?.family()) {
            (Family::RangingRook, Family::RangingRook) => Line::DoubleRangingRook,
            (Family::StaticRook, Family::RangingRook)
            | (Family::RangingRook, Family::StaticRook) => Line::StaticVsRanging,
            (Family::StaticRook, Family::StaticRook) => self.double_static_line(),
        })
    }

    fn double_static_line(&self) -> Line {
        let firsts = [
            self.first_double_static_castle.sente,
            self.first_double_static_castle.gote,
        ];
        if let Some(line) = self.proven {
            line
        } else if firsts.iter().flatten().any(|c| c.is_yagura()) {
            Line::Yagura
        } else if firsts.contains(&Some(Castle::Gangi)) {
            Line::Gangi
        } else {
            Line::DoubleStaticRook
        }
    }
}
