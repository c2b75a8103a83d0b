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
//! ```
//! use shogi_tournament::{Event, Format, Player, pair::{pair_next, Request}};
//! let player = Player { rating: None, grade: None, club: None, from_round: 1, withdrawn_from: None };
//! let event = Event { format: Format::Swiss, rounds: 3, seed: 1, players: vec![player; 5], played: vec![] };
//! let round = pair_next(&event, &Request::default()).unwrap();
//! assert_eq!(round.boards.len(), 2);
//! assert_eq!(round.byes.len(), 1);
//! ```

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

/// Whether `a` and `b` played a game (not a forfeit) in `event.played`.
pub(crate) fn met_pairs(event: &Event) -> std::collections::HashSet<(PlayerId, PlayerId)> {
    event
        .played
        .iter()
        .flat_map(|r| r.boards.iter())
        .filter(|b| colours::played(b))
        .map(|b| (b.sente.min(b.gote), b.sente.max(b.gote)))
        .collect()
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
    let done = event.played.len();
    let points = points_after(event, done);
    let order = seeded(event, &points, free);
    let floats = done
        .checked_sub(1)
        .map_or_else(|| vec![None; n], |last| floats_in(event, last));
    let met = met_pairs(event);
    let vertices = vertices(event, &order, &points, &floats);
    let mates = matching(&vertices, &met);

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

/// The matching's vertices, best seed first.
fn vertices(
    event: &Event,
    order: &[PlayerId],
    points: &[i32],
    floats: &[Option<Float>],
) -> Vec<Vertex> {
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
/// into `vertices`), or `None` for the bye.
fn matching(
    vertices: &[Vertex],
    met: &std::collections::HashSet<(PlayerId, PlayerId)>,
) -> Vec<Option<usize>> {
    let k = vertices.len();
    if k == 0 {
        return Vec::new();
    }
    let odd = k % 2 == 1;
    let size = k + usize::from(odd);
    let lowest = vertices.iter().map(|v| v.points).min().unwrap_or(0);
    let edge = |i: usize, j: usize| -> [u64; LEVELS] {
        if j == k {
            bye_levels(&vertices[i], lowest, k - 1)
        } else {
            let (a, b) = (&vertices[i], &vertices[j]);
            pair_levels(a, b, met.contains(&(a.id.min(b.id), a.id.max(b.id))))
        }
    };
    let mut max = [0u64; LEVELS];
    for i in 0..size {
        for j in (i + 1)..size {
            for (m, c) in max.iter_mut().zip(edge(i, j)) {
                *m = (*m).max(c);
            }
        }
    }
    let mult = multipliers(&max, (size / 2) as u64);
    let scalar =
        |c: [u64; LEVELS]| -> i128 { c.iter().zip(&mult).map(|(&v, &m)| i128::from(v) * m).sum() };
    let top = scalar(max) * (size / 2) as i128;
    let mates = if top < i128::from(i64::MAX / 1024) {
        integer_blossom::min_weight_perfect_matching(
            &costs(size, |i, j| scalar(edge(i, j)) as i64),
            size,
        )
    } else {
        integer_blossom::min_weight_perfect_matching(&costs(size, |i, j| scalar(edge(i, j))), size)
    };
    (0..k)
        .map(|i| mates.get(i).copied().filter(|&j| j < k))
        .collect()
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
