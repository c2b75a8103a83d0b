//! The transposition table: a fixed-size, lock-free hash table shared by all
//! search threads.
//!
//! Each entry is two atomic words, the key xor-ed with the data and the data
//! itself, so a torn write between threads is detected as a miss instead of
//! being read as a wrong entry. Entries are grouped in clusters of four.
//!
//! ```
//! use shogi_engine::tt::{Bound, TranspositionTable};
//! let tt = TranspositionTable::new(1);
//! tt.store(42, None, 100, 0, 5, Bound::Exact);
//! let e = tt.probe(42).unwrap();
//! assert_eq!((e.score, e.depth, e.bound), (100, 5, Bound::Exact));
//! ```

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use shogi_core::Move;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (fail low).
    Upper,
    /// The true score is at least the stored one (fail high).
    Lower,
    /// The stored score is exact.
    Exact,
}

impl Bound {
    fn code(self) -> u64 {
        match self {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        }
    }
    fn from_code(c: u64) -> Option<Bound> {
        match c {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// A probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refuting) move found, if any.
    pub mv: Option<Move>,
    /// The score, with mate scores relative to the stored node (see [`crate::search`]).
    pub score: i32,
    /// The static evaluation of the node.
    pub eval: i32,
    /// The remaining depth the score was searched to.
    pub depth: i32,
    /// What kind of bound the score is.
    pub bound: Bound,
}

const CLUSTER: usize = 4;

/// One bucket of [`CLUSTER`] entries (key ^ data, data): exactly one
/// 64-byte cache line, aligned so that a probe touches one line, not two.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Cluster([AtomicU64; CLUSTER * 2]);

/// A shared hash table of search results.
#[derive(Debug)]
pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    generation: AtomicU8,
}

fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let m = u64::from(mv.map_or(0, Move::to_u16));
    let s = u64::from(score.clamp(-32767, 32767) as i16 as u16);
    let e = u64::from(eval.clamp(-32767, 32767) as i16 as u16);
    let d = depth.clamp(0, 255) as u64;
    m | s << 16 | e << 32 | d << 48 | bound.code() << 56 | u64::from(generation & 0x3f) << 58
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = Bound::from_code((data >> 56) & 3)?;
    let code = (data & 0xffff) as u16;
    Some(TtEntry {
        mv: if code == 0 {
            None
        } else {
            Move::from_u16(code)
        },
        score: i32::from((data >> 16) as u16 as i16),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: ((data >> 48) & 0xff) as i32,
        bound,
    })
}

/// Available memory in MiB, where the system says (Linux `/proc/meminfo`).
fn available_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8 & 0x3f
}

/// Asks the kernel to back the reserved, not yet touched memory of
/// `clusters` with huge pages (2 MiB instead of 4 KiB), where it backs them
/// only when asked (Linux's transparent huge pages in `madvise` mode).
/// With 4 KiB pages nearly every probe of a large table also misses the
/// address translation cache; docs/TUNING.md "Speed" has the figures. The
/// advice is only advice: if refused, the table works as before.
#[cfg(target_os = "linux")]
fn ask_for_huge_pages(clusters: &Vec<Cluster>) {
    const HUGE: usize = 2 << 20;
    let start = clusters.as_ptr() as usize;
    let end = start + clusters.capacity() * size_of::<Cluster>();
    // The whole huge pages inside the allocation.
    let first = start.next_multiple_of(HUGE);
    let last = end - end % HUGE;
    if last <= first {
        return;
    }
    // SAFETY: `madvise` with `MADV_HUGEPAGE` changes how the kernel backs
    // the range, never its contents or who may access it, and the range
    // [first, last) lies inside the allocation `clusters` owns (rounded
    // inwards to whole huge pages, so page-aligned as madvise requires).
    // The pointer is not used to read or write. Its result is only advice
    // taken or not, so it is ignored.
    #[allow(unsafe_code)]
    unsafe {
        libc::madvise(
            first as *mut libc::c_void,
            last - first,
            libc::MADV_HUGEPAGE,
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn ask_for_huge_pages(_: &Vec<Cluster>) {}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one cluster).
    ///
    /// # Panics
    /// If the memory cannot be allocated; see [`TranspositionTable::try_new`].
    #[must_use]
    pub fn new(mb: usize) -> TranspositionTable {
        match TranspositionTable::try_new(mb) {
            Some(tt) => tt,
            None => panic!("cannot allocate a {mb} MiB transposition table"),
        }
    }

    /// A table of about `mb` mebibytes, or `None` if the memory is not available.
    #[must_use]
    pub fn try_new(mb: usize) -> Option<TranspositionTable> {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let n = (bytes / size_of::<Cluster>()).max(1);
        if let Some(avail) = available_memory_mb() {
            // Leave room for everything else rather than be killed for memory.
            if mb > 16 && mb > avail * 3 / 4 {
                return None;
            }
        }
        let mut clusters = Vec::new();
        clusters.try_reserve_exact(n).ok()?;
        ask_for_huge_pages(&clusters);
        clusters.extend((0..n).map(|_| Cluster::default()));
        Some(TranspositionTable {
            clusters,
            generation: AtomicU8::new(0),
        })
    }

    /// The table size in mebibytes.
    #[must_use]
    pub fn size_mb(&self) -> usize {
        (self.clusters.len() * size_of::<Cluster>()) >> 20
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in self.clusters.iter().flat_map(|c| &c.0) {
            s.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & 0x3f, Ordering::Relaxed);
    }

    fn cluster(&self, key: u64) -> &[AtomicU64; CLUSTER * 2] {
        let i = ((u128::from(key) * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[i].0
    }

    /// Starts loading the bucket of `key` into the cache, so that a
    /// [`TranspositionTable::probe`] of it soon after waits less for
    /// memory. It changes no result. On x86-64 it is the processor's
    /// prefetch instruction, which does not wait for the line; elsewhere it
    /// does nothing (docs/TUNING.md "Speed" has the figures).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let line: *const i8 = self.cluster(key).as_ptr().cast();
            // SAFETY: `_mm_prefetch` is only a hint: it reads no value into
            // the program, writes nothing, and cannot fault, whatever the
            // address (here it is a live element of `self.clusters` anyway).
            // Its one requirement is the SSE instruction set, which every
            // x86-64 processor has (it is in the target's baseline).
            #[allow(unsafe_code)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(line);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let slots = self.cluster(key);
        for i in 0..CLUSTER {
            let k = slots[2 * i].load(Ordering::Relaxed);
            let d = slots[2 * i + 1].load(Ordering::Relaxed);
            if k ^ d == key && d != 0 {
                return unpack(d);
            }
        }
        None
    }

    /// Stores a result for `key`. A missing `mv` keeps the move already stored for the key.
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation.load(Ordering::Relaxed);
        let slots = self.cluster(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for i in 0..CLUSTER {
            let k = slots[2 * i].load(Ordering::Relaxed);
            let d = slots[2 * i + 1].load(Ordering::Relaxed);
            if d == 0 || k ^ d == key {
                victim = i;
                if d != 0 && k ^ d == key {
                    if let Some(old) = unpack(d) {
                        // Keep a deeper result of the same search unless this one is exact.
                        if bound != Bound::Exact
                            && old.depth > depth + 3
                            && generation_of(d) == generation
                        {
                            return;
                        }
                        let mv = mv.or(old.mv);
                        let data = pack(mv, score, eval, depth, bound, generation);
                        slots[2 * i].store(key ^ data, Ordering::Relaxed);
                        slots[2 * i + 1].store(data, Ordering::Relaxed);
                        return;
                    }
                }
                break;
            }
            let age = i32::from(generation.wrapping_sub(generation_of(d)) & 0x3f);
            let worth = ((d >> 48) & 0xff) as i32 - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let data = pack(mv, score, eval, depth, bound, generation);
        slots[2 * victim].store(key ^ data, Ordering::Relaxed);
        slots[2 * victim + 1].store(data, Ordering::Relaxed);
    }

    /// How full the table is, in permille, judged from the first clusters'
    /// entries written by the current search.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let n = (1000 / CLUSTER).min(self.clusters.len());
        let mut used = 0;
        for c in &self.clusters[..n] {
            for i in 0..CLUSTER {
                let d = c.0[2 * i + 1].load(Ordering::Relaxed);
                if d != 0 && generation_of(d) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * CLUSTER).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip_and_replace() {
        let tt = TranspositionTable::new(1);
        let m: Move = "7g7f".parse().unwrap();
        tt.store(7, Some(m), -31000, -5, 12, Bound::Lower);
        let e = tt.probe(7).unwrap();
        assert_eq!(e.mv, Some(m));
        assert_eq!(e.score, -31000);
        assert_eq!(e.eval, -5);
        assert_eq!(e.depth, 12);
        assert_eq!(e.bound, Bound::Lower);
        tt.store(7, None, 3, 3, 13, Bound::Upper);
        assert_eq!(tt.probe(7).unwrap().mv, Some(m));
        assert!(tt.probe(8).is_none());
        tt.clear();
        assert!(tt.probe(7).is_none());
    }
}
