//! SFEN: the one-line text form of a position, as USI uses it.
//!
//! `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`: the board
//! rank by rank from rank a, each rank from file 9 to file 1 (upper case
//! Sente, lower case Gote, `+` before a promoted piece, digits for empty
//! squares), the side to move (`b` Sente, `w` Gote), the hands (`-` if both
//! are empty) and the move number.
//!
//! Writing uses the canonical hand order (Sente's pieces first, each side R B
//! G S N L P). Reading is lenient about the hands (any order, repeated
//! letters add up) and the move number (may be missing), and strict about
//! everything else: an error names the problem and its column (1-based).
//!
//! ```
//! use shogi_core::{sfen, Position};
//! let pos: Position = sfen::parse_position("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")?;
//! assert_eq!(pos, Position::startpos());
//! let err = sfen::parse_position("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R/LNSGKGSNL b - 1").unwrap_err();
//! assert_eq!(err.to_string(), "SFEN column 43: rank h has 8 squares, expected 9");
//! # Ok::<_, shogi_core::SfenError>(())
//! ```

use std::fmt::Write as _;

use crate::{
    Color, Hand, HandKind, Leniency, Piece, PieceKind, Position, PositionError, Rank, Setup, Square,
};

/// The SFEN of the standard starting position.
pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// What is wrong with an SFEN text, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("SFEN column {column}: {kind}")]
pub struct SfenError {
    /// 1-based column (in characters) of the problem.
    pub column: usize,
    /// The problem.
    pub kind: SfenErrorKind,
}

/// The problems an SFEN text can have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SfenErrorKind {
    /// Nothing to read.
    #[error("empty text, expected a board")]
    Empty,
    /// A field is missing.
    #[error("missing {0}")]
    MissingField(&'static str),
    /// A rank with more or fewer than nine squares.
    #[error("rank {rank} has {len} squares, expected 9")]
    BadRankLength {
        /// The rank letter.
        rank: char,
        /// How many squares it describes.
        len: usize,
    },
    /// Not nine ranks.
    #[error("the board has {0} ranks, expected 9")]
    BadRankCount(usize),
    /// A letter that is no piece.
    #[error("unknown piece letter {0:?}")]
    UnknownLetter(char),
    /// `+` before a piece that cannot promote, or at the end.
    #[error("'+' must come before a pawn, lance, knight, silver, bishop or rook")]
    BadPromotion,
    /// The side to move is not `b` or `w`.
    #[error("side to move {0:?}, expected b or w")]
    BadSide(String),
    /// A hand letter that cannot be in hand.
    #[error("{0:?} cannot be in hand")]
    BadHandLetter(char),
    /// A hand count that is zero, too large or not followed by a piece.
    #[error("bad hand count {0:?}")]
    BadHandCount(String),
    /// The move number is not a positive number.
    #[error("bad move number {0:?}")]
    BadMoveNumber(String),
    /// Text after the move number.
    #[error("unexpected text {0:?} after the move number")]
    Trailing(String),
    /// The arrangement breaks a rule.
    #[error("{0}")]
    Position(#[from] PositionError),
}

fn err(column: usize, kind: SfenErrorKind) -> SfenError {
    SfenError { column, kind }
}

/// Where each field and each piece stood in the text, for error columns.
struct Columns {
    square: [usize; 81],
    side: usize,
    hand: usize,
    board: usize,
}

/// Reads an SFEN into a [`Setup`] without judging it by the rules.
///
/// A leading `sfen ` is allowed.
///
/// # Errors
/// The first syntax problem, with its column.
pub fn parse_setup(text: &str) -> Result<Setup, SfenError> {
    parse_setup_columns(text).map(|(s, _)| s)
}

fn parse_setup_columns(text: &str) -> Result<(Setup, Columns), SfenError> {
    let fields = split_fields(text);
    let end_col = text.chars().count() + 1;
    let Some(&(board_col, board)) = fields.first() else {
        return Err(err(end_col, SfenErrorKind::Empty));
    };
    let mut setup = Setup::empty();
    let mut cols = Columns {
        square: [0; 81],
        side: end_col,
        hand: end_col,
        board: board_col,
    };
    parse_board(&mut setup, &mut cols, board_col, board)?;

    let Some(&(side_col, side)) = fields.get(1) else {
        return Err(err(
            end_col,
            SfenErrorKind::MissingField("side to move (b or w)"),
        ));
    };
    cols.side = side_col;
    setup.side_to_move = match side {
        "b" => Color::Sente,
        "w" => Color::Gote,
        _ => return Err(err(side_col, SfenErrorKind::BadSide(side.to_string()))),
    };

    let Some(&(hand_col, hand)) = fields.get(2) else {
        return Err(err(
            end_col,
            SfenErrorKind::MissingField("hands (- if empty)"),
        ));
    };
    cols.hand = hand_col;
    if hand != "-" {
        parse_hands(&mut setup, hand_col, hand)?;
    }

    // Move number (optional).
    if let Some(&(mcol, mn)) = fields.get(3) {
        setup.move_number = mn
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| err(mcol, SfenErrorKind::BadMoveNumber(mn.to_string())))?;
    }
    if let Some(&(tcol, t)) = fields.get(4) {
        return Err(err(tcol, SfenErrorKind::Trailing(t.to_string())));
    }
    Ok((setup, cols))
}

/// The whitespace-separated fields of `text`, each with its 1-based column, without a leading
/// `sfen`.
fn split_fields(text: &str) -> Vec<(usize, &str)> {
    let mut fields: Vec<(usize, &str)> = Vec::new();
    let mut start = None;
    for (col, (i, c)) in text.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((scol, si)) = start.take() {
                fields.push((scol, &text[si..i]));
            }
        } else if start.is_none() {
            start = Some((col + 1, i));
        }
    }
    if let Some((scol, si)) = start {
        fields.push((scol, &text[si..]));
    }
    if fields.first().map(|f| f.1) == Some("sfen") {
        fields.remove(0);
    }
    fields
}

/// Reads the board field (starting at column `board_col`) into `setup`, noting each piece's
/// column in `cols`.
fn parse_board(
    setup: &mut Setup,
    cols: &mut Columns,
    board_col: usize,
    board: &str,
) -> Result<(), SfenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    let mut col = board_col;
    for (r, rank_text) in ranks.iter().enumerate() {
        let filled = parse_rank(setup, cols, r, rank_text, col)?;
        if filled != 9 && r < 9 {
            return Err(err(
                col,
                SfenErrorKind::BadRankLength {
                    rank: Rank::ALL[r].letter(),
                    len: filled,
                },
            ));
        }
        col += rank_text.chars().count() + 1; // the rank and its '/'
    }
    if ranks.len() != 9 {
        return Err(err(board_col, SfenErrorKind::BadRankCount(ranks.len())));
    }
    Ok(())
}

/// Reads rank `r` (0-based; ranks past the ninth are read for their errors but place nothing)
/// starting at column `col`; returns how many squares it fills.
fn parse_rank(
    setup: &mut Setup,
    cols: &mut Columns,
    r: usize,
    rank_text: &str,
    mut col: usize,
) -> Result<usize, SfenError> {
    let mut file: usize = 9; // next file to fill, 9 down to 1
    let mut filled = 0usize;
    let mut promoted_col = None;
    for c in rank_text.chars() {
        match c {
            '1'..='9' if promoted_col.is_none() => {
                filled += c as usize - '0' as usize;
                file = file.saturating_sub(c as usize - '0' as usize);
            }
            '+' if promoted_col.is_none() => promoted_col = Some(col),
            _ => {
                let kind = PieceKind::from_sfen_letter(c.to_ascii_uppercase())
                    .ok_or_else(|| err(col, SfenErrorKind::UnknownLetter(c)))?;
                let kind = if let Some(pc) = promoted_col.take() {
                    kind.promote()
                        .ok_or_else(|| err(pc, SfenErrorKind::BadPromotion))?
                } else {
                    kind
                };
                let color = if c.is_ascii_uppercase() {
                    Color::Sente
                } else {
                    Color::Gote
                };
                filled += 1;
                if r < 9 && (1..=9).contains(&file) {
                    if let Some(sq) = Square::from_numbers(file as u8, r as u8 + 1) {
                        setup.board[sq.index()] = Some(Piece::new(color, kind));
                        cols.square[sq.index()] = col;
                    }
                }
                file = file.saturating_sub(1);
            }
        }
        col += 1;
    }
    if let Some(pc) = promoted_col {
        return Err(err(pc, SfenErrorKind::BadPromotion));
    }
    Ok(filled)
}

/// Reads the hands field (not `-`, starting at column `hand_col`) into `setup`.
fn parse_hands(setup: &mut Setup, hand_col: usize, hand: &str) -> Result<(), SfenError> {
    let mut count: Option<(usize, u32)> = None; // (column, value)
    for (i, c) in hand.chars().enumerate() {
        let ccol = hand_col + i;
        if let Some(d) = c.to_digit(10) {
            let (start, v) = count.unwrap_or((ccol, 0));
            let v = v * 10 + d;
            if v > 18 {
                return Err(err(start, SfenErrorKind::BadHandCount(v.to_string())));
            }
            count = Some((start, v));
            continue;
        }
        let kind = PieceKind::from_sfen_letter(c.to_ascii_uppercase())
            .and_then(PieceKind::hand_kind)
            .ok_or_else(|| err(ccol, SfenErrorKind::BadHandLetter(c)))?;
        let n = match count.take() {
            Some((start, 0)) => return Err(err(start, SfenErrorKind::BadHandCount("0".into()))),
            Some((_, v)) => v,
            None => 1,
        };
        let color = if c.is_ascii_uppercase() {
            Color::Sente
        } else {
            Color::Gote
        };
        let h = &mut setup.hands[color];
        let total = u32::from(h.count(kind)) + n;
        if total > u32::from(kind.max_count()) {
            return Err(err(
                ccol,
                SfenErrorKind::Position(PositionError::TooManyPieces {
                    kind: kind.piece_kind(),
                    count: total,
                    max: u32::from(kind.max_count()),
                }),
            ));
        }
        h.set(kind, total as u8);
    }
    if let Some((start, v)) = count {
        return Err(err(start, SfenErrorKind::BadHandCount(v.to_string())));
    }
    Ok(())
}

/// Reads an SFEN into a validated [`Position`] (both kings required).
///
/// # Errors
/// A syntax problem or a broken rule, with its column.
pub fn parse_position(text: &str) -> Result<Position, SfenError> {
    parse_position_with(text, Leniency::default())
}

/// Reads an SFEN into a [`Position`], skipping the checks `leniency` allows.
///
/// # Errors
/// A syntax problem or a broken rule, with its column.
pub fn parse_position_with(text: &str, leniency: Leniency) -> Result<Position, SfenError> {
    let (setup, cols) = parse_setup_columns(text)?;
    let board_order_col = |kind: PieceKind, max: u32| {
        // Column of the first piece of `kind` beyond the set's count, in text order.
        let mut seen: Vec<usize> = Square::all()
            .filter(|sq| setup.board[sq.index()].is_some_and(|p| p.kind.unpromote() == kind))
            .map(|sq| cols.square[sq.index()])
            .collect();
        seen.sort_unstable();
        seen.get(max as usize).copied().unwrap_or(cols.hand)
    };
    Position::from_setup_with(setup.clone(), leniency).map_err(|e| {
        let column = match &e {
            PositionError::DeadPiece { square, .. } | PositionError::Nifu { square, .. } => {
                cols.square[square.index()]
            }
            PositionError::TooManyPieces { kind, max, .. } => board_order_col(*kind, *max),
            PositionError::OpponentInCheck(_) => cols.side,
            PositionError::MissingKing(_) | PositionError::TooManyKings(_) => cols.board,
        };
        err(column, SfenErrorKind::Position(e))
    })
}

/// Writes `setup` as SFEN (canonical hand order).
#[must_use]
pub fn setup_to_sfen(setup: &Setup) -> String {
    // One allocation: the board is at most 81 + 8 characters, the rest short.
    let mut s = String::with_capacity(128);
    let push_empty = |s: &mut String, empty: u8| {
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
    };
    for r in 1..=9u8 {
        let mut empty = 0;
        for f in (1..=9u8).rev() {
            let sq = Square::from_numbers(f, r).unwrap_or(Square::from_index(0).expect("square 0"));
            match setup.board[sq.index()] {
                Some(p) => {
                    push_empty(&mut s, empty);
                    empty = 0;
                    s.push_str(p.sfen());
                }
                None => empty += 1,
            }
        }
        push_empty(&mut s, empty);
        if r < 9 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(setup.side_to_move.to_sfen());
    s.push(' ');
    write_hands(&mut s, &setup.hands.sente, &setup.hands.gote);
    let _ = write!(s, " {}", setup.move_number);
    s
}

/// Appends the SFEN hand field of two hands (`-` if both are empty).
fn write_hands(out: &mut String, sente: &Hand, gote: &Hand) {
    let before = out.len();
    sente.write_sfen_part(out, true);
    gote.write_sfen_part(out, false);
    if out.len() == before {
        out.push('-');
    }
}

/// The SFEN hand field for two hands (`-` if both are empty).
#[must_use]
pub fn hands_to_sfen(sente: &Hand, gote: &Hand) -> String {
    let mut h = String::new();
    write_hands(&mut h, sente, gote);
    h
}

impl Position {
    /// Reads an SFEN (see [`parse_position`]).
    ///
    /// # Errors
    /// A syntax problem or a broken rule, with its column.
    pub fn from_sfen(text: &str) -> Result<Position, SfenError> {
        parse_position(text)
    }

    /// Writes the position as SFEN.
    #[must_use]
    pub fn to_sfen(&self) -> String {
        setup_to_sfen(&self.to_setup())
    }
}

impl Setup {
    /// Writes the setup as SFEN.
    #[must_use]
    pub fn to_sfen(&self) -> String {
        setup_to_sfen(self)
    }
}

impl std::str::FromStr for Position {
    type Err = SfenError;
    fn from_str(s: &str) -> Result<Position, SfenError> {
        parse_position(s)
    }
}

impl HandKind {
    /// The upper-case SFEN letter.
    #[must_use]
    pub fn sfen_letter(self) -> char {
        self.piece_kind().sfen().chars().next().unwrap_or('?')
    }
}
