//! Pairing the next round, whatever the format.

use crate::check::{self, Warning};
pub use crate::request::{PairingError, Request};
use crate::{
    berger, swiss, Board, Bye, ByeKind, ColourChoice, Event, Format, GameResult, PlayerId, Round,
};

/// A paired round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The boards, board 1 first (highest scores first; a withdrawn round
    /// robin player's games come with the forfeit result already set).
    pub boards: Vec<Board>,
    /// The pairing bye, if any, and the sit-outs.
    pub byes: Vec<Bye>,
    /// The rules this pairing breaks (only when forced, or where nothing
    /// better exists).
    pub warnings: Vec<Warning>,
}

/// Pairs the next round of `event`.
///
/// Round robins follow the Berger tables ([`crate::berger`]) for the
/// pairings and the colours: a player's Berger number is their entry number
/// (index plus one) and the first-named player of a pair takes Sente, as FIDE prints
/// them (the lots are drawn when the players are entered in order). A
/// double round robin plays
/// the table twice, the second time with colours reversed, and (as FIDE
/// recommends) swaps the last two rounds of the first cycle so that nobody
/// gets three games in a row with one colour at the turn. A withdrawn
/// player's boards, and the board of a player who sits a round out, come
/// with the forfeit already entered (the absent player loses); a round
/// robin takes no late entries and no forced pairs.
///
/// Swiss and McMahon pair on every result of the previous round; see
/// [`crate::swiss`]. `warnings` lists the rules the pairing breaks
/// ([`crate::check::check`]).
///
/// # Errors
/// [`PairingError`]: every round paired, a result missing (Swiss,
/// McMahon), fewer than two players, a late entry in a round robin, or a
/// request naming a player who cannot be paired (unknown, not playing this
/// round, named twice, a sit-out of kind `Pairing`, or a forced pair in a
/// round robin).
pub fn pair_next(event: &Event, request: &Request) -> Result<Pairing, PairingError> {
    let done = event.played.len();
    if done >= event.rounds as usize {
        return Err(PairingError::Finished(event.rounds));
    }
    let round = done as u32 + 1;
    validate(event, round, request)?;
    let (boards, byes, free) = match event.format {
        Format::RoundRobin { double } => {
            let (boards, byes) = round_robin(event, round, double, request)?;
            (boards, byes, None)
        }
        Format::Swiss | Format::McMahon { .. } => {
            if let Some(last) = event.played.last() {
                if let Some(i) = last.boards.iter().position(|b| b.result.is_none()) {
                    return Err(PairingError::ResultMissing {
                        round: done as u32,
                        board: i as u32 + 1,
                    });
                }
            }
            let (boards, byes) = swiss::pair(event, round, request)?;
            let free = request.forced.is_empty().then(|| boards.clone());
            (boards, byes, free)
        }
    };
    let paired = Round { boards, byes };
    let warnings = check::check_against(event, &paired, free.as_deref());
    Ok(Pairing {
        boards: paired.boards,
        byes: paired.byes,
        warnings,
    })
}

/// Checks that every player the request names can be paired in `round`,
/// and is named once.
fn validate(event: &Event, round: u32, request: &Request) -> Result<(), PairingError> {
    let mut named = vec![false; event.players.len()];
    let mut name = |p: PlayerId| -> Result<(), PairingError> {
        match named.get_mut(p) {
            Some(seen) if !*seen && event.players[p].plays_in(round) => {
                *seen = true;
                Ok(())
            }
            _ => Err(PairingError::BadPlayer(p)),
        }
    };
    for bye in &request.sit_out {
        if bye.kind == ByeKind::Pairing {
            return Err(PairingError::BadPlayer(bye.player));
        }
        name(bye.player)?;
    }
    for &(a, b) in &request.forced {
        if matches!(event.format, Format::RoundRobin { .. }) {
            return Err(PairingError::BadPlayer(a));
        }
        name(a)?;
        name(b)?;
    }
    Ok(())
}

/// Round `round` of a round robin: the table's boards with the table's
/// colours, forfeits preset for absent players, and the idle player of an
/// odd field as a (pointless) pairing bye.
fn round_robin(
    event: &Event,
    round: u32,
    double: bool,
    request: &Request,
) -> Result<(Vec<Board>, Vec<Bye>), PairingError> {
    let n = event.players.len();
    if n < 2 {
        return Err(PairingError::TooFewPlayers);
    }
    if event.players.iter().any(|p| p.from_round > 1) {
        return Err(PairingError::LateEntry);
    }
    let cycle = berger::rounds(n);
    let cycles = if double { 2 } else { 1 };
    let r = round as usize;
    if r > cycle * cycles {
        return Err(PairingError::Finished(event.played.len() as u32));
    }
    let second_cycle = r > cycle;
    let mut table_round = if second_cycle { r - cycle } else { r };
    if double && !second_cycle && cycle >= 2 && table_round + 1 >= cycle {
        // FIDE: in a double round robin the last two rounds of the first
        // cycle are played in reverse order.
        table_round = 2 * cycle - 1 - table_round;
    }
    let table = berger::table(n, table_round);
    let reversed = second_cycle;
    let absent = |p: PlayerId| {
        !event.players[p].plays_in(round) || request.sit_out.iter().any(|b| b.player == p)
    };
    let mut boards = Vec::with_capacity(table.len());
    let mut seated = vec![false; n];
    for (a, b) in table {
        let (a, b) = (a - 1, b - 1);
        seated[a] = true;
        seated[b] = true;
        let (sente, gote) = if reversed { (b, a) } else { (a, b) };
        let result = match (absent(sente), absent(gote)) {
            (true, true) => Some(GameResult::DoubleForfeit),
            (true, false) => Some(GameResult::SenteForfeit),
            (false, true) => Some(GameResult::GoteForfeit),
            (false, false) => None,
        };
        boards.push(Board {
            sente,
            gote,
            colours: ColourChoice::Table,
            result,
        });
    }
    let byes = (0..n)
        .filter(|&p| !seated[p] && event.players[p].plays_in(round))
        .map(|player| Bye {
            player,
            kind: ByeKind::Pairing,
        })
        .collect();
    Ok((boards, byes))
}
