//! Standings and tie-breaks against the values docs/TIEBREAKS.md computes
//! by hand, and properties on random events.

mod common;

use common::{arb_event, board, bye, event, player, round, round_robin_example, swiss_example};
use proptest::prelude::*;
use shogi_tournament::standings::{score, standings, start_score, Tiebreak};
use shogi_tournament::{ByeKind, Event, Format, GameResult, PlayerId, Points, Round};

/// The value of tie-break `t` for every player, by player number.
fn column(event: &Event, t: Tiebreak) -> Vec<f64> {
    let mut rows = standings(event, &[t]);
    rows.sort_by_key(|s| s.player);
    rows.iter().map(|s| s.tiebreaks[0]).collect()
}

#[test]
fn swiss_example_points() {
    let e = swiss_example();
    let points: Vec<f64> = (0..6).map(|p| score(&e, p).value()).collect();
    assert_eq!(points, [3.5, 3.5, 1.0, 2.0, 2.5, 3.0]);
}

#[test]
fn swiss_example_sos_counts_unplayed_rounds_as_the_player_himself() {
    assert_eq!(
        column(&swiss_example(), Tiebreak::Sos),
        [12.0, 13.5, 14.5, 11.0, 13.0, 13.5]
    );
}

#[test]
fn swiss_example_median_cuts_highest_and_lowest() {
    assert_eq!(
        column(&swiss_example(), Tiebreak::Median),
        [7.5, 9.0, 9.0, 6.5, 8.5, 9.0]
    );
}

#[test]
fn swiss_example_sosos() {
    assert_eq!(
        column(&swiss_example(), Tiebreak::Sosos),
        [65.5, 66.5, 63.0, 61.5, 64.5, 66.5]
    );
}

#[test]
fn swiss_example_sonneborn_berger() {
    assert_eq!(
        column(&swiss_example(), Tiebreak::SonnebornBerger),
        [7.75, 9.0, 2.0, 4.5, 6.25, 6.75]
    );
}

#[test]
fn swiss_example_sodos_counts_only_wins_over_the_board() {
    assert_eq!(
        column(&swiss_example(), Tiebreak::Sodos),
        [6.0, 1.0, 2.0, 2.5, 4.5, 3.5]
    );
}

#[test]
fn swiss_example_wins_leave_out_forfeits_and_byes() {
    assert_eq!(
        column(&swiss_example(), Tiebreak::Wins),
        [3.0, 1.0, 1.0, 1.0, 2.0, 2.0]
    );
}

#[test]
fn swiss_example_cumulative() {
    assert_eq!(
        column(&swiss_example(), Tiebreak::Cumulative),
        [11.5, 10.5, 3.0, 3.0, 8.5, 9.5]
    );
}

#[test]
fn swiss_example_direct_encounter_between_a_and_b() {
    // A and B drew each other in round 3; nobody else is level.
    assert_eq!(
        column(&swiss_example(), Tiebreak::DirectEncounter),
        [0.5, 0.5, 0.0, 0.0, 0.0, 0.0]
    );
}

#[test]
fn swiss_example_standings_by_sos_then_sosos() {
    let rows = standings(
        &swiss_example(),
        &[Tiebreak::Sos, Tiebreak::Sosos, Tiebreak::DirectEncounter],
    );
    let order: Vec<(u32, PlayerId)> = rows.iter().map(|s| (s.rank, s.player)).collect();
    // B before A on SOS (13.5 to 12); the direct encounter then finds
    // nobody level.
    assert_eq!(order, [(1, 1), (2, 0), (3, 5), (4, 4), (5, 3), (6, 2)]);
    assert!(rows.iter().all(|s| s.tiebreaks[2] == 0.0));
}

#[test]
fn players_level_on_everything_share_a_rank() {
    let rows = standings(&swiss_example(), &[Tiebreak::DirectEncounter]);
    let order: Vec<(u32, PlayerId)> = rows.iter().map(|s| (s.rank, s.player)).collect();
    // A and B drew each other: level, rank 1 shared, entry order between them.
    assert_eq!(order, [(1, 0), (1, 1), (3, 5), (4, 4), (5, 3), (6, 2)]);
}

#[test]
fn round_robin_example_points_and_sonneborn_berger() {
    let e = round_robin_example();
    let points: Vec<f64> = (0..4).map(|p| score(&e, p).value()).collect();
    assert_eq!(points, [1.5, 2.5, 1.0, 1.0]);
    assert_eq!(
        column(&e, Tiebreak::SonnebornBerger),
        [2.25, 2.75, 1.0, 1.5]
    );
}

#[test]
fn round_robin_sonneborn_berger_before_direct_encounter() {
    let rows = standings(
        &round_robin_example(),
        &[Tiebreak::SonnebornBerger, Tiebreak::DirectEncounter],
    );
    let order: Vec<PlayerId> = rows.iter().map(|s| s.player).collect();
    // Players 3 and 4 (ids 2, 3) are level on 1 point; 4 has the better SB.
    assert_eq!(order, [1, 0, 3, 2]);
    assert_eq!(rows[2].tiebreaks, [1.5, 0.0]);
}

#[test]
fn round_robin_direct_encounter_before_sonneborn_berger() {
    let rows = standings(
        &round_robin_example(),
        &[Tiebreak::DirectEncounter, Tiebreak::SonnebornBerger],
    );
    let order: Vec<PlayerId> = rows.iter().map(|s| s.player).collect();
    // Player 3 beat player 4 in round 2.
    assert_eq!(order, [1, 0, 2, 3]);
    assert_eq!(rows[2].tiebreaks, [1.0, 1.0]);
    assert_eq!(rows[3].tiebreaks, [0.0, 1.5]);
}

#[test]
fn direct_encounter_needs_every_tied_pair_to_have_met() {
    use GameResult::SenteWin;
    // Three players on 1 point each; 0 and 2 never met.
    let e = event(
        Format::Swiss,
        4,
        vec![
            round(vec![board(0, 1, SenteWin), board(2, 3, SenteWin)], vec![]),
            round(vec![board(1, 2, SenteWin), board(3, 0, SenteWin)], vec![]),
        ],
    );
    let points: Vec<i32> = (0..4).map(|p| score(&e, p).0).collect();
    assert_eq!(points, [2, 2, 2, 2]);
    // Everyone is level on 1 point, and 0-2, 1-3 never met.
    assert_eq!(column(&e, Tiebreak::DirectEncounter), [0.0; 4]);
}

#[test]
fn round_robin_idle_round_scores_nothing_and_swiss_bye_a_point() {
    let rr = event(
        Format::RoundRobin { double: false },
        3,
        vec![round(
            vec![board(0, 1, GameResult::Draw)],
            vec![bye(2, ByeKind::Pairing)],
        )],
    );
    assert_eq!(score(&rr, 2), Points::ZERO);
    let swiss = Event {
        format: Format::Swiss,
        ..rr
    };
    assert_eq!(score(&swiss, 2), Points::ONE);
}

#[test]
fn forfeits_and_sit_outs_score_as_the_organiser_chose() {
    use GameResult::{DoubleForfeit, GoteForfeit};
    let e = event(
        Format::Swiss,
        7,
        vec![round(
            vec![board(0, 1, GoteForfeit), board(2, 3, DoubleForfeit)],
            vec![
                bye(4, ByeKind::Zero),
                bye(5, ByeKind::Half),
                bye(6, ByeKind::Full),
            ],
        )],
    );
    let points: Vec<i32> = (0..7).map(|p| score(&e, p).0).collect();
    assert_eq!(points, [2, 0, 0, 0, 0, 1, 2]);
}

#[test]
fn a_board_without_result_scores_nothing_yet() {
    let mut e = event(
        Format::Swiss,
        2,
        vec![round(vec![board(0, 1, GameResult::SenteWin)], vec![])],
    );
    e.played[0].boards[0].result = None;
    assert_eq!(score(&e, 0), Points::ZERO);
    assert_eq!(column(&e, Tiebreak::Sos), [0.0, 0.0]);
}

#[test]
fn mcmahon_start_scores_from_grades() {
    // Bar 1 dan (1), floor 5 kyu (-4).
    let mut e = event(Format::McMahon { bar: 1, floor: -4 }, 5, vec![]);
    for (p, grade) in [Some(3), Some(1), Some(0), Some(-9), None]
        .into_iter()
        .enumerate()
    {
        e.players[p].grade = grade;
    }
    let starts: Vec<f64> = (0..5).map(|p| start_score(&e, p).value()).collect();
    // 3d and 1d in the top group; 1k one below; 10k and no grade at 5k.
    assert_eq!(starts, [0.0, 0.0, -1.0, -5.0, -5.0]);
}

#[test]
fn mcmahon_opponents_scores_include_their_start() {
    let mut e = event(
        Format::McMahon { bar: 1, floor: -4 },
        2,
        vec![round(vec![board(0, 1, GameResult::GoteWin)], vec![])],
    );
    e.players[0].grade = Some(1);
    e.players[1].grade = Some(-1); // 2 kyu: starts at -2
    assert_eq!(score(&e, 0).value(), 0.0);
    assert_eq!(score(&e, 1).value(), -1.0);
    assert_eq!(column(&e, Tiebreak::Sos), [-1.0, 0.0]);
    // Running McMahon score after round 1 is -1 for player 1.
    assert_eq!(column(&e, Tiebreak::Cumulative), [0.0, -1.0]);
}

#[test]
fn a_floor_above_the_bar_does_not_panic() {
    let mut e = event(Format::McMahon { bar: -5, floor: 3 }, 1, vec![]);
    e.players[0].grade = Some(0);
    let _ = start_score(&e, 0);
    let _ = standings(&e, &Tiebreak::ALL);
}

#[test]
fn players_not_in_the_event_do_not_panic() {
    let e = event(
        Format::Swiss,
        2,
        vec![round(
            vec![board(0, 9, GameResult::SenteWin)],
            vec![bye(7, ByeKind::Full)],
        )],
    );
    let rows = standings(&e, &Tiebreak::ALL);
    assert_eq!(rows.len(), 2);
    assert_eq!(score(&e, 42), Points::ZERO);
}

/// Half points given out in a round, counted from the boards and byes.
fn given_out(format: Format, r: &Round) -> i32 {
    let games: i32 = r
        .boards
        .iter()
        .map(|b| match b.result {
            None | Some(GameResult::DoubleForfeit) => 0,
            Some(_) => 2,
        })
        .sum();
    let byes: i32 = r
        .byes
        .iter()
        .map(|b| match (b.kind, format) {
            (ByeKind::Pairing, Format::RoundRobin { .. }) | (ByeKind::Zero, _) => 0,
            (ByeKind::Half, _) => 1,
            _ => 2,
        })
        .sum();
    games + byes
}

fn all_orders() -> impl Strategy<Value = Vec<Tiebreak>> {
    Just(Tiebreak::ALL.to_vec()).prop_shuffle()
}

proptest! {
    #[test]
    fn points_add_up_to_what_the_rounds_gave_out(e in arb_event()) {
        let total: i32 = (0..e.players.len()).map(|p| score(&e, p).0).sum();
        let starts: i32 = (0..e.players.len()).map(|p| start_score(&e, p).0).sum();
        let given: i32 = e.played.iter().map(|r| given_out(e.format, r)).sum();
        prop_assert_eq!(total, starts + given);
    }

    #[test]
    fn standings_are_a_permutation(e in arb_event(), order in all_orders()) {
        let mut players: Vec<PlayerId> = standings(&e, &order).iter().map(|s| s.player).collect();
        players.sort_unstable();
        prop_assert_eq!(players, (0..e.players.len()).collect::<Vec<_>>());
    }

    #[test]
    fn sos_is_the_sum_of_opponents_scores(e in arb_event()) {
        let sos = column(&e, Tiebreak::Sos);
        for (p, &value) in sos.iter().enumerate() {
            let mut expected = 0;
            for r in &e.played {
                let board = r.boards.iter().find(|b| b.sente == p || b.gote == p);
                match board {
                    Some(b) => match b.result {
                        None => {}
                        Some(GameResult::SenteWin | GameResult::GoteWin | GameResult::Draw) => {
                            let opponent = if b.sente == p { b.gote } else { b.sente };
                            expected += score(&e, opponent).0;
                        }
                        // A forfeit: the player's dummy opponent.
                        Some(_) => expected += score(&e, p).0,
                    },
                    // A bye or an absence: the dummy opponent again.
                    None => expected += score(&e, p).0,
                }
            }
            prop_assert_eq!(value, f64::from(expected) / 2.0);
        }
    }

    #[test]
    fn ranks_are_shared_only_on_full_equality(e in arb_event(), order in all_orders(), k in 0usize..9) {
        let order = &order[..k.min(order.len())];
        let rows = standings(&e, order);
        for (i, pair) in rows.windows(2).enumerate() {
            let (a, b) = (&pair[0], &pair[1]);
            let level = a.points == b.points && a.tiebreaks == b.tiebreaks;
            if level {
                prop_assert_eq!(a.rank, b.rank);
                prop_assert!(a.player < b.player);
            } else {
                prop_assert_eq!(b.rank as usize, i + 2);
                // Better first: points, then the tie-breaks in order.
                let better = a.points > b.points
                    || (a.points == b.points
                        && a.tiebreaks.iter().zip(&b.tiebreaks).find(|(x, y)| x != y).is_some_and(|(x, y)| x > y));
                prop_assert!(better);
            }
        }
        if let Some(first) = rows.first() {
            prop_assert_eq!(first.rank, 1);
        }
    }
}

#[test]
fn an_empty_event_has_empty_standings() {
    let e = event(Format::Swiss, 0, vec![]);
    assert!(standings(&e, &Tiebreak::ALL).is_empty());
    let _ = player();
}
