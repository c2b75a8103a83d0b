//! The df-pn search itself: [`Solver::mid`] searches a node until its proof
//! or disproof number reaches its threshold, in named steps: what is
//! [known](Solver::known) without search, the [children](Solver::children)
//! with their first numbers, the [search](Solver::search_children) of the
//! most promising child while the thresholds allow, and the
//! [conclusion](Solver::conclude) stored in the table (a proof with its
//! proof hand, a disproof with its disproof hand, or the numbers reached).

use std::collections::HashMap;
use std::time::Instant;

use shogi_core::{zobrist, Color, Hand, HandKind, Move, MoveList, Position};

use super::hands;
use super::limit::MateLimit;
use super::node::{alike_group, distinct_moves, select, Child, Res, Selection, GROUP_ALIKE};
use super::node::{INF, NO_REP};
use super::table::{Entry, Table};
use crate::checks::gives_check;

/// For each colour, hand kind and count, the part of a position's key that
/// comes from holding that many of the kind.
type HandKeys = [[[u64; 19]; 7]; 2];

fn hand_keys() -> HandKeys {
    let mut t = [[[0; 19]; 7]; 2];
    for color in Color::ALL {
        for kind in HandKind::ALL {
            let row = &mut t[color.index()][kind.index()];
            for n in 1..19 {
                row[n] = row[n - 1] ^ zobrist::hand(color, kind, n as u8);
            }
        }
    }
    t
}

/// Mixes a remaining depth into a key for the depth-limited phase.
fn depth_key(hash: u64, depth: u32) -> u64 {
    hash ^ (u64::from(depth) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A mate search: the position (the attacker's turn at the root), the
/// table, the current path and the limits.
pub(super) struct Solver {
    pub(super) pos: Position,
    pub(super) attacker: Color,
    pub(super) table: Table,
    /// Positions on the current path and their index on it.
    pub(super) path: HashMap<u64, u32>,
    pub(super) nodes: u64,
    limit: MateLimit,
    start: Instant,
    pub(super) aborted: bool,
    /// When set, only mates within this many plies count (for shortening).
    pub(super) depth_limit: Option<u32>,
    /// Extra node budget for the current phase.
    pub(super) phase_nodes: Option<u64>,
    /// A depth-limited key whose position must be searched, not taken from
    /// the proofs of the search without a limit.
    pub(super) distrust: Option<u64>,
    hand_keys: HandKeys,
}

/// The node [`Solver::mid`] is searching.
struct Node {
    /// Its table key.
    key: u64,
    /// The attacker's hand.
    hand: Hand,
    /// Whether the attacker is to move.
    or_node: bool,
    /// What the table held for it.
    entry: Option<Entry>,
}

impl Solver {
    /// A search of `pos` (the side to move attacks) within `limit`.
    pub(super) fn new(pos: Position, limit: MateLimit) -> Solver {
        let max_entries = limit.table_entries();
        Solver {
            attacker: pos.side_to_move(),
            pos,
            table: Table::new(max_entries),
            path: HashMap::new(),
            nodes: 0,
            limit,
            start: Instant::now(),
            aborted: false,
            depth_limit: None,
            phase_nodes: None,
            distrust: None,
            hand_keys: hand_keys(),
        }
    }

    /// Searches the current position (`depth` plies left) until it is
    /// proven or disproven, or the search is aborted.
    pub(super) fn prove(&mut self, depth: u32) -> Res {
        loop {
            let r = self.mid(INF, INF, depth);
            if r.pn == 0 || r.dn == 0 || self.aborted {
                return r;
            }
        }
    }

    fn check_limits(&mut self) {
        if self.limit.reached(self.start, self.nodes)
            || self.phase_nodes.is_some_and(|n| self.nodes >= n)
        {
            self.aborted = true;
        }
    }

    /// The moves searched here: checks for the attacker, every legal move
    /// for the defender.
    pub(super) fn moves(&self) -> MoveList {
        let mut moves = self.pos.legal_moves();
        if self.pos.side_to_move() == self.attacker {
            moves.retain(|m| gives_check(&self.pos, *m));
        }
        moves
    }

    /// The attacker's hand.
    pub(super) fn hand(&self) -> Hand {
        *self.pos.hand(self.attacker)
    }

    /// The table key of the current position with `depth` plies left.
    pub(super) fn key(&self, depth: u32) -> u64 {
        let board = self.plain_key();
        match self.depth_limit {
            Some(_) => depth_key(board, depth),
            None => board,
        }
    }

    /// The mate distance of the current position if the table holds a
    /// proof of it with `depth` plies left: one stored under this depth's
    /// key, or in the depth-limited phase one of the search without a
    /// limit whose distance fits (as [`Solver::known`] accepts).
    pub(super) fn proven_dist(&self, depth: u32) -> Option<u32> {
        let hand = self.hand();
        let proof = |key| self.table.probe(key, &hand).filter(|e| e.pn == 0);
        if let Some(e) = proof(self.key(depth)) {
            return Some(e.dist);
        }
        self.depth_limit?;
        self.unlimited_verdict(&hand, depth)
            .filter(|e| e.pn == 0)
            .map(|e| e.dist)
    }

    /// In the depth-limited phase, what the search without a limit settled
    /// of the current position that holds with `depth` plies left: a proof
    /// whose mate distance fits (the distance is an upper bound of that
    /// proof's mate), or a disproof (a final one never relies on the path).
    fn unlimited_verdict(&self, hand: &Hand, depth: u32) -> Option<Entry> {
        self.table
            .probe(self.plain_key(), hand)
            .filter(|e| (e.pn == 0 && e.dist <= depth) || (e.dn == 0 && e.is_final()))
    }

    /// The table key of the current position outside the depth-limited
    /// phase (whatever the plies left).
    fn plain_key(&self) -> u64 {
        let mut board = self.pos.hash();
        for color in Color::ALL {
            let hand = self.pos.hand(color);
            let keys = &self.hand_keys[color.index()];
            for kind in HandKind::ALL {
                board ^= keys[kind.index()][usize::from(hand.count(kind)).min(18)];
            }
        }
        board
    }

    /// The proof hand of the current (defender's) position from the union
    /// of its children's proof hands (see [`hands::and_proof_hand`]).
    fn and_proof_hand(&self, union: Hand, hand: &Hand) -> Hand {
        hands::and_proof_hand(union, hand, &self.pos, self.attacker)
    }

    /// Stores a result and returns it.
    fn settle(&mut self, key: u64, r: Res, work: u64) -> Res {
        self.table.store(key, r.hand, r.pn, r.dn, r.dist, work);
        r
    }

    /// Searches the current position until its proof or disproof number
    /// reaches its threshold; `depth` is the plies left in the depth-limited
    /// phase.
    pub(super) fn mid(&mut self, thpn: u32, thdn: u32, depth: u32) -> Res {
        self.count_node();
        let node = self.node(depth);
        if let Some(r) = self.known(&node, depth) {
            return r;
        }
        let start_nodes = self.nodes;
        let mut kids = self.children(depth);
        if kids.is_empty() {
            return self.no_moves(&node);
        }
        let position = self.pos.hash();
        let index = self.path.len() as u32;
        self.path.insert(position, index);
        let s = self.search_children(&mut kids, node.or_node, thpn, thdn, depth);
        self.path.remove(&position);
        let work = self.nodes - start_nodes + node.entry.map_or(0, |e| u64::from(e.work));
        self.conclude(&node, &kids, s, index, work)
    }

    /// Counts a node and checks the limits now and then.
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 || self.limit.nodes.is_some_and(|n| self.nodes >= n) {
            self.check_limits();
        }
    }

    /// The current position as a node: its key, hand, side and table entry.
    fn node(&self, depth: u32) -> Node {
        let key = self.key(depth);
        let hand = self.hand();
        Node {
            key,
            hand,
            or_node: self.pos.side_to_move() == self.attacker,
            entry: self.table.probe(key, &hand),
        }
    }

    /// A result without search: a final table entry, the current estimate
    /// once aborted, or, with no plies left in the depth-limited phase, the
    /// verdict of the position as it stands.
    fn known(&mut self, node: &Node, depth: u32) -> Option<Res> {
        if let Some(e) = node.entry {
            if e.is_final() || self.aborted {
                return Some(Res::of(&e));
            }
        }
        let exact = Res::unknown(node.hand);
        if self.aborted {
            return Some(exact);
        }
        if self.depth_limit.is_none() || self.distrust == Some(node.key) {
            return None;
        }
        // What the search without a depth limit settled holds here too;
        // stored under this depth's key, so that reading the line back finds it.
        if let Some(e) = self.unlimited_verdict(&node.hand, depth) {
            return Some(self.settle(node.key, Res::of(&e), 1));
        }
        if depth != 0 {
            return None;
        }
        // No plies left: only a position already mated counts.
        let r = if node.or_node {
            Res {
                pn: INF,
                dn: 0,
                hand: hands::unlimited(),
                ..exact
            }
        } else if !self.pos.has_legal_move() {
            Res {
                pn: 0,
                dn: INF,
                hand: self.and_proof_hand(Hand::EMPTY, &node.hand),
                ..exact
            }
        } else {
            Res {
                pn: INF,
                dn: 0,
                ..exact
            }
        };
        Some(self.settle(node.key, r, 1))
    }

    /// The result of a node without children: the attacker has no check
    /// (disproven), or the defender no escape (mate).
    fn no_moves(&mut self, node: &Node) -> Res {
        let exact = Res::unknown(node.hand);
        let r = if node.or_node {
            Res {
                pn: INF,
                dn: 0,
                hand: hands::no_check_disproof(&node.hand),
                ..exact
            }
        } else {
            Res {
                pn: 0,
                dn: INF,
                hand: self.and_proof_hand(Hand::EMPTY, &node.hand),
                ..exact
            }
        };
        self.settle(node.key, r, 1)
    }

    /// Searches the most promising child, again and again, until the
    /// node's numbers reach a threshold or the search is aborted; returns
    /// the last [`Selection`].
    fn search_children(
        &mut self,
        kids: &mut [Child],
        or_node: bool,
        thpn: u32,
        thdn: u32,
        depth: u32,
    ) -> Selection {
        let mut groups = Vec::new();
        loop {
            let s = select(kids, or_node, &mut groups);
            if s.pn >= thpn || s.dn >= thdn || self.aborted {
                return s;
            }
            let (cthpn, cthdn) = s.child_thresholds(thpn, thdn, or_node);
            let m = kids[s.best].m;
            let undo = self.pos.make_move(m);
            let r = self.mid(cthpn, cthdn, depth.saturating_sub(1));
            self.pos.unmake_move(m, undo);
            kids[s.best].res = r;
        }
    }

    /// Stores what the search of a node (at path index `index`, `work`
    /// nodes) found and returns it: a proof with its proof hand, a disproof
    /// with its disproof hand, or the numbers reached (a disproof that
    /// holds only on this path is not stored as one).
    fn conclude(
        &mut self,
        node: &Node,
        kids: &[Child],
        s: Selection,
        index: u32,
        work: u64,
    ) -> Res {
        let exact = Res::unknown(node.hand);
        // Repetitions of this node itself are settled here.
        let rep = if s.rep >= index { NO_REP } else { s.rep };
        if s.pn == 0 {
            let (hand, dist) = if node.or_node {
                hands::or_proof(kids, &node.hand)
            } else {
                hands::and_proof(kids, &node.hand, &self.pos, self.attacker)
            };
            let r = Res {
                pn: 0,
                dn: INF,
                hand,
                dist,
                ..exact
            };
            return self.settle(node.key, r, work);
        }
        if s.dn == 0 && rep == NO_REP {
            let hand = if node.or_node {
                hands::or_disproof(kids, &node.hand)
            } else {
                hands::and_disproof(kids, &node.hand, index)
            };
            let r = Res {
                pn: INF,
                dn: 0,
                hand,
                ..exact
            };
            return self.settle(node.key, r, work);
        }
        if rep == NO_REP {
            self.table.store(node.key, node.hand, s.pn, s.dn, 0, work);
        } else {
            // A disproof that holds only on this path: keep the old estimate.
            let (opn, odn) = node
                .entry
                .filter(|e| !e.is_final())
                .map_or((1, 1), |e| (e.pn, e.dn));
            self.table.store(node.key, node.hand, opn, odn, 0, work);
        }
        Res {
            pn: s.pn,
            dn: s.dn,
            rep,
            ..exact
        }
    }

    /// Expands the current position's children (with `depth` plies left
    /// here), with their first results: from the path (repetitions), the
    /// table, or, at the attacker's nodes, the defender's number of replies
    /// as the first proof number (none: mate in one).
    fn children(&mut self, depth: u32) -> Vec<Child> {
        let moves = self.moves();
        let or_node = self.pos.side_to_move() == self.attacker;
        // First the keys (and the table's clusters loaded together), then the probes.
        let mut info = Vec::with_capacity(moves.len());
        for &m in &moves {
            let undo = self.pos.make_move(m);
            let key = self.key(depth.saturating_sub(1));
            let hand = self.hand();
            let position = self.pos.hash();
            let capture = undo.captured().and_then(|p| p.kind.hand_kind());
            self.pos.unmake_move(m, undo);
            info.push((key, hand, position, capture));
        }
        self.table.touch(info.iter().map(|i| i.0));
        let mut kids = Vec::with_capacity(moves.len());
        for (&m, &(key, hand, position, capture)) in moves.iter().zip(&info) {
            let res = if let Some(&i) = self.path.get(&position) {
                Res {
                    pn: INF,
                    dn: 0,
                    rep: i,
                    ..Res::unknown(hand)
                }
            } else if let Some(e) = self.table.probe(key, &hand) {
                Res::of(&e)
            } else if or_node {
                self.first_numbers(m, key, hand, depth)
            } else {
                Res::unknown(hand)
            };
            let drop = match m {
                Move::Drop { kind, .. } => Some(kind),
                Move::Board { .. } => None,
            };
            kids.push(Child {
                m,
                drop,
                capture,
                group: alike_group(&moves, kids.len()),
                res,
            });
        }
        kids
    }

    /// The first numbers of the attacker's check `m` to a position not in
    /// the table (key `key`, the attacker's hand `hand` there), stored: the
    /// defender's replies as the proof number, none a mate; with no plies
    /// left in the depth-limited phase, a failure.
    fn first_numbers(&mut self, m: Move, key: u64, hand: Hand, depth: u32) -> Res {
        let unknown = Res::unknown(hand);
        let undo = self.pos.make_move(m);
        let n = if GROUP_ALIKE {
            distinct_moves(&self.pos.legal_moves())
        } else {
            self.pos.count_legal_moves() as u32
        };
        let r = if n == 0 {
            Res {
                pn: 0,
                dn: INF,
                hand: self.and_proof_hand(Hand::EMPTY, &hand),
                ..unknown
            }
        } else if self.depth_limit.is_some() && depth <= 1 {
            Res {
                pn: INF,
                dn: 0,
                ..unknown
            }
        } else {
            Res { pn: n, ..unknown }
        };
        self.pos.unmake_move(m, undo);
        self.settle(key, r, u64::from(r.pn == 0 || r.dn == 0))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::dfpn::tests::lenient;

    #[test]
    fn proof_hand_keeps_only_what_mates() {
        // G*5b mates with one gold; the king cannot block an adjacent check.
        let p = lenient("4k4/9/4P4/9/9/9/9/9/9 b 2GS2r2b2g3s4n4l17p 1");
        let mut solver = Solver::new(p, MateLimit::time(Duration::from_secs(5)));
        assert_eq!(solver.prove(u32::MAX).pn, 0);
        let e = solver.table.probe(solver.key(u32::MAX), &solver.hand());
        let mut want = Hand::EMPTY;
        want.add(HandKind::Gold);
        assert_eq!(e.map(|e| (e.pn, e.hand)), Some((0, want)));
        // The proof serves any hand with a gold, not one without.
        assert!(solver
            .table
            .probe(solver.key(u32::MAX), &want)
            .is_some_and(|e| e.pn == 0));
        assert!(solver
            .table
            .probe(solver.key(u32::MAX), &Hand::EMPTY)
            .is_none_or(|e| e.pn != 0));
    }

    #[test]
    fn disproof_hand_covers_smaller_hands() {
        let p = lenient("9/4k4/9/4P4/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        let mut solver = Solver::new(p, MateLimit::time(Duration::from_secs(10)));
        assert_eq!(solver.prove(u32::MAX).dn, 0);
        let e = solver.table.probe(solver.key(u32::MAX), &Hand::EMPTY);
        assert!(e.is_some_and(|e| e.dn == 0));
    }

    #[test]
    fn table_entries_are_32_bytes() {
        assert_eq!(size_of::<Entry>(), 32);
    }
}
