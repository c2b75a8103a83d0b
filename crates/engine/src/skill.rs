//! Playing below full strength: the USI option `SkillLevel` (0-20) and what
//! each level does to the search.
//!
//! A level below 20 weakens play in the three ways a weaker player is weak,
//! and nothing else:
//!
//! - **It reads less.** The search stops after [`Skill::nodes`] nodes,
//!   500 at level 0, doubling every two levels (128,000 at level 16, 362,000 at 19).
//!   A node cap, unlike a time limit, gives the same play on a busy machine.
//! - **It settles for a near-best move.** The search keeps [`SKILL_LINES`]
//!   best lines (an internal `MultiPV`, not reported unless asked for) and
//!   plays one of them at random, each with a weight of
//!   e^((score − best score) / T): a move 1 T worse than the best is played
//!   e^−1 ≈ 0.37 times as often. T ([`Skill::temperature`]) is 8 cp per level
//!   below 20: 160 cp at level 0, 32 cp at level 16. So a weak level often
//!   plays a move a pawn worse, and hardly ever one a rook worse.
//! - **It blunders now and then.** Below level 10, with the chance
//!   [`Skill::blunder_permille`] (2 % per level below 10: 20 % at level 0),
//!   it plays a legal move picked uniformly at random, whatever it found.
//!
//! One exception: a mate the search has found is always played, at every
//! level (a beginner still mates in one).
//!
//! Level 20 is full strength: no cap, one line, no chance.
//!
//! ```
//! use shogi_engine::skill::Skill;
//! assert!(Skill::new(20).is_none());
//! let beginner = Skill::new(0).unwrap();
//! assert_eq!(beginner.nodes(), 500);
//! assert_eq!(Skill::new(16).unwrap().nodes(), 128_000);
//! ```

use crate::rng::Rng;
use crate::score::MATE_IN_MAX_PLY;

/// The highest `SkillLevel`: full strength.
pub const MAX_SKILL: u32 = 20;
/// How many best root lines a weakened search keeps to choose from.
pub const SKILL_LINES: usize = 4;
/// The node cap at level 0; it doubles every two levels.
const BASE_NODES: f64 = 500.0;
/// The temperature per level below [`MAX_SKILL`], in centipawns.
const TEMPERATURE_PER_LEVEL: i32 = 8;
/// The blunder chance per level below [`BLUNDER_FREE`], per mille.
const BLUNDER_PER_LEVEL: u32 = 20;
/// From this level on the engine never plays a random move.
const BLUNDER_FREE: u32 = 10;

/// How a level below full strength plays (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u32,
}

impl Skill {
    /// The weakening for `SkillLevel` `level`, or `None` at full strength
    /// (20 or more).
    #[must_use]
    pub fn new(level: u32) -> Option<Skill> {
        (level < MAX_SKILL).then_some(Skill { level })
    }

    /// The level, 0-19.
    #[must_use]
    pub fn level(self) -> u32 {
        self.level
    }

    /// The most nodes a search at this level visits: 500 × 2^(level / 2).
    #[must_use]
    pub fn nodes(self) -> u64 {
        // At most 500 × 2^9.5 ≈ 362,000: exact enough in f64, and positive.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let n = (BASE_NODES * 2f64.powf(f64::from(self.level) / 2.0)).round() as u64;
        n
    }

    /// The temperature T of the choice among the best lines, in centipawns.
    #[must_use]
    pub fn temperature(self) -> i32 {
        TEMPERATURE_PER_LEVEL * (MAX_SKILL - self.level).cast_signed()
    }

    /// The chance of a random move, per mille.
    #[must_use]
    pub fn blunder_permille(self) -> u32 {
        BLUNDER_FREE.saturating_sub(self.level) * BLUNDER_PER_LEVEL
    }

    /// Which root move to play: `lines` are the scores of the best searched
    /// lines, best first (root moves 0, 1, ...), `moves` how many legal root
    /// moves there are, `seed` the search's random seed. The answer is an
    /// index below `moves` (0 if there are none).
    #[must_use]
    pub fn pick(self, lines: &[i32], moves: usize, seed: u64) -> usize {
        let Some(&best) = lines.first() else {
            return 0;
        };
        if best >= MATE_IN_MAX_PLY || moves <= 1 {
            return 0;
        }
        let mut rng = Rng::new(seed);
        if rng.below(1000) < self.blunder_permille() as usize {
            return rng.below(moves);
        }
        let t = f64::from(self.temperature().max(1));
        let weights: Vec<f64> = lines
            .iter()
            .map(|&s| {
                if s <= -MATE_IN_MAX_PLY {
                    0.0
                } else {
                    (f64::from(s.saturating_sub(best)) / t).exp()
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        // A uniform draw in [0, total): 53 random bits.
        #[allow(clippy::cast_precision_loss)]
        let mut x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_levels_weaken_step_by_step() {
        assert!(Skill::new(20).is_none());
        assert!(Skill::new(25).is_none());
        let nodes: Vec<u64> = (0..20).map(|l| Skill::new(l).unwrap().nodes()).collect();
        assert_eq!(nodes[0], 500);
        assert_eq!(nodes[2], 1000);
        assert_eq!(nodes[1], 707);
        assert_eq!(nodes[19], 362_039);
        assert!(nodes.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Skill::new(0).unwrap().temperature(), 160);
        assert_eq!(Skill::new(19).unwrap().temperature(), 8);
        assert_eq!(Skill::new(0).unwrap().blunder_permille(), 200);
        assert_eq!(Skill::new(9).unwrap().blunder_permille(), 20);
        assert_eq!(Skill::new(10).unwrap().blunder_permille(), 0);
    }

    #[test]
    fn a_found_mate_is_always_played() {
        let beginner = Skill::new(0).unwrap();
        for seed in 0..1000 {
            assert_eq!(beginner.pick(&[MATE_IN_MAX_PLY + 5, 0, 0, 0], 80, seed), 0);
        }
    }

    #[test]
    fn choices_follow_the_temperature() {
        // Level 10: T = 80 cp, no blunders. Lines 0, -80, -800 cp: weights
        // 1, e^-1, e^-10, so the second is played 0.37 / 1.37 = 27 % of the
        // time and the third about 1 in 30,000.
        let skill = Skill::new(10).unwrap();
        let mut count = [0usize; 3];
        for seed in 0..10_000 {
            count[skill.pick(&[0, -80, -800], 3, seed)] += 1;
        }
        assert!((2_400..3_000).contains(&count[1]), "{count:?}");
        assert!(count[2] <= 5, "{count:?}");
        // A line that is mated is never chosen.
        for seed in 0..1000 {
            assert_ne!(skill.pick(&[0, -MATE_IN_MAX_PLY], 2, seed), 1);
        }
    }

    #[test]
    fn a_beginner_blunders_about_one_move_in_five() {
        // Lines far apart, so that the temperature alone would always pick
        // line 0: the other moves come from blunders, spread over all 40.
        let beginner = Skill::new(0).unwrap();
        let mut other = 0;
        let mut outside_lines = 0;
        for seed in 0..10_000 {
            let i = beginner.pick(&[0, -5000, -5000, -5000], 40, seed);
            assert!(i < 40);
            other += usize::from(i != 0);
            outside_lines += usize::from(i >= 4);
        }
        // 20 % blunders, 39 in 40 of them not the best move: 19.5 %.
        assert!((1_750..2_150).contains(&other), "{other}");
        assert!(outside_lines > 1_500, "{outside_lines}");
    }
}
