//! Reading the mating line back from the table once the root is proven:
//! the attacker plays its shortest proven check, the defender its longest
//! proven defence, by mate distances recomputed a few plies down
//! ([`Solver::fresh_dist`]).

use shogi_core::Move;

use super::solver::Solver;

/// How far down [`Solver::fresh_dist`] recomputes mate distances.
const FRESH_PLIES: u32 = 4;

impl Solver {
    /// The plies to mate of the current position, proven with `stored`
    /// (`depth` plies left), recomputed from the table `plies` plies down:
    /// the stored distance of a node is an upper bound fixed when it was
    /// proven, and its children may have been proven faster since.
    fn fresh_dist(&mut self, depth: u32, plies: u32, stored: u32) -> u32 {
        if plies == 0 {
            return stored;
        }
        let or_node = self.pos.side_to_move() == self.attacker;
        let moves = self.moves();
        let mut best: Option<u32> = None;
        for &m in &moves {
            let undo = self.pos.make_move(m);
            let child = self
                .proven_dist(depth.saturating_sub(1))
                .map(|d| self.fresh_dist(depth.saturating_sub(1), plies - 1, d));
            self.pos.unmake_move(m, undo);
            match child {
                Some(d) if or_node => best = Some(best.map_or(d, |b| b.min(d))),
                Some(d) => best = Some(best.map_or(d, |b| b.max(d))),
                None if or_node => {}
                // A defence whose proof is not in the table.
                None => return stored,
            }
        }
        best.map_or(if or_node { stored } else { 0 }, |b| (b + 1).min(stored))
    }

    /// Reads the mating line back from the table (`depth` plies left at the
    /// root), without recursion: the attacker plays its shortest proven
    /// move, the defender its longest, and neither goes back to a position
    /// of the line. A position whose result was lost from the table is
    /// searched again (with the line so far as the path); outside the
    /// depth-limited phase a defence that then fails (a repetition of the
    /// line) is passed over.
    pub(super) fn extract(&mut self, mut depth: u32) -> Option<Vec<Move>> {
        let start = self.pos.clone();
        let mut line = Vec::new();
        let mut on_path = Vec::new();
        let mut retries = 0;
        let result = loop {
            let or_node = self.pos.side_to_move() == self.attacker;
            let position = self.pos.hash();
            if line.len() > 100_000 || self.aborted {
                break None;
            }
            let moves = self.moves();
            if moves.is_empty() {
                break if or_node { None } else { Some(line) };
            }
            let child_depth = depth.saturating_sub(1);
            self.path.insert(position, self.path.len() as u32);
            let mut pick: Option<(Move, u32)> = None;
            let mut lost = false;
            for &m in &moves {
                let undo = self.pos.make_move(m);
                // The stored mate distance of a proven child.
                let mut stored = None;
                if !self.path.contains_key(&self.pos.hash()) {
                    stored = self.proven_dist(child_depth);
                    if stored.is_none() && !or_node {
                        // A defence whose proof was lost: prove it again.
                        let r = self.prove(child_depth);
                        stored = (r.pn == 0).then_some(r.dist);
                        // In the depth-limited phase every defence must mate in time.
                        lost |= stored.is_none() && self.depth_limit.is_some();
                    }
                }
                let dist = stored.map(|d| self.fresh_dist(child_depth, FRESH_PLIES, d));
                self.pos.unmake_move(m, undo);
                let Some(dist) = dist else { continue };
                let better = pick.is_none_or(|(_, d)| if or_node { dist < d } else { dist > d });
                if better {
                    pick = Some((m, dist));
                }
            }
            self.path.remove(&position);
            if lost || self.aborted {
                break None;
            }
            let Some((m, _)) = pick else {
                if or_node && retries < 100 {
                    // The proofs below this position were lost: prove it again.
                    retries += 1;
                    let key = self.key(depth);
                    self.table.forget_proofs(key, &self.hand());
                    // Not from the search without a limit this time: its
                    // proof of this position says nothing of the children.
                    self.distrust = Some(key);
                    let proven = self.prove(depth).pn == 0;
                    self.distrust = None;
                    if proven {
                        continue;
                    }
                }
                break None;
            };
            self.path.insert(position, self.path.len() as u32);
            on_path.push(position);
            line.push(m);
            self.pos.make_move(m);
            depth = child_depth;
        };
        for p in on_path {
            self.path.remove(&p);
        }
        self.pos = start;
        result
    }
}
