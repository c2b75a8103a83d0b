//! Castles (囲い): the shapes a side's king and generals make, as a table.
//!
//! Each [`Castle`] is a king square and a few pieces on given squares,
//! written in Sente's coordinates on the wing where the castle is usually
//! built; Gote's are read by turning the board around. Castles that are
//! also built on the other wing (Left Mino, Right Yagura, Ranging Rook
//! Anaguma) match the mirror image too. The table is searched in order and
//! the first shape that fits names the castle, so a fuller castle (High
//! Mino) is found before the part of it that is also a castle (Half Mino).
//!
//! ```
//! use shogi_core::{Color, Position};
//! use shogi_record::strategy::{castle_of, Castle};
//! let mut pos = Position::startpos();
//! // ▲7六歩 △3四歩 ▲6八玉 △8四歩 ▲7八玉 △8五歩 ▲5八金右: a Boat castle.
//! for m in ["7g7f", "3c3d", "5i6h", "8c8d", "6h7h", "8d8e", "4i5h"] {
//!     pos.play(m.parse()?)?;
//! }
//! assert_eq!(castle_of(&pos, Color::Sente), Some(Castle::Funagakoi));
//! assert_eq!(castle_of(&pos, Color::Gote), None);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use shogi_core::{Color, PieceKind, Position};

use super::relative::{absolute, relative};

/// A named castle.
///
/// ```
/// use shogi_record::strategy::{Castle, Lang};
/// assert_eq!(Castle::Mino.name(Lang::Ja), "美濃囲い");
/// assert_eq!(Castle::StaticAnaguma.name(Lang::En), "Static Rook Anaguma");
/// assert_eq!("silver_crown".parse::<Castle>(), Ok(Castle::Ginkanmuri));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Castle {
    /// Mino (美濃囲い, 本美濃): K 2h, S 3h, G 4i, G 5h; Left Mino mirrored.
    Mino,
    /// Half Mino (片美濃囲い): K 2h, S 3h, G 4i, the other gold elsewhere.
    KataMino,
    /// High Mino (高美濃囲い): K 2h, S 3h, G 4g, G 4i.
    Takamino,
    /// Silver Crown (銀冠): K 2h, S 2g, G 3h.
    Ginkanmuri,
    /// Kimura Mino (木村美濃): K 2h, G 3h, S 4g.
    KimuraMino,
    /// Peerless Golds (金無双): K 3h, G 4h, G 5h.
    KinMuso,
    /// Static Rook Anaguma (居飛車穴熊): K 9i, L 9h, a silver or gold on 8h.
    StaticAnaguma,
    /// Ranging Rook Anaguma (振り飛車穴熊): K 1i, L 1h, a silver or gold on 2h.
    RangingAnaguma,
    /// Gold Yagura (金矢倉): K 8h, S 7g, G 6g, G 7h; Right Yagura mirrored.
    Yagura,
    /// Silver Yagura (銀矢倉): K 8h, S 7g, S 6g, G 7h.
    GinYagura,
    /// Half Yagura (片矢倉): K 7h, S 7g, G 6g, G 6h.
    KataYagura,
    /// Quick Yagura (矢倉早囲い): K 7h, S 7g, G 6g.
    QuickYagura,
    /// Gangi (雁木囲い): S 6g, S 5g, a gold on 7h or 5h, K on 6i, 7i, 7h, 8h or 8i.
    Gangi,
    /// Elmo (エルモ囲い): K 7h, S 6h, G 7i.
    Elmo,
    /// Boat (舟囲い): K 7h, G 6i, G 5h.
    Funagakoi,
}

impl Castle {
    /// Every castle, in the order of the table (most specific first within a kind).
    pub const ALL: [Castle; 15] = [
        Castle::Mino,
        Castle::KataMino,
        Castle::Takamino,
        Castle::Ginkanmuri,
        Castle::KimuraMino,
        Castle::KinMuso,
        Castle::StaticAnaguma,
        Castle::RangingAnaguma,
        Castle::Yagura,
        Castle::GinYagura,
        Castle::KataYagura,
        Castle::QuickYagura,
        Castle::Gangi,
        Castle::Elmo,
        Castle::Funagakoi,
    ];

    /// Whether the castle is one of the Yagura shapes.
    ///
    /// ```
    /// use shogi_record::strategy::Castle;
    /// assert!(Castle::QuickYagura.is_yagura());
    /// assert!(!Castle::Gangi.is_yagura());
    /// ```
    #[must_use]
    pub const fn is_yagura(self) -> bool {
        matches!(
            self,
            Castle::Yagura | Castle::GinYagura | Castle::KataYagura | Castle::QuickYagura
        )
    }
}

/// Squares in Sente's coordinates, `(file, rank)`.
type Squares = &'static [(u8, u8)];

/// One of `kinds` (the side's own, unpromoted) on one of `on`.
struct Need {
    kinds: &'static [PieceKind],
    on: Squares,
}

/// A castle's shape on its usual wing.
struct Shape {
    castle: Castle,
    /// What the mirror image (file f ↔ 10 - f) is called, if it is a castle.
    mirrored: Option<Castle>,
    king: Squares,
    needs: &'static [Need],
}

const G: &[PieceKind] = &[PieceKind::Gold];
const S: &[PieceKind] = &[PieceKind::Silver];
const L: &[PieceKind] = &[PieceKind::Lance];
const GS: &[PieceKind] = &[PieceKind::Gold, PieceKind::Silver];

const fn need(kinds: &'static [PieceKind], on: Squares) -> Need {
    Need { kinds, on }
}

/// The table, searched in order: the first shape that fits names the castle.
const SHAPES: &[Shape] = &[
    Shape {
        castle: Castle::StaticAnaguma,
        mirrored: Some(Castle::RangingAnaguma),
        king: &[(9, 9)],
        needs: &[need(L, &[(9, 8)]), need(GS, &[(8, 8)])],
    },
    Shape {
        castle: Castle::Ginkanmuri,
        mirrored: Some(Castle::Ginkanmuri),
        king: &[(2, 8)],
        needs: &[need(S, &[(2, 7)]), need(G, &[(3, 8)])],
    },
    Shape {
        castle: Castle::Takamino,
        mirrored: Some(Castle::Takamino),
        king: &[(2, 8)],
        needs: &[need(S, &[(3, 8)]), need(G, &[(4, 7)]), need(G, &[(4, 9)])],
    },
    Shape {
        castle: Castle::KimuraMino,
        mirrored: None,
        king: &[(2, 8)],
        needs: &[need(G, &[(3, 8)]), need(S, &[(4, 7)])],
    },
    Shape {
        castle: Castle::Mino,
        mirrored: Some(Castle::Mino),
        king: &[(2, 8)],
        needs: &[need(S, &[(3, 8)]), need(G, &[(4, 9)]), need(G, &[(5, 8)])],
    },
    Shape {
        castle: Castle::KataMino,
        mirrored: Some(Castle::KataMino),
        king: &[(2, 8)],
        needs: &[need(S, &[(3, 8)]), need(G, &[(4, 9)])],
    },
    Shape {
        castle: Castle::KinMuso,
        mirrored: None,
        king: &[(3, 8)],
        needs: &[need(G, &[(4, 8)]), need(G, &[(5, 8)])],
    },
    Shape {
        castle: Castle::Yagura,
        mirrored: Some(Castle::Yagura),
        king: &[(8, 8)],
        needs: &[need(S, &[(7, 7)]), need(G, &[(6, 7)]), need(G, &[(7, 8)])],
    },
    Shape {
        castle: Castle::GinYagura,
        mirrored: Some(Castle::GinYagura),
        king: &[(8, 8)],
        needs: &[need(S, &[(7, 7)]), need(S, &[(6, 7)]), need(G, &[(7, 8)])],
    },
    Shape {
        castle: Castle::KataYagura,
        mirrored: Some(Castle::KataYagura),
        king: &[(7, 8)],
        needs: &[need(S, &[(7, 7)]), need(G, &[(6, 7)]), need(G, &[(6, 8)])],
    },
    Shape {
        castle: Castle::QuickYagura,
        mirrored: None,
        king: &[(7, 8)],
        needs: &[need(S, &[(7, 7)]), need(G, &[(6, 7)])],
    },
    Shape {
        castle: Castle::Gangi,
        mirrored: None,
        king: &[(6, 9), (7, 9), (7, 8), (8, 8), (8, 9)],
        needs: &[
            need(S, &[(6, 7)]),
            need(S, &[(5, 7)]),
            need(G, &[(7, 8), (5, 8)]),
        ],
    },
    Shape {
        castle: Castle::Elmo,
        mirrored: None,
        king: &[(7, 8)],
        needs: &[need(S, &[(6, 8)]), need(G, &[(7, 9)])],
    },
    Shape {
        castle: Castle::Funagakoi,
        mirrored: None,
        king: &[(7, 8)],
        needs: &[need(G, &[(6, 9)]), need(G, &[(5, 8)])],
    },
];

/// Whether `shape` fits `color`'s pieces, read mirrored if `mirror`.
fn fits(pos: &Position, color: Color, king: (u8, u8), shape: &Shape, mirror: bool) -> bool {
    let flip = |(f, r): (u8, u8)| if mirror { (10 - f, r) } else { (f, r) };
    if !shape.king.iter().any(|&k| flip(k) == king) {
        return false;
    }
    shape.needs.iter().all(|n| {
        n.on.iter().any(|&sq| {
            let (f, r) = flip(sq);
            absolute(color, f, r)
                .and_then(|s| pos.piece_at(s))
                .is_some_and(|p| p.color == color && n.kinds.contains(&p.kind))
        })
    })
}

/// The castle `color`'s king sits in, if any: the first shape of the table
/// that fits, on its usual wing or, for castles built on both, mirrored.
///
/// ```
/// use shogi_core::{Color, Position};
/// use shogi_record::strategy::{castle_of, Castle};
/// // Gote's Mino: K 8b, S 7b, G 6a, G 5b.
/// let pos: Position = "ln1g3nl/1ks1g2r1/ppppp1ppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL b Bbs 1".parse()?;
/// assert_eq!(castle_of(&pos, Color::Gote), Some(Castle::Mino));
/// # Ok::<_, shogi_core::SfenError>(())
/// ```
#[must_use]
pub fn castle_of(pos: &Position, color: Color) -> Option<Castle> {
    let king = relative(pos.king(color)?, color);
    SHAPES.iter().find_map(|shape| {
        if fits(pos, color, king, shape, false) {
            Some(shape.castle)
        } else {
            shape
                .mirrored
                .filter(|_| fits(pos, color, king, shape, true))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_castle_has_one_shape_or_is_a_mirror() {
        for c in Castle::ALL {
            let homes = SHAPES.iter().filter(|s| s.castle == c).count();
            let mirrors = SHAPES.iter().filter(|s| s.mirrored == Some(c)).count();
            assert!(homes == 1 || mirrors == 1, "{c:?}");
        }
    }

    #[test]
    fn start_position_is_no_castle() {
        let pos = Position::startpos();
        assert_eq!(castle_of(&pos, Color::Sente), None);
        assert_eq!(castle_of(&pos, Color::Gote), None);
    }

    #[test]
    fn gote_castles_are_read_turned_around() {
        // Gote's Mino: K 8b, S 7b, G 6a, G 5b.
        let pos: Position = shogi_core::sfen::parse_position(
            "ln1g3nl/1ks1g2r1/ppppp1ppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL b Bbs 1",
        )
        .expect("sfen");
        assert_eq!(castle_of(&pos, Color::Gote), Some(Castle::Mino));
    }
}
