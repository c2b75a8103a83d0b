//! A df-pn node's numbers: the result of a search ([`Res`]), the children
//! being searched ([`Child`]), and the [`Selection`] of the child to search
//! next with the node's proof and disproof numbers summed from its
//! children.

use shogi_core::{Hand, HandKind, Move};

use super::table::Entry;

/// Proof or disproof number meaning "infinite".
pub(super) const INF: u32 = u32::MAX;
/// "No repetition involved" for a disproof.
pub(super) const NO_REP: u32 = u32::MAX;
/// Whether alike moves (drops of different kinds to one square; a move with
/// and without promotion) count once (the most of them) in sums of proof or
/// disproof numbers, and in the first proof number of a defender's node.
pub(super) const GROUP_ALIKE: bool = true;

/// A (dis)proof search result of a node.
#[derive(Clone, Copy, Debug)]
pub(super) struct Res {
    /// The proof number.
    pub(super) pn: u32,
    /// The disproof number.
    pub(super) dn: u32,
    /// The path index of the earliest ancestor whose repetition a disproof
    /// relies on ([`NO_REP`] if none).
    pub(super) rep: u32,
    /// The proof or disproof hand of a final result, otherwise the exact hand.
    pub(super) hand: Hand,
    /// Plies to mate of a proof.
    pub(super) dist: u32,
}

impl Res {
    /// The result a table entry holds.
    pub(super) fn of(e: &Entry) -> Res {
        Res {
            pn: e.pn,
            dn: e.dn,
            rep: NO_REP,
            hand: e.hand,
            dist: e.dist,
        }
    }

    /// Nothing known yet of a node whose attacker holds `hand`: both numbers 1.
    pub(super) fn unknown(hand: Hand) -> Res {
        Res {
            pn: 1,
            dn: 1,
            rep: NO_REP,
            hand,
            dist: 0,
        }
    }
}

/// A child of the node being searched.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child {
    /// The move to it.
    pub(super) m: Move,
    /// The kind the move drops, if a drop.
    pub(super) drop: Option<HandKind>,
    /// The hand kind the move captures, if any.
    pub(super) capture: Option<HandKind>,
    /// Alike moves share a group (see [`GROUP_ALIKE`]).
    pub(super) group: Option<u16>,
    /// What is known of it.
    pub(super) res: Res,
}

/// What a node's children say: the node's numbers and which child to
/// search next.
#[derive(Clone, Copy, Debug)]
pub(super) struct Selection {
    /// The node's proof number.
    pub(super) pn: u32,
    /// The node's disproof number.
    pub(super) dn: u32,
    /// The path index of the earliest repetition a disproof relies on.
    pub(super) rep: u32,
    /// The child to search next: the least proof number at an attacker's
    /// node, the least disproof number at a defender's.
    pub(super) best: usize,
    /// The second least of those numbers.
    second: u32,
    /// The best child's other number (as it counts in the node's sum).
    best_other: u32,
}

/// Sums the children's numbers into the node's and picks the most
/// promising child. `groups` is scratch space (the groups of alike moves and
/// the most of their other numbers).
pub(super) fn select(kids: &[Child], or_node: bool, groups: &mut Vec<(u16, u32)>) -> Selection {
    let mut best = 0;
    let mut best_val = INF;
    let mut second = INF;
    let mut best_other = 0;
    let mut sum = 0u32;
    groups.clear();
    // For a disproof: OR needs all children (earliest rep counts),
    // AND needs one (the least path-dependent one).
    let mut or_rep = NO_REP;
    let mut and_rep: Option<u32> = None;
    for (i, c) in kids.iter().enumerate() {
        let r = &c.res;
        or_rep = or_rep.min(r.rep);
        if r.dn == 0 {
            and_rep = Some(and_rep.map_or(r.rep, |x: u32| x.max(r.rep)));
        }
        let (val, other) = if or_node { (r.pn, r.dn) } else { (r.dn, r.pn) };
        match c.group {
            Some(sq) if GROUP_ALIKE => match groups.iter_mut().find(|g| g.0 == sq) {
                Some(g) => g.1 = g.1.max(other),
                None => groups.push((sq, other)),
            },
            _ => sum = add(sum, other),
        }
        if val < best_val {
            second = best_val;
            best_val = val;
            best = i;
            best_other = other;
        } else if val < second {
            second = val;
        }
    }
    for g in groups.iter() {
        sum = add(sum, g.1);
    }
    if let Some(sq) = kids[best].group.filter(|_| GROUP_ALIKE) {
        // The sum counts the most of a group of alike moves.
        best_other = groups
            .iter()
            .find(|g| g.0 == sq)
            .map_or(best_other, |g| g.1);
    }
    let (pn, dn) = if or_node {
        (best_val, sum)
    } else {
        (sum, best_val)
    };
    let rep = if dn != 0 {
        NO_REP
    } else if or_node {
        or_rep
    } else {
        and_rep.unwrap_or(NO_REP)
    };
    Selection {
        pn,
        dn,
        rep,
        best,
        second,
        best_other,
    }
}

impl Selection {
    /// The thresholds of the best child's search, given the node's
    /// (`thpn`, `thdn`): the node's own threshold less the rest of its sum,
    /// and the second best number plus a quarter (the 1+ε trick against
    /// thrashing).
    pub(super) fn child_thresholds(&self, thpn: u32, thdn: u32, or_node: bool) -> (u32, u32) {
        let eps = |x: u32| if x == INF { INF } else { add(x, 1 + x / 4) };
        if or_node {
            let cthdn = if thdn == INF {
                INF
            } else {
                thdn - self.dn + self.best_other
            };
            (thpn.min(eps(self.second)), cthdn)
        } else {
            let cthpn = if thpn == INF {
                INF
            } else {
                thpn - self.pn + self.best_other
            };
            (cthpn, thdn.min(eps(self.second)))
        }
    }
}

/// The group of the move `moves[i]` if it has an alike move: a drop goes
/// by its square (0-80), a board move that may promote or not by its origin
/// and destination (81 and up). The generator lists the two promotion
/// choices of a move one after the other.
pub(super) fn alike_group(moves: &[Move], i: usize) -> Option<u16> {
    match moves[i] {
        Move::Drop { to, .. } => Some(to.index() as u16),
        Move::Board { from, to, promote } => {
            let twin = Move::Board {
                from,
                to,
                promote: !promote,
            };
            let near = |j: Option<usize>| j.and_then(|j| moves.get(j)) == Some(&twin);
            (near(i.checked_sub(1)) || near(Some(i + 1)))
                .then(|| 81 + (from.index() * 81 + to.index()) as u16)
        }
    }
}

/// The number of moves in `moves`, alike moves counted once.
pub(super) fn distinct_moves(moves: &[Move]) -> u32 {
    let mut squares = 0u128;
    let mut n = 0;
    for i in 0..moves.len() {
        match alike_group(moves, i) {
            None => n += 1,
            Some(g) if g < 81 => squares |= 1 << g,
            // Each of a promotion pair counts a half.
            Some(_) => n += usize::from(moves[i].is_promotion()),
        }
    }
    n as u32 + squares.count_ones()
}

/// The sum of two proof (or disproof) numbers: [`INF`] if either is,
/// otherwise at most `INF - 1`.
pub(super) fn add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b).min(INF - 1)
    }
}
