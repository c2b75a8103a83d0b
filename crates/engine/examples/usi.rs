//! The engine on stdin/stdout: `cargo run --release -p shogi-engine --example usi`.

fn main() {
    shogi_engine::usi::run_usi(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
}
