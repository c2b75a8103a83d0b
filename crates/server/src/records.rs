//! Records of games: a game played here becomes a [`shogi_record::Record`]
//! built from its stored moves, times and ending; an imported record keeps
//! the uploaded bytes and is read again with the same reader whenever it is
//! used. Either gets its saved annotations laid over it. Also the record's
//! JSON (`format=json`, `POST /api/import`), the import itself and the
//! positions that board pictures show.

use serde_json::{json, Value};
use shogi_core::{Color, Ending, Foul, Handicap, IllegalMove, Move, Position};
use shogi_record::{Node, Record};

use crate::annotations;
use crate::clock::TimeControl;
use crate::db::players::SeatPlayer;
use crate::db::records::NewRecord;
use crate::db::{Store, StoredGame};
use crate::error::Error;
use crate::protocol::{reason_word, rule_code, Side, StartChoice};
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
}

/// `YYYY/MM/DD HH:MM:SS` (UTC) of Unix milliseconds.
fn date_text(ms: u64) -> String {
    let secs = ms / 1000;
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Days to civil date (proleptic Gregorian), after Howard Hinnant's algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}/{month:02}/{day:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
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
fn game_record(g: &StoredGame) -> Record {
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

/// The record of a game or an imported record, with its saved annotations
/// (comments and variations) if any.
///
/// # Errors
/// [`Error::NotFound`] when `id` is neither; database errors.
pub async fn load(store: &Store, id: &str) -> Result<Review, Error> {
    if !token::is_game_id(id) {
        return Err(Error::NotFound);
    }
    let (rec, ending) = if let Some(g) = store.load(id).await? {
        (game_record(&g), g.ending)
    } else {
        let bytes = store.record_source(id).await?.ok_or(Error::NotFound)?;
        let rec =
            shogi_record::read(&bytes).map_err(|e| Error::Internal(format!("record {id}: {e}")))?;
        (rec, None)
    };
    let Some(ann) = store.annotations(id).await? else {
        return Ok(Review {
            record: rec,
            ending,
        });
    };
    let record = match annotations::apply(&rec, &ann) {
        Ok(annotated) => annotated,
        Err(e) => {
            // Checked when saved; a record read differently since then keeps its own.
            tracing::warn!("annotations of {id} no longer fit the record: {e}");
            rec
        }
    };
    Ok(Review { record, ending })
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
    json!({
        "start_sfen": rec.start.to_sfen(),
        "moves": rec.moves.iter().map(|n| n.mv.to_string()).collect::<Vec<_>>(),
        "nodes": rec.moves.iter().map(node_json).collect::<Vec<_>>(),
        "start_comments": rec.start_comments,
        "ending": {"reason": reason, "winner": winner},
        "headers": {
            "sente": h.sente, "gote": h.gote, "event": h.event, "site": h.site,
            "start_time": h.start_time, "end_time": h.end_time,
            "time_control": h.time_control.map(|t| t.to_plus()),
            "handicap": rec.handicap().map_or("custom", Handicap::name),
            "other": h.other,
        },
        "illegal_move": rec.illegal_move.as_ref().map(|i| json!({
            "ply": i.ply, "text": i.text, "problem": i.problem.to_string(),
        })),
    })
}

/// An imported record: its JSON, and if it was saved its id and owner token.
#[derive(Debug)]
pub struct Imported {
    /// The record JSON.
    pub json: Value,
    /// The id and owner token, if saved.
    pub saved: Option<(String, String)>,
}

/// Reads an uploaded record; with `save`, stores it in the archive.
///
/// # Errors
/// [`Error::BadRequest`] with the reader's message; database errors.
pub async fn import(store: &Store, bytes: &[u8], save: bool) -> Result<Imported, Error> {
    if bytes.is_empty() {
        return Err(Error::BadRequest("empty record".into()));
    }
    let rec = shogi_record::read(bytes).map_err(|e| Error::BadRequest(e.to_string()))?;
    let review = Review {
        record: rec,
        ending: None,
    };
    let json = record_json(&review);
    if !save {
        return Ok(Imported { json, saved: None });
    }
    let rec = &review.record;
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
        time: rec.headers.time_control.map(|t| TimeControl {
            main_ms: u64::from(t.main) * 1000,
            byoyomi_ms: u64::from(t.byoyomi) * 1000,
            periods: 1,
            increment_ms: u64::from(t.increment) * 1000,
        }),
        winner,
        reason,
        plies: rec.moves.len(),
        owner_token: &owner,
    };
    store.insert_record(&new).await?;
    Ok(Imported {
        json,
        saved: Some((id, owner)),
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
    req: crate::protocol::AnnotationsRequest,
) -> Result<Review, Error> {
    if !token::is_game_id(id) {
        return Err(Error::NotFound);
    }
    annotations::authorize(store, id, &req.token).await?;
    let review = load(store, id).await?;
    let ann = annotations::Annotations {
        start_comments: req.start_comments,
        nodes: req.nodes,
    };
    let record =
        annotations::apply(&review.record, &ann).map_err(|e| Error::BadRequest(e.to_string()))?;
    store.save_annotations(id, &ann, unix_ms()).await?;
    Ok(Review { record, ..review })
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
                pos.check_move(mv).map_err(|e| {
                    Error::BadRequest(format!("moves[{i}]: {mv} is not legal here: {e}"))
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
    fn dates() {
        assert_eq!(date_text(0), "1970/01/01 00:00:00");
        assert_eq!(date_text(1_764_424_000_000), "2025/11/29 13:46:40");
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
        };
        assert_eq!(summary(&review), (Some(Side::Gote), Some("try")));
    }
}
