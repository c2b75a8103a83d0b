//! The mate search of the review board: one search at a time, so that live
//! games are never starved, on the blocking pool.

use std::sync::{Arc, OnceLock};

use shogi_engine::dfpn::{self, MateResult};
use tokio::sync::Semaphore;

use crate::error::Error;

/// The longest mate search, in milliseconds.
pub const MAX_MATE_MS: u64 = 10_000;
/// The mate search time when the request does not say.
pub const DEFAULT_MATE_MS: u64 = 3000;
/// The longest SFEN accepted.
pub const MAX_SFEN_BYTES: usize = 200;

/// One mate search at a time.
fn gate() -> &'static Arc<Semaphore> {
    static GATE: OnceLock<Arc<Semaphore>> = OnceLock::new();
    GATE.get_or_init(|| Arc::new(Semaphore::new(1)))
}

/// Searches a mate for the side to move of `sfen` for at most `time_ms`
/// (clamped to 1..=[`MAX_MATE_MS`]). Tsume positions need no attacking king:
/// the solver's own SFEN reading allows that.
///
/// # Errors
/// [`Error::BadRequest`] for a bad SFEN; [`Error::Internal`] if the search failed.
pub async fn solve(sfen: String, time_ms: u64) -> Result<MateResult, Error> {
    if sfen.len() > MAX_SFEN_BYTES {
        return Err(Error::BadRequest("sfen too long".into()));
    }
    let time_ms = time_ms.clamp(1, MAX_MATE_MS);
    let _permit = gate()
        .clone()
        .acquire_owned()
        .await
        .map_err(|e| Error::Internal(e.to_string()))?;
    tokio::task::spawn_blocking(move || dfpn::solve_mate_sfen(&sfen, time_ms))
        .await
        .map_err(|e| Error::Internal(format!("mate search: {e}")))?
        .map_err(|e| Error::BadRequest(format!("sfen: {e}")))
}
