//! The explorer's answer for a position and the search for games: which
//! collections a reader may see, the moves played from a position with
//! their counts, and the games through it, each checked against its own
//! moves (a 64-bit key may, very rarely, be shared by two positions).

use serde_json::{json, Value};
use shogi_core::{Move, Position};

use crate::calendar::UNDATED_MS;
use crate::db::explorer::{Collection, GameFilter, Listed, MoveCounts, Order, Outcome};
use crate::db::Store;
use crate::error::{Error, Problem};
use crate::ratings::TimeClass;
use crate::review::records::iso_day;

/// The longest SFEN read.
const MAX_SFEN_BYTES: usize = 200;

/// Games listed at most by one request.
pub const MAX_LIMIT: usize = 100;

/// The position of `text`: `startpos`, or an SFEN (with or without
/// `sfen ` in front and the move number at the end).
///
/// # Errors
/// [`Problem::BadSfen`] naming what does not read.
pub fn position(text: &str) -> Result<Position, Error> {
    let text = text.trim();
    if text.len() > MAX_SFEN_BYTES {
        return Err(Error::BadRequest("sfen too long".into()));
    }
    if text == "startpos" || text.is_empty() {
        return Ok(Position::startpos());
    }
    let text = text.strip_prefix("sfen ").unwrap_or(text);
    // A record may start from a problem's position without a king.
    let lenient = shogi_core::Leniency {
        allow_missing_kings: true,
    };
    shogi_core::sfen::parse_position_with(text, lenient).map_err(|e| {
        Error::Problem(Problem::BadSfen {
            detail: e.to_string(),
        })
    })
}

/// The collections `reader` may read: all of them, or only the one named
/// (a comma-separated list names several).
///
/// # Errors
/// [`Error::NotFound`] for a name `reader` may not read (or none has);
/// database errors.
pub async fn collections(
    store: &Store,
    reader: Option<i64>,
    names: Option<&str>,
) -> Result<Vec<Collection>, Error> {
    let readable = store.readable_collections_uncounted(reader).await?;
    let Some(names) = names.filter(|n| !n.trim().is_empty()) else {
        return Ok(readable);
    };
    names
        .split(',')
        .map(|n| {
            readable
                .iter()
                .find(|c| c.name == n.trim())
                .cloned()
                .ok_or(Error::NotFound)
        })
        .collect()
}

/// The collections a request counts ([`collections`]) and their ids, with
/// the `site` collection brought up to date first when it is one of them.
async fn counted(
    store: &Store,
    reader: Option<i64>,
    names: Option<&str>,
) -> Result<(Vec<Collection>, Vec<i64>), Error> {
    let cols = collections(store, reader, names).await?;
    if cols.iter().any(|c| c.id == crate::db::explorer::SITE) {
        super::site::fill(store).await?;
    }
    let ids = cols.iter().map(|c| c.id).collect();
    Ok((cols, ids))
}

/// What the explorer is asked.
#[derive(Clone, Debug, Default)]
pub struct ExplorerRequest {
    /// The position ([`position`]).
    pub sfen: String,
    /// The collections' names (all readable ones when `None`).
    pub collection: Option<String>,
    /// Filters on the games counted and listed.
    pub filter: GameFilter,
    /// The games' order.
    pub order: Order,
    /// Games listed (at most [`MAX_LIMIT`]).
    pub limit: usize,
}

/// One move's line of an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    /// The move.
    pub mv: Move,
    /// Its counts.
    pub counts: MoveCounts,
}

/// The explorer's answer.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The position.
    pub position: Position,
    /// Games that reached it.
    pub total: u64,
    /// Of those, the games that ended there.
    pub ended: MoveCounts,
    /// The moves played from it, the most played first.
    pub moves: Vec<MoveLine>,
    /// The most recent (or highest-rated) games through it.
    pub games: Vec<Listed>,
    /// The collections counted.
    pub collections: Vec<Collection>,
}

/// The explorer's answer for `req` as `reader` may see it.
///
/// # Errors
/// [`Problem::BadSfen`]; [`Error::NotFound`] for a collection `reader` may
/// not read; database errors.
pub async fn explore(
    store: &Store,
    reader: Option<i64>,
    req: &ExplorerRequest,
) -> Result<Answer, Error> {
    let position = position(&req.sfen)?;
    let (cols, ids) = counted(store, reader, req.collection.as_deref()).await?;
    let hash = position.hash();
    // Whole months and rating bands are summed from the count rows; any
    // other filter counts the games through the position one by one.
    let counts = store.explorer_counts(hash, &ids, &req.filter).await?;
    let total = counts.iter().map(|c| c.games).sum();
    let mut ended = MoveCounts::default();
    let mut moves = Vec::new();
    for c in counts {
        if c.next == 0 {
            ended = c;
            continue;
        }
        // A move not legal here was played in another position of the same key.
        match Move::from_u16(c.next) {
            Some(mv) if position.is_legal(mv) => moves.push(MoveLine { mv, counts: c }),
            _ => {}
        }
    }
    moves.sort_by(|a, b| {
        b.counts
            .games
            .cmp(&a.counts.games)
            .then(a.mv.to_string().cmp(&b.mv.to_string()))
    });
    let limit = req.limit.min(MAX_LIMIT);
    let games = if limit == 0 || total == 0 {
        Vec::new()
    } else {
        let listed = store
            .list_games(
                Some(hash),
                &ids,
                &req.filter,
                req.order,
                0,
                i64::try_from(limit).unwrap_or(0),
            )
            .await?;
        verified(store, &position, listed).await?
    };
    Ok(Answer {
        position,
        total,
        ended,
        moves,
        games,
        collections: cols,
    })
}

/// The games of `listed` that do reach `position` at the ply the list says.
async fn verified(
    store: &Store,
    position: &Position,
    listed: Vec<Listed>,
) -> Result<Vec<Listed>, Error> {
    let mut out = Vec::with_capacity(listed.len());
    for g in listed {
        let Some((ply, _)) = g.reached else { continue };
        let Some((start, moves)) = game_moves(store, &g.id).await? else {
            continue;
        };
        let mut pos = start;
        let ply = usize::try_from(ply).unwrap_or(usize::MAX);
        if ply > moves.len() {
            continue;
        }
        for &m in &moves[..ply] {
            pos.make_move(m);
        }
        if same_position(&pos, position) {
            out.push(g);
        }
    }
    Ok(out)
}

/// Whether two positions have the same board, hands and side to move.
fn same_position(a: &Position, b: &Position) -> bool {
    let key = |p: &Position| {
        let sfen = p.to_sfen();
        sfen.split(' ').take(3).collect::<Vec<_>>().join(" ")
    };
    key(a) == key(b)
}

/// The start and main line of a game of a collection (played here or imported).
///
/// # Errors
/// Database errors.
pub async fn game_moves(store: &Store, id: &str) -> Result<Option<(Position, Vec<Move>)>, Error> {
    if let Some(g) = store.load(id).await? {
        let rec = crate::review::records::game_record(&g);
        return Ok(Some((
            rec.start.clone(),
            rec.moves.iter().map(|n| n.mv).collect(),
        )));
    }
    let Some(entry) = store.collection_entry(id).await? else {
        return Ok(None);
    };
    let Some(source) = entry.source else {
        return Ok(None);
    };
    Ok(shogi_record::read(&source)
        .ok()
        .map(|rec| (rec.start.clone(), rec.moves.iter().map(|n| n.mv).collect())))
}

/// What the search is asked.
#[derive(Clone, Debug, Default)]
pub struct SearchRequest {
    /// Only games that reached this position ([`position`]).
    pub sfen: Option<String>,
    /// The collections' names (all readable ones when `None`).
    pub collection: Option<String>,
    /// Filters.
    pub filter: GameFilter,
    /// The order.
    pub order: Order,
    /// Games to skip.
    pub offset: usize,
    /// Games on the page (at most [`MAX_LIMIT`]).
    pub limit: usize,
}

/// A page of the games matching `req` that `reader` may see (one more than
/// asked is looked for, to tell whether there are more).
///
/// # Errors
/// As [`explore`].
pub async fn search(
    store: &Store,
    reader: Option<i64>,
    req: &SearchRequest,
) -> Result<(Vec<Listed>, bool, Vec<Collection>), Error> {
    let position = req.sfen.as_deref().map(position).transpose()?;
    let (cols, ids) = counted(store, reader, req.collection.as_deref()).await?;
    let limit = req.limit.clamp(1, MAX_LIMIT);
    let mut listed = store
        .list_games(
            position.as_ref().map(Position::hash),
            &ids,
            &req.filter,
            req.order,
            i64::try_from(req.offset).unwrap_or(i64::MAX),
            i64::try_from(limit + 1).unwrap_or(i64::MAX),
        )
        .await?;
    let more = listed.len() > limit;
    listed.truncate(limit);
    if let Some(p) = &position {
        listed = verified(store, p, listed).await?;
    }
    Ok((listed, more, cols))
}

/// The day (UTC, `YYYY-MM-DD`) of Unix milliseconds, as the lists show it;
/// `None` for a game whose record gives no date.
///
/// ```
/// use shogi_server::{calendar::UNDATED_MS, explorer::query::listed_date};
/// assert_eq!(listed_date(86_400_000).as_deref(), Some("1970-01-02"));
/// assert_eq!(listed_date(UNDATED_MS), None);
/// ```
#[must_use]
pub fn listed_date(ms: i64) -> Option<String> {
    (ms != UNDATED_MS).then(|| iso_day(ms))
}

/// A listed game as JSON (`games` of `GET /api/explorer` and `GET /api/search`).
#[must_use]
pub fn listed_json(g: &Listed, collections: &[Collection]) -> Value {
    let name = collections
        .iter()
        .find(|c| c.id == g.collection)
        .map(|c| c.name.as_str());
    let mut v = json!({
        "id": g.id,
        "collection": name,
        "sente": g.sente,
        "gote": g.gote,
        "sente_rating": g.sente_rating,
        "gote_rating": g.gote_rating,
        "result": g.outcome.map(Outcome::name),
        "date": listed_date(g.played_at_ms),
        "time_class": g.time_class.map(TimeClass::name),
        "handicap": g.handicap,
        "event": g.event,
        "plies": g.plies,
    });
    if let (Some((ply, next)), Value::Object(fields)) = (g.reached, &mut v) {
        fields.insert("ply".into(), ply.into());
        fields.insert(
            "usi".into(),
            Move::from_u16(next).map_or(Value::Null, |m| m.to_string().into()),
        );
    }
    v
}

/// The explorer's answer as JSON (`GET /api/explorer`, docs/PROTOCOL.md).
#[must_use]
pub fn answer_json(a: &Answer) -> Value {
    let average = |c: &MoveCounts| {
        (c.rated > 0).then(|| c.rating_sum / i64::try_from(c.rated).unwrap_or(i64::MAX))
    };
    json!({
        "sfen": a.position.to_sfen(),
        "total": a.total,
        "ended": {
            "games": a.ended.games,
            "sente_wins": a.ended.sente_wins,
            "gote_wins": a.ended.gote_wins,
            "draws": a.ended.draws,
        },
        "moves": a.moves.iter().map(|m| json!({
            "usi": m.mv.to_string(),
            "games": m.counts.games,
            "sente_wins": m.counts.sente_wins,
            "gote_wins": m.counts.gote_wins,
            "draws": m.counts.draws,
            "average_rating": average(&m.counts),
            "last_played": listed_date(m.counts.last_played_ms),
        })).collect::<Vec<_>>(),
        "games": a.games.iter().map(|g| listed_json(g, &a.collections)).collect::<Vec<_>>(),
        "collections": a.collections.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
    })
}
