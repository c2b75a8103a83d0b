//! What the server says when a game ends: the reason line and the
//! outcome line for one player, the one translation of an
//! [`Ending`] to CSA protocol words.
//!
//! ```
//! use shogi_core::{Color, Ending};
//! use shogi_server::csa::result::lines;
//! let e = Ending::Resignation { loser: Color::Gote };
//! assert_eq!(lines(e, Color::Sente), ["#RESIGN", "#WIN"]);
//! assert_eq!(lines(e, Color::Gote), ["#RESIGN", "#LOSE"]);
//! ```

use shogi_core::{Color, Ending, Foul};

/// The reason line of `ending` (`None`: the protocol has no word for it,
/// and only the outcome is told).
#[must_use]
pub fn reason(ending: Ending) -> Option<&'static str> {
    Some(match ending {
        Ending::Resignation { .. } => "#RESIGN",
        Ending::Timeout { .. } => "#TIME_UP",
        Ending::Foul {
            foul: Foul::FalseDeclaration,
            ..
        }
        | Ending::Foul { .. } => "#ILLEGAL_MOVE",
        Ending::PerpetualCheck { .. } => "#OUTE_SENNICHITE",
        Ending::Repetition => "#SENNICHITE",
        Ending::Impasse { .. } => "#JISHOGI",
        Ending::MaxMoves => "#MAX_MOVES",
        Ending::Abort => "#CHUDAN",
        // The protocol leaves mate to the players (the mated one
        // resigns); the room's rules end the game at once, and clients
        // read the outcome alone.
        Ending::Checkmate { .. }
        | Ending::NoLegalMoves { .. }
        | Ending::Try { .. }
        | Ending::DrawAgreement => return None,
    })
}

/// The outcome line of `ending` for the player of `me`: `#WIN`, `#LOSE`,
/// `#DRAW`, or `#CENSORED` for the move limit (`None`: a suspended game
/// has no outcome).
#[must_use]
pub fn outcome(ending: Ending, me: Color) -> Option<&'static str> {
    match ending {
        Ending::Abort => None,
        Ending::MaxMoves => Some("#CENSORED"),
        _ => Some(match ending.winner() {
            Some(w) if w == me => "#WIN",
            Some(_) => "#LOSE",
            None => "#DRAW",
        }),
    }
}

/// The lines that tell the player of `me` how the game ended.
#[must_use]
pub fn lines(ending: Ending, me: Color) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = reason(ending).into_iter().collect();
    out.extend(outcome(ending, me));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ending_in_protocol_words() {
        let s = Color::Sente;
        let g = Color::Gote;
        assert_eq!(
            lines(Ending::Timeout { loser: s }, s),
            ["#TIME_UP", "#LOSE"]
        );
        assert_eq!(
            lines(
                Ending::Foul {
                    loser: g,
                    foul: Foul::UnreadableMove
                },
                s
            ),
            ["#ILLEGAL_MOVE", "#WIN"]
        );
        assert_eq!(lines(Ending::Repetition, g), ["#SENNICHITE", "#DRAW"]);
        assert_eq!(
            lines(Ending::PerpetualCheck { loser: s }, g),
            ["#OUTE_SENNICHITE", "#WIN"]
        );
        assert_eq!(
            lines(Ending::Impasse { winner: Some(s) }, s),
            ["#JISHOGI", "#WIN"]
        );
        // A correct declaration: the declarer wins, the other loses.
        assert_eq!(
            lines(Ending::Impasse { winner: Some(s) }, g),
            ["#JISHOGI", "#LOSE"]
        );
        assert_eq!(
            lines(Ending::Impasse { winner: None }, g),
            ["#JISHOGI", "#DRAW"]
        );
        assert_eq!(
            lines(
                Ending::Foul {
                    loser: s,
                    foul: Foul::FalseDeclaration
                },
                s
            ),
            ["#ILLEGAL_MOVE", "#LOSE"]
        );
        assert_eq!(lines(Ending::MaxMoves, s), ["#MAX_MOVES", "#CENSORED"]);
        assert_eq!(lines(Ending::MaxMoves, g), ["#MAX_MOVES", "#CENSORED"]);
        assert_eq!(lines(Ending::Abort, s), ["#CHUDAN"]);
        assert_eq!(lines(Ending::Checkmate { loser: g }, s), ["#WIN"]);
    }
}
