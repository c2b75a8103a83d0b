//! Why a room refuses a command, and how a refusal reads on the wire: the
//! `error` message's code and parameters (docs/PROTOCOL.md, "Server → client").

use serde::Serialize;
use shogi_core::{HandKind, IllegalMove, ImpasseRule, Move, PlayError, Square};

use super::MAX_CHAT_CHARS;
use crate::game::Refusal;

/// Why a WebSocket message was refused, beside the English words: the
/// fields `code` and its parameters (docs/PROTOCOL.md, "Server → client").
/// Beside [`RoomError`], which gives most of them ([`RoomError::detail`]);
/// the wire's `error` message in `api` carries it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ErrorDetail {
    /// A move the rules refuse (code `illegal_move`): its rule and square.
    Move(Refusal),
    /// Any other refusal.
    Other {
        /// `not_your_turn`, `game_over`, `bad_message`, ...
        code: &'static str,
        /// The code's parameters (`reason` of `game_over`, ...).
        #[serde(flatten)]
        params: serde_json::Map<String, serde_json::Value>,
    },
}

impl ErrorDetail {
    /// A refusal without parameters.
    #[must_use]
    pub fn code(code: &'static str) -> ErrorDetail {
        ErrorDetail::Other {
            code,
            params: serde_json::Map::new(),
        }
    }
}

/// Why a room refused an action; the game is then unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RoomError {
    /// The game has ended (the protocol's word for why).
    #[error("the game is over ({0})")]
    Over(&'static str),
    /// A seat is still free.
    #[error("waiting for the opponent to join")]
    WaitingForOpponent,
    /// A move by the side not to move.
    #[error("it is not your turn")]
    NotYourTurn,
    /// A declaration by the side not to move.
    #[error("only the player to move may declare")]
    NotYourDeclaration,
    /// A declaration under a rule without one.
    #[error("there is no declaration under the {0} rule")]
    NoDeclaration(ImpasseRule),
    /// A count proposed under a rule without one.
    #[error("there is no count under the {0} rule")]
    NoCount(ImpasseRule),
    /// A count proposed before both kings entered.
    #[error("the count needs both kings in the enemy camps")]
    CountNotPossible,
    /// A second proposal.
    #[error("a count has already been proposed")]
    CountAlreadyProposed,
    /// An answer to no proposal.
    #[error("no count has been proposed")]
    NoCountProposed,
    /// The proposer answering its own proposal.
    #[error("the other player answers a proposal")]
    OwnProposal,
    /// A board move from a square without a piece of the mover's.
    #[error("{mv}: no piece of yours on {from}")]
    NoPieceOfYours {
        /// The move.
        mv: Move,
        /// Its origin.
        from: Square,
    },
    /// A drop of a piece not in hand.
    #[error("{mv}: no {} in hand", .kind.piece_kind().sfen())]
    NotInHand {
        /// The move.
        mv: Move,
        /// The piece.
        kind: HandKind,
    },
    /// An illegal move under the `prevent` policy, with the rule it breaks.
    #[error(transparent)]
    Illegal(PlayError),
    /// The database refused the move.
    #[error("the move could not be stored; try again")]
    MoveNotStored,
    /// The database refused the ending.
    #[error("the game could not be stored; try again")]
    EndingNotStored,
    /// An abort after both sides have moved.
    #[error("a game can be aborted only before each side has made a move")]
    TooLateToAbort,
    /// A takeback in a rated game.
    #[error("there are no takebacks in rated games")]
    RatedTakeback,
    /// A takeback in an event's game that allows none.
    #[error("this event's games have no takebacks")]
    NoTakebacks,
    /// A takeback with no move of the proposer's to take back.
    #[error("there is no move of yours to take back")]
    NothingToTakeBack,
    /// A second takeback proposal.
    #[error("a takeback has already been proposed")]
    TakebackAlreadyProposed,
    /// An answer to no takeback proposal.
    #[error("no takeback has been proposed")]
    NoTakebackProposed,
    /// Chat from a seat that is not one player's, or in an event's game
    /// that allows none.
    #[error("chat is between the two players, in games that allow it")]
    NoChat,
    /// An empty or too long chat message.
    #[error("a chat message has 1 to {MAX_CHAT_CHARS} characters")]
    ChatLength,
    /// Chat faster than allowed.
    #[error("too many chat messages; wait a moment")]
    ChatTooFast,
    /// The room has stopped.
    #[error("the game is not available")]
    Gone,
}

impl RoomError {
    /// Why, as the `error` message's code and parameters: for a move the
    /// rules refuse the move, its rule and square.
    #[must_use]
    pub fn detail(&self) -> ErrorDetail {
        if let Some(r) = self.refusal() {
            return ErrorDetail::Move(r);
        }
        let mut params = serde_json::Map::new();
        let code = match *self {
            RoomError::Over(reason) => {
                params.insert("reason".into(), reason.into());
                "game_over"
            }
            RoomError::WaitingForOpponent => "waiting_for_opponent",
            RoomError::NotYourTurn => "not_your_turn",
            RoomError::NotYourDeclaration => "not_your_declaration",
            RoomError::NoDeclaration(rule) | RoomError::NoCount(rule) => {
                params.insert("rule".into(), rule.to_string().into());
                if matches!(self, RoomError::NoCount(_)) {
                    "no_count"
                } else {
                    "no_declaration"
                }
            }
            RoomError::CountNotPossible => "count_not_possible",
            RoomError::CountAlreadyProposed => "count_already_proposed",
            RoomError::NoCountProposed => "no_count_proposed",
            RoomError::OwnProposal => "own_proposal",
            // Refused moves carry their rule (above).
            RoomError::NoPieceOfYours { .. }
            | RoomError::NotInHand { .. }
            | RoomError::Illegal(_) => "illegal_move",
            RoomError::MoveNotStored | RoomError::EndingNotStored => "not_stored",
            RoomError::TooLateToAbort => "too_late_to_abort",
            RoomError::RatedTakeback => "rated_takeback",
            RoomError::NoTakebacks => "no_takebacks",
            RoomError::NothingToTakeBack => "nothing_to_take_back",
            RoomError::TakebackAlreadyProposed => "takeback_already_proposed",
            RoomError::NoTakebackProposed => "no_takeback_proposed",
            RoomError::NoChat => "no_chat",
            RoomError::ChatLength => {
                params.insert("max".into(), MAX_CHAT_CHARS.into());
                "chat_length"
            }
            RoomError::ChatTooFast => "chat_too_fast",
            RoomError::Gone => "game_gone",
        };
        ErrorDetail::Other { code, params }
    }

    /// For a refused move, its rule and square.
    #[must_use]
    pub fn refusal(&self) -> Option<Refusal> {
        match *self {
            RoomError::NoPieceOfYours { mv, from } => {
                Some(Refusal::of(mv, IllegalMove::NoPiece(from)))
            }
            RoomError::NotInHand { mv, kind } => {
                Some(Refusal::of(mv, IllegalMove::NotInHand(kind)))
            }
            RoomError::Illegal(PlayError::Illegal { mv, reason }) => Some(Refusal::of(mv, reason)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_has_a_documented_code() {
        let doc = include_str!("../../../../../docs/PROTOCOL.md");
        let mv: Move = "5e5d".parse().unwrap();
        let all = [
            RoomError::Over("resign"),
            RoomError::WaitingForOpponent,
            RoomError::NotYourTurn,
            RoomError::NotYourDeclaration,
            RoomError::NoDeclaration(ImpasseRule::Count24),
            RoomError::NoCount(ImpasseRule::Csa27),
            RoomError::CountNotPossible,
            RoomError::CountAlreadyProposed,
            RoomError::NoCountProposed,
            RoomError::OwnProposal,
            RoomError::NoPieceOfYours {
                mv,
                from: "5e".parse().unwrap(),
            },
            RoomError::NotInHand {
                mv: "P*5e".parse().unwrap(),
                kind: HandKind::Pawn,
            },
            RoomError::MoveNotStored,
            RoomError::EndingNotStored,
            RoomError::TooLateToAbort,
            RoomError::RatedTakeback,
            RoomError::NoTakebacks,
            RoomError::NothingToTakeBack,
            RoomError::TakebackAlreadyProposed,
            RoomError::NoTakebackProposed,
            RoomError::NoChat,
            RoomError::ChatLength,
            RoomError::ChatTooFast,
            RoomError::Gone,
        ];
        for e in all {
            let json = serde_json::to_value(e.detail()).unwrap();
            let code = json["code"].as_str().unwrap();
            assert!(
                doc.contains(&format!("`{code}`")),
                "{code} is not in PROTOCOL.md"
            );
        }
        let over = serde_json::to_value(RoomError::Over("resign").detail()).unwrap();
        assert_eq!(
            over,
            serde_json::json!({"code": "game_over", "reason": "resign"})
        );
        let no_count =
            serde_json::to_value(RoomError::NoCount(ImpasseRule::Csa27).detail()).unwrap();
        assert_eq!(no_count["code"], "no_count");
        assert_eq!(no_count["rule"], ImpasseRule::Csa27.to_string());
    }

    #[test]
    fn refusals_read_as_the_protocol_documents_them() {
        assert_eq!(
            RoomError::Over("resign").to_string(),
            "the game is over (resign)"
        );
        let mv: Move = "5e5d".parse().unwrap();
        let e = RoomError::NoPieceOfYours {
            mv,
            from: "5e".parse().unwrap(),
        };
        assert_eq!(e.to_string(), "5e5d: no piece of yours on 5e");
    }
}
