//! [`Ending`]: how a game ended, one vocabulary from the rules up to records,
//! the server's protocol and the match runner.
//!
//! [`GameStatus`](crate::GameStatus) is what the rules say about a position
//! for the side to move; an [`Ending`] is the end of a game told without
//! reference to whose turn it is: who lost (or won) and why. The rules'
//! verdicts become endings through [`GameStatus::ending`](crate::GameStatus::ending);
//! acts of the players (resignation, a flag falling, an accepted draw, an
//! abort) are endings of their own. Every layer above speaks this type and
//! translates it exactly once: to a record format's word (`shogi-record`), to
//! the protocol's JSON (`shogi-server`).
//!
//! ```
//! use shogi_core::{Color, Ending, Game, Move, Position};
//! let mut game = Game::new(Position::startpos());
//! for _ in 0..3 {
//!     for m in ["2h3h", "8b7b", "3h2h", "7b8b"] {
//!         game.play(m.parse::<Move>()?)?;
//!     }
//! }
//! assert_eq!(game.ending(), Some(Ending::Repetition));
//! assert_eq!(game.ending().unwrap().winner(), None);
//! let resigned = Ending::Resignation { loser: Color::Gote };
//! assert_eq!(resigned.winner(), Some(Color::Sente));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use crate::{Color, IllegalMove, Move};

/// How a finished game ended: the winner, or none for a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
}

/// A broken rule that lost a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Foul {
    /// An illegal move, with the rule it broke.
    Move {
        /// The move played.
        mv: Move,
        /// The rule it broke.
        reason: IllegalMove,
    },
    /// A move that could not be read at all (an engine's garbled `bestmove`).
    UnreadableMove,
    /// An impasse declaration (or try) claimed when the rule's conditions were not met.
    FalseDeclaration,
    /// A foul its source names without saying which rule was broken: a game record's
    /// 反則負け / 反則勝ち or CSA `%ILLEGAL_MOVE`, `%±ILLEGAL_ACTION`.
    Unspecified,
}

/// How a game ended: the reason and, through it, who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// `loser` is checkmated (詰み).
    Checkmate {
        /// The side that is mated.
        loser: Color,
    },
    /// `loser` is to move, is not in check and has no legal move (a loss).
    NoLegalMoves {
        /// The side with no move.
        loser: Color,
    },
    /// `loser` resigned (投了), on its own turn or the opponent's.
    Resignation {
        /// The side that resigned.
        loser: Color,
    },
    /// `loser` ran out of time (時間切れ).
    Timeout {
        /// The side whose flag fell.
        loser: Color,
    },
    /// `loser` broke a rule (反則負け).
    Foul {
        /// The side that broke it.
        loser: Color,
        /// What was broken.
        foul: Foul,
    },
    /// Fourfold repetition in which `loser` gave check with every move (連続王手の千日手).
    PerpetualCheck {
        /// The side that gave the checks.
        loser: Color,
    },
    /// Fourfold repetition (千日手), a draw.
    Repetition,
    /// The impasse rule (持将棋, 入玉宣言): a declaration or a count.
    Impasse {
        /// The winner; `None` for a draw.
        winner: Option<Color>,
    },
    /// The try rule: `winner`'s king reached the opponent's king's start square.
    Try {
        /// The side whose king made the try.
        winner: Color,
    },
    /// The maximum number of moves was reached, a draw.
    MaxMoves,
    /// The players agreed a draw (引き分け).
    DrawAgreement,
    /// The game was stopped without a result (中断).
    Abort,
}

impl Ending {
    /// The winner; `None` for a draw or an abort.
    #[must_use]
    pub fn winner(self) -> Option<Color> {
        match self {
            Ending::Checkmate { loser }
            | Ending::NoLegalMoves { loser }
            | Ending::Resignation { loser }
            | Ending::Timeout { loser }
            | Ending::Foul { loser, .. }
            | Ending::PerpetualCheck { loser } => Some(loser.opponent()),
            Ending::Impasse { winner } => winner,
            Ending::Try { winner } => Some(winner),
            Ending::Repetition | Ending::MaxMoves | Ending::DrawAgreement | Ending::Abort => None,
        }
    }

    /// The loser; `None` for a draw or an abort.
    #[must_use]
    pub fn loser(self) -> Option<Color> {
        self.winner().map(Color::opponent)
    }

    /// The result: a win for one side, a draw, or none at all (an abort).
    #[must_use]
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Ending::Abort => None,
            e => Some(Outcome { winner: e.winner() }),
        }
    }

    /// A short English word for the reason, as `shogi` prints and the
    /// server's protocol sends it: `checkmate`, `no_legal_moves`, `resign`,
    /// `timeout`, `illegal_move`, `perpetual_check`, `repetition`, `impasse`,
    /// `try`, `max_moves`, `draw`, `abort`.
    #[must_use]
    pub fn reason_word(self) -> &'static str {
        match self {
            Ending::Checkmate { .. } => "checkmate",
            Ending::NoLegalMoves { .. } => "no_legal_moves",
            Ending::Resignation { .. } => "resign",
            Ending::Timeout { .. } => "timeout",
            Ending::Foul { .. } => "illegal_move",
            Ending::PerpetualCheck { .. } => "perpetual_check",
            Ending::Repetition => "repetition",
            Ending::Impasse { .. } => "impasse",
            Ending::Try { .. } => "try",
            Ending::MaxMoves => "max_moves",
            Ending::DrawAgreement => "draw",
            Ending::Abort => "abort",
        }
    }
}

impl Ending {
    /// Why the game ended, without who won: the reason word, and for an
    /// illegal move the move and the rule it broke (`illegal_move 7g7e (…)`).
    #[must_use]
    pub fn cause(self) -> String {
        match self {
            Ending::Foul {
                foul: Foul::Move { mv, reason },
                ..
            } => format!("{} {mv} ({reason})", self.reason_word()),
            e => e.reason_word().to_string(),
        }
    }
}

impl std::fmt::Display for Ending {
    /// `checkmate, Sente wins`, `repetition, draw`, `abort`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.cause())?;
        match (self.outcome(), self.winner()) {
            (None, _) => Ok(()),
            (Some(_), Some(w)) => write!(f, ", {w:?} wins"),
            (Some(_), None) => f.write_str(", draw"),
        }
    }
}
