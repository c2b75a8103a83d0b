//! Piece kinds and pieces.
//!
//! [`PieceKind`] has the eight base kinds and the six promoted ones;
//! [`HandKind`] is the seven kinds that can be held in hand and dropped, so a
//! drop of a king or of a promoted piece cannot even be written.
//!
//! ```
//! use shogi_core::{Color, HandKind, Piece, PieceKind};
//! assert_eq!(PieceKind::Silver.promote(), Some(PieceKind::ProSilver));
//! assert_eq!(PieceKind::Dragon.unpromote(), PieceKind::Rook);
//! assert_eq!(PieceKind::Horse.hand_kind(), Some(HandKind::Bishop));
//! let p = Piece::new(Color::Gote, PieceKind::Knight);
//! assert_eq!(p.to_sfen(), "n");
//! ```

use std::fmt;

use crate::Color;

/// The fourteen kinds of piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// 歩 pawn.
    Pawn = 0,
    /// 香 lance.
    Lance = 1,
    /// 桂 knight.
    Knight = 2,
    /// 銀 silver general.
    Silver = 3,
    /// 金 gold general.
    Gold = 4,
    /// 角 bishop.
    Bishop = 5,
    /// 飛 rook.
    Rook = 6,
    /// 玉/王 king.
    King = 7,
    /// と promoted pawn (tokin).
    ProPawn = 8,
    /// 成香 promoted lance.
    ProLance = 9,
    /// 成桂 promoted knight.
    ProKnight = 10,
    /// 成銀 promoted silver.
    ProSilver = 11,
    /// 馬 horse (promoted bishop).
    Horse = 12,
    /// 龍 dragon (promoted rook).
    Dragon = 13,
}

impl PieceKind {
    /// All fourteen kinds in index order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// Index 0-13.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The promoted kind, if this kind can promote.
    #[inline]
    #[must_use]
    pub const fn promote(self) -> Option<PieceKind> {
        match self {
            PieceKind::Pawn => Some(PieceKind::ProPawn),
            PieceKind::Lance => Some(PieceKind::ProLance),
            PieceKind::Knight => Some(PieceKind::ProKnight),
            PieceKind::Silver => Some(PieceKind::ProSilver),
            PieceKind::Bishop => Some(PieceKind::Horse),
            PieceKind::Rook => Some(PieceKind::Dragon),
            _ => None,
        }
    }

    /// The promoted kind if this kind can promote, else itself.
    #[inline]
    #[must_use]
    pub const fn promoted_or_self(self) -> PieceKind {
        PROMOTED_OR_SELF[self as usize]
    }

    /// Whether this kind slides (lance, bishop, rook, horse, dragon).
    #[inline]
    #[must_use]
    pub const fn is_slider(self) -> bool {
        matches!(
            self,
            PieceKind::Lance
                | PieceKind::Bishop
                | PieceKind::Rook
                | PieceKind::Horse
                | PieceKind::Dragon
        )
    }

    /// The unpromoted kind (itself for base kinds).
    #[inline]
    #[must_use]
    pub const fn unpromote(self) -> PieceKind {
        UNPROMOTED[self as usize]
    }

    const fn unpromote_slow(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        }
    }

    /// Whether this is a promoted kind.
    #[inline]
    #[must_use]
    pub const fn is_promoted(self) -> bool {
        self as u8 >= 8
    }

    /// Whether this kind can promote (pawn, lance, knight, silver, bishop, rook).
    #[inline]
    #[must_use]
    pub const fn can_promote(self) -> bool {
        self.promote().is_some()
    }

    /// The kind this piece becomes in the capturer's hand (`None` for the king).
    #[inline]
    #[must_use]
    pub const fn hand_kind(self) -> Option<HandKind> {
        HandKind::from_index(self.unpromote() as usize)
    }

    /// The SFEN letter in upper case, with `+` for promoted kinds (`P`, `+R`).
    #[must_use]
    pub const fn sfen(self) -> &'static str {
        [
            "P", "L", "N", "S", "G", "B", "R", "K", "+P", "+L", "+N", "+S", "+B", "+R",
        ][self as usize]
    }

    /// The CSA two-letter name (`FU`, `KY`, ... `RY`).
    #[must_use]
    pub const fn csa(self) -> &'static str {
        [
            "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
        ][self as usize]
    }

    /// The one-character kanji used in board diagrams (`歩`, `と`, `龍`, ...).
    #[must_use]
    pub const fn kanji(self) -> char {
        [
            '歩', '香', '桂', '銀', '金', '角', '飛', '玉', 'と', '杏', '圭', '全', '馬', '龍',
        ][self as usize]
    }

    /// Parses an upper-case SFEN letter without `+` (`P` ... `K`).
    #[must_use]
    pub const fn from_sfen_letter(c: char) -> Option<PieceKind> {
        match c {
            'P' => Some(PieceKind::Pawn),
            'L' => Some(PieceKind::Lance),
            'N' => Some(PieceKind::Knight),
            'S' => Some(PieceKind::Silver),
            'G' => Some(PieceKind::Gold),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }

    /// The kind with this index (0-13).
    #[must_use]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i < 14 {
            Some(PieceKind::ALL[i])
        } else {
            None
        }
    }

    /// How many pieces of this base kind (promoted or not) a full 40-piece set has.
    #[must_use]
    pub const fn set_count(self) -> u8 {
        match self.unpromote() {
            PieceKind::Pawn => 18,
            PieceKind::Bishop | PieceKind::Rook | PieceKind::King => 2,
            _ => 4,
        }
    }
}

const UNPROMOTED: [PieceKind; 14] = {
    let mut t = PieceKind::ALL;
    let mut i = 0;
    while i < 14 {
        t[i] = PieceKind::ALL[i].unpromote_slow();
        i += 1;
    }
    t
};

const PROMOTED_OR_SELF: [PieceKind; 14] = {
    let mut t = PieceKind::ALL;
    let mut i = 0;
    while i < 14 {
        if let Some(p) = PieceKind::ALL[i].promote() {
            t[i] = p;
        }
        i += 1;
    }
    t
};

/// The seven kinds a player can hold in hand and drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum HandKind {
    /// 歩 pawn.
    Pawn = 0,
    /// 香 lance.
    Lance = 1,
    /// 桂 knight.
    Knight = 2,
    /// 銀 silver.
    Silver = 3,
    /// 金 gold.
    Gold = 4,
    /// 角 bishop.
    Bishop = 5,
    /// 飛 rook.
    Rook = 6,
}

impl HandKind {
    /// All seven, pawn first.
    pub const ALL: [HandKind; 7] = [
        HandKind::Pawn,
        HandKind::Lance,
        HandKind::Knight,
        HandKind::Silver,
        HandKind::Gold,
        HandKind::Bishop,
        HandKind::Rook,
    ];

    /// The canonical SFEN hand order: R B G S N L P.
    pub const SFEN_ORDER: [HandKind; 7] = [
        HandKind::Rook,
        HandKind::Bishop,
        HandKind::Gold,
        HandKind::Silver,
        HandKind::Knight,
        HandKind::Lance,
        HandKind::Pawn,
    ];

    /// Index 0-6 (pawn 0 ... rook 6), the same as the [`PieceKind`] index.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index (0-6).
    #[inline]
    #[must_use]
    pub const fn from_index(i: usize) -> Option<HandKind> {
        if i < 7 {
            Some(HandKind::ALL[i])
        } else {
            None
        }
    }

    /// The board kind of a dropped piece (never promoted).
    #[inline]
    #[must_use]
    pub const fn piece_kind(self) -> PieceKind {
        PieceKind::ALL[self as usize]
    }

    /// The most pieces of this kind one hand can hold (all but none on the board).
    #[must_use]
    pub const fn max_count(self) -> u8 {
        self.piece_kind().set_count()
    }
}

impl From<HandKind> for PieceKind {
    fn from(k: HandKind) -> PieceKind {
        k.piece_kind()
    }
}

/// A piece: a kind and its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Who owns it.
    pub color: Color,
    /// What it is.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `kind` owned by `color`.
    #[inline]
    #[must_use]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// SFEN text: upper case for Sente, lower case for Gote, `+` before promoted kinds.
    ///
    /// ```
    /// use shogi_core::{Color, Piece, PieceKind};
    /// assert_eq!(Piece::new(Color::Gote, PieceKind::ProSilver).sfen(), "+s");
    /// assert_eq!(Piece::new(Color::Sente, PieceKind::Rook).sfen(), "R");
    /// ```
    #[must_use]
    pub const fn sfen(self) -> &'static str {
        const GOTE: [&str; 14] = [
            "p", "l", "n", "s", "g", "b", "r", "k", "+p", "+l", "+n", "+s", "+b", "+r",
        ];
        match self.color {
            Color::Sente => self.kind.sfen(),
            Color::Gote => GOTE[self.kind as usize],
        }
    }

    /// [`Piece::sfen`] as an owned string.
    #[must_use]
    pub fn to_sfen(self) -> String {
        self.sfen().to_owned()
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.sfen())
    }
}
