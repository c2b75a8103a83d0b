//! Move-ordering memory kept during a search: killer moves per ply and a
//! history score per (side, origin or dropped kind, destination).
//!
//! ```
//! use shogi_engine::history::History;
//! use shogi_core::Color;
//! let mut h = History::new();
//! let m = "7g7f".parse()?;
//! h.reward(Color::Sente, m, 4);
//! assert!(h.score(Color::Sente, m) > 0);
//! h.add_killer(3, m);
//! assert_eq!(h.killers(3)[0], Some(m));
//! # Ok::<_, shogi_core::UsiMoveError>(())
//! ```

use shogi_core::{Color, Move};

/// The largest magnitude a history score reaches.
pub const HISTORY_MAX: i32 = 16384;

/// The deepest ply killers are kept for.
pub const MAX_PLY: usize = 256;

/// Killer moves and history scores.
#[derive(Clone, Debug)]
pub struct History {
    table: Vec<i32>,
    killers: Vec<[Option<Move>; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

fn index(color: Color, m: Move) -> usize {
    color.index() * 16384 + usize::from(m.to_u16() & 0x3fff)
}

impl History {
    /// Empty tables.
    #[must_use]
    pub fn new() -> History {
        History {
            table: vec![0; 2 * 16384],
            killers: vec![[None; 2]; MAX_PLY + 1],
        }
    }

    /// The history score of `m` played by `color`.
    #[inline]
    #[must_use]
    pub fn score(&self, color: Color, m: Move) -> i32 {
        self.table[index(color, m)]
    }

    fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let e = &mut self.table[index(color, m)];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *e += bonus - *e * bonus.abs() / HISTORY_MAX;
    }

    /// Rewards a quiet move that caused a cutoff at `depth`.
    pub fn reward(&mut self, color: Color, m: Move, depth: i32) {
        self.update(color, m, depth * depth * 16);
    }

    /// Penalises a quiet move tried before the cutoff move at `depth`.
    pub fn punish(&mut self, color: Color, m: Move, depth: i32) {
        self.update(color, m, -(depth * depth * 16));
    }

    /// The two killer moves at `ply`.
    #[must_use]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers.get(ply).copied().unwrap_or([None; 2])
    }

    /// Records `m` as a killer at `ply`.
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
        }
    }

    /// Forgets the killers of the plies below `ply` (a new node's children).
    pub fn clear_killers_from(&mut self, ply: usize) {
        if let Some(k) = self.killers.get_mut(ply) {
            *k = [None; 2];
        }
    }

    /// Halves all history scores (between searches).
    pub fn age(&mut self) {
        for e in &mut self.table {
            *e /= 2;
        }
    }
}
