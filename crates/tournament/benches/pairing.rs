//! Pairing round 6 of a 500- and a 1000-player Swiss event (rounds 1-5
//! paired by the crate with random results; ratings, clubs and a few
//! withdrawals). Targets: under 250 ms and under 1 s.

use criterion::{criterion_group, criterion_main, Criterion};
use shogi_tournament::pair::{pair_next, Request};
use shogi_tournament::{Board, Event, Format, GameResult, Player, Round};
use std::hint::black_box;

/// `SplitMix64`, for reproducible random events.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn event_at_round_6(size: usize) -> Event {
    let mut rng = 2026;
    let players = (0..size)
        .map(|_| Player {
            rating: Some(1000 + (next(&mut rng) % 1400) as i32),
            grade: None,
            club: next(&mut rng)
                .is_multiple_of(2)
                .then(|| format!("club{}", next(&mut rng) % 40)),
            from_round: 1,
            withdrawn_from: next(&mut rng).is_multiple_of(50).then_some(4),
        })
        .collect();
    let mut event = Event {
        format: Format::Swiss,
        rounds: 9,
        seed: 7,
        players,
        played: Vec::new(),
    };
    for _ in 0..5 {
        let p = pair_next(&event, &Request::default()).expect("rounds 1-5 pair");
        let boards = p
            .boards
            .iter()
            .map(|b| {
                let result = match next(&mut rng) % 10 {
                    0..=4 => GameResult::SenteWin,
                    5..=8 => GameResult::GoteWin,
                    _ => GameResult::Draw,
                };
                Board {
                    result: Some(result),
                    ..*b
                }
            })
            .collect();
        event.played.push(Round {
            boards,
            byes: p.byes,
        });
    }
    event
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("pairing");
    group.sample_size(10);
    for size in [500, 1000] {
        let event = event_at_round_6(size);
        let round = pair_next(&event, &Request::default()).expect("round 6 pairs");
        // A fast wrong answer fails: every player of round 6 is placed once.
        let placed = round.boards.len() * 2 + round.byes.len();
        assert_eq!(
            placed,
            event.players.iter().filter(|p| p.plays_in(6)).count()
        );
        group.bench_function(format!("swiss_{size}_round_6"), |b| {
            b.iter(|| pair_next(black_box(&event), &Request::default()));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
