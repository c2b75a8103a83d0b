//! Single-move text in every style, and the JSA relative markers.

use shogi_core::{sfen, Move, Position};
use shogi_record::notation::{self, japanese, Style};

fn pos(s: &str) -> Position {
    sfen::parse_position(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn mv(s: &str) -> Move {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Writes `m` in Japanese, checks the text, and reads it back to the same move.
fn japanese_round_trip(p: &Position, m: &str, text: &str) {
    let m = mv(m);
    assert_eq!(japanese::write(p, m, None), text);
    assert_eq!(japanese::read(p, None, text), Ok(m), "{text} reads back");
}

#[test]
fn three_golds_use_right_straight_left() {
    let p = pos("4k4/9/9/9/9/9/9/9/3GGG2K b - 1");
    japanese_round_trip(&p, "6i5h", "▲５八金左");
    japanese_round_trip(&p, "5i5h", "▲５八金直");
    japanese_round_trip(&p, "4i5h", "▲５八金右");
}

#[test]
fn movement_markers_come_before_right_and_left() {
    let p = pos("4k4/9/9/9/9/9/9/3G5/5G2K b - 1");
    japanese_round_trip(&p, "6h5h", "▲５八金寄");
    japanese_round_trip(&p, "4i5h", "▲５八金上");
    let p = pos("4k4/9/9/9/9/9/3S5/9/5S2K b - 1");
    japanese_round_trip(&p, "6g5h", "▲５八銀引");
    japanese_round_trip(&p, "4i5h", "▲５八銀上");
}

#[test]
fn gote_right_is_the_high_files() {
    let p = pos("3g1g2k/9/9/9/9/9/9/9/4K4 w - 1");
    japanese_round_trip(&p, "6a5b", "△５二金右");
    japanese_round_trip(&p, "4a5b", "△５二金左");
}

#[test]
fn two_dragons_on_one_rank_use_right_and_left() {
    let p = pos("9/+R7+R/9/9/4k4/9/9/9/4K4 b - 1");
    japanese_round_trip(&p, "9b5b", "▲５二龍左");
    japanese_round_trip(&p, "1b5b", "▲５二龍右");
}

#[test]
fn drop_is_marked_only_when_a_board_piece_could_go_there() {
    let p = pos("4k4/9/9/9/9/9/9/9/3GGG2K b G 1");
    japanese_round_trip(&p, "G*5h", "▲５八金打");
    japanese_round_trip(&p, "G*5e", "▲５五金");
}

#[test]
fn promotion_and_declined_promotion() {
    let p = pos("4k4/9/9/4S4/9/9/9/9/4K4 b - 1");
    japanese_round_trip(&p, "5d5c+", "▲５三銀成");
    japanese_round_trip(&p, "5d5c", "▲５三銀不成");
    assert_eq!(japanese::read(&p, None, "▲５三銀生"), Ok(mv("5d5c")));
}

#[test]
fn same_square_and_promoted_piece_names() {
    let mut p = Position::startpos();
    for m in ["7g7f", "3c3d"] {
        p.play(mv(m)).expect("legal");
    }
    assert_eq!(
        japanese::write(&p, mv("8h2b+"), Some(mv("3c3d").to())),
        "▲２二角成"
    );
    // The style that writes a promotion as the promoted piece.
    assert_eq!(japanese::read(&p, None, "▲２二馬"), Ok(mv("8h2b+")));
    p.play(mv("8h2b+")).expect("legal");
    let last = Some(mv("8h2b+").to());
    assert_eq!(japanese::write(&p, mv("3a2b"), last), "△同　銀");
    assert_eq!(japanese::read(&p, last, "△同　銀"), Ok(mv("3a2b")));
    assert_eq!(japanese::read(&p, last, "△同銀"), Ok(mv("3a2b")));
    assert_eq!(notation::kif::write(&p, mv("3a2b"), last), "同　銀(31)");
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
fn western_styles() {
    let mut p = Position::startpos();
    assert_eq!(
        notation::write(Style::Western, &p, mv("7g7f"), None),
        "P-7f"
    );
    assert_eq!(
        notation::write(Style::WesternNumeric, &p, mv("7g7f"), None),
        "P-76"
    );
    assert_eq!(
        notation::write(Style::Western, &p, mv("6i5h"), None),
        "G6i-5h"
    );
    for m in ["7g7f", "3c3d"] {
        p.play(mv(m)).expect("legal");
    }
    assert_eq!(
        notation::write(Style::Western, &p, mv("8h2b+"), None),
        "Bx2b+"
    );
    assert_eq!(
        notation::write(Style::Western, &p, mv("8h2b"), None),
        "Bx2b="
    );
    let s = pos("4k4/9/9/4S4/9/9/9/9/4K4 b P 1");
    assert_eq!(
        notation::write(Style::Western, &s, mv("5d5c"), None),
        "S-5c="
    );
    assert_eq!(
        notation::write(Style::Western, &s, mv("P*5e"), None),
        "P*5e"
    );
    assert_eq!(
        notation::write(Style::WesternNumeric, &s, mv("P*5e"), None),
        "P*55"
    );
}

#[test]
fn russian_and_ukrainian_styles() {
    let mut p = Position::startpos();
    assert_eq!(
        notation::write(Style::Russian, &p, mv("7g7f"), None),
        "7g-7f"
    );
    assert_eq!(
        notation::write(Style::Russian, &p, mv("2h3h"), None),
        "Л2h-3h"
    );
    assert_eq!(
        notation::write(Style::Ukrainian, &p, mv("2h3h"), None),
        "Т2h-3h"
    );
    assert_eq!(
        notation::write(Style::Russian, &p, mv("9i9h"), None),
        "Кп9i-9h"
    );
    assert_eq!(
        notation::write(Style::Ukrainian, &p, mv("9i9h"), None),
        "Сп9i-9h"
    );
    for m in ["7g7f", "3c3d"] {
        p.play(mv(m)).expect("legal");
    }
    assert_eq!(
        notation::write(Style::Russian, &p, mv("8h2b+"), None),
        "С8hx2b+"
    );
    let s = pos("4k4/9/9/4S4/9/9/9/9/4K4 b P 1");
    assert_eq!(
        notation::write(Style::Russian, &s, mv("5d5c"), None),
        "Ср5d-5c="
    );
    assert_eq!(
        notation::write(Style::Ukrainian, &s, mv("P*5e"), None),
        "П*5e"
    );
    assert_eq!(notation::write(Style::Usi, &s, mv("P*5e"), None), "P*5e");
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
