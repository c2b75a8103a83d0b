//! Points and tie-breaks.
//!
//! Scores are counted in half points ([`Points`]): a win 2, a draw 1, a
//! loss 0; a forfeit gives the player who turned up 2 and the absent one 0
//! (both 0 in a double forfeit). A bye is worth 2 for the odd player out
//! of a Swiss or McMahon round, 0 for the idle player of a round robin
//! round, and 0, 1 or 2 for a sit-out as the organiser chose. In McMahon
//! the score starts from the player's grade. docs/TIEBREAKS.md defines
//! every tie-break with a worked example.
//!
//! ```
//! use shogi_tournament::standings::{standings, Tiebreak};
//! use shogi_tournament::*;
//!
//! let player = Player { rating: None, grade: None, club: None, from_round: 1, withdrawn_from: None };
//! let board = Board { sente: 0, gote: 1, colours: ColourChoice::Table, result: Some(GameResult::GoteWin) };
//! let event = Event {
//!     format: Format::Swiss,
//!     rounds: 1,
//!     seed: 0,
//!     players: vec![player.clone(), player],
//!     played: vec![Round { boards: vec![board], byes: vec![] }],
//! };
//! let table = standings(&event, &[Tiebreak::Sos]);
//! assert_eq!(table[0].player, 1);
//! assert_eq!(table[0].points, Points::ONE);
//! assert_eq!(table[0].tiebreaks, vec![0.0]);
//! ```

use std::cmp::Ordering;

use crate::score::bye_points;
pub use crate::score::start_score;

use crate::{ByeKind, Event, Format, GameResult, PlayerId, Points, Side};

/// A tie-break, applied in the order the organiser chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// Sonneborn-Berger.
    SonnebornBerger,
    /// Sum of opponents' scores (Buchholz).
    Sos,
    /// Sum of opponents' SOS.
    Sosos,
    /// Sum of defeated opponents' scores.
    Sodos,
    /// Median Buchholz: SOS less the highest and lowest.
    Median,
    /// The games among the tied players.
    DirectEncounter,
    /// Games won.
    Wins,
    /// Sum of the running scores.
    Cumulative,
}

impl Tiebreak {
    /// Every tie-break.
    pub const ALL: [Tiebreak; 8] = [
        Tiebreak::SonnebornBerger,
        Tiebreak::Sos,
        Tiebreak::Sosos,
        Tiebreak::Sodos,
        Tiebreak::Median,
        Tiebreak::DirectEncounter,
        Tiebreak::Wins,
        Tiebreak::Cumulative,
    ];

    /// The key in the JSON API: `sb`, `sos`, `sosos`, `sodos`, `median`,
    /// `direct`, `wins`, `cumulative`.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Tiebreak::SonnebornBerger => "sb",
            Tiebreak::Sos => "sos",
            Tiebreak::Sosos => "sosos",
            Tiebreak::Sodos => "sodos",
            Tiebreak::Median => "median",
            Tiebreak::DirectEncounter => "direct",
            Tiebreak::Wins => "wins",
            Tiebreak::Cumulative => "cumulative",
        }
    }

    /// The tie-break of a key.
    #[must_use]
    pub fn from_key(key: &str) -> Option<Tiebreak> {
        Tiebreak::ALL.into_iter().find(|t| t.key() == key)
    }
}

/// A player's place.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// 1-based; players level on points and every tie-break share a rank.
    pub rank: u32,
    /// Who.
    pub player: PlayerId,
    /// Points (with the McMahon start score, in McMahon).
    pub points: Points,
    /// The tie-breaks' values, in the order asked.
    pub tiebreaks: Vec<f64>,
}

/// How one round went for one player, from that player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Won over the board.
    Win,
    /// Lost over the board.
    Loss,
    /// Drew.
    Draw,
    /// The opponent did not play.
    ForfeitWin,
    /// The player did not play.
    ForfeitLoss,
    /// Neither played.
    DoubleForfeit,
    /// No result yet.
    Pending,
}

impl Outcome {
    /// The outcome of `result` for the player on `side`.
    pub(crate) fn of(result: Option<GameResult>, side: Side) -> Outcome {
        let Some(result) = result else {
            return Outcome::Pending;
        };
        let sente = side == Side::Sente;
        match result {
            GameResult::Draw => Outcome::Draw,
            GameResult::DoubleForfeit => Outcome::DoubleForfeit,
            GameResult::SenteWin if sente => Outcome::Win,
            GameResult::GoteWin if !sente => Outcome::Win,
            GameResult::SenteWin | GameResult::GoteWin => Outcome::Loss,
            GameResult::GoteForfeit if sente => Outcome::ForfeitWin,
            GameResult::SenteForfeit if !sente => Outcome::ForfeitWin,
            GameResult::SenteForfeit | GameResult::GoteForfeit => Outcome::ForfeitLoss,
        }
    }

    /// Half points scored.
    fn points(self) -> i32 {
        match self {
            Outcome::Win | Outcome::ForfeitWin => 2,
            Outcome::Draw => 1,
            Outcome::Loss | Outcome::ForfeitLoss | Outcome::DoubleForfeit | Outcome::Pending => 0,
        }
    }
}

/// One round of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// A board.
    Game {
        /// The opponent.
        opponent: PlayerId,
        /// The player's side.
        side: Side,
        /// How it went.
        outcome: Outcome,
    },
    /// A bye.
    Bye(ByeKind),
    /// Neither a board nor a bye (not yet entered, or withdrawn).
    Absent,
}

/// The player's round `round` (0-based index into `event.played`): their
/// first board of the round, else their first bye, else absent.
pub(crate) fn entry(event: &Event, player: PlayerId, round: usize) -> Entry {
    let Some(r) = event.played.get(round) else {
        return Entry::Absent;
    };
    for board in &r.boards {
        let side = if board.sente == player {
            Side::Sente
        } else if board.gote == player {
            Side::Gote
        } else {
            continue;
        };
        let opponent = match side {
            Side::Sente => board.gote,
            Side::Gote => board.sente,
        };
        let outcome = Outcome::of(board.result, side);
        return Entry::Game {
            opponent,
            side,
            outcome,
        };
    }
    r.byes
        .iter()
        .find(|b| b.player == player)
        .map_or(Entry::Absent, |b| Entry::Bye(b.kind))
}

impl Entry {
    /// Half points scored in the round.
    fn points(self, format: Format) -> i32 {
        match self {
            Entry::Game { outcome, .. } => outcome.points(),
            Entry::Bye(kind) => bye_points(format, kind),
            Entry::Absent => 0,
        }
    }
}

/// The score of `player` after every result entered so far (in McMahon,
/// with the start score). A board without a result counts nothing yet; a
/// player who is not in the event scores zero.
///
/// # Examples
/// ```
/// use shogi_tournament::standings::score;
/// use shogi_tournament::*;
///
/// let p = Player { rating: None, grade: None, club: None, from_round: 1, withdrawn_from: None };
/// let draw = Board { sente: 0, gote: 1, colours: ColourChoice::Table, result: Some(GameResult::Draw) };
/// let event = Event {
///     format: Format::Swiss, rounds: 2, seed: 0,
///     players: vec![p.clone(), p.clone(), p],
///     played: vec![Round { boards: vec![draw], byes: vec![Bye { player: 2, kind: ByeKind::Pairing }] }],
/// };
/// assert_eq!(score(&event, 0), Points::HALF);
/// assert_eq!(score(&event, 2), Points::ONE);
/// ```
#[must_use]
pub fn score(event: &Event, player: PlayerId) -> Points {
    let games = (0..event.played.len())
        .map(|r| entry(event, player, r).points(event.format))
        .fold(0i32, i32::saturating_add);
    Points(start_score(event, player).0.saturating_add(games))
}

/// Everything the tie-breaks read, computed once.
struct Table {
    /// `entries[p][r]`: player `p`'s round `r`.
    entries: Vec<Vec<Entry>>,
    /// Each player's score in half points.
    points: Vec<i32>,
    /// Each player's SOS in half points.
    sos: Vec<i64>,
}

impl Table {
    fn new(event: &Event) -> Table {
        let n = event.players.len();
        let rounds = event.played.len();
        let entries: Vec<Vec<Entry>> = (0..n)
            .map(|p| (0..rounds).map(|r| entry(event, p, r)).collect())
            .collect();
        let points: Vec<i32> = (0..n).map(|p| score(event, p).0).collect();
        let mut table = Table {
            entries,
            points,
            sos: Vec::new(),
        };
        table.sos = (0..n)
            .map(|p| {
                table
                    .contributions(p, |q| i64::from(table.points_of(q)))
                    .into_iter()
                    .sum()
            })
            .collect();
        table
    }

    /// A player's score; zero for a number not in the event.
    fn points_of(&self, player: PlayerId) -> i32 {
        self.points.get(player).copied().unwrap_or(0)
    }

    /// The Buchholz contributions of `player`'s rounds: `value(opponent)`
    /// for a game played over the board, `value(player)` for an unplayed
    /// round (FIDE 2023's dummy opponent: byes, forfeits, rounds absent);
    /// nothing for a game without a result yet.
    fn contributions(&self, player: PlayerId, value: impl Fn(PlayerId) -> i64) -> Vec<i64> {
        self.entries[player]
            .iter()
            .filter_map(|e| match *e {
                Entry::Game {
                    outcome: Outcome::Pending,
                    ..
                } => None,
                Entry::Game {
                    opponent,
                    outcome: Outcome::Win | Outcome::Loss | Outcome::Draw,
                    ..
                } => Some(value(opponent)),
                _ => Some(value(player)),
            })
            .collect()
    }

    /// Sonneborn-Berger in quarter points: each opponent's score times the
    /// result against them; an unplayed round counts the player's own
    /// score times the points of the round.
    fn sonneborn_berger(&self, player: PlayerId, format: Format) -> i64 {
        self.entries[player]
            .iter()
            .map(|e| {
                let (whom, got) = match *e {
                    Entry::Game {
                        outcome: Outcome::Pending,
                        ..
                    } => return 0,
                    Entry::Game {
                        opponent,
                        outcome: outcome @ (Outcome::Win | Outcome::Loss | Outcome::Draw),
                        ..
                    } => (opponent, outcome.points()),
                    other => (player, other.points(format)),
                };
                i64::from(self.points_of(whom)) * i64::from(got)
            })
            .sum()
    }

    /// SODOS in half points: the scores of the opponents beaten over the
    /// board.
    fn sodos(&self, player: PlayerId) -> i64 {
        self.entries[player]
            .iter()
            .filter_map(|e| match *e {
                Entry::Game {
                    opponent,
                    outcome: Outcome::Win,
                    ..
                } => Some(i64::from(self.points_of(opponent))),
                _ => None,
            })
            .sum()
    }

    /// Games won over the board.
    fn wins(&self, player: PlayerId) -> usize {
        self.entries[player]
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Entry::Game {
                        outcome: Outcome::Win,
                        ..
                    }
                )
            })
            .count()
    }

    /// The sum of the running scores after each round, in half points.
    fn cumulative(&self, event: &Event, player: PlayerId) -> i64 {
        let mut running = i64::from(start_score(event, player).0);
        let mut sum = 0;
        for e in &self.entries[player] {
            running += i64::from(e.points(event.format));
            sum += running;
        }
        sum
    }

    /// Median Buchholz in half points: the contributions less the highest
    /// and the lowest (all of them when there are fewer than three).
    fn median(&self, player: PlayerId) -> i64 {
        let mut c = self.contributions(player, |q| i64::from(self.points_of(q)));
        c.sort_unstable();
        if c.len() >= 3 {
            c[1..c.len() - 1].iter().sum()
        } else {
            c.iter().sum()
        }
    }

    /// Points scored by each of `group` in the games among them, if every
    /// two of them met (a board with a result, forfeits included); `None`
    /// otherwise.
    fn direct(&self, group: &[PlayerId]) -> Option<Vec<i64>> {
        let mut scored = vec![0i64; group.len()];
        for (i, &p) in group.iter().enumerate() {
            for &q in group {
                if q == p {
                    continue;
                }
                let mut met = false;
                for e in &self.entries[p] {
                    if let Entry::Game {
                        opponent, outcome, ..
                    } = *e
                    {
                        if opponent == q && outcome != Outcome::Pending {
                            met = true;
                            scored[i] += i64::from(outcome.points());
                        }
                    }
                }
                if !met {
                    return None;
                }
            }
        }
        Some(scored)
    }
}

/// Half points to points.
fn halves(x: i64) -> f64 {
    x as f64 / 2.0
}

/// The standings after every result entered so far, best first.
///
/// Players are ordered by points, then by each tie-break of `order` in
/// turn (higher first), then by entry order. Players level on points and
/// every tie-break share the rank of the first of them. Every player of
/// the event appears once, withdrawn players included.
#[must_use]
pub fn standings(event: &Event, order: &[Tiebreak]) -> Vec<Standing> {
    let table = Table::new(event);
    let n = event.players.len();
    let mut rows: Vec<Standing> = (0..n)
        .map(|p| Standing {
            rank: 0,
            player: p,
            points: Points(table.points[p]),
            tiebreaks: Vec::with_capacity(order.len()),
        })
        .collect();
    for (k, &tiebreak) in order.iter().enumerate() {
        if tiebreak == Tiebreak::DirectEncounter {
            direct_encounter(&table, &mut rows, k);
            continue;
        }
        for row in &mut rows {
            let p = row.player;
            let value = match tiebreak {
                Tiebreak::SonnebornBerger => table.sonneborn_berger(p, event.format) as f64 / 4.0,
                Tiebreak::Sos => halves(table.sos[p]),
                Tiebreak::Sosos => halves(
                    table
                        .contributions(p, |q| table.sos.get(q).copied().unwrap_or(0))
                        .iter()
                        .sum(),
                ),
                Tiebreak::Sodos => halves(table.sodos(p)),
                Tiebreak::Median => halves(table.median(p)),
                Tiebreak::Wins => table.wins(p) as f64,
                Tiebreak::Cumulative => halves(table.cumulative(event, p)),
                Tiebreak::DirectEncounter => 0.0,
            };
            row.tiebreaks.push(value);
        }
    }
    rows.sort_by(|a, b| compare(a, b).then(a.player.cmp(&b.player)));
    let mut rank = 1u32;
    for i in 0..rows.len() {
        if i > 0 && compare(&rows[i - 1], &rows[i]) != Ordering::Equal {
            rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
        }
        rows[i].rank = rank;
    }
    rows
}

/// Better first: more points, then higher tie-breaks in order.
fn compare(a: &Standing, b: &Standing) -> Ordering {
    b.points.cmp(&a.points).then_with(|| {
        a.tiebreaks
            .iter()
            .zip(&b.tiebreaks)
            .map(|(x, y)| y.total_cmp(x))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    })
}

/// Pushes the direct encounter (tie-break `k`) to every row: among the
/// players level on points and the `k` tie-breaks before it, the points
/// they scored against each other, if all of them met; 0 otherwise and
/// for a player level with nobody.
fn direct_encounter(table: &Table, rows: &mut [Standing], k: usize) {
    let mut values = vec![0.0; rows.len()];
    let mut done = vec![false; rows.len()];
    for i in 0..rows.len() {
        if done[i] {
            continue;
        }
        let members: Vec<usize> = (i..rows.len())
            .filter(|&j| {
                rows[j].points == rows[i].points && rows[j].tiebreaks[..k] == rows[i].tiebreaks[..k]
            })
            .collect();
        for &j in &members {
            done[j] = true;
        }
        if members.len() < 2 {
            continue;
        }
        let players: Vec<PlayerId> = members.iter().map(|&j| rows[j].player).collect();
        if let Some(scored) = table.direct(&players) {
            for (&j, s) in members.iter().zip(scored) {
                values[j] = halves(s);
            }
        }
    }
    for (row, value) in rows.iter_mut().zip(values) {
        row.tiebreaks.push(value);
    }
}
