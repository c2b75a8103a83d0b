//! Swiss and McMahon pairing as a minimum-weight perfect matching.
//!
//! Every pair of players (and, in an odd field, every player and a "bye"
//! vertex) gets a cost that scores it against a ladder of rules. The
//! levels are lexicographic: each level's unit is larger than the most the
//! levels below it can add up to over a whole round, so one unit of a
//! higher rule is never traded for any amount of the lower ones. From the
//! top:
//!
//! 1. **A** — a rematch (a game played before; a forfeit is no meeting), or
//!    a second pairing bye.
//! 2. **B** — a pair whose colours must break the absolute colour rule (a
//!    third game in a row with one side, or a colour difference beyond ±2)
//!    whichever way they are given.
//! 3. **C** — the bye's score above the lowest score of the round.
//! 4. **D** — the squared score difference of the pair (in half points).
//! 5. **E** — floats repeated: the higher player of a mixed pair (or the
//!    bye) floated down last round too, or the lower one floated up.
//! 6. **F** — two players of one club.
//! 7. **G** — colour preferences not met: both players due the same side
//!    (the weaker preference loses: 1 for mild, 2 for strong, 3 absolute).
//! 8. **H** — the bye's rank: the lowest-ranked player of the group is
//!    preferred.
//! 9. **I** — shape: in a score group the top half meets the bottom half
//!    (1st with g/2+1st, …); a player floating down meets the top of the
//!    group below.
//!
//! Players are seeded by points (McMahon: with the start score), then
//! rating, then grade, then entry order. Boards are listed by the higher
//! score of the pair, then the sum, then the better seed.
//!
//! The blossom algorithm is cubic in the number of vertices, so the round
//! is matched in parts, runs of score groups (`brackets.rs`), wherever a
//! bound on rules A to D proves that no pair between the parts can lower
//! the cost: the result costs exactly what the optimum over every pair
//! costs.
//!
//! ```
//! use shogi_tournament::{Event, Format, Player, pair::{pair_next, Request}};
//! let player = Player { rating: None, grade: None, club: None, from_round: 1, withdrawn_from: None };
//! let event = Event { format: Format::Swiss, rounds: 3, seed: 1, players: vec![player; 5], played: vec![] };
//! let round = pair_next(&event, &Request::default()).unwrap();
//! assert_eq!(round.boards.len(), 2);
//! assert_eq!(round.byes.len(), 1);
//! ```

use crate::brackets::{self, Matcher};
use crate::colours::{self, Preference, Strength};
use crate::request::{PairingError, Request};
use crate::score::points_after;
use crate::{Board, Bye, ByeKind, Event, PlayerId, Side};

/// How a player was paired out of their score group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Float {
    /// Met a lower score, or got the pairing bye.
    Down,
    /// Met a higher score.
    Up,
}

/// Each player's float in round `round_index` (0-based) of `event.played`.
pub(crate) fn floats_in(event: &Event, round_index: usize) -> Vec<Option<Float>> {
    let n = event.players.len();
    let mut floats = vec![None; n];
    let Some(round) = event.played.get(round_index) else {
        return floats;
    };
    let before = points_after(event, round_index);
    for b in &round.boards {
        if b.sente >= n || b.gote >= n {
            continue;
        }
        let (s, g) = (before[b.sente], before[b.gote]);
        if s != g {
            let (hi, lo) = if s > g {
                (b.sente, b.gote)
            } else {
                (b.gote, b.sente)
            };
            floats[hi] = Some(Float::Down);
            floats[lo] = Some(Float::Up);
        }
    }
    for bye in &round.byes {
        if bye.kind == ByeKind::Pairing && bye.player < n {
            floats[bye.player] = Some(Float::Down);
        }
    }
    floats
}

/// The seeding order of `players`: points, then rating, then grade, then
/// entry order. Returns the players sorted best first.
pub(crate) fn seeded(event: &Event, points: &[i32], mut players: Vec<PlayerId>) -> Vec<PlayerId> {
    players.sort_by_key(|&p| {
        let pl = &event.players[p];
        (
            std::cmp::Reverse(points[p]),
            std::cmp::Reverse(pl.rating.map_or(i64::MIN, i64::from)),
            std::cmp::Reverse(pl.grade.map_or(i64::MIN, i64::from)),
            p,
        )
    });
    players
}

/// What the cost of an edge reads of one player, computed once.
struct Vertex {
    id: PlayerId,
    points: i32,
    /// Place in the seeding of the players being matched (0 = best).
    rank: usize,
    /// Place within the score group, and the group's size.
    group_pos: usize,
    group_len: usize,
    /// The club, interned (None: no club).
    club: Option<usize>,
    pref: Option<Preference>,
    /// Whether Sente / Gote would break the absolute colour rule.
    no_sente: bool,
    no_gote: bool,
    had_bye: bool,
    float: Option<Float>,
}

/// The number of rule levels.
const LEVELS: usize = 9;

/// The level costs of pairing `a` with `b`.
fn pair_levels(a: &Vertex, b: &Vertex, met: bool) -> [u64; LEVELS] {
    let mut c = [0u64; LEVELS];
    c[0] = u64::from(met);
    let sente_a = !a.no_sente && !b.no_gote;
    let sente_b = !b.no_sente && !a.no_gote;
    c[1] = u64::from(!sente_a && !sente_b);
    let d = u64::from(a.points.abs_diff(b.points));
    c[3] = d.saturating_mul(d);
    if a.points == b.points {
        let want = a.group_len / 2;
        c[8] = a.group_pos.abs_diff(b.group_pos).abs_diff(want) as u64;
    } else {
        let (hi, lo) = if a.points > b.points { (a, b) } else { (b, a) };
        c[4] = u64::from(hi.float == Some(Float::Down)) + u64::from(lo.float == Some(Float::Up));
        // The floater meets the top of the lower group.
        c[8] = lo.group_pos as u64 + (hi.group_len - 1 - hi.group_pos) as u64;
    }
    c[5] = u64::from(a.club.is_some() && a.club == b.club);
    if let (Some(p), Some(q)) = (a.pref, b.pref) {
        if p.side == q.side {
            c[6] = match p.strength.min(q.strength) {
                Strength::Mild => 1,
                Strength::Strong => 2,
                Strength::Absolute => 3,
            };
        }
    }
    c
}

/// The level costs of giving `a` the pairing bye.
fn bye_levels(a: &Vertex, lowest: i32, last: usize) -> [u64; LEVELS] {
    let mut c = [0u64; LEVELS];
    c[0] = u64::from(a.had_bye);
    c[2] = u64::from(a.points.abs_diff(lowest));
    c[4] = u64::from(a.float == Some(Float::Down));
    c[7] = (last - a.rank) as u64;
    c
}

/// The multiplier of each level: each level's unit exceeds the most all
/// lower levels can add up to over `edges` edges (the levels' maxima
/// `max`). Should the top not fit in `i128` with headroom, the lowest
/// levels are dropped (multiplier 0) until it does.
fn multipliers(max: &[u64; LEVELS], edges: u64) -> [i128; LEVELS] {
    // The blossom's duals reach about twice the largest weight.
    let limit = i128::MAX / 1024;
    for kept in (1..=LEVELS).rev() {
        let mut mult = [0i128; LEVELS];
        let mut total: Option<i128> = Some(0);
        for level in (0..kept).rev() {
            let Some(sum) = total else { break };
            mult[level] = sum + 1;
            total = i128::from(max[level])
                .checked_mul(i128::from(edges))
                .and_then(|t| t.checked_mul(sum + 1))
                .and_then(|t| t.checked_add(sum))
                .filter(|&t| t < limit);
        }
        if total.is_some() {
            return mult;
        }
    }
    [0; LEVELS]
}

/// Pairs round `round` (1-based) of a Swiss or McMahon event: the boards
/// and the byes (the pairing bye first, then the sit-outs). The request
/// was validated by the caller ([`crate::pair::pair_next`]); players it
/// names who cannot play are left out.
///
/// # Errors
/// [`PairingError::TooFewPlayers`] when fewer than two players remain.
pub(crate) fn pair(
    event: &Event,
    round: u32,
    request: &Request,
) -> Result<(Vec<Board>, Vec<Bye>), PairingError> {
    let n = event.players.len();
    let mut busy = vec![false; n];
    for s in &request.sit_out {
        if let Some(b) = busy.get_mut(s.player) {
            *b = true;
        }
    }
    for &(a, b) in &request.forced {
        for p in [a, b] {
            if let Some(b) = busy.get_mut(p) {
                *b = true;
            }
        }
    }
    let active = (0..n).filter(|&p| event.players[p].plays_in(round));
    let free: Vec<PlayerId> = active.clone().filter(|&p| !busy[p]).collect();
    if free.len() + 2 * request.forced.len() < 2 {
        return Err(PairingError::TooFewPlayers);
    }
    let points = points_after(event, event.played.len());
    let vertices = vertices(event, &points, free);
    let mates = matching(&vertices, event);

    let mut rank_of = vec![usize::MAX; n];
    for (i, &p) in seeded(event, &points, active.collect()).iter().enumerate() {
        rank_of[p] = i;
    }
    let mut boards = Vec::new();
    let mut byes = Vec::new();
    let mut pairs: Vec<(PlayerId, PlayerId)> = request
        .forced
        .iter()
        .copied()
        .filter(|&(a, b)| {
            a != b
                && rank_of
                    .get(a)
                    .zip(rank_of.get(b))
                    .is_some_and(|(x, y)| *x < n && *y < n)
        })
        .collect();
    for (i, m) in mates.iter().enumerate() {
        match *m {
            Some(j) if i < j => pairs.push((vertices[i].id, vertices[j].id)),
            None => byes.push(Bye {
                player: vertices[i].id,
                kind: ByeKind::Pairing,
            }),
            Some(_) => {}
        }
    }
    for (a, b) in pairs {
        let (hi, lo) = if rank_of[a] <= rank_of[b] {
            (a, b)
        } else {
            (b, a)
        };
        let (hh, lh) = (colours::history(event, hi), colours::history(event, lo));
        let (sente, gote, how) = colours::allocate(event.seed, round, (hi, &hh), (lo, &lh));
        boards.push(Board {
            sente,
            gote,
            colours: how,
            result: None,
        });
    }
    boards.sort_by_key(|b| {
        let (s, g) = (points[b.sente], points[b.gote]);
        (
            std::cmp::Reverse(s.max(g)),
            std::cmp::Reverse(s + g),
            rank_of[b.sente].min(rank_of[b.gote]),
        )
    });
    byes.extend(request.sit_out.iter().copied());
    Ok((boards, byes))
}

/// The matching's vertices: the players `free`, with `points` (after the
/// rounds played), best seed first.
fn vertices(event: &Event, points: &[i32], free: Vec<PlayerId>) -> Vec<Vertex> {
    let order = seeded(event, points, free);
    let floats = event.played.len().checked_sub(1).map_or_else(
        || vec![None; event.players.len()],
        |last| floats_in(event, last),
    );
    let mut clubs: Vec<&str> = Vec::new();
    let mut out: Vec<Vertex> = Vec::with_capacity(order.len());
    for (rank, &p) in order.iter().enumerate() {
        let history = colours::history(event, p);
        let club = event.players[p]
            .club
            .as_deref()
            .filter(|c| !c.trim().is_empty())
            .map(|c| {
                clubs.iter().position(|k| *k == c).unwrap_or_else(|| {
                    clubs.push(c);
                    clubs.len() - 1
                })
            });
        let had_bye = event.played.iter().any(|r| {
            r.byes
                .iter()
                .any(|b| b.player == p && b.kind == ByeKind::Pairing)
        });
        out.push(Vertex {
            id: p,
            points: points[p],
            rank,
            group_pos: 0,
            group_len: 0,
            club,
            pref: colours::preference(&history),
            no_sente: colours::breaks_absolute(&history, Side::Sente),
            no_gote: colours::breaks_absolute(&history, Side::Gote),
            had_bye,
            float: floats[p],
        });
    }
    // Score groups are runs of equal points in the seeding order.
    let mut start = 0;
    while start < out.len() {
        let mut end = start;
        while end < out.len() && out[end].points == out[start].points {
            end += 1;
        }
        for (pos, v) in out[start..end].iter_mut().enumerate() {
            v.group_pos = pos;
            v.group_len = end - start;
        }
        start = end;
    }
    out
}

/// The minimum-cost matching of `vertices`: each one's partner (an index
/// into `vertices`), or `None` for the bye. Matched by score brackets
/// ([`crate::brackets`]), with the same optimum as the dense graph.
fn matching(vertices: &[Vertex], event: &Event) -> Vec<Option<usize>> {
    let k = vertices.len();
    if k == 0 {
        return Vec::new();
    }
    let costs = Costs::new(vertices, event);
    let mates = if costs.mult[SQUARES] == 0 {
        // Rule D dropped from the weights: the bound does not apply.
        costs.solve(&(0..costs.size).collect::<Vec<_>>()).mates
    } else {
        brackets::match_by_brackets(&costs.groups(), costs.size, &costs)
    };
    (0..k).map(|i| Some(mates[i]).filter(|&j| j < k)).collect()
}

/// The level of rule A, rematches and second byes.
const REMATCH: usize = 0;
/// The level of rule B, pairs breaking the colour rule either way.
const COLOUR_BREAK: usize = 1;
/// The level of rule C, the bye's points above the lowest.
const BYE: usize = 2;
/// The level of rule D, the squared score difference.
const SQUARES: usize = 3;

/// The costs of one round's pairs and byes, weighted as in the dense
/// graph of every pair.
struct Costs<'a> {
    vertices: &'a [Vertex],
    /// Whether vertices `i` and `j` met, at `i * k + j`.
    met: Vec<bool>,
    /// The lowest score of the round.
    lowest: i32,
    /// The vertices, with the bye vertex (index `k`) in an odd field.
    size: usize,
    /// The least rule C cost of a bye not breaking rule A: the points
    /// above the lowest of the lowest-scored player without a bye.
    bye_excess: u64,
    /// The largest cost of any pair or bye, level by level.
    max: [u64; LEVELS],
    /// The levels' multipliers for the dense graph.
    mult: [i128; LEVELS],
}

impl<'a> Costs<'a> {
    fn new(vertices: &'a [Vertex], event: &Event) -> Self {
        let k = vertices.len();
        let mut index = vec![k; event.players.len()];
        for (i, v) in vertices.iter().enumerate() {
            index[v.id] = i;
        }
        // Who played whom (a forfeit is no meeting).
        let mut met = vec![false; k * k];
        let boards = event.played.iter().flat_map(|r| &r.boards);
        for b in boards.filter(|b| colours::played(b)) {
            let (i, j) = (index.get(b.sente), index.get(b.gote));
            if let (Some(&i), Some(&j)) = (i, j) {
                if i < k && j < k {
                    met[i * k + j] = true;
                    met[j * k + i] = true;
                }
            }
        }
        let mut costs = Costs {
            vertices,
            met,
            lowest: vertices.iter().map(|v| v.points).min().unwrap_or(0),
            size: k + k % 2,
            bye_excess: 0,
            max: [0; LEVELS],
            mult: [0; LEVELS],
        };
        for i in 0..costs.size {
            for j in (i + 1)..costs.size {
                let c = costs.levels(i, j);
                for (m, c) in costs.max.iter_mut().zip(c) {
                    *m = (*m).max(c);
                }
            }
        }
        costs.mult = multipliers(&costs.max, (costs.size / 2) as u64);
        costs.bye_excess = (0..k)
            .filter(|&i| !vertices[i].had_bye)
            .map(|i| bye_levels(&vertices[i], costs.lowest, k - 1)[BYE])
            .min()
            .unwrap_or(0);
        costs
    }

    /// The level costs of the edge `i`–`j` (`i < j`; `j == k`: the bye).
    fn levels(&self, i: usize, j: usize) -> [u64; LEVELS] {
        let k = self.vertices.len();
        if j == k {
            bye_levels(&self.vertices[i], self.lowest, k - 1)
        } else {
            pair_levels(&self.vertices[i], &self.vertices[j], self.met[i * k + j])
        }
    }

    fn scalar(&self, c: [u64; LEVELS]) -> i128 {
        c.iter()
            .zip(&self.mult)
            .map(|(&v, &m)| i128::from(v) * m)
            .sum()
    }

    /// The score groups, best first; the bye vertex with the group it
    /// goes to without breaking rule A ([`Costs::bye_excess`]).
    fn groups(&self) -> Vec<brackets::Group> {
        let mut groups: Vec<brackets::Group> = Vec::new();
        for (i, v) in self.vertices.iter().enumerate() {
            match groups.last_mut() {
                Some(g) if g.points == v.points => g.members.push(i),
                _ => groups.push(brackets::Group {
                    points: v.points,
                    members: vec![i],
                }),
            }
        }
        let k = self.vertices.len();
        if self.size > k {
            let eligible = self.vertices.iter().filter(|v| !v.had_bye);
            let points = eligible.map(|v| v.points).min();
            let last = groups.len() - 1;
            let group = points.and_then(|p| groups.iter().position(|g| g.points == p));
            groups[group.unwrap_or(last)].members.push(k);
        }
        groups
    }

    /// Whether a pair or bye with level costs `c` may stand in a clean
    /// matching ([`crate::brackets`]): no rematch or second bye, no double
    /// colour break, the bye at the least score rule A allows.
    fn clean(&self, c: &[u64; LEVELS]) -> bool {
        c[REMATCH] == 0 && c[COLOUR_BREAK] == 0 && c[BYE] <= self.bye_excess
    }
}

impl Matcher for Costs<'_> {
    fn solve(&self, members: &[usize]) -> brackets::Part {
        let size = members.len();
        let mut matrix = costs(size, |i, j| {
            let (a, b) = (members[i], members[j]);
            self.scalar(self.levels(a.min(b), a.max(b)))
        });
        reduce(&mut matrix, size);
        let local = min_cost_matching(&matrix, size);
        let mates: Vec<usize> = local.iter().map(|&j| members[j]).collect();
        let mut clean = true;
        let mut squares = 0;
        for (&a, &b) in members.iter().zip(&mates) {
            if a < b {
                let c = self.levels(a, b);
                clean &= self.clean(&c);
                squares += u128::from(c[SQUARES]);
            }
        }
        brackets::Part {
            mates,
            clean,
            squares,
        }
    }

    fn escape(&self, members: &[usize], points: i32) -> u128 {
        // The members, then as many exits; a pair that is not clean is
        // left out (costs more than all the rest together).
        let n = members.len();
        let squares = |i: usize, j: usize| -> Option<u64> {
            if j < n {
                let (a, b) = (members[i].min(members[j]), members[i].max(members[j]));
                let c = self.levels(a, b);
                self.clean(&c).then_some(c[SQUARES])
            } else if i < n {
                let v = self.vertices.get(members[i])?;
                let d = u64::from(v.points.abs_diff(points));
                Some(d.saturating_mul(d))
            } else {
                Some(0)
            }
        };
        let size = 2 * n;
        let most = (0..size)
            .flat_map(|i| (i + 1..size).map(move |j| (i, j)))
            .filter_map(|(i, j)| squares(i, j))
            .max()
            .unwrap_or(0);
        let left_out = i128::from(most) * n as i128 + 1;
        let matrix = costs(size, |i, j| squares(i, j).map_or(left_out, i128::from));
        let mates = min_cost_matching(&matrix, size);
        let chosen = (0..size)
            .filter(|&i| i < mates[i])
            .map(|i| squares(i, mates[i]));
        // Without a clean way out (only a bye vertex has none), no bound.
        chosen
            .map(|s| s.map(u128::from))
            .sum::<Option<u128>>()
            .unwrap_or(0)
    }
}

/// Takes potentials off the costs: vertex by vertex, the most that keeps
/// every cost non-negative. Every perfect matching loses the same total
/// (each vertex's potential once), so the optimum stays; but each vertex
/// now has a pair of cost 0, which the blossom algorithm matches at once
/// (several times faster on a round of widely spread scores).
fn reduce(matrix: &mut [i128], size: usize) {
    let mut potential = vec![0; size];
    for i in 0..size {
        potential[i] = (0..size)
            .filter(|&j| j != i)
            .map(|j| matrix[i.min(j) * size + i.max(j)] - potential[j])
            .min()
            .unwrap_or(0);
    }
    for i in 0..size {
        for j in (i + 1)..size {
            matrix[i * size + j] -= potential[i] + potential[j];
        }
    }
}

/// The minimum-cost perfect matching of `size` vertices, in `i64` where
/// the costs allow (the blossom's duals reach about twice the largest).
fn min_cost_matching(matrix: &[i128], size: usize) -> Vec<usize> {
    let top = matrix.iter().copied().max().unwrap_or(0);
    if top.saturating_mul(size as i128) < i128::from(i64::MAX / 1024) {
        let narrow: Vec<i64> = matrix.iter().map(|&c| c as i64).collect();
        integer_blossom::min_weight_perfect_matching(&narrow, size)
    } else {
        integer_blossom::min_weight_perfect_matching(matrix, size)
    }
}

/// The row-major upper-triangle cost matrix of `size` vertices.
fn costs<W: Copy + Default>(size: usize, cost: impl Fn(usize, usize) -> W) -> Vec<W> {
    let mut out = vec![W::default(); size * size];
    for i in 0..size {
        for j in (i + 1)..size {
            out[i * size + j] = cost(i, j);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pair::pair_next;
    use crate::{Format, GameResult, Player, Round};
    use proptest::prelude::*;

    /// The dense graph's weight of a matching.
    fn weight(costs: &Costs, mates: &[usize]) -> i128 {
        (0..mates.len())
            .filter(|&i| i < mates[i])
            .map(|i| costs.scalar(costs.levels(i, mates[i])))
            .sum()
    }

    /// Whether matching `event`'s next round by brackets costs what the
    /// dense graph's optimum costs.
    fn same_weight_as_dense(event: &Event) -> Result<(), TestCaseError> {
        let round = event.played.len() as u32 + 1;
        let players = (0..event.players.len())
            .filter(|&p| event.players[p].plays_in(round))
            .collect();
        let vertices = vertices(event, &points_after(event, event.played.len()), players);
        if vertices.is_empty() {
            return Ok(());
        }
        let costs = Costs::new(&vertices, event);
        let dense = costs.solve(&(0..costs.size).collect::<Vec<_>>()).mates;
        let split = brackets::match_by_brackets(&costs.groups(), costs.size, &costs);
        prop_assert_eq!(
            weight(&costs, &split),
            weight(&costs, &dense),
            "round {}",
            round
        );
        Ok(())
    }

    /// `SplitMix64`, for the players and results.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) % n
        }
    }

    fn player(rng: &mut Rng) -> Player {
        Player {
            rating: (rng.below(4) > 0).then(|| 1200 + rng.below(1000) as i32),
            grade: (rng.below(2) > 0).then(|| rng.below(10) as i32 - 7),
            club: (rng.below(3) > 0).then(|| format!("club{}", rng.below(4))),
            from_round: if rng.below(8) == 0 { 2 } else { 1 },
            withdrawn_from: (rng.below(10) == 0).then(|| 2 + rng.below(6) as u32),
        }
    }

    fn result(rng: &mut Rng) -> GameResult {
        match rng.below(10) {
            0..=3 => GameResult::SenteWin,
            4..=7 => GameResult::GoteWin,
            8 => GameResult::Draw,
            _ => GameResult::SenteForfeit,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Long events in small fields force rematches, colour breaks and
        /// floats, so parts are joined as well as proven apart.
        #[test]
        fn brackets_match_the_dense_weight(
            n in 4usize..=48,
            rounds in 2u32..=11,
            seed in any::<u64>(),
            mcmahon in any::<bool>(),
        ) {
            let mut rng = Rng(seed);
            let format = if mcmahon { Format::McMahon { bar: 1, floor: -5 } } else { Format::Swiss };
            let players = (0..n).map(|_| player(&mut rng)).collect();
            let mut event = Event { format, rounds, seed, players, played: Vec::new() };
            while event.played.len() < rounds as usize {
                same_weight_as_dense(&event)?;
                let Ok(pairing) = pair_next(&event, &Request::default()) else { break };
                let boards = pairing
                    .boards
                    .iter()
                    .map(|b| Board { result: Some(result(&mut rng)), ..*b })
                    .collect();
                event.played.push(Round { boards, byes: pairing.byes });
            }
        }
    }
}
