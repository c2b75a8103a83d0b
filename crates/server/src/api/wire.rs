//! The wire: the envelopes of the WebSocket messages (docs/PROTOCOL.md,
//! "Client → server" and "Server → client") and the bodies of the requests
//! only the handlers read. The values inside them are the game's model
//! ([`crate::game`]) and the room's read model ([`crate::games::view`]);
//! the bodies a domain module takes itself (a new game, a seek, an
//! annotation) live with that module.

use serde::{Deserialize, Serialize};

use crate::games::room::{Action, ErrorDetail};

/// A message from the client (docs/PROTOCOL.md, "Client → server"): one
/// the connection answers itself, the chat, or one of the game's verbs,
/// read straight into the room's [`Action`] (the verb list is written
/// there only).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum ClientMessage {
    /// A chat message to the other player.
    Chat {
        /// The text (1 to 200 characters).
        text: String,
    },
    /// Keep-alive.
    Ping,
    /// Ask for the full `state` again (a client that lost track of the diffs).
    Sync,
    /// A verb of the game, for the room.
    #[serde(untagged)]
    Act(Action),
}

/// `POST /api/games/{id}/join`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The invite code.
    pub invite: String,
    /// A guest's display name (ignored for a logged-in player).
    #[serde(default)]
    pub name: Option<String>,
}

/// A message from the server that the connection writes itself. The
/// `state` and `diff` messages are written by the room's read model
/// ([`StateText`](crate::games::view::StateText)), once per change for all
/// the connections that receive them.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage<'a> {
    /// A refused message; the game is unchanged.
    Error {
        /// Why, in English words.
        message: &'a str,
        /// Why, as a code (and its parameters) a client words itself.
        #[serde(flatten)]
        detail: ErrorDetail,
    },
    /// The answer to a ping.
    Pong,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> ClientMessage {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn every_message_of_the_protocol_reads_as_before() {
        assert_eq!(
            read(r#"{"type":"move","usi":"7g7f"}"#),
            ClientMessage::Act(Action::Move {
                mv: "7g7f".parse().unwrap()
            })
        );
        for (kind, action) in [
            ("resign", Action::Resign),
            ("declare", Action::Declare),
            ("propose_count", Action::ProposeCount),
            ("accept_count", Action::AcceptCount),
            ("decline_count", Action::DeclineCount),
            ("abort", Action::Abort),
            ("takeback", Action::Takeback),
            ("accept_takeback", Action::AcceptTakeback),
            ("decline_takeback", Action::DeclineTakeback),
        ] {
            let text = format!(r#"{{"type":"{kind}"}}"#);
            assert_eq!(read(&text), ClientMessage::Act(action), "{kind}");
        }
        assert_eq!(read(r#"{"type":"ping"}"#), ClientMessage::Ping);
        assert_eq!(read(r#"{"type":"sync"}"#), ClientMessage::Sync);
        assert_eq!(
            read(r#"{"type":"chat","text":"hi"}"#),
            ClientMessage::Chat { text: "hi".into() }
        );
    }

    #[test]
    fn a_malformed_message_is_refused() {
        for text in [
            r#"{"type":"move","usi":"x"}"#,
            r#"{"type":"move"}"#,
            r#"{"type":"chat"}"#,
            r#"{"type":"dance"}"#,
            r#"{"usi":"7g7f"}"#,
        ] {
            assert!(
                serde_json::from_str::<ClientMessage>(text).is_err(),
                "{text}"
            );
        }
    }
}
