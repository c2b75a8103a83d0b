//! Every exercise of the learn course (`web/src/learn/lessons/lessons.json`) is
//! solved by its stated moves under the rules core: reach and capture
//! solutions visit every target in the fewest moves a breadth-first search
//! finds (the opponent passing); drops, refused moves, promotion choices,
//! checks, mates and escapes are judged by `shogi_core`; quiz answers are
//! checked against the core where it can say (repetition, impasse points,
//! the 24-point count, handicaps).

use std::collections::{HashSet, VecDeque};
use std::str::FromStr;

use serde_json::Value;
use shogi_core::{
    impasse, ByColor, Color, Ending, Game, HandKind, Handicap, ImpasseRule, ImpasseVerdict,
    Leniency, Move, Position, Square,
};
use shogi_server::game::rule_code;

const LANGS: [&str; 4] = ["en", "ru", "uk", "ja"];

fn course() -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/src/learn/lessons/lessons.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn exercises(course: &Value) -> Vec<(String, Value)> {
    course["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|l| {
            let lesson = l["id"].as_str().unwrap().to_string();
            l["exercises"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |e| (lesson.clone(), e.clone()))
        })
        .collect()
}

fn position(sfen: &str) -> Position {
    shogi_core::sfen::parse_position_with(
        sfen,
        Leniency {
            allow_missing_kings: true,
        },
    )
    .unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

fn squares(v: &Value) -> Vec<Square> {
    strs(v).iter().map(|s| s.parse().unwrap()).collect()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn is_mate(pos: &Position) -> bool {
    pos.in_check() && pos.legal_moves().is_empty()
}

/// Plays `m` (which must be legal) and gives the move back to Sente, as the
/// client does when the opponent passes; `None` if Gote would be in check.
fn play_and_pass(pos: &Position, m: Move) -> Option<Position> {
    let mut next = pos.clone();
    next.play(m).ok()?;
    next.with_side_to_move(Color::Sente).ok()
}

/// The targets `pos` leaves visited after a move to `to`.
fn mark(stars: &[Square], mask: u32, to: Square) -> u32 {
    stars
        .iter()
        .enumerate()
        .filter(|(_, &s)| s == to)
        .fold(mask, |m, (i, _)| m | (1 << i))
}

/// The fewest Sente moves (Gote passing) that land on every square of `stars`.
fn fewest(start: &Position, stars: &[Square]) -> Option<usize> {
    let full = (1u32 << stars.len()) - 1;
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([(start.clone(), 0u32, 0usize)]);
    seen.insert((start.hash(), 0u32));
    while let Some((pos, mask, depth)) = queue.pop_front() {
        if depth >= 8 {
            continue;
        }
        for m in pos.legal_moves() {
            let Some(next) = play_and_pass(&pos, m) else {
                continue;
            };
            let mask = mark(stars, mask, m.to());
            if mask == full {
                return Some(depth + 1);
            }
            if seen.insert((next.hash(), mask)) {
                queue.push_back((next, mask, depth + 1));
            }
        }
    }
    None
}

fn check_path(id: &str, pos: &Position, stars: &[Square], solution: &[String]) {
    assert!(!stars.is_empty(), "{id}: no targets");
    let full = (1u32 << stars.len()) - 1;
    let mut p = pos.clone();
    let mut mask = 0;
    for (i, text) in solution.iter().enumerate() {
        let m = mv(text);
        assert_ne!(mask, full, "{id}: done before move {i}");
        p.check_move(m)
            .unwrap_or_else(|e| panic!("{id}: {text} refused: {e}"));
        p = play_and_pass(&p, m).unwrap_or_else(|| panic!("{id}: {text} checks"));
        mask = mark(stars, mask, m.to());
    }
    assert_eq!(mask, full, "{id}: the solution misses a target");
    assert_eq!(
        fewest(pos, stars),
        Some(solution.len()),
        "{id}: the fewest moves differ from the solution's"
    );
}

fn after(pos: &Position, m: Move) -> Position {
    let mut p = pos.clone();
    p.play(m).unwrap_or_else(|e| panic!("{m} refused: {e}"));
    p
}

/// The promotion choice's other side: `7g7f+` ↔ `7g7f`.
fn toggled(m: Move) -> Move {
    match m {
        Move::Board { from, to, promote } => Move::Board {
            from,
            to,
            promote: !promote,
        },
        d @ Move::Drop { .. } => d,
    }
}

const FULLWIDTH: &str = "０１２３４５６７８９";
const KANJI: &str = "〇一二三四五六七八九";

/// `７六` → 7f.
fn japanese_square(text: &str) -> Square {
    let mut c = text.chars();
    let (fc, rc) = (c.next().unwrap(), c.next().unwrap());
    let f = FULLWIDTH.chars().position(|d| d == fc).unwrap();
    let r = KANJI.chars().position(|d| d == rc).unwrap();
    Square::from_numbers(u8::try_from(f).unwrap(), u8::try_from(r).unwrap()).unwrap()
}

/// What the core says a quiz asks about.
fn quiz_truth(id: &str, pos: &Position, verify: &Value) -> String {
    match verify["kind"].as_str().unwrap() {
        "square" => {
            let sq = japanese_square(verify["ja"].as_str().unwrap());
            let piece = pos.piece_at(sq).expect("a piece on the named square");
            assert_eq!(
                piece.to_string(),
                verify["piece"].as_str().unwrap(),
                "{id}: the piece on {sq}"
            );
            sq.to_string()
        }
        "repetition" => {
            let mut game = Game::new(pos.clone());
            for text in strs(&verify["moves"]) {
                assert!(game.ending().is_none(), "{id}: over before {text}");
                game.play(mv(&text))
                    .unwrap_or_else(|e| panic!("{id}: {text}: {e}"));
            }
            match game.ending() {
                None => "ongoing".into(),
                Some(Ending::Repetition) => "draw".into(),
                Some(Ending::PerpetualCheck { loser }) => format!("{}_loses", side(loser)),
                Some(e) => panic!("{id}: ended otherwise: {e:?}"),
            }
        }
        "points" => {
            let color = if verify["color"] == "sente" {
                Color::Sente
            } else {
                Color::Gote
            };
            impasse::total_points(pos, color).to_string()
        }
        "count24" => {
            match impasse::judge(pos, ImpasseRule::Count24, ByColor::default())
                .expect("both kings have entered")
            {
                ImpasseVerdict::Win => "win".into(),
                ImpasseVerdict::Draw => "draw".into(),
                ImpasseVerdict::Loss => "loss".into(),
            }
        }
        "handicap" => {
            let h = Handicap::from_str(verify["handicap"].as_str().unwrap()).unwrap();
            assert_eq!(
                h.position().to_sfen(),
                pos.to_sfen(),
                "{id}: not the handicap's position"
            );
            side(h.position().side_to_move()).into()
        }
        other => panic!("{id}: unknown check {other}"),
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::Sente => "sente",
        Color::Gote => "gote",
    }
}

fn check_exercise(id: &str, e: &Value) {
    let pos = position(e["sfen"].as_str().unwrap());
    let solution = strs(&e["solution"]);
    let stars = squares(&e["stars"]);
    let first = || mv(&solution[0]);
    match e["kind"].as_str().unwrap() {
        "reach" => check_path(id, &pos, &stars, &solution),
        "capture" => {
            let targets: Vec<Square> = Square::all()
                .filter(|&s| pos.piece_at(s).is_some_and(|p| p.color == Color::Gote))
                .collect();
            check_path(id, &pos, &targets, &solution);
        }
        "drop" => {
            assert_eq!(solution.len(), 1, "{id}");
            let legal: Vec<Move> = stars
                .iter()
                .flat_map(|&to| {
                    HandKind::ALL
                        .iter()
                        .map(move |&kind| Move::Drop { kind, to })
                })
                .filter(|&m| pos.is_legal(m))
                .collect();
            assert_eq!(legal, vec![first()], "{id}: the legal drops on the stars");
        }
        "illegal" => {
            assert!(stars.contains(&first().to()), "{id}: not onto a star");
            let reason = pos.check_move(first()).expect_err(id);
            assert_eq!(rule_code(reason), e["rule"].as_str().unwrap(), "{id}");
        }
        "promote" => {
            let m = first();
            let other = toggled(m);
            assert_ne!(m, other, "{id}: a drop has no choice");
            assert!(pos.is_legal(other), "{id}: the other choice is illegal");
            let goal = |p: &Position| match e["after"].as_str().unwrap() {
                "check" => p.in_check(),
                "mate" => is_mate(p),
                x => panic!("{id}: unknown goal {x}"),
            };
            assert!(
                goal(&after(&pos, m)),
                "{id}: the right choice misses the goal"
            );
            assert!(
                !goal(&after(&pos, other)),
                "{id}: the other choice reaches it too"
            );
        }
        "check" => assert!(after(&pos, first()).in_check(), "{id}: no check"),
        "mate1" => assert!(is_mate(&after(&pos, first())), "{id}: no mate"),
        "escape" => {
            assert!(pos.in_check(), "{id}: not in check");
            assert!(!after(&pos, first()).in_check() || pos.king(Color::Sente).is_none());
        }
        "quiz" => {
            let choices = e["choices"].as_array().unwrap();
            let answer = usize::try_from(e["answer"].as_u64().unwrap()).unwrap();
            let truth = quiz_truth(id, &pos, &e["verify"]);
            assert_eq!(choices[answer]["value"], truth.as_str(), "{id}");
            let values: HashSet<&str> = choices
                .iter()
                .map(|c| c["value"].as_str().unwrap())
                .collect();
            assert_eq!(values.len(), choices.len(), "{id}: two choices alike");
            for c in choices {
                texts(id, &c["text"]);
            }
        }
        other => panic!("{id}: unknown kind {other}"),
    }
}

/// A text in every language.
fn texts(id: &str, v: &Value) {
    for l in LANGS {
        let ok = match &v[l] {
            Value::String(s) => !s.trim().is_empty(),
            Value::Array(a) => {
                !a.is_empty() && a.iter().all(|s| s.as_str().is_some_and(|s| !s.is_empty()))
            }
            _ => false,
        };
        assert!(ok, "{id}: no {l} text");
    }
}

#[test]
fn every_exercise_is_solved_by_its_moves_under_the_rules() {
    let c = course();
    let all = exercises(&c);
    assert!(all.len() >= 30, "{} exercises", all.len());
    for (lesson, e) in &all {
        let id = e["id"].as_str().unwrap();
        assert!(
            id.starts_with(&format!("{lesson}-")),
            "{id} outside {lesson}"
        );
        texts(id, &e["goal"]);
        check_exercise(id, e);
    }
}

#[test]
fn the_course_has_fifteen_lessons_in_every_language_with_unique_ids() {
    let c = course();
    let lessons = c["lessons"].as_array().unwrap();
    assert!(lessons.len() >= 15);
    let mut ids = HashSet::new();
    for l in lessons {
        let id = l["id"].as_str().unwrap();
        assert!(ids.insert(id.to_string()), "{id} twice");
        texts(id, &l["title"]);
        texts(id, &l["text"]);
        assert!(!l["exercises"].as_array().unwrap().is_empty(), "{id}");
    }
    for (_, e) in exercises(&c) {
        assert!(
            ids.insert(e["id"].as_str().unwrap().to_string()),
            "{} twice",
            e["id"]
        );
    }
    // Every kind the client knows is exercised.
    let kinds: HashSet<String> = exercises(&c)
        .iter()
        .map(|(_, e)| e["kind"].as_str().unwrap().to_string())
        .collect();
    for k in [
        "reach", "capture", "drop", "illegal", "promote", "check", "mate1", "escape", "quiz",
    ] {
        assert!(kinds.contains(k), "no {k} exercise");
    }
}

/// The breadth-first search itself against positions counted by hand.
#[test]
fn the_fewest_moves_search_counts_known_cases() {
    let rook = position("9/9/9/9/9/9/9/9/R8 b - 1");
    assert_eq!(fewest(&rook, &["1a".parse().unwrap()]), Some(2));
    assert_eq!(fewest(&rook, &["9a".parse().unwrap()]), Some(1));
    let knight = position("9/9/9/9/9/9/9/9/1N7 b - 1");
    // A knight never reaches the square beside it.
    assert_eq!(fewest(&knight, &["7i".parse().unwrap()]), None);
}
