//! Format details: encodings, handicaps, board diagrams, CSA statements,
//! terminal words, errors with line and column, illegal moves.

use shogi_core::{sfen, Color, Ending as GameEnding, Foul, Handicap, Move, Position};
use shogi_record::encoding::{decode, encode, Encoding};
use shogi_record::{csa, jkf, ki2, kif, usi, Ending, Format, MoveProblem, ReadErrorKind, Record};

fn mv(s: &str) -> Move {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

const KIF: &str = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:02/00:00:02)\n   3 投了\n";

/// Whether `format` can hold `ending` (USEN has only resign, time up, interrupted and declared win).
fn usen_has(format: Format, ending: Ending) -> bool {
    format != Format::Usen
        || matches!(
            ending,
            Ending::Game(
                GameEnding::Resignation { .. }
                    | GameEnding::Timeout { .. }
                    | GameEnding::Abort
                    | GameEnding::Impasse { winner: Some(_) }
            )
        )
}

#[test]
fn encoding_is_sniffed_from_content_not_name() {
    let sjis = encode(KIF, Encoding::ShiftJis);
    assert!(std::str::from_utf8(&sjis).is_err());
    assert_eq!(decode(&sjis), (KIF.to_string(), Encoding::ShiftJis));
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(KIF.as_bytes());
    assert_eq!(decode(&bom), (KIF.to_string(), Encoding::Utf8));
    let declared = format!("#KIF version=2.0 encoding=Shift_JIS\n{KIF}");
    assert_eq!(
        decode(&encode(&declared, Encoding::ShiftJis)).1,
        Encoding::ShiftJis
    );
    for bytes in [sjis, bom, KIF.as_bytes().to_vec()] {
        let rec = shogi_record::read(&bytes).expect("reads");
        assert_eq!(rec.main_line(), [mv("7g7f"), mv("3c3d")]);
        assert_eq!(rec.headers.sente.as_deref(), Some("A"));
        assert_eq!(
            rec.ending,
            Ending::Game(GameEnding::Resignation {
                loser: Color::Sente
            })
        );
    }
}

#[test]
fn writers_encode_on_request() {
    let rec = kif::read(KIF).expect("reads");
    let bytes = kif::write_bytes(&rec, Encoding::ShiftJis);
    assert!(bytes.starts_with(b"#KIF version=2.0 encoding=Shift_JIS"));
    assert_eq!(decode(&bytes).1, Encoding::ShiftJis);
    assert!(kif::write(&rec).starts_with("#KIF version=2.0 encoding=UTF-8"));
    let csa = csa::write_bytes(&rec, Encoding::ShiftJis);
    assert!(csa.starts_with(b"'encoding=Shift_JIS"));
}

#[test]
fn every_handicap_name_gives_its_start() {
    for h in Handicap::ALL {
        let text = format!(
            "手合割：{}\n手数----指手---------消費時間--\n",
            h.kif_name()
        );
        let rec = kif::read(&text).expect("reads");
        assert_eq!(rec.start, h.position(), "{}", h.kif_name());
        assert_eq!(rec.headers.handicap, Some(h));
        for format in Format::ALL {
            let again = shogi_record::read_str_as(&shogi_record::write(&rec, format), format)
                .expect("reads back");
            assert_eq!(again.start, h.position(), "{} via {format:?}", h.kif_name());
        }
    }
}

#[test]
fn unknown_handicap_name_without_a_board_is_an_error_naming_it() {
    let err = kif::read("手合割：謎の駒落ち\n手数----指手---------消費時間--\n   1 ７六歩(77)\n")
        .expect_err("an unknown handicap cannot give the start position");
    assert_eq!(err.kind, ReadErrorKind::UnknownHandicap);
    assert_eq!(
        (err.line, err.column, err.token.as_str()),
        (1, 5, "謎の駒落ち")
    );
    // Above a board diagram the name is only a label (詰将棋, その他): kept as a header.
    let text = "手合割：謎の駒落ち\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n";
    let rec = kif::read(text).expect("reads");
    assert_eq!(rec.headers.get("手合割"), Some("謎の駒落ち"));
    assert_eq!(rec.start.to_sfen(), "8k/9/9/9/9/9/9/9/4K4 b - 1");
}

#[test]
fn text_with_no_record_in_it_is_an_error_at_its_first_line() {
    for (text, line, token) in [
        ("hello world\n", 1, "hello world"),
        (
            "\nName:\tcat\nUmask:\t0022\nState:\tR (running)\n",
            2,
            "Name:\tcat",
        ),
        ("# a comment\n* another\n", 1, "# a comment"),
    ] {
        let err = shogi_record::read(text.as_bytes()).expect_err(text);
        assert_eq!(err.kind, ReadErrorKind::NoRecord, "{text:?}");
        assert_eq!((err.line, err.token.as_str()), (line, token), "{text:?}");
    }
    assert_eq!(
        shogi_record::read(b"").expect_err("empty").kind,
        ReadErrorKind::NoRecord
    );
    // One known header is enough: a record of a game not yet begun.
    assert!(shogi_record::read("先手：羽生善治\n後手：藤井聡太\n".as_bytes()).is_ok());
}

#[test]
fn board_diagram_with_hands_counts_and_side() {
    let text = "手合割：詰将棋\n後手の持駒：飛二　角二　金三　銀四　桂三　香四　歩十七　\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・ ・ 歩 ・|二\n| ・ ・ ・ ・ ・ ・ ・ 金 ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：桂　\n先手番\n手数----指手---------消費時間--\n   1 ２四桂打\n";
    let rec = kif::read(text).expect("reads");
    assert_eq!(
        rec.start.to_sfen(),
        "8k/7P1/7G1/9/9/9/9/9/9 b N2r2b3g4s3n4l17p 1"
    );
    assert_eq!(rec.main_line(), [mv("N*2d")]);
    let diagram = kif::board_diagram(&rec.start);
    assert!(diagram.contains("歩十七"));
    let again = kif::read(&kif::write(&rec)).expect("reads back");
    assert_eq!(again.start, rec.start);
    let gote = text
        .replace("先手番", "後手番")
        .replace("   1 ２四桂打\n", "");
    assert_eq!(
        kif::read(&gote).expect("reads").start.side_to_move(),
        Color::Gote
    );
}

#[test]
fn kif_terminal_words_and_sides() {
    let base = "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ";
    let cases = [
        (
            "投了",
            Ending::Game(GameEnding::Resignation { loser: Color::Gote }),
        ),
        (
            "詰み",
            Ending::Game(GameEnding::Checkmate { loser: Color::Gote }),
        ),
        ("千日手", Ending::Game(GameEnding::Repetition)),
        ("持将棋", Ending::Game(GameEnding::Impasse { winner: None })),
        (
            "反則勝ち",
            Ending::Game(GameEnding::Foul {
                loser: Color::Sente,
                foul: Foul::Unspecified,
            }),
        ),
        (
            "反則負け",
            Ending::Game(GameEnding::Foul {
                loser: Color::Gote,
                foul: Foul::Unspecified,
            }),
        ),
        (
            "切れ負け",
            Ending::Game(GameEnding::Timeout { loser: Color::Gote }),
        ),
        ("中断", Ending::Game(GameEnding::Abort)),
        (
            "入玉勝ち",
            Ending::Game(GameEnding::Impasse {
                winner: Some(Color::Gote),
            }),
        ),
        ("不詰", Ending::NoMate),
        ("封じ手", Ending::Sealed),
    ];
    for (word, ending) in cases {
        let rec = kif::read(&format!("{base}{word}\n")).expect("reads");
        assert_eq!(rec.ending, ending, "{word}");
        for format in Format::ALL {
            let again = shogi_record::read_str_as(&shogi_record::write(&rec, format), format)
                .expect("reads back");
            // CSA and JKF have no word for a sealed move; USEN has only four endings.
            if (!matches!(format, Format::Csa | Format::Jkf) || ending != Ending::Sealed)
                && usen_has(format, ending)
            {
                assert_eq!(again.ending, ending, "{word} via {format:?}");
            }
        }
    }
    let summary =
        kif::read("手数----指手---------消費時間--\n   1 ７六歩(77)\nまで1手で先手の勝ち\n")
            .expect("reads");
    assert_eq!(
        summary.ending,
        Ending::Game(GameEnding::Resignation { loser: Color::Gote })
    );
}

#[test]
fn csa_position_statements() {
    let two = csa::read("V2.2\nPI82HI22KA\n-\n-5142OU\n").expect("reads");
    assert_eq!(two.start, Handicap::TwoPieces.position());
    assert_eq!(two.main_line(), [mv("5a4b")]);
    let spaced = "P1 * * * * -OU * * * *\nP2 * * * * * * * * *\nP3 * * * * * * * * *\nP4 * * * * * * * * *\nP5 * * * * * * * * *\nP6 * * * * * * * * *\nP7 * * * * * * * * *\nP8 * * * * * * * * *\nP9 * * * * +OU * * * *\nP+00KI00FU\nP-00AL\n+\n+0052KI,T1,-5152OU\n%TORYO\n";
    let rec = csa::read(spaced).expect("reads");
    assert_eq!(
        rec.start.to_sfen(),
        "4k4/9/9/9/9/9/9/9/4K4 b GP2r2b3g4s4n4l17p 1"
    );
    assert_eq!(rec.main_line(), [mv("G*5b"), mv("5a5b")]);
    assert_eq!(rec.moves[0].time, Some(1));
    assert_eq!(
        rec.ending,
        Ending::Game(GameEnding::Resignation {
            loser: Color::Sente
        })
    );
    let placed = csa::read("P-51OU\nP+59OU39HI\n+\n").expect("reads");
    assert_eq!(placed.start.to_sfen(), "4k4/9/9/9/9/9/9/9/4K1R2 b - 1");
}

/// Move lines end in every way a file may end them: `\n`, `\r\n`, spaces
/// or a tab before the break, a comma and a time, the end of the text; a
/// lone `\r` does not end a line. The line an error names counts them all.
#[test]
fn csa_move_lines_end_in_every_way() {
    let text = "PI\r\n+\n+7776FU\r\n-3334FU \n+8822UM\t\r\n-3122GI,T3\r\n+0055KA\r\r\n-5142OU";
    let rec = csa::read(text).expect("reads");
    assert_eq!(
        rec.main_line(),
        [
            mv("7g7f"),
            mv("3c3d"),
            mv("8h2b+"),
            mv("3a2b"),
            mv("B*5e"),
            mv("5a4b")
        ]
    );
    assert_eq!(rec.moves[3].time, Some(3));
    let wrong_side = csa::read("PI\n+\n+7776FU\r\n+3334FU\n").expect("reads");
    let illegal = wrong_side
        .illegal_move
        .expect("the second move is not Gote's");
    assert_eq!((illegal.ply, illegal.text.as_str()), (2, "+3334FU"));
    for (text, line, token) in [
        ("PI\r\n+\r\n+7776FU\r\n-3334FU\r\n-8822XX\r\n", 5, "-8822XX"),
        ("PI\n+\n+7776FU\r-3334FU\n", 3, "+7776FU\r-3334FU"),
        ("PI\n+\n+7776FU\n+77,76FU\n", 4, "+77"),
    ] {
        let e = csa::read(text).expect_err(text);
        assert_eq!((e.line, e.token.as_str()), (line, token), "{text:?}");
    }
}

#[test]
fn csa_specials() {
    let cases = [
        (
            "%TORYO",
            Ending::Game(GameEnding::Resignation { loser: Color::Gote }),
        ),
        ("%CHUDAN", Ending::Game(GameEnding::Abort)),
        ("%SENNICHITE", Ending::Game(GameEnding::Repetition)),
        (
            "%OUTE_SENNICHITE",
            Ending::Game(GameEnding::PerpetualCheck {
                loser: Color::Sente,
            }),
        ),
        (
            "%ILLEGAL_MOVE",
            Ending::Game(GameEnding::Foul {
                loser: Color::Gote,
                foul: Foul::Unspecified,
            }),
        ),
        (
            "%+ILLEGAL_ACTION",
            Ending::Game(GameEnding::Foul {
                loser: Color::Sente,
                foul: Foul::Unspecified,
            }),
        ),
        (
            "%-ILLEGAL_ACTION",
            Ending::Game(GameEnding::Foul {
                loser: Color::Gote,
                foul: Foul::Unspecified,
            }),
        ),
        (
            "%JISHOGI",
            Ending::Game(GameEnding::Impasse { winner: None }),
        ),
        (
            "%KACHI",
            Ending::Game(GameEnding::Impasse {
                winner: Some(Color::Gote),
            }),
        ),
        ("%HIKIWAKE", Ending::Game(GameEnding::DrawAgreement)),
        ("%MATTA", Ending::Matta),
        (
            "%TSUMI",
            Ending::Game(GameEnding::Checkmate { loser: Color::Gote }),
        ),
        ("%FUZUMI", Ending::NoMate),
        ("%ERROR", Ending::Error),
        (
            "%TIME_UP",
            Ending::Game(GameEnding::Timeout { loser: Color::Gote }),
        ),
        ("%MAX_MOVES", Ending::Game(GameEnding::MaxMoves)),
    ];
    for (word, ending) in cases {
        let rec = csa::read(&format!(
            "V3.0\n$TIME:600+10+5\n$JISHOGI:24\n$MAX_MOVES:256\nPI\n+\n+7776FU\n{word}\n"
        ))
        .expect("reads");
        assert_eq!(rec.ending, ending, "{word}");
        let tc = rec.headers.time_control.expect("time control");
        assert_eq!((tc.main, tc.byoyomi, tc.increment), (600, 10, 5));
        assert_eq!(rec.headers.get("JISHOGI"), Some("24"));
        assert_eq!(rec.headers.get("MAX_MOVES"), Some("256"));
        for format in Format::ALL {
            let again = shogi_record::read_str_as(&shogi_record::write(&rec, format), format)
                .expect("reads back");
            assert_eq!(again.ending, ending, "{word} via {format:?}");
        }
    }
}

#[test]
fn illegal_move_stops_the_record_and_is_reported() {
    let text = "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五歩(57)\n   4 ８四歩(83)\n   5 投了\n";
    let rec = kif::read(text).expect("reads");
    assert_eq!(rec.main_line(), [mv("7g7f"), mv("3c3d")]);
    let info = rec.illegal_move.expect("reported");
    assert_eq!((info.ply, info.text.as_str()), (3, "５五歩(57)"));
    assert!(matches!(info.problem, MoveProblem::Illegal(_)));
    assert_eq!(rec.ending, Ending::None);
    let ki2 = ki2::read("▲７六歩 △３四歩 ▲５五歩\n").expect("reads");
    assert_eq!(
        ki2.illegal_move.map(|i| (i.ply, i.problem)),
        Some((3, MoveProblem::NoMatch))
    );
    let csa = csa::read("PI\n+\n+7776FU\n-3334FU\n+5755FU\n").expect("reads");
    assert_eq!(
        csa.illegal_move.map(|i| (i.ply, i.text)),
        Some((3, "+5755FU".to_string()))
    );
    let usi = usi::read("position startpos moves 7g7f 3c3d 5g5e").expect("reads");
    assert_eq!(usi.illegal_move.map(|i| i.ply), Some(3));
}

#[test]
fn errors_name_line_column_and_token() {
    let e = kif::read("手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３X歩(33)\n")
        .unwrap_err();
    assert_eq!(
        (e.line, e.column, e.token.as_str(), &e.kind),
        (3, 6, "３X歩(33)", &ReadErrorKind::BadMove)
    );
    assert!(e.to_string().starts_with("line 3, column 6:"));
    let e = csa::read("V2.2\nPI\n+\n+7776XX\n").unwrap_err();
    assert_eq!((e.line, e.column, e.token.as_str()), (4, 1, "+7776XX"));
    let e = csa::read("P1-KY-KE\n").unwrap_err();
    assert_eq!((e.line, e.kind), (1, ReadErrorKind::BadBoard));
    let e = usi::read("position startpos moves 7g7f zz").unwrap_err();
    assert_eq!((e.line, e.column, e.token.as_str()), (1, 30, "zz"));
    let e = jkf::read("{\"moves\": [\n  {]\n}").unwrap_err();
    assert_eq!(e.line, 2);
    let e = kif::read("後手の持駒：なし\n| ・ ・|\n").unwrap_err();
    assert_eq!((e.line, e.kind), (2, ReadErrorKind::BadBoard));
    let e = kif::read("変化：手\n").unwrap_err();
    assert_eq!(e.kind, ReadErrorKind::BadVariation);
    // A variation no line can hold is skipped, not fatal.
    let rec = kif::read(
        "   1 ７六歩(77)\n   2 投了\n変化：2手\n   2 ３四歩(33)\n変化：1手\n   1 ２六歩(27)\n",
    )
    .expect("reads");
    assert_eq!(rec.main_line(), [mv("7g7f")]);
    assert_eq!(
        rec.moves[0].variations,
        [vec![shogi_record::Node::new(mv("2g2f"))]]
    );
}

#[test]
fn ki2_reads_many_moves_per_line_and_writes_markers() {
    let rec = ki2::read("▲７六歩　△３四歩　▲２六歩　△８四歩　▲２五歩　△８五歩　▲７八金　△３二金\n▲２四歩 △同　歩 ▲同　飛\n").expect("reads");
    assert_eq!(rec.main_line().len(), 11);
    assert_eq!(rec.main_line()[10], mv("2h2d"));
    let text = ki2::write(&rec);
    assert!(text.contains("▲７八金"), "{text}");
    assert!(text.contains("△同　歩"), "{text}");
}

#[test]
fn usi_forms() {
    for text in [
        "startpos moves 7g7f",
        "position startpos moves 7g7f",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f",
    ] {
        let rec = usi::read(text).expect("reads");
        assert_eq!(rec.main_line(), [mv("7g7f")], "{text}");
    }
    let bare = usi::read("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK1SNL w - 1")
        .expect("reads");
    assert_eq!(bare.start.side_to_move(), Color::Gote);
    let tsume =
        usi::read("sfen 8k/9/9/9/9/9/9/9/9 b G 1 moves G*1b").expect("kingless side allowed");
    assert_eq!(tsume.main_line(), [mv("G*1b")]);
    assert_eq!(
        usi::write(&tsume),
        format!(
            "position sfen {} moves G*1b",
            sfen::parse_position_with(
                "8k/9/9/9/9/9/9/9/9 b G 1",
                shogi_core::Leniency {
                    allow_missing_kings: true
                }
            )
            .expect("sfen")
            .to_sfen()
        )
    );
}

#[test]
fn format_detection() {
    let rec = kif::read(KIF).expect("reads");
    for format in Format::ALL {
        let text = shogi_record::write(&rec, format);
        assert_eq!(shogi_record::detect(&text), format, "{text}");
    }
}

#[test]
fn usen_moves_branches_and_start() {
    // 7g7f, then a branch at the first move.
    let rec = shogi_record::usen::read("~0.7ku.~0.6y2.r").expect("reads");
    assert_eq!(rec.main_line(), [mv("7g7f")]);
    assert_eq!(rec.moves[0].variations[0][0].mv, mv("2g2f"));
    assert_eq!(rec.ending, Ending::None);
    let handicap = Record::new(Handicap::TwoPieces.position());
    let text = shogi_record::usen::write(&handicap);
    assert_eq!(
        text,
        "lnsgkgsnl_9_ppppppppp_9_9_9_PPPPPPPPP_1B5R1_LNSGKGSNL.w.-~0.."
    );
    assert_eq!(
        shogi_record::usen::read(&text).expect("reads").start,
        handicap.start
    );
    for m in ["7g7f", "8h2b+", "P*5e", "G*1a", "R*9i", "1a9i"] {
        let m = mv(m);
        assert_eq!(
            shogi_record::usen::decode_move(&shogi_record::usen::encode_move(m)),
            Some(m)
        );
    }
    let e = shogi_record::usen::read("~0.7kux.").unwrap_err();
    assert_eq!((e.column, e.token.as_str()), (4, "7kux"));
    let illegal = shogi_record::usen::read("~0.7ku.i9i8").expect("reads");
    assert_eq!(
        illegal.ending,
        Ending::Game(GameEnding::Foul {
            loser: Color::Gote,
            foul: Foul::Unspecified
        })
    );
    assert_eq!(illegal.illegal_move.map(|i| i.ply), Some(2));
}

#[test]
fn deeply_nested_variations_are_capped_not_fatal() {
    fn line(moves: &[Move], start: usize, depth: usize) -> Vec<shogi_record::Node> {
        let mut nodes: Vec<shogi_record::Node> = moves[start..start + 20]
            .iter()
            .map(|&m| shogi_record::Node::new(m))
            .collect();
        if depth > 0 {
            nodes[1].variations.push(line(moves, start + 1, depth - 1));
        }
        nodes
    }
    fn depth(line: &[shogi_record::Node]) -> usize {
        line.iter()
            .flat_map(|n| n.variations.iter())
            .map(|v| 1 + depth(v))
            .max()
            .unwrap_or(0)
    }
    let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
    let moves: Vec<Move> = (0..240).map(|i| mv(cycle[i % 4])).collect();
    // Line d starts at ply d + 1 and holds a variation at its second move, 100 levels deep.
    let rec = Record {
        moves: line(&moves, 0, 100),
        ..Default::default()
    };
    assert_eq!(depth(&rec.moves), 100);
    let again = kif::read(&kif::write(&rec)).expect("reads");
    assert_eq!(again.main_line(), rec.main_line());
    let d = depth(&again.moves);
    assert!((32..=64).contains(&d), "depth {d}");
}

#[test]
fn a_resignation_out_of_turn_keeps_its_loser_where_the_format_can_say_so() {
    // Sente resigns after its own move, while Gote is to move.
    let mut rec = Record::new(Position::startpos());
    rec.push(mv("7g7f"));
    rec.ending = Ending::Game(GameEnding::Resignation {
        loser: Color::Sente,
    });
    let kif = kif::write(&rec);
    assert!(kif.contains("まで1手で後手の勝ち"), "{kif}");
    assert_eq!(kif::read(&kif).expect("reads").ending, rec.ending, "{kif}");
    let ki2 = ki2::write(&rec);
    assert_eq!(ki2::read(&ki2).expect("reads").ending, rec.ending, "{ki2}");
    // CSA cannot (`%TORYO` is the act of the side to move): the resigner's illegal action
    // keeps who lost.
    let csa = csa::write(&rec);
    assert!(csa.trim_end().ends_with("%+ILLEGAL_ACTION"), "{csa}");
    assert_eq!(csa::read(&csa).expect("reads").loser(), Some(Color::Sente));
}

/// A USI file of several games, one a line (as engines and match runners
/// list them, here with a `go` line of a log between): each line is a
/// game of its own, a bad one named by its line in the file; where one
/// record is read, a second position line is refused.
#[test]
fn a_usi_file_of_one_game_a_line_reads_each() {
    let file = "startpos moves 7g7f 3c3d resign\r\ngo btime 1000\r\n\r\nposition startpos moves 2g2f\r\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves zz\r\n";
    let read = shogi_record::read_each(file.as_bytes());
    assert_eq!(read.len(), 3);
    let (first, second) = (read[0].1.as_ref().unwrap(), read[1].1.as_ref().unwrap());
    assert_eq!(first.main_line(), vec![mv("7g7f"), mv("3c3d")]);
    assert!(matches!(first.ending, Ending::Game(_)));
    assert_eq!(second.main_line(), vec![mv("2g2f")]);
    assert_eq!(read[1].0, b"position startpos moves 2g2f");
    let err = read[2].1.as_ref().unwrap_err();
    assert_eq!((err.line, err.token.as_str()), (5, "zz"));
    // One record: the first line was read and the others dropped; now the
    // second game is refused where it starts.
    let err = usi::read(file).unwrap_err();
    assert_eq!(
        (err.line, err.kind.clone()),
        (4, ReadErrorKind::SeveralRecords)
    );
    // A log's other lines are no second game.
    let one = usi::read("position startpos moves 7g7f\ngo btime 0 wtime 0\n").expect("one game");
    assert_eq!(one.main_line(), vec![mv("7g7f")]);
    assert_eq!(shogi_record::read_each(b"startpos moves 7g7f\n").len(), 1);
}

/// KIF games one after the other (no separator in KIF): each is read
/// alone, from its own lines (its own headers above its first move); the
/// same in KI2 and in `Shift_JIS`, and after a variation block; an error in
/// a later game is named by its line in the whole file.
#[test]
fn a_kif_file_of_several_games_reads_each() {
    let first = "# remark\n先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで2手で後手の勝ち\n";
    let variation = "\n変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n";
    let second = "\n開始日時：2026/01/02\n先手：C\n後手：D\n手数----指手---------消費時間--\n   1 ２六歩(27)\n   2 投了\n";
    let third = "\n先手：E\n   1 ５六歩(57)\n   2 ５四歩(53)\n   3 ５五歩(56)\n";
    let ki2_first = "先手：A\n後手：B\n▲７六歩 △３四歩\nまで2手で後手の勝ち\n";
    let ki2_variation = "\n変化：2手\n△８四歩 ▲２六歩\n";
    let ki2_second = "\n先手：C\n後手：D\n▲２六歩\n";
    let ki2_third = "\n先手：E\n▲５六歩 △５四歩 ▲５五歩\n";
    for (one, var, two, three) in [
        (first, variation, second, third),
        (ki2_first, ki2_variation, ki2_second, ki2_third),
    ] {
        for var in ["", var] {
            let file = format!("{one}{var}{two}{three}");
            for bytes in [file.clone().into_bytes(), encode(&file, Encoding::ShiftJis)] {
                let read = shogi_record::read_each(&bytes);
                let games: Vec<&Record> = read
                    .iter()
                    .map(|(_, r)| r.as_ref().expect("every game reads"))
                    .collect();
                assert_eq!(games.len(), 3, "{file}");
                assert_eq!(games[0].main_line(), vec![mv("7g7f"), mv("3c3d")]);
                assert_eq!(
                    games[0].moves[1].variations.len(),
                    usize::from(!var.is_empty())
                );
                assert_eq!(games[1].main_line(), vec![mv("2g2f")]);
                assert_eq!(
                    games[2].main_line(),
                    vec![mv("5g5f"), mv("5c5d"), mv("5f5e")]
                );
                let names: Vec<_> = games.iter().map(|g| g.headers.sente.as_deref()).collect();
                assert_eq!(names, [Some("A"), Some("C"), Some("E")]);
                assert_eq!(games[1].headers.gote.as_deref(), Some("D"));
                for g in &games {
                    assert_eq!(g.headers.other.len(), 0, "{:?}", g.headers.other);
                }
                // Each game's own lines, which read alone to the same game,
                // and together the whole file.
                for (part, game) in &read {
                    assert_eq!(shogi_record::read(part).as_ref(), game.as_ref());
                }
                let parts: Vec<u8> = read.iter().flat_map(|(p, _)| p.iter().copied()).collect();
                assert_eq!(parts, bytes);
            }
        }
    }
    // A malformed move in the third game is named by its line in the whole file.
    let bad = format!("{first}{second}\n先手：E\n   1 ５六歩(57)\n   2 ５四歩(XX)\n");
    let read = shogi_record::read_each(bad.as_bytes());
    assert_eq!(read.len(), 3);
    let err = read[2].1.as_ref().expect_err("the third game");
    assert_eq!(
        bad.lines().nth(err.line - 1).map(str::trim),
        Some("2 ５四歩(XX)"),
        "{err:?}"
    );
    // A game that does not read, in the middle: reported, and the next game
    // still read; an error before a game's moves (in its headers) leaves the
    // rest of the file to that game, as its own headers follow.
    let middle = format!("{first}\n先手：X\n   1 ５六歩(57)\n   2 ５四歩(XX)\n{second}");
    let read = shogi_record::read_each(middle.as_bytes());
    assert_eq!(read.len(), 3);
    let err = read[1].1.as_ref().expect_err("the second game");
    assert_eq!(middle.lines().nth(err.line - 1), Some("   2 ５四歩(XX)"));
    assert_eq!(
        read[2].1.as_ref().expect("the third game").main_line(),
        vec![mv("2g2f")]
    );
    let headers = format!("{first}\n手合割：謎\n先手：X\n   1 ５六歩(57)\n{second}");
    let read = shogi_record::read_each(headers.as_bytes());
    assert_eq!(read.len(), 2);
    let err = read[1].1.as_ref().expect_err("the second game");
    assert_eq!(headers.lines().nth(err.line - 1), Some("手合割：謎"));
    // Where one record is read, the second game is refused at its first move.
    let err = shogi_record::read(format!("{first}{variation}{second}").as_bytes())
        .expect_err("one record");
    assert_eq!(err.kind, ReadErrorKind::SeveralRecords);
    assert_eq!(err.token, "1 ２六歩(27)");
}
