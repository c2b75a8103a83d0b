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
//! rec.ending = Ending::Resign { loser: shogi_core::Color::Sente };
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

/// How the record ends.
///
/// Unless a variant names the side itself, it applies to the side to move
/// after the last move of the main line (the player whose turn it was when
/// the game stopped): that side resigned, was checkmated, ran out of time,
/// declared a win, and so on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The record just stops.
    #[default]
    None,
    /// A player resigned (投了, `%TORYO`). The formats write a resignation as
    /// the act of the side to move, and their readers say so; a resignation
    /// out of turn (a player resigning while the opponent thinks) can only be
    /// told apart in KIF and KI2, by the `まで…の勝ち` summary line.
    Resign {
        /// The side that resigned.
        loser: Color,
    },
    /// The side to move is checkmated (詰み, `%TSUMI`).
    Checkmate,
    /// Fourfold repetition, a draw (千日手, `%SENNICHITE`).
    Repetition,
    /// Fourfold repetition with perpetual check (`%OUTE_SENNICHITE`): `loser` gave the checks.
    PerpetualCheck {
        /// The side that gave perpetual check and loses.
        loser: Color,
    },
    /// Impasse (持将棋, `%JISHOGI`), a draw by agreement or points.
    Impasse,
    /// The side to move declared an entering-king win (入玉勝ち, `%KACHI`).
    DeclarationWin,
    /// A foul ended the game (反則勝ち / 反則負け, `%ILLEGAL_MOVE`, `%±ILLEGAL_ACTION`).
    IllegalMove {
        /// The side that broke the rules and loses.
        loser: Color,
    },
    /// The side to move lost on time (切れ負け, 時間切れ, `%TIME_UP`).
    Timeout,
    /// The game was interrupted (中断, `%CHUDAN`).
    Abort,
    /// The move limit was reached, a draw (`%MAX_MOVES`).
    MaxMoves,
    /// A draw by agreement (`%HIKIWAKE`).
    Draw,
    /// The tsume problem has no mate (不詰, `%FUZUMI`).
    NoMate,
    /// The side to move sealed its move (封じ手).
    Sealed,
    /// The side to move took back a move (`%MATTA`, a foul in CSA).
    Matta,
    /// The game stopped on an error (`%ERROR`).
    Error,
}

impl Ending {
    /// Who lost, given the side to move after the last move; `None` for draws and unfinished games.
    #[must_use]
    pub fn loser(self, side_to_move: Color) -> Option<Color> {
        match self {
            Ending::Checkmate | Ending::Timeout | Ending::Matta => Some(side_to_move),
            Ending::DeclarationWin => Some(side_to_move.opponent()),
            Ending::Resign { loser }
            | Ending::PerpetualCheck { loser }
            | Ending::IllegalMove { loser } => Some(loser),
            _ => None,
        }
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
        if self.moves.len() % 2 == 0 {
            side
        } else {
            side.opponent()
        }
    }

    /// The side that lost, if the ending names one.
    #[must_use]
    pub fn loser(&self) -> Option<Color> {
        self.ending.loser(self.side_to_move_at_end())
    }

    /// The standard handicap the start position is, if any (`Some(Handicap::Even)` for the normal start).
    #[must_use]
    pub fn handicap(&self) -> Option<Handicap> {
        Handicap::from_position(&self.start)
    }
}
