//! Events written by hand for the tests.

#![allow(dead_code)]

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
