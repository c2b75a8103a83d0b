//! The games in progress between people as the lobby lists them: this
//! instance's ([`LiveGame`]) and, with several instances, the others'
//! ([`RemoteGame`]).

use serde::Serialize;

use super::seek::Terms;
use crate::games::view::PlayerView;

/// A game in progress between two people, as listed.
#[derive(Clone, Debug, Serialize)]
pub struct LiveGame {
    /// The game id.
    pub id: String,
    /// Who plays (`null` for an unnamed guest).
    pub players: LivePlayers,
    /// Its clock, rating and handicap.
    #[serde(flatten)]
    pub terms: Terms,
    /// Moves played.
    pub moves: usize,
}

/// The two players of a live game.
#[derive(Clone, Debug, Serialize)]
pub struct LivePlayers {
    /// Sente.
    pub sente: Option<PlayerView>,
    /// Gote.
    pub gote: Option<PlayerView>,
}

impl LiveGame {
    pub(super) fn strength(&self) -> i64 {
        let r = |p: &Option<PlayerView>| p.as_ref().and_then(|p| p.rating).unwrap_or(0);
        r(&self.players.sente) + r(&self.players.gote) + if self.terms.rated { 1 << 20 } else { 0 }
    }
}

/// A live game of another instance, as that instance lists it (several
/// instances: the lobby's home instance merges them into its list).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct RemoteGame {
    /// The game as listed (the JSON of a [`LiveGame`]).
    pub(super) listed: serde_json::Value,
    pub(super) moves: usize,
    pub(super) strength: i64,
}

impl RemoteGame {
    /// A listed game read back; `None` if it is not one.
    pub(super) fn of(listed: serde_json::Value) -> Option<(String, RemoteGame)> {
        let id = listed["id"].as_str()?.to_owned();
        let moves = usize::try_from(listed["moves"].as_u64()?).ok()?;
        let rating = |side: &str| listed["players"][side]["rating"].as_i64().unwrap_or(0);
        let rated = listed["rated"].as_bool().unwrap_or(false);
        let strength = rating("sente") + rating("gote") + if rated { 1 << 20 } else { 0 };
        Some((
            id,
            RemoteGame {
                listed,
                moves,
                strength,
            },
        ))
    }
}
