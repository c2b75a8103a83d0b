//! What a game contributes to a collection: its list columns, and every
//! position it reached (once, where it first reached it) with the move it
//! then played.

use std::collections::HashSet;

use shogi_core::Handicap;
use shogi_core::{Color, Move, Position};
use shogi_record::Record;

use crate::calendar::UNDATED_MS;
use crate::db::explorer::{deflate, Entry, Outcome, Reached};
use crate::db::StoredGame;
use crate::ratings::TimeClass;
use crate::review::{dedupe, records, strategy};

/// Every position of `start` and `moves` (legal moves), once each, where
/// first reached: a game that repeats a position counts it once, with the
/// move it played the first time.
///
/// ```
/// use shogi_core::Position;
/// let moves: Vec<shogi_core::Move> = ["2h3h", "8b7b", "3h2h", "7b8b", "7g7f"]
///     .iter().map(|m| m.parse().unwrap()).collect();
/// let reached = shogi_server::explorer::entry::positions(&Position::startpos(), &moves);
/// // The start position comes back after four moves: counted once.
/// assert_eq!(reached.len(), 5);
/// assert_eq!(reached[0].next, moves[0].to_u16());
/// assert_eq!(reached.last().unwrap().next, 0);
/// ```
#[must_use]
pub fn positions(start: &Position, moves: &[Move]) -> Vec<Reached> {
    let mut pos = start.clone();
    let mut seen = HashSet::with_capacity(moves.len() + 1);
    let mut out = Vec::with_capacity(moves.len() + 1);
    for (ply, &m) in moves.iter().enumerate() {
        if seen.insert(pos.hash()) {
            out.push(Reached {
                hash: pos.hash(),
                ply: u32::try_from(ply).unwrap_or(u32::MAX),
                next: m.to_u16(),
            });
        }
        pos.make_move(m);
    }
    if seen.insert(pos.hash()) {
        out.push(Reached {
            hash: pos.hash(),
            ply: u32::try_from(moves.len()).unwrap_or(u32::MAX),
            next: 0,
        });
    }
    out
}

/// The first 64 bits of a hex dedupe key ([`dedupe::key`]).
fn short_key(hex: &str) -> Option<i64> {
    u64::from_str_radix(hex.get(..16)?, 16)
        .ok()
        .map(u64::cast_signed)
}

/// The entry of an imported record file (`source`, as read by
/// [`shogi_record::read`] into `rec`), given the id `id`; a record whose
/// headers give no date is [`UNDATED_MS`].
#[must_use]
pub fn of_record(id: String, source: &[u8], rec: &Record) -> Entry {
    let moves: Vec<Move> = rec.moves.iter().map(|n| n.mv).collect();
    let outcome = match rec.ending {
        shogi_record::Ending::Game(e) => Some(Outcome::of_winner(e.winner())),
        _ => rec.loser().map(|l| Outcome::of_winner(Some(l.opponent()))),
    };
    let rating = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| rec.headers.get(k))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|r| (0.0..10_000.0).contains(r))
            .map(|r| r.round() as i64)
    };
    Entry {
        id,
        source: Some(deflate(source)),
        start_sfen: rec.start.to_sfen(),
        sente: rec.headers.sente.clone(),
        gote: rec.headers.gote.clone(),
        sente_rating: rating(&["先手レーティング", "sente_rating", "SenteRating"]),
        gote_rating: rating(&["後手レーティング", "gote_rating", "GoteRating"]),
        outcome,
        played_at_ms: records::played_at_ms(rec).unwrap_or(UNDATED_MS),
        time_class: records::record_time(rec).map(|t| TimeClass::of_control(&t)),
        handicap: rec.handicap().map_or("custom", Handicap::name).to_owned(),
        event: rec.headers.event.clone(),
        strategy: strategy::tags_text(&rec.strategy()),
        plies: u32::try_from(moves.len()).unwrap_or(u32::MAX),
        dedupe: short_key(&dedupe::key(rec)),
        positions: positions(&rec.start, &moves),
    }
}

/// The entry of game `id` played here (`None` for a game without moves,
/// which the collection leaves out).
#[must_use]
pub fn of_game(id: &str, g: &StoredGame) -> Option<Entry> {
    let rec = records::game_record(g);
    if rec.moves.is_empty() {
        return None;
    }
    let moves: Vec<Move> = rec.moves.iter().map(|n| n.mv).collect();
    let rating = |c: Color| {
        g.players.seats[c]
            .as_ref()
            .and_then(|p| p.rating)
            .filter(|_| g.players.rated)
            .map(|r| r.rating.round() as i64)
    };
    Some(Entry {
        id: id.to_owned(),
        source: None,
        start_sfen: rec.start.to_sfen(),
        sente: rec.headers.sente.clone(),
        gote: rec.headers.gote.clone(),
        sente_rating: rating(Color::Sente),
        gote_rating: rating(Color::Gote),
        outcome: g.ending.map(|e| Outcome::of_winner(e.winner())),
        played_at_ms: i64::try_from(g.created_at_ms).unwrap_or(i64::MAX),
        time_class: g.settings.time.as_ref().map(TimeClass::of_control),
        handicap: rec.handicap().map_or("custom", Handicap::name).to_owned(),
        event: g.settings.event.as_ref().map(|e| e.name.clone()),
        strategy: strategy::tags_text(&rec.strategy()),
        plies: u32::try_from(moves.len()).unwrap_or(u32::MAX),
        dedupe: None,
        positions: positions(&rec.start, &moves),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::explorer::inflate;

    #[test]
    fn deflated_bytes_come_back_as_they_were() {
        let text = "手合割：平手\n".repeat(50);
        let packed = deflate(text.as_bytes());
        assert!(packed.len() < text.len() / 4);
        assert_eq!(inflate(&packed).as_deref(), Some(text.as_bytes()));
    }

    #[test]
    fn a_records_ending_gives_its_outcome_and_the_key_its_first_bits() {
        let csa = b"N+Alice\nN-Bob\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
        let rec = shogi_record::read(csa).unwrap();
        let e = of_record("00000000000000aa".into(), csa, &rec);
        // Sente, to move, resigned.
        assert_eq!(e.outcome, Some(Outcome::GoteWin));
        assert_eq!(e.plies, 2);
        assert_eq!(e.positions.len(), 3);
        // No date in the record: not the day it was imported.
        assert_eq!(e.played_at_ms, UNDATED_MS);
        let dated = b"$START_TIME:2017/11/11 10:00:00\nPI\n+\n+7776FU\n";
        let rec = shogi_record::read(dated).unwrap();
        let e = of_record("00000000000000ab".into(), dated, &rec);
        assert_eq!(records::iso_day(e.played_at_ms), "2017-11-11");
        let full = dedupe::key(&rec);
        assert_eq!(
            e.dedupe.map(|k| format!("{:016x}", k.cast_unsigned())),
            Some(full[..16].to_owned())
        );
    }
}
