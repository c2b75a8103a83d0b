//! Runs the fixed benchmark: `cargo run --release -p shogi-engine --example bench [depth]`.

fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(8);
    println!("{}", shogi_engine::bench::bench(depth));
}
