//! The audit log's entries: what an organiser (or the server) changed in an
//! event, as an action code and its parameters, so that a client words each
//! action in its reader's language.
//!
//! The log stores the code in `action` and the parameters as a JSON object
//! in `detail`; an entry written before the parameters were structured
//! (plain English in `detail`) is read back with its text as `{"text": …}`.
//!
//! ```
//! use shogi_server::tournaments::audit::{Action, Entry};
//!
//! let a = Action::AddPlayer { number: 3, name: "Иванов".into() };
//! assert_eq!(a.code(), "add_player");
//! assert_eq!(a.params().to_string(), r#"{"name":"Иванов","number":3}"#);
//! let e = Entry::read(a.code(), &a.params().to_string());
//! assert_eq!(e.params["number"], 3);
//! assert_eq!(Entry::read("board", "round 1 board 2: result sente").params["text"], "round 1 board 2: result sente");
//! ```

use serde::Serialize;
use serde_json::{json, Map, Value};

/// One change to a board, as `PUT .../boards/{b}` made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum BoardChange {
    /// The result set (`sente`, `gote`, `draw`, the forfeits) or cleared (`None`).
    Result {
        /// The result's name.
        result: Option<String>,
    },
    /// The handicap changed (`lance`, `bishop`...).
    Handicap {
        /// The handicap's name.
        handicap: String,
    },
    /// An over-the-board record uploaded.
    Record,
    /// The board moved online or over the board (`online`, `otb`).
    Play {
        /// Where it is played now.
        play: String,
    },
}

/// What an audit entry records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// The event created, with its name.
    Create {
        /// The event's name.
        name: String,
    },
    /// The settings changed; the whole new settings.
    Settings {
        /// The settings as `GET /api/tournaments/{id}` gives them.
        settings: Value,
    },
    /// A player entered.
    AddPlayer {
        /// The entry number.
        number: u32,
        /// The name.
        name: String,
    },
    /// A player's name, rating, rank or club changed.
    EditPlayer {
        /// The entry number.
        number: u32,
        /// The name (after the change).
        name: String,
    },
    /// A player withdrawn.
    Withdraw {
        /// The entry number.
        number: u32,
        /// The name.
        name: String,
    },
    /// An organiser invited an account.
    Invite {
        /// The account's name.
        name: String,
    },
    /// An account accepted its invitation and entered.
    AcceptInvitation {
        /// The entry number.
        number: u32,
        /// The name.
        name: String,
        /// The rank the player proposed, if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        proposed_rank: Option<String>,
    },
    /// An account declined its invitation.
    DeclineInvitation {
        /// The account's name.
        name: String,
    },
    /// An organiser withdrew an invitation.
    WithdrawInvitation {
        /// The account's name.
        name: String,
    },
    /// A co-organiser added.
    AddOrganiser {
        /// The account's name.
        name: String,
    },
    /// A co-organiser removed.
    RemoveOrganiser {
        /// The account's name.
        name: String,
    },
    /// A round paired.
    PairRound {
        /// The round.
        round: u32,
        /// How many boards.
        boards: usize,
        /// The entry numbers of the players with a bye.
        byes: Vec<u32>,
        /// The pairs forced together.
        forced: Vec<(u32, u32)>,
    },
    /// The last round unpaired.
    UnpairRound {
        /// The round.
        round: u32,
    },
    /// An organiser changed a board.
    Board {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// What changed, in the order made.
        changes: Vec<BoardChange>,
    },
    /// A player reported a board's result.
    Report {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The result reported.
        result: String,
    },
    /// Neither player of a board's online game came: a double forfeit.
    DoubleForfeit {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The game nobody played.
        game: String,
    },
    /// The server replayed a board's game drawn by sennichite.
    SennichiteReplay {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The drawn game's id.
        game: String,
        /// The replay's id.
        replay: String,
    },
}

impl Action {
    /// The action's code (`add_player`).
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Action::Create { .. } => "create",
            Action::Settings { .. } => "settings",
            Action::AddPlayer { .. } => "add_player",
            Action::EditPlayer { .. } => "edit_player",
            Action::Withdraw { .. } => "withdraw",
            Action::Invite { .. } => "invite",
            Action::AcceptInvitation { .. } => "accept_invitation",
            Action::DeclineInvitation { .. } => "decline_invitation",
            Action::WithdrawInvitation { .. } => "withdraw_invitation",
            Action::AddOrganiser { .. } => "add_organiser",
            Action::RemoveOrganiser { .. } => "remove_organiser",
            Action::PairRound { .. } => "pair_round",
            Action::UnpairRound { .. } => "unpair_round",
            Action::Board { .. } => "board",
            Action::Report { .. } => "report",
            Action::DoubleForfeit { .. } => "double_forfeit",
            Action::SennichiteReplay { .. } => "sennichite_replay",
        }
    }

    /// The parameters as a JSON object (without the code).
    #[must_use]
    pub fn params(&self) -> Value {
        let mut v = serde_json::to_value(self).unwrap_or_else(|_| json!({}));
        if let Some(m) = v.as_object_mut() {
            m.remove("action");
        }
        v
    }
}

/// An entry as the log answers it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    /// The action's code.
    pub action: String,
    /// Its parameters; `{"text": …}` for an entry of plain words.
    pub params: Value,
}

impl Entry {
    /// The entry of a stored `action` and `detail`.
    #[must_use]
    pub fn read(action: &str, detail: &str) -> Entry {
        let params = match serde_json::from_str::<Value>(detail) {
            Ok(v @ Value::Object(_)) => v,
            _ => {
                let mut m = Map::new();
                m.insert("text".into(), Value::String(detail.to_owned()));
                Value::Object(m)
            }
        };
        Entry {
            action: action.to_owned(),
            params,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_change_lists_each_change_with_its_value() {
        let a = Action::Board {
            round: 1,
            board: 2,
            changes: vec![
                BoardChange::Result {
                    result: Some("sente".into()),
                },
                BoardChange::Result { result: None },
                BoardChange::Record,
            ],
        };
        assert_eq!(
            a.params(),
            json!({"round": 1, "board": 2, "changes": [
                {"what": "result", "result": "sente"},
                {"what": "result", "result": null},
                {"what": "record"}]})
        );
    }

    #[test]
    fn a_pairing_names_byes_and_forced_pairs_by_number() {
        let a = Action::PairRound {
            round: 3,
            boards: 6,
            byes: vec![13],
            forced: vec![(1, 2)],
        };
        let e = Entry::read(a.code(), &a.params().to_string());
        assert_eq!(e.action, "pair_round");
        assert_eq!(
            e.params,
            json!({"round": 3, "boards": 6, "byes": [13], "forced": [[1, 2]]})
        );
    }

    #[test]
    fn an_old_entry_of_words_keeps_them_as_text() {
        let e = Entry::read("create", "Кубок");
        assert_eq!(e.params, json!({"text": "Кубок"}));
        let e = Entry::read("create", "17");
        assert_eq!(e.params, json!({"text": "17"}));
    }
}
