//! SVG board diagrams are well-formed XML with every piece, label and hand drawn.

use shogi_core::{sfen, Position, Square};
use shogi_record::diagram::{svg, Coords, Options, PieceStyle, HEIGHT, WIDTH};

const POSITIONS: [&str; 4] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    // Every kind in both hands, an otherwise bare board.
    "4k4/9/9/9/9/9/9/9/4K4 b RBGSNL9Prbgsnl9p 1",
    "+R+B+S+N+L+P3/9/9/9/4k4/9/9/9/+r+b+s+n+l+p2K b - 1",
];

fn all_options() -> Vec<Options> {
    let mut v = Vec::new();
    for pieces in [PieceStyle::Kanji, PieceStyle::International] {
        for coords in [Coords::Japanese, Coords::Letters] {
            for last_move in [
                None,
                Some("7g7f".parse().unwrap()),
                Some("P*5e".parse().unwrap()),
            ] {
                v.push(Options {
                    pieces,
                    coords,
                    last_move,
                });
            }
        }
    }
    v
}

#[test]
fn diagrams_are_well_formed_svg() {
    for text in POSITIONS {
        let pos: Position = sfen::parse_position(text).unwrap();
        let on_board = Square::all().filter(|&s| pos.piece_at(s).is_some()).count();
        let in_hand: usize = [shogi_core::Color::Sente, shogi_core::Color::Gote]
            .iter()
            .map(|&c| {
                shogi_core::HandKind::ALL
                    .iter()
                    .filter(|&&k| pos.hand(c).count(k) > 0)
                    .count()
            })
            .sum();
        for opts in all_options() {
            let s = svg(&pos, &opts);
            let doc = roxmltree::Document::parse(&s)
                .unwrap_or_else(|e| panic!("{text} {opts:?}: {e}\n{s}"));
            let root = doc.root_element();
            assert_eq!(root.tag_name().name(), "svg");
            assert_eq!(
                root.tag_name().namespace(),
                Some("http://www.w3.org/2000/svg")
            );
            assert_eq!(root.attribute("width"), Some(WIDTH.to_string().as_str()));
            assert_eq!(root.attribute("height"), Some(HEIGHT.to_string().as_str()));
            let class_count = |prefix: &str| {
                doc.descendants()
                    .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with(prefix)))
                    .count()
            };
            assert_eq!(class_count("piece"), on_board + in_hand, "{text} {opts:?}");
            assert_eq!(class_count("file"), 9);
            assert_eq!(class_count("rank"), 9);
            assert_eq!(class_count("to-move"), 1);
            assert_eq!(
                class_count("last-move"),
                usize::from(opts.last_move.is_some())
            );
            // Gote's pieces are turned upside down, Sente's are not.
            for n in doc.descendants().filter(|n| n.has_tag_name("text")) {
                let class = n.attribute("class").unwrap_or("");
                if class.contains("sente") {
                    assert!(n.attribute("transform").is_none());
                }
                if class.contains("gote") && opts.pieces == PieceStyle::Kanji {
                    assert!(n.attribute("transform").unwrap().starts_with("rotate(180"));
                }
            }
            if opts.pieces == PieceStyle::International && opts.coords == Coords::Letters {
                assert!(s.is_ascii(), "international letters need no kanji font");
            }
        }
    }
}
