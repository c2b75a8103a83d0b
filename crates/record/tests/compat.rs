//! Writer choices made for other programs' readers (see `other_tools.rs`): KIF without
//! `不成` and with `同　` before every piece name, `まで…` summary lines in the forms
//! Kifu for Windows writes, KI2 markers that also count pinned pieces, KI2 lines of any
//! length.

use shogi_core::{sfen, Color, Move, Position};
use shogi_record::notation::{japanese, kif as kif_move};
use shogi_record::{ki2, kif, Encoding, Ending, Record};

fn mv(s: &str) -> Move {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn pos(s: &str) -> Position {
    sfen::parse_position(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn kif_moves_have_no_funari_and_a_space_after_dou() {
    // Sente's silver on 4d may promote on 3c but does not.
    let p = pos("4k4/9/9/5S3/9/9/9/9/4K4 b - 1");
    assert_eq!(kif_move::write(&p, mv("4d3c"), None), "３三銀(44)");
    assert_eq!(kif_move::write(&p, mv("4d3c+"), None), "３三銀成(44)");
    // 同 before a promoted knight (a two-character name) still takes the space.
    let p = pos("4k4/9/5+N3/9/9/9/9/9/4K4 b - 1");
    assert_eq!(kif_move::write(&p, mv("4c4b"), None), "４二成桂(43)");
    assert_eq!(
        kif_move::write(&p, mv("4c4b"), Some(mv("5a4b").to())),
        "同　成桂(43)"
    );
    // And the reader takes every spelling back.
    let p = pos("4k4/9/9/5S3/9/9/9/9/4K4 b - 1");
    for text in ["３三銀(44)", "３三銀不成(44)"] {
        assert_eq!(
            kif_move::read(&p, None, text).unwrap(),
            mv("4d3c"),
            "{text}"
        );
    }
}

#[test]
fn ki2_markers_count_pinned_pieces() {
    // The gold on 5h is pinned by the rook on 5a; it could still seem to reach 4h.
    let p = pos("4r3k/9/9/9/9/9/9/4G4/4KG3 b - 1");
    assert_eq!(japanese::write(&p, mv("4i4h"), None), "▲４八金上");
    // With a gold in hand, the drop needs 打 as a (pinned) gold on the board "reaches" 4h.
    let p = pos("4r3k/9/9/9/9/9/9/4G4/4K4 b G 1");
    assert_eq!(japanese::write(&p, mv("G*4h"), None), "▲４八金打");
    // Both still read back as the legal move.
    let p = pos("4r3k/9/9/9/9/9/9/4G4/4KG3 b - 1");
    for text in ["▲４八金上", "▲４八金"] {
        assert_eq!(
            japanese::read(&p, None, text).unwrap(),
            mv("4i4h"),
            "{text}"
        );
    }
}

fn record(moves: &[&str], ending: Ending) -> Record {
    let mut rec = Record::new(Position::startpos());
    for m in moves {
        rec.push(mv(m));
    }
    rec.ending = ending;
    rec
}

#[test]
fn summary_lines_name_the_result_and_read_back() {
    let moves = ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e"];
    let cases = [
        (
            Ending::Game(shogi_core::Ending::Resignation {
                loser: Color::Sente,
            }),
            "まで6手で後手の勝ち",
        ),
        (
            Ending::Game(shogi_core::Ending::Foul {
                loser: Color::Gote,
                foul: shogi_core::Foul::Unspecified,
            }),
            "まで6手で先手の反則勝ち",
        ),
        (
            Ending::Game(shogi_core::Ending::Foul {
                loser: Color::Sente,
                foul: shogi_core::Foul::Unspecified,
            }),
            "まで6手で先手の反則負け",
        ),
        (
            Ending::Game(shogi_core::Ending::Impasse {
                winner: Some(Color::Sente),
            }),
            "まで6手で先手の入玉勝ち",
        ),
        (
            Ending::Game(shogi_core::Ending::Repetition),
            "まで6手で千日手",
        ),
        (Ending::Game(shogi_core::Ending::Abort), "まで6手で中断"),
    ];
    for (ending, line) in cases {
        let rec = record(&moves, ending);
        let kif_text = kif::write(&rec);
        let ki2_text = ki2::write(&rec);
        assert!(kif_text.lines().any(|l| l == line), "{line}\n{kif_text}");
        assert!(ki2_text.lines().any(|l| l == line), "{line}\n{ki2_text}");
        assert_eq!(kif::read(&kif_text).unwrap().ending, ending, "{kif_text}");
        assert_eq!(ki2::read(&ki2_text).unwrap().ending, ending, "{ki2_text}");
        // The summary alone (no terminal word) gives the same ending.
        let bare: String = ki2_text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .flat_map(|l| [l, "\n"])
            .collect();
        assert_eq!(ki2::read(&bare).unwrap().ending, ending, "{bare}");
    }
    // Handicap games name 下手 and 上手; the summary reads back the same.
    let text = "手合割：香落ち\n△３四歩 ▲７六歩\nまで2手で上手の反則勝ち\n";
    let rec = ki2::read(text).unwrap();
    assert_eq!(
        rec.ending,
        Ending::Game(shogi_core::Ending::Foul {
            loser: Color::Sente,
            foul: shogi_core::Foul::Unspecified
        })
    );
}

#[test]
fn ki2_lines_hold_as_many_moves_as_asked() {
    let rec = record(&["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"], Ending::None);
    let six = ki2::write(&rec);
    assert!(
        six.contains("▲７六歩    △３四歩  ▲２二角成    △同　銀    ▲５五角"),
        "{six}"
    );
    let one = ki2::write_lines(&rec, Encoding::Utf8, 1);
    let moves: Vec<&str> = one.lines().filter(|l| l.starts_with(['▲', '△'])).collect();
    assert_eq!(
        moves,
        ["▲７六歩", "△３四歩", "▲２二角成", "△同　銀", "▲５五角"]
    );
    assert_eq!(ki2::read(&one).unwrap().main_line(), rec.main_line());
}
