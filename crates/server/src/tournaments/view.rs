//! The JSON of an event, its players, rounds, boards and standings
//! (docs/PROTOCOL.md, "Tournaments").

use serde_json::{json, Map, Value};
use shogi_tournament::standings::standings;

use super::event::{board_result, result_name, Loaded};
use crate::accounts::Account;
use crate::db::invitations::InvitationRow;
use crate::db::tournaments::{BoardRow, EntrantRow, RoundRow};

/// An entrant.
#[must_use]
pub fn entrant(p: &EntrantRow) -> Value {
    json!({
        "player": p.number, "name": p.name, "account": p.account, "rating": p.rating,
        "rank": p.rank, "club": p.club, "from_round": p.from_round,
        "withdrawn": p.withdrawn_from.is_some(), "withdrawn_from": p.withdrawn_from,
        "proposed_rank": p.proposed_rank,
    })
}

/// An event's pending invitations (organisers see them).
#[must_use]
pub fn invitations(rows: &[InvitationRow]) -> Value {
    Value::Array(
        rows.iter()
            .map(|i| json!({"name": i.name, "by": i.by, "at_ms": i.at_ms, "rank": i.rank, "club": i.club}))
            .collect(),
    )
}

/// A board.
#[must_use]
pub fn board(_t: &Loaded, b: &BoardRow) -> Value {
    json!({
        "board": b.board, "sente": b.sente, "gote": b.gote,
        "game": b.games.first().map(|g| &g.id),
        "games": b.games.iter().map(|g| &g.id).collect::<Vec<_>>(),
        "play": b.play,
        "result": board_result(b).map(result_name),
        "colours": b.colours,
        "toss": b.toss.map(|(tosser, fu)| json!({"tosser": tosser, "fu": fu})),
        "handicap": b.handicap,
        "record": b.record.is_some(),
        "reports": {"sente": b.reports.0, "gote": b.reports.1},
    })
}

/// A round.
#[must_use]
pub fn round(t: &Loaded, r: &RoundRow) -> Value {
    let warnings: Value = serde_json::from_str(&r.warnings).unwrap_or_else(|_| json!([]));
    let points = |kind: &str| match kind {
        "half" => 0.5,
        "full" => 1.0,
        "pairing" if t.settings.format != super::settings::FormatName::RoundRobin => 1.0,
        _ => 0.0,
    };
    json!({
        "round": r.round,
        "pairings": r.boards.iter().map(|b| board(t, b)).collect::<Vec<_>>(),
        "bye": r.byes.iter().find(|(_, k)| k == "pairing").map(|(p, _)| p),
        "byes": r.byes.iter().map(|(p, k)| json!({"player": p, "kind": k, "points": points(k)})).collect::<Vec<_>>(),
        "warnings": warnings,
    })
}

/// The standings, best first.
#[must_use]
pub fn standings_json(t: &Loaded) -> Value {
    let order = t.settings.tiebreak_order();
    let rows = standings(&t.event(), &order);
    Value::Array(
        rows.iter()
            .map(|s| {
                let mut tb = Map::new();
                for (k, v) in order.iter().zip(&s.tiebreaks) {
                    tb.insert(k.key().to_string(), json!(v));
                }
                json!({
                    "rank": s.rank,
                    "player": s.player + 1,
                    "name": t.rows.players.get(s.player).map(|p| p.name.as_str()),
                    "points": s.points.value(),
                    "tiebreaks": tb,
                })
            })
            .collect(),
    )
}

/// The whole event as `viewer` sees it.
#[must_use]
pub fn event(t: &Loaded, viewer: Option<&Account>) -> Value {
    let s = &t.settings;
    let you = viewer.map(|a| {
        json!({
            "organiser": t.is_organiser(a.id) || a.is_admin(),
            "player": t.entrant_of(a.id).map(|p| p.number),
        })
    });
    json!({
        "id": t.id(), "name": s.name, "place": s.place, "country": s.country, "starts": s.starts, "ends": s.ends,
        "format": s.format, "planned_rounds": t.planned(), "double": s.double, "time": s.time,
        "rated": s.rated, "play": s.play, "impasse": s.impasse.to_string(),
        "tiebreaks": s.tiebreaks, "open": s.open, "handicap": s.handicap,
        "chat": s.chat, "takebacks": s.takebacks,
        "mcmahon": s.mcmahon.map(|m| json!({"bar": m.bar.short(), "floor": m.floor.short()})),
        "status": t.status(), "round": t.paired(),
        "created_at_ms": t.rows.event.created_at_ms,
        "organisers": t.rows.organisers.iter().map(|(_, n)| n).collect::<Vec<_>>(),
        "you": you,
        "players": t.rows.players.iter().map(entrant).collect::<Vec<_>>(),
        "rounds": t.rows.rounds.iter().map(|r| round(t, r)).collect::<Vec<_>>(),
        "standings": standings_json(t),
    })
}
