//! Creating a game: what a creator asks for (the body of `POST /api/games`),
//! checked here into a start position, rules and the computer's level, and
//! the answer with the creator's token.
//!
//! The request and its answer live with the games, not with the wire in
//! `api`, because [`Rooms::create`](super::rooms::Rooms::create) takes and
//! returns them (serde reads the body into typed values at the edge; the
//! checks below turn them into a game), as the lobby's seek request lives
//! with the lobby.

use serde::{Deserialize, Serialize};
use shogi_core::{Handicap, ImpasseRule, Position};

use crate::error::Error;
use crate::game::clock::TimeControl;
use crate::game::text::opt_text;
use crate::game::{IllegalPolicy, Mode, RulesView, Seat, SideChoice, StartChoice};

/// The longest game limit accepted for `max_moves`.
pub const MAX_MOVES_LIMIT: u32 = 10_000;
/// The highest computer level.
pub const MAX_LEVEL: u8 = 10;
/// The longest start SFEN accepted.
pub const MAX_SFEN_BYTES: usize = 200;

/// `POST /api/games`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The mode.
    pub mode: Mode,
    /// The creator's seat.
    #[serde(default)]
    pub side: SideChoice,
    /// The handicap (`even` if absent).
    #[serde(default, deserialize_with = "opt_text::deserialize")]
    pub handicap: Option<Handicap>,
    /// A start position in SFEN instead of a handicap (set-up positions, problems).
    #[serde(default)]
    pub sfen: Option<String>,
    /// The time control, or none.
    #[serde(default)]
    pub time: Option<TimeControl>,
    /// The rules.
    #[serde(default)]
    pub rules: Option<RulesRequest>,
    /// The computer's settings.
    #[serde(default)]
    pub ai: Option<AiRequest>,
    /// A guest's display name (ignored for a logged-in creator).
    #[serde(default)]
    pub name: Option<String>,
}

/// The `rules` of [`CreateGame`].
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesRequest {
    /// `count24`, `27`, `24`, `try` or `none`.
    #[serde(default, deserialize_with = "opt_text::deserialize")]
    pub impasse: Option<ImpasseRule>,
    /// The illegal-move policy.
    #[serde(default)]
    pub illegal: Option<IllegalPolicy>,
    /// A draw after this many moves.
    #[serde(default)]
    pub max_moves: Option<u32>,
}

/// The `ai` of [`CreateGame`].
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AiRequest {
    /// 1..=10.
    #[serde(default = "level_one")]
    pub level: u8,
}

fn level_one() -> u8 {
    1
}

/// The answer to `POST /api/games`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Created {
    /// The game id.
    pub id: String,
    /// The creator's token.
    pub token: String,
    /// The creator's seat: `sente`, `gote` or `both`.
    pub side: Seat,
    /// The invite link (friend games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

fn bad(msg: impl Into<String>) -> Error {
    Error::BadRequest(msg.into())
}

/// The start position a creation asks for, and how it is named.
pub(super) fn start_of(req: &CreateGame) -> Result<(Position, StartChoice), Error> {
    let (start, choice) = match (req.handicap, req.sfen.as_deref()) {
        (Some(_), Some(_)) => return Err(bad("give a handicap or an sfen, not both")),
        (None, Some(text)) if text.len() > MAX_SFEN_BYTES => return Err(bad("sfen too long")),
        (None, Some(text)) => (
            shogi_core::sfen::parse_position(text).map_err(|e| bad(format!("sfen: {e}")))?,
            StartChoice::Custom,
        ),
        (h, None) => {
            let h = h.unwrap_or(Handicap::Even);
            (h.position(), StartChoice::Handicap(h))
        }
    };
    if !start.has_legal_move() {
        return Err(bad("the side to move has no legal move"));
    }
    Ok((start, choice))
}

/// The rules a creation asks for, with each mode's default impasse rule.
pub(super) fn rules_of(mode: Mode, rules: Option<&RulesRequest>) -> Result<RulesView, Error> {
    let rules = rules.cloned().unwrap_or_default();
    if let Some(n) = rules.max_moves {
        if !(1..=MAX_MOVES_LIMIT).contains(&n) {
            return Err(bad(format!(
                "rules.max_moves must be 1..={MAX_MOVES_LIMIT}"
            )));
        }
    }
    Ok(RulesView {
        impasse: rules.impasse.unwrap_or(match mode {
            Mode::Ai => ImpasseRule::Csa27,
            Mode::Friend | Mode::Local => ImpasseRule::Count24,
        }),
        illegal: rules.illegal.unwrap_or_default(),
        max_moves: rules.max_moves,
    })
}

/// The computer's level, for an AI game only.
pub(super) fn level_of(req: &CreateGame) -> Result<Option<u8>, Error> {
    match (req.mode, req.ai) {
        (Mode::Ai, ai) => {
            let level = ai.map_or(1, |a| a.level);
            if !(1..=MAX_LEVEL).contains(&level) {
                return Err(bad(format!("ai.level must be 1..={MAX_LEVEL}")));
            }
            Ok(Some(level))
        }
        (_, Some(_)) => Err(bad("ai settings are only for ai games")),
        (_, None) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: serde_json::Value) -> CreateGame {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn each_mode_has_its_default_impasse_rule() {
        let ai = rules_of(Mode::Ai, None).unwrap();
        assert_eq!(ai.impasse, ImpasseRule::Csa27);
        let local = rules_of(Mode::Local, None).unwrap();
        assert_eq!(local.impasse, ImpasseRule::Count24);
    }

    #[test]
    fn a_handicap_and_an_sfen_together_are_refused() {
        let req = request(serde_json::json!({
            "mode": "local", "handicap": "rook", "sfen": "4k4/9/9/9/9/9/9/9/4K4 b - 1"
        }));
        assert!(matches!(start_of(&req), Err(Error::BadRequest(_))));
        let req = request(serde_json::json!({"mode": "local", "handicap": "rook"}));
        let (pos, choice) = start_of(&req).unwrap();
        assert_eq!(choice, StartChoice::Handicap(Handicap::Rook));
        assert_eq!(pos.to_sfen(), Handicap::Rook.position().to_sfen());
    }

    #[test]
    fn only_ai_games_take_a_level() {
        let req = request(serde_json::json!({"mode": "friend", "ai": {"level": 3}}));
        assert!(level_of(&req).is_err());
        let req = request(serde_json::json!({"mode": "ai"}));
        assert_eq!(level_of(&req).unwrap(), Some(1));
    }
}
