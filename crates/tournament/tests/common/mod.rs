//! Events written by hand for the tests.

#![allow(dead_code)]

use proptest::prelude::*;
use shogi_tournament::{
    Board, Bye, ByeKind, ColourChoice, Event, Format, GameResult, Player, PlayerId, Round,
};

/// A player with nothing known.
pub fn player() -> Player {
    Player {
        rating: None,
        grade: None,
        club: None,
        from_round: 1,
        withdrawn_from: None,
    }
}

/// A board with its result.
pub fn board(sente: PlayerId, gote: PlayerId, result: GameResult) -> Board {
    Board {
        sente,
        gote,
        colours: ColourChoice::Forced,
        result: Some(result),
    }
}

/// A bye.
pub fn bye(player: PlayerId, kind: ByeKind) -> Bye {
    Bye { player, kind }
}

/// A round.
pub fn round(boards: Vec<Board>, byes: Vec<Bye>) -> Round {
    Round { boards, byes }
}

/// An event of `n` unknown players.
pub fn event(format: Format, n: usize, played: Vec<Round>) -> Event {
    Event {
        format,
        rounds: u32::try_from(played.len()).unwrap(),
        seed: 0,
        players: vec![player(); n],
        played,
    }
}

/// The Swiss example of docs/TIEBREAKS.md: players A..F are 0..5.
pub fn swiss_example() -> Event {
    use GameResult::{Draw, GoteWin, SenteForfeit, SenteWin};
    let (a, b, c, d, e, f) = (0, 1, 2, 3, 4, 5);
    event(
        Format::Swiss,
        6,
        vec![
            round(
                vec![
                    board(a, d, SenteWin),
                    board(b, e, Draw),
                    board(c, f, GoteWin),
                ],
                vec![],
            ),
            round(
                vec![
                    board(f, a, GoteWin),
                    board(e, c, SenteWin),
                    board(d, b, SenteForfeit),
                ],
                vec![],
            ),
            round(
                vec![
                    board(a, b, Draw),
                    board(c, d, SenteWin),
                    board(f, e, SenteWin),
                ],
                vec![],
            ),
            round(
                vec![board(e, a, SenteWin), board(b, c, SenteWin)],
                vec![bye(d, ByeKind::Pairing), bye(f, ByeKind::Half)],
            ),
            round(
                vec![
                    board(a, c, SenteWin),
                    board(b, f, Draw),
                    board(d, e, SenteWin),
                ],
                vec![],
            ),
        ],
    )
}

/// The round robin example of docs/TIEBREAKS.md: 4 players (0..3 are
/// Berger numbers 1..4), Berger table colours.
pub fn round_robin_example() -> Event {
    use GameResult::{Draw, GoteWin, SenteWin};
    event(
        Format::RoundRobin { double: false },
        4,
        vec![
            round(vec![board(0, 3, GoteWin), board(1, 2, SenteWin)], vec![]),
            round(vec![board(3, 2, GoteWin), board(0, 1, Draw)], vec![]),
            round(vec![board(1, 3, SenteWin), board(2, 0, GoteWin)], vec![]),
        ],
    )
}

fn arb_result() -> impl Strategy<Value = Option<GameResult>> {
    prop_oneof![
        Just(None),
        Just(Some(GameResult::SenteWin)),
        Just(Some(GameResult::GoteWin)),
        Just(Some(GameResult::Draw)),
        Just(Some(GameResult::SenteForfeit)),
        Just(Some(GameResult::GoteForfeit)),
        Just(Some(GameResult::DoubleForfeit)),
    ]
}

fn arb_kind() -> impl Strategy<Value = ByeKind> {
    prop_oneof![
        Just(ByeKind::Zero),
        Just(ByeKind::Half),
        Just(ByeKind::Full),
    ]
}

/// A round over `n` players: shuffled, some sitting out or absent, the
/// rest paired in order, the odd one given the pairing bye.
fn arb_round(n: usize) -> impl Strategy<Value = Round> {
    (
        Just((0..n).collect::<Vec<_>>()).prop_shuffle(),
        proptest::collection::vec((0u8..10, arb_kind(), arb_result()), n),
    )
        .prop_map(move |(order, draws)| {
            let mut r = Round::default();
            let mut waiting: Option<PlayerId> = None;
            for (&p, &(roll, kind, result)) in order.iter().zip(&draws) {
                match roll {
                    0 => r.byes.push(Bye { player: p, kind }),
                    1 => {} // absent
                    _ => match waiting.take() {
                        None => waiting = Some(p),
                        Some(q) => r.boards.push(Board {
                            sente: q,
                            gote: p,
                            colours: ColourChoice::Balance,
                            result,
                        }),
                    },
                }
            }
            if let Some(p) = waiting {
                r.byes.push(Bye {
                    player: p,
                    kind: ByeKind::Pairing,
                });
            }
            r
        })
}

pub fn arb_event() -> impl Strategy<Value = Event> {
    (2usize..12, 0usize..7, 0u8..3).prop_flat_map(|(n, rounds, format)| {
        let format = match format {
            0 => Format::Swiss,
            1 => Format::RoundRobin { double: false },
            _ => Format::McMahon { bar: 2, floor: -6 },
        };
        (
            proptest::collection::vec(arb_round(n), rounds),
            proptest::collection::vec(proptest::option::of(-10i32..5), n),
        )
            .prop_map(move |(played, grades)| {
                let mut e = event(format, n, played);
                for (p, g) in e.players.iter_mut().zip(grades) {
                    p.grade = g;
                }
                e
            })
    })
}
