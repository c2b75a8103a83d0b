//! The CSA server protocol 1.2.1 without I/O: game names
//! ([`gamename`]), a client's line as a typed command ([`command`]), the
//! `Game_Summary` block ([`summary`]), what the server says when a game
//! ends ([`result`]), the programs waiting for an opponent ([`matching`])
//! and a program's evaluation and expected line sent with its move
//! ([`note`]). The TCP edge that speaks it is `api::csa`; the games are
//! played in the same rooms as everyone's (docs/CSA.md).

pub mod command;
pub mod gamename;
pub mod matching;
pub mod note;
pub mod result;
pub mod summary;

pub use command::{Command, CommandError};
pub use gamename::{GameName, GameNameError, Login, Preference};
pub use matching::{Pairing, Waiting};
pub use note::{Note, NoteError, Score};
pub use summary::Summary;
