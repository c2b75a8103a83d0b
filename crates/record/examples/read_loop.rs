//! Profiling aid: reads the shared KIF, KI2 or CSA records (as the `readers`
//! benchmark groups them) with that format's reader, in a loop, for a profiler.
//!
//! `cargo run --release -p shogi-record --example read_loop -- KIF 2000`

use std::path::PathBuf;

fn main() {
    let mut args = std::env::args().skip(1);
    let format = args.next().unwrap_or_else(|| "KIF".to_string());
    let rounds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/records"
    ));
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).expect("manifest");
    let mut lines = manifest.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect("column");
    let (file, fmt) = (col("file"), col("format"));
    let files: Vec<Vec<u8>> = lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|cells| cells.get(fmt) == Some(&format.as_str()))
        .map(|cells| std::fs::read(dir.join(cells[file])).expect("file"))
        .collect();
    let read: fn(&[u8]) -> Result<shogi_record::Record, shogi_record::ReadError> =
        match format.as_str() {
            "KI2" => shogi_record::ki2::read_bytes,
            "CSA" => shogi_record::csa::read_bytes,
            _ => shogi_record::kif::read_bytes,
        };
    let mut ok = 0usize;
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        for f in &files {
            ok += usize::from(read(f).is_ok());
        }
    }
    let bytes: usize = files.iter().map(Vec::len).sum();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{format}: {ok} reads, {:.1} MB/s",
        (bytes * rounds) as f64 / secs / 1e6
    );
}
