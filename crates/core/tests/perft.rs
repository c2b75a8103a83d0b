//! Perft against published tables (`tests/perft.txt`: SFEN; depth count; ...).

use shogi_core::{perft, sfen, Position};

struct Case {
    sfen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    include_str!("perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(';');
            let sfen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut it = p.split_whitespace();
                    let d = it.next().unwrap().parse().unwrap();
                    let n = it.next().unwrap().parse().unwrap();
                    (d, n)
                })
                .collect();
            Case { sfen, counts }
        })
        .collect()
}

fn position(s: &str) -> Position {
    if s == "startpos" {
        Position::startpos()
    } else {
        sfen::parse_position(s).unwrap()
    }
}

/// Depths above this are left to `shogi perft` and the benchmarks, to keep the suite quick.
const MAX_TEST_NODES: u64 = 30_000_000;

#[test]
fn perft_tables_with_bulk_counting() {
    for case in cases() {
        let mut pos = position(&case.sfen);
        for &(d, n) in &case.counts {
            if n > MAX_TEST_NODES {
                continue;
            }
            assert_eq!(
                perft::perft(&mut pos, d, true),
                n,
                "{} depth {d}",
                case.sfen
            );
        }
    }
}

#[test]
fn perft_tables_making_every_leaf_move() {
    for case in cases() {
        let mut pos = position(&case.sfen);
        for &(d, n) in &case.counts {
            if n > MAX_TEST_NODES / 10 {
                continue;
            }
            assert_eq!(
                perft::perft(&mut pos, d, false),
                n,
                "{} depth {d}",
                case.sfen
            );
        }
    }
}

#[test]
fn position_with_593_legal_moves() {
    let pos = sfen::parse_position("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1").unwrap();
    assert_eq!(pos.legal_moves().len(), 593);
    assert_eq!(pos.count_legal_moves(), 593);
}
