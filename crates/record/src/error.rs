//! [`ReadError`]: why a record could not be read, with line, column and the bad token.
//!
//! Readers never panic on input. Problems with a single move (an illegal or
//! unresolvable move) are not errors: the record is read up to that move and
//! [`Record::illegal_move`](crate::Record::illegal_move) says what went wrong.
//!
//! ```
//! let err = shogi_record::csa::read("V2.2\nPI\n+\n+7776XX\n").unwrap_err();
//! assert_eq!((err.line, err.token.as_str()), (4, "+7776XX"));
//! ```

use std::fmt;

/// What kind of problem a [`ReadError`] reports.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadErrorKind {
    /// The format could not be recognised.
    #[error("unrecognised record format")]
    UnknownFormat,
    /// A move token has the wrong shape.
    #[error("bad move")]
    BadMove,
    /// A board diagram or board line is malformed.
    #[error("bad board")]
    BadBoard,
    /// A hand (持駒 / `P+`) is malformed.
    #[error("bad hand")]
    BadHand,
    /// A variation header (変化) is malformed or points nowhere.
    #[error("bad variation")]
    BadVariation,
    /// The start position breaks the rules.
    #[error("illegal start position: {0}")]
    Position(String),
    /// SFEN or USI text is malformed.
    #[error("bad SFEN/USI: {0}")]
    Sfen(String),
    /// JSON is malformed or does not follow JKF.
    #[error("bad JKF: {0}")]
    Json(String),
    /// A line that the format does not allow.
    #[error("unexpected line")]
    UnexpectedLine,
    /// The text holds nothing of a record: no move, board, ending or known header.
    #[error("no game record found")]
    NoRecord,
    /// A `手合割` (handicap) name that is not a known handicap, with no board diagram to give the position.
    #[error("unknown handicap name")]
    UnknownHandicap,
    /// A second record starts here: a file of several records, given where
    /// one record is read. In a CSA file (lines holding only `/` between
    /// the records) [`crate::read_each`] reads each of them; in KIF or KI2,
    /// moves after the main line's game ended (a terminal word or a `まで`
    /// summary) are refused here rather than added to it.
    #[error("a second record starts here (the file holds several)")]
    SeveralRecords,
}

impl ReadErrorKind {
    /// A stable code for the kind, for programs that word it themselves
    /// (the server's JSON errors).
    ///
    /// ```
    /// let err = shogi_record::csa::read("V2.2\nPI\n+\n+7776XX\n").unwrap_err();
    /// assert_eq!(err.kind.code(), "bad_move");
    /// ```
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            ReadErrorKind::UnknownFormat => "unknown_format",
            ReadErrorKind::BadMove => "bad_move",
            ReadErrorKind::BadBoard => "bad_board",
            ReadErrorKind::BadHand => "bad_hand",
            ReadErrorKind::BadVariation => "bad_variation",
            ReadErrorKind::Position(_) => "illegal_position",
            ReadErrorKind::Sfen(_) => "bad_sfen",
            ReadErrorKind::Json(_) => "bad_jkf",
            ReadErrorKind::UnexpectedLine => "unexpected_line",
            ReadErrorKind::NoRecord => "no_record",
            ReadErrorKind::UnknownHandicap => "unknown_handicap",
            ReadErrorKind::SeveralRecords => "several_records",
        }
    }
}

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ReadError {
    /// 1-based line number (0 when not tied to a line).
    pub line: usize,
    /// 1-based column, in characters (0 when not tied to a column).
    pub column: usize,
    /// The offending text.
    pub token: String,
    /// What is wrong.
    pub kind: ReadErrorKind,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "line {}, column {}: {} at {:?}",
                self.line, self.column, self.kind, self.token
            )
        } else {
            write!(f, "{}: {:?}", self.kind, self.token)
        }
    }
}

impl ReadError {
    /// An error at `line`/`column` about `token`.
    #[must_use]
    pub fn new(line: usize, column: usize, token: &str, kind: ReadErrorKind) -> ReadError {
        let token: String = token.chars().take(80).collect();
        ReadError {
            line,
            column,
            token,
            kind,
        }
    }

    /// The same error in a text where `lines` more lines come before it
    /// (one record of a file of several); an error tied to no line stays so.
    ///
    /// ```
    /// let err = shogi_record::csa::read("PI\n+\n+7776XX\n").unwrap_err();
    /// assert_eq!(err.after_lines(10).line, 13);
    /// ```
    #[must_use]
    pub fn after_lines(mut self, lines: usize) -> ReadError {
        if self.line > 0 {
            self.line = self.line.saturating_add(lines);
        }
        self
    }

    /// An error about the whole of `line_text` at `line`, pointing at `token` within it.
    pub(crate) fn at(line: usize, line_text: &str, token: &str, kind: ReadErrorKind) -> ReadError {
        let column = match line_text.find(token) {
            Some(byte) if !token.is_empty() => line_text[..byte].chars().count() + 1,
            _ => 1,
        };
        ReadError::new(line, column, token, kind)
    }
}
