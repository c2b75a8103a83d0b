//! Zobrist keys for hashing positions, computed at compile time.
//!
//! A position's key is the XOR of one key per (owner, kind, square) on the
//! board, one key per (owner, kind, n) for every n from 1 up to the count held
//! in hand, and [`SIDE`] when Gote is to move. So the same board with different
//! hands has a different key, as the repetition rule requires.

use crate::{Color, HandKind, PieceKind, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

static BOARD: [[[u64; 81]; 14]; 2] = {
    let mut t = [[[0u64; 81]; 14]; 2];
    let mut state = 0x5348_4f47_4900_0001u64;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            let mut s = 0;
            while s < 81 {
                let (ns, v) = splitmix(state);
                state = ns;
                t[c][k][s] = v;
                s += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// Hand keys, indexed by colour, kind and count (1-18; index 0 unused).
static HAND: [[[u64; 19]; 7]; 2] = {
    let mut t = [[[0u64; 19]; 7]; 2];
    let mut state = 0x4841_4e44_0000_0002u64;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let mut n = 1;
            while n < 19 {
                let (ns, v) = splitmix(state);
                state = ns;
                t[c][k][n] = v;
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// `XORed` into the key when Gote is to move.
pub const SIDE: u64 = 0x9d3c_1f5a_77e2_4b61;

/// The key of a piece on a square.
#[inline(always)]
#[must_use]
pub fn board(color: Color, kind: PieceKind, sq: Square) -> u64 {
    BOARD[color.index()][kind.index()][sq.index()]
}

/// The key toggled when the count of `kind` in `color`'s hand goes between `n - 1` and `n`.
#[inline(always)]
#[must_use]
pub fn hand(color: Color, kind: HandKind, n: u8) -> u64 {
    HAND[color.index()][kind.index()][n as usize % 19]
}
