//! Game clocks: main time then byoyomi periods, Fischer increment, or sudden
//! death. Pure arithmetic on milliseconds; the room decides when time passes.
//!
//! ```
//! use shogi_server::game::clock::{Clock, TimeControl};
//! let tc = TimeControl { main_ms: 10_000, byoyomi_ms: 30_000, periods: 1, increment_ms: 0 };
//! let mut clock = Clock::new(tc);
//! // A move at exactly the end of main time enters byoyomi.
//! assert!(clock.charge(10_000).is_ok());
//! assert_eq!((clock.main_ms, clock.periods_left), (0, 1));
//! // A move inside the period keeps it.
//! assert!(clock.charge(29_999).is_ok());
//! assert_eq!(clock.periods_left, 1);
//! // Using the whole last period loses on time.
//! assert!(clock.charge(30_000).is_err());
//! ```

use serde::{Deserialize, Serialize};

/// The longest main time, byoyomi or increment accepted: one day.
pub const MAX_TIME_MS: u64 = 24 * 60 * 60 * 1000;
/// The most byoyomi periods accepted.
pub const MAX_PERIODS: u32 = 10;

/// A time control as chosen when the game is created.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Main time.
    #[serde(default)]
    pub main_ms: u64,
    /// Length of one byoyomi period (0: none).
    #[serde(default)]
    pub byoyomi_ms: u64,
    /// Number of byoyomi periods.
    #[serde(default = "one")]
    pub periods: u32,
    /// Fischer increment added after each move (0: none).
    #[serde(default)]
    pub increment_ms: u64,
}

fn one() -> u32 {
    1
}

/// The shortest game a rated time control may give: its main time and 40
/// moves' byoyomi or increment add up to at least a minute (1+0 bullet is
/// rated; a 1 ms clock, which loses on time before a person can move, is
/// not).
pub const MIN_RATED_GAME_MS: u64 = 60_000;

/// The refusal of a rated game at a time control that is not [`TimeControl::rateable`].
pub const RATED_TOO_FAST: &str =
    "time: a rated game needs main time plus 40 moves of byoyomi or increment of at least a minute";

impl TimeControl {
    /// Whether a person can play a rated game at this time control: main
    /// time plus 40 moves of byoyomi or increment is at least
    /// [`MIN_RATED_GAME_MS`].
    ///
    /// ```
    /// use shogi_server::game::clock::TimeControl;
    /// let tc = |main_ms, byoyomi_ms| TimeControl { main_ms, byoyomi_ms, periods: 1, increment_ms: 0 };
    /// assert!(tc(60_000, 0).rateable());
    /// assert!(tc(0, 10_000).rateable());
    /// assert!(!tc(1, 0).rateable());
    /// assert!(!tc(10_000, 1_000).rateable());
    /// ```
    #[must_use]
    pub fn rateable(&self) -> bool {
        let per_move = self.byoyomi_ms.saturating_add(self.increment_ms);
        self.main_ms.saturating_add(per_move.saturating_mul(40)) >= MIN_RATED_GAME_MS
    }

    /// Checks the limits: every value at most a day, at most
    /// [`MAX_PERIODS`] periods, not byoyomi and increment together, not all zero.
    ///
    /// # Errors
    /// A message naming the bad field.
    pub fn validate(&self) -> Result<(), String> {
        for (name, v) in [
            ("main_ms", self.main_ms),
            ("byoyomi_ms", self.byoyomi_ms),
            ("increment_ms", self.increment_ms),
        ] {
            if v > MAX_TIME_MS {
                return Err(format!("time.{name} {v} is over one day ({MAX_TIME_MS})"));
            }
        }
        if self.byoyomi_ms > 0 && !(1..=MAX_PERIODS).contains(&self.periods) {
            return Err(format!("time.periods must be 1..={MAX_PERIODS}"));
        }
        if self.byoyomi_ms > 0 && self.increment_ms > 0 {
            return Err("time: byoyomi and increment cannot be combined".into());
        }
        if self.main_ms == 0 && self.byoyomi_ms == 0 && self.increment_ms == 0 {
            return Err("time: all zero; send null for a game without clocks".into());
        }
        Ok(())
    }
}

/// The time is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged;

/// One side's clock between moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The time control.
    pub control: TimeControl,
    /// Main time left.
    pub main_ms: u64,
    /// Byoyomi periods left.
    pub periods_left: u32,
}

impl Clock {
    /// A full clock.
    #[must_use]
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            main_ms: control.main_ms,
            periods_left: if control.byoyomi_ms > 0 {
                control.periods
            } else {
                0
            },
        }
    }

    /// How long the side may think on this turn: the time used reaching this loses.
    #[must_use]
    pub fn time_available_ms(&self) -> u64 {
        self.main_ms + self.control.byoyomi_ms * u64::from(self.periods_left)
    }

    /// Charges `used_ms` for a move just made.
    ///
    /// # Errors
    /// [`Flagged`] when the time used reached the time available; the clock
    /// is then left at zero.
    pub fn charge(&mut self, used_ms: u64) -> Result<(), Flagged> {
        if used_ms >= self.time_available_ms() {
            self.main_ms = 0;
            self.periods_left = 0;
            return Err(Flagged);
        }
        if used_ms <= self.main_ms {
            self.main_ms -= used_ms;
        } else {
            let over = used_ms - self.main_ms;
            self.main_ms = 0;
            // Only byoyomi is left here (otherwise the move would have flagged).
            let spent = over / self.control.byoyomi_ms;
            self.periods_left -= u32::try_from(spent).unwrap_or(u32::MAX);
        }
        self.main_ms += self.control.increment_ms;
        Ok(())
    }

    /// The clock as it reads `used_ms` into the turn: (main left, left of the
    /// current byoyomi period, periods left). Saturates at zero.
    #[must_use]
    pub fn reading(&self, used_ms: u64) -> (u64, u64, u32) {
        let byo = self.control.byoyomi_ms;
        if used_ms < self.main_ms || byo == 0 {
            return (self.main_ms.saturating_sub(used_ms), byo, self.periods_left);
        }
        let over = used_ms - self.main_ms;
        let spent = over / byo;
        let left = u64::from(self.periods_left).saturating_sub(spent);
        if left == 0 {
            return (0, 0, 0);
        }
        (0, byo - over % byo, u32::try_from(left).unwrap_or(u32::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn byoyomi(main_ms: u64, byoyomi_ms: u64, periods: u32) -> Clock {
        Clock::new(TimeControl {
            main_ms,
            byoyomi_ms,
            periods,
            increment_ms: 0,
        })
    }

    #[test]
    fn several_periods_are_used_one_by_one() {
        let mut c = byoyomi(0, 10_000, 3);
        c.charge(25_000).unwrap();
        assert_eq!(c.periods_left, 1);
        assert_eq!(c.reading(0), (0, 10_000, 1));
        assert_eq!(c.charge(10_000), Err(Flagged));
    }

    #[test]
    fn reading_counts_down_through_periods() {
        let c = byoyomi(5_000, 10_000, 2);
        assert_eq!(c.reading(1_000), (4_000, 10_000, 2));
        assert_eq!(c.reading(7_000), (0, 8_000, 2));
        assert_eq!(c.reading(16_000), (0, 9_000, 1));
        assert_eq!(c.reading(25_000), (0, 0, 0));
    }

    #[test]
    fn fischer_adds_the_increment_after_the_move() {
        let mut c = Clock::new(TimeControl {
            main_ms: 60_000,
            byoyomi_ms: 0,
            periods: 1,
            increment_ms: 5_000,
        });
        c.charge(10_000).unwrap();
        assert_eq!(c.main_ms, 55_000);
        assert_eq!(c.charge(55_000), Err(Flagged));
    }
}
