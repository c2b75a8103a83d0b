//! A record's strategy tags as JSON (`strategy` in the record JSON,
//! docs/PROTOCOL.md): each side's opening and castles and the game's line,
//! by the rules of `shogi_record::strategy` (docs/STRATEGY.md), each tag
//! with its id and its names in the four languages of the site.

use std::fmt::Write as _;

use serde_json::{json, Map, Value};
use shogi_record::strategy::{Castle, Family, Lang, Line, Opening, SideStrategy, Strategy};
use shogi_record::Record;

/// A tag: `{"id": "mino", "names": {"ja": "美濃囲い", "en": ..., "ru": ..., "uk": ...}}`.
fn tag(id: &str, name: impl Fn(Lang) -> &'static str) -> Value {
    let names: Map<String, Value> = Lang::ALL
        .into_iter()
        .map(|l| (l.code().to_owned(), Value::from(name(l))))
        .collect();
    json!({"id": id, "names": names})
}

fn side(s: &SideStrategy) -> Value {
    json!({
        "family": s.family().map(|f| tag(f.id(), |l| f.name(l))),
        "opening": s.opening.map(|o| tag(o.id(), |l| o.name(l))),
        "later_opening": s.later_opening.map(|o| tag(o.id(), |l| o.name(l))),
        "castles": s.castles.iter().map(|c| tag(c.id(), |l| c.name(l))).collect::<Vec<_>>(),
    })
}

/// The tags of `strategy` as JSON.
#[must_use]
pub fn strategy_json(strategy: &Strategy) -> Value {
    json!({
        "sente": side(strategy.sente()),
        "gote": side(strategy.gote()),
        "line": strategy.line.map(|l| tag(l.id(), |lang| l.name(lang))),
    })
}

/// The tags of `record`'s main line as JSON.
///
/// ```
/// let rec = shogi_record::usi::read("position startpos moves 7g7f 3c3d 2g2f 4c4d 3i4h 8b4b")?;
/// let v = shogi_server::review::strategy::record_strategy(&rec);
/// assert_eq!(v["gote"]["opening"]["id"], "fourth_file_rook");
/// assert_eq!(v["gote"]["opening"]["names"]["ru"].as_str().is_some(), true);
/// assert_eq!(v["line"]["id"], "static_vs_ranging");
/// # Ok::<_, shogi_record::ReadError>(())
/// ```
#[must_use]
pub fn record_strategy(record: &Record) -> Value {
    strategy_json(&record.strategy())
}

/// The tags as the archive stores and searches them: `side:id` words
/// (`sente:`, `gote:`, `line:`) between spaces, with a space at each end
/// (migration 0021).
///
/// ```
/// let rec = shogi_record::usi::read("position startpos moves 7g7f 3c3d 2g2f 4c4d 3i4h 8b4b")?;
/// let text = shogi_server::review::strategy::tags_text(&rec.strategy());
/// assert!(text.contains(" gote:fourth_file_rook "));
/// assert!(text.contains(" gote:ranging_rook "));
/// assert!(text.contains(" line:static_vs_ranging "));
/// assert!(text.starts_with(' ') && text.ends_with(' '));
/// # Ok::<_, shogi_record::ReadError>(())
/// ```
#[must_use]
pub fn tags_text(strategy: &Strategy) -> String {
    let mut out = String::from(" ");
    let mut word = |side: &str, id: &str| {
        let _ = write!(out, "{side}:{id} ");
    };
    for (side, s) in [("sente", strategy.sente()), ("gote", strategy.gote())] {
        if let Some(f) = s.family() {
            word(side, f.id());
        }
        for o in s.opening.iter().chain(&s.later_opening) {
            // A plain Static Rook opening is its family's word already.
            if s.family().map(Family::id) != Some(o.id()) {
                word(side, o.id());
            }
        }
        for c in &s.castles {
            word(side, c.id());
        }
    }
    if let Some(l) = strategy.line {
        word("line", l.id());
    }
    out
}

/// Whether `id` is the id of a family, an opening, a castle or a line: what
/// the archive's `strategy` filter accepts.
///
/// ```
/// use shogi_server::review::strategy::is_tag;
/// assert!(is_tag("mino") && is_tag("yagura") && is_tag("ranging_rook"));
/// assert!(!is_tag("fortress") && !is_tag("") && !is_tag("%"));
/// ```
#[must_use]
pub fn is_tag(id: &str) -> bool {
    Family::ALL.iter().any(|x| x.id() == id)
        || Opening::ALL.iter().any(|x| x.id() == id)
        || Castle::ALL.iter().any(|x| x.id() == id)
        || Line::ALL.iter().any(|x| x.id() == id)
}

/// Every tag the archive can filter by, grouped (`GET /api/strategies`):
/// `{"families": [...], "openings": [...], "castles": [...], "lines": [...]}`,
/// each a list of tags with their names.
///
/// ```
/// let all = shogi_server::review::strategy::all_tags();
/// assert_eq!(all["castles"][0]["id"], "mino");
/// assert!(all["lines"].as_array().is_some_and(|l| !l.is_empty()));
/// ```
#[must_use]
pub fn all_tags() -> Value {
    json!({
        "families": Family::ALL.iter().map(|x| tag(x.id(), |l| x.name(l))).collect::<Vec<_>>(),
        "openings": Opening::ALL.iter().map(|x| tag(x.id(), |l| x.name(l))).collect::<Vec<_>>(),
        "castles": Castle::ALL.iter().map(|x| tag(x.id(), |l| x.name(l))).collect::<Vec<_>>(),
        "lines": Line::ALL.iter().map(|x| tag(x.id(), |l| x.name(l))).collect::<Vec<_>>(),
    })
}
