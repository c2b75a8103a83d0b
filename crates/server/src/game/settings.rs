//! What a game is played under, chosen at creation and stored with it: the
//! mode, the rules, the time control, the computer's seat and where the game
//! started. The JSON field names are the ones `docs/PROTOCOL.md` documents
//! and the `games.settings` column stores.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shogi_core::{Handicap, ImpasseRule};

use super::clock::TimeControl;
use super::side::Side;
use super::text::as_text;

/// How a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Against the computer.
    Ai,
    /// Against a friend who joins with an invite.
    Friend,
    /// Two people at one device.
    Local,
}

impl Mode {
    /// The JSON word.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Mode::Ai => "ai",
            Mode::Friend => "friend",
            Mode::Local => "local",
        }
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        match s {
            "ai" => Ok(Mode::Ai),
            "friend" => Ok(Mode::Friend),
            "local" => Ok(Mode::Local),
            _ => Err(format!("unknown mode {s:?}")),
        }
    }
}

/// What an illegal move does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IllegalPolicy {
    /// Refused with the reason.
    #[default]
    Prevent,
    /// Recorded and loses the game.
    Lose,
}

/// The rules of a game as stored and shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesView {
    /// The impasse rule (its name in JSON).
    #[serde(with = "as_text")]
    pub impasse: ImpasseRule,
    /// The illegal-move policy.
    pub illegal: IllegalPolicy,
    /// The move limit.
    pub max_moves: Option<u32>,
}

/// Everything chosen at creation that the server keeps (stored as JSON).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Settings {
    /// The rules.
    pub rules: RulesView,
    /// The time control.
    pub time: Option<TimeControl>,
    /// The computer's seat and level.
    pub ai: Option<AiSeat>,
    /// The handicap, or `custom` for a start position given as SFEN.
    #[serde(with = "as_text")]
    pub handicap: StartChoice,
    /// The event whose board the game is played on (`None`: no event).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<EventPlace>,
    /// Moves are charged in whole seconds, the fraction free: the CSA
    /// protocol's accounting, as shogi-server does it (programs' games).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub whole_seconds: bool,
}

impl Settings {
    /// Whether the players may chat: always, but in an event that turned
    /// chat off.
    #[must_use]
    pub fn chat(&self) -> bool {
        self.event.as_ref().is_none_or(|e| e.chat)
    }

    /// Whether takebacks may be proposed (a rated game refuses them anyway):
    /// always, but in an event that turned them off.
    #[must_use]
    pub fn takebacks(&self) -> bool {
        self.event.as_ref().is_none_or(|e| e.takebacks)
    }
}

/// A tournament game's place: the event, the round and the board, and what
/// the event allows its games (stored with the game's settings, shown in
/// its state as `event`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventPlace {
    /// The event's id.
    pub id: String,
    /// The event's name when the game started.
    pub name: String,
    /// The round, from 1.
    pub round: u32,
    /// The board, from 1.
    pub board: u32,
    /// Whether the players may chat.
    pub chat: bool,
    /// Whether the players may propose takebacks.
    pub takebacks: bool,
}

/// Where a game started: a handicap's position or a custom one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartChoice {
    /// A handicap (`even` included).
    Handicap(Handicap),
    /// A position given as SFEN (`custom`).
    Custom,
}

impl fmt::Display for StartChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartChoice::Handicap(h) => f.write_str(h.name()),
            StartChoice::Custom => f.write_str("custom"),
        }
    }
}

impl FromStr for StartChoice {
    type Err = shogi_core::UnknownHandicap;
    fn from_str(s: &str) -> Result<StartChoice, Self::Err> {
        if s == "custom" {
            return Ok(StartChoice::Custom);
        }
        s.parse().map(StartChoice::Handicap)
    }
}

/// The computer's seat.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct AiSeat {
    /// Which side it plays.
    pub side: Side,
    /// Its level, 1..=10.
    pub level: u8,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_keep_their_stored_json_words() {
        let stored = r#"{"rules":{"impasse":"27","illegal":"lose","max_moves":null},
            "time":null,"ai":{"side":"gote","level":3},"handicap":"rook"}"#;
        let s: Settings = serde_json::from_str(stored).unwrap();
        assert_eq!(s.rules.impasse, ImpasseRule::Csa27);
        assert_eq!(s.handicap, StartChoice::Handicap(Handicap::Rook));
        let back = serde_json::to_value(&s).unwrap();
        assert_eq!(back["rules"]["impasse"], "27");
        assert_eq!(back["handicap"], "rook");
        let custom: StartChoice = "custom".parse().unwrap();
        assert_eq!(custom.to_string(), "custom");
    }
}
