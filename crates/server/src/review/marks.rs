//! Which moves of an analysed game are marked, and how: by how much the
//! move lowered its player's winning chance.
//!
//! An evaluation `cp` (Sente's view, centipawns) reads as Sente's winning
//! chance `1 / (1 + exp(-cp / WIN_RATE_SCALE))`; a mate is 1 or 0. A move
//! is marked when the engine preferred another one and the mover's chance
//! fell by at least [`INACCURACY`], [`MISTAKE`] or [`BLUNDER`] between the
//! position before it and the one after it. A drop in chance, not in
//! centipawns: the same 150 cp are nothing in a won position and a lot in
//! a level one; and the few tens of centipawns a short search gives or
//! takes between two book moves of the opening are far below a mark.
//!
//! ```
//! use shogi_server::review::marks::{win_chance, Mark};
//! assert_eq!(win_chance(0, None), 0.5);
//! assert!((win_chance(1200, None) - 0.731).abs() < 0.001);
//! assert_eq!(Mark::of(0.55, 0.40), Some(Mark::Inaccuracy));
//! assert_eq!(Mark::of(0.55, 0.50), None);
//! ```

use serde_json::{json, Value};
use shogi_core::{Color, Move, Position};

use super::eval::Eval;

/// The centipawns that make a winning chance of 1/(1+e⁻¹) ≈ 73 %: the `K`
/// that `shogi tune fit` finds for this engine's evaluation against the
/// results of its self-play games (1189-1238 in the fits of docs/TUNING.md),
/// rounded. The review's evaluation graph draws with the same scale
/// (`WIN_RATE_SCALE` in `web/src/review/winrate.ts`).
pub const WIN_RATE_SCALE: f64 = 1200.0;

/// The drop in the mover's winning chance (0..1) that makes an inaccuracy.
pub const INACCURACY: f64 = 0.10;
/// ... a mistake.
pub const MISTAKE: f64 = 0.20;
/// ... a blunder.
pub const BLUNDER: f64 = 0.30;

/// Sente's winning chance (0..1) for an evaluation from Sente's side
/// (`mate`: plies to a mate, positive when Sente mates).
#[must_use]
pub fn win_chance(score_cp: i32, mate: Option<i32>) -> f64 {
    match mate {
        Some(m) if m > 0 => 1.0,
        Some(m) if m < 0 => 0.0,
        // A mate of 0 plies: the side to move is mated; `score_cp` says who.
        Some(_) => match score_cp.signum() {
            1 => 1.0,
            -1 => 0.0,
            _ => 0.5,
        },
        None => 1.0 / (1.0 + (-f64::from(score_cp) / WIN_RATE_SCALE).exp()),
    }
}

/// How bad a marked move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The chance fell by [`INACCURACY`] or more.
    Inaccuracy,
    /// ... by [`MISTAKE`] or more.
    Mistake,
    /// ... by [`BLUNDER`] or more.
    Blunder,
}

impl Mark {
    /// The mark of a move that took its player's chance from `before` to
    /// `after` (both 0..1), if any.
    #[must_use]
    pub fn of(before: f64, after: f64) -> Option<Mark> {
        // Slack for rounding, so that 0.55 → 0.45 is the 10 % it reads as.
        let drop = before - after + 1e-9;
        if drop >= BLUNDER {
            Some(Mark::Blunder)
        } else if drop >= MISTAKE {
            Some(Mark::Mistake)
        } else if drop >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The JSON word.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// The marked moves of `moves` from `start`, given `evals` (one a position,
/// from ply 0): `{ply, kind, better, drop_pct, drop_cp}`, where `drop_pct`
/// is the fall of the mover's winning chance in percentage points and
/// `drop_cp` the fall of the evaluation (mates as ±10000).
#[must_use]
pub fn mistakes(start: &Position, moves: &[Move], evals: &[Eval]) -> Vec<Value> {
    let mut out = Vec::new();
    let mut mover = start.side_to_move();
    for (i, mv) in moves.iter().enumerate() {
        let (Some(before), Some(after)) = (evals.get(i), evals.get(i + 1)) else {
            break;
        };
        let view = |e: &Eval| {
            let sente = win_chance(e.score_cp, e.mate);
            if mover == Color::Sente {
                sente
            } else {
                1.0 - sente
            }
        };
        let sign = if mover == Color::Sente { 1 } else { -1 };
        let played = mv.to_string();
        let better = before.best_move.as_ref().filter(|b| **b != played);
        if let (Some(mark), Some(better)) = (Mark::of(view(before), view(after)), better) {
            let drop_pct = ((view(before) - view(after)) * 100.0).round();
            out.push(json!({
                "ply": i + 1,
                "kind": mark.name(),
                "better": better,
                "drop_pct": drop_pct,
                "drop_cp": (before.score_cp - after.score_cp) * sign,
            }));
        }
        mover = mover.opponent();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(ply: usize, score_cp: i32, best: &str) -> Eval {
        Eval {
            ply,
            score_cp,
            mate: None,
            best_move: Some(best.to_string()),
        }
    }

    fn line(moves: &[&str]) -> Vec<Move> {
        moves.iter().map(|m| m.parse().unwrap()).collect()
    }

    #[test]
    fn drops_of_the_movers_chance_are_classified() {
        let moves = line(&["7g7f", "3c3d", "8h2b+"]);
        let evals = [
            eval(0, 50, "2g2f"),   // Sente plays 7g7f: 51 % -> 51 %, fine
            eval(1, 40, "8c8d"),   // Gote plays 3c3d: 49 % -> 28 % for Gote, a mistake
            eval(2, 1100, "2g2f"), // Sente plays 8h2b+: 71 % -> 38 %, a blunder
            eval(3, -600, "3a2b"),
        ];
        let found = mistakes(&Position::startpos(), &moves, &evals);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0]["ply"], 2);
        assert_eq!(found[0]["kind"], "mistake");
        assert_eq!(found[0]["better"], "8c8d");
        assert_eq!(found[0]["drop_pct"], 21.0);
        assert_eq!(found[0]["drop_cp"], 1060);
        assert_eq!(found[1]["ply"], 3);
        assert_eq!(found[1]["kind"], "blunder");
        assert_eq!(found[1]["better"], "2g2f");
    }

    #[test]
    fn the_same_centipawns_matter_less_in_a_won_position() {
        // 300 cp lost at level play: 50 % -> 44 %, nothing; 300 cp lost at
        // +3000: still above 90 %, nothing either; 1100 cp from level: marked.
        assert_eq!(Mark::of(win_chance(0, None), win_chance(-300, None)), None);
        assert_eq!(
            Mark::of(win_chance(3000, None), win_chance(2700, None)),
            None
        );
        assert_eq!(
            Mark::of(win_chance(0, None), win_chance(-1100, None)),
            Some(Mark::Mistake)
        );
    }

    #[test]
    fn a_missed_mate_is_a_blunder() {
        let moves = line(&["7g7f"]);
        let mut before = eval(0, 10_000, "2g2f");
        before.mate = Some(5);
        let evals = [before, eval(1, 400, "3c3d")];
        let found = mistakes(&Position::startpos(), &moves, &evals);
        assert_eq!(found[0]["kind"], "blunder");
    }

    #[test]
    fn the_engines_own_move_is_never_flagged() {
        let moves = line(&["7g7f"]);
        let evals = [eval(0, 0, "7g7f"), eval(1, -900, "3c3d")];
        assert!(mistakes(&Position::startpos(), &moves, &evals).is_empty());
    }
}
