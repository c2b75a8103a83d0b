//! Game endings through every format: a try-rule win and a resignation out of turn keep
//! who won, and read back as the exact `shogi_core::Ending`, wherever the format can say them.

use shogi_core::{Color, Ending as GameEnding, Foul, Move, Position};
use shogi_record::{Ending, Format, Record};

fn mv(s: &str) -> Move {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// A tsume-like position where Sente's king makes a try by moving to 5a (Gote's king's start).
fn try_record() -> Record {
    let start = shogi_core::sfen::parse_position_with(
        "k8/9/9/4K4/9/9/9/9/9 b - 1",
        shogi_core::Leniency {
            allow_missing_kings: true,
        },
    )
    .expect("start");
    let mut rec = Record::new(start);
    for m in ["5d5c", "9a9b", "5c5b", "9b9a", "5b5a"] {
        rec.push(mv(m));
    }
    rec.ending = Ending::Game(GameEnding::Try {
        winner: Color::Sente,
    });
    rec
}

/// Two moves, then the side that moved last (Gote) resigns while Sente is to move.
fn out_of_turn_record() -> Record {
    let mut rec = Record::new(Position::startpos());
    rec.push(mv("7g7f"));
    rec.push(mv("3c3d"));
    rec.ending = Ending::Game(GameEnding::Resignation { loser: Color::Gote });
    rec
}

fn round_trip(rec: &Record, format: Format) -> Record {
    let text = shogi_record::write(rec, format);
    let again = shogi_record::read_str_as(&text, format)
        .unwrap_or_else(|e| panic!("{format:?}: {e}\n{text}"));
    assert_eq!(again.main_line(), rec.main_line(), "{format:?}\n{text}");
    again
}

#[test]
fn try_win_round_trips_where_the_format_can_say_it() {
    let rec = try_record();
    for format in [
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Jkf,
        Format::Usi,
    ] {
        assert_eq!(
            round_trip(&rec, format).ending,
            rec.ending,
            "{format:?}\n{}",
            shogi_record::write(&rec, format)
        );
    }
    // USEN has no word for it and writes none rather than another ending.
    assert_eq!(round_trip(&rec, Format::Usen).ending, Ending::None);
}

#[test]
fn try_win_is_written_as_other_programs_write_it() {
    let rec = try_record();
    let kif = rec.to_kif();
    assert!(kif.contains("   6 トライ\n"), "{kif}");
    assert!(kif.contains("まで5手で先手のトライ勝ち"), "{kif}");
    assert!(rec.to_ki2().contains("まで5手で先手のトライ勝ち"));
    assert!(rec.to_csa().trim_end().ends_with("%TRY"));
    assert!(rec.to_jkf().contains(r#"{"special":"TRY"}"#));
    assert!(rec.to_usi().ends_with(" 5b5a try"));
    // Not a foul any more, in any format.
    for format in Format::ALL {
        let text = shogi_record::write(&rec, format);
        assert!(
            !text.contains("反則") && !text.contains("ILLEGAL") && !text.contains("illegal"),
            "{format:?}\n{text}"
        );
    }
}

#[test]
fn try_summary_of_tsshogi_reads_as_a_try_by_the_last_mover() {
    let text = "▲７六歩 △３四歩\nまで2手でトライ\n";
    let rec = shogi_record::ki2::read(text).expect("reads");
    assert_eq!(
        rec.ending,
        Ending::Game(GameEnding::Try {
            winner: Color::Gote
        })
    );
}

#[test]
fn resignation_out_of_turn_keeps_its_loser() {
    let rec = out_of_turn_record();
    // KIF and KI2 name the winner in the summary line; USI has `resign_win`.
    for format in [Format::Kif, Format::Ki2, Format::Usi] {
        assert_eq!(
            round_trip(&rec, format).ending,
            rec.ending,
            "{format:?}\n{}",
            shogi_record::write(&rec, format)
        );
    }
    assert!(rec.to_kif().contains("まで2手で先手の勝ち"));
    assert!(rec.to_usi().ends_with(" resign_win"));
    // CSA and JKF only resign for the side to move: the resigner's illegal action keeps the
    // loser and the winner.
    for format in [Format::Csa, Format::Jkf] {
        let again = round_trip(&rec, format);
        assert_eq!(
            again.ending,
            Ending::Game(GameEnding::Foul {
                loser: Color::Gote,
                foul: Foul::Unspecified,
            }),
            "{format:?}"
        );
        assert_eq!(again.loser(), Some(Color::Gote));
    }
    assert!(rec.to_csa().trim_end().ends_with("%-ILLEGAL_ACTION"));
    // USEN's `r` is the side to move's: nothing is written rather than the wrong loser.
    assert_eq!(round_trip(&rec, Format::Usen).ending, Ending::None);
}

#[test]
fn resignation_on_turn_is_written_as_before() {
    let mut rec = out_of_turn_record();
    rec.ending = Ending::Game(GameEnding::Resignation {
        loser: Color::Sente,
    });
    assert!(rec.to_csa().trim_end().ends_with("%TORYO"));
    assert!(rec.to_kif().contains("   3 投了\nまで2手で後手の勝ち"));
    assert_eq!(rec.to_usen(), "~0.7ku2jm.r");
    for format in [
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Jkf,
        Format::Usi,
        Format::Usen,
    ] {
        assert_eq!(round_trip(&rec, format).ending, rec.ending, "{format:?}");
    }
}

#[test]
fn record_only_endings_have_no_winner() {
    for e in [Ending::None, Ending::NoMate, Ending::Sealed, Ending::Error] {
        assert_eq!((e.winner(), e.loser(), e.game()), (None, None, None));
    }
    let mut rec = out_of_turn_record();
    rec.ending = Ending::Matta;
    // A take-back loses for the side to move (CSA).
    assert_eq!(rec.loser(), Some(Color::Sente));
}
