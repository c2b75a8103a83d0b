//! The record model: headers, a start position, a main line of [`Node`]s
//! with per-move time and comments, variations as a tree, and an [`Ending`].
//!
//! Every reader produces a [`Record`] and every writer consumes one, so a
//! record read from one format can be written in any other.
//!
//! ```
//! use shogi_record::{Ending, Record};
//! use shogi_core::{Move, Position};
//! let mut rec = Record::new(Position::startpos());
//! rec.push("7g7f".parse::<Move>()?);
//! rec.push("3c3d".parse::<Move>()?);
//! rec.ending = Ending::Game(shogi_core::Ending::Resignation { loser: shogi_core::Color::Sente });
//! assert_eq!(rec.main_line().len(), 2);
//! assert_eq!(rec.loser(), Some(shogi_core::Color::Sente));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use shogi_core::{Color, Handicap, Move, Position};

/// The time control of a game, in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Main thinking time per player, in seconds.
    pub main: u32,
    /// Byoyomi (time per move once the main time is used up), in seconds.
    pub byoyomi: u32,
    /// Fischer increment added after every move, in seconds.
    pub increment: u32,
}

impl TimeControl {
    /// Reads `main+byoyomi+increment` (seconds, as CSA `$TIME` writes it) or `main+byoyomi`.
    #[must_use]
    pub fn parse_plus(text: &str) -> Option<TimeControl> {
        let parts: Vec<&str> = text.trim().split('+').collect();
        if parts.len() < 2 || parts.len() > 3 {
            return None;
        }
        let num = |s: &str| s.trim().parse::<u32>().ok();
        Some(TimeControl {
            main: num(parts[0])?,
            byoyomi: num(parts[1])?,
            increment: match parts.get(2) {
                Some(s) => num(s)?,
                None => 0,
            },
        })
    }

    /// Writes `main+byoyomi+increment`.
    #[must_use]
    pub fn to_plus(&self) -> String {
        format!("{}+{}+{}", self.main, self.byoyomi, self.increment)
    }
}

/// The game information that precedes the moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Headers {
    /// Sente's (or, in handicap games, 下手's) name.
    pub sente: Option<String>,
    /// Gote's (or, in handicap games, 上手's) name.
    pub gote: Option<String>,
    /// Event or tournament (棋戦, CSA `$EVENT`).
    pub event: Option<String>,
    /// Place (場所, CSA `$SITE`).
    pub site: Option<String>,
    /// Start date and time as written (開始日時, CSA `$START_TIME`).
    pub start_time: Option<String>,
    /// End date and time as written (終了日時, CSA `$END_TIME`).
    pub end_time: Option<String>,
    /// Time control, when it could be read as numbers.
    pub time_control: Option<TimeControl>,
    /// The standard handicap named in the record (手合割), if any.
    pub handicap: Option<Handicap>,
    /// Every other header, as `(key, value)` in the order read.
    pub other: Vec<(String, String)>,
}

impl Headers {
    /// The value of an `other` header.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.other
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// One move of a line, with its time, comments and alternatives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move (legal in the position it is played from).
    pub mv: Move,
    /// Time spent on the move, in seconds.
    pub time: Option<u32>,
    /// Comments on the move, one entry per comment line.
    pub comments: Vec<String>,
    /// Alternative continuations that replace this move: each is a line
    /// whose first node is played instead of `mv`.
    pub variations: Vec<Vec<Node>>,
}

impl Node {
    /// A node with just a move.
    #[must_use]
    pub fn new(mv: Move) -> Node {
        Node {
            mv,
            time: None,
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// How the record ends: a finished game (with who won and why, in core's
/// [`shogi_core::Ending`]), or one of the states only records know.
///
/// Readers give game endings concrete colours, computed from the side to move
/// after the last main-line move where the format leaves it implicit (`%TORYO`
/// is the side to move resigning); writers turn them back into each format's
/// words in one place per format ([`kif`](crate::kif) and [`ki2`](crate::ki2)
/// share theirs, [`csa`](crate::csa) serves JKF too, [`usi`](crate::usi),
/// [`usen`](crate::usen)). Where a format cannot say an ending its module's
/// documentation tells what is written instead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The record just stops.
    #[default]
    None,
    /// The game ended.
    Game(shogi_core::Ending),
    /// The tsume problem has no mate (不詰, `%FUZUMI`).
    NoMate,
    /// The side to move sealed its move (封じ手).
    Sealed,
    /// The side to move took back a move (待った, `%MATTA`, a foul in CSA V2).
    Matta,
    /// The game stopped on an error (エラー, `%ERROR`).
    Error,
}

impl Ending {
    /// The game ending, if the record holds one.
    #[must_use]
    pub fn game(self) -> Option<shogi_core::Ending> {
        match self {
            Ending::Game(e) => Some(e),
            _ => None,
        }
    }

    /// The winner of a game ending; `None` for draws, aborts and record-only states.
    #[must_use]
    pub fn winner(self) -> Option<Color> {
        self.game().and_then(shogi_core::Ending::winner)
    }

    /// The loser of a game ending; `None` for draws, aborts and record-only states
    /// (see [`Record::loser`] for [`Ending::Matta`]).
    #[must_use]
    pub fn loser(self) -> Option<Color> {
        self.game().and_then(shogi_core::Ending::loser)
    }
}

impl From<shogi_core::Ending> for Ending {
    fn from(e: shogi_core::Ending) -> Ending {
        Ending::Game(e)
    }
}

/// Why a move of the record could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveProblem {
    /// The move is understood but breaks the rules.
    #[error("illegal move: {0}")]
    Illegal(#[from] shogi_core::IllegalMove),
    /// No legal move fits the text.
    #[error("no legal move matches")]
    NoMatch,
    /// Several legal moves fit the text.
    #[error("ambiguous: {0} legal moves match")]
    Ambiguous(usize),
    /// The text says `同` (same square) but there is no previous move.
    #[error("同 (same square) without a previous move")]
    NoPreviousMove,
}

/// A main-line move that could not be played; the record stops before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMoveInfo {
    /// Its 1-based ply number (counted from the start position).
    pub ply: usize,
    /// The move as written.
    pub text: String,
    /// What is wrong with it.
    pub problem: MoveProblem,
}

/// A game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Game information.
    pub headers: Headers,
    /// The start position.
    pub start: Position,
    /// Comments before the first move.
    pub start_comments: Vec<String>,
    /// The main line (alternatives hang off its nodes).
    pub moves: Vec<Node>,
    /// How the game ended.
    pub ending: Ending,
    /// The first main-line move that could not be played, if any.
    pub illegal_move: Option<IllegalMoveInfo>,
}

impl Default for Record {
    fn default() -> Record {
        Record::new(Position::startpos())
    }
}

impl Record {
    /// An empty record starting from `start`.
    #[must_use]
    pub fn new(start: Position) -> Record {
        Record {
            headers: Headers::default(),
            start,
            start_comments: Vec::new(),
            moves: Vec::new(),
            ending: Ending::None,
            illegal_move: None,
        }
    }

    /// Appends a move to the main line (not checked for legality).
    pub fn push(&mut self, mv: Move) {
        self.moves.push(Node::new(mv));
    }

    /// The main line's moves.
    #[must_use]
    pub fn main_line(&self) -> Vec<Move> {
        self.moves.iter().map(|n| n.mv).collect()
    }

    /// The position after the main line (moves that cannot be played are skipped).
    #[must_use]
    pub fn final_position(&self) -> Position {
        let mut pos = self.start.clone();
        for n in &self.moves {
            if pos.is_legal(n.mv) {
                pos.make_move(n.mv);
            }
        }
        pos
    }

    /// The side to move after the main line.
    #[must_use]
    pub fn side_to_move_at_end(&self) -> Color {
        let side = self.start.side_to_move();
        if self.moves.len().is_multiple_of(2) {
            side
        } else {
            side.opponent()
        }
    }

    /// The side that lost: the loser of a game ending, or the side to move after a
    /// [`Ending::Matta`] (a take-back loses in CSA); `None` otherwise.
    #[must_use]
    pub fn loser(&self) -> Option<Color> {
        match self.ending {
            Ending::Matta => Some(self.side_to_move_at_end()),
            e => e.loser(),
        }
    }

    /// The standard handicap the start position is, if any (`Some(Handicap::Even)` for the normal start).
    #[must_use]
    pub fn handicap(&self) -> Option<Handicap> {
        Handicap::from_position(&self.start)
    }
}
