//! Tuning the evaluation weights from self-play data (behind `shogi tune`).
//!
//! Three steps, each deterministic for a given seed:
//!
//! 1. [`generate`]: self-play games with our search on one thread, a number
//!    of random legal moves from the start position first. Every quiet
//!    position reached after the random moves (not in check, the chosen
//!    move not a capture, the quiescence search within a margin of the
//!    static evaluation, no mate score) is written as one [`Sample`] line:
//!    `SFEN;score;result`, the search's score and the game result both from
//!    Sente's view (result 1, 0.5 or 0).
//! 2. [`fit`]: Texel-style fitting. The evaluation is linear in its weights,
//!    `e = w · f`, so the loss `mean (σ(e/K) - t)²` with the target
//!    `t = λ σ(score/K) + (1 - λ) result` has the analytic gradient
//!    `mean 2 (σ - t) σ (1 - σ) f / K`. `K` is fitted first (golden-section
//!    search on the starting weights); then full-batch Adam. A tenth of the
//!    samples (chosen by the seed) is held out to report the loss on.
//! 3. [`generate_openings`]: short balanced openings for `shogi match`.
//!
//! ```
//! use shogi_engine::tune::{generate, GenConfig, parse_samples};
//! let config = GenConfig { games: 1, nodes: 300, random_plies: 4, max_plies: 40, ..GenConfig::default() };
//! let mut out = Vec::new();
//! let stats = generate(&config, &mut out, |_| {})?;
//! let text = String::from_utf8(out).unwrap();
//! assert_eq!(parse_samples(&text).unwrap().len(), stats.positions);
//! # Ok::<_, std::io::Error>(())
//! ```

use std::io::Write;
use std::sync::Arc;

use shogi_core::usi::PositionCommand;
use shogi_core::{sfen, Color, Game, GameRules, GameStatus, ImpasseRule, Move, Position};

use crate::checks::gives_check;
use crate::eval::{features, Evaluator, LinearEval};
use crate::limits::SearchLimit;
use crate::movepicker::is_capture;
use crate::params::{EvalParams, Group, NUM_FEATURES};
use crate::search::{
    quiescence, search, search_position, PastPosition, SearchControl, SearchOptions,
    MATE_IN_MAX_PLY,
};
use crate::tt::TranspositionTable;

pub use crate::rng::Rng;

/// Settings of [`generate`].
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Games to play.
    pub games: usize,
    /// Nodes per move of the search that plays and scores.
    pub nodes: u64,
    /// Random legal moves from the start position before the search plays.
    pub random_plies: usize,
    /// Seed of the random moves (game `i` uses a generator seeded from `seed` and `i`).
    pub seed: u64,
    /// A game is a draw after this many plies.
    pub max_plies: u32,
    /// A position is quiet if the quiescence search is within this of the static evaluation.
    pub quiet_margin: i32,
    /// Positions whose search score is larger than this are not recorded.
    pub max_score: i32,
    /// The evaluation the search uses.
    pub params: Arc<EvalParams>,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            games: 100,
            nodes: 5000,
            random_plies: 8,
            seed: 1,
            max_plies: 320,
            quiet_margin: 60,
            max_score: 3000,
            params: EvalParams::builtin(),
        }
    }
}

/// What [`generate`] produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GenStats {
    /// Games played.
    pub games: usize,
    /// Positions written.
    pub positions: usize,
    /// Games won by Sente, won by Gote, drawn.
    pub results: [usize; 3],
    /// Positions searched (played by the search).
    pub searched: usize,
}

/// Plays the games and writes one `SFEN;score;result` line per recorded
/// position to `out`; `progress` is called after every game.
///
/// # Errors
/// If writing fails.
pub fn generate<W: Write, F: FnMut(&GenStats)>(
    config: &GenConfig,
    out: &mut W,
    mut progress: F,
) -> std::io::Result<GenStats> {
    let options = SearchOptions {
        impasse: ImpasseRule::Csa27,
        evaluator: Arc::new(LinearEval::new(Arc::clone(&config.params))),
        ..SearchOptions::default()
    };
    let eval = LinearEval::new(Arc::clone(&config.params));
    let tt = TranspositionTable::new(16);
    let qtt = TranspositionTable::new(4);
    let mut stats = GenStats::default();
    let mut lines: Vec<(String, i32)> = Vec::new();
    for index in 0..config.games {
        let mut rng = Rng::new(config.seed ^ (index as u64).wrapping_mul(0xA24B_AED4_963E_E407));
        let rules = GameRules {
            impasse: ImpasseRule::Csa27,
            max_moves: Some(config.max_plies),
            ..GameRules::default()
        };
        let mut game = Game::with_rules(Position::startpos(), rules);
        let mut past: Vec<PastPosition> = Vec::new();
        let play = |game: &mut Game, past: &mut Vec<PastPosition>, m: Move| {
            past.push(PastPosition {
                key: game.position().hash(),
                gave_check: gives_check(game.position(), m),
            });
            game.play(m).is_ok()
        };
        let mut ok = true;
        for _ in 0..config.random_plies {
            let moves = game.position().legal_moves();
            if moves.is_empty() || game.status() != GameStatus::Ongoing {
                ok = false;
                break;
            }
            let m = moves[rng.below(moves.len())];
            ok &= play(&mut game, &mut past, m);
        }
        if !ok || game.status() != GameStatus::Ongoing {
            continue;
        }
        tt.clear();
        lines.clear();
        let winner: Option<Color> = loop {
            let status = game.status();
            let pos = game.position().clone();
            let us = pos.side_to_move();
            if status != GameStatus::Ongoing {
                break status.outcome(us).and_then(|o| o.winner);
            }
            tt.new_search();
            let control = SearchControl::new(false);
            let r = search(
                &pos,
                &past,
                &SearchLimit::Nodes(config.nodes),
                &options,
                &tt,
                &control,
                &mut |_: &str| {},
            );
            stats.searched += 1;
            let Some(m) = r.best_move else {
                break Some(us.opponent());
            };
            if r.score >= MATE_IN_MAX_PLY {
                break Some(us);
            }
            if r.score <= -MATE_IN_MAX_PLY {
                break Some(us.opponent());
            }
            let sente_score = if us == Color::Sente {
                r.score
            } else {
                -r.score
            };
            if !pos.in_check() && !is_capture(&pos, m) && r.score.abs() <= config.max_score {
                let stand = eval.evaluate(&pos);
                let q = quiescence(&pos, &options, &qtt);
                if (q - stand).abs() <= config.quiet_margin {
                    lines.push((pos.to_sfen(), sente_score));
                }
            }
            if !play(&mut game, &mut past, m) {
                break Some(us.opponent());
            }
        };
        let result = match winner {
            Some(Color::Sente) => {
                stats.results[0] += 1;
                "1"
            }
            Some(Color::Gote) => {
                stats.results[1] += 1;
                "0"
            }
            None => {
                stats.results[2] += 1;
                "0.5"
            }
        };
        for (s, score) in &lines {
            writeln!(out, "{s};{score};{result}")?;
        }
        stats.games += 1;
        stats.positions += lines.len();
        progress(&stats);
    }
    out.flush()?;
    Ok(stats)
}

/// One training position: its features (Sente's view, sparse), the search
/// score and the game result (both Sente's view).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Nonzero features: `(index, count)`.
    pub features: Vec<(u16, i16)>,
    /// The search score in centipawns.
    pub score: f64,
    /// 1 Sente won, 0.5 draw, 0 Gote won.
    pub result: f64,
}

/// A data line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct DataError {
    /// 1-based line number.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

/// Reads `SFEN;score;result` lines (blank lines and `#` comments skipped).
///
/// # Errors
/// The first bad line.
pub fn parse_samples(text: &str) -> Result<Vec<Sample>, DataError> {
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let err = |message: String| DataError {
            line: i + 1,
            message,
        };
        let mut parts = l.split(';');
        let (Some(s), Some(score), Some(result), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(err("expected `SFEN;score;result`".into()));
        };
        let pos = sfen::parse_position(s).map_err(|e| err(e.to_string()))?;
        let score: f64 = score
            .trim()
            .parse()
            .map_err(|_| err(format!("bad score {score:?}")))?;
        let result: f64 = result
            .trim()
            .parse()
            .ok()
            .filter(|r| [0.0, 0.5, 1.0].contains(r))
            .ok_or_else(|| err(format!("bad result {result:?}: expected 1, 0.5 or 0")))?;
        let f = features(&pos);
        let features = f
            .iter()
            .enumerate()
            .filter(|(_, &v)| v != 0)
            .map(|(i, &v)| (i as u16, v as i16))
            .collect();
        out.push(Sample {
            features,
            score,
            result,
        });
    }
    Ok(out)
}

/// Settings of [`fit`].
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Passes of full-batch Adam.
    pub epochs: usize,
    /// Weight of the search score in the target (1 - lambda on the result).
    pub lambda: f64,
    /// Adam's step size, in weight units (centipawns).
    pub learning_rate: f64,
    /// Seed of the held-out split.
    pub seed: u64,
    /// Ridge penalty `l2 Σ (w - w₀)²` towards the starting weights: it pins
    /// the directions the data cannot tell apart (the attack and defend rows
    /// of a class sum to its piece count; the king's rank always sums to one).
    pub l2: f64,
    /// The groups whose weights may move; empty: all of them. The others
    /// keep their starting values (to fit a new feature's weights alone).
    pub only: Vec<Group>,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            epochs: 1000,
            lambda: 0.5,
            learning_rate: 1.0,
            seed: 1,
            l2: 1e-6,
            only: Vec::new(),
        }
    }
}

/// What [`fit`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    /// The fitted sigmoid scale.
    pub k: f64,
    /// Training samples and held-out samples.
    pub sizes: (usize, usize),
    /// Loss on the training split before and after.
    pub train: (f64, f64),
    /// Loss on the held-out split before and after.
    pub held_out: (f64, f64),
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn dot(w: &[f64], f: &[(u16, i16)]) -> f64 {
    f.iter()
        .map(|&(i, v)| w[usize::from(i)] * f64::from(v))
        .sum()
}

fn target(s: &Sample, k: f64, lambda: f64) -> f64 {
    lambda * sigmoid(s.score / k) + (1.0 - lambda) * s.result
}

/// The mean squared error of `w` on `samples`.
#[must_use]
pub fn loss(samples: &[&Sample], w: &[f64], k: f64, lambda: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let d = sigmoid(dot(w, &s.features) / k) - target(s, k, lambda);
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The `K` that minimises the loss of `w` against the game results alone
/// (with the search score in the target, a larger `K` would always look
/// better), by golden-section search on `[10, 2000]`.
#[must_use]
pub fn fit_k(samples: &[&Sample], w: &[f64]) -> f64 {
    let lambda = 0.0;
    let (mut a, mut b) = (10.0f64, 2000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if loss(samples, w, c, lambda) < loss(samples, w, d, lambda) {
            b = d;
        } else {
            a = c;
        }
    }
    f64::midpoint(a, b)
}

/// Fits the weights from `initial` on `samples`; `progress(epoch, train_loss)`
/// is called every 50 epochs.
#[must_use]
pub fn fit<F: FnMut(usize, f64)>(
    samples: &[Sample],
    initial: &EvalParams,
    config: &FitConfig,
    mut progress: F,
) -> (EvalParams, FitReport) {
    let mut rng = Rng::new(config.seed);
    let (mut train, mut held): (Vec<&Sample>, Vec<&Sample>) = (Vec::new(), Vec::new());
    for s in samples {
        if rng.below(10) == 0 {
            held.push(s);
        } else {
            train.push(s);
        }
    }
    let mut w: Vec<f64> = initial.weights.iter().map(|&x| f64::from(x)).collect();
    let lambda = config.lambda;
    let w0 = w.clone();
    let k = fit_k(&train, &w);
    let before = (loss(&train, &w, k, lambda), loss(&held, &w, k, lambda));
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12f64);
    let mut m = vec![0.0f64; NUM_FEATURES];
    let mut v = vec![0.0f64; NUM_FEATURES];
    let mut grad = vec![0.0f64; NUM_FEATURES];
    let n = train.len().max(1) as f64;
    let mut free = vec![config.only.is_empty(); NUM_FEATURES];
    for g in &config.only {
        free[g.range()].fill(true);
    }
    for epoch in 1..=config.epochs {
        grad.fill(0.0);
        for s in &train {
            let p = sigmoid(dot(&w, &s.features) / k);
            let d = 2.0 * (p - target(s, k, lambda)) * p * (1.0 - p) / k / n;
            for &(i, c) in &s.features {
                grad[usize::from(i)] += d * f64::from(c);
            }
        }
        let t = epoch as i32;
        for i in 0..NUM_FEATURES {
            if !free[i] {
                continue;
            }
            grad[i] += 2.0 * config.l2 * (w[i] - w0[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(t));
            let vh = v[i] / (1.0 - b2.powi(t));
            w[i] -= config.learning_rate * mh / (vh.sqrt() + eps);
        }
        if epoch % 50 == 0 {
            progress(epoch, loss(&train, &w, k, lambda));
        }
    }
    let mut out = EvalParams::zero();
    for (o, x) in out.weights.iter_mut().zip(&w) {
        *o = x.round() as i32;
    }
    let rounded: Vec<f64> = out.weights.iter().map(|&x| f64::from(x)).collect();
    let report = FitReport {
        k,
        sizes: (train.len(), held.len()),
        train: (before.0, loss(&train, &rounded, k, lambda)),
        held_out: (before.1, loss(&held, &rounded, k, lambda)),
    };
    (out, report)
}

/// Settings of [`generate_openings`].
#[derive(Clone, Debug)]
pub struct OpeningConfig {
    /// How many openings.
    pub count: usize,
    /// Plies in each.
    pub plies: usize,
    /// Seed of the move choices.
    pub seed: u64,
    /// Kept if a search scores the final position within this (centipawns).
    pub max_eval: i32,
    /// Moves within this of the best one-ply (quiescence) reply are candidates.
    pub move_margin: i32,
    /// Nodes of the search that checks the final position.
    pub check_nodes: u64,
}

impl Default for OpeningConfig {
    fn default() -> Self {
        OpeningConfig {
            count: 300,
            plies: 8,
            seed: 1,
            max_eval: 150,
            move_margin: 150,
            check_nodes: 20_000,
        }
    }
}

/// Random short openings from the start position: at every ply a move drawn
/// at random among those whose quiescence score is within `move_margin` of
/// the best, a line kept if a `check_nodes` search scores its end within
/// `max_eval`, no line twice. Gives up after `50 × count` tries.
#[must_use]
pub fn generate_openings(config: &OpeningConfig) -> Vec<PositionCommand> {
    let options = SearchOptions::default();
    let qtt = TranspositionTable::new(4);
    let mut rng = Rng::new(config.seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < config.count && tries < 50 * config.count {
        tries += 1;
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..config.plies {
            let scored: Vec<(Move, i32)> = pos
                .legal_moves()
                .iter()
                .map(|&m| {
                    let mut p = pos.clone();
                    p.make_move(m);
                    (m, -quiescence(&p, &options, &qtt))
                })
                .collect();
            let Some(best) = scored.iter().map(|x| x.1).max() else {
                break;
            };
            let good: Vec<Move> = scored
                .iter()
                .filter(|x| x.1 >= best - config.move_margin)
                .map(|x| x.0)
                .collect();
            let m = good[rng.below(good.len())];
            pos.make_move(m);
            moves.push(m);
        }
        if moves.len() < config.plies || !seen.insert(pos.hash()) {
            continue;
        }
        let r = search_position(&pos, &SearchLimit::Nodes(config.check_nodes), &options);
        if r.best_move.is_none() || r.score.abs() > config.max_eval {
            continue;
        }
        out.push(PositionCommand {
            start: Position::startpos(),
            moves,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_repeatable_and_records_quiet_positions() {
        let config = GenConfig {
            games: 2,
            nodes: 500,
            random_plies: 6,
            max_plies: 60,
            ..GenConfig::default()
        };
        let mut a = Vec::new();
        let mut b = Vec::new();
        let sa = generate(&config, &mut a, |_| {}).unwrap();
        let sb = generate(&config, &mut b, |_| {}).unwrap();
        assert_eq!(a, b);
        assert_eq!(sa, sb);
        assert!(sa.positions > 0);
        let text = String::from_utf8(a).unwrap();
        for line in text.lines() {
            let pos = sfen::parse_position(line.split(';').next().unwrap()).unwrap();
            assert!(!pos.in_check(), "{line}");
        }
    }

    #[test]
    fn bad_data_lines_are_named() {
        let e = parse_samples(
            "# c\nlnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1;12;2\n",
        )
        .unwrap_err();
        assert_eq!(e.line, 2);
        assert!(parse_samples("nonsense;1;1").is_err());
    }

    /// Sente up a pawn (in hand, `UP`) wins; the even position (`EVEN`) is
    /// drawn: 50 samples of each, and the hand-written weights with the
    /// pawn in hand worth 0.
    const UP: &str = "lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1";
    const EVEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    fn pawn_in_hand_games() -> (Vec<Sample>, EvalParams) {
        let mut text = String::new();
        for _ in 0..50 {
            text.push_str(&format!("{UP};300;1\n{EVEN};0;0.5\n"));
        }
        let mut start = EvalParams::handwritten();
        start.weights[crate::params::HAND] = 0;
        (parse_samples(&text).unwrap(), start)
    }

    #[test]
    fn fitting_lowers_the_loss_and_learns_which_side_wins() {
        // Sente up a pawn (in hand) wins; the fit must lower the loss and
        // widen the gap between the two positions' evaluations.
        let (samples, start) = pawn_in_hand_games();
        let config = FitConfig {
            epochs: 200,
            lambda: 0.5,
            learning_rate: 2.0,
            seed: 3,
            l2: 0.0,
            only: Vec::new(),
        };
        let (p, report) = fit(&samples, &start, &config, |_, _| {});
        assert!(report.train.1 < report.train.0, "{report:?}");
        let gap = |w: &EvalParams| {
            let e = LinearEval::new(Arc::new(w.clone()));
            let s = |t: &str| e.evaluate_sente(&sfen::parse_position(t).unwrap());
            s(UP) - s(EVEN)
        };
        assert!(report.train.1 < report.train.0 / 10.0, "{report:?}");
        assert!(gap(&p) > gap(&start) + 100, "{report:?}");
    }

    #[test]
    fn a_fit_of_one_group_moves_only_its_weights() {
        // The pawn in hand decides the games; with only the `hand` group
        // free, its weights learn that and every other weight stays.
        let (samples, start) = pawn_in_hand_games();
        let hand = crate::params::all_groups()
            .find(|g| g.name == "hand")
            .unwrap();
        let config = FitConfig {
            epochs: 200,
            learning_rate: 2.0,
            l2: 0.0,
            only: vec![hand],
            ..FitConfig::default()
        };
        let (p, report) = fit(&samples, &start, &config, |_, _| {});
        assert!(report.train.1 < report.train.0, "{report:?}");
        assert!(p.weights[crate::params::HAND] > 0, "{report:?}");
        for i in 0..NUM_FEATURES {
            if !hand.range().contains(&i) {
                assert_eq!(p.weights[i], start.weights[i], "weight {i}");
            }
        }
    }

    #[test]
    fn openings_are_legal_distinct_and_balanced() {
        let config = OpeningConfig {
            count: 3,
            plies: 4,
            check_nodes: 2000,
            ..OpeningConfig::default()
        };
        let openings = generate_openings(&config);
        assert_eq!(openings.len(), 3);
        let again = generate_openings(&config);
        assert_eq!(openings, again);
        for o in &openings {
            let (game, err) = o.replay(GameRules::default());
            assert!(err.is_none());
            assert_eq!(game.status(), GameStatus::Ongoing);
            assert_eq!(o.moves.len(), 4);
        }
    }
}
