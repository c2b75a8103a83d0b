//! Live games: the registry of rooms ([`rooms::Rooms`], the entry point of
//! every request about a game in play), one room per game fed by a channel
//! ([`room`], a file per verb), creating a game ([`create`]), the state the
//! room shows ([`view`]), who sits at a game ([`players`]), the computer's
//! seat ([`opponent`]), the sockets of a room ([`connections`]), the group
//! commit of moves ([`committer`]) and, with several instances, which one
//! holds a game ([`leases`]). No HTTP here: `api` turns requests and
//! sockets into these calls.

pub mod committer;
pub mod connections;
pub mod create;
pub mod leases;
pub mod opponent;
pub mod players;
pub mod room;
pub mod rooms;
pub mod view;
