//! What leaves an event as files: the crosstable as CSV, the federations'
//! plain-text report, the boards' records (KIF) one by one and as a ZIP,
//! and the check of an uploaded over-the-board record.

use shogi_core::Handicap;
use shogi_record::{Format, Headers, MoveProblem, Record};

use shogi_tournament::crosstable::{crosstable, to_csv, CsvLanguage, PlayerInfo, ReportHeader};

use super::event::{reversed, Loaded};
use crate::db::tournaments::BoardRow;
use crate::db::Store;
use crate::error::{Error, Problem};
use crate::game::ending::rule_code;

/// The largest uploaded record.
pub const MAX_RECORD_BYTES: usize = 256 * 1024;

fn name_of(t: &Loaded, n: u32) -> String {
    t.entrant(n).map_or_else(String::new, |p| p.name.clone())
}

/// Reads an uploaded over-the-board record, checks that every move is
/// legal from the board's start, and returns it as KIF with the event's
/// names.
///
/// # Errors
/// [`Problem::RecordTooLarge`], [`Problem::EmptyRecord`],
/// [`Problem::UnreadableRecord`] (as an import is refused),
/// [`Problem::IllegalRecordMove`] naming the first illegal move,
/// [`Problem::WrongStart`].
pub fn checked_record(t: &Loaded, b: &BoardRow, text: &str) -> Result<String, Error> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(Problem::RecordTooLarge {
            max_kib: MAX_RECORD_BYTES / 1024,
        }
        .into());
    }
    if text.trim().is_empty() {
        return Err(Problem::EmptyRecord.into());
    }
    let mut rec: Record =
        shogi_record::read(text.as_bytes()).map_err(|e| Problem::unreadable(&e))?;
    if let Some(bad) = &rec.illegal_move {
        return Err(Problem::IllegalRecordMove {
            ply: bad.ply,
            mv: bad.text.clone(),
            rule: match bad.problem {
                MoveProblem::Illegal(why) => Some(rule_code(why)),
                _ => None,
            },
            why: bad.problem.to_string(),
        }
        .into());
    }
    let handicap = b.handicap.parse::<Handicap>().unwrap_or(Handicap::Even);
    if rec.start.to_sfen() != handicap.position().to_sfen() {
        return Err(Problem::WrongStart {
            handicap: handicap.name().to_owned(),
        }
        .into());
    }
    rec.headers.sente = Some(name_of(t, b.sente));
    rec.headers.gote = Some(name_of(t, b.gote));
    event_headers(t, b, &mut rec.headers);
    Ok(shogi_record::write(&rec, Format::Kif))
}

/// The event's headers of a board's record, as KIF writers put them: the
/// event's name in `棋戦`, the round in `備考` (`第3回戦`, as Japanese
/// tournament tables name rounds), the place in `場所`.
fn event_headers(t: &Loaded, b: &BoardRow, h: &mut Headers) {
    // Readers show `棋戦` as the event; `備考` (remarks) is where KIF
    // writers such as Kifu for Windows put what the other keys do not hold.
    h.event = Some(t.settings.name.clone());
    h.other.retain(|(k, _)| k != "備考");
    h.other.push(("備考".to_owned(), round_text(b.round)));
    if !t.settings.place.is_empty() {
        h.site = Some(t.settings.place.clone());
    }
}

/// A round as Japanese tournament records name it: `第3回戦`.
#[must_use]
pub fn round_text(round: u32) -> String {
    format!("第{round}回戦")
}

/// Every record of a board as (file name, KIF): the uploaded record, or
/// the in-app game and its replays (`r2-b1.kif`, `r2-b1-2.kif`).
///
/// # Errors
/// Database errors.
pub async fn board_kifs(
    store: &Store,
    t: &Loaded,
    b: &BoardRow,
) -> Result<Vec<(String, String)>, Error> {
    let base = format!("r{}-b{}", b.round, b.board);
    if let Some(r) = &b.record {
        return Ok(vec![(format!("{base}.kif"), r.clone())]);
    }
    let mut out = Vec::new();
    for (i, g) in b.games.iter().enumerate() {
        if g.reason.as_deref() == Some("abort") {
            continue;
        }
        let mut review = crate::review::records::load(store, &g.id, None).await?;
        let (sente, gote) = if reversed(i) {
            (b.gote, b.sente)
        } else {
            (b.sente, b.gote)
        };
        let h = &mut review.record.headers;
        h.sente = Some(name_of(t, sente));
        h.gote = Some(name_of(t, gote));
        event_headers(t, b, h);
        let name = if i == 0 {
            format!("{base}.kif")
        } else {
            format!("{base}-{}.kif", i + 1)
        };
        out.push((name, shogi_record::write(&review.record, Format::Kif)));
    }
    Ok(out)
}

/// A board's record as one KIF: the uploaded one, else the last game's.
///
/// # Errors
/// Database errors.
pub async fn board_kif(store: &Store, t: &Loaded, b: &BoardRow) -> Result<Option<String>, Error> {
    Ok(board_kifs(store, t, b).await?.pop().map(|(_, k)| k))
}

/// Every record of the event as one ZIP (UTF-8 KIF files).
///
/// # Errors
/// Database errors.
pub async fn games_zip(store: &Store, t: &Loaded) -> Result<Vec<u8>, Error> {
    use std::io::Write as _;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let internal = |e: &dyn std::fmt::Display| Error::Internal(format!("zip: {e}"));
    for r in &t.rows.rounds {
        for b in &r.boards {
            for (name, text) in board_kifs(store, t, b).await? {
                zip.start_file(name, options).map_err(|e| internal(&e))?;
                zip.write_all(text.as_bytes()).map_err(|e| internal(&e))?;
            }
        }
    }
    Ok(zip.finish().map_err(|e| internal(&e))?.into_inner())
}

fn infos(t: &Loaded) -> Vec<PlayerInfo> {
    t.rows
        .players
        .iter()
        .map(|p| PlayerInfo {
            name: p.name.clone(),
            rating: p.rating,
            rank: p.rank.clone(),
            club: p.club.clone(),
            country: None,
        })
        .collect()
}

/// The crosstable as CSV for a spreadsheet in `lang`
/// (`shogi_tournament::crosstable::to_csv`).
#[must_use]
pub fn crosstable_csv(t: &Loaded, lang: CsvLanguage) -> String {
    let order = t.settings.tiebreak_order();
    let event = t.event();
    let table = crosstable(&event, &order);
    to_csv(&table, &event, &infos(t), &order, lang)
}

/// The federations' plain-text report
/// (`shogi_tournament::crosstable::federation_report`).
#[must_use]
pub fn federation_report(t: &Loaded) -> String {
    let order = t.settings.tiebreak_order();
    let event = t.event();
    let table = crosstable(&event, &order);
    let s = &t.settings;
    let header = ReportHeader {
        name: s.name.clone(),
        city: s.place.clone(),
        country: s.country.clone(),
        starts: s.starts.clone().unwrap_or_default(),
        ends: s
            .ends
            .clone()
            .or_else(|| s.starts.clone())
            .unwrap_or_default(),
        class: None,
        minutes: Some(u32::try_from(s.time.main_ms / 60_000).unwrap_or(u32::MAX)),
    };
    shogi_tournament::crosstable::federation_report(&table, &event, &infos(t), &header)
}
