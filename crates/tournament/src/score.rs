//! Scoring: what a game and a bye are worth, McMahon start scores, and
//! every player's points after some rounds. Pairing and standings count
//! alike because both count here.
//!
//! Points are half points: a win 2, a draw 1, a loss 0; a forfeit gives the
//! player who came 2 and the absent one 0 (a double forfeit 0 to both).

use crate::{ByeKind, Event, Format, GameResult, PlayerId, Points};

/// Half points of a game result for (Sente, Gote); no result yet is (0, 0).
#[must_use]
pub fn game_points(result: Option<GameResult>) -> (i32, i32) {
    match result {
        None | Some(GameResult::DoubleForfeit) => (0, 0),
        Some(GameResult::SenteWin | GameResult::GoteForfeit) => (2, 0),
        Some(GameResult::GoteWin | GameResult::SenteForfeit) => (0, 2),
        Some(GameResult::Draw) => (1, 1),
    }
}

/// Half points a bye of `kind` is worth in `format`: the pairing bye a win
/// in Swiss and McMahon and nothing in a round robin; a sit-out 0, ½ or 1
/// as chosen.
#[must_use]
pub fn bye_points(format: Format, kind: ByeKind) -> i32 {
    match kind {
        ByeKind::Pairing => match format {
            Format::RoundRobin { .. } => 0,
            Format::Swiss | Format::McMahon { .. } => 2,
        },
        ByeKind::Zero => 0,
        ByeKind::Half => 1,
        ByeKind::Full => 2,
    }
}

/// The McMahon start score of `player` in half points: 0 at or above the
/// bar, one point less for each grade below it, counting a player below the
/// floor (or without a grade) as at the floor. 0 in other formats.
///
/// # Examples
/// ```
/// use shogi_tournament::score::start_score;
/// use shogi_tournament::*;
///
/// let kyu3 = Player { rating: None, grade: Some(-2), club: None, from_round: 1, withdrawn_from: None };
/// let event = Event {
///     format: Format::McMahon { bar: 1, floor: -9 },
///     rounds: 5, seed: 0, players: vec![kyu3], played: vec![],
/// };
/// // 3 kyu is three grades below 1 dan.
/// assert_eq!(start_score(&event, 0), Points(-6));
/// ```
#[must_use]
pub fn start_score(event: &Event, player: PlayerId) -> Points {
    let Format::McMahon { bar, floor } = event.format else {
        return Points::ZERO;
    };
    let grade = event
        .players
        .get(player)
        .and_then(|p| p.grade)
        .unwrap_or(floor);
    // max then min, not clamp: a floor above the bar must not panic.
    let grade = grade.max(floor).min(bar);
    Points(grade.saturating_sub(bar).saturating_mul(2))
}

/// Every player's points (half points, with the McMahon start score) after
/// the first `rounds` rounds of `event.played`.
#[must_use]
pub fn points_after(event: &Event, rounds: usize) -> Vec<i32> {
    let n = event.players.len();
    let mut points: Vec<i32> = (0..n).map(|p| start_score(event, p).0).collect();
    for round in event.played.iter().take(rounds) {
        for board in &round.boards {
            let (s, g) = game_points(board.result);
            if let Some(p) = points.get_mut(board.sente) {
                *p = p.saturating_add(s);
            }
            if let Some(p) = points.get_mut(board.gote) {
                *p = p.saturating_add(g);
            }
        }
        for bye in &round.byes {
            if let Some(p) = points.get_mut(bye.player) {
                *p = p.saturating_add(bye_points(event.format, bye.kind));
            }
        }
    }
    points
}
