//! The rules a pairing may break, named so an organiser who forces a
//! pairing is told which.

use std::collections::HashMap;

use crate::request::Request;
use crate::swiss::{self, Float};
use crate::{berger, colours, Board, ByeKind, Event, Format, PlayerId, Round, Side};

/// A pairing rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Two players meet a second time (in a round robin: more often than
    /// the table says).
    Rematch,
    /// A player gets a second pairing bye.
    SecondBye,
    /// A player gets the same colour a third time in a row.
    ThirdColourInRow,
    /// The pairing bye does not go to the lowest score group.
    ByeNotLowest,
    /// Two players of different scores meet where equal scores could.
    ScoreGap,
    /// A player floats (is paired out of their score group) the same way
    /// twice in a row.
    RepeatedFloat,
    /// Two players of one club meet.
    SameClub,
    /// A player's colours go more than two out of balance (three more games
    /// with one side than with the other).
    ColourImbalance,
}

impl Rule {
    /// The rule's key in the JSON API and the client's translations:
    /// `rematch`, `second_bye`, `third_colour_in_row`, `bye_not_lowest`,
    /// `score_gap`, `repeated_float`, `same_club`, `colour_imbalance`.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Rule::Rematch => "rematch",
            Rule::SecondBye => "second_bye",
            Rule::ThirdColourInRow => "third_colour_in_row",
            Rule::ByeNotLowest => "bye_not_lowest",
            Rule::ScoreGap => "score_gap",
            Rule::RepeatedFloat => "repeated_float",
            Rule::SameClub => "same_club",
            Rule::ColourImbalance => "colour_imbalance",
        }
    }
}

/// A rule a pairing breaks, and the players it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The rule.
    pub rule: Rule,
    /// The players concerned.
    pub players: Vec<PlayerId>,
}

/// The rules `round` would break as the next round of `event`, each with
/// the players it concerns (a rule broken on several boards gives one
/// warning a board).
///
/// Definitions (see docs/TOURNAMENTS.md):
/// - `Rematch`: the two played a game before (a forfeit is no meeting); in
///   a round robin, more often than the cycles so far allow.
/// - `SecondBye`: the pairing bye goes to a player who had one.
/// - `ThirdColourInRow`: a player gets the side of both their last two
///   games; `ColourImbalance`: a player's colour difference goes beyond ±2.
/// - `ByeNotLowest`: a player on a board had fewer points than the bye's
///   receiver and no pairing bye yet.
/// - `ScoreGap`: relative to the free pairing (the pairing this crate makes
///   of the same state with the same sit-outs and nothing forced): the
///   round has more boards of unequal scores than the free pairing; each
///   unequal board the free pairing does not have is named.
/// - `RepeatedFloat`: a player is paired out of their score group the same
///   way (down, or up) as in the previous round; the pairing bye counts as
///   floating down.
/// - `SameClub`: two players of one club meet.
///
/// In a round robin the table decides everything but attendance, so only
/// `Rematch` is checked there. Boards already carrying a forfeit are no
/// games and are not checked for meetings or colours; players unknown to
/// the event are ignored.
///
/// ```
/// use shogi_tournament::{check::{check, Rule}, *};
/// let player = Player { rating: None, grade: None, club: Some("SPb".into()), from_round: 1, withdrawn_from: None };
/// let event = Event { format: Format::Swiss, rounds: 3, seed: 1, players: vec![player; 2], played: vec![] };
/// let board = Board { sente: 0, gote: 1, colours: ColourChoice::Forced, result: None };
/// let warnings = check(&event, &Round { boards: vec![board], byes: vec![] });
/// assert_eq!(warnings.len(), 1);
/// assert_eq!(warnings[0].rule, Rule::SameClub);
/// ```
#[must_use]
pub fn check(event: &Event, round: &Round) -> Vec<Warning> {
    check_against(event, round, None)
}

/// [`check`] with the free pairing's boards given where the caller has
/// them (the pairing itself, when nothing was forced).
pub(crate) fn check_against(event: &Event, round: &Round, free: Option<&[Board]>) -> Vec<Warning> {
    let n = event.players.len();
    let known = |b: &&Board| b.sente < n && b.gote < n && b.sente != b.gote;
    let boards: Vec<&Board> = round.boards.iter().filter(known).collect();
    let mut warnings = Vec::new();
    let mut warn = |rule: Rule, players: Vec<PlayerId>| warnings.push(Warning { rule, players });
    let met = meetings(event);
    let done = event.played.len();
    let allowed = match event.format {
        Format::RoundRobin { .. } => done / berger::rounds(n).max(1),
        _ => 0,
    };
    for b in boards.iter().filter(|b| colours::played(b)) {
        let key = (b.sente.min(b.gote), b.sente.max(b.gote));
        if met.get(&key).copied().unwrap_or(0) > allowed {
            warn(Rule::Rematch, vec![b.sente, b.gote]);
        }
    }
    if matches!(event.format, Format::RoundRobin { .. }) {
        return warnings;
    }
    let points = crate::score::points_after(event, done);
    let had_bye = |p: PlayerId| {
        event.played.iter().any(|r| {
            r.byes
                .iter()
                .any(|b| b.player == p && b.kind == ByeKind::Pairing)
        })
    };
    let bye = round
        .byes
        .iter()
        .find(|b| b.kind == ByeKind::Pairing && b.player < n)
        .map(|b| b.player);
    if let Some(p) = bye {
        if had_bye(p) {
            warn(Rule::SecondBye, vec![p]);
        }
        let lower: Vec<PlayerId> = boards
            .iter()
            .flat_map(|b| [b.sente, b.gote])
            .filter(|&q| points[q] < points[p] && !had_bye(q))
            .collect();
        if !lower.is_empty() {
            warn(Rule::ByeNotLowest, vec![p]);
        }
    }
    for b in boards.iter().filter(|b| colours::played(b)) {
        for (p, side) in [(b.sente, Side::Sente), (b.gote, Side::Gote)] {
            let history = colours::history(event, p);
            let games: Vec<Side> = history.iter().flatten().copied().collect();
            if games.len() >= 2 && games[games.len() - 2..].iter().all(|&s| s == side) {
                warn(Rule::ThirdColourInRow, vec![p]);
            }
            let diff = colours::difference(&history) + if side == Side::Sente { 1 } else { -1 };
            if diff.abs() > 2 {
                warn(Rule::ColourImbalance, vec![p]);
            }
        }
    }
    score_gaps(event, round, &boards, &points, free, &mut warn);
    let floats = done
        .checked_sub(1)
        .map(|last| swiss::floats_in(event, last));
    for b in &boards {
        let (s, g) = (points[b.sente], points[b.gote]);
        if s != g {
            let (hi, lo) = if s > g {
                (b.sente, b.gote)
            } else {
                (b.gote, b.sente)
            };
            let repeated =
                |p: PlayerId, f: Float| floats.as_ref().is_some_and(|fl| fl[p] == Some(f));
            if repeated(hi, Float::Down) {
                warn(Rule::RepeatedFloat, vec![hi]);
            }
            if repeated(lo, Float::Up) {
                warn(Rule::RepeatedFloat, vec![lo]);
            }
        }
        let club = |p: PlayerId| {
            event.players[p]
                .club
                .as_deref()
                .map(str::trim)
                .filter(|c| !c.is_empty())
        };
        if club(b.sente).is_some() && club(b.sente) == club(b.gote) {
            warn(Rule::SameClub, vec![b.sente, b.gote]);
        }
    }
    if let (Some(p), Some(fl)) = (bye, floats.as_ref()) {
        if fl[p] == Some(Float::Down) {
            warn(Rule::RepeatedFloat, vec![p]);
        }
    }
    warnings
}

/// `ScoreGap` warnings: the round's unequal boards beyond the free
/// pairing's count (see [`check`]).
fn score_gaps(
    event: &Event,
    round: &Round,
    boards: &[&Board],
    points: &[i32],
    free: Option<&[Board]>,
    warn: &mut impl FnMut(Rule, Vec<PlayerId>),
) {
    let unequal = |b: &Board| points.get(b.sente) != points.get(b.gote);
    let gaps: Vec<&Board> = boards.iter().copied().filter(|b| unequal(b)).collect();
    if gaps.is_empty() {
        return;
    }
    let computed;
    let free = match free {
        Some(f) => Some(f),
        None => {
            let request = Request {
                sit_out: round
                    .byes
                    .iter()
                    .copied()
                    .filter(|b| b.kind != ByeKind::Pairing && b.player < points.len())
                    .collect(),
                forced: Vec::new(),
            };
            let next = event.played.len() as u32 + 1;
            computed = swiss::pair(event, next, &request).ok();
            computed.as_ref().map(|(b, _)| b.as_slice())
        }
    };
    let pair_of = |b: &Board| (b.sente.min(b.gote), b.sente.max(b.gote));
    let (free_count, free_pairs): (usize, Vec<_>) = free.map_or((0, Vec::new()), |f| {
        let unequal: Vec<&Board> = f.iter().filter(|b| unequal(b)).collect();
        (unequal.len(), unequal.iter().map(|b| pair_of(b)).collect())
    });
    if gaps.len() <= free_count {
        return;
    }
    for b in gaps {
        if !free_pairs.contains(&pair_of(b)) {
            warn(Rule::ScoreGap, vec![b.sente, b.gote]);
        }
    }
}

/// How often each pair (lower id first) played a game in `event.played`.
fn meetings(event: &Event) -> HashMap<(PlayerId, PlayerId), usize> {
    let mut met = HashMap::new();
    for b in event.played.iter().flat_map(|r| &r.boards) {
        if colours::played(b) {
            *met.entry((b.sente.min(b.gote), b.sente.max(b.gote)))
                .or_insert(0) += 1;
        }
    }
    met
}
