//! Single-move text in every style, and the JSA relative markers.
//!
//! The cases of move text live in `data/notation-cases.json`, which the web
//! client's unit test (`web/tests/unit.ts`) reads too, so the two
//! implementations of the same notations cannot drift apart. Reading text back
//! (which only this crate does) is tested here.

use std::collections::BTreeMap;

use serde::Deserialize;
use shogi_core::{sfen, Move, Position, Square};
use shogi_record::notation::{self, japanese, Style};

fn pos(s: &str) -> Position {
    sfen::parse_position(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn mv(s: &str) -> Move {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// One case of `data/notation-cases.json`: the text of `move`, played in `sfen` after `before`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    sfen: String,
    /// Moves played first; the last one's destination decides "same square" (`同`).
    before: Vec<String>,
    #[serde(rename = "move")]
    mv: String,
    /// The expected text per style name (see [`style`]).
    text: BTreeMap<String, String>,
}

/// The file: what it is for, and the cases.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    /// For people reading the file; declared so that any other field is an error.
    #[allow(dead_code)]
    about: String,
    cases: Vec<Case>,
}

/// The notation cases shared with the web client.
const CASES: &str = include_str!("data/notation-cases.json");

fn cases() -> Vec<Case> {
    let file: CaseFile =
        serde_json::from_str(CASES).expect("data/notation-cases.json holds `about` and `cases`");
    file.cases
}

/// The styles both this crate and the web client write; every case expects a text in each.
const SHARED_STYLES: [&str; 5] = ["japanese", "western", "russian", "ukrainian", "usi"];

/// The style a key of a case's `text` names.
fn style(name: &str) -> Style {
    match name {
        "japanese" => Style::Japanese,
        "kif" => Style::Kif,
        "western" => Style::Western,
        "western_numeric" => Style::WesternNumeric,
        "russian" => Style::Russian,
        "ukrainian" => Style::Ukrainian,
        "usi" => Style::Usi,
        other => panic!("unknown style {other:?} in data/notation-cases.json"),
    }
}

/// The position of a case, where its move lands before it, and the move.
fn setup(case: &Case) -> (Position, Option<Square>, Move) {
    let mut p = pos(&case.sfen);
    let mut last_to = None;
    for m in &case.before {
        let m = mv(m);
        p.play(m)
            .unwrap_or_else(|e| panic!("{}: {m} is not legal: {e}", case.name));
        last_to = Some(m.to());
    }
    (p, last_to, mv(&case.mv))
}

#[test]
fn every_shared_case_is_written_as_expected() {
    let mut wrong = Vec::new();
    for case in cases() {
        let (p, last_to, m) = setup(&case);
        assert!(p.is_legal(m), "{}: {m} is not legal", case.name);
        for (name, want) in &case.text {
            let got = notation::write(style(name), &p, m, last_to);
            if &got != want {
                wrong.push(format!(
                    "{} ({name}): wrote {got:?}, want {want:?}",
                    case.name
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_shared_japanese_and_kif_case_reads_back() {
    for case in cases() {
        let (p, last_to, m) = setup(&case);
        if let Some(text) = case.text.get("japanese") {
            assert_eq!(
                japanese::read(&p, last_to, text),
                Ok(m),
                "{}: {text}",
                case.name
            );
        }
        if let Some(text) = case.text.get("kif") {
            assert_eq!(
                notation::kif::read(&p, last_to, text),
                Ok(m),
                "{}: {text}",
                case.name
            );
        }
    }
}

#[test]
fn every_shared_case_expects_text_in_every_shared_style() {
    for case in cases() {
        for name in SHARED_STYLES {
            assert!(
                case.text.contains_key(name),
                "{} expects no {name} text",
                case.name
            );
        }
    }
}

#[test]
fn reading_accepts_the_other_ways_of_writing() {
    // 生 for a declined promotion, the promoted piece for a promotion, 同 without the space.
    let p = pos("4k4/9/9/4S4/9/9/9/9/4K4 b - 1");
    assert_eq!(japanese::read(&p, None, "▲５三銀生"), Ok(mv("5d5c")));
    let mut p = Position::startpos();
    for m in ["7g7f", "3c3d"] {
        p.play(mv(m)).expect("legal");
    }
    assert_eq!(japanese::read(&p, None, "▲２二馬"), Ok(mv("8h2b+")));
    p.play(mv("8h2b+")).expect("legal");
    let last = Some(mv("8h2b+").to());
    assert_eq!(japanese::read(&p, last, "△同銀"), Ok(mv("3a2b")));
}

#[test]
fn ambiguous_text_is_reported_not_guessed() {
    let p = pos("4k4/9/9/9/9/9/9/9/3GGG2K b - 1");
    assert_eq!(
        japanese::read(&p, None, "▲５八金"),
        Err(shogi_record::MoveProblem::Ambiguous(3))
    );
    assert_eq!(
        japanese::read(&p, None, "▲１一金"),
        Err(shogi_record::MoveProblem::NoMatch)
    );
}

#[test]
fn every_legal_move_of_real_games_reads_back_from_japanese_text() {
    // Every legal move in a few middle-game positions: the written text resolves to that move.
    let mut p = Position::startpos();
    let line = "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 3a4b 5i6h 4b4c 6h7h 5a6b 5g5f 6b7b 4i5h 7a6b";
    for m in line.split(' ') {
        let m = mv(m);
        let mut last = None;
        for cand in p.legal_moves() {
            let text = japanese::write(&p, cand, last);
            assert_eq!(
                japanese::read(&p, last, &text),
                Ok(cand),
                "{text} in {}",
                p.to_sfen()
            );
            last = Some(cand.to());
            let text = japanese::write(&p, cand, last);
            assert_eq!(
                japanese::read(&p, last, &text),
                Ok(cand),
                "{text} in {}",
                p.to_sfen()
            );
            last = None;
        }
        p.play(m).expect("legal");
    }
}
