//! The explorer's answer time over positions taken from a database's games
//! (docs/EXPLORER.md): picks `--positions` random positions (a random game
//! of the collections, a random ply of it), then asks the explorer for each
//! twice: the first pass in a fresh process is "cold" (the database's
//! own cache empty; the operating system's file cache as it is), the second
//! "warm". Prints p50, p90, p99 and the worst of each pass.
//!
//! ```text
//! cargo run --release -p shogi-server --example explorer_bench -- --db club.db [--positions 1000] [--collection NAME] [--seed N]
//! ```

use std::time::{Duration, Instant};

use shogi_server::db::Store;
use shogi_server::explorer::query::{self, ExplorerRequest};
use shogi_server::Location;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// xorshift64*: the same positions for the same seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n.max(1)
    }
}

fn percentiles(label: &str, mut times: Vec<Duration>) {
    times.sort();
    let at = |p: f64| {
        let i = ((times.len() as f64 * p).ceil() as usize).clamp(1, times.len()) - 1;
        times[i].as_secs_f64() * 1000.0
    };
    println!(
        "{label}: {} answers, p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, worst {:.2} ms",
        times.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let db = Location::parse(&arg("--db").unwrap_or_else(|| "shogi.db".into()));
    let count: usize = arg("--positions").map_or(1000, |n| n.parse().expect("--positions N"));
    let mut rng = Rng(arg("--seed").map_or(0x5EED, |n| n.parse().expect("--seed N")) | 1);
    let collection = arg("--collection");
    let store = Store::open(&db).await.expect("the database opens");
    let cols: Vec<_> = store
        .readable_collections(None)
        .await
        .expect("the collections")
        .into_iter()
        .filter(|c| collection.as_deref().is_none_or(|n| n == c.name))
        .collect();
    let ids: Vec<i64> = cols.iter().map(|c| c.id).collect();
    let games: u64 = cols.iter().map(|c| c.games).sum();
    assert!(games > 0, "no games in {db}");
    let mut sfens = Vec::with_capacity(count);
    while sfens.len() < count {
        // A random game by its number (an offset into the list would read
        // every game before it: minutes a sample at a million games).
        let n = i64::try_from(rng.below(games + games / 8 + 1)).unwrap_or(0);
        let Some(id) = store.collection_game_from(n, &ids).await.expect("a game") else {
            continue;
        };
        let Some((mut pos, moves)) = query::game_moves(&store, &id).await.expect("its moves")
        else {
            continue;
        };
        let ply = rng.below(moves.len() as u64 + 1) as usize;
        for &m in &moves[..ply] {
            pos.make_move(m);
        }
        sfens.push(pos.to_sfen());
    }
    store.close().await;
    // A fresh connection pool: the database's page cache starts empty.
    let store = Store::open(&db).await.expect("the database opens again");
    for pass in ["cold", "warm"] {
        let mut times = Vec::with_capacity(count);
        let mut total = 0;
        for sfen in &sfens {
            let req = ExplorerRequest {
                sfen: sfen.clone(),
                collection: collection.clone(),
                limit: 10,
                ..ExplorerRequest::default()
            };
            let started = Instant::now();
            let a = query::explore(&store, None, &req).await.expect("an answer");
            times.push(started.elapsed());
            total += a.total;
            assert!(a.total > 0, "a position of a game has a game: {sfen}");
        }
        percentiles(&format!("{pass} ({total} games counted)"), times);
    }
    store.close().await;
}
