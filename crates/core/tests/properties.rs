//! Property tests on random games: SFEN round trip, make/unmake, hashing,
//! and agreement between the move generator and the legality checker.

use proptest::prelude::*;
use shogi_core::{sfen, Color, HandKind, Handicap, Move, Position, Square};

const STARTS: [&str; 4] = [
    sfen::STARTPOS,
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "8k/9/6NG1/9/9/9/9/9/4K4 b P 1",
];

/// Every syntactically possible move in `pos`: all board moves of the side
/// to move's pieces, with and without promotion, and all drops.
fn all_candidates(pos: &Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let mut out = Vec::new();
    for from in pos.color_bb(us) {
        for to in Square::all() {
            if to != from {
                out.push(Move::Board {
                    from,
                    to,
                    promote: false,
                });
                out.push(Move::Board {
                    from,
                    to,
                    promote: true,
                });
            }
        }
    }
    for kind in HandKind::ALL {
        for to in Square::all() {
            out.push(Move::Drop { kind, to });
        }
    }
    out
}

fn walk(start: usize, choices: &[u16]) -> Vec<Position> {
    let mut pos = if start < STARTS.len() {
        sfen::parse_position(STARTS[start]).unwrap()
    } else {
        Handicap::ALL[start % Handicap::ALL.len()].position()
    };
    let mut seen = vec![pos.clone()];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[usize::from(c) % moves.len()]);
        seen.push(pos.clone());
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn sfen_round_trip(start in 0usize..20, choices in prop::collection::vec(any::<u16>(), 0..160)) {
        for pos in walk(start, &choices) {
            let text = pos.to_sfen();
            let back = sfen::parse_position(&text).unwrap();
            prop_assert_eq!(&back, &pos, "{}", text);
            prop_assert_eq!(back.to_sfen(), text);
        }
    }

    #[test]
    fn make_unmake_restores_position_and_hash(start in 0usize..20, choices in prop::collection::vec(any::<u16>(), 0..160)) {
        for pos in walk(start, &choices) {
            prop_assert_eq!(pos.hash(), pos.hash_from_scratch());
            for m in pos.legal_moves() {
                let mut p = pos.clone();
                let undo = p.make_move(m);
                prop_assert_eq!(p.hash(), p.hash_from_scratch(), "after {}", m);
                prop_assert_eq!(pos.hash_after(m), p.hash_from_scratch(), "hash_after {}", m);
                // The incrementally found checkers equal a fresh computation.
                let fresh = Position::from_setup_with(p.to_setup(), shogi_core::Leniency { allow_missing_kings: true }).unwrap();
                prop_assert_eq!(p.checkers(), fresh.checkers(), "checkers after {} in {}", m, pos.to_sfen());
                p.unmake_move(m, undo);
                prop_assert_eq!(&p, &pos, "unmake {}", m);
            }
        }
    }

    #[test]
    fn generated_moves_are_exactly_the_legal_moves(start in 0usize..20, choices in prop::collection::vec(any::<u16>(), 0..120)) {
        for pos in walk(start, &choices).into_iter().step_by(7) {
            let generated = pos.legal_moves();
            prop_assert_eq!(generated.len() as u64, pos.count_legal_moves());
            let mut unique: Vec<_> = generated.iter().map(|m| m.to_u16()).collect();
            unique.sort_unstable();
            unique.dedup();
            prop_assert_eq!(unique.len(), generated.len(), "duplicates in {}", pos.to_sfen());
            for m in all_candidates(&pos) {
                let legal = pos.check_move(m).is_ok();
                prop_assert_eq!(legal, generated.contains(&m), "{} in {}", m, pos.to_sfen());
                prop_assert_eq!(pos.is_legal(m), legal, "is_legal {} in {}", m, pos.to_sfen());
            }
        }
    }

    #[test]
    fn captures_quiets_and_checks_agree_with_playing_the_moves(start in 0usize..20, choices in prop::collection::vec(any::<u16>(), 0..160)) {
        for pos in walk(start, &choices).into_iter().step_by(3) {
            let all = pos.legal_moves();
            let captures = pos.legal_captures();
            let expected: Vec<Move> = all
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::Board { to, .. } if pos.piece_at(*to).is_some()))
                .collect();
            prop_assert_eq!(captures.as_slice(), expected.as_slice(), "captures in {}", pos.to_sfen());
            let quiets = pos.legal_quiets();
            let rest: Vec<Move> = all.iter().copied().filter(|m| !expected.contains(m)).collect();
            prop_assert_eq!(quiets.as_slice(), rest.as_slice(), "quiets in {}", pos.to_sfen());
            let mut checks: Vec<u16> = pos.legal_quiet_checks().iter().map(|m| m.to_u16()).collect();
            let mut want: Vec<u16> = rest.iter().filter(|m| pos.gives_check(**m)).map(|m| m.to_u16()).collect();
            checks.sort_unstable();
            want.sort_unstable();
            prop_assert_eq!(checks, want, "quiet checks in {}", pos.to_sfen());
            for m in all {
                let mut p = pos.clone();
                p.make_move(m);
                prop_assert_eq!(pos.gives_check(m), p.in_check(), "{} in {}", m, pos.to_sfen());
            }
        }
    }

    #[test]
    fn move_codes_round_trip(code in any::<u16>()) {
        if let Some(m) = Move::from_u16(code) {
            prop_assert_eq!(m.to_u16(), code);
            prop_assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
        }
    }
}

#[test]
fn hands_keep_their_counts_through_captures() {
    let mut pos = Position::startpos();
    for m in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
        pos.play(m.parse().unwrap()).unwrap();
    }
    assert_eq!(pos.hand(Color::Sente).count(HandKind::Bishop), 1);
    assert_eq!(pos.hand(Color::Gote).count(HandKind::Bishop), 1);
}
