//! The df-pn table: results keyed by the board and the attacker's hand, in
//! clusters of a fixed size.
//!
//! A proven entry keeps a proof hand (it holds for every hand that
//! [covers](Hand::covers) it), a disproven one a disproof hand (it holds for
//! every hand it covers), any other the exact hand. The table is one vector
//! that doubles as it fills, up to its limit; a full cluster replaces its
//! entry with the least work below it.

use shogi_core::Hand;

/// Entries per table cluster: all entries of one board key share a cluster.
const CLUSTER: usize = 8;
/// The table's first size (entries); it doubles as it fills, up to the limit.
const FIRST_ENTRIES: usize = 1 << 16;
/// The least table size (entries), whatever the limit says.
const MIN_ENTRIES: usize = 1024;

/// One table entry: a result for a board key and an attacker's hand.
/// For a proof `hand` is a proof hand (the result holds for every hand that
/// has at least as much of each kind), for a disproof a disproof hand (it
/// holds for every hand with at most as much), otherwise the exact hand.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Entry {
    key: u64,
    /// The proof, disproof or exact hand.
    pub(super) hand: Hand,
    used: bool,
    /// The proof number.
    pub(super) pn: u32,
    /// The disproof number.
    pub(super) dn: u32,
    /// Plies to mate, for proven entries.
    pub(super) dist: u32,
    /// Nodes spent below this entry (saturating).
    pub(super) work: u32,
}

impl Entry {
    /// Whether the entry is proven or disproven.
    pub(super) fn is_final(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// A cluster of entries, aligned to cache lines.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
struct Cluster([Entry; CLUSTER]);

/// A fixed-layout hash table: clusters of [`CLUSTER`] entries in one
/// vector, all entries of a board key in one cluster. It starts small and
/// doubles while it is less than the limit; at the limit a full cluster
/// replaces its entry with the least work.
pub(super) struct Table {
    clusters: Vec<Cluster>,
    len: usize,
    max_entries: usize,
}

impl Table {
    /// An empty table that grows to at most `max_entries` entries.
    pub(super) fn new(max_entries: usize) -> Table {
        let max_entries = max_entries.max(MIN_ENTRIES);
        let size = FIRST_ENTRIES.min(max_entries) / CLUSTER;
        Table {
            clusters: vec![Cluster::default(); size],
            len: 0,
            max_entries,
        }
    }

    fn capacity(&self) -> usize {
        self.clusters.len() * CLUSTER
    }

    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.clusters.len() as u128) >> 64) as usize
    }

    /// Reads the clusters of `keys` so that the probes that follow find
    /// them in the cache (the loads overlap).
    pub(super) fn touch(&self, keys: impl Iterator<Item = u64>) {
        let mut x = 0;
        for k in keys {
            x ^= self.clusters[self.index(k)].0[0].key;
        }
        std::hint::black_box(x);
    }

    /// The entry for `key` and `hand`: a proof with a hand `hand` dominates
    /// (the shortest such), else a disproof whose hand dominates `hand`,
    /// else the entry for exactly `hand`.
    pub(super) fn probe(&self, key: u64, hand: &Hand) -> Option<Entry> {
        let mut proof: Option<Entry> = None;
        let mut disproof = None;
        let mut exact = None;
        for e in &self.clusters[self.index(key)].0 {
            if !e.used || e.key != key {
                continue;
            }
            if e.pn == 0 {
                if hand.covers(&e.hand) && proof.is_none_or(|p| e.dist < p.dist) {
                    proof = Some(*e);
                }
            } else if e.dn == 0 {
                if e.hand.covers(hand) {
                    disproof = Some(*e);
                }
            } else if e.hand == *hand {
                exact = Some(*e);
            }
        }
        proof.or(disproof).or(exact)
    }

    /// Stores a result for `key` and `hand` (a proof or disproof hand for a
    /// final result), dropping the entries it makes redundant; `work` is the
    /// nodes spent on it.
    pub(super) fn store(&mut self, key: u64, hand: Hand, pn: u32, dn: u32, dist: u32, work: u64) {
        if self.len * 4 >= self.capacity() * 3 && self.next_size() > self.clusters.len() {
            self.grow();
        }
        let new = Entry {
            key,
            hand,
            used: true,
            pn,
            dn,
            dist,
            work: u32::try_from(work).unwrap_or(u32::MAX),
        };
        let proof = pn == 0;
        let disproof = dn == 0 && !proof;
        let c = self.index(key);
        let cluster = &mut self.clusters[c].0;
        let mut exact = None;
        let mut empty = None;
        for (i, e) in cluster.iter_mut().enumerate() {
            if !e.used {
                empty = empty.or(Some(i));
                continue;
            }
            if e.key != key {
                continue;
            }
            if e.hand == hand {
                exact = Some(i);
                continue;
            }
            // Entries that the new result makes redundant.
            let redundant = if proof {
                e.hand.covers(&hand) && (e.dn != 0 && (e.pn != 0 || e.dist >= dist))
            } else if disproof {
                hand.covers(&e.hand) && e.pn != 0
            } else {
                false
            };
            if redundant {
                e.used = false;
                self.len -= 1;
                empty = empty.or(Some(i));
            }
        }
        if let Some(i) = exact {
            let e = &mut cluster[i];
            if e.is_final() && !new.is_final() {
                return;
            }
            if e.pn == 0 && proof && e.dist <= dist {
                return;
            }
            *e = new;
            return;
        }
        self.place(c, empty, new);
    }

    /// Puts `new` into slot `empty` of cluster `c`, or over the entry there
    /// with the least work (unresolved entries first on ties).
    fn place(&mut self, c: usize, empty: Option<usize>, new: Entry) {
        let cluster = &mut self.clusters[c].0;
        if let Some(i) = empty {
            cluster[i] = new;
            self.len += 1;
            return;
        }
        let victim = (0..CLUSTER)
            .min_by_key(|&i| (cluster[i].work, cluster[i].is_final()))
            .unwrap_or(0);
        cluster[victim] = new;
    }

    /// The number of clusters after the next growth: double, at most the limit.
    fn next_size(&self) -> usize {
        (self.clusters.len() * 2).min(self.max_entries / CLUSTER)
    }

    /// Doubles the table (or grows it to the limit).
    fn grow(&mut self) {
        let size = self.next_size();
        let old = std::mem::replace(&mut self.clusters, vec![Cluster::default(); size]);
        self.len = 0;
        for e in old.iter().flat_map(|c| c.0).filter(|e| e.used) {
            let c = self.index(e.key);
            let empty = self.clusters[c].0.iter().position(|e| !e.used);
            self.place(c, empty, e);
        }
    }

    /// Removes the proofs of `key` that hold for `hand`.
    pub(super) fn forget_proofs(&mut self, key: u64, hand: &Hand) {
        let c = self.index(key);
        for e in &mut self.clusters[c].0 {
            if e.used && e.key == key && e.pn == 0 && hand.covers(&e.hand) {
                e.used = false;
                self.len -= 1;
            }
        }
    }

    /// Keeps only the entries for which `f` holds.
    pub(super) fn retain(&mut self, f: impl Fn(&Entry) -> bool) {
        for e in self.clusters.iter_mut().flat_map(|c| c.0.iter_mut()) {
            if e.used && !f(e) {
                e.used = false;
                self.len -= 1;
            }
        }
    }
}
