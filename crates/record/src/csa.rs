//! CSA records, versions 2.2 and 3.0.
//!
//! Read: `V2.2`/`V3.0`; `N+`/`N-` names; `$EVENT`, `$SITE`, `$START_TIME`,
//! `$END_TIME`, `$TIME_LIMIT`, `$TIME` (main+byoyomi+increment), `$OPENING`,
//! `$JISHOGI`, `$MAX_MOVES` and any other `$KEY:value`; `PI` with removed
//! pieces (`PI82HI22KA`); `P1`-`P9` board lines (three-character cells, or
//! cells separated by single spaces); `P+`/`P-` lines placing pieces or putting
//! them in hand (`P+00KI`, `P-00AL` for all the rest); the `+`/`-` side line;
//! moves (`+7776FU`); `T` times; `'` comments (`'*text` is a comment on the
//! move above, other `'` lines are file remarks and are skipped); several
//! statements on a line separated by `,`; and the `%` endings `%TORYO`,
//! `%CHUDAN`, `%SENNICHITE`, `%OUTE_SENNICHITE`, `%ILLEGAL_MOVE`,
//! `%+ILLEGAL_ACTION`, `%-ILLEGAL_ACTION`, `%JISHOGI`, `%KACHI`, `%HIKIWAKE`,
//! `%MATTA`, `%TSUMI`, `%FUZUMI`, `%ERROR`, `%TIME_UP`, `%MAX_MOVES`, and
//! this crate's `%TRY`.
//!
//! A file may hold several records, a line holding only `/` between each
//! and the next (CSA V2.2 and V3.0, section 2.1): [`read`] reads one
//! record and refuses a second ([`ReadErrorKind::SeveralRecords`] at its
//! separator; a separator followed by nothing but comments and blank lines
//! ends the record), [`records`] finds each one's text and
//! [`crate::read_each`] reads them all.
//!
//! `%ILLEGAL_MOVE`, `%TIME_UP`, `%TORYO`, `%TSUMI` apply to the side to move
//! (it lost) and `%KACHI` too (it declared and won); `%OUTE_SENNICHITE` is
//! taken as lost by the side that moved last; `%TRY` (this crate's word, see
//! [`write`]) is a try-rule win by the side that moved last.
//!
//! ```
//! let rec = shogi_record::csa::read("V2.2\nN+Sente\nPI\n+\n+7776FU,T3\n-3334FU\n%TORYO\n")?;
//! assert_eq!(rec.headers.sente.as_deref(), Some("Sente"));
//! assert_eq!(rec.moves[0].time, Some(3));
//! assert!(matches!(rec.ending, shogi_record::Ending::Game(shogi_core::Ending::Resignation { .. })));
//! let again = shogi_record::csa::read(&shogi_record::csa::write(&rec))?;
//! assert_eq!(again.main_line(), rec.main_line());
//! # Ok::<_, shogi_record::ReadError>(())
//! ```

use std::fmt::Write as _;

use shogi_core::{
    Color, Ending as GameEnding, Foul, HandKind, Move, Piece, PieceKind, Position, Setup, Square,
};

use crate::builder::{lenient_start, Builder};
use crate::encoding::{self, Encoding};
use crate::error::{ReadError, ReadErrorKind};
use crate::record::{Ending, MoveProblem, Record, TimeControl};
use crate::scan;

/// A foul a CSA word names without the rule.
fn foul(loser: Color) -> Ending {
    Ending::Game(GameEnding::Foul {
        loser,
        foul: Foul::Unspecified,
    })
}

/// `%+ILLEGAL_ACTION` or `%-ILLEGAL_ACTION`: `loser` broke the rules.
fn illegal_action(loser: Color) -> &'static str {
    match loser {
        Color::Sente => "+ILLEGAL_ACTION",
        Color::Gote => "-ILLEGAL_ACTION",
    }
}

/// The ending a CSA special word (without `%`; also a JKF `special`) means, `stm` to move
/// after the last move.
pub(crate) fn special_ending(word: &str, stm: Color) -> Option<Ending> {
    let game = |e: GameEnding| Some(Ending::Game(e));
    match word {
        "TORYO" => game(GameEnding::Resignation { loser: stm }),
        "CHUDAN" => game(GameEnding::Abort),
        "SENNICHITE" => game(GameEnding::Repetition),
        "OUTE_SENNICHITE" => game(GameEnding::PerpetualCheck {
            loser: stm.opponent(),
        }),
        "ILLEGAL_MOVE" => Some(foul(stm)),
        "+ILLEGAL_ACTION" => Some(foul(Color::Sente)),
        "-ILLEGAL_ACTION" => Some(foul(Color::Gote)),
        "JISHOGI" => game(GameEnding::Impasse { winner: None }),
        "KACHI" => game(GameEnding::Impasse { winner: Some(stm) }),
        "TRY" => game(GameEnding::Try {
            winner: stm.opponent(),
        }),
        "HIKIWAKE" => game(GameEnding::DrawAgreement),
        "TSUMI" => game(GameEnding::Checkmate { loser: stm }),
        "TIME_UP" => game(GameEnding::Timeout { loser: stm }),
        "MAX_MOVES" => game(GameEnding::MaxMoves),
        "MATTA" => Some(Ending::Matta),
        "FUZUMI" => Some(Ending::NoMate),
        "ERROR" => Some(Ending::Error),
        _ => None,
    }
}

/// The CSA special word (without `%`; also a JKF `special`) for `ending`, `stm` to move after
/// the last move; `None` for no ending and for [`Ending::Sealed`], which CSA lacks.
///
/// Where CSA has no word for an ending the closest writing is chosen: a resignation out of turn
/// (`%TORYO` is always the side to move's) keeps its loser as `%±ILLEGAL_ACTION`; a try-rule win
/// is `%TRY`, this crate's word (tsshogi writes none and reads this one as an unknown special
/// move without complaint); an impasse won by the side that moved last is `%JISHOGI`.
pub(crate) fn special_word(ending: Ending, stm: Color) -> Option<&'static str> {
    let game = match ending {
        Ending::None | Ending::Sealed => return None,
        Ending::NoMate => return Some("FUZUMI"),
        Ending::Matta => return Some("MATTA"),
        Ending::Error => return Some("ERROR"),
        Ending::Game(g) => g,
    };
    Some(match game {
        GameEnding::Resignation { loser } if loser == stm => "TORYO",
        GameEnding::Checkmate { .. } | GameEnding::NoLegalMoves { .. } => "TSUMI",
        GameEnding::Timeout { .. } => "TIME_UP",
        GameEnding::Foul { loser, .. } if loser == stm => "ILLEGAL_MOVE",
        GameEnding::Resignation { loser } | GameEnding::Foul { loser, .. } => illegal_action(loser),
        GameEnding::PerpetualCheck { .. } => "OUTE_SENNICHITE",
        GameEnding::Repetition => "SENNICHITE",
        GameEnding::Impasse { winner } if winner == Some(stm) => "KACHI",
        GameEnding::Impasse { .. } => "JISHOGI",
        GameEnding::Try { .. } => "TRY",
        GameEnding::MaxMoves => "MAX_MOVES",
        GameEnding::DrawAgreement => "HIKIWAKE",
        GameEnding::Abort => "CHUDAN",
    })
}

/// The piece kind of a CSA two-letter name.
#[must_use]
pub fn piece_kind(name: &str) -> Option<PieceKind> {
    piece_kind_bytes(name.as_bytes())
}

/// Where a two-letter name goes in [`BY_HASH`]: no two CSA names share a
/// slot (the multiplier and shift were found by a search).
const fn name_slot(a: u8, b: u8) -> usize {
    ((a as usize * 7 + b as usize) >> 2) & 31
}

/// The piece kinds by [`name_slot`] of their CSA names, each with its name's
/// two bytes (little-endian) to compare.
static BY_HASH: [(u16, Option<PieceKind>); 32] = {
    let mut t = [(0u16, None); 32];
    let mut i = 0;
    while i < PieceKind::ALL.len() {
        let kind = PieceKind::ALL[i];
        let name = kind.csa().as_bytes();
        t[name_slot(name[0], name[1])] = (u16::from_le_bytes([name[0], name[1]]), Some(kind));
        i += 1;
    }
    t
};

/// [`piece_kind`] of the name's bytes (no UTF-8 check needed: every name is
/// ASCII): one look-up in [`BY_HASH`] and one comparison. A `match` over
/// the fourteen names (which had replaced string comparisons, 13 % of
/// reading the CSA records) took branches the processor mispredicted on
/// most moves. The tests below keep it equal to `PieceKind::csa`.
#[inline]
fn piece_kind_bytes(name: &[u8]) -> Option<PieceKind> {
    let &[a, b] = name else {
        return None;
    };
    let (word, kind) = BY_HASH[name_slot(a, b)];
    if word == u16::from_le_bytes([a, b]) {
        kind
    } else {
        None
    }
}

fn square(d: &[u8]) -> Option<Square> {
    match d {
        [f, r] => Square::from_numbers(f.wrapping_sub(b'0'), r.wrapping_sub(b'0')),
        _ => None,
    }
}

/// One CSA move as written (`+7776FU`, `-0034KA`, `+2423TO`): the mover's
/// sign, the origin (`00` for a drop), the destination and the piece's name
/// after the move. Syntax only: [`CsaMove::to_move`] resolves it against a
/// position, [`CsaMove::of`] writes a move of a position.
///
/// ```
/// use shogi_record::csa::CsaMove;
/// let pos = shogi_core::Position::startpos();
/// let written = CsaMove::parse("+7776FU").unwrap();
/// let mv = written.to_move(&pos)?;
/// assert_eq!(mv.to_string(), "7g7f");
/// assert_eq!(CsaMove::of(&pos, mv).to_string(), "+7776FU");
/// # Ok::<_, shogi_record::MoveProblem>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CsaMove {
    /// The mover (`+` Sente, `-` Gote).
    pub color: Color,
    /// The origin (`None`: a drop, written `00`).
    pub from: Option<Square>,
    /// The destination.
    pub to: Square,
    /// The piece's kind after the move (promoted for a promotion).
    pub kind: PieceKind,
}

impl CsaMove {
    /// Reads exactly seven characters such as `+7776FU` (`None`: anything else).
    #[inline(always)]
    #[must_use]
    pub fn parse(text: &str) -> Option<CsaMove> {
        let b = text.as_bytes();
        if b.len() != 7 {
            return None;
        }
        let color = match b[0] {
            b'+' => Color::Sente,
            b'-' => Color::Gote,
            _ => return None,
        };
        let to = square(&b[3..5])?;
        let kind = piece_kind_bytes(&b[5..7])?;
        let from = if &b[1..3] == b"00" {
            None
        } else {
            Some(square(&b[1..3])?)
        };
        Some(CsaMove {
            color,
            from,
            to,
            kind,
        })
    }

    /// The move this text means in `pos`. Legality is not judged here
    /// (`Position::check_move` does that).
    ///
    /// # Errors
    /// [`MoveProblem::NoMatch`] when the sign is not the side to move's, a
    /// drop names a promoted piece, or the origin holds another piece;
    /// [`MoveProblem::Illegal`] when the origin is empty.
    pub fn to_move(&self, pos: &Position) -> Result<Move, MoveProblem> {
        if self.color != pos.side_to_move() {
            return Err(MoveProblem::NoMatch);
        }
        let to = self.to;
        match self.from {
            None => match self.drop_kind() {
                Some(k) => Ok(Move::Drop { kind: k, to }),
                None => Err(MoveProblem::NoMatch),
            },
            Some(from) => match pos.piece_at(from) {
                Some(p) => match self.promotes_from(p.kind) {
                    Some(promote) => Ok(Move::Board { from, to, promote }),
                    None => Err(MoveProblem::NoMatch),
                },
                None => Err(MoveProblem::Illegal(shogi_core::IllegalMove::NoPiece(from))),
            },
        }
    }

    /// Whether a piece of kind `on_board` on the origin becomes the written
    /// kind by promoting (`Some(false)`: it is that kind already; `None`:
    /// neither).
    #[inline(always)]
    fn promotes_from(&self, on_board: PieceKind) -> Option<bool> {
        if on_board == self.kind {
            Some(false)
        } else if on_board.promote() == Some(self.kind) {
            Some(true)
        } else {
            None
        }
    }

    /// The kind a drop of the written piece takes from the hand (`None`
    /// for a promoted piece, which is never dropped).
    #[inline(always)]
    fn drop_kind(&self) -> Option<HandKind> {
        self.kind.hand_kind().filter(|_| !self.kind.is_promoted())
    }

    /// How `mv` is written in `pos` (the side to move is the mover; an
    /// empty origin is written as a pawn's move).
    #[must_use]
    pub fn of(pos: &Position, mv: Move) -> CsaMove {
        let (from, kind) = match mv {
            Move::Drop { kind, .. } => (None, kind.piece_kind()),
            Move::Board { from, promote, .. } => {
                let k = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
                let k = if promote { k.promote().unwrap_or(k) } else { k };
                (Some(from), k)
            }
        };
        CsaMove {
            color: pos.side_to_move(),
            from,
            to: mv.to(),
            kind,
        }
    }
}

impl std::fmt::Display for CsaMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.color == Color::Sente { '+' } else { '-' };
        let (ff, fr) = self
            .from
            .map_or((0, 0), |s| (s.file().number(), s.rank().number()));
        write!(
            f,
            "{sign}{ff}{fr}{}{}{}",
            self.to.file().number(),
            self.to.rank().number(),
            self.kind.csa()
        )
    }
}

/// Whether `b` starts with a line that is one move and nothing else
/// (`+7776FU`, ended by `\n` or `\r\n`, its last character neither a space
/// nor a comma): the move's length and the line's with its ending. The line
/// loop below reads any other line, and reads these ones the same way.
#[inline]
fn move_line(b: &[u8]) -> Option<(usize, usize)> {
    match move_then(b)? {
        b'\n' => Some((7, 8)),
        b'\r' if b.get(8) == Some(&b'\n') => Some((7, 9)),
        _ => None,
    }
}

/// The byte after a move at the start of `b` (seven bytes from a sign,
/// without a line break or a comma, the last one printable ASCII).
#[inline]
fn move_then(b: &[u8]) -> Option<u8> {
    /// The bytes of `x` that are zero, each flagged by its high bit (exact:
    /// no carry crosses from one byte to the next).
    const fn zero_bytes(x: u64) -> u64 {
        const LOW7: u64 = u64::from_ne_bytes([0x7F; 8]);
        !(((x & LOW7) + LOW7) | x | LOW7)
    }
    /// The high bits of bytes 1 to 6, the move after its sign.
    const BODY: u64 = 0x0080_8080_8080_8000;
    let &bytes = b.first_chunk::<8>()?;
    let [sign, .., last, end] = bytes;
    let word = u64::from_le_bytes(bytes);
    let breaks = zero_bytes(word ^ u64::from_ne_bytes([b'\n'; 8]))
        | zero_bytes(word ^ u64::from_ne_bytes([b','; 8]));
    if !matches!(sign, b'+' | b'-') || breaks & BODY != 0 || !last.is_ascii_graphic() {
        return None;
    }
    Some(end)
}

/// Whether `b` starts with a line that is one move and its time,
/// `+7776FU,T12` (a move as [`move_line`] takes it, a comma and a
/// [`time_line`]): the seconds, the line's length without its break and
/// with it. The line loop reads these lines the same way as any other.
#[inline]
fn move_time_line(b: &[u8]) -> Option<(u32, usize, usize)> {
    if move_then(b)? != b',' {
        return None;
    }
    let (secs, line, len) = time_line(&b[8..])?;
    Some((secs, 8 + line, 8 + len))
}

/// Whether `b` starts with a time line, `T` and one to nine digits
/// (`T12`) ended by `\n` or `\r\n`: the seconds, the line's length without
/// its break and with it. The line loop reads any other `T` line, and
/// these the same way.
#[inline]
fn time_line(b: &[u8]) -> Option<(u32, usize, usize)> {
    let digits = b.strip_prefix(b"T")?;
    let n = digits.iter().take(10).position(|c| !c.is_ascii_digit())?;
    if n == 0 || n > 9 {
        return None;
    }
    let secs = digits[..n]
        .iter()
        .fold(0u32, |t, &d| t * 10 + u32::from(d - b'0'));
    let line = 1 + n;
    match b[line..] {
        [b'\n', ..] => Some((secs, line, line + 1)),
        [b'\r', b'\n', ..] => Some((secs, line, line + 2)),
        _ => None,
    }
}

/// The nine cells of a board row (`P1-KY-KE-GI-KI-OU-KI-GI-KE-KY`) in the
/// layout nearly every file uses, three bytes a cell (` * ` for an empty
/// square, its last space perhaps trimmed): `None` for any other, which
/// [`Reader::cells`] reads (to the same cells where both read a row).
fn fixed_cells(b: &[u8]) -> Option<[Option<Piece>; 9]> {
    let row = b.get(2..)?;
    if row.len() != 27 && row.len() != 26 {
        return None;
    }
    let mut cells = [None; 9];
    for (i, cell) in cells.iter_mut().enumerate() {
        let c = &row[3 * i..];
        *cell = match c[0] {
            b' ' if c.get(1) == Some(&b'*') && c.get(2).is_none_or(|&x| x == b' ') => None,
            sign @ (b'+' | b'-') => {
                let kind = piece_kind_bytes(c.get(1..3)?)?;
                let color = if sign == b'+' {
                    Color::Sente
                } else {
                    Color::Gote
                };
                Some(Piece::new(color, kind))
            }
            _ => return None,
        };
    }
    Some(cells)
}

/// Whether `line` (without its line break) is a separator between two
/// records: `/` alone, with spaces or tabs around it.
fn is_separator(line: &[u8]) -> bool {
    line.trim_ascii() == b"/"
}

/// Whether a line of `bytes` is a separator ([`is_separator`]), found
/// from the `/` bytes alone.
fn has_separator(bytes: &[u8]) -> bool {
    let mut from = 0;
    while let Some(i) = scan::find_byte(&bytes[from..], b'/') {
        let at = from + i;
        let start = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |n| n + 1);
        let end = scan::find_byte(&bytes[at..], b'\n').map_or(bytes.len(), |n| at + n);
        if is_separator(&bytes[start..end]) {
            return true;
        }
        from = end.max(at + 1);
    }
    false
}

/// Whether `text` holds more than blank lines, `'` comments and separators.
fn holds_statements(text: &[u8]) -> bool {
    text.split(|&b| b == b'\n').any(|l| {
        let l = l.trim_ascii();
        !l.is_empty() && l[0] != b'\'' && l != b"/"
    })
}

/// One record of a CSA file that may hold several.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part<'a> {
    /// The lines of the file before this record's first line (add it to
    /// the line of a [`ReadError`] in this record, [`ReadError::after_lines`]).
    pub lines_before: usize,
    /// The record's text, without the separator lines.
    pub bytes: &'a [u8],
}

/// The records of CSA text `bytes` (raw or decoded: the separators are
/// ASCII, and no `Shift_JIS` character holds `/` or a line break), split at
/// the lines that hold only `/`; a part with nothing but blank lines and
/// comments is left out. A file without separators is one part.
///
/// ```
/// let text = b"V2.2\nPI\n+\n+7776FU\n/\nPI\n+\n+2726FU\n/\n";
/// let parts = shogi_record::csa::records(text);
/// assert_eq!(parts.len(), 2);
/// assert_eq!((parts[1].lines_before, parts[1].bytes), (5, &b"PI\n+\n+2726FU\n"[..]));
/// ```
#[must_use]
pub fn records(bytes: &[u8]) -> Vec<Part<'_>> {
    if !has_separator(bytes) {
        // Most files: a `/` only in dates, if at all.
        return vec![Part {
            lines_before: 0,
            bytes,
        }];
    }
    let mut parts = Vec::new();
    let (mut start, mut start_line) = (0, 0);
    let (mut at, mut line) = (0, 0);
    while at < bytes.len() {
        let end = scan::find_byte(&bytes[at..], b'\n').map_or(bytes.len(), |i| at + i);
        let next = (end + 1).min(bytes.len());
        if is_separator(&bytes[at..end]) {
            let part = &bytes[start..at];
            if holds_statements(part) {
                parts.push(Part {
                    lines_before: start_line,
                    bytes: part,
                });
            }
            (start, start_line) = (next, line + 1);
        }
        at = next;
        line += 1;
    }
    let last = &bytes[start.min(bytes.len())..];
    if holds_statements(last) {
        parts.push(Part {
            lines_before: start_line,
            bytes: last,
        });
    }
    if parts.is_empty() {
        // Nothing but separators, comments and blank lines: one part, which
        // the reader refuses as it would have.
        parts.push(Part {
            lines_before: 0,
            bytes,
        });
    }
    parts
}

/// Whether `stmt` ends in an ASCII byte that is not whitespace, so that
/// `trim_end` would leave it as it is (a last byte that is whitespace or
/// ends a longer character may need the trim).
#[inline]
fn ends_trimmed(stmt: &str) -> bool {
    stmt.as_bytes()
        .last()
        .is_some_and(|&b| b.is_ascii() && !char::from(b).is_whitespace())
}

struct Reader<'a> {
    b: Builder,
    /// The start position the lines so far set up (`None`: none, or the
    /// even start of a `PI` line without removed pieces, see `pi_even`).
    setup: Option<Setup>,
    /// A `PI` line gave the even start with Sente to move, which is not
    /// built (the builder starts there already): only a line changing it
    /// builds it.
    pi_even: bool,
    started: bool,
    line_no: usize,
    line: &'a str,
}

impl Reader<'_> {
    fn err(&self, token: &str, kind: ReadErrorKind) -> ReadError {
        ReadError::at(self.line_no, self.line, token, kind)
    }

    fn setup_mut(&mut self) -> &mut Setup {
        let even = self.pi_even;
        self.setup.get_or_insert_with(|| {
            if even {
                Setup::startpos()
            } else {
                Setup::empty()
            }
        })
    }

    /// Fixes the start position at the first statement that needs it (a
    /// move, a time, an ending); a check for every move, so kept inline.
    #[inline]
    fn start(&mut self) -> Result<(), ReadError> {
        if self.started {
            return Ok(());
        }
        self.start_now()
    }

    #[cold]
    fn start_now(&mut self) -> Result<(), ReadError> {
        self.started = true;
        if let Some(setup) = self.setup.take() {
            let start = lenient_start(setup)
                .map_err(|e| self.err("", ReadErrorKind::Position(e.to_string())))?;
            if let Some(pos) = start {
                self.b.set_start(pos);
            }
        }
        Ok(())
    }

    fn pi(&mut self, stmt: &str) -> Result<(), ReadError> {
        let rest = stmt.as_bytes().get(2..).unwrap_or(&[]);
        let side = self.side_to_move();
        if rest.is_empty() && side == Color::Sente {
            // Most records: the even start, where the builder starts.
            self.setup = None;
            self.pi_even = true;
            return Ok(());
        }
        let mut s = Setup::startpos();
        for chunk in rest.chunks(4) {
            let bad = || self.err(stmt, ReadErrorKind::BadBoard);
            let sq = chunk.get(..2).and_then(square).ok_or_else(bad)?;
            let name = chunk.get(2..4).ok_or_else(bad)?;
            match s.piece_at(sq) {
                Some(p) if p.kind.csa().as_bytes() == name => s.set(sq, None),
                _ => return Err(bad()),
            }
        }
        s.side_to_move = side;
        self.setup = Some(s);
        Ok(())
    }

    /// The side to move the lines so far set up.
    fn side_to_move(&self) -> Color {
        self.setup.as_ref().map_or(Color::Sente, |s| s.side_to_move)
    }

    fn row(&mut self, stmt: &str, rank: u8) -> Result<(), ReadError> {
        let cells = match fixed_cells(stmt.as_bytes()) {
            Some(cells) => cells,
            None => self.cells(stmt)?,
        };
        let setup = self.setup_mut();
        for (i, cell) in cells.into_iter().enumerate() {
            if let Some(sq) = Square::from_numbers(9 - i as u8, rank) {
                setup.set(sq, cell);
            }
        }
        Ok(())
    }

    /// The nine cells of a board row however it is spaced (see
    /// [`fixed_cells`] for the usual layout).
    fn cells(&self, stmt: &str) -> Result<[Option<Piece>; 9], ReadError> {
        let bad = || self.err(stmt, ReadErrorKind::BadBoard);
        // Nine cells, or the row is bad (a tenth one is refused at once:
        // every bad row gives the same error).
        let mut cells = [None; 9];
        let mut n = 0;
        let b = stmt.as_bytes();
        let mut i = 2;
        while i < b.len() {
            let cell = match b[i] {
                b' ' => {
                    i += 1;
                    continue;
                }
                b'*' => {
                    i += 1;
                    None
                }
                c @ (b'+' | b'-') => {
                    let name = b.get(i + 1..i + 3).ok_or_else(bad)?;
                    let kind = piece_kind_bytes(name).ok_or_else(bad)?;
                    let color = if c == b'+' { Color::Sente } else { Color::Gote };
                    i += 3;
                    Some(Piece::new(color, kind))
                }
                _ => return Err(bad()),
            };
            *cells.get_mut(n).ok_or_else(bad)? = cell;
            n += 1;
        }
        if n != 9 {
            return Err(bad());
        }
        Ok(cells)
    }

    fn pieces(&mut self, stmt: &str, color: Color) -> Result<(), ReadError> {
        let rest = stmt.as_bytes().get(2..).unwrap_or(&[]);
        for chunk in rest.chunks(4) {
            let bad = || self.err(stmt, ReadErrorKind::BadHand);
            let name = chunk.get(2..4).ok_or_else(bad)?;
            if chunk.get(..2) == Some(b"00") {
                if name == b"AL" {
                    let setup = self.setup_mut();
                    let missing = setup.missing_pieces();
                    let hand = &mut setup.hands[color];
                    for hk in HandKind::ALL {
                        let others = setup_hand_count(missing, hk);
                        hand.set(hk, hand.count(hk).saturating_add(others));
                    }
                    continue;
                }
                let hk = piece_kind_bytes(name)
                    .filter(|k| !k.is_promoted())
                    .and_then(PieceKind::hand_kind)
                    .ok_or_else(bad)?;
                let hand = &mut self.setup_mut().hands[color];
                hand.set(hk, hand.count(hk).saturating_add(1));
            } else {
                let sq = chunk.get(..2).and_then(square).ok_or_else(bad)?;
                let kind = piece_kind_bytes(name).ok_or_else(bad)?;
                self.setup_mut().set(sq, Some(Piece::new(color, kind)));
            }
        }
        Ok(())
    }

    /// Whether `line` separates this record from what follows, `rest`:
    /// `true` for a separator that nothing but comments and blank lines
    /// follow (the end of the record), an error when another record follows.
    #[cold]
    #[inline(never)]
    fn ends_record(&self, line: &str, rest: &str) -> Result<bool, ReadError> {
        if !is_separator(line.as_bytes()) {
            return Ok(false);
        }
        if holds_statements(rest.as_bytes()) {
            return Err(self.err(line.trim(), ReadErrorKind::SeveralRecords));
        }
        Ok(true)
    }

    fn mv(&mut self, stmt: &str) -> Result<(), ReadError> {
        self.start()?;
        let written = CsaMove::parse(stmt).ok_or_else(|| self.err(stmt, ReadErrorKind::BadMove))?;
        if self.b.is_dead() {
            return Ok(());
        }
        // `to_move`, with each move handed on where it is made: a move
        // chosen among three made ones went through the stack byte by byte
        // and was read back whole, a store-forwarding stall on every move.
        let pos = self.b.position();
        let found = match written.from {
            _ if written.color != pos.side_to_move() => None,
            Some(from) => match pos
                .piece_at(from)
                .and_then(|p| written.promotes_from(p.kind))
            {
                Some(promote) => {
                    let to = written.to;
                    self.b.push_move(Move::Board { from, to, promote }, stmt);
                    return Ok(());
                }
                None => None,
            },
            None => written.drop_kind(),
        };
        match found {
            Some(kind) => self.b.push_drop(kind, written.to, stmt),
            None => self.b.push(written.to_move(pos), stmt),
        }
        Ok(())
    }

    /// A time, `secs` taken by the move above.
    fn time(&mut self, secs: u32) -> Result<(), ReadError> {
        // A time after the ending (`%TORYO` then `T0`) belongs to no move.
        if self.b.rec.ending == Ending::None {
            self.start()?;
            self.b.time(secs);
        }
        Ok(())
    }

    fn header(&mut self, stmt: &str) {
        let Some((k, v)) = stmt[1..].split_once(':') else {
            return;
        };
        let v = v.trim();
        let opt = (!v.is_empty()).then(|| v.to_string());
        let h = &mut self.b.rec.headers;
        match k {
            "EVENT" => h.event = opt,
            "SITE" => h.site = opt,
            "START_TIME" => h.start_time = opt,
            "END_TIME" => h.end_time = opt,
            "TIME" => match parse_time(v) {
                Some(tc) => h.time_control = Some(tc),
                None => h.other.push(("TIME".into(), v.into())),
            },
            "TIME_LIMIT" => match parse_time_limit(v) {
                Some(tc) => h.time_control = Some(tc),
                None => h.other.push(("TIME_LIMIT".into(), v.into())),
            },
            "OPENING" => h.other.push(("戦型".into(), v.into())),
            _ => h.other.push((k.to_string(), v.to_string())),
        }
    }

    fn statement(&mut self, stmt: &str) -> Result<(), ReadError> {
        let stmt = if ends_trimmed(stmt) {
            stmt
        } else {
            stmt.trim_end()
        };
        if stmt.is_empty() {
            return Ok(());
        }
        let b = stmt.as_bytes();
        match b[0] {
            b'V' => {}
            b'N' if b.len() >= 2 && (b[1] == b'+' || b[1] == b'-') => {
                let name = stmt[2..].trim();
                let name = (!name.is_empty()).then(|| name.to_string());
                if b[1] == b'+' {
                    self.b.rec.headers.sente = name;
                } else {
                    self.b.rec.headers.gote = name;
                }
            }
            b'$' => self.header(stmt),
            b'P' if !self.started => match b.get(1) {
                Some(b'I') => self.pi(stmt)?,
                Some(&d @ b'1'..=b'9') => self.row(stmt, d - b'0')?,
                Some(b'+') => self.pieces(stmt, Color::Sente)?,
                Some(b'-') => self.pieces(stmt, Color::Gote)?,
                _ => return Err(self.err(stmt, ReadErrorKind::UnexpectedLine)),
            },
            b'+' | b'-' if b.len() == 1 => {
                if !self.started {
                    let side = if b[0] == b'+' {
                        Color::Sente
                    } else {
                        Color::Gote
                    };
                    if let Some(s) = &mut self.setup {
                        s.side_to_move = side;
                    } else if side == Color::Gote {
                        let mut s = Setup::startpos();
                        s.side_to_move = side;
                        self.setup = Some(s);
                    }
                    // (Sente to move and nothing set up: the even start,
                    // where the builder starts.)
                    self.start()?;
                }
            }
            b'+' | b'-' => self.mv(stmt)?,
            // A time after the ending (`%TORYO` then `T0`) belongs to no move.
            b'T' if self.b.rec.ending != Ending::None => {}
            b'T' => {
                self.start()?;
                if let Some(t) = seconds(&stmt[1..]) {
                    self.b.time(t);
                }
            }
            b'%' => {
                self.start()?;
                if !self.b.is_dead() {
                    let stm = self.b.position().side_to_move();
                    if let Some(e) = special_ending(&stmt[1..], stm) {
                        self.b.ending(e);
                    }
                }
            }
            _ => return Err(self.err(stmt, ReadErrorKind::UnexpectedLine)),
        }
        Ok(())
    }
}

fn setup_hand_count(missing: shogi_core::Hand, hk: HandKind) -> u8 {
    missing.count(hk)
}

/// Whole seconds of `s` (`30`, ` 30.5 `).
fn seconds(s: &str) -> Option<u32> {
    let s = s.trim();
    // `.` is ASCII: its offset is a character boundary.
    s[..scan::find_byte(s.as_bytes(), b'.').unwrap_or(s.len())]
        .parse()
        .ok()
}

/// `$TIME:main+byoyomi+increment` (seconds, decimals allowed).
fn parse_time(v: &str) -> Option<TimeControl> {
    let mut parts = v.split('+');
    let main = seconds(parts.next()?)?;
    let byoyomi = parts.next().map_or(Some(0), seconds)?;
    let increment = parts.next().map_or(Some(0), seconds)?;
    if parts.next().is_some() {
        return None;
    }
    Some(TimeControl {
        main,
        byoyomi,
        increment,
    })
}

/// `$TIME_LIMIT:HH:MM+SS`.
fn parse_time_limit(v: &str) -> Option<TimeControl> {
    let (hm, byo) = v.split_once('+')?;
    let (h, m) = hm.split_once(':')?;
    let h: u32 = h.trim().parse().ok()?;
    let m: u32 = m.trim().parse().ok()?;
    Some(TimeControl {
        main: h * 3600 + m * 60,
        byoyomi: byo.trim().parse().ok()?,
        increment: 0,
    })
}

/// Reads CSA bytes, sniffing the encoding from the content.
///
/// # Errors
/// See [`read`].
pub fn read_bytes(bytes: &[u8]) -> Result<Record, ReadError> {
    read(&encoding::decode_cow(bytes).0)
}

/// Reads CSA text.
///
/// # Errors
/// A malformed statement, board or hand line, or an illegal start position.
pub fn read(text: &str) -> Result<Record, ReadError> {
    let mut r = Reader {
        b: Builder::new(Position::startpos()),
        setup: None,
        pi_even: false,
        started: false,
        line_no: 0,
        line: "",
    };
    // A move line takes at least eight bytes (`+7776FU` and its newline).
    r.b.reserve_main_line(text.len() / 8);
    let mut rest = text;
    while !rest.is_empty() {
        r.line_no += 1;
        // Most lines are one move (`+7776FU` and a line break), or a time
        // (`T12`), or both (`+7776FU,T12`): read straight from the text,
        // without looking for the line's end.
        let bytes = rest.as_bytes();
        if let Some((line, len)) = move_line(bytes) {
            let line = &rest[..line];
            rest = &rest[len..];
            r.line = line;
            r.mv(line)?;
            continue;
        }
        if let Some((secs, line, len)) = move_time_line(bytes) {
            r.line = &rest[..line];
            r.mv(&rest[..7])?;
            r.time(secs)?;
            rest = &rest[len..];
            continue;
        }
        if let Some((secs, line, len)) = time_line(bytes) {
            r.line = &rest[..line];
            r.time(secs)?;
            rest = &rest[len..];
            continue;
        }
        // A line as `str::lines` gives it.
        let line = match scan::find_byte(rest.as_bytes(), b'\n') {
            Some(i) => {
                let line = &rest[..i];
                rest = &rest[i + 1..];
                line.strip_suffix('\r').unwrap_or(line)
            }
            None => std::mem::take(&mut rest),
        };
        r.line = line;
        let line = scan::trim_end_ascii(line, b"\r \t");
        let b = line.as_bytes();
        if matches!(b, [b'/'] | [b' ' | b'\t', ..]) && r.ends_record(line, rest)? {
            break;
        }
        // A move line that `move_line` left (spaces after the move, no line
        // break after it): played without the general statement splitting
        // (a line `statement` would not trim further).
        if let [b'+' | b'-', _, _, _, _, _, _] = *b {
            if ends_trimmed(line) && !b.contains(&b',') {
                r.mv(line)?;
                continue;
            }
        }
        if let Some(c) = line.strip_prefix('\'') {
            if let Some(c) = c.strip_prefix('*') {
                r.b.comment(c);
            }
            continue;
        }
        if line.starts_with('P') || line.starts_with('N') || line.starts_with('$') {
            // Board, name and header lines may contain commas of their own.
            r.statement(line)?;
            continue;
        }
        // `line.split(',')`, without the searcher's per-match overhead.
        let mut stmts = line;
        while let Some(i) = scan::find_byte(stmts.as_bytes(), b',') {
            r.statement(&stmts[..i])?;
            stmts = &stmts[i + 1..];
        }
        r.statement(stmts)?;
    }
    r.start()?;
    Ok(r.b.finish())
}

fn write_position(out: &mut String, pos: &Position) {
    if *pos == Position::startpos() {
        out.push_str("PI\n");
    } else {
        for rank in 1..=9u8 {
            let _ = write!(out, "P{rank}");
            for file in (1..=9u8).rev() {
                match Square::from_numbers(file, rank).and_then(|sq| pos.piece_at(sq)) {
                    Some(p) => {
                        out.push(if p.color == Color::Sente { '+' } else { '-' });
                        out.push_str(p.kind.csa());
                    }
                    None => out.push_str(" * "),
                }
            }
            out.push('\n');
        }
        for (color, sign) in [(Color::Sente, '+'), (Color::Gote, '-')] {
            let hand = pos.hand(color);
            if hand.is_empty() {
                continue;
            }
            let _ = write!(out, "P{sign}");
            for hk in HandKind::ALL.into_iter().rev() {
                for _ in 0..hand.count(hk) {
                    let _ = write!(out, "00{}", hk.piece_kind().csa());
                }
            }
            out.push('\n');
        }
    }
    out.push(if pos.side_to_move() == Color::Sente {
        '+'
    } else {
        '-'
    });
    out.push('\n');
}

/// Writes `rec` as CSA text (main line only; `V3.0` when a time control is given, else `V2.2`).
///
/// The ending is a `%` word for the side to move. CSA cannot say some endings, and the closest
/// writing is chosen: a resignation out of turn (a player resigning while the opponent is to
/// move) is written `%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION` naming the resigner, which keeps
/// who lost (`%TORYO` would name the wrong side); a try-rule win is `%TRY`, a word of this
/// crate's (tsshogi writes no ending and reads `%TRY` as an unknown special move); a sealed move
/// is not written.
#[must_use]
pub fn write(rec: &Record) -> String {
    let mut out = String::new();
    let h = &rec.headers;
    out.push_str("'encoding=UTF-8\n");
    out.push_str(if h.time_control.is_some() {
        "V3.0\n"
    } else {
        "V2.2\n"
    });
    if let Some(s) = &h.sente {
        let _ = writeln!(out, "N+{s}");
    }
    if let Some(s) = &h.gote {
        let _ = writeln!(out, "N-{s}");
    }
    for (k, v) in [
        ("EVENT", &h.event),
        ("SITE", &h.site),
        ("START_TIME", &h.start_time),
        ("END_TIME", &h.end_time),
    ] {
        if let Some(v) = v {
            let _ = writeln!(out, "${k}:{v}");
        }
    }
    if let Some(tc) = h.time_control {
        let _ = writeln!(out, "$TIME:{}", tc.to_plus());
    }
    for (k, v) in &h.other {
        if k == "戦型" {
            let _ = writeln!(out, "$OPENING:{v}");
        } else if !k.is_empty() && k.bytes().all(|c| c.is_ascii_uppercase() || c == b'_') {
            let _ = writeln!(out, "${k}:{v}");
        }
    }
    write_position(&mut out, &rec.start);
    for c in &rec.start_comments {
        let _ = writeln!(out, "'*{c}");
    }
    let mut pos = rec.start.clone();
    for node in &rec.moves {
        if pos.check_move(node.mv).is_err() {
            break;
        }
        let _ = write!(out, "{}", CsaMove::of(&pos, node.mv));
        if let Some(t) = node.time {
            let _ = write!(out, ",T{t}");
        }
        out.push('\n');
        for c in &node.comments {
            let _ = writeln!(out, "'*{c}");
        }
        pos.make_move(node.mv);
    }
    if let Some(w) = special_word(rec.ending, pos.side_to_move()) {
        let _ = writeln!(out, "%{w}");
    }
    out
}

/// Writes `rec` as CSA bytes in `enc` (the first line declares it).
#[must_use]
pub fn write_bytes(rec: &Record, enc: Encoding) -> Vec<u8> {
    let text = write(rec);
    let text = match enc {
        Encoding::Utf8 => text,
        Encoding::ShiftJis => text.replacen("'encoding=UTF-8", "'encoding=Shift_JIS", 1),
    };
    encoding::encode(&text, enc)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const ONE: &str = "V2.2\nN+A\nN-B\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";

    #[test]
    fn a_separator_with_nothing_after_it_ends_the_record() {
        let alone = read(ONE).expect("one record");
        for tail in ["/\n", "/", " / \r\n", "/\n' the end\n\n", "/\n/\n"] {
            assert_eq!(read(&format!("{ONE}{tail}")), Ok(alone.clone()), "{tail:?}");
        }
    }

    #[test]
    fn a_second_record_is_refused_at_its_separator() {
        for (text, line) in [
            (format!("{ONE}/\nPI\n+\n+2726FU\n"), 9),
            (format!("{ONE}' remark\n/\n' remark\nN+C\n"), 10),
        ] {
            let err = read(&text).expect_err("two records");
            assert_eq!(
                (err.line, err.column, err.token.as_str(), err.kind.code()),
                (line, 1, "/", "several_records"),
                "{text:?}"
            );
        }
    }

    #[test]
    fn records_split_at_separator_lines_only() {
        let text = format!("'head\r\n{ONE}/\r\n'only a remark\r\n\r\n/\r\n{ONE}\t/\n$EVENT:a/b\n");
        let parts = records(text.as_bytes());
        let texts: Vec<&str> = parts
            .iter()
            .map(|p| std::str::from_utf8(p.bytes).expect("ASCII"))
            .collect();
        assert_eq!(
            texts,
            [
                format!("'head\r\n{ONE}"),
                ONE.to_owned(),
                "$EVENT:a/b\n".to_owned()
            ]
        );
        assert_eq!(
            parts.iter().map(|p| p.lines_before).collect::<Vec<_>>(),
            [0, 13, 22]
        );
        // Each part's lines are the file's from `lines_before` on.
        let lines: Vec<&str> = text.lines().collect();
        for (p, t) in parts.iter().zip(&texts) {
            assert_eq!(t.lines().next(), Some(lines[p.lines_before]));
        }
        // No separator, or nothing but separators and remarks: one part, the whole.
        for whole in [ONE, "/\n' x\n/\n", ""] {
            assert_eq!(
                records(whole.as_bytes()),
                [Part {
                    lines_before: 0,
                    bytes: whole.as_bytes()
                }]
            );
        }
    }

    /// `move_line` by the lines as `str::lines` splits them: a line of
    /// seven bytes from a sign (one `\r` before its `\n` dropped), with no
    /// comma, its last byte printable ASCII.
    fn move_line_by_lines(b: &[u8]) -> Option<(usize, usize)> {
        let end = b.iter().position(|&c| c == b'\n')?;
        let line = &b[..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() != 7 || !matches!(line[0], b'+' | b'-') || line.contains(&b',') {
            return None;
        }
        line[6].is_ascii_graphic().then_some((7, end + 1))
    }

    /// `parse_time` as first written: the parts collected, each split at
    /// its first `.`.
    fn parse_time_by_parts(v: &str) -> Option<TimeControl> {
        let secs = |s: &str| s.trim().split('.').next()?.parse::<u32>().ok();
        let parts: Vec<&str> = v.split('+').collect();
        if parts.len() > 3 {
            return None;
        }
        Some(TimeControl {
            main: secs(parts[0])?,
            byoyomi: parts.get(1).map_or(Some(0), |s| secs(s))?,
            increment: parts.get(2).map_or(Some(0), |s| secs(s))?,
        })
    }

    /// `time_line` by the lines: a line that is `T` and one to nine digits.
    fn time_line_by_lines(b: &[u8]) -> Option<(u32, usize, usize)> {
        let end = b.iter().position(|&c| c == b'\n')?;
        let line = &b[..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let digits = line.strip_prefix(b"T")?;
        if digits.is_empty() || digits.len() > 9 || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let secs = std::str::from_utf8(digits).ok()?.parse().ok()?;
        Some((secs, line.len(), end + 1))
    }

    /// `move_time_line` by the lines: a move as `move_line_by_lines` takes
    /// it, a comma, and a time as `time_line_by_lines` does.
    fn move_time_line_by_lines(b: &[u8]) -> Option<(u32, usize, usize)> {
        let comma = b.iter().position(|&c| c == b',')?;
        let end = b.iter().position(|&c| c == b'\n')?;
        if comma != 7 || end < comma {
            return None;
        }
        let mut head = b[..7].to_vec();
        head.push(b'\n');
        move_line_by_lines(&head)?;
        let (secs, line, len) = time_line_by_lines(&b[8..])?;
        Some((secs, 8 + line, 8 + len))
    }

    fn byte_from(alphabet: &'static [u8]) -> impl Strategy<Value = u8> {
        proptest::sample::select(alphabet)
    }

    proptest! {
        #[test]
        fn has_separator_agrees_with_the_lines(text in "[/ \t\r\na'P+]{0,40}") {
            let by_lines = text.split('\n').any(|l| is_separator(l.as_bytes()));
            prop_assert_eq!(has_separator(text.as_bytes()), by_lines);
        }

        #[test]
        fn records_agree_with_the_lines(text in "[/ \t\r\na'P+]{0,60}") {
            // The lines with their breaks, grouped between separator lines.
            let mut parts: Vec<(usize, String)> = vec![(0, String::new())];
            for (i, line) in text.split_inclusive('\n').enumerate() {
                if is_separator(line.trim_end_matches('\n').as_bytes()) {
                    parts.push((i + 1, String::new()));
                } else if let Some(last) = parts.last_mut() {
                    last.1.push_str(line);
                }
            }
            let mut want: Vec<(usize, String)> = parts
                .into_iter()
                .filter(|(_, t)| holds_statements(t.as_bytes()))
                .collect();
            if want.is_empty() {
                want.push((0, text.clone()));
            }
            let got: Vec<(usize, String)> = records(text.as_bytes())
                .into_iter()
                .map(|p| (p.lines_before, String::from_utf8(p.bytes.to_vec()).expect("ASCII")))
                .collect();
            prop_assert_eq!(got, want);
        }
    }

    proptest! {
        #[test]
        fn move_line_agrees_with_the_lines(
            sign in byte_from(b"+-+-x"),
            body in proptest::collection::vec(byte_from(b"7766FUOU,\n\r \t\x01\xe6"), 6),
            tail in proptest::collection::vec(byte_from(b"\n\n\r \tx"), 0..4),
        ) {
            let mut b = vec![sign];
            b.extend(body);
            b.extend(tail);
            prop_assert_eq!(move_line(&b), move_line_by_lines(&b), "{:?}", b);
            prop_assert_eq!(move_time_line(&b), move_time_line_by_lines(&b), "{:?}", b);
        }

        #[test]
        fn parse_time_agrees_with_the_parts(v in "[0-9 .+a\u{3000}]{0,14}") {
            prop_assert_eq!(parse_time(&v), parse_time_by_parts(&v), "{:?}", v);
        }

        #[test]
        fn time_line_agrees_with_the_lines(text in "T?[0-9]{0,11}[\r\n, .+a]{0,3}[0-9T\n]{0,3}") {
            let b = text.as_bytes();
            prop_assert_eq!(time_line(b), time_line_by_lines(b), "{:?}", text);
            let mut moved = b"+7776FU,".to_vec();
            moved.extend(b);
            prop_assert_eq!(move_time_line(&moved), move_time_line_by_lines(&moved), "{:?}", text);
        }

        /// Boards in the usual layout (three bytes a cell, read by
        /// `fixed_cells`) and with their cells one space apart (read by
        /// `Reader::cells`): the same start, or the same error.
        #[test]
        fn board_rows_read_the_same_in_both_layouts(
            cells in prop::collection::vec(0usize..120, 81),
            trim in any::<bool>(),
        ) {
            // Mostly empty squares, the kings on 5a and 5i, other pieces of
            // either side at random: some boards legal, some not.
            let names: Vec<&str> = PieceKind::ALL
                .into_iter()
                .filter(|&k| k != PieceKind::King)
                .map(PieceKind::csa)
                .collect();
            let cell = |i: usize| match (i, cells[i]) {
                (4, _) => "-OU".to_string(),
                (76, _) => "+OU".to_string(),
                (_, c) if c < 13 => format!("+{}", names[c]),
                (_, c) if c < 26 => format!("-{}", names[c - 13]),
                _ => " * ".to_string(),
            };
            let (mut fixed, mut spaced) = (String::new(), String::new());
            for rank in 0..9 {
                let row: Vec<String> = (0..9).map(|f| cell(rank * 9 + f)).collect();
                let mut line = format!("P{}{}", rank + 1, row.concat());
                if trim {
                    line.truncate(line.trim_end().len());
                }
                fixed.push_str(&line);
                fixed.push('\n');
                let spaced_row: Vec<&str> = row.iter().map(|c| c.trim()).collect();
                spaced.push_str(&format!("P{} {}\n", rank + 1, spaced_row.join(" ")));
            }
            let outcome = |text: String| {
                read(&format!("{text}+\n")).map(|r| r.start.to_sfen()).map_err(|e| e.kind)
            };
            prop_assert_eq!(outcome(fixed), outcome(spaced));
        }

        /// Times on a move's line and on lines of their own, read where
        /// the line loop takes them at once and where (after a space or a
        /// tab, or with a break the quick path leaves) it splits the line
        /// into statements: the same record.
        #[test]
        fn times_read_the_same_in_every_layout(
            times in prop::collection::vec(0u32..2_000_000_000, 6),
            layout in prop::collection::vec(0u8..6, 6),
            crlf in any::<bool>(),
        ) {
            let moves = ["+2726FU", "-8384FU", "+2625FU", "-8485FU", "+6978KI", "-4132KI"];
            let br = if crlf { "\r\n" } else { "\n" };
            let mut plain = format!("V2.2{br}PI{br}+{br}");
            let mut laid = plain.clone();
            for ((mv, t), how) in moves.iter().zip(&times).zip(&layout) {
                plain.push_str(&format!("{mv}{br}T{t}{br}"));
                laid.push_str(&match how {
                    0 => format!("{mv},T{t}{br}"),
                    1 => format!("{mv}{br}T{t}{br}"),
                    2 => format!("{mv},T{t} {br}"),
                    3 => format!("{mv}{br}T{t}\t{br}"),
                    4 => format!("{mv},T{t}.5{br}"),
                    _ => format!("{mv}{br}T0{t}{br}"),
                });
            }
            plain.push_str(&format!("%TORYO{br}T3{br}"));
            laid.push_str(&format!("%TORYO{br}T3{br}"));
            let a = read(&plain).map_err(|e| e.to_string());
            let b = read(&laid).map_err(|e| e.to_string());
            prop_assert!(a.is_ok(), "{:?}", a);
            prop_assert_eq!(a, b, "{}", laid);
        }
    }

    #[test]
    fn piece_kind_reads_every_csa_name_and_nothing_else() {
        for kind in PieceKind::ALL {
            assert_eq!(piece_kind(kind.csa()), Some(kind));
        }
        for name in ["", "F", "fu", "FUU", "OH", "  "] {
            assert_eq!(piece_kind(name), None);
        }
        // Every pair of bytes: a kind exactly for its own name.
        for a in 0..=u8::MAX {
            for b in 0..=u8::MAX {
                let by_name = PieceKind::ALL
                    .into_iter()
                    .find(|k| k.csa().as_bytes() == [a, b]);
                assert_eq!(piece_kind_bytes(&[a, b]), by_name, "{a} {b}");
            }
        }
    }
}
