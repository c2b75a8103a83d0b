//! Time classes: the rating pools, by how long a game is expected to take
//! under its time control.

/// The rating pools, by how long a game is expected to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TimeClass {
    /// Under 3 minutes a side.
    Bullet,
    /// 3 to 10 minutes a side (Fischer 3 + 2).
    Blitz,
    /// 10 to 35 minutes a side (10 min + 30 s byoyomi, 0 + 30 s × 3).
    Rapid,
    /// 35 minutes a side or more (the St. Petersburg 30 min + 30 s).
    Classical,
}

impl TimeClass {
    /// Every class, fastest first.
    pub const ALL: [TimeClass; 4] = [
        TimeClass::Bullet,
        TimeClass::Blitz,
        TimeClass::Rapid,
        TimeClass::Classical,
    ];

    /// The word used in JSON and in the database: `bullet`, `blitz`, `rapid`, `classical`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TimeClass::Bullet => "bullet",
            TimeClass::Blitz => "blitz",
            TimeClass::Rapid => "rapid",
            TimeClass::Classical => "classical",
        }
    }

    /// The class of a word of [`TimeClass::name`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<TimeClass> {
        TimeClass::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The class of a game's clock settings.
    #[must_use]
    pub fn of_control(tc: &crate::game::clock::TimeControl) -> TimeClass {
        TimeClass::of(tc.main_ms, tc.byoyomi_ms, tc.periods, tc.increment_ms)
    }

    /// The class of a time control from its estimated length per side:
    /// the main time plus 40 moves at the byoyomi (the further periods
    /// of a multi-period byoyomi add one byoyomi each) and the increment.
    ///
    /// ```
    /// use shogi_server::ratings::TimeClass;
    /// assert_eq!(TimeClass::of(1_800_000, 30_000, 1, 0), TimeClass::Classical);
    /// assert_eq!(TimeClass::of(180_000, 0, 1, 2_000), TimeClass::Blitz);
    /// ```
    #[must_use]
    pub fn of(main_ms: u64, byoyomi_ms: u64, periods: u32, increment_ms: u64) -> TimeClass {
        let extra_periods = u64::from(periods.max(1) - 1);
        let estimate_ms = main_ms
            .saturating_add(byoyomi_ms.saturating_mul(40 + extra_periods))
            .saturating_add(increment_ms.saturating_mul(40));
        let minutes = estimate_ms / 60_000;
        match minutes {
            0..=2 => TimeClass::Bullet,
            3..=9 => TimeClass::Blitz,
            10..=34 => TimeClass::Rapid,
            _ => TimeClass::Classical,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_classes_of_the_lobby_presets() {
        let min = 60_000;
        assert_eq!(TimeClass::of(30 * min, 30_000, 1, 0), TimeClass::Classical);
        assert_eq!(TimeClass::of(10 * min, 30_000, 1, 0), TimeClass::Rapid);
        assert_eq!(TimeClass::of(0, 30_000, 3, 0), TimeClass::Rapid);
        assert_eq!(TimeClass::of(3 * min, 0, 1, 2_000), TimeClass::Blitz);
        assert_eq!(TimeClass::of(min, 0, 1, 0), TimeClass::Bullet);
        assert_eq!(TimeClass::of(0, 10_000, 1, 0), TimeClass::Blitz);
    }
}
