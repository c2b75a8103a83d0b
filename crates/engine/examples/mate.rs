//! Solves a tsume: `cargo run --release -p shogi-engine --example mate -- "<sfen>" [time-ms]`.

fn main() {
    let mut args = std::env::args().skip(1);
    let sfen = args.next().unwrap_or_default();
    let time_ms = args.next().and_then(|t| t.parse().ok()).unwrap_or(10_000);
    match shogi_engine::dfpn::solve_mate_sfen(&sfen, time_ms) {
        Ok(r) => println!("{}", r.to_usi()),
        Err(e) => {
            eprintln!("bad SFEN: {e}");
            std::process::exit(2);
        }
    }
}
