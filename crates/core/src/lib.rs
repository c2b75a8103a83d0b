//! The rules of shogi: types, bitboards, legal move generation, SFEN and USI
//! text, game endings and perft. No I/O.
//!
//! ```
//! use shogi_core::{Game, Move, Position, GameStatus};
//! let mut game = Game::new(Position::startpos());
//! for m in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
//!     game.play(m.parse::<Move>()?)?;
//! }
//! assert_eq!(game.position().to_sfen(), "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5");
//! assert_eq!(game.status(), GameStatus::Ongoing);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod attacks;
mod bitboard;
mod color;
mod ending;
mod game;
mod hand;
mod handicap;
pub mod impasse;
mod movegen;
mod moves;
pub mod perft;
mod piece;
mod position;
pub mod rules;
mod setup;
pub mod sfen;
mod square;
pub mod usi;
pub mod zobrist;

pub use bitboard::{Bitboard, BitboardIter};
pub use color::{ByColor, Color};
pub use ending::{Ending, Foul, Outcome};
pub use game::{Game, GameRules, GameStatus, PlayError};
pub use hand::Hand;
pub use handicap::{Handicap, UnknownHandicap};
pub use impasse::{ImpasseRule, ImpasseVerdict, UnknownImpasseRule};
pub use moves::{Move, MoveList, UsiMoveError, MAX_MOVES};
pub use piece::{HandKind, Piece, PieceKind};
pub use position::{IllegalMove, Leniency, Position, PositionError, Undo};
pub use setup::Setup;
pub use sfen::SfenError;
pub use square::{File, Rank, Square, SquareParseError};
