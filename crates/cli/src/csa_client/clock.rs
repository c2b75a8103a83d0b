//! Both sides' clocks as the server charges them, kept from the `T` of each
//! echoed move, and the USI `go` command they give the engine.
//!
//! The server's `T` is the time it charged, in the game's time units (whole
//! seconds on shogi-server and on ours: a move of 3.4 s is `T3`). A side's
//! main time goes down by each `T`, not below zero (the rest of a move is
//! byoyomi); a Fischer increment is added after each move.
//!
//! The engine is told a little less than it has, [`Clocks::go_command`]'s
//! margin: taken off the byoyomi when there is one (never more than half of
//! it), otherwise off its own main time. The margin covers the network and
//! the bridge; the whole-second charge only ever helps.
//!
//! ```text
//! 600 s + 10 s byoyomi, margin 1000 ms:   go btime 600000 wtime 600000 byoyomi 9000
//! 300 s + 10 s increment, margin 1000 ms: go btime 299000 wtime 300000 binc 10000 winc 10000
//! ```

use shogi_core::{ByColor, Color};

use super::summary::TimeRule;

/// Each side's rule and main time left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    rules: ByColor<TimeRule>,
    left_ms: ByColor<u64>,
}

impl Clocks {
    /// Both clocks at the start of a game.
    #[must_use]
    pub fn new(rules: ByColor<TimeRule>) -> Clocks {
        Clocks {
            rules,
            left_ms: ByColor::new(rules[Color::Sente].total_ms, rules[Color::Gote].total_ms),
        }
    }

    /// Charges `color` for a move whose echo said `T<units>`.
    pub fn charge(&mut self, color: Color, units: u64) {
        let rule = self.rules[color];
        let spent = units.saturating_mul(rule.unit_ms);
        let left = self.left_ms[color].saturating_sub(spent);
        self.left_ms[color] = left.saturating_add(rule.increment_ms);
    }

    /// The longest a move of `color` may take on the server's clock, in
    /// milliseconds: its main time and its byoyomi.
    #[must_use]
    pub fn allowance_ms(&self, color: Color) -> u64 {
        self.left_ms[color].saturating_add(self.rules[color].byoyomi_ms)
    }

    /// The `go` command for the engine playing `me`, keeping `margin_ms`
    /// back: `go btime B wtime W byoyomi Y`, or with `binc`/`winc` under a
    /// Fischer clock (one that gives `me` an increment).
    #[must_use]
    pub fn go_command(&self, me: Color, margin_ms: u64) -> String {
        let mut left = self.left_ms;
        let mine = self.rules[me];
        if mine.increment_ms > 0 {
            left[me] = left[me].saturating_sub(margin_ms);
            return format!(
                "go btime {} wtime {} binc {} winc {}",
                left[Color::Sente],
                left[Color::Gote],
                self.rules[Color::Sente].increment_ms,
                self.rules[Color::Gote].increment_ms
            );
        }
        let byoyomi = if mine.byoyomi_ms > 0 {
            mine.byoyomi_ms - margin_ms.min(mine.byoyomi_ms / 2)
        } else {
            left[me] = left[me].saturating_sub(margin_ms);
            0
        };
        format!(
            "go btime {} wtime {} byoyomi {byoyomi}",
            left[Color::Sente],
            left[Color::Gote]
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(total: u64, byoyomi: u64, increment: u64) -> TimeRule {
        TimeRule {
            unit_ms: 1000,
            total_ms: total * 1000,
            byoyomi_ms: byoyomi * 1000,
            increment_ms: increment * 1000,
        }
    }

    fn clocks(r: TimeRule) -> Clocks {
        Clocks::new(ByColor::new(r, r))
    }

    #[test]
    fn byoyomi_keeps_the_margin_off_the_byoyomi() {
        let mut c = clocks(rule(600, 10, 0));
        assert_eq!(
            c.go_command(Color::Sente, 1000),
            "go btime 600000 wtime 600000 byoyomi 9000"
        );
        c.charge(Color::Sente, 3);
        c.charge(Color::Gote, 0);
        assert_eq!(c.left_ms[Color::Sente], 597_000);
        assert_eq!(
            c.go_command(Color::Gote, 1000),
            "go btime 597000 wtime 600000 byoyomi 9000"
        );
    }

    #[test]
    fn main_time_runs_out_into_byoyomi_and_stays_at_zero() {
        let mut c = clocks(rule(10, 5, 0));
        c.charge(Color::Gote, 12);
        assert_eq!(c.left_ms[Color::Gote], 0);
        assert_eq!(c.allowance_ms(Color::Gote), 5000);
        c.charge(Color::Gote, 4);
        assert_eq!(c.left_ms[Color::Gote], 0);
    }

    #[test]
    fn the_margin_takes_at_most_half_a_short_byoyomi() {
        let c = clocks(rule(0, 1, 0));
        assert_eq!(
            c.go_command(Color::Sente, 1000),
            "go btime 0 wtime 0 byoyomi 500"
        );
        assert_eq!(
            c.go_command(Color::Sente, 100),
            "go btime 0 wtime 0 byoyomi 900"
        );
    }

    #[test]
    fn fischer_adds_the_increment_and_keeps_the_margin_off_the_main_time() {
        let mut c = clocks(rule(300, 0, 10));
        c.charge(Color::Sente, 4);
        assert_eq!(c.left_ms[Color::Sente], 306_000);
        assert_eq!(
            c.go_command(Color::Gote, 1000),
            "go btime 306000 wtime 299000 binc 10000 winc 10000"
        );
    }

    #[test]
    fn sudden_death_keeps_the_margin_off_the_main_time_down_to_zero() {
        let c = clocks(rule(60, 0, 0));
        assert_eq!(
            c.go_command(Color::Sente, 1000),
            "go btime 59000 wtime 60000 byoyomi 0"
        );
        let mut c = clocks(rule(1, 0, 0));
        c.charge(Color::Sente, 1);
        assert_eq!(
            c.go_command(Color::Sente, 1000),
            "go btime 0 wtime 1000 byoyomi 0"
        );
    }

    #[test]
    fn other_time_units_scale_the_t() {
        let r = TimeRule {
            unit_ms: 60_000,
            total_ms: 15 * 60_000,
            byoyomi_ms: 0,
            increment_ms: 0,
        };
        let mut c = clocks(r);
        c.charge(Color::Sente, 2);
        assert_eq!(c.left_ms[Color::Sente], 13 * 60_000);
    }
}
