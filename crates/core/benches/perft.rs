//! Perft speed. Every measured run asserts its node count, so a fast wrong
//! answer fails. `cargo bench -p shogi-core`; for the whole-process
//! comparison with other crates see `bench/compare.sh`.

use criterion::{criterion_group, criterion_main, Criterion};
use shogi_core::{perft, sfen, Position};

const POS207: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let cases = [
        ("startpos 4 bulk", sfen::STARTPOS, 4, true, 719_731),
        ("startpos 4 every leaf", sfen::STARTPOS, 4, false, 719_731),
        ("207-move position 3 bulk", POS207, 3, true, 4_809_015),
        ("207-move position 2 every leaf", POS207, 2, false, 28_684),
    ];
    for (name, text, depth, bulk, nodes) in cases {
        let start: Position = sfen::parse_position(text).expect("valid SFEN");
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut pos = start.clone();
                let n = perft::perft(&mut pos, depth, bulk);
                assert_eq!(n, nodes);
                n
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
