//! SPSA (simultaneous perturbation stochastic approximation) for the
//! search's constants ([`crate::search_params`]).
//!
//! Each iteration `k` draws a random sign `Δᵢ = ±1` for every tunable,
//! plays games between the engine with `θ + cₖΔ` and the engine with
//! `θ − cₖΔ`, and moves `θ` along the measured gradient:
//! `θᵢ += aₖ / cₖᵢ × result × Δᵢ`, where `result` is the first engine's
//! wins minus its losses. The gains follow Spall's schedule,
//! `cₖ = c / k^γ` and `aₖ = a / (A + k)^α` with `α = 0.602`, `γ = 0.101`
//! and `A` a tenth of the iterations. As in common engine practice the
//! constants are given by their values at the last iteration: `c` ends at
//! each tunable's [`Tunable::step`] and `aₖ / cₖ²` ends at `r_end`, so a
//! tunable moves in proportion to its step.
//!
//! [`Spsa`] is the algorithm alone, driven by any way of scoring a pair
//! of parameter vectors; [`run`] drives it with [`crate::arena`] games
//! between two engine processes that take the tunables as USI options.
//!
//! ```
//! use shogi_engine::search_params::TUNABLES;
//! use shogi_engine::spsa::{Spsa, SpsaConfig};
//! let tunables = TUNABLES[..2].to_vec();
//! let mut spsa = Spsa::new(SpsaConfig::new(tunables, 100, 1));
//! let p = spsa.perturb();
//! assert_eq!(p.plus.len(), 2);
//! // The first engine (θ + cΔ) won both games of the pair.
//! spsa.update(&p, 2.0);
//! assert_ne!(spsa.theta()[0], 150.0);
//! ```

use shogi_core::usi::PositionCommand;

use crate::arena::{self, MatchConfig, MatchError, TimeControl};
use crate::rng::Rng;
use crate::search_params::Tunable;
use crate::usi_client::EngineCommand;

/// Spall's decay exponent of the step size `aₖ`.
pub const ALPHA: f64 = 0.602;
/// Spall's decay exponent of the perturbation `cₖ`.
pub const GAMMA: f64 = 0.101;

/// What to tune and how fast.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// The tunables, each with its range and its final perturbation (`step`).
    pub tunables: Vec<Tunable>,
    /// Where θ starts (the defaults unless set otherwise).
    pub start: Vec<f64>,
    /// Iterations planned (the schedule decays over them).
    pub iterations: usize,
    /// `aₖ / cₖ²` at the last iteration: how far one point of result moves
    /// a tunable, in steps × steps (0.002 in long runs; more for short ones).
    pub r_end: f64,
    /// The seed of the perturbations.
    pub seed: u64,
}

impl SpsaConfig {
    /// A run over `tunables` from their defaults with `r_end` 0.02.
    #[must_use]
    pub fn new(tunables: Vec<Tunable>, iterations: usize, seed: u64) -> SpsaConfig {
        let start = tunables.iter().map(|t| f64::from(t.default)).collect();
        SpsaConfig {
            tunables,
            start,
            iterations,
            r_end: 0.02,
            seed,
        }
    }
}

/// One iteration's two parameter vectors.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// The iteration (from 1).
    pub k: usize,
    /// `θ + cₖΔ`, rounded and kept in range.
    pub plus: Vec<i32>,
    /// `θ − cₖΔ`, rounded and kept in range.
    pub minus: Vec<i32>,
    /// The signs `Δ`.
    pub delta: Vec<i8>,
}

/// The state of an SPSA run.
#[derive(Clone, Debug)]
pub struct Spsa {
    config: SpsaConfig,
    theta: Vec<f64>,
    k: usize,
    rng: Rng,
    /// `c` and `a` of each tunable.
    gains: Vec<(f64, f64)>,
    big_a: f64,
}

impl Spsa {
    /// A run at iteration 0, θ at the configured start.
    #[must_use]
    pub fn new(config: SpsaConfig) -> Spsa {
        let n = config.iterations.max(1) as f64;
        let big_a = 0.1 * n;
        let gains = config
            .tunables
            .iter()
            .map(|t| {
                let c_end = f64::from(t.step);
                let a_end = config.r_end * c_end * c_end;
                (c_end * n.powf(GAMMA), a_end * (big_a + n).powf(ALPHA))
            })
            .collect();
        Spsa {
            theta: config.start.clone(),
            rng: Rng::new(config.seed),
            config,
            k: 0,
            gains,
            big_a,
        }
    }

    /// The current estimate θ.
    #[must_use]
    pub fn theta(&self) -> &[f64] {
        &self.theta
    }

    /// θ rounded to the tunables' integers.
    #[must_use]
    pub fn rounded(&self) -> Vec<i32> {
        self.theta.iter().map(|v| v.round() as i32).collect()
    }

    /// The iterations done.
    #[must_use]
    pub fn iterations(&self) -> usize {
        self.k
    }

    /// The next iteration's pair of parameter vectors.
    pub fn perturb(&mut self) -> Perturbation {
        let k = self.k + 1;
        let mut plus = Vec::with_capacity(self.theta.len());
        let mut minus = Vec::with_capacity(self.theta.len());
        let mut delta = Vec::with_capacity(self.theta.len());
        for (i, t) in self.config.tunables.iter().enumerate() {
            let sign: i8 = if self.rng.next_u64() & 1 == 0 { 1 } else { -1 };
            let ck = self.c(i, k);
            let clamp = |v: f64| (v.round() as i32).clamp(t.min, t.max);
            plus.push(clamp(self.theta[i] + ck * f64::from(sign)));
            minus.push(clamp(self.theta[i] - ck * f64::from(sign)));
            delta.push(sign);
        }
        Perturbation {
            k,
            plus,
            minus,
            delta,
        }
    }

    /// Moves θ by the result of `p`'s games: the `plus` engine's wins minus
    /// its losses (draws count nothing).
    pub fn update(&mut self, p: &Perturbation, result: f64) {
        for (i, t) in self.config.tunables.iter().enumerate() {
            let ck = self.c(i, p.k);
            let ak = self.gains[i].1 / (self.big_a + p.k as f64).powf(ALPHA);
            let v = self.theta[i] + ak / ck * result * f64::from(p.delta[i]);
            self.theta[i] = v.clamp(f64::from(t.min), f64::from(t.max));
        }
        self.k = self.k.max(p.k);
    }

    fn c(&self, i: usize, k: usize) -> f64 {
        self.gains[i].0 / (k as f64).powf(GAMMA)
    }
}

/// An SPSA run with engine processes.
#[derive(Clone, Debug)]
pub struct SpsaRun {
    /// The algorithm's settings.
    pub spsa: SpsaConfig,
    /// The engine (both sides); its fixed options go in `options`, the
    /// tunables are added per game.
    pub engine: EngineCommand,
    /// Game pairs (each opening with both colours) an iteration plays.
    pub pairs: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// The time control (fixed nodes are usual).
    pub time: TimeControl,
    /// Openings, used in turn; an iteration takes `pairs` of them.
    pub openings: Vec<PositionCommand>,
}

/// One finished iteration.
#[derive(Clone, Debug)]
pub struct Iteration<'a> {
    /// The pair of vectors played.
    pub perturbation: &'a Perturbation,
    /// The `plus` engine's wins, losses, draws.
    pub wins: u32,
    /// Losses.
    pub losses: u32,
    /// Draws.
    pub draws: u32,
    /// θ after the update.
    pub theta: &'a [f64],
}

/// Runs the iterations of `run`, calling `progress` after each, and
/// returns the final state.
///
/// # Errors
/// If an engine cannot be started.
pub fn run<F>(run: &SpsaRun, mut progress: F) -> Result<Spsa, MatchError>
where
    F: FnMut(&Iteration<'_>),
{
    let mut spsa = Spsa::new(run.spsa.clone());
    let openings = if run.openings.is_empty() {
        arena::parse_openings(arena::OPENINGS).unwrap_or_default()
    } else {
        run.openings.clone()
    };
    let pairs = run.pairs.max(1);
    for _ in 0..run.spsa.iterations {
        let p = spsa.perturb();
        let first = (p.k - 1) * pairs;
        // In turn, round and round; none (the built-in list unreadable)
        // leaves the arena its start position.
        let batch: Vec<PositionCommand> = openings
            .iter()
            .cycle()
            .skip(first)
            .take(pairs)
            .cloned()
            .collect();
        let config = MatchConfig {
            engines: [
                with_values(&run.engine, &run.spsa.tunables, &p.plus),
                with_values(&run.engine, &run.spsa.tunables, &p.minus),
            ],
            games: 2 * pairs,
            concurrency: run.concurrency.max(1),
            time: run.time,
            openings: batch,
            ..MatchConfig::default()
        };
        let summary = arena::run(&config, |_, _| {})?;
        let t = summary.tally;
        spsa.update(&p, f64::from(t.wins) - f64::from(t.losses));
        progress(&Iteration {
            perturbation: &p,
            wins: t.wins,
            losses: t.losses,
            draws: t.draws,
            theta: spsa.theta(),
        });
    }
    Ok(spsa)
}

fn with_values(engine: &EngineCommand, tunables: &[Tunable], values: &[i32]) -> EngineCommand {
    let mut e = engine.clone();
    e.options.extend(
        tunables
            .iter()
            .zip(values)
            .map(|(t, v)| (t.name.to_string(), v.to_string())),
    );
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search_params::TUNABLES;

    fn toy(name: &'static str, default: i32, step: i32) -> Tunable {
        Tunable {
            name,
            default,
            min: 0,
            max: 1000,
            step,
        }
    }

    /// Plays `games` games between `a` and `b` where the chance of `a`
    /// winning follows the logistic Elo curve of `strength(a) −
    /// strength(b)`; returns a's wins minus losses.
    fn play(rng: &mut Rng, elo: f64, games: usize) -> f64 {
        let p = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        (0..games)
            .map(|_| {
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                if u < p {
                    1.0
                } else {
                    -1.0
                }
            })
            .sum()
    }

    #[test]
    fn noisy_games_lead_theta_to_the_best_values() {
        // Strength in Elo peaks at x = 300 and y = 40 and falls by 10 Elo
        // per step squared away from them; θ starts five steps off in x
        // and four in y, and only noisy game results are seen.
        let strength = |v: &[i32]| {
            let dx = f64::from(v[0] - 300) / 20.0;
            let dy = f64::from(v[1] - 40) / 5.0;
            -10.0 * (dx * dx + dy * dy)
        };
        let tunables = vec![toy("X", 200, 20), toy("Y", 60, 5)];
        let mut config = SpsaConfig::new(tunables, 2000, 3);
        config.r_end = 0.01;
        let mut spsa = Spsa::new(config);
        let mut games = Rng::new(99);
        for _ in 0..2000 {
            let p = spsa.perturb();
            let r = play(&mut games, strength(&p.plus) - strength(&p.minus), 2);
            spsa.update(&p, r);
        }
        let theta = spsa.rounded();
        assert!((theta[0] - 300).abs() <= 15, "x ended at {}", theta[0]);
        assert!((theta[1] - 40).abs() <= 4, "y ended at {}", theta[1]);
        assert_eq!(spsa.iterations(), 2000);
    }

    #[test]
    fn perturbations_are_symmetric_shrink_and_stay_in_range() {
        let mut spsa = Spsa::new(SpsaConfig::new(TUNABLES.to_vec(), 1000, 7));
        let first = spsa.perturb();
        for (i, t) in TUNABLES.iter().enumerate() {
            let c = f64::from(first.plus[i] - first.minus[i]) / 2.0 * f64::from(first.delta[i]);
            // c₁ = step × N^γ = step × 1000^0.101 ≈ 2.01 steps.
            assert!(
                (c - 2.01 * f64::from(t.step)).abs() <= 1.0,
                "{}: {c}",
                t.name
            );
        }
        spsa.update(&first, 0.0);
        assert_eq!(spsa.theta()[0], 150.0, "a draw moves nothing");
        let mut last = first.clone();
        for _ in 1..1000 {
            last = spsa.perturb();
            spsa.update(&last, 0.0);
        }
        for (i, t) in TUNABLES.iter().enumerate() {
            let c = f64::from(last.plus[i] - last.minus[i]) / 2.0 * f64::from(last.delta[i]);
            assert!((c - f64::from(t.step)).abs() <= 1.0, "{}: {c}", t.name);
        }
        let mut edge = SpsaConfig::new(vec![toy("Z", 0, 50)], 10, 1);
        edge.start = vec![0.0];
        let p = Spsa::new(edge).perturb();
        assert!(p.plus[0] >= 0 && p.minus[0] >= 0, "{p:?}");
    }

    #[test]
    fn a_won_pair_moves_theta_towards_the_winner() {
        let mut spsa = Spsa::new(SpsaConfig::new(TUNABLES.to_vec(), 100, 5));
        let p = spsa.perturb();
        spsa.update(&p, 2.0);
        for (i, t) in TUNABLES.iter().enumerate() {
            let moved = spsa.theta()[i] - f64::from(t.default);
            assert_eq!(moved.signum(), f64::from(p.delta[i]), "{}", t.name);
        }
    }
}
