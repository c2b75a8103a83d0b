//! An event's settings: what the organiser chose, checked, and how they are
//! stored (JSON in `tournaments.settings`).

use serde::{Deserialize, Serialize};
use shogi_core::ImpasseRule;
use shogi_tournament::standings::Tiebreak;

use crate::error::Error;
use crate::game::clock::TimeControl;
use crate::game::text::as_text;
use crate::ratings::Rank;

/// The longest name or place.
pub const MAX_TEXT: usize = 100;
/// The most rounds an event may plan.
pub const MAX_ROUNDS: u32 = 40;

/// How an event pairs its rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormatName {
    /// Everyone meets everyone (Berger tables).
    RoundRobin,
    /// Swiss pairing.
    Swiss,
    /// McMahon: Swiss from start scores by grade.
    Mcmahon,
}

/// Where the games are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayMode {
    /// In the app (boards whose players both have accounts).
    Online,
    /// Over the board: results entered.
    Otb,
    /// Each board chosen; online where both players have accounts.
    Mixed,
}

/// A board's place of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardPlay {
    /// An in-app game.
    Online,
    /// Over the board.
    Otb,
}

impl BoardPlay {
    /// `online` / `otb`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            BoardPlay::Online => "online",
            BoardPlay::Otb => "otb",
        }
    }

    /// The play of a stored name (anything else reads as over the board).
    #[must_use]
    pub fn of_name(s: &str) -> BoardPlay {
        if s == "online" {
            BoardPlay::Online
        } else {
            BoardPlay::Otb
        }
    }
}

/// McMahon's bar and floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bars {
    /// Everyone at or above it starts at 0.
    #[serde(with = "as_text")]
    pub bar: Rank,
    /// Everyone at or below it starts as if at it.
    #[serde(with = "as_text")]
    pub floor: Rank,
}

/// An event's settings as stored and shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "an organiser's independent yes/no choices (double, rated, open...)"
)]
pub struct Settings {
    /// The name.
    pub name: String,
    /// Where.
    pub place: String,
    /// The country's code (`RU`), for the federations' report.
    #[serde(default)]
    pub country: String,
    /// First day (`YYYY-MM-DD`).
    pub starts: Option<String>,
    /// Last day.
    pub ends: Option<String>,
    /// The format.
    pub format: FormatName,
    /// Rounds planned (`None`: a round robin's full cycle).
    pub rounds: Option<u32>,
    /// A double round robin.
    pub double: bool,
    /// The time control.
    pub time: TimeControl,
    /// Online games rated.
    pub rated: bool,
    /// Where games are played.
    pub play: PlayMode,
    /// The impasse rule of the games.
    #[serde(with = "as_text")]
    pub impasse: ImpasseRule,
    /// The tie-breaks, in order (their keys).
    pub tiebreaks: Vec<String>,
    /// Accounts may join by themselves.
    pub open: bool,
    /// A handicap event.
    pub handicap: bool,
    /// McMahon's bars.
    pub mcmahon: Option<Bars>,
    /// Online games let the players chat (off, as at a club).
    #[serde(default)]
    pub chat: bool,
    /// Online games let the players propose takebacks (off, as at a
    /// club; a rated game has none anyway).
    #[serde(default)]
    pub takebacks: bool,
}

impl Settings {
    /// The tie-breaks, in order.
    #[must_use]
    pub fn tiebreak_order(&self) -> Vec<Tiebreak> {
        self.tiebreaks
            .iter()
            .filter_map(|k| Tiebreak::from_key(k))
            .collect()
    }
}

/// A time control written as an object or as `"30+30"`.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum TimeArg {
    /// As in game creation.
    Control(TimeControl),
    /// Minutes + byoyomi seconds.
    Text(String),
}

impl TimeArg {
    fn control(&self) -> Result<TimeControl, Error> {
        let tc = match self {
            TimeArg::Control(tc) => *tc,
            TimeArg::Text(t) => {
                let bad = || {
                    Error::BadRequest(format!("time {t:?}: write minutes+seconds, e.g. \"30+30\""))
                };
                let (m, s) = t.split_once('+').ok_or_else(bad)?;
                let m: u64 = m.trim().parse().map_err(|_| bad())?;
                let s: u64 = s.trim().parse().map_err(|_| bad())?;
                // Checked: a huge number must not wrap into a short clock.
                let too_long = || Error::BadRequest(format!("time {t:?}: too long"));
                TimeControl {
                    main_ms: m.checked_mul(60_000).ok_or_else(too_long)?,
                    byoyomi_ms: s.checked_mul(1000).ok_or_else(too_long)?,
                    periods: 1,
                    increment_ms: 0,
                }
            }
        };
        tc.validate()
            .map_err(|e| Error::BadRequest(format!("time: {e}")))?;
        Ok(tc)
    }
}

/// `POST /api/tournaments` and `PUT /api/tournaments/{id}`: every field
/// optional (creation needs `name` and `format`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsRequest {
    /// The name.
    pub name: Option<String>,
    /// Where.
    pub place: Option<String>,
    /// The country's code (`RU`, `UA`).
    pub country: Option<String>,
    /// First day.
    pub starts: Option<String>,
    /// Last day.
    pub ends: Option<String>,
    /// The format.
    pub format: Option<FormatName>,
    /// Rounds planned.
    pub rounds: Option<u32>,
    /// A double round robin.
    pub double: Option<bool>,
    /// The time control.
    pub time: Option<TimeArg>,
    /// Rated online games.
    pub rated: Option<bool>,
    /// Where games are played.
    pub play: Option<PlayMode>,
    /// The impasse rule.
    #[serde(default, deserialize_with = "crate::game::text::opt_text::deserialize")]
    pub impasse: Option<ImpasseRule>,
    /// Tie-break keys in order.
    pub tiebreaks: Option<Vec<String>>,
    /// Open registration.
    pub open: Option<bool>,
    /// A handicap event.
    pub handicap: Option<bool>,
    /// McMahon's bars, as typed (any form [`Rank`] reads).
    pub mcmahon: Option<BarsRequest>,
    /// Online games allow chat.
    pub chat: Option<bool>,
    /// Online games allow takebacks.
    pub takebacks: Option<bool>,
}

/// McMahon's bar and floor in a request: ranks as typed (`1d`, `1 дан`,
/// `初段`), read by [`Rank`]'s parser so that a bad one is `bad_rank`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct BarsRequest {
    /// Everyone at or above it starts at 0.
    pub bar: String,
    /// Everyone at or below it starts as if at it.
    pub floor: String,
}

/// The default tie-breaks of a format.
#[must_use]
pub fn default_tiebreaks(format: FormatName) -> Vec<String> {
    let keys: &[&str] = match format {
        FormatName::RoundRobin => &["direct", "wins", "sb"],
        FormatName::Swiss | FormatName::Mcmahon => &["sos", "sosos", "direct"],
    };
    keys.iter().map(|k| (*k).to_string()).collect()
}

/// 30 minutes + 30 seconds byoyomi, the St. Petersburg club's control.
#[must_use]
pub fn default_time() -> TimeControl {
    TimeControl {
        main_ms: 30 * 60_000,
        byoyomi_ms: 30_000,
        periods: 1,
        increment_ms: 0,
    }
}

fn text(field: &str, v: &str, min: usize) -> Result<String, Error> {
    let v = v.trim();
    let n = v.chars().count();
    if n < min || n > MAX_TEXT {
        return Err(Error::BadRequest(format!(
            "{field} must be {min} to {MAX_TEXT} characters"
        )));
    }
    if v.chars().any(char::is_control) {
        return Err(Error::BadRequest(format!(
            "{field} has a control character"
        )));
    }
    Ok(v.to_string())
}

fn date(field: &str, v: &str) -> Result<String, Error> {
    let v = v.trim();
    let ok = v.len() == 10
        && v.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        })
        && matches!(v[5..7].parse::<u8>(), Ok(1..=12))
        && matches!(v[8..10].parse::<u8>(), Ok(1..=31));
    if ok {
        Ok(v.to_string())
    } else {
        Err(Error::BadRequest(format!(
            "{field} must be a date YYYY-MM-DD"
        )))
    }
}

impl SettingsRequest {
    /// The settings of a new event.
    ///
    /// # Errors
    /// [`Error::BadRequest`] naming the bad field.
    pub fn create(&self) -> Result<Settings, Error> {
        let name = self
            .name
            .as_deref()
            .ok_or_else(|| Error::BadRequest("name is required".into()))?;
        let format = self
            .format
            .ok_or_else(|| Error::BadRequest("format is required".into()))?;
        let base = Settings {
            name: text("name", name, 1)?,
            place: String::new(),
            country: String::new(),
            starts: None,
            ends: None,
            format,
            rounds: None,
            double: false,
            time: default_time(),
            rated: false,
            play: PlayMode::Online,
            impasse: ImpasseRule::Csa27,
            tiebreaks: default_tiebreaks(format),
            open: true,
            handicap: false,
            mcmahon: None,
            chat: false,
            takebacks: false,
        };
        self.apply(base, false)
    }

    /// `base` with this request's fields laid over it; `started` (round 1
    /// paired) refuses changing the format, `double` and `play`.
    ///
    /// # Errors
    /// [`Error::BadRequest`] naming the bad field.
    pub fn apply(&self, mut s: Settings, started: bool) -> Result<Settings, Error> {
        if started
            && (self.format.is_some_and(|f| f != s.format)
                || self.double.is_some_and(|d| d != s.double)
                || self.play.is_some_and(|p| p != s.play))
        {
            return Err(Error::Conflict(
                "format, double and play cannot change once round 1 is paired".into(),
            ));
        }
        if let Some(n) = &self.name {
            s.name = text("name", n, 1)?;
        }
        if let Some(p) = &self.place {
            s.place = text("place", p, 0)?;
        }
        if let Some(c) = &self.country {
            let c = c.trim().to_ascii_uppercase();
            if !(c.is_empty() || (c.len() == 2 && c.bytes().all(|b| b.is_ascii_uppercase()))) {
                return Err(Error::BadRequest(
                    "country must be a two-letter code".into(),
                ));
            }
            s.country = c;
        }
        if let Some(d) = &self.starts {
            s.starts = Some(date("starts", d)?).filter(|d| !d.is_empty());
        }
        if let Some(d) = &self.ends {
            s.ends = Some(date("ends", d)?);
        }
        if let Some(f) = self.format {
            if self.tiebreaks.is_none() && f != s.format {
                s.tiebreaks = default_tiebreaks(f);
            }
            s.format = f;
        }
        if let Some(r) = self.rounds {
            if !(1..=MAX_ROUNDS).contains(&r) {
                return Err(Error::BadRequest(format!(
                    "rounds must be 1 to {MAX_ROUNDS}"
                )));
            }
            s.rounds = Some(r);
        }
        if let Some(d) = self.double {
            s.double = d;
        }
        if let Some(t) = &self.time {
            s.time = t.control()?;
        }
        if let Some(r) = self.rated {
            s.rated = r;
        }
        if let Some(p) = self.play {
            s.play = p;
        }
        if let Some(i) = self.impasse {
            s.impasse = i;
        }
        if let Some(t) = &self.tiebreaks {
            s.tiebreaks = tiebreak_list(t)?;
        }
        if let Some(o) = self.open {
            s.open = o;
        }
        if let Some(c) = self.chat {
            s.chat = c;
        }
        if let Some(t) = self.takebacks {
            s.takebacks = t;
        }
        if let Some(h) = self.handicap {
            s.handicap = h;
        }
        if let Some(m) = &self.mcmahon {
            let m = Bars {
                bar: m.bar.parse()?,
                floor: m.floor.parse()?,
            };
            if m.floor > m.bar {
                return Err(Error::BadRequest(
                    "mcmahon: the floor is above the bar".into(),
                ));
            }
            s.mcmahon = Some(m);
        }
        if s.format == FormatName::Mcmahon && s.mcmahon.is_none() {
            s.mcmahon = Some(Bars {
                bar: Rank::Dan(1),
                floor: Rank::Kyu(10),
            });
        }
        if s.format != FormatName::RoundRobin {
            s.double = false;
            if s.rounds.is_none() {
                return Err(Error::BadRequest(
                    "rounds is required for Swiss and McMahon".into(),
                ));
            }
        }
        if s.rated && !s.time.rateable() {
            return Err(Error::BadRequest(crate::game::clock::RATED_TOO_FAST.into()));
        }
        if let (Some(a), Some(b)) = (&s.starts, &s.ends) {
            if b < a {
                return Err(Error::BadRequest("ends is before starts".into()));
            }
        }
        Ok(s)
    }
}

/// The tie-breaks asked, checked: known keys, each once, in order.
///
/// # Errors
/// [`Error::BadRequest`] naming an unknown or repeated key.
fn tiebreak_list(keys: &[String]) -> Result<Vec<String>, Error> {
    let mut seen = Vec::new();
    for k in keys {
        if Tiebreak::from_key(k).is_none() {
            return Err(Error::BadRequest(format!(
                "tiebreaks: unknown {k:?} (sb, sos, sosos, sodos, median, direct, wins, cumulative)"
            )));
        }
        if seen.contains(k) {
            return Err(Error::BadRequest(format!("tiebreaks: {k} twice")));
        }
        seen.push(k.clone());
    }
    Ok(seen)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(v: serde_json::Value) -> SettingsRequest {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_huge_time_is_refused_not_wrapped() {
        let text = |t: &str| TimeArg::Text(t.into()).control();
        assert_eq!(text("30+30").unwrap().main_ms, 1_800_000);
        // 307445734561825861 minutes wrapped to 44 s before the check.
        let e = text("307445734561825861+0").unwrap_err();
        assert!(
            e.to_string()
                .contains("time \"307445734561825861+0\": too long"),
            "{e}"
        );
        // Within u64 but over a day: the clock's own check names the field.
        let e = text("100000+0").unwrap_err();
        assert!(e.to_string().contains("time.main_ms"), "{e}");
    }

    #[test]
    fn a_new_event_takes_the_club_defaults() {
        let s = req(serde_json::json!({"name": "Кубок", "format": "round_robin"}))
            .create()
            .unwrap();
        assert_eq!(s.time, default_time());
        assert_eq!(s.impasse, ImpasseRule::Csa27);
        assert_eq!(s.tiebreaks, ["direct", "wins", "sb"]);
        assert_eq!(s.rounds, None);
    }

    #[test]
    fn time_reads_as_text_or_object() {
        let s =
            req(serde_json::json!({"name": "x", "format": "swiss", "rounds": 5, "time": "10+30"}))
                .create()
                .unwrap();
        assert_eq!(s.time.main_ms, 600_000);
        assert_eq!(s.time.byoyomi_ms, 30_000);
        let bad =
            req(serde_json::json!({"name": "x", "format": "swiss", "rounds": 5, "time": "ten"}));
        assert!(matches!(bad.create(), Err(Error::BadRequest(_))));
    }

    #[test]
    fn bad_fields_are_named() {
        for (body, word) in [
            (
                serde_json::json!({"name": "", "format": "swiss", "rounds": 3}),
                "name",
            ),
            (
                serde_json::json!({"name": "x", "format": "swiss"}),
                "rounds",
            ),
            (
                serde_json::json!({"name": "x", "format": "swiss", "rounds": 3, "tiebreaks": ["xx"]}),
                "tiebreaks",
            ),
            (
                serde_json::json!({"name": "x", "format": "swiss", "rounds": 3, "starts": "2026-13-01"}),
                "starts",
            ),
            (
                serde_json::json!({"name": "x", "format": "swiss", "rounds": 99}),
                "rounds",
            ),
        ] {
            match req(body).create() {
                Err(Error::BadRequest(m)) => assert!(m.contains(word), "{m}"),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn the_format_is_fixed_once_started() {
        let s = req(serde_json::json!({"name": "x", "format": "swiss", "rounds": 3}))
            .create()
            .unwrap();
        let change = req(serde_json::json!({"format": "mcmahon"}));
        assert!(matches!(
            change.apply(s.clone(), true),
            Err(Error::Conflict(_))
        ));
        let m = change.apply(s, false).unwrap();
        assert_eq!(m.mcmahon.unwrap().bar, Rank::Dan(1));
    }

    #[test]
    fn mcmahon_bars_are_ranks_as_typed() {
        let s = req(
            serde_json::json!({"name": "x", "format": "mcmahon", "rounds": 3,
            "mcmahon": {"bar": "2 дан", "floor": "十級"}}),
        )
        .create()
        .unwrap();
        let m = s.mcmahon.unwrap();
        assert_eq!((m.bar, m.floor), (Rank::Dan(2), Rank::Kyu(10)));
        let bad = req(
            serde_json::json!({"name": "x", "format": "mcmahon", "rounds": 3,
            "mcmahon": {"bar": "2 дана", "floor": "10k"}}),
        )
        .create()
        .unwrap_err();
        assert!(
            matches!(&bad, Error::Problem(crate::error::Problem::BadRank { rank, .. }) if rank == "2 дана"),
            "{bad:?}"
        );
    }
}
