//! The legal moves of a position in the shape the board UI needs, as
//! compact values: destinations per origin square, drop squares per piece,
//! promotion choices. Square sets are bit sets; no string is made until they
//! are serialised, straight into the JSON text (a state is built after
//! every move, and most of it is never read but written).

use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;
use shogi_core::{HandKind, Move, Position, Square};

/// A set of squares (bit `i`: the square of index `i`), written in JSON as
/// the list of its USI squares in index order (`1a`, `1b`, ... `9i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Squares(u128);

impl Squares {
    fn insert(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// How many squares the set holds.
    #[must_use]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares in index order.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Square::from_index(i)
        })
    }
}

/// A square's USI name (`7g`) without allocating.
struct Name([u8; 2]);

impl Name {
    fn of(sq: Square) -> Name {
        Name([b'0' + sq.file().number(), sq.rank().letter() as u8])
    }

    fn as_str(&self) -> &str {
        // Two ASCII characters: a digit and a letter.
        std::str::from_utf8(&self.0).unwrap_or("")
    }
}

impl Serialize for Squares {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for sq in self.iter() {
            seq.serialize_element(Name::of(sq).as_str())?;
        }
        seq.end()
    }
}

/// Board moves: origin square → destination squares, in origin order; in
/// JSON an object of USI squares (`{"7g": ["7f"]}`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dests(Vec<(Square, Squares)>);

impl Dests {
    /// Whether no piece can move.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The destinations of the piece on `from`.
    #[must_use]
    pub fn from(&self, from: Square) -> Squares {
        self.0
            .iter()
            .find(|(f, _)| *f == from)
            .map_or(Squares::default(), |(_, to)| *to)
    }

    /// How many board moves there are (a move that may promote counted once).
    #[must_use]
    pub fn count(&self) -> usize {
        self.0.iter().map(|(_, to)| to.len()).sum()
    }
}

impl Serialize for Dests {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (from, to) in &self.0 {
            map.serialize_entry(Name::of(*from).as_str(), to)?;
        }
        map.end()
    }
}

/// Drops: piece → squares, in the order of the pieces' letters; in JSON an
/// object keyed by the USI letter (`{"P": ["5e"]}`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Drops(Vec<(HandKind, Squares)>);

impl Drops {
    /// Whether no piece can be dropped.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Drops {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (kind, to) in &self.0 {
            map.serialize_entry(kind.piece_kind().sfen(), to)?;
        }
        map.end()
    }
}

/// Promotion choices: `(from, to, must)`, in the order of their text; in
/// JSON an object `{"8h2b": "may", "2c2b": "must"}`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Promotions(Vec<(Square, Square, bool)>);

impl Promotions {
    /// Whether no move may promote.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `may` or `must` for the move from `from` to `to`, if it may promote.
    #[must_use]
    pub fn get(&self, from: Square, to: Square) -> Option<&'static str> {
        self.0
            .iter()
            .find(|(f, t, _)| (*f, *t) == (from, to))
            .map(|(_, _, must)| if *must { "must" } else { "may" })
    }
}

impl Serialize for Promotions {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (from, to, must) in &self.0 {
            let (f, t) = (Name::of(*from), Name::of(*to));
            let key = [f.0[0], f.0[1], t.0[0], t.0[1]];
            let key = std::str::from_utf8(&key).unwrap_or("");
            map.serialize_entry(key, if *must { "must" } else { "may" })?;
        }
        map.end()
    }
}

/// The legal moves of `pos` grouped by origin, piece in hand and promotion.
#[must_use]
pub fn group(pos: &Position) -> (Dests, Drops, Promotions) {
    let legal = pos.legal_moves();
    // Per origin: every destination, and those reached without promoting.
    let mut to = [Squares::default(); 81];
    let mut plain = [Squares::default(); 81];
    let mut promoting = [Squares::default(); 81];
    let mut drops = [Squares::default(); HandKind::ALL.len()];
    for &m in &legal {
        match m {
            Move::Board {
                from,
                to: t,
                promote,
            } => {
                to[from.index()].insert(t);
                if promote {
                    promoting[from.index()].insert(t);
                } else {
                    plain[from.index()].insert(t);
                }
            }
            Move::Drop { kind, to: t } => drops[kind as usize].insert(t),
        }
    }
    let (mut dests, mut promotions) = (Dests::default(), Promotions::default());
    for from in Square::all() {
        let i = from.index();
        if to[i].is_empty() {
            continue;
        }
        dests.0.push((from, to[i]));
        for t in promoting[i].iter() {
            promotions.0.push((from, t, !plain[i].contains(t)));
        }
    }
    let mut drops: Vec<(HandKind, Squares)> = HandKind::ALL
        .into_iter()
        .filter(|&k| !drops[k as usize].is_empty())
        .map(|k| (k, drops[k as usize]))
        .collect();
    drops.sort_unstable_by_key(|(k, _)| k.piece_kind().sfen());
    (dests, Drops(drops), promotions)
}
