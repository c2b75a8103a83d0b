//! Records of games: a game played here becomes a [`shogi_record::Record`]
//! built from its stored moves, times and ending; an imported record keeps
//! the uploaded bytes and is read again with the same reader whenever it is
//! used. Either gets its saved annotations laid over it. Also the record's
//! JSON (`format=json`, `POST /api/import`), the import itself and the
//! positions that board pictures show.

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};

use serde_json::{json, Value};
use shogi_core::{ByColor, Color, Ending, Foul, Handicap, IllegalMove, Move, Position};
use shogi_record::{Node, Record};

use crate::calendar::{civil_from_days, days_from_civil, DAY_MS};
use crate::db::players::SeatPlayer;
use crate::db::records::{Duplicate, NewRecord, Visibility};
use crate::db::{Store, StoredGame};
use crate::error::{Error, Problem};
use crate::game::clock::TimeControl;
use crate::game::{reason_word, rule_code, Side, StartChoice};
use crate::games::view::NoteView;
use crate::review::annotations::{self, MainLine};
use crate::time::unix_ms;
use crate::token;

/// The largest record file accepted by `POST /api/import`.
pub const MAX_IMPORT_BYTES: usize = 1024 * 1024;
/// The most moves a picture's `moves=` line may have.
pub const MAX_DIAGRAM_MOVES: usize = 2000;

/// A record as the review reads it.
#[derive(Clone, Debug)]
pub struct Review {
    /// The record, with saved annotations laid over it.
    pub record: Record,
    /// How the game ended, for a game played here (records tell their own).
    pub ending: Option<Ending>,
    /// When a game played here started (Unix milliseconds); records tell their own date.
    pub played_at_ms: Option<i64>,
    /// Whether annotations may change the main line (imported records only).
    pub main_line: MainLine,
    /// A game played here: the programs' notes on their moves, read from
    /// the comments stored with them (empty for records).
    pub notes: Vec<NoteView>,
    /// A game played here: which sides a program's account played.
    pub bots: ByColor<bool>,
}

/// `YYYY/MM/DD HH:MM:SS` (UTC) of Unix milliseconds.
fn date_text(ms: u64) -> String {
    let secs = ms / 1000;
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(i64::try_from(secs / 86_400).unwrap_or(0));
    format!(
        "{year:04}/{month:02}/{day:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The text with full-width digits (`２０２４`) as ASCII ones.
fn ascii_digits(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '０'..='９' => {
                char::from_u32(u32::from(c) - u32::from('０') + u32::from('0')).unwrap_or(c)
            }
            '＋' => '+',
            _ => c,
        })
        .collect()
}

/// The date at the start of a header's date text: `2024/01/05 10:00:00`,
/// `2024-01-05`, `2024/01/05(金) 10:00`, `2025年3月2日（日）`, `1709/11/08`;
/// `(year, month, day)`, or `None` when it does not start with a real date.
#[must_use]
pub fn parse_header_date(text: &str) -> Option<(i64, u32, u32)> {
    let text = ascii_digits(text.trim());
    let mut nums = [0_u32; 3];
    let mut rest = text.as_str();
    for (i, n) in nums.iter_mut().enumerate() {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 || digits > if i == 0 { 4 } else { 2 } {
            return None;
        }
        *n = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        if i < 2 {
            let sep = rest.chars().next()?;
            if !matches!(sep, '/' | '-' | '.' | '年' | '月') {
                return None;
            }
            rest = &rest[sep.len_utf8()..];
        }
    }
    let [year, month, day] = nums;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if year < 1000
        || day == 0
        || day > days_in_month
        || rest.starts_with(|c: char| c.is_ascii_digit())
    {
        return None;
    }
    Some((i64::from(year), month, day))
}

/// The day a record's header says its game was played (開始日時, CSA
/// `$START_TIME`, else KIF 対局日 or 日時): Unix milliseconds of that day's
/// midnight UTC (the header's clock time and zone are not kept).
#[must_use]
pub fn played_at_ms(rec: &Record) -> Option<i64> {
    let h = &rec.headers;
    let others = h
        .other
        .iter()
        .filter(|(k, _)| k == "対局日" || k == "日時")
        .map(|(_, v)| v.as_str());
    let (y, m, d) = h
        .start_time
        .as_deref()
        .into_iter()
        .chain(others)
        .find_map(parse_header_date)?;
    Some(days_from_civil(y, m, d) * DAY_MS)
}

/// A KIF 持ち時間 text in words as the common writers put it: `各30分`,
/// `4時間`, `各1時間30分`, `30分+30秒`, `各10分、秒読み30秒`; a time after
/// `+` or 秒読み is byoyomi, unless the text says it is added per move
/// (`加算`, `フィッシャー`). `None` without a number and a unit.
#[must_use]
pub fn parse_kif_time(text: &str) -> Option<shogi_record::TimeControl> {
    let text = ascii_digits(text);
    if let Some(tc) = shogi_record::TimeControl::parse_plus(&text) {
        return Some(tc);
    }
    let split = ["秒読み", "+", "フィッシャー", "加算", "1手"]
        .iter()
        .filter_map(|m| text.find(m))
        .min()
        .unwrap_or(text.len());
    let (main_text, extra_text) = text.split_at(split);
    // Sums `<n>時間`, `<n>分`, `<n>秒`; `None` when there is no such pair.
    let seconds = |s: &str| -> Option<u32> {
        let mut total: Option<u32> = None;
        let mut rest = s;
        while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
            let after = &rest[start..];
            let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let n: u32 = after[..digits].parse().ok()?;
            let unit = after[digits..].trim_start();
            let scale = [("時間", 3600), ("分", 60), ("秒", 1)]
                .iter()
                .find(|(u, _)| unit.starts_with(u))
                .map(|&(_, s)| s);
            if let Some(scale) = scale {
                total = Some(total.unwrap_or(0).saturating_add(n.saturating_mul(scale)));
            }
            rest = &after[digits..];
        }
        total
    };
    let main = seconds(main_text);
    let extra = seconds(extra_text);
    if main.is_none() && extra.is_none() {
        return None;
    }
    let added = ["フィッシャー", "加算", "1手"]
        .iter()
        .any(|m| extra_text.contains(m));
    let extra = extra.unwrap_or(0);
    Some(shogi_record::TimeControl {
        main: main.unwrap_or(0),
        byoyomi: if added { 0 } else { extra },
        increment: if added { extra } else { 0 },
    })
}

/// A record's time control: the one its reader understood, else its KIF
/// 持ち時間 in words ([`parse_kif_time`]).
#[must_use]
pub fn record_time(rec: &Record) -> Option<TimeControl> {
    let tc = rec.headers.time_control.or_else(|| {
        rec.headers
            .other
            .iter()
            .find(|(k, _)| k == "持ち時間")
            .and_then(|(_, v)| parse_kif_time(v))
    })?;
    Some(TimeControl {
        main_ms: u64::from(tc.main) * 1000,
        byoyomi_ms: u64::from(tc.byoyomi) * 1000,
        periods: 1,
        increment_ms: u64::from(tc.increment) * 1000,
    })
}

/// `YYYY-MM-DD` of the day a played-at time falls on (UTC).
pub(crate) fn iso_day(ms: i64) -> String {
    let (year, month, day) = civil_from_days(ms.div_euclid(DAY_MS));
    format!("{year:04}-{month:02}-{day:02}")
}

/// The record's ending for a game that ended (or not) with `e`.
fn record_ending(e: Option<Ending>) -> shogi_record::Ending {
    e.map_or(shogi_record::Ending::None, shogi_record::Ending::Game)
}

/// The winner and the protocol's word for a record's own ending: a game
/// ending speaks for itself; the record-only states have words of their own.
fn record_summary(rec: &Record) -> (Option<Side>, Option<&'static str>) {
    use shogi_record::Ending as R;
    let reason = match rec.ending {
        R::None => None,
        R::Game(e) => Some(reason_word(e)),
        R::Matta => Some("illegal_move"),
        R::NoMate => Some("nomate"),
        R::Sealed => Some("sealed"),
        R::Error => Some("error"),
    };
    (rec.loser().map(|l| Side::from(l.opponent())), reason)
}

/// Whether a review is of an imported record (its main line may change).
fn base_is_import(review: &Review) -> bool {
    review.main_line == MainLine::Free
}

/// The winner and the protocol's word for the ending of a review: the
/// game's own [`Ending`] for a game played here, the record's otherwise.
#[must_use]
pub fn summary(review: &Review) -> (Option<Side>, Option<&'static str>) {
    match review.ending {
        Some(e) => (e.winner().map(Side::from), Some(reason_word(e))),
        None => record_summary(&review.record),
    }
}

/// Full-width digits, as KIF writes files.
const FULL_WIDTH_DIGITS: [char; 10] = ['０', '１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The comment a record ends with when an illegal move lost the game (the
/// move itself is not written): `反則: 二歩（７筋）`, `反則: 打ち歩詰め`,
/// with the protocol's rule code after the Japanese words for other readers.
#[must_use]
pub fn foul_comment(mv: Move, reason: IllegalMove) -> String {
    let words = match reason {
        IllegalMove::Nifu(file) => {
            let digit = FULL_WIDTH_DIGITS[usize::from(file.number() % 10)];
            format!("二歩（{digit}筋）")
        }
        IllegalMove::PawnDropMate => "打ち歩詰め".to_owned(),
        IllegalMove::LeavesKingInCheck => "王手放置".to_owned(),
        IllegalMove::DeadDrop { .. } | IllegalMove::MustPromote(_) => "行き所のない駒".to_owned(),
        IllegalMove::CannotPromote => "成れない駒の成り".to_owned(),
        _ => "駒の動きの誤り".to_owned(),
    };
    format!("反則: {words} {mv} ({})", rule_code(reason))
}

/// The record of a stored game.
pub(crate) fn game_record(g: &StoredGame) -> Record {
    let mut rec = Record::new(g.start.clone());
    rec.headers.start_time = Some(date_text(g.created_at_ms));
    rec.headers.handicap = Handicap::from_position(&g.start);
    let name = |c: Color| g.players.seats[c].as_ref().map(SeatPlayer::record_name);
    rec.headers.sente = name(Color::Sente);
    rec.headers.gote = name(Color::Gote);
    if let Some(ai) = g.settings.ai {
        let name = Some(format!("AI {}", ai.level));
        match ai.side {
            Side::Sente => rec.headers.sente = name,
            Side::Gote => rec.headers.gote = name,
        }
    }
    if let Some(tc) = g.settings.time {
        let secs = |ms: u64| u32::try_from(ms / 1000).unwrap_or(u32::MAX);
        rec.headers.time_control = Some(shogi_record::TimeControl {
            main: secs(tc.main_ms),
            byoyomi: secs(tc.byoyomi_ms),
            increment: secs(tc.increment_ms),
        });
    }
    let mut pos = g.start.clone();
    for (i, &mv) in g.moves.iter().enumerate() {
        if !pos.is_legal(mv) {
            // An illegal move that lost the game ("lose" rule): the record stops before it.
            break;
        }
        pos.make_move(mv);
        let mut node = Node::new(mv);
        node.time = g
            .used_ms
            .get(i)
            .map(|&ms| u32::try_from(ms / 1000).unwrap_or(u32::MAX));
        if let Some(Some(c)) = g.comments.get(i) {
            node.comments.push(c.clone());
        }
        rec.moves.push(node);
    }
    if let Some(Ending::Foul {
        foul: Foul::Move { mv, reason },
        ..
    }) = g.ending
    {
        let comment = foul_comment(mv, reason);
        match rec.moves.last_mut() {
            Some(last) => last.comments.push(comment),
            None => rec.start_comments.push(comment),
        }
    }
    rec.ending = record_ending(g.ending);
    rec
}

/// The programs' notes on the moves of a stored game, by ply, from the
/// comments stored with the moves (the same as its room shows).
fn game_notes(g: &StoredGame) -> Vec<NoteView> {
    let mut pos = g.start.clone();
    let mut notes = Vec::new();
    for (i, &mv) in g.moves.iter().enumerate() {
        if let Some(Some(comment)) = g.comments.get(i) {
            let ply = u32::try_from(i + 1).unwrap_or(u32::MAX);
            notes.extend(NoteView::read(ply, comment, &pos, mv));
        }
        if pos.play(mv).is_err() {
            // An illegal move that lost the game is the last one.
            break;
        }
    }
    notes
}

/// The record of a game or an imported record, with its saved annotations
/// (comments and variations) if any, as `reader` (an account id, `None` for
/// a guest) may read it.
///
/// # Errors
/// [`Error::NotFound`] when `id` is neither, or is a private record of
/// another account (so that its existence does not leak); database errors.
pub async fn load(store: &Store, id: &str, reader: Option<i64>) -> Result<Review, Error> {
    let base = unannotated(store, id, reader).await?;
    let Some(ann) = store.annotations(id).await? else {
        return Ok(base);
    };
    match annotations::apply(&base.record, &ann, base.main_line) {
        Ok(record) => Ok(Review { record, ..base }),
        Err(e) => {
            // Checked when saved; a record read differently since then keeps its own.
            tracing::warn!("annotations of {id} no longer fit the record: {e}");
            Ok(base)
        }
    }
}

/// The record of a game or an imported record as stored, without
/// annotations, if `reader` may read it.
///
/// # Errors
/// [`Error::NotFound`] when `id` is neither or `reader` may not read it;
/// database errors.
async fn unannotated(store: &Store, id: &str, reader: Option<i64>) -> Result<Review, Error> {
    if !token::is_game_id(id) {
        return Err(Error::NotFound);
    }
    if let Some(g) = store.load(id).await? {
        let bot = |c: Color| g.players.seats[c].as_ref().is_some_and(|p| p.bot);
        return Ok(Review {
            record: game_record(&g),
            ending: g.ending,
            played_at_ms: i64::try_from(g.created_at_ms).ok(),
            main_line: MainLine::Fixed,
            notes: game_notes(&g),
            bots: ByColor::new(bot(Color::Sente), bot(Color::Gote)),
        });
    }
    let Some(stored) = store.record_source(id).await? else {
        return collection_game(store, id, reader).await;
    };
    if !stored.visibility.readable_by(stored.owner_user, reader) {
        return Err(Error::NotFound);
    }
    let record = parsed(id, stored.source)?;
    Ok(Review {
        record,
        ending: None,
        played_at_ms: None,
        main_line: MainLine::Free,
        notes: Vec::new(),
        bots: ByColor::default(),
    })
}

/// An imported game of a collection (docs/EXPLORER.md), if `reader` may
/// read the collection: its record as imported, not to be annotated.
async fn collection_game(store: &Store, id: &str, reader: Option<i64>) -> Result<Review, Error> {
    let entry = store.collection_entry(id).await?.ok_or(Error::NotFound)?;
    let readable = store.readable_collections_uncounted(reader).await?;
    if !readable.iter().any(|c| c.id == entry.collection) {
        return Err(Error::NotFound);
    }
    let source = entry.source.ok_or(Error::NotFound)?;
    Ok(Review {
        record: parsed(id, source)?,
        ending: None,
        played_at_ms: None,
        main_line: MainLine::Fixed,
        notes: Vec::new(),
        bots: ByColor::default(),
    })
}

/// Computes the key of every finished game that has none (games end, and
/// a deleted account's seats are renamed, without it): before a look-up,
/// so that a game finished since the last one is found.
///
/// # Errors
/// Database errors.
pub async fn fill_game_keys(store: &Store) -> Result<usize, Error> {
    let mut done = 0;
    loop {
        let ids = store.games_without_key(super::dedupe::FILL_BATCH).await?;
        if ids.is_empty() {
            return Ok(done);
        }
        for id in &ids {
            // A game gone since gets an empty key, which never matches one
            // computed, and no tags.
            let (key, tags) = match store.load(id).await? {
                Some(g) => {
                    let rec = game_record(&g);
                    let tags = super::strategy::tags_text(&rec.strategy());
                    (super::dedupe::key(&rec), tags)
                }
                None => (String::new(), String::new()),
            };
            store.set_game_key(id, &key, &tags).await?;
            done += 1;
        }
    }
}

/// How many parsed imported records are kept ([`parsed`]).
const PARSED_KEPT: usize = 16;

/// The imported records parsed last: (id, their stored bytes, the record).
static PARSED: Mutex<VecDeque<(String, Vec<u8>, Record)>> = Mutex::new(VecDeque::new());

/// The record stored as `bytes` under `id`, parsed once while it is among
/// the [`PARSED_KEPT`] last read: a 1 MiB record took 0.16 s to parse on
/// every view. Kept only while the stored bytes are the same, so a record
/// stored anew under the id is parsed anew.
fn parsed(id: &str, bytes: Vec<u8>) -> Result<Record, Error> {
    let lock = || PARSED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, _, record)) = lock().iter().find(|(i, b, _)| i == id && *b == bytes) {
        return Ok(record.clone());
    }
    let record =
        shogi_record::read(&bytes).map_err(|e| Error::Internal(format!("record {id}: {e}")))?;
    let mut kept = lock();
    kept.retain(|(i, _, _)| i != id);
    if kept.len() >= PARSED_KEPT {
        kept.pop_front();
    }
    kept.push_back((id.to_string(), bytes, record.clone()));
    Ok(record)
}

fn node_json(n: &Node) -> Value {
    json!({
        "usi": n.mv.to_string(),
        "time": n.time,
        "comments": n.comments,
        "variations": n.variations.iter().map(|line| line.iter().map(node_json).collect::<Vec<_>>()).collect::<Vec<_>>(),
    })
}

/// A record as the JSON of `POST /api/import` and `format=json` (see `docs/PROTOCOL.md`).
#[must_use]
pub fn record_json(review: &Review) -> Value {
    let rec = &review.record;
    let h = &rec.headers;
    let (winner, reason) = summary(review);
    let mut out = json!({
        "start_sfen": rec.start.to_sfen(),
        "moves": rec.moves.iter().map(|n| n.mv.to_string()).collect::<Vec<_>>(),
        "nodes": rec.moves.iter().map(node_json).collect::<Vec<_>>(),
        "start_comments": rec.start_comments,
        "ending": {"reason": reason, "winner": winner},
        "headers": {
            "sente": h.sente, "gote": h.gote, "event": h.event, "site": h.site,
            "start_time": h.start_time, "end_time": h.end_time,
            "time_control": h.time_control.map(|t| t.to_plus()),
            "date": review.played_at_ms.or_else(|| played_at_ms(rec)).map(iso_day),
            "time": record_time(rec),
            "handicap": rec.handicap().map_or("custom", Handicap::name),
            "other": h.other,
        },
        "main_line_fixed": review.main_line == MainLine::Fixed,
        "illegal_move": rec.illegal_move.as_ref().map(|i| json!({
            "ply": i.ply, "text": i.text, "problem": i.problem.to_string(),
        })),
        "strategy": super::strategy::record_strategy(rec),
    });
    // A game played by programs: left out for everyone else, as in the archive.
    if let Value::Object(fields) = &mut out {
        for (key, bot) in [
            ("sente_bot", review.bots[Color::Sente]),
            ("gote_bot", review.bots[Color::Gote]),
        ] {
            if bot {
                fields.insert(key.into(), Value::Bool(true));
            }
        }
        if !review.notes.is_empty() {
            fields.insert("notes".into(), json!(review.notes));
        }
    }
    out
}

/// An imported record: its JSON, and if it was saved its id and owner token.
#[derive(Debug)]
pub struct Imported {
    /// The record JSON.
    pub json: Value,
    /// The id and owner token, if saved.
    pub saved: Option<(String, String)>,
    /// The same record already in the archive that the importer may read
    /// (then nothing was saved).
    pub existing: Option<Duplicate>,
}

/// What an import asks for.
#[derive(Clone, Copy, Debug, Default)]
pub struct ImportOptions {
    /// Store the record (unless the same one is there already).
    pub save: bool,
    /// Who may read it once stored.
    pub visibility: Visibility,
    /// The importer's account, if logged in.
    pub importer: Option<i64>,
}

/// Reads an uploaded record, and looks for the same record in the archive
/// (the same dedupe key, one the importer may read); with `save`, stores it
/// unless it is there already.
///
/// # Errors
/// [`Error::BadRequest`] with the reader's message; `not_logged_in` for a
/// private record without an account; database errors.
pub async fn import(store: &Store, bytes: &[u8], opts: ImportOptions) -> Result<Imported, Error> {
    if opts.save && opts.visibility == Visibility::Private && opts.importer.is_none() {
        return Err(Problem::NotLoggedIn.into());
    }
    if bytes.is_empty() {
        return Err(Problem::EmptyRecord.into());
    }
    let rec = shogi_record::read(bytes).map_err(|e| Problem::unreadable(&e))?;
    let review = Review {
        record: rec,
        ending: None,
        played_at_ms: None,
        main_line: MainLine::Free,
        notes: Vec::new(),
        bots: ByColor::default(),
    };
    let json = record_json(&review);
    let rec = &review.record;
    let key = super::dedupe::key(rec);
    fill_game_keys(store).await?;
    let existing = store.find_duplicate(&key, opts.importer).await?;
    if !opts.save || existing.is_some() {
        return Ok(Imported {
            json,
            saved: None,
            existing,
        });
    }
    let id = token::new_game_id();
    let owner = token::new_token();
    let (winner, reason) = record_summary(rec);
    let new = NewRecord {
        id: &id,
        created_at_ms: unix_ms(),
        source: bytes,
        sente: rec.headers.sente.as_deref(),
        gote: rec.headers.gote.as_deref(),
        handicap: rec
            .handicap()
            .map_or(StartChoice::Custom, StartChoice::Handicap),
        time: record_time(rec),
        winner,
        reason,
        plies: rec.moves.len(),
        played_at_ms: played_at_ms(rec),
        owner_token: &owner,
        visibility: opts.visibility,
        owner_user: opts.importer,
        dedupe_key: &key,
        strategy: &super::strategy::tags_text(&rec.strategy()),
    };
    store.insert_record(&new).await?;
    Ok(Imported {
        json,
        saved: Some((id, owner)),
        existing: None,
    })
}

/// Saves the comments and variations of `req` for `id`, if its token may;
/// answers the review with them laid over the record.
///
/// # Errors
/// [`annotations::authorize`]'s; [`Error::BadRequest`] naming what does not
/// fit the record; database errors.
pub async fn annotate(
    store: &Store,
    id: &str,
    reader: Option<i64>,
    req: super::annotated::AnnotationsRequest,
) -> Result<Review, Error> {
    if !token::is_game_id(id) {
        return Err(Error::NotFound);
    }
    // A private record of another account is not there for this reader, token or not.
    let before = load(store, id, reader).await?;
    annotations::authorize(store, id, &req.token).await?;
    let base = unannotated(store, id, reader).await?;
    let ann = annotations::Annotations {
        start_comments: req.start_comments,
        nodes: req.nodes,
    };
    let record = annotations::apply(&base.record, &ann, base.main_line).map_err(|e| match e {
        annotations::AnnotationError::Illegal { at, mv, reason } => {
            Error::Problem(Problem::NotLegalHere {
                at,
                mv: mv.to_string(),
                rule: Some(rule_code(reason)),
                why: reason.to_string(),
            })
        }
        other => Error::BadRequest(other.to_string()),
    })?;
    store.save_annotations(id, &ann, unix_ms()).await?;
    let review = Review { record, ..base };
    let line = |r: &Record| r.moves.iter().map(|n| n.mv).collect::<Vec<_>>();
    if base_is_import(&review) && line(&before.record) != line(&review.record) {
        // The archive lists the new line's length and ending; an analysis of the old line is dropped.
        let (winner, reason) = record_summary(&review.record);
        store
            .set_record_line(id, review.record.moves.len(), winner, reason)
            .await?;
    }
    Ok(review)
}

/// Which position of a record a picture shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlyChoice {
    /// After the last main-line move.
    Last,
    /// After this many main-line moves.
    Ply(usize),
    /// After these moves from the start (a variation's line).
    Line(Vec<Move>),
}

/// The position `at` chooses in `rec`, and the move that led to it.
///
/// # Errors
/// [`Error::BadRequest`] for a ply past the end or an illegal move in the line.
pub fn position_at(rec: &Record, at: &PlyChoice) -> Result<(Position, Option<Move>), Error> {
    let mut pos = rec.start.clone();
    match at {
        PlyChoice::Line(moves) => {
            if moves.len() > MAX_DIAGRAM_MOVES {
                return Err(Error::BadRequest(format!(
                    "more than {MAX_DIAGRAM_MOVES} moves"
                )));
            }
            for (i, &mv) in moves.iter().enumerate() {
                pos.check_move(mv).map_err(|e| Problem::NotLegalHere {
                    at: format!("moves[{i}]"),
                    mv: mv.to_string(),
                    rule: Some(rule_code(e)),
                    why: e.to_string(),
                })?;
                pos.make_move(mv);
            }
            Ok((pos, moves.last().copied()))
        }
        PlyChoice::Last | PlyChoice::Ply(_) => {
            let ply = match at {
                PlyChoice::Ply(n) => *n,
                _ => rec.moves.len(),
            };
            if ply > rec.moves.len() {
                return Err(Error::BadRequest(format!(
                    "ply must be 0..={}",
                    rec.moves.len()
                )));
            }
            for n in &rec.moves[..ply] {
                pos.make_move(n.mv);
            }
            Ok((pos, ply.checked_sub(1).map(|i| rec.moves[i].mv)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::Color;

    #[test]
    fn a_parsed_record_is_reused_only_while_its_bytes_are_the_same() {
        let first = parsed("cachetest01", b"PI\n+\n+7776FU\n".to_vec()).unwrap();
        let again = parsed("cachetest01", b"PI\n+\n+7776FU\n".to_vec()).unwrap();
        assert_eq!(first, again);
        let other = parsed("cachetest01", b"PI\n+\n+2726FU\n".to_vec()).unwrap();
        assert_eq!(other.moves[0].mv.to_string(), "2g2f");
        assert!(parsed("cachetest02", b"not a record".to_vec()).is_err());
    }

    #[test]
    fn dates() {
        assert_eq!(date_text(0), "1970/01/01 00:00:00");
        assert_eq!(date_text(1_764_424_000_000), "2025/11/29 13:46:40");
    }

    #[test]
    fn header_dates_in_the_common_forms() {
        assert_eq!(parse_header_date("2024/01/05 10:00:00"), Some((2024, 1, 5)));
        assert_eq!(parse_header_date("2024-01-05"), Some((2024, 1, 5)));
        assert_eq!(
            parse_header_date("2024/01/05(金) 10:00"),
            Some((2024, 1, 5))
        );
        assert_eq!(
            parse_header_date("２０２５年３月２日（日）"),
            Some((2025, 3, 2))
        );
        assert_eq!(parse_header_date("1709/11/08"), Some((1709, 11, 8)));
        assert_eq!(parse_header_date(" 15:35:06"), None);
        assert_eq!(parse_header_date("2023/02/29"), None);
        assert_eq!(parse_header_date("2024/13/01"), None);
        assert_eq!(parse_header_date("20240105"), None);
    }

    #[test]
    fn a_played_day_is_its_midnight_utc() {
        let mut rec = Record::new(Position::startpos());
        rec.headers.start_time = Some("2024/01/05(金) 10:00".into());
        let ms = played_at_ms(&rec).unwrap();
        assert_eq!(ms, 1_704_412_800_000);
        assert_eq!(iso_day(ms), "2024-01-05");
        rec.headers.start_time = Some("1709/11/08".into());
        assert_eq!(iso_day(played_at_ms(&rec).unwrap()), "1709-11-08");
        rec.headers.start_time = None;
        rec.headers
            .other
            .push(("対局日".into(), "2020年10月1日".into()));
        assert_eq!(iso_day(played_at_ms(&rec).unwrap()), "2020-10-01");
        assert_eq!(date_text(1_704_412_800_000), "2024/01/05 00:00:00");
    }

    #[test]
    fn kif_time_controls_in_words() {
        let tc = |main, byoyomi, increment| {
            Some(shogi_record::TimeControl {
                main,
                byoyomi,
                increment,
            })
        };
        assert_eq!(parse_kif_time("各30分"), tc(1800, 0, 0));
        assert_eq!(parse_kif_time("30分+30秒"), tc(1800, 30, 0));
        assert_eq!(parse_kif_time("４時間"), tc(14_400, 0, 0));
        assert_eq!(parse_kif_time("各1時間30分"), tc(5400, 0, 0));
        assert_eq!(parse_kif_time("各10分、秒読み30秒"), tc(600, 30, 0));
        assert_eq!(parse_kif_time("5分 フィッシャー10秒"), tc(300, 0, 10));
        assert_eq!(parse_kif_time("30+0+5"), tc(30, 0, 5));
        assert_eq!(parse_kif_time("なし"), None);
    }

    #[test]
    fn a_resignation_out_of_turn_names_the_resigner_as_loser() {
        // Sente resigns while Gote is to move.
        let e = Ending::Resignation {
            loser: Color::Sente,
        };
        let rec = record_ending(Some(e));
        assert_eq!(rec.loser(), Some(Color::Sente));
    }

    #[test]
    fn a_played_game_is_summed_up_by_its_own_ending() {
        let review = Review {
            record: Record::new(Position::startpos()),
            ending: Some(Ending::Try {
                winner: Color::Gote,
            }),
            played_at_ms: None,
            main_line: MainLine::Fixed,
            notes: Vec::new(),
            bots: ByColor::default(),
        };
        assert_eq!(summary(&review), (Some(Side::Gote), Some("try")));
    }
}
