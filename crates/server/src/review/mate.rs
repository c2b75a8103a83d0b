//! The mate search of the review board, on a thread of the
//! [`SearchPool`] (shared with the computer's moves and the analyses).

use shogi_engine::dfpn::{self, MateResult};

use crate::error::{Error, Problem};
use crate::search_pool::SearchPool;

/// The longest mate search, in milliseconds.
pub const MAX_MATE_MS: u64 = 10_000;
/// The mate search time when the request does not say.
pub const DEFAULT_MATE_MS: u64 = 3000;
/// The longest SFEN accepted.
pub const MAX_SFEN_BYTES: usize = 200;

/// Searches a mate for the side to move of `sfen` for at most `time_ms`
/// (clamped to 1..=[`MAX_MATE_MS`]) once `pool` has a free thread. Tsume
/// positions need no attacking king: the solver's own SFEN reading allows that.
///
/// # Errors
/// [`Error::BadRequest`] for a bad SFEN; [`Error::Internal`] if the search failed.
pub async fn solve(pool: &SearchPool, sfen: String, time_ms: u64) -> Result<MateResult, Error> {
    if sfen.len() > MAX_SFEN_BYTES {
        return Err(Error::BadRequest("sfen too long".into()));
    }
    let time_ms = time_ms.clamp(1, MAX_MATE_MS);
    pool.run(move || dfpn::solve_mate_sfen(&sfen, time_ms))
        .await
        .map_err(|e| Error::Internal(format!("mate search: {e}")))?
        .map_err(|e| {
            Error::Problem(Problem::BadSfen {
                detail: e.to_string(),
            })
        })
}
