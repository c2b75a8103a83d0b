//! [`Position`]: a validated arrangement that moves can be played on.
//!
//! A position keeps the board both as a square array and as bitboards (by
//! owner, by kind, and the rotated occupancy for sliders), both hands, the
//! side to move, the pieces giving check and an incrementally updated Zobrist
//! key. Moves are played with [`Position::make_move`] and taken back with
//! [`Position::unmake_move`]; [`Position::play`] checks legality first.
//!
//! ```
//! use shogi_core::{Move, Position};
//! let mut pos = Position::startpos();
//! let m: Move = "7g7f".parse()?;
//! pos.play(m)?;
//! assert_eq!(pos.to_sfen(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use crate::attacks::{self, Alignment, Occupied};
use crate::{
    rules, zobrist, Bitboard, ByColor, Color, File, Hand, HandKind, Move, Piece, PieceKind, Setup,
    Square,
};

/// A legal shogi position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; 81],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 14],
    occ: Occupied,
    hands: [Hand; 2],
    side: Color,
    kings: [Option<Square>; 2],
    checkers: Bitboard,
    hash: u64,
    move_number: u32,
}

/// What [`Position::make_move`] returns so that [`Position::unmake_move`] can restore the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: Option<Piece>,
    checkers: Bitboard,
    hash: u64,
}

impl Undo {
    /// The piece the move captured, if any.
    #[must_use]
    pub fn captured(&self) -> Option<Piece> {
        self.captured
    }
}

/// Why a [`Setup`] is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// More pieces of a kind than the 40-piece set has (board and hands together).
    #[error("too many {kind:?} pieces: {count} (a set has {max})")]
    TooManyPieces {
        /// The base kind.
        kind: PieceKind,
        /// How many there are.
        count: u32,
        /// How many a set has.
        max: u32,
    },
    /// An unpromoted pawn, lance or knight on a rank it could never move from.
    #[error("{piece} on {square} could never move")]
    DeadPiece {
        /// The square.
        square: Square,
        /// The piece.
        piece: Piece,
    },
    /// Two unpromoted pawns of one side on a file.
    #[error("two unpromoted {color:?} pawns on file {}", file.number())]
    Nifu {
        /// The owner.
        color: Color,
        /// The file.
        file: File,
        /// The second pawn found.
        square: Square,
    },
    /// The side that is not to move is in check.
    #[error("the side not to move ({0:?}) is in check")]
    OpponentInCheck(Color),
    /// A side has no king.
    #[error("{0:?} has no king")]
    MissingKing(Color),
    /// A side has more than one king.
    #[error("{0:?} has more than one king")]
    TooManyKings(Color),
}

/// Which checks [`Position::from_setup_with`] may skip.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Leniency {
    /// Accept a setup in which a side has no king (tsume problems).
    pub allow_missing_kings: bool,
}

/// Why a move is not legal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum IllegalMove {
    /// There is no piece on the origin square.
    #[error("there is no piece on {0}")]
    NoPiece(Square),
    /// The piece on the origin square belongs to the opponent.
    #[error("the piece on {0} is not yours")]
    NotYourPiece(Square),
    /// The piece does not move that way.
    #[error("a {kind:?} cannot move from {from} to {to}")]
    BadDirection {
        /// The piece kind.
        kind: PieceKind,
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
    },
    /// A slider's path is blocked.
    #[error("the path from {from} to {to} is blocked")]
    PathBlocked {
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
    },
    /// The destination holds one of the mover's own pieces.
    #[error("{0} holds your own piece")]
    OwnPieceOnTarget(Square),
    /// The move leaves the mover's king attacked.
    #[error("the move leaves your king in check")]
    LeavesKingInCheck,
    /// A second unpromoted pawn on a file (nifu).
    #[error("nifu: you already have an unpromoted pawn on file {}", .0.number())]
    Nifu(File),
    /// A drop onto a square the piece could never move from.
    #[error("a dropped {kind:?} on {to} could never move")]
    DeadDrop {
        /// The kind dropped.
        kind: HandKind,
        /// The square.
        to: Square,
    },
    /// The piece could never move again unless it promotes.
    #[error("the piece must promote on {0}")]
    MustPromote(Square),
    /// The piece cannot promote on this move.
    #[error("the piece cannot promote on this move")]
    CannotPromote,
    /// A pawn drop that gives checkmate (uchifuzume).
    #[error("a pawn drop may not give checkmate (uchifuzume)")]
    PawnDropMate,
    /// The mover has no such piece in hand.
    #[error("you have no {0:?} in hand")]
    NotInHand(HandKind),
    /// A drop onto an occupied square.
    #[error("{0} is occupied")]
    DropOnOccupied(Square),
}

impl Position {
    /// The standard starting position.
    #[must_use]
    pub fn startpos() -> Position {
        // Built and validated once: the record readers start every record
        // from it (validating it each time was 14 % of reading the CSA records).
        static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
        START
            .get_or_init(|| {
                Position::from_setup(Setup::startpos()).expect("the start position is legal")
            })
            .clone()
    }

    /// Validates `setup` strictly (both kings required).
    ///
    /// # Errors
    /// The first rule the setup breaks.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        Position::from_setup_with(setup, Leniency::default())
    }

    /// Validates `setup`, skipping the checks `leniency` allows.
    ///
    /// # Errors
    /// The first rule the setup breaks.
    pub fn from_setup_with(setup: Setup, leniency: Leniency) -> Result<Position, PositionError> {
        for kind in [
            PieceKind::Pawn,
            PieceKind::Lance,
            PieceKind::Knight,
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
        ] {
            let count = setup.count_base_kind(kind);
            let max = u32::from(kind.set_count());
            if count > max {
                return Err(PositionError::TooManyPieces { kind, count, max });
            }
        }
        let mut pos = Position {
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 14],
            occ: Occupied::default(),
            hands: [setup.hands.sente, setup.hands.gote],
            side: setup.side_to_move,
            kings: [None; 2],
            checkers: Bitboard::EMPTY,
            hash: 0,
            move_number: setup.move_number.max(1),
        };
        for sq in Square::all() {
            let Some(piece) = setup.board[sq.index()] else {
                continue;
            };
            if !piece.kind.is_promoted() && rules::must_promote(piece.color, piece.kind, sq) {
                return Err(PositionError::DeadPiece { square: sq, piece });
            }
            if piece.kind == PieceKind::King {
                if pos.kings[piece.color.index()].is_some() {
                    return Err(PositionError::TooManyKings(piece.color));
                }
                pos.kings[piece.color.index()] = Some(sq);
            }
            pos.put(sq, piece);
        }
        for color in Color::ALL {
            let pawns = pos.pieces(color, PieceKind::Pawn);
            for file in File::ALL {
                let on_file = pawns & Bitboard::file(file);
                if on_file.more_than_one() {
                    let square = on_file
                        .iter()
                        .nth(1)
                        .unwrap_or(Square::new(file, crate::Rank::ALL[0]));
                    return Err(PositionError::Nifu {
                        color,
                        file,
                        square,
                    });
                }
            }
            if pos.kings[color.index()].is_none() && !leniency.allow_missing_kings {
                return Err(PositionError::MissingKing(color));
            }
        }
        let them = pos.side.opponent();
        if let Some(k) = pos.kings[them.index()] {
            if pos.attackers_to(k, pos.side, &pos.occ).any() {
                return Err(PositionError::OpponentInCheck(them));
            }
        }
        pos.hash = pos.compute_hash();
        pos.checkers = pos.compute_checkers();
        Ok(pos)
    }

    /// The arrangement of this position, as a [`Setup`].
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            hands: ByColor::new(self.hands[0], self.hands[1]),
            side_to_move: self.side,
            move_number: self.move_number,
        }
    }

    fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color.index()].insert(sq);
        self.by_kind[piece.kind.index()].insert(sq);
        self.occ.toggle(sq);
    }

    fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                h ^= zobrist::board(p.color, p.kind, sq);
            }
        }
        for color in Color::ALL {
            for kind in HandKind::ALL {
                for n in 1..=self.hands[color.index()].count(kind) {
                    h ^= zobrist::hand(color, kind, n);
                }
            }
        }
        if self.side == Color::Gote {
            h ^= zobrist::SIDE;
        }
        h
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.kings[self.side.index()] {
            Some(k) => self.attackers_to(k, self.side.opponent(), &self.occ),
            None => Bitboard::EMPTY,
        }
    }

    // -----------------------------------------------------------------------
    // Accessors

    /// The side to move.
    #[inline]
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The SFEN move number.
    #[inline]
    #[must_use]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The piece on `sq`.
    #[inline]
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// `color`'s hand.
    #[inline]
    #[must_use]
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    /// `color`'s king square, if it has a king.
    #[inline]
    #[must_use]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// All of `color`'s pieces.
    #[inline]
    #[must_use]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All pieces of `kind`, both colours.
    #[inline]
    #[must_use]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// `color`'s pieces of `kind`.
    #[inline]
    #[must_use]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// Every occupied square.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        self.occ.bitboard()
    }

    /// The occupancy in the form the slider tables need.
    #[inline]
    #[must_use]
    pub fn occupancy(&self) -> &Occupied {
        &self.occ
    }

    /// The opponent pieces giving check to the side to move.
    #[inline]
    #[must_use]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    #[must_use]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Whether the legal move `m` would check the opponent's king, directly
    /// or by uncovering a slider, decided without playing it. Always `false`
    /// when the opponent has no king.
    ///
    /// ```
    /// let pos = shogi_core::sfen::parse_position("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")?;
    /// assert!(pos.gives_check("G*5b".parse()?));
    /// assert!(!pos.gives_check("G*1b".parse()?));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let them = us.opponent();
        let Some(k) = self.kings[them.index()] else {
            return false;
        };
        match m {
            Move::Drop { kind, to } => {
                let kind = kind.piece_kind();
                if kind.is_slider() {
                    attacks::piece(us, kind, to, &self.occ).contains(k)
                } else {
                    attacks::step(us, kind, to).contains(k)
                }
            }
            Move::Board { from, to, promote } => {
                let Some(piece) = self.piece_at(from) else {
                    return false;
                };
                let kind = if promote {
                    piece.kind.promote().unwrap_or(piece.kind)
                } else {
                    piece.kind
                };
                let mut occ = self.occ.with_toggled(from);
                if self.piece_at(to).is_none() {
                    occ.toggle(to);
                }
                if attacks::piece(us, kind, to, &occ).contains(k) {
                    return true;
                }
                // Only a piece leaving a line through the king can uncover a check.
                let uncovered = match attacks::alignment(k, from) {
                    (Alignment::None, _) => return false,
                    (Alignment::File, _) => {
                        attacks::file(k, &occ)
                            & (self.rook_movers()
                                | (self.by_kind[PieceKind::Lance.index()]
                                    & attacks::lance_ray(them, k)))
                    }
                    (Alignment::Rank, _) => attacks::rank(k, &occ) & self.rook_movers(),
                    (Alignment::Diagonal, code) => {
                        attacks::diagonal_through(k, code, &occ) & self.bishop_movers()
                    }
                };
                let mut ours = uncovered & self.by_color[us.index()];
                // The moving piece itself (now on `to`) was judged above.
                ours.remove(from);
                ours.remove(to);
                ours.any()
            }
        }
    }

    /// The Zobrist key of board, hands and side to move.
    #[inline]
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The key [`Position::hash`] will have after the legal move `m`,
    /// computed without playing it (a search uses it to start fetching the
    /// next position's table entry early; [`Position::make_move`] takes its
    /// new key from here).
    ///
    /// ```
    /// use shogi_core::Position;
    /// let mut pos = Position::startpos();
    /// let m = "7g7f".parse()?;
    /// let key = pos.hash_after(m);
    /// pos.make_move(m);
    /// assert_eq!(pos.hash(), key);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    #[must_use]
    pub fn hash_after(&self, m: Move) -> u64 {
        let us = self.side;
        let hand = &self.hands[us.index()];
        let mut h = self.hash ^ zobrist::SIDE;
        match m {
            Move::Board { from, to, promote } => {
                let Some(piece) = self.board[from.index()] else {
                    return h;
                };
                if let Some(cap) = self.board[to.index()] {
                    h ^= zobrist::board(cap.color, cap.kind, to);
                    if let Some(hk) = cap.kind.hand_kind() {
                        h ^= zobrist::hand(us, hk, hand.count(hk) + 1);
                    }
                }
                let kind = if promote {
                    piece.kind.promoted_or_self()
                } else {
                    piece.kind
                };
                h ^= zobrist::board(us, piece.kind, from) ^ zobrist::board(us, kind, to);
            }
            Move::Drop { kind, to } => {
                h ^= zobrist::hand(us, kind, hand.count(kind));
                h ^= zobrist::board(us, kind.piece_kind(), to);
            }
        }
        h
    }

    /// The key recomputed from scratch (for testing the incremental one).
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    /// Pieces that move like a gold: gold and the four promoted minor pieces.
    #[inline]
    pub(crate) fn gold_movers(&self) -> Bitboard {
        self.by_kind[PieceKind::Gold.index()]
            | self.by_kind[PieceKind::ProPawn.index()]
            | self.by_kind[PieceKind::ProLance.index()]
            | self.by_kind[PieceKind::ProKnight.index()]
            | self.by_kind[PieceKind::ProSilver.index()]
    }

    #[inline]
    pub(crate) fn rook_movers(&self) -> Bitboard {
        self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Dragon.index()]
    }

    #[inline]
    pub(crate) fn bishop_movers(&self) -> Bitboard {
        self.by_kind[PieceKind::Bishop.index()] | self.by_kind[PieceKind::Horse.index()]
    }

    // -----------------------------------------------------------------------
    // Attacks

    /// `color`'s pieces that attack `sq`, given occupancy `occ`.
    #[inline]
    #[must_use]
    pub fn attackers_to(&self, sq: Square, color: Color, occ: &Occupied) -> Bitboard {
        let them = color.opponent();
        let k = &self.by_kind;
        let step = (attacks::pawn(them, sq) & k[PieceKind::Pawn.index()])
            | (attacks::knight(them, sq) & k[PieceKind::Knight.index()])
            | (attacks::silver(them, sq) & k[PieceKind::Silver.index()])
            | (attacks::gold(them, sq) & self.gold_movers())
            | (attacks::king(sq)
                & (k[PieceKind::King.index()]
                    | k[PieceKind::Horse.index()]
                    | k[PieceKind::Dragon.index()]));
        let slide = (attacks::bishop(sq, occ) & self.bishop_movers())
            | (attacks::rook(sq, occ)
                & (self.rook_movers()
                    | (k[PieceKind::Lance.index()] & attacks::lance_ray(them, sq))));
        (step | slide) & self.by_color[color.index()]
    }

    /// Whether any piece of `color` attacks `sq`, given occupancy `occ`.
    #[inline]
    #[must_use]
    pub fn is_attacked(&self, sq: Square, color: Color, occ: &Occupied) -> bool {
        self.attackers_to(sq, color, occ).any()
    }

    /// `color`'s pieces that are pinned to `color`'s own king.
    #[must_use]
    pub fn pinned(&self, color: Color) -> Bitboard {
        self.king_blockers(color) & self.by_color[color.index()]
    }

    /// The pieces of either colour that stand alone between `color`'s king
    /// and an enemy slider aimed at it: `color`'s own are pinned, the
    /// enemy's uncover a check when they move off the line.
    pub(crate) fn king_blockers(&self, color: Color) -> Bitboard {
        let Some(k) = self.kings[color.index()] else {
            return Bitboard::EMPTY;
        };
        let them = self.by_color[color.opponent().index()];
        let snipers = ((attacks::rook_pseudo(k) & self.rook_movers())
            | (attacks::bishop_pseudo(k) & self.bishop_movers())
            | (attacks::lance_ray(color, k) & self.by_kind[PieceKind::Lance.index()]))
            & them;
        let occ = self.occ.bitboard();
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(k, s) & occ;
            if !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    // -----------------------------------------------------------------------
    // Making moves

    /// Plays `m`, which must be legal (as from [`Position::legal_moves`] or
    /// checked with [`Position::check_move`]), and returns what
    /// [`Position::unmake_move`] needs to take it back.
    ///
    /// An illegal move leaves the position inconsistent; it never causes
    /// undefined behaviour, but may panic.
    #[inline(always)]
    pub fn make_move(&mut self, m: Move) -> Undo {
        let us = self.side;
        let mut undo = Undo {
            captured: None,
            checkers: self.checkers,
            hash: self.hash,
        };
        let hash = self.hash_after(m);
        let ui = us.index();
        let (to, kind) = match m {
            Move::Board { from, to, promote } => {
                let piece = self.board[from.index()].expect("make_move: no piece on origin");
                if let Some(cap) = self.board[to.index()] {
                    let ci = cap.color.index();
                    self.by_color[ci].toggle(to);
                    self.by_kind[cap.kind.index()].toggle(to);
                    if let Some(hk) = cap.kind.hand_kind() {
                        self.hands[ui].add(hk);
                    }
                    undo.captured = Some(cap);
                } else {
                    self.occ.toggle(to);
                }
                self.occ.toggle(from);
                let from_to = Bitboard::from_square(from) | Bitboard::from_square(to);
                self.by_color[ui] ^= from_to;
                let kind = if promote {
                    piece.kind.promoted_or_self()
                } else {
                    piece.kind
                };
                if kind == piece.kind {
                    self.by_kind[kind.index()] ^= from_to;
                } else {
                    self.by_kind[piece.kind.index()].toggle(from);
                    self.by_kind[kind.index()].toggle(to);
                }
                self.board[from.index()] = None;
                self.board[to.index()] = Some(Piece::new(us, kind));
                if kind == PieceKind::King {
                    self.kings[ui] = Some(to);
                }
                (to, kind)
            }
            Move::Drop { kind, to } => {
                self.hands[ui].remove(kind);
                let pk = kind.piece_kind();
                self.board[to.index()] = Some(Piece::new(us, pk));
                self.by_color[ui].toggle(to);
                self.by_kind[pk.index()].toggle(to);
                self.occ.toggle(to);
                (to, pk)
            }
        };
        self.side = us.opponent();
        self.hash = hash;
        self.move_number += 1;
        self.checkers = self.checks_after(m, to, kind);
        undo
    }

    /// The checkers after `m` (a `kind` now on `to`) was just made by the
    /// opponent of the side to move: the moved piece itself, and any slider
    /// uncovered on the origin square.
    #[inline(always)]
    fn checks_after(&self, m: Move, to: Square, kind: PieceKind) -> Bitboard {
        let them = self.side;
        let us = them.opponent();
        let Some(k) = self.kings[them.index()] else {
            return Bitboard::EMPTY;
        };
        let mut checkers = Bitboard::EMPTY;
        let direct = if kind.is_slider() {
            attacks::piece(us, kind, to, &self.occ).contains(k)
        } else {
            attacks::step(us, kind, to).contains(k)
        };
        if direct {
            checkers = Bitboard::from_square(to);
        }
        if let Move::Board { from, .. } = m {
            let uncovered = match attacks::alignment(k, from) {
                (Alignment::None, _) => return checkers,
                (Alignment::File, _) => {
                    attacks::file(k, &self.occ)
                        & (self.rook_movers()
                            | (self.by_kind[PieceKind::Lance.index()]
                                & attacks::lance_ray(them, k)))
                }
                (Alignment::Rank, _) => attacks::rank(k, &self.occ) & self.rook_movers(),
                (Alignment::Diagonal, code) => {
                    attacks::diagonal_through(k, code, &self.occ) & self.bishop_movers()
                }
            };
            checkers |= uncovered & self.by_color[us.index()];
        }
        checkers
    }

    /// Takes back `m`, which must be the last move made, with the `undo` it returned.
    #[inline(always)]
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        let us = self.side.opponent();
        let ui = us.index();
        self.side = us;
        self.move_number -= 1;
        self.hash = undo.hash;
        self.checkers = undo.checkers;
        match m {
            Move::Board { from, to, promote } => {
                let kind = self.board[to.index()]
                    .expect("unmake_move: no piece on destination")
                    .kind;
                let orig = if promote { kind.unpromote() } else { kind };
                let from_to = Bitboard::from_square(from) | Bitboard::from_square(to);
                self.by_color[ui] ^= from_to;
                if orig == kind {
                    self.by_kind[kind.index()] ^= from_to;
                } else {
                    self.by_kind[kind.index()].toggle(to);
                    self.by_kind[orig.index()].toggle(from);
                }
                self.board[from.index()] = Some(Piece::new(us, orig));
                self.occ.toggle(from);
                if orig == PieceKind::King {
                    self.kings[ui] = Some(from);
                }
                if let Some(cap) = undo.captured {
                    self.board[to.index()] = Some(cap);
                    self.by_color[cap.color.index()].toggle(to);
                    self.by_kind[cap.kind.index()].toggle(to);
                    if let Some(hk) = cap.kind.hand_kind() {
                        self.hands[ui].remove(hk);
                    }
                } else {
                    self.board[to.index()] = None;
                    self.occ.toggle(to);
                }
            }
            Move::Drop { kind, to } => {
                let pk = kind.piece_kind();
                self.board[to.index()] = None;
                self.by_color[ui].toggle(to);
                self.by_kind[pk.index()].toggle(to);
                self.occ.toggle(to);
                self.hands[ui].add(kind);
            }
        }
    }

    /// Passes the turn without moving (a null move, for search pruning); the
    /// move number is unchanged. The side to move must not be in check; the
    /// new side to move never is (in a legal position the side not to move
    /// is not in check).
    #[inline]
    pub fn make_null_move(&mut self) -> Undo {
        debug_assert!(!self.in_check(), "null move while in check");
        let undo = Undo {
            captured: None,
            checkers: self.checkers,
            hash: self.hash,
        };
        self.side = self.side.opponent();
        self.hash ^= zobrist::SIDE;
        self.checkers = Bitboard::EMPTY;
        undo
    }

    /// Takes back [`Position::make_null_move`].
    #[inline]
    pub fn unmake_null_move(&mut self, undo: Undo) {
        self.side = self.side.opponent();
        self.hash = undo.hash;
        self.checkers = undo.checkers;
    }

    /// Checks that `m` is legal here, saying why not.
    ///
    /// # Errors
    /// The reason the move is illegal.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        self.judge(m)
    }

    /// [`Position::check_move`]'s rules, inlined into both it and
    /// [`Position::is_legal`], where the reasons are dropped and only the
    /// verdict's tests are left (without a call, and without the empty-board
    /// attacks that tell a blocked path from a wrong direction).
    #[inline(always)]
    fn judge(&self, m: Move) -> Result<(), IllegalMove> {
        let us = self.side;
        match m {
            Move::Board { from, to, promote } => {
                let piece = self.piece_at(from).ok_or(IllegalMove::NoPiece(from))?;
                if piece.color != us {
                    return Err(IllegalMove::NotYourPiece(from));
                }
                if self.by_color[us.index()].contains(to) {
                    return Err(IllegalMove::OwnPieceOnTarget(to));
                }
                // A legal move reaches `to` through the real occupancy, so the
                // empty board (which tells a wrong direction from a blocked
                // path) is looked at only for a move that does not.
                // A stepping piece's squares are one table's entry.
                let reach = if piece.kind.is_slider() {
                    attacks::piece(us, piece.kind, from, &self.occ)
                } else {
                    attacks::step(us, piece.kind, from)
                };
                if !reach.contains(to) {
                    let empty_board = attacks::piece(us, piece.kind, from, &Occupied::default());
                    return Err(if empty_board.contains(to) {
                        IllegalMove::PathBlocked { from, to }
                    } else {
                        IllegalMove::BadDirection {
                            kind: piece.kind,
                            from,
                            to,
                        }
                    });
                }
                if promote {
                    if !rules::can_promote(us, piece.kind, from, to) {
                        return Err(IllegalMove::CannotPromote);
                    }
                } else if !piece.kind.is_promoted() && rules::must_promote(us, piece.kind, to) {
                    return Err(IllegalMove::MustPromote(to));
                }
            }
            Move::Drop { kind, to } => {
                if self.hands[us.index()].count(kind) == 0 {
                    return Err(IllegalMove::NotInHand(kind));
                }
                if self.occ.bitboard().contains(to) {
                    return Err(IllegalMove::DropOnOccupied(to));
                }
                if !rules::drop_zone(us, kind).contains(to) {
                    return Err(IllegalMove::DeadDrop { kind, to });
                }
                if kind == HandKind::Pawn {
                    if (self.pieces(us, PieceKind::Pawn) & Bitboard::file(to.file())).any() {
                        return Err(IllegalMove::Nifu(to.file()));
                    }
                    if self.is_pawn_drop_mate(to) {
                        return Err(IllegalMove::PawnDropMate);
                    }
                }
            }
        }
        if self.leaves_king_attacked(m) {
            return Err(IllegalMove::LeavesKingInCheck);
        }
        Ok(())
    }

    /// Whether a pseudo-legal move would leave the mover's king attacked,
    /// decided without playing it, by the move generator's own rules: the
    /// king may not step onto an attacked square (judged with the king lifted
    /// off the board); in double check only the king moves; in single check
    /// a move must capture the checker or block its line; a pinned piece
    /// stays on the line through its king.
    #[inline(always)]
    fn leaves_king_attacked(&self, m: Move) -> bool {
        let us = self.side;
        let Some(k) = self.kings[us.index()] else {
            return false;
        };
        let to = m.to();
        if m.from() == Some(k) {
            return self.is_attacked(to, us.opponent(), &self.occ.with_toggled(k));
        }
        if self.checkers.any() {
            // In check (seldom asked): only the king moves out of a double
            // check; a single one is taken or blocked.
            if self.checkers.more_than_one() {
                return true;
            }
            if let Some(c) = self.checkers.first() {
                if !(attacks::between(k, c) | self.checkers).contains(to) {
                    return true;
                }
            }
        }
        match m.from() {
            Some(from) => {
                // Pinned pieces stand on a line through the king, and one that
                // stays on its line stays a shield: the pins (the costliest
                // part of checking a move) are computed only for a piece
                // leaving such a line.
                attacks::aligned(k, from)
                    && !attacks::on_line_through(k, from, to)
                    && self.pinned(us).contains(from)
            }
            None => false,
        }
    }

    /// Checks and plays `m`; on error the position is unchanged.
    ///
    /// # Errors
    /// The reason the move is illegal.
    pub fn play(&mut self, m: Move) -> Result<Undo, IllegalMove> {
        self.check_move(m)?;
        Ok(self.make_move(m))
    }

    /// Whether `m` is legal here ([`Position::check_move`] without the
    /// reason).
    #[inline]
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        self.judge(m).is_ok()
    }

    /// Whether dropping a pawn on `to` by the side to move would checkmate the
    /// opponent (uchifuzume). Assumes the drop is otherwise possible.
    #[must_use]
    pub fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.side;
        let them = us.opponent();
        let Some(k) = self.kings[them.index()] else {
            return false;
        };
        if attacks::pawn(us, to) != Bitboard::from_square(k) {
            return false;
        }
        // Can a piece other than the king take the pawn? Pins along the file
        // through the pawn keep such a capture on the pin line, so the pins
        // computed before the drop give the right answer.
        let pinned = self.pinned(them);
        let capturers = self.attackers_to(to, them, &self.occ)
            & !self.by_kind[PieceKind::King.index()]
            & !(pinned & !attacks::line(k, to));
        if capturers.any() {
            return false;
        }
        // Can the king step to safety (the pawn's square included)?
        let occ_after = self.occ.with_toggled(to).with_toggled(k);
        let escapes = attacks::king(k) & !self.by_color[them.index()];
        for sq in escapes {
            // The dropped pawn defends nothing but `k`; `to` is attacked only by our other pieces.
            if !self.is_attacked(sq, us, &occ_after) {
                return false;
            }
        }
        true
    }

    /// Impasse points of `color`: 5 for each rook/bishop (promoted or not), 1 for
    /// every other piece but the king; on the board (only those in `area`) and in hand.
    #[must_use]
    pub fn impasse_points(&self, color: Color, area: Bitboard) -> u32 {
        let ours = self.by_color[color.index()] & area;
        let big = (self.bishop_movers() | self.rook_movers()) & ours;
        let small = ours & !big & !self.by_kind[PieceKind::King.index()];
        let hand = &self.hands[color.index()];
        let hand_points: u32 = HandKind::ALL
            .iter()
            .map(|&k| u32::from(hand.count(k)) * rules::impasse_points(k.piece_kind()))
            .sum();
        5 * big.count() + small.count() + hand_points
    }

    /// A position with the same pieces and hands, the other side to move,
    /// checked like any setup.
    ///
    /// # Errors
    /// If the side now not to move would be in check.
    pub fn with_side_to_move(&self, color: Color) -> Result<Position, PositionError> {
        let mut s = self.to_setup();
        s.side_to_move = color;
        Position::from_setup_with(
            s,
            Leniency {
                allow_missing_kings: true,
            },
        )
    }
}
