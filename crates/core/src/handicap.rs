//! The standard handicaps (駒落ち) as data: a name, the KIF `手合割` name and
//! the starting SFEN. The handicap giver plays Gote and moves first.
//!
//! ```
//! use shogi_core::Handicap;
//! let h: Handicap = "rook".parse()?;
//! assert_eq!(h.kif_name(), "飛車落ち");
//! assert_eq!(h.position().side_to_move(), shogi_core::Color::Gote);
//! assert_eq!(Handicap::from_kif_name("平手"), Some(Handicap::Even));
//! # Ok::<_, shogi_core::UnknownHandicap>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::{sfen, Position};

/// A standard starting position: even or one of the handicaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 平手: no handicap.
    Even,
    /// 香落ち: the giver's left lance (1a).
    Lance,
    /// 右香落ち: the giver's right lance (9a).
    RightLance,
    /// 角落ち: bishop.
    Bishop,
    /// 飛車落ち: rook.
    Rook,
    /// 飛香落ち: rook and left lance.
    RookLance,
    /// 二枚落ち: rook and bishop.
    TwoPieces,
    /// 三枚落ち: rook, bishop, left lance.
    ThreePieces,
    /// 四枚落ち: rook, bishop, both lances.
    FourPieces,
    /// 五枚落ち: four pieces and the left knight.
    FivePieces,
    /// 左五枚落ち: four pieces and the right knight.
    LeftFivePieces,
    /// 六枚落ち: rook, bishop, lances, knights.
    SixPieces,
    /// 左七枚落ち: six pieces and the right silver.
    LeftSevenPieces,
    /// 右七枚落ち: six pieces and the left silver.
    RightSevenPieces,
    /// 八枚落ち: everything but king, golds and pawns.
    EightPieces,
    /// 十枚落ち: only the king and the pawns.
    TenPieces,
}

struct Entry {
    h: Handicap,
    name: &'static str,
    kif: &'static str,
    board: &'static str,
}

const REST: &str = "/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";

const TABLE: [Entry; 16] = [
    Entry {
        h: Handicap::Even,
        name: "even",
        kif: "平手",
        board: "lnsgkgsnl/1r5b1",
    },
    Entry {
        h: Handicap::Lance,
        name: "lance",
        kif: "香落ち",
        board: "lnsgkgsn1/1r5b1",
    },
    Entry {
        h: Handicap::RightLance,
        name: "right-lance",
        kif: "右香落ち",
        board: "1nsgkgsnl/1r5b1",
    },
    Entry {
        h: Handicap::Bishop,
        name: "bishop",
        kif: "角落ち",
        board: "lnsgkgsnl/1r7",
    },
    Entry {
        h: Handicap::Rook,
        name: "rook",
        kif: "飛車落ち",
        board: "lnsgkgsnl/7b1",
    },
    Entry {
        h: Handicap::RookLance,
        name: "rook-lance",
        kif: "飛香落ち",
        board: "lnsgkgsn1/7b1",
    },
    Entry {
        h: Handicap::TwoPieces,
        name: "2",
        kif: "二枚落ち",
        board: "lnsgkgsnl/9",
    },
    Entry {
        h: Handicap::ThreePieces,
        name: "3",
        kif: "三枚落ち",
        board: "lnsgkgsn1/9",
    },
    Entry {
        h: Handicap::FourPieces,
        name: "4",
        kif: "四枚落ち",
        board: "1nsgkgsn1/9",
    },
    Entry {
        h: Handicap::FivePieces,
        name: "5",
        kif: "五枚落ち",
        board: "2sgkgsn1/9",
    },
    Entry {
        h: Handicap::LeftFivePieces,
        name: "left-5",
        kif: "左五枚落ち",
        board: "1nsgkgs2/9",
    },
    Entry {
        h: Handicap::SixPieces,
        name: "6",
        kif: "六枚落ち",
        board: "2sgkgs2/9",
    },
    Entry {
        h: Handicap::LeftSevenPieces,
        name: "left-7",
        kif: "左七枚落ち",
        board: "2sgkg3/9",
    },
    Entry {
        h: Handicap::RightSevenPieces,
        name: "right-7",
        kif: "右七枚落ち",
        board: "3gkgs2/9",
    },
    Entry {
        h: Handicap::EightPieces,
        name: "8",
        kif: "八枚落ち",
        board: "3gkg3/9",
    },
    Entry {
        h: Handicap::TenPieces,
        name: "10",
        kif: "十枚落ち",
        board: "4k4/9",
    },
];

/// A handicap name that is not in the table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown handicap {0:?}; expected one of: even, lance, right-lance, bishop, rook, rook-lance, 2, 3, 4, 5, left-5, 6, left-7, right-7, 8, 10")]
pub struct UnknownHandicap(pub String);

impl Handicap {
    /// Every standard start, even first.
    pub const ALL: [Handicap; 16] = [
        Handicap::Even,
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPieces,
        Handicap::ThreePieces,
        Handicap::FourPieces,
        Handicap::FivePieces,
        Handicap::LeftFivePieces,
        Handicap::SixPieces,
        Handicap::LeftSevenPieces,
        Handicap::RightSevenPieces,
        Handicap::EightPieces,
        Handicap::TenPieces,
    ];

    fn entry(self) -> &'static Entry {
        &TABLE[self as usize]
    }

    /// The short English name used on the command line (`rook`, `2`, `left-7`).
    #[must_use]
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The KIF `手合割` name (`平手`, `香落ち`, ...).
    #[must_use]
    pub fn kif_name(self) -> &'static str {
        self.entry().kif
    }

    /// The starting SFEN (Sente to move when even, Gote otherwise).
    #[must_use]
    pub fn sfen(self) -> String {
        let side = if self == Handicap::Even { 'b' } else { 'w' };
        format!("{}{REST} {side} - 1", self.entry().board)
    }

    /// The starting position.
    #[must_use]
    pub fn position(self) -> Position {
        // Parsed and validated once: record readers ask for the start of
        // every record they read (parsing it each time was 5 % of reading
        // the KIF records) and `from_position` for all sixteen.
        static POSITIONS: std::sync::OnceLock<Vec<Position>> = std::sync::OnceLock::new();
        POSITIONS.get_or_init(|| {
            Handicap::ALL
                .iter()
                .map(|h| {
                    sfen::parse_position(&h.sfen()).expect("handicap table holds legal positions")
                })
                .collect()
        })[self as usize]
            .clone()
    }

    /// The handicap with this KIF `手合割` name.
    #[must_use]
    pub fn from_kif_name(name: &str) -> Option<Handicap> {
        let name = name.trim();
        TABLE.iter().find(|e| e.kif == name).map(|e| e.h)
    }

    /// The handicap whose start is exactly this position (board, hands, side), if any.
    #[must_use]
    pub fn from_position(pos: &Position) -> Option<Handicap> {
        Handicap::ALL.into_iter().find(|h| {
            let p = h.position();
            p.hash() == pos.hash() && p.to_setup().board == pos.to_setup().board
        })
    }
}

impl fmt::Display for Handicap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Handicap {
    type Err = UnknownHandicap;
    fn from_str(s: &str) -> Result<Handicap, UnknownHandicap> {
        let key = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        let alias = match key.as_str() {
            "none" | "startpos" => "even",
            "rook+lance" | "rook-and-lance" => "rook-lance",
            "left5" => "left-5",
            "left7" => "left-7",
            "right7" => "right-7",
            "rightlance" => "right-lance",
            other => other,
        };
        let alias = alias.trim_end_matches("-pieces");
        TABLE
            .iter()
            .find(|e| e.name == alias)
            .map(|e| e.h)
            .or_else(|| Handicap::from_kif_name(s))
            .ok_or_else(|| UnknownHandicap(s.to_string()))
    }
}
