//! Seeks: an open challenge as asked for (`POST /api/seeks`), as listed
//! and as the lobby keeps it, and the terms (clock, rating, handicap) a
//! seek offers and a live game is played under.

use std::net::IpAddr;

use serde::{Deserialize, Serialize};
use shogi_core::Handicap;

use crate::game::clock::TimeControl;
use crate::game::SideChoice;
use crate::games::players::Identity;
use crate::games::view::PlayerView;
use crate::ratings::TimeClass;

use super::program::ProgramDoor;

/// `POST /api/seeks`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// The time control (required for rated seeks).
    #[serde(default)]
    pub time: Option<TimeControl>,
    /// Rated or casual.
    #[serde(default)]
    pub rated: bool,
    /// The seeker's seat.
    #[serde(default = "random_side")]
    pub side: SideChoice,
    /// The handicap (`even` if absent).
    #[serde(default, deserialize_with = "crate::game::text::opt_text::deserialize")]
    pub handicap: Option<Handicap>,
    /// A challenge to this player only.
    #[serde(default)]
    pub to: Option<String>,
    /// A guest's display name.
    #[serde(default)]
    pub name: Option<String>,
}

fn random_side() -> SideChoice {
    SideChoice::Random
}

/// What a seek offers and a live game is played under, as listed.
#[derive(Clone, Debug, Serialize)]
pub struct Terms {
    /// The time control.
    pub time: Option<TimeControl>,
    /// Its time class (`null` without a clock).
    pub class: Option<&'static str>,
    /// Rated or casual.
    pub rated: bool,
    /// The handicap's name, or `custom`.
    pub handicap: String,
}

impl Terms {
    /// The terms of `time`, `rated` and `handicap`, with the time class of `time`.
    #[must_use]
    pub fn new(time: Option<TimeControl>, rated: bool, handicap: String) -> Terms {
        Terms {
            class: time.as_ref().map(|tc| TimeClass::of_control(tc).name()),
            time,
            rated,
            handicap,
        }
    }
}

/// A seek as the lobby lists it.
#[derive(Clone, Debug, Serialize)]
pub struct SeekView {
    /// The seek id (16 hex digits).
    pub id: String,
    /// Who posted it.
    pub by: PlayerView,
    /// Its clock, rating and handicap.
    #[serde(flatten)]
    pub terms: Terms,
    /// The seeker's seat: `sente`, `gote` or `random`.
    pub side: &'static str,
    /// The one player it is addressed to.
    pub to: Option<String>,
    /// A program's seek: the CSA game name it waits for (`floodgate-600-10`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// When it was posted.
    pub created_at_ms: u64,
}

/// An open seek with what only the server knows.
#[derive(Clone, Debug)]
pub struct Seek {
    /// As listed.
    pub view: SeekView,
    /// Who posted it.
    pub owner: Identity,
    /// From where (for the per-address cap).
    pub address: IpAddr,
    /// The seeker's seat token in the game accepting creates.
    pub token: String,
    /// The seat asked for.
    pub side: SideChoice,
    /// The handicap asked for.
    pub handicap: Handicap,
    /// The case-folded name of the addressee, if any.
    pub to_key: Option<String>,
    /// When it was posted on the lobby's clock (which measures its lifetime;
    /// `view.created_at_ms` is the Unix time shown).
    pub posted_ms: u64,
    /// A program's seek: where a person accepting it is offered to the
    /// program (which starts the game once it agrees).
    pub program: Option<ProgramDoor>,
}
