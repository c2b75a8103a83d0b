//! `pair_next` and `check` on hand-made events: round robins by the Berger
//! table, withdrawals and sit-outs, Swiss errors and forced pairs.

use shogi_tournament::check::{check, Rule};
use shogi_tournament::pair::{pair_next, PairingError, Request};
use shogi_tournament::{
    berger, Board, Bye, ByeKind, ColourChoice, Event, Format, GameResult, Player, Round,
};

fn player() -> Player {
    Player {
        rating: None,
        grade: None,
        club: None,
        from_round: 1,
        withdrawn_from: None,
    }
}

fn event(format: Format, n: usize, rounds: u32, seed: u64) -> Event {
    Event {
        format,
        rounds,
        seed,
        players: vec![player(); n],
        played: Vec::new(),
    }
}

/// Pairs every round, entering Sente wins.
fn run(mut event: Event) -> Event {
    while let Ok(p) = pair_next(&event, &Request::default()) {
        let boards = p
            .boards
            .iter()
            .map(|b| Board {
                result: b.result.or(Some(GameResult::SenteWin)),
                ..*b
            })
            .collect();
        event.played.push(Round {
            boards,
            byes: p.byes,
        });
    }
    event
}

#[test]
fn round_robin_follows_the_table_with_its_colours() {
    for seed in 0..8 {
        let e = run(event(Format::RoundRobin { double: false }, 12, 11, seed));
        assert_eq!(e.played.len(), 11);
        for (r, round) in e.played.iter().enumerate() {
            let got: Vec<_> = round
                .boards
                .iter()
                .map(|b| (b.sente + 1, b.gote + 1))
                .collect();
            assert_eq!(got, berger::table(12, r + 1), "seed {seed} round {}", r + 1);
            assert!(round
                .boards
                .iter()
                .all(|b| b.colours == ColourChoice::Table));
            assert!(check(
                &Event {
                    played: e.played[..r].to_vec(),
                    ..e.clone()
                },
                round
            )
            .is_empty());
        }
        assert_eq!(
            pair_next(&e, &Request::default()),
            Err(PairingError::Finished(11))
        );
    }
}

#[test]
fn double_round_robin_reverses_the_second_cycle_and_swaps_the_turn() {
    let e = run(event(Format::RoundRobin { double: true }, 4, 6, 3));
    assert_eq!(e.played.len(), 6);
    let pairs = |r: usize| -> Vec<(usize, usize)> {
        e.played[r]
            .boards
            .iter()
            .map(|b| (b.sente, b.gote))
            .collect()
    };
    // Rounds 2 and 3 of the first cycle are the table's 3 and 2.
    let norm = |v: Vec<(usize, usize)>| {
        let mut v: Vec<_> = v.into_iter().map(|(a, b)| (a.min(b), a.max(b))).collect();
        v.sort_unstable();
        v
    };
    let table = |r: usize| {
        norm(
            berger::table(4, r)
                .into_iter()
                .map(|(a, b)| (a - 1, b - 1))
                .collect(),
        )
    };
    assert_eq!(norm(pairs(1)), table(3));
    assert_eq!(norm(pairs(2)), table(2));
    for r in 0..3 {
        let second = pairs(r + 3);
        let first_cycle_round = [0, 2, 1][r];
        let reversed: Vec<_> = pairs(first_cycle_round)
            .into_iter()
            .map(|(a, b)| (b, a))
            .collect();
        assert_eq!(second, reversed);
    }
    // Nobody has three games in a row with one colour.
    for p in 0..4 {
        let sides: Vec<bool> = e
            .played
            .iter()
            .map(|r| r.boards.iter().any(|b| b.sente == p))
            .collect();
        assert!(
            sides.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])),
            "player {p}: {sides:?}"
        );
    }
}

#[test]
fn odd_round_robin_gives_the_idle_player_a_pointless_bye() {
    let e = run(event(Format::RoundRobin { double: false }, 5, 5, 1));
    let mut idle: Vec<usize> = e
        .played
        .iter()
        .map(|r| {
            assert_eq!(r.boards.len(), 2);
            assert_eq!(r.byes.len(), 1);
            assert_eq!(r.byes[0].kind, ByeKind::Pairing);
            r.byes[0].player
        })
        .collect();
    idle.sort_unstable();
    assert_eq!(idle, vec![0, 1, 2, 3, 4]);
}

#[test]
fn withdrawn_and_sitting_out_players_lose_by_forfeit() {
    let mut e = event(Format::RoundRobin { double: false }, 4, 3, 0);
    e.players[3].withdrawn_from = Some(1);
    let sit = Request {
        sit_out: vec![Bye {
            player: 0,
            kind: ByeKind::Zero,
        }],
        forced: vec![],
    };
    let p = pair_next(&e, &sit).unwrap();
    for b in &p.boards {
        let absent = |x: usize| x == 0 || x == 3;
        let want = match (absent(b.sente), absent(b.gote)) {
            (true, true) => Some(GameResult::DoubleForfeit),
            (true, false) => Some(GameResult::SenteForfeit),
            (false, true) => Some(GameResult::GoteForfeit),
            (false, false) => None,
        };
        assert_eq!(b.result, want, "{b:?}");
    }
    assert!(p.byes.is_empty());
}

#[test]
fn round_robin_refuses_late_entries_and_forced_pairs() {
    let mut e = event(Format::RoundRobin { double: false }, 4, 3, 0);
    let forced = Request {
        sit_out: vec![],
        forced: vec![(0, 1)],
    };
    assert_eq!(pair_next(&e, &forced), Err(PairingError::BadPlayer(0)));
    e.players.push(Player {
        from_round: 2,
        ..player()
    });
    assert_eq!(
        pair_next(&e, &Request::default()),
        Err(PairingError::LateEntry)
    );
}

#[test]
fn swiss_waits_for_every_result() {
    let e = event(Format::Swiss, 6, 3, 0);
    let p = pair_next(&e, &Request::default()).unwrap();
    let mut played = Round {
        boards: p.boards.clone(),
        byes: p.byes,
    };
    played.boards[0].result = Some(GameResult::Draw);
    let e = Event {
        played: vec![played],
        ..e
    };
    assert_eq!(
        pair_next(&e, &Request::default()),
        Err(PairingError::ResultMissing { round: 1, board: 2 })
    );
}

#[test]
fn requests_naming_bad_players_are_refused() {
    let mut e = event(Format::Swiss, 6, 3, 0);
    e.players[5].withdrawn_from = Some(1);
    let bad = |sit_out: Vec<Bye>, forced: Vec<(usize, usize)>| {
        pair_next(&e, &Request { sit_out, forced })
    };
    assert_eq!(bad(vec![], vec![(0, 9)]), Err(PairingError::BadPlayer(9)));
    assert_eq!(bad(vec![], vec![(0, 5)]), Err(PairingError::BadPlayer(5)));
    assert_eq!(bad(vec![], vec![(0, 0)]), Err(PairingError::BadPlayer(0)));
    assert_eq!(
        bad(
            vec![Bye {
                player: 1,
                kind: ByeKind::Pairing
            }],
            vec![]
        ),
        Err(PairingError::BadPlayer(1))
    );
    assert_eq!(
        bad(
            vec![Bye {
                player: 1,
                kind: ByeKind::Half
            }],
            vec![(1, 2)]
        ),
        Err(PairingError::BadPlayer(1))
    );
    let one = Event {
        players: vec![player()],
        ..e.clone()
    };
    assert_eq!(
        pair_next(&one, &Request::default()),
        Err(PairingError::TooFewPlayers)
    );
}

#[test]
fn forced_rematch_and_score_gap_are_named() {
    // Round 1: 0-1, 2-3 (Sente wins): 0 and 2 on 1 point, 1 and 3 on 0.
    let board = |sente, gote| Board {
        sente,
        gote,
        colours: ColourChoice::Balance,
        result: Some(GameResult::SenteWin),
    };
    let mut e = event(Format::Swiss, 4, 3, 0);
    e.players[0].club = Some("SPb".into());
    e.players[1].club = Some("SPb".into());
    e.played.push(Round {
        boards: vec![board(0, 1), board(2, 3)],
        byes: vec![],
    });
    let free = pair_next(&e, &Request::default()).unwrap();
    assert!(free.warnings.is_empty(), "{:?}", free.warnings);
    let mut free_pairs: Vec<_> = free
        .boards
        .iter()
        .map(|b| (b.sente.min(b.gote), b.sente.max(b.gote)))
        .collect();
    free_pairs.sort_unstable();
    assert_eq!(free_pairs, vec![(0, 2), (1, 3)]);
    let forced = pair_next(
        &e,
        &Request {
            sit_out: vec![],
            forced: vec![(0, 1)],
        },
    )
    .unwrap();
    let rules: Vec<Rule> = forced.warnings.iter().map(|w| w.rule).collect();
    assert!(rules.contains(&Rule::Rematch));
    assert!(rules.contains(&Rule::SameClub));
    assert!(rules.contains(&Rule::ScoreGap));
    // The same round read back by `check` gives the same warnings.
    let round = Round {
        boards: forced.boards.clone(),
        byes: forced.byes.clone(),
    };
    assert_eq!(check(&e, &round), forced.warnings);
}

#[test]
fn mcmahon_pairs_on_start_scores() {
    // Two 2-dan (above the bar 1d) and two 5-kyu: round 1 keeps them apart.
    let mut e = event(Format::McMahon { bar: 1, floor: -9 }, 4, 3, 0);
    for (p, g) in e.players.iter_mut().zip([2, -4, 2, -4]) {
        p.grade = Some(g);
    }
    let p = pair_next(&e, &Request::default()).unwrap();
    let mut pairs: Vec<_> = p
        .boards
        .iter()
        .map(|b| (b.sente.min(b.gote), b.sente.max(b.gote)))
        .collect();
    pairs.sort_unstable();
    assert_eq!(pairs, vec![(0, 2), (1, 3)]);
    // Board 1 is the top group's.
    assert_eq!((p.boards[0].sente.min(p.boards[0].gote)), 0);
}

#[test]
fn check_ignores_unknown_players() {
    let e = event(Format::Swiss, 4, 3, 0);
    let round = Round {
        boards: vec![Board {
            sente: 7,
            gote: 0,
            colours: ColourChoice::Forced,
            result: None,
        }],
        byes: vec![Bye {
            player: 99,
            kind: ByeKind::Pairing,
        }],
    };
    assert!(check(&e, &round).is_empty());
}
