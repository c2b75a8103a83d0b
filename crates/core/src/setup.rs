//! [`Setup`]: any arrangement of pieces, hands and side to move, valid or not.
//!
//! A `Setup` is what a text format describes; [`Position::from_setup`](crate::Position::from_setup)
//! checks it against the rules and turns it into a playable [`Position`](crate::Position).
//! A tsume problem without the attacker's king is a `Setup` that
//! [`Position::from_setup_with`](crate::Position::from_setup_with) accepts when told to allow
//! missing kings.
//!
//! ```
//! use shogi_core::{Color, Piece, PieceKind, Setup};
//! let mut s = Setup::empty();
//! s.set("5a".parse()?, Some(Piece::new(Color::Gote, PieceKind::King)));
//! assert_eq!(s.piece_at("5a".parse()?).map(|p| p.kind), Some(PieceKind::King));
//! # Ok::<_, shogi_core::SquareParseError>(())
//! ```

use crate::{ByColor, Color, Hand, HandKind, Piece, PieceKind, Square};

/// An arrangement of pieces on the board and in hand, with the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The piece on each square, by [`Square::index`].
    pub board: [Option<Piece>; 81],
    /// Both hands.
    pub hands: ByColor<Hand>,
    /// Who moves next.
    pub side_to_move: Color,
    /// The SFEN move number (1 at the start of a game).
    pub move_number: u32,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::empty()
    }
}

impl Setup {
    /// An empty board, empty hands, Sente to move, move number 1.
    #[must_use]
    pub fn empty() -> Setup {
        Setup {
            board: [None; 81],
            hands: ByColor::default(),
            side_to_move: Color::Sente,
            move_number: 1,
        }
    }

    /// The standard starting arrangement.
    #[must_use]
    pub fn startpos() -> Setup {
        let mut s = Setup::empty();
        let back = [
            PieceKind::Lance,
            PieceKind::Knight,
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::King,
            PieceKind::Gold,
            PieceKind::Silver,
            PieceKind::Knight,
            PieceKind::Lance,
        ];
        for (f, &kind) in back.iter().enumerate() {
            let f = f as u8 + 1;
            s.put(f, 1, Color::Gote, kind);
            s.put(f, 9, Color::Sente, kind);
            s.put(f, 3, Color::Gote, PieceKind::Pawn);
            s.put(f, 7, Color::Sente, PieceKind::Pawn);
        }
        s.put(8, 2, Color::Gote, PieceKind::Rook);
        s.put(2, 2, Color::Gote, PieceKind::Bishop);
        s.put(8, 8, Color::Sente, PieceKind::Bishop);
        s.put(2, 8, Color::Sente, PieceKind::Rook);
        s
    }

    fn put(&mut self, file: u8, rank: u8, color: Color, kind: PieceKind) {
        if let Some(sq) = Square::from_numbers(file, rank) {
            self.board[sq.index()] = Some(Piece::new(color, kind));
        }
    }

    /// The piece on `sq`.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Puts `piece` on `sq` (or empties it).
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece;
    }

    /// How many pieces of base kind `kind` (promoted or not) are on the board and in both hands.
    #[must_use]
    pub fn count_base_kind(&self, kind: PieceKind) -> u32 {
        let kind = kind.unpromote();
        let on_board = self
            .board
            .iter()
            .flatten()
            .filter(|p| p.kind.unpromote() == kind)
            .count() as u32;
        let in_hand = kind.hand_kind().map_or(0, |hk| {
            u32::from(self.hands.sente.count(hk)) + u32::from(self.hands.gote.count(hk))
        });
        on_board + in_hand
    }

    /// The pieces a full set has that this setup lacks, as a hand (kings excluded).
    /// Handicap games may credit these to the handicap giver in impasse counts.
    #[must_use]
    pub fn missing_pieces(&self) -> Hand {
        let mut h = Hand::default();
        for hk in HandKind::ALL {
            let have = self.count_base_kind(hk.piece_kind());
            let full = u32::from(hk.max_count());
            h.set(hk, full.saturating_sub(have) as u8);
        }
        h
    }
}
