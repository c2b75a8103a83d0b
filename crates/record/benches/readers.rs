//! Reader speed: every KIF, KI2 and CSA record of the shared data set
//! (`shared/data/records`, listed in `manifest.tsv`), read from memory with
//! full legality, grouped by format. Criterion reports bytes per second;
//! moves per second (every node of the tree, variations included) are
//! printed beside it. Each measured pass asserts the number of records read
//! and of moves, so a fast wrong reader fails. `cargo bench -p shogi-record`.

use std::path::PathBuf;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shogi_record::{csa, ki2, kif, Node, ReadError, Record};

/// A format's reader of whole files.
type Reader = fn(&[u8]) -> Result<Record, ReadError>;

fn data_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/records"
    ))
}

/// The files of the manifest in `format` (its `format` column), loaded.
fn files(format: &str) -> Vec<Vec<u8>> {
    let dir = data_dir();
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv"))
        .expect("shared/data/records/manifest.tsv beside the repository clone");
    let mut lines = manifest.lines();
    let header: Vec<&str> = lines.next().expect("manifest header").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .expect("manifest column")
    };
    let (file, fmt) = (col("file"), col("format"));
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|cells| cells.get(fmt) == Some(&format))
        .map(|cells| std::fs::read(dir.join(cells[file])).expect("record file readable"))
        .collect()
}

fn nodes(line: &[Node]) -> usize {
    line.iter()
        .map(|n| 1 + n.variations.iter().map(|v| nodes(v)).sum::<usize>())
        .sum()
}

/// Reads every file; the number read without error and the moves they hold.
fn read_all(files: &[Vec<u8>], read: Reader) -> (usize, usize) {
    let mut ok = 0;
    let mut moves = 0;
    for f in files {
        if let Ok(rec) = read(f) {
            ok += 1;
            moves += nodes(&rec.moves);
        }
    }
    (ok, moves)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("read");
    group.sample_size(20);
    let readers: [(&str, Reader); 3] = [
        ("KIF", kif::read_bytes),
        ("KI2", ki2::read_bytes),
        ("CSA", csa::read_bytes),
    ];
    for (format, read) in readers {
        let files = files(format);
        let bytes: usize = files.iter().map(Vec::len).sum();
        let expected = read_all(&files, read);
        let rounds = 20;
        let t = Instant::now();
        for _ in 0..rounds {
            assert_eq!(read_all(&files, read), expected);
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{format}: {} files, {} read, {bytes} bytes, {} moves; {:.0} moves/s, {:.1} MB/s",
            files.len(),
            expected.0,
            expected.1,
            (rounds * expected.1) as f64 / secs,
            (rounds * bytes) as f64 / secs / 1e6,
        );
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_function(format, |b| {
            b.iter(|| {
                let got = read_all(&files, read);
                assert_eq!(got, expected);
                got
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
