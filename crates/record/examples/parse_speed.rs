//! Parse speed: reads every KIF/KIFU, KI2 and CSA record of the shared test data
//! repeatedly and prints megabytes per second (encoding detection, decoding,
//! parsing and move legality included).
//!
//! Run with `cargo run --release -p shogi-record --example parse_speed [data dir] [seconds]`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().map_or_else(
        || {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../../shared/data/records"
            ))
        },
        PathBuf::from,
    );
    let seconds: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("cannot read {}", dir.display());
        std::process::exit(2);
    };
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        if matches!(ext.as_str(), "kif" | "kifu" | "csa" | "ki2" | "ki2u") {
            if let Ok(bytes) = std::fs::read(&path) {
                files.push((ext, bytes));
            }
        }
    }
    files.sort();
    for (label, exts) in [
        ("KIF", &["kif", "kifu"][..]),
        ("KI2", &["ki2", "ki2u"][..]),
        ("CSA", &["csa"][..]),
    ] {
        let set: Vec<&Vec<u8>> = files
            .iter()
            .filter(|(e, _)| exts.contains(&e.as_str()))
            .map(|(_, b)| b)
            .collect();
        let bytes_per_round: usize = set.iter().map(|b| b.len()).sum();
        let mut moves = 0usize;
        let mut rounds = 0usize;
        let started = Instant::now();
        let budget = Duration::from_secs_f64(seconds);
        while started.elapsed() < budget || rounds == 0 {
            for b in &set {
                if let Ok(rec) = shogi_record::read(b) {
                    moves += rec.moves.len();
                }
            }
            rounds += 1;
        }
        let secs = started.elapsed().as_secs_f64();
        let mb = (bytes_per_round * rounds) as f64 / 1e6;
        println!(
            "{label}: {} files, {:.1} KB per round, {rounds} rounds in {secs:.2} s: {:.1} MB/s, {:.0} moves/s",
            set.len(),
            bytes_per_round as f64 / 1e3,
            mb / secs,
            moves as f64 / secs
        );
    }
}
