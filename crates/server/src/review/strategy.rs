//! A record's strategy tags as JSON (`strategy` in the record JSON,
//! docs/PROTOCOL.md): each side's opening and castles and the game's line,
//! by the rules of `shogi_record::strategy` (docs/STRATEGY.md), each tag
//! with its id and its names in the four languages of the site.

use serde_json::{json, Map, Value};
use shogi_record::strategy::{Lang, SideStrategy, Strategy};
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
