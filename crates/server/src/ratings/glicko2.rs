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
}
