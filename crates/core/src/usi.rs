//! USI position text: `startpos moves 7g7f 3c3d`, `sfen <SFEN> moves ...`,
//! with or without the leading `position`, or a bare SFEN.
//!
//! Reading is syntax only; [`PositionCommand::replay`] then plays the moves
//! and reports the first illegal one.
//!
//! ```
//! use shogi_core::usi::PositionCommand;
//! let cmd: PositionCommand = "position startpos moves 7g7f 3c3d".parse()?;
//! assert_eq!(cmd.moves.len(), 2);
//! let (game, error) = cmd.replay(Default::default());
//! assert!(error.is_none());
//! assert_eq!(game.moves().len(), 2);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::str::FromStr;

use crate::{sfen, Game, GameRules, Leniency, Move, PlayError, Position, SfenError, UsiMoveError};

/// A start position and a list of moves, as USI writes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The start position.
    pub start: Position,
    /// The moves, not yet checked for legality.
    pub moves: Vec<Move>,
}

/// Why USI position text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsiPositionError {
    /// Nothing given.
    #[error("empty position: expected startpos or an SFEN")]
    Empty,
    /// The SFEN part is wrong.
    #[error(transparent)]
    Sfen(#[from] SfenError),
    /// A move token is not a USI move.
    #[error("move {index} ({token:?}): {error}")]
    Move {
        /// 1-based index in the move list.
        index: usize,
        /// The token.
        token: String,
        /// What is wrong with it.
        error: UsiMoveError,
    },
}

impl PositionCommand {
    /// Reads USI position text; `leniency` applies to the SFEN.
    ///
    /// # Errors
    /// The first problem found.
    pub fn parse_with(text: &str, leniency: Leniency) -> Result<PositionCommand, UsiPositionError> {
        let mut rest = text.trim();
        if let Some(r) = rest.strip_prefix("position") {
            rest = r.trim_start();
        }
        if rest.is_empty() {
            return Err(UsiPositionError::Empty);
        }
        let (pos_part, moves_part) = match rest.find(" moves") {
            Some(i) => (&rest[..i], Some(rest[i + 6..].trim())),
            None => match rest.strip_suffix("moves") {
                Some(p) => (p, Some("")),
                None => (rest, None),
            },
        };
        let pos_part = pos_part.trim();
        let start = if pos_part == "startpos" {
            Position::startpos()
        } else {
            sfen::parse_position_with(pos_part.strip_prefix("sfen").unwrap_or(pos_part), leniency)?
        };
        let mut moves = Vec::new();
        for (i, tok) in moves_part.unwrap_or("").split_whitespace().enumerate() {
            let m = tok.parse().map_err(|error| UsiPositionError::Move {
                index: i + 1,
                token: tok.to_string(),
                error,
            })?;
            moves.push(m);
        }
        Ok(PositionCommand { start, moves })
    }

    /// Plays the moves into a [`Game`] under `rules`, not stopping at rule
    /// endings (the whole list is replayed; judge the result with
    /// [`Game::status`]). Stops at the first illegal move and reports its
    /// 1-based index and why it was refused.
    #[must_use]
    pub fn replay(&self, rules: GameRules) -> (Game, Option<(usize, PlayError)>) {
        let mut game = Game::with_rules(self.start.clone(), rules);
        for (i, &m) in self.moves.iter().enumerate() {
            if let Err(e) = game.play_ignoring_endings(m) {
                return (game, Some((i + 1, e)));
            }
        }
        (game, None)
    }

    /// Writes `position`-less USI text: `startpos moves ...` or `sfen ... moves ...`.
    #[must_use]
    pub fn to_usi(&self) -> String {
        let mut s = if self.start == Position::startpos() {
            "startpos".to_string()
        } else {
            format!("sfen {}", self.start.to_sfen())
        };
        if !self.moves.is_empty() {
            s.push_str(" moves");
            for m in &self.moves {
                s.push(' ');
                s.push_str(&m.to_string());
            }
        }
        s
    }
}

impl FromStr for PositionCommand {
    type Err = UsiPositionError;
    fn from_str(s: &str) -> Result<PositionCommand, UsiPositionError> {
        PositionCommand::parse_with(s, Leniency::default())
    }
}
