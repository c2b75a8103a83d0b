//! Storage, the only place that speaks SQL, on `SQLite` (the embedded
//! default) or PostgreSQL ([`Location`]), each query written once for both: games and their moves
//! ([`games`]), imported records ([`records`]), analyses ([`analysis`]),
//! review annotations ([`annotations`]), the archive list ([`archive`]),
//! ratings and the players of games ([`players`]), and accounts with their
//! sessions ([`accounts`]), club tournaments ([`tournaments`]) and the
//! organisers' invitations to them ([`invitations`]), the learn
//! pages' progress ([`learn`]), puzzle ratings and attempts ([`puzzles`]),
//! the instances and the leases of live games ([`leases`]), the
//! moderators' reports, log and actions ([`moderation`]), the rate
//! limits several instances share ([`rate_hits`]), the secrets they share
//! ([`secrets`]), and the consequences of
//! endings still due ([`outbox`]).
//! Every statement binds its values; no SQL is built from text. Rows come
//! back typed: moves as [`shogi_core::Move`], endings as
//! [`shogi_core::Ending`], settings as [`crate::game::Settings`].
//!
//! The schema lives in `migrations/` (`SQLite`) and `migrations/postgres/`
//! (the same versions, names, tables, columns and indexes in PostgreSQL's
//! types), embedded at build time and applied by [`Store::open`] (sqlx's
//! migrator, without its compile-time macros).

pub mod accounts;
pub mod analysis;
pub mod annotations;
pub mod archive;
pub mod explorer;
pub mod games;
pub mod invitations;
pub mod learn;
pub mod leases;
pub mod moderation;
pub mod outbox;
pub mod players;
pub mod puzzles;
pub mod rate_hits;
pub mod records;
pub mod secrets;
pub mod tournaments;

mod store;

pub use accounts::{NameKeys, NewSession, ProgramRow, UserRow};
pub use games::{GameWrite, MoveRecord, NewGame, StoredGame};
pub use leases::Fence;
pub use outbox::Consequence;
pub use store::{Location, Store, Writer};
