//! Score brackets: the parts of a Swiss round's matching that can be
//! matched apart, and why doing so keeps the dense graph's optimum.
//!
//! [`crate::swiss`] costs every pair of players, and the blossom algorithm
//! takes time cubic in the number of vertices (seconds for 1000 players).
//! But rules A to D make most pairs hopeless: two players three score
//! groups apart meet only where nothing cleaner exists. So the round is
//! cut into *parts*, runs of whole score groups; each part is matched on
//! its own over all its pairs, and a certificate says whether the union of
//! the parts' optima is optimal in the dense graph. When it is not, parts
//! are joined and matched again; one part holding the whole round *is* the
//! dense graph.
//!
//! # Clean matchings
//!
//! Call a perfect matching *clean* when it has no rematch, no second bye,
//! no pair breaking the colour rule whichever way (rules A and B zero) and
//! gives the bye, if any, at the least score rule A allows: to a player of
//! the lowest score among those who have not had a bye (the least rule C
//! cost of any matching without a second bye). The bye vertex is counted in
//! that player's score group. A clean matching costs less than one more
//! unit of rule C, and between two clean matchings the squared score
//! differences `D` (rule D) decide, up to less than one unit of rule D
//! (`swiss::multipliers`).
//!
//! # The bound
//!
//! Number the score groups from the top; gap `i` lies between groups `i`
//! and `i + 1`, `w_i` half points wide, with `N_i` vertices above it. Let
//! `x_i` be the number of pairs of a clean matching crossing gap `i`.
//!
//! - A pair of score difference `d` crossing the gaps `S` costs
//!   `d² = (Σ_S w)² ≥ Σ_S w²`, so `D ≥ Σ w_i² x_i`.
//! - Parity: the vertices above gap `i` that do not cross it pair among
//!   themselves (a bye pair stays within one group), so `x_i ≡ N_i`
//!   (mod 2).
//! - Stuck runs: if a run of groups `I` has no clean perfect matching
//!   of its own, a clean matching crosses a gap bounding `I` (or it would
//!   match `I` within itself). A part whose own optimum is not clean is
//!   such a run.
//! - Escapes at the ends: for the top part `R` (groups `0..=t`), split each
//!   pair crossing gap `t` at group `t + 1`: `(a + b)² ≥ a² + b²`. The pairs
//!   within `R` and the upper pieces cost at least `E`, the least `D` of a
//!   clean matching of `R` in which any player may instead leave for group
//!   `t + 1`; the lower pieces cross only gaps below `t`. Likewise at the
//!   bottom. So `D ≥ E + Σ w_i² x_i` over the gaps outside `R`.
//!
//! The least value `L` of that sum, over all `x` obeying these
//! constraints, bounds `D` below. If a clean matching holds a pair between
//! groups `a < b`, the rest is a clean matching of the other vertices,
//! where the gaps `a..b` change parity and the constraints that the pair
//! crosses (a stuck run's edge, an end part it touches) lapse, so
//! `D ≥ key(a, b) = d² + L'` with `L'` the least value under those
//! constraints.
//!
//! # The certificate
//!
//! Let every two groups with `key ≤ T` lie in one part, and let `M` be the
//! union of each part's optimal matching over all pairs within it. If `M`
//! is clean and `D(M) ≤ T`, `M` is optimal in the dense graph.
//!
//! Proof: let `M'` be any perfect matching costing at most `M`. As `M` is
//! clean, `M'` has no rematch, no second bye, no double colour break, and
//! its bye costs no more than `M`'s under rule C, the least possible
//! without a second bye: `M'` is clean. Then `D(M') ≤ D(M)`, or `M'` would
//! cost a whole unit of rule D more. By the bound, each pair of `M'` joins
//! two groups with `key ≤ D(M') ≤ T`, within one part (the bye's pair lies
//! within one group). So `M'` is a union of perfect matchings of the parts,
//! each costing at least that part's optimum: `M'` costs at least `M`. ∎
//!
//! So the matching found costs exactly what the dense graph's optimum
//! costs; it may differ from the dense graph's choice where two matchings
//! cost the same. The property test `brackets_match_the_dense_weight` in
//! [`crate::swiss`] compares the two.
//!
//! # The procedure
//!
//! Parts start as the groups joined by an odd gap: `key = L` for those
//! pairs and above `L` for any other two groups, and each part has an even
//! number of vertices (its edges are even gaps). A part whose optimum is
//! not clean is recorded as stuck and takes in the groups next to it (to
//! float players out of it); past half the round, the whole round is one
//! part. Once every part is clean, the end parts' escape bounds are
//! computed and the groups with `key ≤ D(M)` joined; a pass that joins
//! nothing has proven its matching.

use std::collections::HashMap;

/// What the procedure reads of one part's optimal matching.
pub(crate) struct Part {
    /// Each member's partner (a vertex), in the order of the members.
    pub mates: Vec<usize>,
    /// Whether the matching is clean (see the module docs).
    pub clean: bool,
    /// The sum of the squared score differences of its pairs (rule D).
    pub squares: u128,
}

/// A score group: its points and its vertices, best first. In an odd
/// field the bye vertex is listed with the group of the lowest-scored
/// player who has not had a bye.
pub(crate) struct Group {
    /// The group's points (half points).
    pub points: i32,
    /// Its vertices.
    pub members: Vec<usize>,
}

/// The matchings the procedure asks for.
pub(crate) trait Matcher {
    /// The optimal perfect matching of `members` (an even number of
    /// vertices) over all their pairs.
    fn solve(&self, members: &[usize]) -> Part;

    /// The least squared score differences of a clean matching of
    /// `members` in which any player may instead leave for a score of
    /// `points`, paying the squared difference to it.
    fn escape(&self, members: &[usize], points: i32) -> u128;
}

/// The most vertices an end part may have for its escape bound to be
/// computed (a matching of twice as many vertices).
const ESCAPE_LIMIT: usize = 200;

/// Matches the `vertices` vertices of `groups` (best first, together
/// holding every vertex once); returns each vertex's partner. The result
/// is optimal for the dense graph (see the module docs).
pub(crate) fn match_by_brackets(
    groups: &[Group],
    vertices: usize,
    matcher: &impl Matcher,
) -> Vec<usize> {
    let members = |(first, last): (usize, usize)| -> Vec<usize> {
        groups[first..=last]
            .iter()
            .flat_map(|g| g.members.iter().copied())
            .collect()
    };
    let mut bound = Bound::new(groups);
    let mut parts = Parts(vec![true; groups.len().saturating_sub(1)]);
    bound.join_up_to(bound.least(None), &mut parts);
    // Each part's optimum, at its first group, with its last group.
    let mut solved: Vec<Option<(usize, Part)>> = groups.iter().map(|_| None).collect();
    let mut escapes: HashMap<(usize, usize), Option<u128>> = HashMap::new();
    loop {
        let list = parts.list();
        for &(first, last) in &list {
            if solved[first].as_ref().is_none_or(|(l, _)| *l != last) {
                solved[first] = Some((last, matcher.solve(&members((first, last)))));
            }
        }
        let part = |(first, _): (usize, usize)| &solved[first].as_ref().expect("solved").1;
        let unclean: Vec<(usize, usize)> =
            list.iter().copied().filter(|&p| !part(p).clean).collect();
        if !unclean.is_empty() {
            if list.len() == 1 {
                // The whole round: the dense graph itself.
                break;
            }
            for (first, last) in unclean {
                bound.stuck(first, last);
                parts.join(first.saturating_sub(1), (last + 1).min(groups.len() - 1));
            }
            // Growing a part step by step should not cost more than the
            // dense graph: past half the round, match it whole.
            let size = |&(first, last): &(usize, usize)| -> usize {
                groups[first..=last].iter().map(|g| g.members.len()).sum()
            };
            if parts.list().iter().map(size).max().unwrap_or(0) * 2 > vertices {
                parts.join(0, groups.len() - 1);
            }
            continue;
        }
        let squares = list.iter().map(|&p| part(p).squares).sum();
        if list.len() >= 2 && squares > bound.least(None) {
            let (top, bottom) = (list[0], list[list.len() - 1]);
            let mut escape = |part: (usize, usize), towards: usize| {
                *escapes.entry(part).or_insert_with(|| {
                    let m = members(part);
                    (m.len() <= ESCAPE_LIMIT).then(|| matcher.escape(&m, groups[towards].points))
                })
            };
            bound.top = escape(top, top.1 + 1).map(|e| (top.1, e));
            bound.bottom = escape(bottom, bottom.0 - 1)
                .map(|e| (bottom.0, e))
                .filter(|&(first, _)| bound.top.is_none_or(|(last, _)| last + 2 <= first));
        }
        if !bound.join_up_to(squares, &mut parts) {
            break;
        }
    }
    let mut mates = vec![0; vertices];
    for (first, last) in parts.list() {
        let (_, part) = solved[first].as_ref().expect("every part is solved");
        for (v, &m) in members((first, last)).into_iter().zip(&part.mates) {
            mates[v] = m;
        }
    }
    mates
}

/// More than any bound: a constraint that cannot be met.
const NEVER: u128 = u128::MAX / 4;

/// The bound on rule D (see the module docs).
struct Bound {
    /// Each group's points.
    points: Vec<i32>,
    /// Each gap's `w²` (gap `i` lies below group `i`).
    width2: Vec<u128>,
    /// Whether an odd number of vertices stand above each gap.
    odd: Vec<bool>,
    /// Runs of groups without a clean matching of their own (first and
    /// last group), disjoint, best first.
    stuck: Vec<(usize, usize)>,
    /// The top part's last group and its escape bound.
    top: Option<(usize, u128)>,
    /// The bottom part's first group and its escape bound.
    bottom: Option<(usize, u128)>,
}

impl Bound {
    fn new(groups: &[Group]) -> Self {
        let mut above = 0;
        let mut odd = Vec::new();
        for g in groups.iter().take(groups.len().saturating_sub(1)) {
            above += g.members.len();
            odd.push(above % 2 == 1);
        }
        Bound {
            points: groups.iter().map(|g| g.points).collect(),
            width2: groups
                .windows(2)
                .map(|p| u128::from(p[0].points.abs_diff(p[1].points)).pow(2))
                .collect(),
            odd,
            stuck: Vec::new(),
            top: None,
            bottom: None,
        }
    }

    /// Records that the groups `first..=last` have no clean matching of
    /// their own, in place of the runs recorded inside them.
    fn stuck(&mut self, first: usize, last: usize) {
        self.stuck.retain(|&(a, b)| b < first || a > last);
        let at = self.stuck.partition_point(|&(a, _)| a < first);
        self.stuck.insert(at, (first, last));
    }

    /// `L`, or with `pair` (groups `a < b`) the `L'` of the rest of a
    /// clean matching holding a pair between groups `a` and `b`.
    fn least(&self, pair: Option<(usize, usize)>) -> u128 {
        let crossed = pair.map_or(0..0, |(a, b)| a..b);
        let top = self.top.filter(|&(t, _)| pair.is_none_or(|(a, _)| a > t));
        let bottom = self
            .bottom
            .filter(|&(s, _)| pair.is_none_or(|(_, b)| b < s));
        // The gaps the end parts' escape bounds stand for.
        let ends =
            |k: usize| top.is_some_and(|(t, _)| k <= t) || bottom.is_some_and(|(s, _)| k + 1 >= s);
        let odd = |k: usize| self.odd[k] != crossed.contains(&k);
        let parity: u128 = (0..self.odd.len())
            .filter(|&k| !ends(k) && odd(k))
            .map(|k| self.width2[k])
            .sum();
        // Each stuck run needs a crossing on one of its edges (the gaps
        // above and below it): free where the gap is odd or stands in an
        // end part's bound, else 2w². The runs are disjoint, so neighbours
        // share at most one gap: a path, minimised run by run (`open`: the
        // last run's lower gap not crossed; `paid`: crossed).
        let free = |k: usize| ends(k) || odd(k);
        let (mut open, mut paid) = (0, NEVER);
        let mut last_lower = None;
        for &(first, last) in &self.stuck {
            let upper = first.checked_sub(1);
            let lower = (last < self.odd.len()).then_some(last);
            if upper.is_some_and(free) || lower.is_some_and(free) {
                (open, paid, last_lower) = (open.min(paid), NEVER, None);
                continue;
            }
            let best = open.min(paid);
            let cross_upper = match upper {
                Some(u) if Some(u) == last_lower => paid.min(open + 2 * self.width2[u]),
                Some(u) => best + 2 * self.width2[u],
                None => NEVER,
            };
            let cross_lower = lower.map_or(NEVER, |l| best + 2 * self.width2[l]);
            (open, paid, last_lower) = (cross_upper, cross_lower, lower);
        }
        let escapes = top.map_or(0, |(_, e)| e) + bottom.map_or(0, |(_, e)| e);
        parity + open.min(paid) + escapes
    }

    /// Joins the parts of every two groups whose `key` is at most `limit`
    /// (and the groups between them); whether any two parts were joined.
    fn join_up_to(&self, limit: u128, parts: &mut Parts) -> bool {
        let mut joined = false;
        for a in 0..self.points.len() {
            for b in a + 1..self.points.len() {
                let d = u128::from(self.points[a].abs_diff(self.points[b]));
                if d * d + self.least(Some((a, b))) <= limit {
                    joined |= parts.join(a, b);
                }
            }
        }
        joined
    }
}

/// The parts: runs of groups, as whether each gap divides two parts.
struct Parts(Vec<bool>);

impl Parts {
    /// Joins the groups `first..=last` into one part; whether any two
    /// parts were joined.
    fn join(&mut self, first: usize, last: usize) -> bool {
        let cuts = &mut self.0[first..last];
        let joined = cuts.contains(&true);
        cuts.fill(false);
        joined
    }

    /// Each part's first and last group, best first.
    fn list(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut first = 0;
        for (gap, &cut) in self.0.iter().enumerate() {
            if cut {
                out.push((first, gap));
                first = gap + 1;
            }
        }
        out.push((first, self.0.len()));
        out
    }
}
