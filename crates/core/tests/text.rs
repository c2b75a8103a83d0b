//! SFEN and USI text: errors name the problem and its column; nothing panics.

use proptest::prelude::*;
use shogi_core::sfen::{self, SfenErrorKind};
use shogi_core::usi::PositionCommand;
use shogi_core::{Game, GameRules, Leniency, Move, PositionError};

fn err(text: &str) -> (usize, SfenErrorKind) {
    let e = sfen::parse_position(text).unwrap_err();
    (e.column, e.kind)
}

fn col(text: &str, needle: &str) -> usize {
    text[..text.find(needle).unwrap()].chars().count() + 1
}

#[test]
fn unknown_letter_is_named_with_its_column() {
    let t = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1";
    assert_eq!(err(t), (col(t, "X"), SfenErrorKind::UnknownLetter('X')));
}

#[test]
fn bad_rank_length_points_at_the_rank() {
    let t = "lnsgkgsnl/1r5b1/pppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    assert_eq!(
        err(t),
        (
            col(t, "pppppppp"),
            SfenErrorKind::BadRankLength { rank: 'c', len: 8 }
        )
    );
    let t = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1";
    assert_eq!(err(t).1, SfenErrorKind::BadRankCount(8));
}

#[test]
fn too_many_pieces_of_a_kind() {
    let t = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1";
    let (c, kind) = err(t);
    assert!(matches!(
        kind,
        SfenErrorKind::Position(PositionError::TooManyPieces {
            count: 19,
            max: 18,
            ..
        })
    ));
    assert_eq!(c, col(t, " P ") + 1);
    let t = "lnsgkgsnl/1r5b1/ppppppppp/9/4G4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let (c, kind) = err(t);
    assert!(matches!(
        kind,
        SfenErrorKind::Position(PositionError::TooManyPieces {
            count: 5,
            max: 4,
            ..
        })
    ));
    // The fifth gold in reading order is the one on rank i.
    assert_eq!(c, col(t, "LNSGKGSNL") + 5);
}

#[test]
fn pieces_that_could_never_move() {
    for (t, needle) in [
        ("4k3P/9/9/9/9/9/9/9/4K4 b - 1", "P"),
        ("4k3L/9/9/9/9/9/9/9/4K4 b - 1", "L"),
        ("4k4/8N/9/9/9/9/9/9/4K4 b - 1", "N"),
        ("4k4/9/9/9/9/9/9/9/p3K4 b - 1", "p"),
    ] {
        let (c, kind) = err(t);
        assert!(
            matches!(
                kind,
                SfenErrorKind::Position(PositionError::DeadPiece { .. })
            ),
            "{t}"
        );
        assert_eq!(c, col(t, needle), "{t}");
    }
    // Promoted, they are fine.
    assert!(sfen::parse_position("4k3+P/9/9/9/9/9/9/9/4K4 b - 1").is_ok());
}

#[test]
fn two_unpromoted_pawns_on_a_file() {
    let t = "4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1";
    let (c, kind) = err(t);
    assert!(matches!(
        kind,
        SfenErrorKind::Position(PositionError::Nifu { .. })
    ));
    assert!(
        c == col(t, "4P4/9/4K4") + 1 || c == col(t, "4P4") + 1,
        "{c}"
    );
}

#[test]
fn the_side_not_to_move_in_check() {
    let t = "4k4/9/9/9/4R4/9/9/9/4K4 w - 1";
    // Gote to move, Sente (not to move) is not in check: fine.
    assert!(sfen::parse_position(t).is_ok());
    let t = "4k4/9/9/9/4R4/9/9/9/4K4 b - 1";
    let (c, kind) = err(t);
    assert!(matches!(
        kind,
        SfenErrorKind::Position(PositionError::OpponentInCheck(_))
    ));
    assert_eq!(c, col(t, " b ") + 1);
}

#[test]
fn other_field_errors() {
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9 x - 1").1,
        SfenErrorKind::BadSide("x".into())
    );
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/4K4 b K 1").1,
        SfenErrorKind::BadHandLetter('K')
    ));
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/4K4 b 0P 1").1,
        SfenErrorKind::BadHandCount(_)
    ));
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/4K4 b - x").1,
        SfenErrorKind::BadMoveNumber(_)
    ));
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/4K4 b - 1 extra").1,
        SfenErrorKind::Trailing(_)
    ));
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/4K4").1,
        SfenErrorKind::MissingField(_)
    ));
    assert!(matches!(err("").1, SfenErrorKind::Empty));
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/4+K4 b - 1").1,
        SfenErrorKind::BadPromotion
    ));
    assert!(matches!(
        err("9/9/9/9/9/9/9/9/4K4 b - 1").1,
        SfenErrorKind::Position(PositionError::MissingKing(_))
    ));
}

#[test]
fn hands_are_read_in_any_order_and_written_canonically() {
    let p = sfen::parse_position("4k4/9/9/9/9/9/9/9/4K4 b PpRP2sb 1").unwrap();
    assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b R2Pb2sp 1");
    // The move number may be left out.
    assert!(sfen::parse_position("4k4/9/9/9/9/9/9/9/4K4 b -").is_ok());
}

#[test]
fn tsume_setups_without_an_attacking_king_are_allowed_when_asked() {
    let t = "7nl/7k1/6ppp/9/9/9/9/9/9 b GS2r2b3g3s3n3l15p 1";
    assert!(sfen::parse_position(t).is_err());
    let p = sfen::parse_position_with(
        t,
        Leniency {
            allow_missing_kings: true,
        },
    )
    .unwrap();
    assert!(p.legal_moves().len() > 10);
}

#[test]
fn usi_move_syntax_errors() {
    for bad in [
        "", "7g", "7g7", "7g7f=", "0a1b", "7j7f", "K*5e", "X*5e", "P*5", "7g7g", "p*5e",
    ] {
        assert!(bad.parse::<Move>().is_err(), "{bad:?}");
    }
}

#[test]
fn usi_position_lines() {
    let c: PositionCommand = "position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b"
        .parse()
        .unwrap();
    let (g, e) = c.replay(GameRules::default());
    assert!(e.is_none());
    assert_eq!(g.moves().len(), 1);
    let e = "startpos moves 7g7f xx"
        .parse::<PositionCommand>()
        .unwrap_err();
    assert!(e.to_string().contains("move 2"), "{e}");
}

fn mutate(text: &str, edits: &[(u16, u8, u8)]) -> String {
    const ALPHABET: &[u8] = b" 0123456789+-*/bwlnsgkrpLNSGKRPBabcdefghi";
    let mut bytes = text.as_bytes().to_vec();
    for &(pos, op, b) in edits {
        let i = usize::from(pos) % (bytes.len() + 1);
        let c = ALPHABET[usize::from(b) % ALPHABET.len()];
        match op % 3 {
            0 if i < bytes.len() => bytes[i] = c,
            1 => bytes.insert(i, c),
            _ if i < bytes.len() => {
                bytes.remove(i);
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(s in ".{0,120}") {
        let _ = sfen::parse_position(&s);
        let _ = sfen::parse_setup(&s);
        let _ = s.parse::<Move>();
        let _ = s.parse::<PositionCommand>();
    }

    #[test]
    fn random_bytes_never_panic(b in prop::collection::vec(any::<u8>(), 0..120)) {
        let s = String::from_utf8_lossy(&b);
        let _ = sfen::parse_position(&s);
        let _ = s.parse::<PositionCommand>();
    }

    #[test]
    fn mutated_sfen_and_moves_never_panic(
        which in 0usize..3,
        edits in prop::collection::vec((any::<u16>(), any::<u8>(), any::<u8>()), 1..6),
    ) {
        let base = [
            "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e 5a4b",
            "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1 moves S*4h 3i4h",
            "sfen 8k/9/6NG1/9/9/9/9/9/4K4 b P 1 moves P*1b",
        ][which];
        let text = mutate(base, &edits);
        if let Ok(cmd) = PositionCommand::parse_with(&text, Leniency { allow_missing_kings: true }) {
            for rules in [GameRules::default(), GameRules { illegal_move_loses: true, max_moves: Some(3), ..GameRules::default() }] {
                let (game, _) = cmd.replay(rules);
                let _ = game.status().word();
                let _ = Game::new(game.position().clone()).status();
            }
        }
    }
}
