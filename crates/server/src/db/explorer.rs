//! Collections, the games in them and the explorer's tables (migrations
//! 0022 and 0023, docs/EXPLORER.md): a collection's games with the columns
//! the lists and filters read, every position each game reached keyed by
//! its 64-bit Zobrist key, and the per-move counts the explorer answers
//! from, by month, time class and rating band.

use std::collections::HashMap;
use std::fmt;
use std::io::Write as _;
use std::str::FromStr;

use shogi_core::Color;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::store::{in_chunks, Dialect, Store};
use crate::calendar::{self, month_of, month_start};
use crate::ratings::TimeClass;

/// The id of the `site` collection: the games played here.
pub const SITE: i64 = 1;

/// How a game ended, as the explorer counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Sente (or the handicap giver's opponent, 下手) won.
    SenteWin,
    /// Gote won.
    GoteWin,
    /// Finished without a winner (repetition, impasse draw, move limit).
    Draw,
}

impl Outcome {
    /// The database's word: `sente`, `gote` or `draw`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Outcome::SenteWin => "sente",
            Outcome::GoteWin => "gote",
            Outcome::Draw => "draw",
        }
    }

    /// The outcome of a word of [`Outcome::name`].
    #[must_use]
    pub fn from_name(word: &str) -> Option<Outcome> {
        match word {
            "sente" => Some(Outcome::SenteWin),
            "gote" => Some(Outcome::GoteWin),
            "draw" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// The outcome of a game with this winner (`None`: a draw).
    #[must_use]
    pub fn of_winner(winner: Option<Color>) -> Outcome {
        match winner {
            Some(Color::Sente) => Outcome::SenteWin,
            Some(Color::Gote) => Outcome::GoteWin,
            None => Outcome::Draw,
        }
    }
}

/// One position of a game: its Zobrist key, the ply at which the game
/// first reached it, and the move then played ([`Move::to_u16`]; 0 when the
/// game ended there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reached {
    /// [`Position::hash`].
    pub hash: u64,
    /// Moves played before it (0: the start position).
    pub ply: u32,
    /// The move played from it, or 0.
    pub next: u16,
}

/// A game as a collection keeps it.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its id: a game played here keeps its own; an imported record gets one.
    pub id: String,
    /// The record file, deflated (none for a game played here).
    pub source: Option<Vec<u8>>,
    /// The start position as SFEN.
    pub start_sfen: String,
    /// Sente's name.
    pub sente: Option<String>,
    /// Gote's name.
    pub gote: Option<String>,
    /// Sente's rating when the game was played, if known.
    pub sente_rating: Option<i64>,
    /// Gote's rating when the game was played, if known.
    pub gote_rating: Option<i64>,
    /// How it ended; `None` when the record does not say.
    pub outcome: Option<Outcome>,
    /// When it was played (Unix milliseconds).
    pub played_at_ms: i64,
    /// Its time class, when its time control is known.
    pub time_class: Option<TimeClass>,
    /// The handicap's name or `custom`.
    pub handicap: String,
    /// The event (棋戦) header.
    pub event: Option<String>,
    /// The strategy tags as the archive stores them.
    pub strategy: String,
    /// Moves in the main line.
    pub plies: u32,
    /// The first 64 bits of the dedupe key (none for a game played here).
    pub dedupe: Option<i64>,
    /// Every position reached, in order of first reaching.
    pub positions: Vec<Reached>,
}

impl Entry {
    /// Both names in Unicode lower case, one per line (the search's column).
    #[must_use]
    pub fn names(&self) -> String {
        format!(
            "{}\n{}",
            self.sente.as_deref().unwrap_or_default().to_lowercase(),
            self.gote.as_deref().unwrap_or_default().to_lowercase()
        )
    }

    /// The average of both ratings, when both are known.
    #[must_use]
    pub fn average_rating(&self) -> Option<i64> {
        Some(i64::midpoint(self.sente_rating?, self.gote_rating?))
    }
}

/// The file's bytes, deflated.
#[must_use]
pub fn deflate(bytes: &[u8]) -> Vec<u8> {
    let mut out = flate2::write::DeflateEncoder::new(
        Vec::with_capacity(bytes.len() / 3),
        flate2::Compression::fast(),
    );
    // Writing to a Vec cannot fail.
    let _ = out.write_all(bytes);
    out.finish().unwrap_or_default()
}

/// Bytes [`deflate`] made, as they were; `None` when they are not deflate data.
#[must_use]
pub fn inflate(bytes: &[u8]) -> Option<Vec<u8>> {
    use std::io::Read as _;
    let mut out = Vec::with_capacity(bytes.len() * 4);
    flate2::read::DeflateDecoder::new(bytes)
        .take(64 * 1024 * 1024)
        .read_to_end(&mut out)
        .ok()?;
    Some(out)
}

/// Who may read a collection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Privacy {
    /// Anyone; its games count in every explorer answer.
    #[default]
    Public,
    /// Its owner account, and the organisers of its event if it names one.
    Private,
}

impl Privacy {
    /// The protocol's and the database's word.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Privacy::Public => "public",
            Privacy::Private => "private",
        }
    }
}

impl fmt::Display for Privacy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word that is neither `public` nor `private`.
#[derive(Debug, thiserror::Error)]
#[error("a collection is public or private, not {0:?}")]
pub struct BadPrivacy(pub String);

impl FromStr for Privacy {
    type Err = BadPrivacy;

    fn from_str(s: &str) -> Result<Privacy, BadPrivacy> {
        match s {
            "public" => Ok(Privacy::Public),
            "private" => Ok(Privacy::Private),
            other => Err(BadPrivacy(other.to_owned())),
        }
    }
}

/// A collection.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Collection {
    /// Its number.
    #[serde(skip)]
    pub id: i64,
    /// Its name (unique).
    pub name: String,
    /// The account that made it.
    #[serde(skip)]
    pub owner_user: Option<i64>,
    /// The event whose organisers may read a private one.
    pub tournament: Option<String>,
    /// Who may read it.
    #[serde(serialize_with = "privacy_word")]
    pub privacy: Privacy,
    /// Games in it.
    pub games: u64,
}

fn privacy_word<S: serde::Serializer>(p: &Privacy, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(p.name())
}

impl Collection {
    fn of_row(r: &AnyRow) -> Result<Collection, sqlx::Error> {
        let privacy: String = r.try_get("visibility")?;
        Ok(Collection {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            owner_user: r.try_get("owner_user")?,
            tournament: r.try_get("tournament")?,
            privacy: privacy
                .parse()
                .map_err(|e: BadPrivacy| super::store::corrupt(e.to_string()))?,
            games: super::store::to_u64(r.try_get("games")?),
        })
    }
}

/// The filters a list of a collection's games, and a filtered explorer
/// answer, apply (every field optional).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Only games of this time class.
    pub time_class: Option<TimeClass>,
    /// Only games whose average rating is at least this.
    pub min_rating: Option<i64>,
    /// Only games whose average rating is at most this.
    pub max_rating: Option<i64>,
    /// Only games played at or after this (Unix milliseconds).
    pub since_ms: Option<i64>,
    /// Only games played before this (Unix milliseconds).
    pub until_ms: Option<i64>,
    /// A part of either player's name, in Unicode lower case.
    pub player: Option<String>,
    /// A part of the event's name.
    pub event: Option<String>,
    /// The result.
    pub outcome: Option<Outcome>,
    /// The handicap's name (`even` for none) or `custom`.
    pub handicap: Option<String>,
    /// A strategy tag id (on either side or as the line).
    pub strategy: Option<String>,
}

impl GameFilter {
    /// Whether any filter is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == GameFilter::default()
    }
}

/// Rating points in a band of `explorer_counts`.
pub const BAND: i64 = 100;

/// The part of `explorer_counts` a filter reads: whole months, one time
/// class, whole bands of [`BAND`] rating points. [`CountsSlice::default`]
/// is every row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountsSlice {
    /// The first month counted (`YYYYMM`).
    pub since_month: Option<i64>,
    /// The first month no longer counted (`YYYYMM`).
    pub until_month: Option<i64>,
    /// The time class.
    pub time_class: Option<TimeClass>,
    /// The lowest band counted (the average rating / [`BAND`]).
    pub min_band: Option<i64>,
    /// The highest band counted.
    pub max_band: Option<i64>,
}

impl CountsSlice {
    /// The slice that counts exactly the games `f` passes, when there is
    /// one: `f` sets no more than the time class, the period and the
    /// rating, its period starts and ends on the first of a month (UTC)
    /// and its ratings on bands (`min_rating` 1200, `max_rating` 1499).
    /// `None` when the games must be counted one by one.
    ///
    /// ```
    /// use shogi_server::db::explorer::{CountsSlice, GameFilter};
    /// let f = GameFilter { min_rating: Some(1200), max_rating: Some(1499), ..GameFilter::default() };
    /// assert_eq!(CountsSlice::of(&f).unwrap().max_band, Some(14));
    /// let f = GameFilter { max_rating: Some(1500), ..GameFilter::default() };
    /// assert_eq!(CountsSlice::of(&f), None);
    /// ```
    #[must_use]
    pub fn of(f: &GameFilter) -> Option<CountsSlice> {
        let rest = GameFilter {
            time_class: None,
            min_rating: None,
            max_rating: None,
            since_ms: None,
            until_ms: None,
            ..f.clone()
        };
        if !rest.is_empty() {
            return None;
        }
        let month = |ms: i64| {
            let m = month_of(ms);
            let start = month_start(m / 100, u32::try_from(m % 100).ok()?);
            (m != 0 && start == ms).then_some(m)
        };
        let since_month = match f.since_ms {
            None => None,
            Some(ms) => Some(month(ms)?),
        };
        let until_month = match f.until_ms {
            None => None,
            Some(ms) => Some(month(ms)?),
        };
        let min_band = match f.min_rating {
            None => None,
            Some(r) if r >= 0 && r % BAND == 0 => Some(r / BAND),
            Some(_) => return None,
        };
        let max_band = match f.max_rating {
            None => None,
            Some(r) if r >= 0 && (r + 1) % BAND == 0 => Some(r / BAND),
            Some(_) => return None,
        };
        Some(CountsSlice {
            since_month,
            until_month,
            time_class: f.time_class,
            min_band,
            max_band,
        })
    }

    /// Whether a count row of `month`, time class `class` and `band` is
    /// in the slice: what [`Store::explorer_counts`] asks in SQL.
    fn holds(&self, month: i64, class: Option<TimeClass>, band: i64) -> bool {
        let period = self.since_month.is_some() || self.until_month.is_some();
        (!period || month > 0)
            && self.since_month.is_none_or(|m| month >= m)
            && self.until_month.is_none_or(|m| month < m)
            && self
                .time_class
                .is_none_or(|c| class_code(Some(c)) == class_code(class))
            && self.min_band.is_none_or(|lo| band >= lo)
            && self.max_band.is_none_or(|hi| band <= hi && band != -1)
    }
}

/// The `next` column of a row (`Move::to_u16`; 0 for the games that
/// ended there).
fn next_move(r: &AnyRow) -> Result<u16, sqlx::Error> {
    Ok(u16::try_from(r.try_get::<i64, _>("next")?).unwrap_or(0))
}

/// The `time_class` column of `explorer_counts`: 0 unknown, then
/// [`TimeClass::ALL`]'s order from 1.
fn class_code(c: Option<TimeClass>) -> i64 {
    c.and_then(|c| TimeClass::ALL.iter().position(|&k| k == c))
        .map_or(0, |i| i64::try_from(i).unwrap_or(0) + 1)
}

/// The `band` column of `explorer_counts` for an average rating: its
/// hundreds, -1 when not known, -2 below 0.
fn band_of(average: Option<i64>) -> i64 {
    match average {
        None => -1,
        Some(a) if a < 0 => -2,
        Some(a) => a / BAND,
    }
}

/// One move's counts in an explorer answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveCounts {
    /// [`shogi_core::Move::to_u16`], 0 for the games that ended there.
    pub next: u16,
    /// Games.
    pub games: u64,
    /// Won by Sente.
    pub sente_wins: u64,
    /// Won by Gote.
    pub gote_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// The sum of the average ratings of the games whose ratings are known.
    pub rating_sum: i64,
    /// How many games that is.
    pub rated: u64,
    /// When it was last played (Unix milliseconds).
    pub last_played_ms: i64,
}

impl MoveCounts {
    /// Adds game `g`, which played `g.next` (this line's move).
    fn add_game_at(&mut self, g: &GameAt) {
        self.next = g.next;
        self.add_game(g.outcome, g.rating, g.played_at_ms);
    }

    fn add_game(&mut self, outcome: Option<Outcome>, rating: Option<i64>, played_at_ms: i64) {
        // The first game sets the day: a game before 1970 is before the default 0.
        self.last_played_ms = if self.games == 0 {
            played_at_ms
        } else {
            self.last_played_ms.max(played_at_ms)
        };
        self.games += 1;
        match outcome {
            Some(Outcome::SenteWin) => self.sente_wins += 1,
            Some(Outcome::GoteWin) => self.gote_wins += 1,
            Some(Outcome::Draw) => self.draws += 1,
            None => {}
        }
        if let Some(r) = rating {
            self.rating_sum += r;
            self.rated += 1;
        }
    }
}

/// A game in a list: the explorer's, the search's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// Its id (a game played here or an imported record of a collection).
    pub id: String,
    /// The collection it is in.
    pub collection: i64,
    /// Sente's name.
    pub sente: Option<String>,
    /// Gote's name.
    pub gote: Option<String>,
    /// Sente's rating then.
    pub sente_rating: Option<i64>,
    /// Gote's rating then.
    pub gote_rating: Option<i64>,
    /// How it ended.
    pub outcome: Option<Outcome>,
    /// When it was played.
    pub played_at_ms: i64,
    /// Its time class.
    pub time_class: Option<TimeClass>,
    /// The handicap's name or `custom`.
    pub handicap: String,
    /// The event.
    pub event: Option<String>,
    /// Moves in it.
    pub plies: u32,
    /// Where it reached the position searched for, and the move it then
    /// played (0: none): only in a position's lists.
    pub reached: Option<(u32, u16)>,
}

/// The order of a list of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The most recent first.
    #[default]
    Recent,
    /// The highest average rating first (games without one last); through
    /// a position, among its [`RATED_WINDOW`] most recent games.
    Rating,
}

/// What a collection's game holds for reading it again.
#[derive(Clone, Debug)]
pub struct StoredEntry {
    /// The collection.
    pub collection: i64,
    /// The record file's bytes, as imported (`None`: a game played here).
    pub source: Option<Vec<u8>>,
}

/// The database's size, as `shogi db stats` prints it.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Every collection with its games.
    pub collections: Vec<Collection>,
    /// Games in all collections.
    pub games: u64,
    /// Rows of `explorer_positions`.
    pub positions: u64,
    /// Rows of `explorer_counts`.
    pub move_rows: u64,
    /// Bytes of deflated record files.
    pub source_bytes: u64,
    /// The whole database's size in bytes.
    pub database_bytes: u64,
}

const LISTED_COLUMNS: &str = "g.id, g.collection, g.sente, g.gote, g.sente_rating, g.gote_rating, \
     g.result, g.played_at, g.time_class, g.handicap, g.event, g.plies";

fn listed(r: &AnyRow, reached: bool) -> Result<Listed, sqlx::Error> {
    let outcome: Option<String> = r.try_get("result")?;
    let class: Option<String> = r.try_get("time_class")?;
    let plies: i64 = r.try_get("plies")?;
    let reached = if reached {
        let ply: i64 = r.try_get("ply")?;
        Some((u32::try_from(ply).unwrap_or(0), next_move(r)?))
    } else {
        None
    };
    Ok(Listed {
        id: r.try_get("id")?,
        collection: r.try_get("collection")?,
        sente: r.try_get("sente")?,
        gote: r.try_get("gote")?,
        sente_rating: r.try_get("sente_rating")?,
        gote_rating: r.try_get("gote_rating")?,
        outcome: outcome.as_deref().and_then(Outcome::from_name),
        played_at_ms: r.try_get("played_at")?,
        time_class: class.as_deref().and_then(TimeClass::from_name),
        handicap: r.try_get("handicap")?,
        event: r.try_get("event")?,
        plies: u32::try_from(plies).unwrap_or(0),
        reached,
    })
}

/// A query's text and the values it binds, built together so that each
/// `$n` has its value.
#[derive(Default)]
struct Built {
    sql: String,
    ints: Vec<(usize, i64)>,
    texts: Vec<(usize, String)>,
    count: usize,
}

impl Built {
    fn int(&mut self, v: i64) -> String {
        self.count += 1;
        self.ints.push((self.count, v));
        format!("${}", self.count)
    }

    fn text(&mut self, v: String) -> String {
        self.count += 1;
        self.texts.push((self.count, v));
        format!("${}", self.count)
    }

    /// `$a, $b, ...` for the collections.
    fn ints(&mut self, vs: &[i64]) -> String {
        vs.iter()
            .map(|&v| self.int(v))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The filter's conditions on `g`, each starting with ` AND`.
    fn filter(&mut self, f: &GameFilter, dialect: Dialect) -> String {
        let mut out = String::new();
        if let Some(c) = f.time_class {
            out += &format!(" AND g.time_class = {}", self.text(c.name().into()));
        }
        let avg = "(g.sente_rating + g.gote_rating) / 2";
        if let Some(r) = f.min_rating {
            out += &format!(" AND {avg} >= {}", self.int(r));
        }
        if let Some(r) = f.max_rating {
            out += &format!(" AND {avg} <= {}", self.int(r));
        }
        if f.since_ms.is_some() || f.until_ms.is_some() {
            // A period holds dated games only (month 0 of the count rows:
            // no date, `UNDATED_MS`, or none in the years 1 to 9999).
            let (first, end) = (self.int(calendar::FIRST_MS), self.int(calendar::END_MS));
            out += &format!(" AND g.played_at >= {first} AND g.played_at < {end}");
        }
        if let Some(t) = f.since_ms {
            out += &format!(" AND g.played_at >= {}", self.int(t));
        }
        if let Some(t) = f.until_ms {
            out += &format!(" AND g.played_at < {}", self.int(t));
        }
        let contains = |b: &mut Built, column: &str, part: String| {
            let p = b.text(part);
            match dialect {
                Dialect::Sqlite => format!(" AND instr({column}, {p}) > 0"),
                Dialect::Postgres => format!(" AND strpos({column}, {p}) > 0"),
            }
        };
        if let Some(p) = &f.player {
            out += &contains(self, "g.names", p.clone());
        }
        if let Some(e) = &f.event {
            out += &contains(self, "COALESCE(g.event, '')", e.clone());
        }
        if let Some(o) = f.outcome {
            out += &format!(" AND g.result = {}", self.text(o.name().into()));
        }
        if let Some(h) = &f.handicap {
            out += &format!(" AND g.handicap = {}", self.text(h.clone()));
        }
        if let Some(s) = &f.strategy {
            out += &contains(self, "g.strategy", format!(":{s} "));
        }
        out
    }

    fn query(&self) -> sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments<'_>> {
        let mut q = sqlx::query(&self.sql);
        let (mut i, mut t) = (0, 0);
        for n in 1..=self.count {
            if self.ints.get(i).is_some_and(|(k, _)| *k == n) {
                q = q.bind(self.ints[i].1);
                i += 1;
            } else {
                q = q.bind(self.texts[t].1.clone());
                t += 1;
            }
        }
        q
    }
}

/// A row of `explorer_counts` in its key's order: hash, collection,
/// month, time class, band, move.
type CountsKey = (i64, i64, i64, i64, i64, u16);

/// What reached a position before a batch of games is added.
#[derive(Clone, Copy, Debug)]
enum Before {
    /// One game: it has no count rows yet.
    Lone(GameAt),
    /// Two or more: their count rows are written.
    Shared,
}

/// A game at a position, as its count row needs it: the one game that
/// reached a position, or a game of the batch being added.
#[derive(Clone, Copy, Debug)]
struct GameAt {
    collection: i64,
    next: u16,
    outcome: Option<Outcome>,
    rating: Option<i64>,
    played_at_ms: i64,
    time_class: Option<TimeClass>,
}

impl GameAt {
    /// Read from a row of `collection_games` (`collection`, `result`, the
    /// ratings, `played_at`, `time_class`), with the move `next` it played.
    fn of_row(r: &AnyRow, next: u16) -> Result<GameAt, sqlx::Error> {
        let outcome: Option<String> = r.try_get("result")?;
        let class: Option<String> = r.try_get("time_class")?;
        let s: Option<i64> = r.try_get("sente_rating")?;
        let g: Option<i64> = r.try_get("gote_rating")?;
        Ok(GameAt {
            collection: r.try_get("collection")?,
            next,
            outcome: outcome.as_deref().and_then(Outcome::from_name),
            rating: s.zip(g).map(|(s, g)| i64::midpoint(s, g)),
            played_at_ms: r.try_get("played_at")?,
            time_class: class.as_deref().and_then(TimeClass::from_name),
        })
    }

    /// The key of its count row at the position keyed `hash`.
    fn key(&self, hash: i64) -> CountsKey {
        (
            hash,
            self.collection,
            month_of(self.played_at_ms),
            class_code(self.time_class),
            band_of(self.rating),
            self.next,
        )
    }

    /// Its counts when it is a game of `collections` in `slice`, as its
    /// count row would be summed.
    fn counts_in(&self, collections: &[i64], slice: &CountsSlice) -> Option<MoveCounts> {
        let counted = collections.contains(&self.collection)
            && slice.holds(
                month_of(self.played_at_ms),
                self.time_class,
                band_of(self.rating),
            );
        counted.then(|| {
            let mut c = MoveCounts::default();
            c.add_game_at(self);
            c
        })
    }
}

/// The most recent games through a position among which a list by rating
/// picks the highest-rated.
pub const RATED_WINDOW: i64 = 10_000;

/// The first key of the PostgreSQL advisory lock an addition to a
/// collection holds (see `rate_hits` and `tournaments` for the others).
const EXPLORER_LOCK_CLASS: i32 = 0x5347_5800;

/// Rows a statement of [`Store::add_to_collection`] writes at most.
const ROWS_PER_STATEMENT: usize = 256;

impl Store {
    /// Every collection `reader` may read (an account id; `None` for a
    /// guest), with its games, by name.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn readable_collections(
        &self,
        reader: Option<i64>,
    ) -> Result<Vec<Collection>, sqlx::Error> {
        self.readable(
            reader,
            "(SELECT COUNT(*) FROM collection_games g WHERE g.collection = c.id)",
        )
        .await
    }

    /// [`Store::readable_collections`] without counting their games (`games`
    /// is 0): what every explorer request asks, in time that does not grow
    /// with the games.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn readable_collections_uncounted(
        &self,
        reader: Option<i64>,
    ) -> Result<Vec<Collection>, sqlx::Error> {
        self.readable(reader, "0").await
    }

    async fn readable(
        &self,
        reader: Option<i64>,
        games: &'static str,
    ) -> Result<Vec<Collection>, sqlx::Error> {
        let sql = format!(
            "SELECT c.id, c.name, c.owner_user, c.tournament, c.visibility, \
                    {games} AS games \
             FROM collections c \
             WHERE c.visibility = 'public' OR c.owner_user = $1 \
                OR c.tournament IN (SELECT tournament FROM tournament_organisers WHERE user_id = $1) \
             ORDER BY c.name"
        );
        let rows = sqlx::query(&sql)
            .bind(reader.unwrap_or(-1))
            .fetch_all(&self.reader)
            .await?;
        rows.iter().map(Collection::of_row).collect()
    }

    /// The collection named `name`, whoever may read it.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn collection(&self, name: &str) -> Result<Option<Collection>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT c.id, c.name, c.owner_user, c.tournament, c.visibility, \
                    (SELECT COUNT(*) FROM collection_games g WHERE g.collection = c.id) AS games \
             FROM collections c WHERE c.name = $1",
        )
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(Collection::of_row).transpose()
    }

    /// Makes a collection (its name must be new); answers its id, or `None`
    /// when the name is taken.
    ///
    /// # Errors
    /// The database refused the statement.
    pub async fn create_collection(
        &self,
        name: &str,
        owner_user: Option<i64>,
        tournament: Option<&str>,
        privacy: Privacy,
        now_ms: i64,
    ) -> Result<Option<i64>, sqlx::Error> {
        let row = sqlx::query(
            "INSERT INTO collections (name, owner_user, tournament, visibility, created_at) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name) DO NOTHING RETURNING id",
        )
        .bind(name)
        .bind(owner_user)
        .bind(tournament)
        .bind(privacy.name())
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| r.try_get("id")).transpose()
    }

    /// Gives collection `id` to account `user`.
    ///
    /// # Errors
    /// The database refused the statement.
    pub async fn set_collection_owner(&self, id: i64, user: i64) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE collections SET owner_user = $1 WHERE id = $2")
            .bind(user)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Whether account `user` organises event `tournament`.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn organises(&self, user: i64, tournament: &str) -> Result<bool, sqlx::Error> {
        let row = sqlx::query(
            "SELECT 1 AS yes FROM tournament_organisers WHERE user_id = $1 AND tournament = $2",
        )
        .bind(user)
        .bind(tournament)
        .fetch_optional(&self.reader)
        .await?;
        Ok(row.is_some())
    }

    /// Adds `entries` to collection `collection` in one transaction: each
    /// game, its positions and its counts; a game whose dedupe key (or id)
    /// the collection has already is skipped. With `played_here`, the
    /// entries are games of the `games` table, marked explored in the same
    /// transaction. Answers how many were added.
    ///
    /// # Errors
    /// The database refused a statement (nothing is then written).
    pub async fn add_to_collection(
        &self,
        collection: i64,
        entries: &[Entry],
        played_here: bool,
    ) -> Result<usize, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        if self.dialect == Dialect::Postgres {
            // One import at a time: each counts on the positions the others
            // wrote before it (`reached_before`). SQLite writes one
            // transaction at a time anyway.
            sqlx::query("SELECT 1 FROM pg_advisory_xact_lock($1, 0)")
                .bind(EXPLORER_LOCK_CLASS)
                .execute(&mut *tx)
                .await?;
        }
        let mut added: Vec<(i64, &Entry)> = Vec::with_capacity(entries.len());
        for e in entries {
            let row = sqlx::query(
                "INSERT INTO collection_games (id, collection, source, start_sfen, sente, gote, \
                     names, sente_rating, gote_rating, result, played_at, time_class, handicap, \
                     event, strategy, plies, dedupe) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) \
                 ON CONFLICT DO NOTHING RETURNING n",
            )
            .bind(&e.id)
            .bind(collection)
            .bind(e.source.as_deref())
            .bind(&e.start_sfen)
            .bind(e.sente.as_deref())
            .bind(e.gote.as_deref())
            .bind(e.names())
            .bind(e.sente_rating)
            .bind(e.gote_rating)
            .bind(e.outcome.map(Outcome::name))
            .bind(e.played_at_ms)
            .bind(e.time_class.map(TimeClass::name))
            .bind(&e.handicap)
            .bind(e.event.as_deref())
            .bind(&e.strategy)
            .bind(i64::from(e.plies))
            .bind(e.dedupe)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(r) = row {
                added.push((r.try_get("n")?, e));
            }
            if played_here {
                sqlx::query("UPDATE games SET explored = $1 WHERE id = $2")
                    .bind(true)
                    .bind(&e.id)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        // Which positions other games reached before (before this batch's
        // rows are written): a position gets count rows from its second game.
        let mut hashes: Vec<i64> = added
            .iter()
            .flat_map(|(_, e)| e.positions.iter().map(|p| p.hash.cast_signed()))
            .collect();
        hashes.sort_unstable();
        hashes.dedup();
        let before = self.reached_before(&mut tx, &hashes).await?;
        // Positions, five values a row.
        // In key order, so that consecutive rows land on the same pages.
        let mut rows: Vec<(i64, i64, i64, i64, i64)> = added
            .iter()
            .flat_map(|(n, e)| {
                e.positions.iter().map(move |p| {
                    (
                        p.hash.cast_signed(),
                        e.played_at_ms,
                        *n,
                        i64::from(p.ply),
                        i64::from(p.next),
                    )
                })
            })
            .collect();
        rows.sort_unstable();
        for big in rows.chunks(ROWS_PER_STATEMENT) {
            for chunk in in_chunks(big) {
                let sql = self.dialect.values_sql(
                    "INSERT INTO explorer_positions (hash, played_at, game, ply, next) VALUES ",
                    5,
                    chunk.len(),
                    " ON CONFLICT DO NOTHING",
                );
                let mut q = sqlx::query(&sql);
                for &(h, t, g, p, m) in chunk {
                    q = q.bind(h).bind(t).bind(g).bind(p).bind(m);
                }
                q.execute(&mut *tx).await?;
            }
        }
        self.add_counts(&mut tx, collection, &added, &before)
            .await?;
        tx.commit().await?;
        Ok(added.len())
    }

    /// The games that reached each of `hashes` (sorted) before: the lone
    /// game of a position one game reached, [`Before::Shared`] for one two
    /// or more reached; a position no game reached is left out.
    async fn reached_before(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        hashes: &[i64],
    ) -> Result<HashMap<i64, Before>, sqlx::Error> {
        let mut before = HashMap::new();
        let mut lone = Vec::new();
        for big in hashes.chunks(ROWS_PER_STATEMENT) {
            for chunk in in_chunks(big) {
                // Each position's games counted up to two, by its key.
                let sql = self.dialect.values_sql(
                    "WITH v (h) AS (VALUES ",
                    1,
                    chunk.len(),
                    ") SELECT v.h AS hash, (SELECT COUNT(*) FROM (SELECT 1 FROM \
                       explorer_positions p WHERE p.hash = v.h LIMIT 2) AS x) AS k FROM v",
                );
                let mut q = sqlx::query(&sql);
                for &h in chunk {
                    q = q.bind(h);
                }
                for r in q.fetch_all(&mut **tx).await? {
                    let (h, k): (i64, i64) = (r.try_get("hash")?, r.try_get("k")?);
                    match k {
                        0 => {}
                        1 => lone.push(h),
                        _ => {
                            before.insert(h, Before::Shared);
                        }
                    }
                }
            }
        }
        // The lone games' rows, then the games. Each value is looked up
        // by its own correlated subquery, so that the lookups go through
        // the primary keys whatever the planner's statistics say: written
        // as a join or with `IN`, PostgreSQL read the whole table for each
        // chunk in the middle of an import (statistics of the tables as
        // they were before it), 126-183 ms a chunk.
        let mut rows: Vec<(i64, i64, u16)> = Vec::with_capacity(lone.len());
        for big in lone.chunks(ROWS_PER_STATEMENT) {
            for chunk in in_chunks(big) {
                let sql = self.dialect.values_sql(
                    "WITH v (h) AS (VALUES ",
                    1,
                    chunk.len(),
                    ") SELECT v.h AS hash, \
                       (SELECT p.game FROM explorer_positions p WHERE p.hash = v.h LIMIT 1) AS game, \
                       (SELECT p.next FROM explorer_positions p WHERE p.hash = v.h LIMIT 1) AS next \
                     FROM v",
                );
                let mut q = sqlx::query(&sql);
                for &h in chunk {
                    q = q.bind(h);
                }
                for r in q.fetch_all(&mut **tx).await? {
                    rows.push((r.try_get("hash")?, r.try_get("game")?, next_move(&r)?));
                }
            }
        }
        let mut ns: Vec<i64> = rows.iter().map(|&(_, n, _)| n).collect();
        ns.sort_unstable();
        ns.dedup();
        let mut games = HashMap::new();
        for big in ns.chunks(ROWS_PER_STATEMENT) {
            for chunk in in_chunks(big) {
                let column = |c: &str| {
                    format!("(SELECT g.{c} FROM collection_games g WHERE g.n = v.n) AS {c}")
                };
                let tail = format!(
                    ") SELECT v.n AS n, {} FROM v",
                    [
                        "collection",
                        "result",
                        "sente_rating",
                        "gote_rating",
                        "played_at",
                        "time_class",
                    ]
                    .map(column)
                    .join(", ")
                );
                let sql = self
                    .dialect
                    .values_sql("WITH v (n) AS (VALUES ", 1, chunk.len(), &tail);
                let mut q = sqlx::query(&sql);
                for &n in chunk {
                    q = q.bind(n);
                }
                for r in q.fetch_all(&mut **tx).await? {
                    games.insert(r.try_get::<i64, _>("n")?, GameAt::of_row(&r, 0)?);
                }
            }
        }
        for (h, n, next) in rows {
            if let Some(&g) = games.get(&n) {
                before.insert(h, Before::Lone(GameAt { next, ..g }));
            }
        }
        Ok(before)
    }

    /// Adds the games `added` (numbered) to `collection`'s count rows, for
    /// the positions two or more games have reached with them (`before`:
    /// what [`Store::reached_before`] found), and the lone game of a
    /// position one game reached before to its own collection's.
    async fn add_counts(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        collection: i64,
        added: &[(i64, &Entry)],
        before: &HashMap<i64, Before>,
    ) -> Result<(), sqlx::Error> {
        let mut here: HashMap<i64, u32> = HashMap::new();
        for (_, e) in added {
            for p in &e.positions {
                *here.entry(p.hash.cast_signed()).or_default() += 1;
            }
        }
        // Counts, summed over the batch first, by month, time class and band.
        let mut counts: HashMap<CountsKey, MoveCounts> = HashMap::new();
        let mut add = |hash: i64, g: &GameAt| counts.entry(g.key(hash)).or_default().add_game_at(g);
        for (_, e) in added {
            for p in &e.positions {
                let h = p.hash.cast_signed();
                if here[&h] >= 2 || before.contains_key(&h) {
                    let g = GameAt {
                        collection,
                        next: p.next,
                        outcome: e.outcome,
                        rating: e.average_rating(),
                        played_at_ms: e.played_at_ms,
                        time_class: e.time_class,
                    };
                    add(h, &g);
                }
            }
        }
        for (&h, b) in before {
            if let Before::Lone(g) = b {
                add(h, g);
            }
        }
        let mut counts: Vec<(CountsKey, MoveCounts)> = counts.into_iter().collect();
        counts.sort_unstable_by_key(|(k, _)| *k);
        for big in counts.chunks(ROWS_PER_STATEMENT / 2) {
            for chunk in in_chunks(big) {
                let sql = self.dialect.values_sql(
                    "INSERT INTO explorer_counts (hash, collection, month, time_class, band, \
                         next, games, sente_wins, gote_wins, draws, rating_sum, rated_games, \
                         last_played) VALUES ",
                    13,
                    chunk.len(),
                    " ON CONFLICT (hash, collection, month, time_class, band, next) DO UPDATE SET \
                       games = explorer_counts.games + excluded.games, \
                       sente_wins = explorer_counts.sente_wins + excluded.sente_wins, \
                       gote_wins = explorer_counts.gote_wins + excluded.gote_wins, \
                       draws = explorer_counts.draws + excluded.draws, \
                       rating_sum = explorer_counts.rating_sum + excluded.rating_sum, \
                       rated_games = explorer_counts.rated_games + excluded.rated_games, \
                       last_played = CASE WHEN excluded.last_played > explorer_counts.last_played \
                           THEN excluded.last_played ELSE explorer_counts.last_played END",
                );
                let mut q = sqlx::query(&sql);
                for &((h, collection, month, class, band, next), c) in chunk {
                    q = q
                        .bind(h)
                        .bind(collection)
                        .bind(month)
                        .bind(class)
                        .bind(band)
                        .bind(i64::from(next))
                        .bind(count(c.games))
                        .bind(count(c.sente_wins))
                        .bind(count(c.gote_wins))
                        .bind(count(c.draws))
                        .bind(c.rating_sum)
                        .bind(count(c.rated))
                        .bind(c.last_played_ms);
                }
                q.execute(&mut **tx).await?;
            }
        }
        Ok(())
    }

    /// At most `limit` finished games not yet in the `site` collection.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn games_to_explore(&self, limit: i64) -> Result<Vec<String>, sqlx::Error> {
        let sql = match self.dialect {
            Dialect::Sqlite => {
                "SELECT id FROM games WHERE over AND explored = 0 ORDER BY id LIMIT $1"
            }
            Dialect::Postgres => {
                "SELECT id FROM games WHERE over AND NOT explored ORDER BY id LIMIT $1"
            }
        };
        let rows = sqlx::query(sql).bind(limit).fetch_all(&self.pool).await?;
        rows.iter().map(|r| r.try_get("id")).collect()
    }

    /// Marks game `id` explored without adding it (a game that no longer loads).
    ///
    /// # Errors
    /// The database refused the statement.
    pub async fn skip_exploring(&self, id: &str) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE games SET explored = $1 WHERE id = $2")
            .bind(true)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The counts of every move from the position keyed `hash` over the
    /// games of `collections` that pass `filter`: summed from the count
    /// rows when the filter keeps to a [`CountsSlice`] and two or more games
    /// reached the position, else counted game by game.
    ///
    /// # Errors
    /// The database refused a query.
    pub async fn explorer_counts(
        &self,
        hash: u64,
        collections: &[i64],
        filter: &GameFilter,
    ) -> Result<Vec<MoveCounts>, sqlx::Error> {
        if collections.is_empty() {
            return Ok(Vec::new());
        }
        if let Some(slice) = CountsSlice::of(filter) {
            let counts = self.summed_counts(hash, collections, &slice).await?;
            if !counts.is_empty() {
                return Ok(counts);
            }
            // A position only one game reached has no count rows: its game
            // is counted here. One two games reached has them for every
            // game: read again, in case the second game's import committed
            // between the two queries.
            let reached = self.first_two_through(hash).await?;
            return match reached.as_slice() {
                [] => Ok(Vec::new()),
                [g] => Ok(g.counts_in(collections, &slice).into_iter().collect()),
                _ => self.summed_counts(hash, collections, &slice).await,
            };
        }
        self.counted_one_by_one(hash, collections, filter).await
    }

    /// Two of the games (of any collection) through the position keyed
    /// `hash`: fewer when fewer reached it.
    async fn first_two_through(&self, hash: u64) -> Result<Vec<GameAt>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT p.next, g.collection, g.result, g.sente_rating, g.gote_rating, \
                 g.played_at, g.time_class \
             FROM explorer_positions p JOIN collection_games g ON g.n = p.game \
             WHERE p.hash = $1 LIMIT 2",
        )
        .bind(hash.cast_signed())
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|r| GameAt::of_row(r, next_move(r)?))
            .collect()
    }

    /// The counts of every move from the position keyed `hash` over the
    /// games of `collections` in `slice`, summed over the collections,
    /// months, time classes and bands of its count rows.
    async fn summed_counts(
        &self,
        hash: u64,
        collections: &[i64],
        slice: &CountsSlice,
    ) -> Result<Vec<MoveCounts>, sqlx::Error> {
        let mut b = Built::default();
        let h = b.int(hash.cast_signed());
        let cs = b.ints(collections);
        let mut within = String::new();
        if slice.since_month.is_some() || slice.until_month.is_some() {
            // Month 0: games without a date, which no period holds.
            within += " AND month > 0";
        }
        if let Some(m) = slice.since_month {
            within += &format!(" AND month >= {}", b.int(m));
        }
        if let Some(m) = slice.until_month {
            within += &format!(" AND month < {}", b.int(m));
        }
        if let Some(c) = slice.time_class {
            within += &format!(" AND time_class = {}", b.int(class_code(Some(c))));
        }
        if let Some(lo) = slice.min_band {
            within += &format!(" AND band >= {}", b.int(lo));
        }
        if let Some(hi) = slice.max_band {
            within += &format!(" AND band <= {} AND band <> -1", b.int(hi));
        }
        // SUM is NUMERIC on PostgreSQL: each sum is cast back.
        let sum = |c: &str| format!("CAST(SUM({c}) AS BIGINT) AS {c}");
        b.sql = format!(
            "SELECT next, {}, {}, {}, {}, {}, {}, MAX(last_played) AS last_played \
             FROM explorer_counts WHERE hash = {h} AND collection IN ({cs}){within} \
             GROUP BY next",
            sum("games"),
            sum("sente_wins"),
            sum("gote_wins"),
            sum("draws"),
            sum("rating_sum"),
            sum("rated_games"),
        );
        let rows = b.query().fetch_all(&self.reader).await?;
        rows.iter()
            .map(|r| {
                Ok(MoveCounts {
                    next: next_move(r)?,
                    games: super::store::to_u64(r.try_get("games")?),
                    sente_wins: super::store::to_u64(r.try_get("sente_wins")?),
                    gote_wins: super::store::to_u64(r.try_get("gote_wins")?),
                    draws: super::store::to_u64(r.try_get("draws")?),
                    rating_sum: r.try_get("rating_sum")?,
                    rated: super::store::to_u64(r.try_get("rated_games")?),
                    last_played_ms: r.try_get("last_played")?,
                })
            })
            .collect()
    }

    /// The counts of every move from the position keyed `hash` over the
    /// games of `collections` that pass `filter`, counted game by game.
    async fn counted_one_by_one(
        &self,
        hash: u64,
        collections: &[i64],
        filter: &GameFilter,
    ) -> Result<Vec<MoveCounts>, sqlx::Error> {
        let mut b = Built::default();
        let h = b.int(hash.cast_signed());
        let cs = b.ints(collections);
        let f = b.filter(filter, self.dialect);
        b.sql = format!(
            "SELECT p.next, g.collection, g.result, g.sente_rating, g.gote_rating, \
                 g.played_at, g.time_class \
             FROM explorer_positions p JOIN collection_games g ON g.n = p.game \
             WHERE p.hash = {h} AND g.collection IN ({cs}){f}"
        );
        let rows = b.query().fetch_all(&self.reader).await?;
        let mut by_move: HashMap<u16, MoveCounts> = HashMap::new();
        for r in &rows {
            let g = GameAt::of_row(r, next_move(r)?)?;
            by_move.entry(g.next).or_default().add_game_at(&g);
        }
        Ok(by_move.into_values().collect())
    }

    /// A page of the games of `collections` that reached the position keyed
    /// `hash` (any position when `None`) and pass `filter`, in `order`.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn list_games(
        &self,
        hash: Option<u64>,
        collections: &[i64],
        filter: &GameFilter,
        order: Order,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<Listed>, sqlx::Error> {
        if collections.is_empty() {
            return Ok(Vec::new());
        }
        let mut b = Built::default();
        let cs = b.ints(collections);
        let f = b.filter(filter, self.dialect);
        let order_sql = |dated: &str| match order {
            Order::Recent => format!("{dated}.played_at DESC, g.n DESC"),
            Order::Rating => format!(
                "CASE WHEN g.sente_rating IS NULL OR g.gote_rating IS NULL THEN 1 ELSE 0 END, \
                 (g.sente_rating + g.gote_rating) DESC, {dated}.played_at DESC, g.n DESC"
            ),
        };
        b.sql = match hash {
            None => format!(
                "SELECT {LISTED_COLUMNS} FROM collection_games g \
                 WHERE g.collection IN ({cs}){f} ORDER BY {}",
                order_sql("g")
            ),
            // The most recent first: the position's range of the key, read
            // backwards, stops after the page whatever the games through it.
            Some(h) if order == Order::Recent => {
                let h = b.int(h.cast_signed());
                format!(
                    "SELECT {LISTED_COLUMNS}, p.ply, p.next FROM explorer_positions p \
                     JOIN collection_games g ON g.n = p.game \
                     WHERE p.hash = {h} AND g.collection IN ({cs}){f} ORDER BY {}",
                    order_sql("p").replace("g.n DESC", "p.game DESC")
                )
            }
            // The highest-rated of the most recent RATED_WINDOW games through
            // it: the same backward read, stopped after the window, so that
            // the start position of a large collection sorts a bounded list.
            Some(h) => {
                let h = b.int(h.cast_signed());
                let window = b.int(RATED_WINDOW);
                format!(
                    "SELECT {LISTED_COLUMNS}, r.ply, r.next FROM \
                     (SELECT p.played_at, p.game, p.ply, p.next FROM explorer_positions p \
                      JOIN collection_games g ON g.n = p.game \
                      WHERE p.hash = {h} AND g.collection IN ({cs}){f} \
                      ORDER BY p.played_at DESC, p.game DESC LIMIT {window}) r \
                     JOIN collection_games g ON g.n = r.game ORDER BY {}",
                    order_sql("r").replace("g.n DESC", "r.game DESC")
                )
            }
        };
        let lim = b.int(limit);
        let off = b.int(offset);
        b.sql += &format!(" LIMIT {lim} OFFSET {off}");
        let rows = b.query().fetch_all(&self.reader).await?;
        rows.iter().map(|r| listed(r, hash.is_some())).collect()
    }

    /// The id of the first game of `collections` numbered `n` or above (the
    /// games' compact numbers, `collection_games.n`): a game picked at
    /// random by its number, one index seek however large the collection
    /// (the explorer's benchmark).
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn collection_game_from(
        &self,
        n: i64,
        collections: &[i64],
    ) -> Result<Option<String>, sqlx::Error> {
        if collections.is_empty() {
            return Ok(None);
        }
        let mut b = Built::default();
        let from = b.int(n);
        let cs = b.ints(collections);
        b.sql = format!(
            "SELECT id FROM collection_games WHERE n >= {from} AND collection IN ({cs}) \
             ORDER BY n LIMIT 1"
        );
        let row = b.query().fetch_optional(&self.reader).await?;
        row.map(|r| r.try_get("id")).transpose()
    }

    /// The collection game `id`: its collection and its record file.
    ///
    /// # Errors
    /// The database refused the query, or the stored file does not inflate.
    pub async fn collection_entry(&self, id: &str) -> Result<Option<StoredEntry>, sqlx::Error> {
        let row = sqlx::query("SELECT collection, source FROM collection_games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.reader)
            .await?;
        let Some(r) = row else { return Ok(None) };
        let source: Option<Vec<u8>> = r.try_get("source")?;
        let source = match source {
            Some(packed) => Some(
                inflate(&packed)
                    .ok_or_else(|| super::store::corrupt(format!("game {id}: bad deflate data")))?,
            ),
            None => None,
        };
        Ok(Some(StoredEntry {
            collection: r.try_get("collection")?,
            source,
        }))
    }

    /// The last `limit` finished games account `user` played here, newest
    /// first: each game's id and whether the account was Sente.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn recent_games_of(
        &self,
        user: i64,
        limit: i64,
    ) -> Result<Vec<(String, bool)>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT id, sente_user FROM games \
             WHERE over AND (sente_user = $1 OR gote_user = $1) \
             ORDER BY created_at DESC LIMIT $2",
        )
        .bind(user)
        .bind(limit)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|r| {
                let sente: Option<i64> = r.try_get("sente_user")?;
                Ok((r.try_get("id")?, sente == Some(user)))
            })
            .collect()
    }

    /// The sizes `shogi db stats` prints.
    ///
    /// # Errors
    /// The database refused a query.
    pub async fn explorer_stats(&self) -> Result<Stats, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT c.id, c.name, c.owner_user, c.tournament, c.visibility, \
                    (SELECT COUNT(*) FROM collection_games g WHERE g.collection = c.id) AS games \
             FROM collections c ORDER BY c.name",
        )
        .fetch_all(&self.reader)
        .await?;
        let collections = rows
            .iter()
            .map(Collection::of_row)
            .collect::<Result<Vec<_>, _>>()?;
        let one = |sql: &'static str| async move {
            let r = sqlx::query(sql).fetch_one(&self.reader).await?;
            Ok::<u64, sqlx::Error>(super::store::to_u64(
                r.try_get::<Option<i64>, _>(0)?.unwrap_or(0),
            ))
        };
        let database_bytes = match self.dialect {
            Dialect::Sqlite => {
                one("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")
                    .await?
            }
            Dialect::Postgres => one("SELECT pg_database_size(current_database())").await?,
        };
        let source_bytes = match self.dialect {
            Dialect::Sqlite => one("SELECT SUM(length(source)) FROM collection_games").await?,
            Dialect::Postgres => {
                one("SELECT SUM(octet_length(source))::BIGINT FROM collection_games").await?
            }
        };
        Ok(Stats {
            games: collections.iter().map(|c| c.games).sum(),
            collections,
            positions: one("SELECT COUNT(*) FROM explorer_positions").await?,
            move_rows: one("SELECT COUNT(*) FROM explorer_counts").await?,
            source_bytes,
            database_bytes,
        })
    }
}

/// A count as the database's integer.
fn count(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games from before 1970 have negative times: the last one is still theirs, not the epoch.
    #[test]
    fn last_played_before_1970_is_the_latest_game() {
        let (y1709, y1711) = (-8_200_000_000_000, -8_140_000_000_000);
        let mut c = MoveCounts::default();
        c.add_game(None, None, y1709);
        c.add_game(None, None, y1711);
        assert_eq!(c.last_played_ms, y1711);
    }
}
