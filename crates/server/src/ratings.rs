//! Glicko-2 ratings: a rating, its deviation (how uncertain it is) and its
//! volatility (how erratic the player's results are), updated once per rating
//! period from the games played in it, as Mark Glickman describes in
//! "Example of the Glicko-2 system" (2012). The steps below are numbered as
//! in that paper.
//!
//! ```
//! use shogi_server::ratings::{Glicko2, Rating, Score};
//! let system = Glicko2::default();
//! let player = Rating::new(1500.0, 200.0, 0.06);
//! let games = [
//!     (Rating::new(1400.0, 30.0, 0.06), Score::Win),
//!     (Rating::new(1550.0, 100.0, 0.06), Score::Loss),
//!     (Rating::new(1700.0, 300.0, 0.06), Score::Loss),
//! ];
//! let after = system.rate(player, &games);
//! assert!((after.rating - 1464.06).abs() < 0.01);
//! assert!((after.deviation - 151.52).abs() < 0.01);
//! ```

/// The factor between the Glicko scale (1500, 350) and Glicko-2's internal one.
const SCALE: f64 = 173.7178;
/// The rating on the Glicko scale that is 0 on the internal one.
const CENTRE: f64 = 1500.0;
/// Convergence tolerance of the volatility iteration (step 5).
const EPSILON: f64 = 0.000_001;

/// A player's rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// The rating deviation, RD (350 for a new player): about 95 % of the
    /// time the true strength lies within two RDs of the rating.
    pub deviation: f64,
    /// The volatility σ (0.06 for a new player).
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating: 1500, RD 350, volatility 0.06.
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    /// A rating from its three numbers.
    #[must_use]
    pub const fn new(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility,
        }
    }

    fn mu(self) -> f64 {
        (self.rating - CENTRE) / SCALE
    }

    fn phi(self) -> f64 {
        self.deviation / SCALE
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::NEW
    }
}

/// The result of one game for the player being rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A win (1).
    Win,
    /// A draw (½).
    Draw,
    /// A loss (0).
    Loss,
}

impl Score {
    /// 1, ½ or 0.
    #[must_use]
    pub fn points(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }
}

/// The Glicko-2 system with its one constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko2 {
    /// τ, which limits how fast the volatility may change (Glickman suggests
    /// 0.3 to 1.2; the paper's example uses 0.5).
    pub tau: f64,
    /// The largest deviation a rating may have (a new player's).
    pub max_deviation: f64,
}

impl Default for Glicko2 {
    /// τ = 0.5 and RD at most 350, as in the paper.
    fn default() -> Glicko2 {
        Glicko2 {
            tau: 0.5,
            max_deviation: 350.0,
        }
    }
}

/// g(φ) of step 3: how much a game counts given the opponent's uncertainty.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// E(μ, μⱼ, φⱼ) of step 3: the expected score against an opponent.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Glicko2 {
    /// `player`'s rating after a rating period in which it played `games`
    /// (each opponent's rating as it was at the start of the period, and the
    /// result). With no games only the deviation grows (step 6).
    #[must_use]
    pub fn rate(&self, player: Rating, games: &[(Rating, Score)]) -> Rating {
        let (mu, phi, sigma) = (player.mu(), player.phi(), player.volatility);
        if games.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Rating {
                deviation: (phi_star * SCALE).min(self.max_deviation),
                ..player
            };
        }
        // Step 3: the estimated variance v; step 4: the improvement Δ.
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for (opponent, score) in games {
            let (mu_j, phi_j) = (opponent.mu(), opponent.phi());
            let e = expected(mu, mu_j, phi_j);
            inverse_v += g(phi_j) * g(phi_j) * e * (1.0 - e);
            sum += g(phi_j) * (score.points() - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility; step 6: the pre-period deviation.
        let sigma_new = self.volatility(phi, v, delta, sigma);
        let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
        // Step 7: the new deviation and rating; step 8: back to the Glicko scale.
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Rating {
            rating: mu_new * SCALE + CENTRE,
            deviation: (phi_new * SCALE).min(self.max_deviation),
            volatility: sigma_new,
        }
    }

    /// Step 5: the new volatility, the root of f by the Illinois algorithm.
    fn volatility(&self, phi: f64, v: f64, delta: f64, sigma: f64) -> f64 {
        let tau = self.tau;
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        // The bracket halves at least every other step; 100 steps is far more
        // than the tolerance needs.
        for _ in 0..100 {
            if (big_b - big_a).abs() <= EPSILON {
                break;
            }
            let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = c;
            f_b = f_c;
        }
        (big_a / 2.0).exp()
    }
}

/// An amateur rank: 15 kyu up to 1 kyu, then 1 dan up to 8 dan.
///
/// The bands are the starting table lishogi proposed for its players
/// (issue "Rating ranks", WandererXII/lishogi#954): 80 points a kyu from
/// 15 kyu at 400 to 2 kyu at 1440, 1 kyu from 1530, 1 dan from 1650, then
/// 120 points a dan up to 8 dan from 2490. docs/RATINGS.md gives the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rank {
    /// `n` kyu (15 = weakest, 1 = strongest kyu).
    Kyu(u8),
    /// `n` dan (1 to 8).
    Dan(u8),
}

impl Rank {
    /// The lowest rating of each rank, weakest first.
    const BANDS: [(f64, Rank); 23] = [
        (400.0, Rank::Kyu(15)),
        (480.0, Rank::Kyu(14)),
        (560.0, Rank::Kyu(13)),
        (640.0, Rank::Kyu(12)),
        (720.0, Rank::Kyu(11)),
        (800.0, Rank::Kyu(10)),
        (880.0, Rank::Kyu(9)),
        (960.0, Rank::Kyu(8)),
        (1040.0, Rank::Kyu(7)),
        (1120.0, Rank::Kyu(6)),
        (1200.0, Rank::Kyu(5)),
        (1280.0, Rank::Kyu(4)),
        (1360.0, Rank::Kyu(3)),
        (1440.0, Rank::Kyu(2)),
        (1530.0, Rank::Kyu(1)),
        (1650.0, Rank::Dan(1)),
        (1770.0, Rank::Dan(2)),
        (1890.0, Rank::Dan(3)),
        (2010.0, Rank::Dan(4)),
        (2130.0, Rank::Dan(5)),
        (2250.0, Rank::Dan(6)),
        (2370.0, Rank::Dan(7)),
        (2490.0, Rank::Dan(8)),
    ];

    /// The rank of a rating (below 400 is still 15 kyu).
    ///
    /// ```
    /// use shogi_server::ratings::Rank;
    /// assert_eq!(Rank::of(1500.0), Rank::Kyu(2));
    /// assert_eq!(Rank::of(1700.0), Rank::Dan(1));
    /// ```
    #[must_use]
    pub fn of(rating: f64) -> Rank {
        Rank::BANDS
            .iter()
            .rev()
            .find(|(low, _)| rating >= *low)
            .map_or(Rank::Kyu(15), |&(_, rank)| rank)
    }
}

impl Rank {
    /// Steps above 1 kyu: 15 kyu is -14, 1 kyu 0, 1 dan 1 (a tournament's
    /// grade).
    ///
    /// ```
    /// use shogi_server::ratings::Rank;
    /// assert_eq!(Rank::Kyu(3).steps(), -2);
    /// assert_eq!(Rank::Dan(2).steps(), 2);
    /// ```
    #[must_use]
    pub fn steps(self) -> i32 {
        match self {
            Rank::Kyu(n) => 1 - i32::from(n),
            Rank::Dan(n) => i32::from(n),
        }
    }
}

impl Ord for Rank {
    /// Weaker ranks first: 15 kyu < 1 kyu < 1 dan < 8 dan.
    fn cmp(&self, other: &Rank) -> std::cmp::Ordering {
        self.steps().cmp(&other.steps())
    }
}

impl PartialOrd for Rank {
    fn partial_cmp(&self, other: &Rank) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Rank {
    /// The short form players write: `3k`, `1d`.
    ///
    /// ```
    /// use shogi_server::ratings::Rank;
    /// assert_eq!(Rank::Kyu(3).short(), "3k");
    /// assert_eq!(Rank::Dan(1).short(), "1d");
    /// ```
    #[must_use]
    pub fn short(self) -> String {
        match self {
            Rank::Kyu(n) => format!("{n}k"),
            Rank::Dan(n) => format!("{n}d"),
        }
    }
}

impl std::str::FromStr for Rank {
    type Err = String;

    /// Reads the short form: `15k` to `1k`, `1d` to `8d` (also `3 kyu`,
    /// `1-dan`, any case).
    ///
    /// ```
    /// use shogi_server::ratings::Rank;
    /// assert_eq!("3k".parse::<Rank>(), Ok(Rank::Kyu(3)));
    /// assert_eq!("1 dan".parse::<Rank>(), Ok(Rank::Dan(1)));
    /// assert_eq!("2-Kyu".parse::<Rank>(), Ok(Rank::Kyu(2)));
    /// assert!("9d".parse::<Rank>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Rank, String> {
        let t = s.trim().to_ascii_lowercase().replace([' ', '-'], "");
        let bad = || format!("{s:?} is not a rank (15k to 1k, 1d to 8d)");
        let (digits, kind) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?);
        let n: u8 = digits.parse().map_err(|_| bad())?;
        match kind {
            "k" | "kyu" if (1..=15).contains(&n) => Ok(Rank::Kyu(n)),
            "d" | "dan" if (1..=8).contains(&n) => Ok(Rank::Dan(n)),
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for Rank {
    /// `3 kyu`, `1 dan`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rank::Kyu(n) => write!(f, "{n} kyu"),
            Rank::Dan(n) => write!(f, "{n} dan"),
        }
    }
}

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
    pub fn of_control(tc: &crate::clock::TimeControl) -> TimeClass {
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

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Glickman's worked example: 1500/200/0.06 against 1400/30 (win),
    /// 1550/100 (loss) and 1700/300 (loss) gives 1464.06, 151.52, 0.05999.
    #[test]
    fn the_papers_worked_example() {
        let after = Glicko2::default().rate(
            Rating::new(1500.0, 200.0, 0.06),
            &[
                (Rating::new(1400.0, 30.0, 0.06), Score::Win),
                (Rating::new(1550.0, 100.0, 0.06), Score::Loss),
                (Rating::new(1700.0, 300.0, 0.06), Score::Loss),
            ],
        );
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation_up_to_a_new_players() {
        let system = Glicko2::default();
        let r = Rating::new(1700.0, 50.0, 0.06);
        let after = system.rate(r, &[]);
        assert_eq!((after.rating, after.volatility), (r.rating, r.volatility));
        // φ* = sqrt(φ² + σ²) on the internal scale.
        let want = ((50.0f64 / SCALE).powi(2) + 0.06f64.powi(2)).sqrt() * SCALE;
        assert!(close(after.deviation, want, 1e-9), "{after:?}");
        assert_eq!(system.rate(Rating::NEW, &[]).deviation, 350.0);
    }

    #[test]
    fn between_equals_a_win_and_a_loss_mirror_each_other_and_a_draw_changes_nothing() {
        let system = Glicko2::default();
        let a = Rating::NEW;
        let won = system.rate(a, &[(a, Score::Win)]);
        let lost = system.rate(a, &[(a, Score::Loss)]);
        let drawn = system.rate(a, &[(a, Score::Draw)]);
        assert!(won.rating > 1500.0 && lost.rating < 1500.0);
        assert!(close(won.rating - 1500.0, 1500.0 - lost.rating, 1e-9));
        assert!(close(drawn.rating, 1500.0, 1e-9), "{drawn:?}");
        assert!(won.deviation < 350.0 && close(won.deviation, lost.deviation, 1e-9));
    }

    #[test]
    fn beating_a_stronger_player_gains_more_than_beating_a_weaker_one() {
        let system = Glicko2::default();
        let me = Rating::new(1500.0, 100.0, 0.06);
        let strong = system.rate(me, &[(Rating::new(1800.0, 80.0, 0.06), Score::Win)]);
        let weak = system.rate(me, &[(Rating::new(1200.0, 80.0, 0.06), Score::Win)]);
        assert!(strong.rating - 1500.0 > weak.rating - 1500.0);
        assert!(weak.rating > 1500.0);
    }

    #[test]
    fn ranks_follow_the_bands_at_their_edges() {
        assert_eq!(Rank::of(0.0), Rank::Kyu(15));
        assert_eq!(Rank::of(479.9), Rank::Kyu(15));
        assert_eq!(Rank::of(480.0), Rank::Kyu(14));
        assert_eq!(Rank::of(1529.0), Rank::Kyu(2));
        assert_eq!(Rank::of(1530.0), Rank::Kyu(1));
        assert_eq!(Rank::of(1650.0), Rank::Dan(1));
        assert_eq!(Rank::of(2489.0), Rank::Dan(7));
        assert_eq!(Rank::of(3000.0), Rank::Dan(8));
        // Every band is one rank stronger than the one below it.
        for pair in Rank::BANDS.windows(2) {
            assert!(pair[0].0 < pair[1].0 && pair[0].1 < pair[1].1, "{pair:?}");
        }
        assert_eq!(Rank::Dan(1).to_string(), "1 dan");
    }

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
