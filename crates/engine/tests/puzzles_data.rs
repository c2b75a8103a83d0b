//! Re-proves every puzzle of the shipped set (crates/server/data/puzzles.json)
//! with the solver and the search, independently of the generator:
//!
//! - a mate puzzle's stored solution is a mate of exactly `plies` plies
//!   (legal moves, every attacker move a check, checkmate at the end), there
//!   is no mate in `plies - 2`, and no other checking first move mates
//!   within `plies` (after each, some reply escapes a mate in the plies left);
//! - a best-move puzzle's move is legal, and a fresh single-thread two-line
//!   search of [`BEST_NODES`] nodes still plays it, at least [`MARGIN`]
//!   centipawns ahead of the second line, with the stored scores. After a
//!   change to the search, `shogi puzzles confirm` brings the file up to date
//!   (docs/PUZZLES.md).

use std::time::Duration;

use serde_json::Value;
use shogi_core::{Move, Position};
use shogi_engine::dfpn::{
    longest_defence, shortest_mate_within, verify_mate_line, Defence, MateLimit, MateResult,
};
use shogi_engine::limits::SearchLimit;
use shogi_engine::puzzles::BEST_NODES;
use shogi_engine::search::{search_position, SearchOptions, MATE_IN_MAX_PLY};

/// The least lead of the best move (the generator's `--margin` default).
const MARGIN: i64 = 300;

fn data() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../server/data/puzzles.json");
    let text = std::fs::read_to_string(path).expect("the puzzle data file");
    serde_json::from_str(&text).expect("valid JSON")
}

fn puzzles(data: &Value) -> &Vec<Value> {
    data["puzzles"].as_array().expect("a puzzles array")
}

fn text<'a>(p: &'a Value, key: &str) -> &'a str {
    p[key].as_str().unwrap_or_else(|| panic!("{key} in {p}"))
}

fn solution(p: &Value) -> Vec<Move> {
    p["solution"]
        .as_array()
        .expect("a solution array")
        .iter()
        .map(|m| m.as_str().expect("a USI move").parse().expect("USI syntax"))
        .collect()
}

fn limit() -> MateLimit {
    MateLimit::time(Duration::from_secs(30))
}

#[test]
fn the_set_is_large_and_ids_are_unique() {
    let data = data();
    assert_eq!(data["version"], 1);
    assert!(data["generator"]
        .as_str()
        .is_some_and(|g| g.starts_with("shogi puzzles generate")));
    let list = puzzles(&data);
    assert!(list.len() >= 200, "{} puzzles", list.len());
    let mut ids: Vec<&str> = list.iter().map(|p| text(p, "id")).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), list.len(), "duplicate ids");
    for plies in [1, 3, 5, 7] {
        let n = list
            .iter()
            .filter(|p| p["kind"] == "mate" && p["plies"] == plies)
            .count();
        assert!(n >= 30, "{n} mates in {plies}");
    }
    let best = list.iter().filter(|p| p["kind"] == "best").count();
    assert!(best >= 30, "{best} best-move puzzles");
    for p in list {
        let rating = p["rating"].as_i64().expect("a rating");
        assert!((500..=3000).contains(&rating), "{p}");
    }
}

#[test]
fn every_mate_puzzle_is_a_unique_shortest_mate() {
    let data = data();
    for p in puzzles(&data).iter().filter(|p| p["kind"] == "mate") {
        let id = text(p, "id");
        let pos: Position = shogi_core::sfen::parse_position(text(p, "sfen")).expect(id);
        let plies = p["plies"].as_u64().expect("plies") as u32;
        let line = solution(p);
        assert_eq!(line.len(), plies as usize, "{id}: solution length");
        assert!(
            verify_mate_line(&pos, &line),
            "{id}: the solution is not a mate"
        );
        if plies > 1 {
            assert_eq!(
                shortest_mate_within(&pos, plies - 2, limit()),
                MateResult::NoMate,
                "{id}: a shorter mate"
            );
        }
        for m in pos.legal_moves() {
            if m == line[0] || !pos.gives_check(m) {
                continue;
            }
            let mut after = pos.clone();
            after.play(m).expect("a legal move");
            let d = longest_defence(&after, plies.saturating_sub(2), None, limit());
            assert!(
                matches!(d, Defence::Escapes(_)),
                "{id}: {m} also mates in {plies} ({d:?})"
            );
        }
    }
}

#[test]
fn every_best_move_puzzle_is_still_clearly_best() {
    let data = data();
    // The scores in the file are those of the search that last confirmed it
    // (node-limited, so exactly repeatable); a failure after a change to the
    // search is mended by `shogi puzzles confirm`.
    let options = SearchOptions {
        multipv: 2,
        ..SearchOptions::default()
    };
    for p in puzzles(&data).iter().filter(|p| p["kind"] == "best") {
        let id = text(p, "id");
        let pos: Position = shogi_core::sfen::parse_position(text(p, "sfen")).expect(id);
        let line = solution(p);
        assert_eq!(line.len(), 1, "{id}");
        assert_eq!(p["plies"], 1, "{id}");
        assert!(pos.is_legal(line[0]), "{id}: illegal solution");
        let r = search_position(&pos, &SearchLimit::Nodes(BEST_NODES), &options);
        assert_eq!(r.lines.len(), 2, "{id}");
        assert_eq!(
            r.lines[0].pv.first(),
            Some(&line[0]),
            "{id}: another best move"
        );
        let (best, second) = (i64::from(r.lines[0].score), i64::from(r.lines[1].score));
        assert!(
            best.abs() < i64::from(MATE_IN_MAX_PLY),
            "{id}: a mate score"
        );
        assert!(best - second >= MARGIN, "{id}: {best} vs {second}");
        let stale = "stale scores: run `shogi puzzles confirm` (docs/PUZZLES.md)";
        assert_eq!(p["best_cp"], best, "{id}: {stale}");
        assert_eq!(p["second_cp"], second, "{id}: {stale}");
    }
}
