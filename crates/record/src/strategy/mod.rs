//! Strategy names for a game: each side's opening family and castles, and
//! the game's line, by documented rules on the positions of its opening.
//!
//! [`classify`] (or [`Record::strategy`]) plays the game's first
//! [`CASTLE_PLIES`] plies once and watches:
//!
//! - each side's rook ([`family`]): Static Rook or Ranging Rook, and on which file;
//! - each side's king ([`castle`]): the castles it sits in, in the order built;
//! - the game as a whole ([`line`](mod@line)): Yagura, Bishop Exchange, Double Wing
//!   Attack, Side Pawn Capture, Gangi, Double Ranging Rook or Static against
//!   Ranging.
//!
//! Every tag has a stable id and a name in Japanese, English, Russian and
//! Ukrainian ([`names`]). The rules, with their squares in both sides'
//! coordinates and their known misses, are in `docs/STRATEGY.md`.
//!
//! Only games from the even start or a standard handicap are tagged; a side
//! without a rook (the handicap giver in rook handicaps) has no opening, and
//! a game has a line only when both sides have one.
//!
//! ```
//! use shogi_record::strategy::{Castle, Family, Lang, Line, Opening};
//! // ▲7六歩 △3四歩 ▲2六歩 △4四歩 ▲4八銀 △4二飛: Gote plays Fourth-file Rook.
//! let rec = shogi_record::usi::read("position startpos moves 7g7f 3c3d 2g2f 4c4d 3i4h 8b4b")?;
//! let s = rec.strategy();
//! assert_eq!(s.sente().opening, Some(Opening::StaticRook));
//! assert_eq!(s.gote().opening, Some(Opening::FourthFileRook));
//! assert_eq!(s.gote().family(), Some(Family::RangingRook));
//! assert_eq!(s.line, Some(Line::StaticVsRanging));
//! assert_eq!(s.line.map(|l| l.name(Lang::Ja)), Some("対抗形"));
//! # Ok::<_, shogi_record::ReadError>(())
//! ```

pub mod castle;
pub mod family;
pub mod line;
pub mod names;
mod relative;

use shogi_core::{ByColor, Color, Handicap, Move, Position};

pub use castle::{castle_of, Castle};
pub use family::{Family, Opening, OPENING_PLIES};
pub use line::{Line, EXCHANGE_PLIES, YOKOFUDORI_PLIES};
pub use names::{Lang, UnknownName};

use crate::Record;
use family::RookWatch;
use line::LineWatch;

/// How many plies from the start castles are looked for: long enough for an
/// Anaguma or a Silver Crown, short enough that a king running in the
/// endgame does not pass for a castle.
pub const CASTLE_PLIES: usize = 80;

/// What one side played.
///
/// ```
/// use shogi_record::strategy::{Castle, Family, Opening};
/// // ▲7六歩 △3四歩 ▲6八玉 △8四歩 ▲7八玉 △8五歩 ▲5八金右
/// let rec = shogi_record::usi::read("position startpos moves 7g7f 3c3d 5i6h 8c8d 6h7h 8d8e 4i5h")?;
/// let sente = rec.strategy().sente().clone();
/// assert_eq!(sente.opening, Some(Opening::StaticRook));
/// assert_eq!(sente.family(), Some(Family::StaticRook));
/// assert_eq!(sente.castles, [Castle::Funagakoi]);
/// # Ok::<_, shogi_record::ReadError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideStrategy {
    /// The opening (`None`: the side has no rook, or the game did not start
    /// from a standard position).
    pub opening: Option<Opening>,
    /// A second Ranging Rook file the rook moved to in the opening
    /// (三間飛車 then 向かい飛車).
    pub later_opening: Option<Opening>,
    /// The castles the side's king sat in, in the order first built.
    pub castles: Vec<Castle>,
}

impl SideStrategy {
    /// The side's family, from its opening.
    #[must_use]
    pub fn family(&self) -> Option<Family> {
        self.opening.map(Opening::family)
    }
}

/// The strategy tags of a game.
///
/// ```
/// let rec = shogi_record::usi::read("position startpos moves 7g7f 3c3d")?;
/// let s = rec.strategy();
/// assert_eq!(s.line, Some(shogi_record::strategy::Line::DoubleStaticRook));
/// assert!(s.sente().castles.is_empty());
/// # Ok::<_, shogi_record::ReadError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Strategy {
    /// Each side's opening and castles.
    pub sides: ByColor<SideStrategy>,
    /// The game's line, when both sides have an opening.
    pub line: Option<Line>,
}

impl Strategy {
    /// Sente's (下手's, in a handicap game) tags.
    #[must_use]
    pub fn sente(&self) -> &SideStrategy {
        &self.sides[Color::Sente]
    }

    /// Gote's (上手's, in a handicap game) tags.
    #[must_use]
    pub fn gote(&self) -> &SideStrategy {
        &self.sides[Color::Gote]
    }
}

/// Tags the game that starts at `start` and plays `moves` (stopping at the
/// first illegal one). Reads at most [`CASTLE_PLIES`] moves, once, without
/// allocating beyond the castle lists.
///
/// ```
/// use shogi_core::{Move, Position};
/// use shogi_record::strategy::{classify, Line};
/// let moves: Vec<Move> = "7g7f 8c8d 2g2f 4a3b 6i7h 8d8e 8h7g 3c3d 7i8h 2b7g+ 8h7g"
///     .split(' ')
///     .map(str::parse)
///     .collect::<Result<_, _>>()?;
/// assert_eq!(classify(&Position::startpos(), moves).line, Some(Line::Kakugawari));
/// # Ok::<_, shogi_core::UsiMoveError>(())
/// ```
#[must_use]
pub fn classify<I: IntoIterator<Item = Move>>(start: &Position, moves: I) -> Strategy {
    if Handicap::from_position(start).is_none() {
        return Strategy::default();
    }
    let mut pos = start.clone();
    let mut rooks = ByColor::new(
        RookWatch::new(start, Color::Sente),
        RookWatch::new(start, Color::Gote),
    );
    let mut castles: ByColor<Vec<Castle>> = ByColor::default();
    let mut line = LineWatch::new();
    for (i, mv) in moves.into_iter().take(CASTLE_PLIES).enumerate() {
        let ply = i + 1;
        if !pos.is_legal(mv) {
            break;
        }
        let us = pos.side_to_move();
        rooks[us].on_move(&pos, us, mv, ply);
        line.on_move(&pos, us, mv, ply);
        pos.make_move(mv);
        line.after(&pos, ply);
        if let Some(castle) = castle_of(&pos, us) {
            line.castle_formed(us, castle);
            if !castles[us].contains(&castle) {
                castles[us].push(castle);
            }
        }
    }
    let side = |c: Color, castles: Vec<Castle>| SideStrategy {
        opening: rooks[c].opening,
        later_opening: rooks[c].later,
        castles,
    };
    let ByColor { sente, gote } = castles;
    Strategy {
        line: line.line(rooks[Color::Sente].opening, rooks[Color::Gote].opening),
        sides: ByColor::new(side(Color::Sente, sente), side(Color::Gote, gote)),
    }
}

impl Record {
    /// The strategy tags of the main line (see [`classify`]).
    ///
    /// ```
    /// let rec = shogi_record::usi::read("position startpos moves 7g7f 3c3d 7f7e 8c8d 2h7h")?;
    /// assert_eq!(rec.strategy().sente().opening, Some(shogi_record::strategy::Opening::ThirdFileRook));
    /// # Ok::<_, shogi_record::ReadError>(())
    /// ```
    #[must_use]
    pub fn strategy(&self) -> Strategy {
        classify(&self.start, self.moves.iter().map(|n| n.mv))
    }
}

#[cfg(test)]
mod tests;
