//! Time management: how long to think about a move.
//!
//! [`allocate`] turns a [`SearchLimit`] into a [`TimeBudget`]: an *optimum*
//! (a new iteration is not started after it, stretched when the best move is
//! unstable or the score falls) and a *maximum* (the search is stopped at
//! it). Under byoyomi the main time is spent first and then the per-move
//! allowance, always keeping a safety margin of `NetworkDelay` +
//! [`SAFETY_MARGIN_MS`] so the engine never loses on time. With Fischer
//! increments the main time alone bounds the move.
//!
//! ```
//! use shogi_core::Color;
//! use shogi_engine::limits::{Clock, SearchLimit};
//! use shogi_engine::timemgmt::allocate;
//! let limit = SearchLimit::Clock(Clock { byoyomi: 1000, ..Clock::default() });
//! let b = allocate(&limit, Color::Sente, 0, 0).unwrap();
//! assert!(b.maximum_ms <= 1000 - 20 && b.maximum_ms >= 900);
//! assert!(b.use_all);
//! ```

use shogi_core::Color;

use crate::limits::SearchLimit;

/// Kept in hand on top of the network delay so that a move never arrives late.
pub const SAFETY_MARGIN_MS: u64 = 20;

/// How long a search may take, in milliseconds from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration after this (scaled by stability).
    pub optimum_ms: u64,
    /// Stop the search at this.
    pub maximum_ms: u64,
    /// Time not used is lost (byoyomi or fixed move time): search up to the maximum.
    pub use_all: bool,
}

/// The budget for a search under `limit` by `side` at game ply `ply`, or
/// `None` when time does not limit the search. `network_delay` is the
/// `NetworkDelay` option (milliseconds).
#[must_use]
pub fn allocate(
    limit: &SearchLimit,
    side: Color,
    ply: u32,
    network_delay: u64,
) -> Option<TimeBudget> {
    let margin = network_delay.saturating_add(SAFETY_MARGIN_MS);
    if let Some(t) = limit.move_time() {
        let m = t.saturating_sub(margin).max(t.min(1));
        return Some(TimeBudget {
            optimum_ms: m,
            maximum_ms: m,
            use_all: true,
        });
    }
    let clock = limit.clock()?;
    let time = clock.time(side);
    let inc = clock.inc(side);
    let byo = clock.byoyomi;
    // The hardest limit: everything on the clock that this move may use.
    let hard = if byo > 0 {
        time.saturating_add(byo).saturating_sub(margin)
    } else {
        // With an increment the time is added after the move: only `time` counts.
        time.saturating_sub(margin)
    }
    .max(1);
    let moves_to_go = 50u64.saturating_sub(u64::from(ply) / 4).max(20);
    let base = (time / moves_to_go).saturating_add(inc / 4 * 3);
    if byo > 0 && time < byo {
        // Practically in byoyomi: use all of it.
        return Some(TimeBudget {
            optimum_ms: hard,
            maximum_ms: hard,
            use_all: true,
        });
    }
    let byo_usable = byo.saturating_sub(margin);
    let optimum = base.saturating_add(byo_usable).min(hard).max(1);
    let maximum = base
        .saturating_mul(4)
        .saturating_add(byo_usable)
        .min((time / 3).saturating_add(byo).saturating_add(inc))
        .min(hard)
        .max(optimum);
    Some(TimeBudget {
        optimum_ms: optimum,
        maximum_ms: maximum,
        use_all: false,
    })
}

/// The share of [`TimeBudget::optimum_ms`] after which no new iteration
/// starts, given for how many iterations the best move has not changed:
/// more while it still changes, less once it has held for a while.
#[must_use]
pub fn stability_factor(stable: u32) -> f64 {
    match stable {
        0 => 1.3,
        1 => 0.9,
        2 => 0.7,
        _ => 0.5,
    }
}

/// The factor on [`TimeBudget::optimum_ms`] when the best score has just
/// fallen by `drop` centipawns from the iteration before: 1 when it held or
/// rose, growing to 1.5 for a fall of a pawn (100 cp) or more, so that a
/// move whose trouble the search is only now seeing gets more time.
///
/// ```
/// use shogi_engine::timemgmt::falling_factor;
/// assert_eq!(falling_factor(-40), 1.0);
/// assert_eq!(falling_factor(50), 1.25);
/// assert_eq!(falling_factor(400), 1.5);
/// ```
#[must_use]
pub fn falling_factor(drop: i32) -> f64 {
    1.0 + f64::from(drop.clamp(0, 100)) / 200.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Clock;

    #[test]
    fn budgets() {
        let c = |btime, binc, byoyomi| {
            SearchLimit::Clock(Clock {
                btime,
                binc,
                byoyomi,
                ..Clock::default()
            })
        };
        // Main time plus byoyomi: more than the byoyomi, well under the total.
        let b = allocate(&c(60_000, 0, 5_000), Color::Sente, 0, 100).unwrap();
        assert!(b.optimum_ms >= 5_000 - 120 && b.maximum_ms <= 65_000 - 120);
        // Fischer: never more than the remaining time minus the margin.
        let b = allocate(&c(1_000, 10_000, 0), Color::Sente, 0, 0).unwrap();
        assert!(b.maximum_ms <= 1_000 - SAFETY_MARGIN_MS);
        // Gote's clock is not Sente's.
        let b = allocate(&c(100_000, 0, 0), Color::Gote, 0, 0).unwrap();
        assert_eq!(b.maximum_ms, 1);
        let m = allocate(&SearchLimit::MoveTime(300), Color::Sente, 0, 0).unwrap();
        assert_eq!(m.maximum_ms, 280);
        assert!(allocate(&SearchLimit::Depth(3), Color::Sente, 0, 0).is_none());
        // Absurd clocks do not overflow.
        let huge = allocate(&c(u64::MAX, u64::MAX, u64::MAX), Color::Sente, 0, u64::MAX).unwrap();
        assert!(huge.optimum_ms <= huge.maximum_ms);
    }

    #[test]
    fn a_stable_best_move_uses_less_of_the_optimum() {
        let f: Vec<f64> = (0..5).map(stability_factor).collect();
        assert!(f.windows(2).all(|w| w[0] >= w[1]), "{f:?}");
        assert!(f[0] > 1.0 && f[4] < 1.0);
    }

    #[test]
    fn a_falling_score_gets_more_of_the_optimum_but_bounded() {
        let f: Vec<f64> = (-50..=300).step_by(10).map(falling_factor).collect();
        assert!(f.windows(2).all(|w| w[0] <= w[1]), "{f:?}");
        assert_eq!(f[0], 1.0);
        assert!(f.iter().all(|&x| (1.0..=1.5).contains(&x)));
        assert!(falling_factor(100) > falling_factor(20));
    }
}
