//! A USI shogi engine built on [`shogi_core`]: an alpha-beta search with a
//! transposition table, a tuned linear evaluation, time management and a
//! df-pn mate solver.
//!
//! The entry points:
//! - [`usi::run_usi`]`(BufReader::new(stdin()), stdout())`: the USI protocol loop;
//! - [`dfpn::solve_mate`] / [`dfpn::solve_mate_sfen`]`(sfen, time_ms)`: the mate
//!   solver, whose [`MateResult::to_usi`] gives `checkmate <moves>`,
//!   `checkmate nomate` or `checkmate timeout`;
//! - [`bench::bench`]`(depth)`: a fixed-depth, single-thread node count whose
//!   [`Display`](std::fmt::Display) prints one line per position and a total.
//!
//! ```
//! use shogi_engine::search::{search_position, SearchOptions};
//! use shogi_engine::limits::SearchLimit;
//! let pos = shogi_core::Position::startpos();
//! let result = search_position(&pos, &SearchLimit::Depth(2), &SearchOptions::default());
//! assert!(result.best_move.is_some());
//! ```
#![warn(missing_docs)]
#![deny(unsafe_code)] // two exceptions in `tt` (a prefetch hint, huge-page advice), each with its proof

pub mod arena;
pub mod bench;
pub mod checks;
pub mod control;
pub mod dfpn;
pub mod elo;
pub mod eval;
pub mod history;
pub mod limits;
pub mod movepicker;
pub mod params;
pub mod puzzles;
pub mod rng;
pub mod score;
pub mod search;
pub mod search_params;
pub mod see;
pub mod skill;
pub mod spsa;
pub mod timemgmt;
pub mod tt;
pub mod tune;
pub mod usi;
pub mod usi_client;

pub use dfpn::{solve_mate, MateLimit, MateResult};
pub use usi::run_usi;
