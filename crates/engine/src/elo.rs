//! Match statistics: Elo difference with a 95 % error bar, and the
//! sequential probability ratio test (SPRT) used to accept or reject a change.
//!
//! The Elo estimate comes from the score fraction; the error bar from the
//! per-game score variance (wins 1, draws ½, losses 0). The SPRT uses the
//! normal approximation of the log-likelihood ratio of the same trinomial
//! model between the hypotheses `elo0` (H0) and `elo1` (H1).
//!
//! ```
//! use shogi_engine::elo::{Tally, Sprt, SprtVerdict};
//! let t = Tally { wins: 60, losses: 40, draws: 0 };
//! let (elo, margin) = t.elo();
//! assert!((elo - 70.4).abs() < 0.5);
//! assert!(margin > 0.0);
//! let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
//! assert_eq!(sprt.verdict(&Tally { wins: 600, losses: 400, draws: 0 }), SprtVerdict::AcceptH1);
//! ```

/// Wins, losses and draws from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Games it lost.
    pub losses: u32,
    /// Draws.
    pub draws: u32,
}

/// The Elo difference that a score fraction `s` (0 < s < 1) stands for.
#[must_use]
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of a side `elo` points stronger.
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Mean score and its per-game variance.
    fn mean_var(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.games());
        if n == 0.0 {
            return None;
        }
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        let mean = w + d / 2.0;
        let var = w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2);
        Some((mean, var))
    }

    /// The Elo difference and the half-width of its 95 % confidence interval.
    /// A perfect or zero score is clamped to keep the numbers finite.
    #[must_use]
    pub fn elo(&self) -> (f64, f64) {
        let Some((mean, var)) = self.mean_var() else {
            return (0.0, 0.0);
        };
        let n = f64::from(self.games());
        let clamp = |s: f64| s.clamp(0.5 / n, 1.0 - 0.5 / n);
        // All games alike (say 4-0) give a zero sample variance; a margin of
        // zero would claim certainty, so use that of a clamped score instead.
        let var = if var > 0.0 {
            var
        } else {
            clamp(mean) * (1.0 - clamp(mean))
        };
        let margin_score = 1.959_964 * (var / n).sqrt();
        let elo = elo_from_score(clamp(mean));
        let hi = elo_from_score(clamp(mean + margin_score));
        let lo = elo_from_score(clamp(mean - margin_score));
        (elo, (hi - lo) / 2.0)
    }
}

/// An SPRT between H0: the difference is `elo0` and H1: it is `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Type I error (accepting H1 when H0 holds).
    pub alpha: f64,
    /// Type II error.
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The change is better by about `elo1`: keep it.
    AcceptH1,
    /// The change is not better than `elo0`: reject it.
    AcceptH0,
    /// Not enough games yet.
    Continue,
}

impl Sprt {
    /// The log-likelihood ratio of the games so far.
    #[must_use]
    pub fn llr(&self, t: &Tally) -> f64 {
        let Some((mean, mut var)) = t.mean_var() else {
            return 0.0;
        };
        if var <= 0.0 {
            // Every game had the same result: the sample variance is zero and
            // says nothing. Estimate it with one more win, draw and loss, so
            // that 40 wins in 40 games decide instead of staying at LLR 0,
            // while two wins in two games do not.
            let padded = Tally {
                wins: t.wins + 1,
                draws: t.draws + 1,
                losses: t.losses + 1,
            };
            var = padded.mean_var().map_or(0.0, |(_, v)| v);
            if var <= 0.0 {
                return 0.0;
            }
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        f64::from(t.games()) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The lower and upper LLR bounds.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict for the games so far.
    #[must_use]
    pub fn verdict(&self, t: &Tally) -> SprtVerdict {
        let llr = self.llr(t);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtVerdict::AcceptH1
        } else if llr <= lo {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_results_still_decide() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 400.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let all_wins = Tally {
            wins: 40,
            losses: 0,
            draws: 0,
        };
        assert_eq!(sprt.verdict(&all_wins), SprtVerdict::AcceptH1);
        let all_losses = Tally {
            wins: 0,
            losses: 40,
            draws: 0,
        };
        assert_eq!(sprt.verdict(&all_losses), SprtVerdict::AcceptH0);
        let two = Tally {
            wins: 2,
            losses: 0,
            draws: 0,
        };
        assert_eq!(sprt.verdict(&two), SprtVerdict::Continue);
    }

    #[test]
    fn even_score_is_zero_elo() {
        let (elo, margin) = Tally {
            wins: 10,
            losses: 10,
            draws: 5,
        }
        .elo();
        assert!(elo.abs() < 1e-9);
        assert!(margin > 50.0 && margin < 300.0);
    }

    #[test]
    fn sprt_rejects_a_worse_change() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(
            s.verdict(&Tally {
                wins: 400,
                losses: 600,
                draws: 0
            }),
            SprtVerdict::AcceptH0
        );
        assert_eq!(
            s.verdict(&Tally {
                wins: 5,
                losses: 5,
                draws: 0
            }),
            SprtVerdict::Continue
        );
    }

    #[test]
    fn score_and_elo_are_inverse() {
        for elo in [-300.0, -50.0, 0.0, 35.0, 200.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-6);
        }
    }
}
