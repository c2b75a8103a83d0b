//! A fixed benchmark: the same positions searched to the same depth on one
//! thread, giving a deterministic node count (a signature of the search) and
//! a speed.
//!
//! ```
//! let r = shogi_engine::bench::bench(2);
//! assert_eq!(r.per_position.len(), shogi_engine::bench::POSITIONS.len());
//! assert_eq!(r.total_nodes, r.per_position.iter().sum::<u64>());
//! ```

use std::time::Instant;

use shogi_core::sfen::parse_position;

use crate::limits::SearchLimit;
use crate::search::{search, SearchControl, SearchOptions};
use crate::tt::TranspositionTable;

/// The benchmark positions (SFEN): openings and middle games from real games.
pub const POSITIONS: [&str; 10] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
    "ln1g1g1nl/1ks2r3/1pppp1bpp/p4pp2/7P1/P1P1P1P2/1P1P1P2P/1BK1GS1R1/LNSG3NL b S 25",
    "ln1gk1snl/2s3gb1/2pppp2p/p5pR1/1r7/P5P2/2PPPP2P/1BGK2S2/LNS2G1NL b 2P2p 21",
    "ln1gkss+Rl/2s3g2/1Ppppp2p/p5pN1/1n7/P1PK2P2/3PPP2P/4G1S+p1/L1+r2G1NL b 2BPp 41",
    "ln1k1s2l/2P1g1sB1/2pppp2p/p1s3p2/5N3/P1+rP1PP2/3+nPK2P/4G1S+R1/L4G1NL b BPg3p 61",
    "lnsg1g1nl/2k1r4/pppp1pbpp/5sp2/4p2P1/2P2SP2/PP1PPP2P/1BK1G2R1/LNSG3NL b - 21",
    "l3rg1nl/1kg6/1snp1pbpp/1pp2sp2/p2Pp2P1/1BPG1SP2/PP2PP2P/LS5R1/KN1G3NL b - 41",
    "l3rg2l/1kg6/1snp1pnpp/2p2sp2/pp1gP2P1/4pSP2/PP3P2P/LSR6/KNG1B2NL b B2P 61",
    "l2r4l/1kg1g1B2/1snp1pnp1/2p1Ps2p/p2g2pP1/1P2pSPB1/P1P2P2P/LS1R5/KNG4NL b Pp 81",
];

/// What [`bench()`] measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched in each position.
    pub per_position: Vec<u64>,
    /// Their sum.
    pub total_nodes: u64,
    /// Nodes per second over the whole run.
    pub nps: u64,
    /// Milliseconds taken.
    pub elapsed_ms: u64,
}

impl std::fmt::Display for BenchResult {
    /// One line per position, then `total N nodes, T ms, S nps`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, n) in self.per_position.iter().enumerate() {
            writeln!(f, "position {:2}: {n} nodes", i + 1)?;
        }
        write!(
            f,
            "total {} nodes, {} ms, {} nps",
            self.total_nodes, self.elapsed_ms, self.nps
        )
    }
}

/// The table size of [`bench()`] in MiB.
pub const BENCH_HASH_MB: usize = 16;

/// Searches every position of [`POSITIONS`] to `depth` on one thread with a
/// 16 MiB table, emptied before each ([`bench_with_hash`]).
#[must_use]
pub fn bench(depth: u32) -> BenchResult {
    bench_with_hash(depth, &TranspositionTable::new(BENCH_HASH_MB))
}

/// [`bench()`] with the table `tt`, emptied before each position. Only the
/// searches are timed, not the emptying. The node counts do not depend on
/// the table's size as long as nothing is overwritten (16 MiB holds the
/// default depth's trees); a larger table shows the speed a game's
/// `USI_Hash` gives, where more probes miss the processor's caches.
#[must_use]
pub fn bench_with_hash(depth: u32, tt: &TranspositionTable) -> BenchResult {
    let options = SearchOptions::default();
    let mut per_position = Vec::new();
    let mut elapsed = std::time::Duration::ZERO;
    for sfen in POSITIONS {
        let Ok(pos) = parse_position(sfen) else {
            per_position.push(0);
            continue;
        };
        tt.clear();
        let start = Instant::now();
        let control = SearchControl::new(false);
        let r = search(
            &pos,
            &[],
            &SearchLimit::Depth(depth),
            &options,
            tt,
            &control,
            &mut |_: &str| {},
        );
        elapsed += start.elapsed();
        per_position.push(r.nodes);
    }
    let elapsed_ms = elapsed.as_millis() as u64;
    let total_nodes = per_position.iter().sum();
    BenchResult {
        per_position,
        total_nodes,
        nps: total_nodes * 1000 / elapsed_ms.max(1),
        elapsed_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_parse_and_counts_repeat() {
        for s in POSITIONS {
            assert!(parse_position(s).is_ok(), "{s}");
        }
        let a = bench(3);
        let b = bench(3);
        assert_eq!(a.per_position, b.per_position);
        assert!(a.per_position.iter().all(|&n| n > 0));
    }
}
