//! [`Game`]: a start position, the moves played, and the endings the rules decide.
//!
//! The rule endings are judged for the side to move, in this order:
//! an illegal move (when the game is played with illegal moves losing),
//! checkmate or no legal move (a loss), fourfold repetition (a draw, or a loss
//! for the side that gave check with every one of its moves since the
//! previous occurrence of the position), the impasse rule, and the maximum
//! number of moves (a draw).
//!
//! ```
//! use shogi_core::{Game, GameStatus, Move, Position};
//! let mut game = Game::new(Position::startpos());
//! for _ in 0..3 {
//!     for m in ["2h3h", "8b7b", "3h2h", "7b8b"] {
//!         game.play(m.parse::<Move>()?)?;
//!     }
//! }
//! assert_eq!(game.status(), GameStatus::RepetitionDraw);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use crate::impasse::{self, ImpasseRule, ImpasseVerdict};
use crate::rules;
use crate::{ByColor, Color, Ending, Foul, HandKind, IllegalMove, Move, Outcome, Position};

/// The rules a game is played under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameRules {
    /// The impasse rule. [`Game::status`] reports what the rule would give
    /// if the side to move declared (27, 24) or the count were made (count24)
    /// right now, as engines and referees judge a `bestmove win` or a
    /// position. Where declaring or proposing the count is an explicit act of
    /// a player (a game site), play with [`ImpasseRule::None`] here and judge
    /// the act with [`impasse::judge`](crate::impasse::judge) when it happens.
    pub impasse: ImpasseRule,
    /// Credit the pieces removed by a handicap to the handicap giver (Gote) in impasse counts.
    pub handicap_credit: bool,
    /// A draw once this many moves have been played, if set.
    pub max_moves: Option<u32>,
    /// An illegal move loses the game (over-the-board practice) instead of being refused.
    pub illegal_move_loses: bool,
}

/// The state of a game as the rules judge it, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// The game goes on.
    Ongoing,
    /// A player made an illegal move and lost (only with [`GameRules::illegal_move_loses`]).
    IllegalMove {
        /// Who made it.
        loser: Color,
        /// The move.
        mv: Move,
        /// The rule it broke.
        reason: IllegalMove,
    },
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move without being in check (a loss).
    NoLegalMoves,
    /// Fourfold repetition in which the side to move gave check with every move: it loses.
    PerpetualCheckLoss,
    /// Fourfold repetition in which the opponent gave check with every move: the side to move wins.
    PerpetualCheckWin,
    /// Fourfold repetition: a draw.
    RepetitionDraw,
    /// The impasse rule decides for the side to move.
    Impasse(ImpasseVerdict),
    /// The opponent's king has reached the try square: the side to move loses.
    TryLoss,
    /// The maximum number of moves was reached: a draw.
    MaxMovesDraw,
}

impl GameStatus {
    /// The one-word form printed by `shogi status`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            GameStatus::Ongoing => "ongoing",
            GameStatus::IllegalMove { .. } => "illegal_move",
            GameStatus::Checkmate => "checkmate",
            GameStatus::NoLegalMoves => "no_legal_moves",
            GameStatus::PerpetualCheckLoss => "perpetual_check_loss",
            GameStatus::PerpetualCheckWin => "perpetual_check_win",
            GameStatus::RepetitionDraw => "repetition_draw",
            GameStatus::Impasse(ImpasseVerdict::Win) => "impasse_win",
            GameStatus::Impasse(ImpasseVerdict::Draw) => "impasse_draw",
            GameStatus::Impasse(ImpasseVerdict::Loss) => "impasse_loss",
            GameStatus::TryLoss => "try_loss",
            GameStatus::MaxMovesDraw => "max_moves_draw",
        }
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(self) -> bool {
        self != GameStatus::Ongoing
    }

    /// Who won, given who is to move: `Some(Some(c))` a win for `c`,
    /// `Some(None)` a draw, `None` not over.
    #[must_use]
    pub fn outcome(self, side_to_move: Color) -> Option<Outcome> {
        let us = side_to_move;
        let winner = match self {
            GameStatus::Ongoing => return None,
            GameStatus::IllegalMove { loser, .. } => Some(loser.opponent()),
            GameStatus::Checkmate
            | GameStatus::NoLegalMoves
            | GameStatus::PerpetualCheckLoss
            | GameStatus::TryLoss
            | GameStatus::Impasse(ImpasseVerdict::Loss) => Some(us.opponent()),
            GameStatus::PerpetualCheckWin | GameStatus::Impasse(ImpasseVerdict::Win) => Some(us),
            GameStatus::RepetitionDraw
            | GameStatus::Impasse(ImpasseVerdict::Draw)
            | GameStatus::MaxMovesDraw => None,
        };
        Some(Outcome { winner })
    }

    /// The [`Ending`] this verdict is, given who is to move; `None` while
    /// the game goes on. This is the one translation from the rules'
    /// side-to-move verdicts to endings.
    #[must_use]
    pub fn ending(self, side_to_move: Color) -> Option<Ending> {
        let us = side_to_move;
        Some(match self {
            GameStatus::Ongoing => return None,
            GameStatus::IllegalMove { loser, mv, reason } => Ending::Foul {
                loser,
                foul: Foul::Move { mv, reason },
            },
            GameStatus::Checkmate => Ending::Checkmate { loser: us },
            GameStatus::NoLegalMoves => Ending::NoLegalMoves { loser: us },
            GameStatus::PerpetualCheckLoss => Ending::PerpetualCheck { loser: us },
            GameStatus::PerpetualCheckWin => Ending::PerpetualCheck {
                loser: us.opponent(),
            },
            GameStatus::RepetitionDraw => Ending::Repetition,
            GameStatus::Impasse(ImpasseVerdict::Win) => Ending::Impasse { winner: Some(us) },
            GameStatus::Impasse(ImpasseVerdict::Draw) => Ending::Impasse { winner: None },
            GameStatus::Impasse(ImpasseVerdict::Loss) => Ending::Impasse {
                winner: Some(us.opponent()),
            },
            GameStatus::TryLoss => Ending::Try {
                winner: us.opponent(),
            },
            GameStatus::MaxMovesDraw => Ending::MaxMoves,
        })
    }
}

/// Why [`Game::play`] refused a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The move is illegal (with [`GameRules::illegal_move_loses`] the game is now lost).
    #[error("illegal move {mv}: {reason}")]
    Illegal {
        /// The move.
        mv: Move,
        /// Why it is illegal.
        reason: IllegalMove,
    },
    /// The game is already over.
    #[error("the game is over ({0})")]
    GameOver(&'static str),
}

/// A game: start position, moves, and the rules that judge it.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    rules: GameRules,
    moves: Vec<Move>,
    /// Key of the position before each move.
    keys: Vec<u64>,
    /// Whether each move gave check.
    checks: Vec<bool>,
    illegal: Option<(Color, Move, IllegalMove)>,
    credit: ByColor<u32>,
}

impl Game {
    /// A game from `start` under the default rules.
    #[must_use]
    pub fn new(start: Position) -> Game {
        Game::with_rules(start, GameRules::default())
    }

    /// A game from `start` under `rules`.
    #[must_use]
    pub fn with_rules(start: Position, rules: GameRules) -> Game {
        let credit = if rules.handicap_credit {
            let missing = start.to_setup().missing_pieces();
            let pts: u32 = HandKind::ALL
                .iter()
                .map(|&k| u32::from(missing.count(k)) * rules::impasse_points(k.piece_kind()))
                .sum();
            ByColor::new(0, pts)
        } else {
            ByColor::default()
        };
        Game {
            position: start.clone(),
            start,
            rules,
            moves: Vec::new(),
            keys: Vec::new(),
            checks: Vec::new(),
            illegal: None,
            credit,
        }
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &GameRules {
        &self.rules
    }

    /// The illegal move that lost the game, with who made it and why.
    #[must_use]
    pub fn illegal_move(&self) -> Option<(Color, Move, IllegalMove)> {
        self.illegal
    }

    /// Impasse points credited to each side (handicap credit).
    #[must_use]
    pub fn impasse_credit(&self) -> ByColor<u32> {
        self.credit
    }

    /// Plays `m` if the game is not over and the move is legal.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] after an ending; [`PlayError::Illegal`] for an
    /// illegal move, which under [`GameRules::illegal_move_loses`] also ends
    /// the game with a loss for the mover.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        let status = self.status();
        if status.is_over() {
            return Err(PlayError::GameOver(status.word()));
        }
        self.play_ignoring_endings(m)
    }

    /// Plays `m` if it is legal, even after a rule ending (for judging a whole
    /// move list at its end); an illegal move is handled as in [`Game::play`].
    ///
    /// # Errors
    /// [`PlayError::Illegal`] for an illegal move; [`PlayError::GameOver`] after an illegal-move loss.
    pub fn play_ignoring_endings(&mut self, m: Move) -> Result<(), PlayError> {
        if self.illegal.is_some() {
            return Err(PlayError::GameOver("illegal_move"));
        }
        if let Err(reason) = self.position.check_move(m) {
            if self.rules.illegal_move_loses {
                self.illegal = Some((self.position.side_to_move(), m, reason));
            }
            return Err(PlayError::Illegal { mv: m, reason });
        }
        self.keys.push(self.position.hash());
        self.position.make_move(m);
        self.checks.push(self.position.in_check());
        self.moves.push(m);
        Ok(())
    }

    /// Takes back the last move (or the recorded illegal move); returns it.
    pub fn undo(&mut self) -> Option<Move> {
        if let Some((_, m, _)) = self.illegal.take() {
            return Some(m);
        }
        let m = self.moves.pop()?;
        self.keys.pop();
        self.checks.pop();
        let mut pos = self.start.clone();
        for &mv in &self.moves {
            pos.make_move(mv);
        }
        self.position = pos;
        Some(m)
    }

    /// The state of the game for the side to move.
    #[must_use]
    pub fn status(&self) -> GameStatus {
        if let Some((loser, mv, reason)) = self.illegal {
            return GameStatus::IllegalMove { loser, mv, reason };
        }
        let pos = &self.position;
        if !pos.has_legal_move() {
            return if pos.in_check() {
                GameStatus::Checkmate
            } else {
                GameStatus::NoLegalMoves
            };
        }
        if let Some(s) = self.repetition() {
            return s;
        }
        match self.rules.impasse {
            ImpasseRule::Try => {
                if impasse::judge(pos, ImpasseRule::Try, self.credit).is_some() {
                    return GameStatus::TryLoss;
                }
            }
            rule => {
                if let Some(v) = impasse::judge(pos, rule, self.credit) {
                    return GameStatus::Impasse(v);
                }
            }
        }
        if let Some(max) = self.rules.max_moves {
            if self.moves.len() as u64 >= u64::from(max) {
                return GameStatus::MaxMovesDraw;
            }
        }
        GameStatus::Ongoing
    }

    /// How the game ended by the rules, if it has; see [`GameStatus::ending`].
    #[must_use]
    pub fn ending(&self) -> Option<Ending> {
        self.status().ending(self.position.side_to_move())
    }

    /// The repetition verdict, if the current position stands for the fourth time.
    fn repetition(&self) -> Option<GameStatus> {
        let key = self.position.hash();
        let n = self.keys.len();
        let earlier: Vec<usize> = (0..n).filter(|&i| self.keys[i] == key).collect();
        if earlier.len() < 3 {
            return None;
        }
        // The cycle: the moves since the previous occurrence of this position.
        let last = *earlier.last()?;
        let cycle = last..n;
        // Move i was made by the side to move at the start when i is even (relative to `last`).
        // The move at index n-1 was made by the opponent of the side to move now.
        let all_checks = |parity: usize| {
            let mut idx = cycle
                .clone()
                .filter(|i| (n - 1 - i) % 2 == parity)
                .peekable();
            idx.peek().is_some() && idx.all(|i| self.checks[i])
        };
        if all_checks(0) {
            Some(GameStatus::PerpetualCheckWin)
        } else if all_checks(1) {
            Some(GameStatus::PerpetualCheckLoss)
        } else {
            Some(GameStatus::RepetitionDraw)
        }
    }
}
