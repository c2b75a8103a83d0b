//! Game names and the LOGIN password that carries them.
//!
//! A program asks for a game with its password, `gamename,token` (the
//! token is the account's CSA token, `shogi user add NAME --bot`). The game
//! name says the clock and the start, as shogi-server's do:
//!
//! ```text
//! [handicap_]name-TOTAL-BYOYOMI        byoyomi (seconds)
//! [handicap_]name-TOTAL-INCREMENTF     Fischer (seconds)
//! ...-B / ...-W                        colour wanted: Sente (+) or Gote (-)
//! ```
//!
//! `floodgate-600-10F` is ten minutes with a ten-second increment;
//! `hcbishop_test-300-10` a bishop handicap game; `test-60-0-B` asks for
//! Sente. Two programs meet when their names (less the colour) are equal.
//!
//! ```
//! use shogi_server::csa::{GameName, Preference};
//! let g = GameName::parse("floodgate-600-10F")?;
//! assert_eq!((g.total_secs, g.byoyomi_secs, g.increment_secs), (600, 0, 10));
//! let (g, pref) = GameName::parse_with_preference("hcrook_x-300-10-W")?;
//! assert_eq!(g.handicap, shogi_core::Handicap::Rook);
//! assert_eq!(pref, Preference::Gote);
//! # Ok::<_, shogi_server::csa::GameNameError>(())
//! ```

use shogi_core::Handicap;

use crate::game::clock::{TimeControl, MAX_TIME_MS};

/// The longest game name, in bytes.
pub const MAX_GAME_NAME: usize = 64;
/// The longest user name the protocol allows.
pub const MAX_USER_NAME: usize = 32;

/// The handicap prefixes (before `_`) and their starts.
const HANDICAPS: [(&str, Handicap); 9] = [
    ("hclance", Handicap::Lance),
    ("hcbishop", Handicap::Bishop),
    ("hcrook", Handicap::Rook),
    ("hcrooklance", Handicap::RookLance),
    ("hc2p", Handicap::TwoPieces),
    ("hc4p", Handicap::FourPieces),
    ("hc6p", Handicap::SixPieces),
    ("hc8p", Handicap::EightPieces),
    ("hc10p", Handicap::TenPieces),
];

/// Why a game name or a password is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameNameError {
    /// Longer than [`MAX_GAME_NAME`].
    #[error("game name longer than {MAX_GAME_NAME} bytes")]
    TooLong,
    /// A character outside letters, digits, `_` and `-`.
    #[error("game name has a character outside letters, digits, _ and -: {0:?}")]
    BadCharacter(char),
    /// Not `name-TOTAL-BYOYOMI` (or `...F`).
    #[error("game name {0:?} is not name-TOTAL-BYOYOMI or name-TOTAL-INCREMENTF")]
    Shape(String),
    /// A number that is not digits or is too large.
    #[error("game name time {0:?} is not a number of seconds up to one day")]
    BadSeconds(String),
    /// An unknown `hc..._` prefix.
    #[error("unknown handicap prefix {0:?}")]
    UnknownHandicap(String),
    /// No time at all (`name-0-0`).
    #[error("game name gives no time at all")]
    NoTime,
}

/// The colour a program asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preference {
    /// Sente (`+`, black): `-B`.
    Sente,
    /// Gote (`-`, white): `-W`.
    Gote,
    /// Either.
    Any,
}

/// A game name: the clock and the start it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameName {
    /// The name as written, less any colour suffix (programs with equal
    /// names meet).
    pub text: String,
    /// The start.
    pub handicap: Handicap,
    /// Main time, seconds.
    pub total_secs: u32,
    /// Byoyomi, seconds (0 for Fischer).
    pub byoyomi_secs: u32,
    /// Fischer increment, seconds (0 for byoyomi).
    pub increment_secs: u32,
}

/// Seconds from a client: digits only, at most one day.
fn seconds(text: &str) -> Result<u32, GameNameError> {
    let bad = || GameNameError::BadSeconds(text.to_owned());
    if text.is_empty() || text.len() > 6 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let secs: u32 = text.parse().map_err(|_| bad())?;
    let ms = u64::from(secs).checked_mul(1000).ok_or_else(bad)?;
    if ms > MAX_TIME_MS {
        return Err(bad());
    }
    Ok(secs)
}

impl GameName {
    /// Reads a game name without a colour suffix.
    ///
    /// # Errors
    /// Why it is not one ([`GameNameError`]).
    pub fn parse(text: &str) -> Result<GameName, GameNameError> {
        if text.len() > MAX_GAME_NAME {
            return Err(GameNameError::TooLong);
        }
        if let Some(c) = text
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
        {
            return Err(GameNameError::BadCharacter(c));
        }
        let shape = || GameNameError::Shape(text.to_owned());
        let mut parts = text.rsplitn(3, '-');
        let last = parts.next().ok_or_else(shape)?;
        let total = parts.next().ok_or_else(shape)?;
        let base = parts.next().filter(|b| !b.is_empty()).ok_or_else(shape)?;
        let (second, fischer) = match last.strip_suffix('F') {
            Some(n) => (n, true),
            None => (last, false),
        };
        let total_secs = seconds(total)?;
        let second = seconds(second)?;
        let handicap = match base.split_once('_') {
            Some((prefix, rest)) if prefix.starts_with("hc") => {
                if rest.is_empty() {
                    return Err(shape());
                }
                HANDICAPS
                    .iter()
                    .find(|(p, _)| *p == prefix)
                    .map(|(_, h)| *h)
                    .ok_or_else(|| GameNameError::UnknownHandicap(prefix.to_owned()))?
            }
            _ => Handicap::Even,
        };
        if total_secs == 0 && second == 0 {
            return Err(GameNameError::NoTime);
        }
        Ok(GameName {
            text: text.to_owned(),
            handicap,
            total_secs,
            byoyomi_secs: if fischer { 0 } else { second },
            increment_secs: if fischer { second } else { 0 },
        })
    }

    /// Reads a game name with an optional colour suffix (`-B`, `-W`).
    ///
    /// # Errors
    /// As [`GameName::parse`].
    pub fn parse_with_preference(text: &str) -> Result<(GameName, Preference), GameNameError> {
        let (name, pref) = if let Some(n) = text.strip_suffix("-B") {
            (n, Preference::Sente)
        } else if let Some(n) = text.strip_suffix("-W") {
            (n, Preference::Gote)
        } else {
            (text, Preference::Any)
        };
        Ok((GameName::parse(name)?, pref))
    }

    /// The room's time control: whole seconds, one byoyomi period.
    #[must_use]
    pub fn time_control(&self) -> TimeControl {
        TimeControl {
            main_ms: u64::from(self.total_secs) * 1000,
            byoyomi_ms: u64::from(self.byoyomi_secs) * 1000,
            periods: 1,
            increment_ms: u64::from(self.increment_secs) * 1000,
        }
    }
}

/// A LOGIN's password read: the game asked for, the colour and the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Login {
    /// The game asked for.
    pub game: GameName,
    /// The colour asked for.
    pub preference: Preference,
    /// The account's CSA token (`None`: the password had no `,token`).
    pub token: Option<String>,
}

impl Login {
    /// Reads a password, `gamename,token` or `gamename`.
    ///
    /// # Errors
    /// A bad game name.
    pub fn parse(password: &str) -> Result<Login, GameNameError> {
        let (name, token) = match password.split_once(',') {
            Some((n, t)) => (n, Some(t.to_owned())),
            None => (password, None),
        };
        let (game, preference) = GameName::parse_with_preference(name)?;
        Ok(Login {
            game,
            preference,
            token,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byoyomi_and_fischer_names() {
        let g = GameName::parse("test-300-10").unwrap();
        assert_eq!(g.handicap, Handicap::Even);
        assert_eq!(
            (g.total_secs, g.byoyomi_secs, g.increment_secs),
            (300, 10, 0)
        );
        let g = GameName::parse("floodgate-600-10F").unwrap();
        assert_eq!(
            (g.total_secs, g.byoyomi_secs, g.increment_secs),
            (600, 0, 10)
        );
        assert_eq!(g.time_control().increment_ms, 10_000);
        // Hyphens in the base name are kept.
        let g = GameName::parse("my-league-60-0").unwrap();
        assert_eq!(g.total_secs, 60);
    }

    #[test]
    fn handicap_prefixes() {
        for (text, h) in [
            ("hclance_a-60-0", Handicap::Lance),
            ("hcbishop_a-60-0", Handicap::Bishop),
            ("hcrook_a-60-0", Handicap::Rook),
            ("hcrooklance_a-60-0", Handicap::RookLance),
            ("hc2p_a-60-0", Handicap::TwoPieces),
            ("hc4p_a-60-0", Handicap::FourPieces),
            ("hc6p_a-60-0", Handicap::SixPieces),
            ("hc8p_a-60-0", Handicap::EightPieces),
            ("hc10p_a-60-0", Handicap::TenPieces),
        ] {
            assert_eq!(GameName::parse(text).unwrap().handicap, h, "{text}");
        }
        assert_eq!(
            GameName::parse("hcqueen_a-60-0"),
            Err(GameNameError::UnknownHandicap("hcqueen".into()))
        );
        // An underscore without the hc prefix is part of the name.
        assert_eq!(
            GameName::parse("my_game-60-0").unwrap().handicap,
            Handicap::Even
        );
    }

    #[test]
    fn colour_suffixes() {
        let (g, p) = GameName::parse_with_preference("test-60-0-B").unwrap();
        assert_eq!((g.text.as_str(), p), ("test-60-0", Preference::Sente));
        let (_, p) = GameName::parse_with_preference("test-60-0-W").unwrap();
        assert_eq!(p, Preference::Gote);
        let (_, p) = GameName::parse_with_preference("test-60-0").unwrap();
        assert_eq!(p, Preference::Any);
    }

    #[test]
    fn numbers_from_clients_are_bounded() {
        for bad in [
            "floodgate-99999999999999-10",
            "a-86401-0",
            "a-60-99999999999999999999F",
            "a-60--1",
            "a-+5-0",
            "a-60-x",
        ] {
            assert!(GameName::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(GameName::parse("a-86400-0").unwrap().total_secs, 86_400);
        assert_eq!(GameName::parse("a-0-0"), Err(GameNameError::NoTime));
    }

    #[test]
    fn shapes_and_characters() {
        for bad in ["", "a", "a-60", "-60-0", "hc2p_-60-0"] {
            assert!(GameName::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            GameName::parse("a b-60-0"),
            Err(GameNameError::BadCharacter(' '))
        );
        assert_eq!(
            GameName::parse(&"a".repeat(100)),
            Err(GameNameError::TooLong)
        );
    }

    #[test]
    fn passwords_carry_the_game_and_the_token() {
        let l = Login::parse("floodgate-600-10F,secret").unwrap();
        assert_eq!(l.token.as_deref(), Some("secret"));
        assert_eq!(l.game.text, "floodgate-600-10F");
        let l = Login::parse("test-60-0-W").unwrap();
        assert_eq!(l.token, None);
        assert_eq!(l.preference, Preference::Gote);
    }
}
