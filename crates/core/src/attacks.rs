//! Attack tables: where each piece attacks from each square.
//!
//! Step pieces (pawn, knight, silver, gold, king) use one table per colour.
//! Sliders (lance, bishop, rook and the sliding half of horse and dragon) use
//! *rotated bitboards*: besides the plain occupancy, an [`Occupied`] keeps the
//! occupancy re-laid so that every rank and every diagonal is a run of
//! consecutive bits, as every file already is. The occupancy of the seven
//! inner squares of a line is then a 7-bit index into a table of attack sets.
//! All tables are computed at compile time, so there is no start-up cost and
//! no lazy-initialisation check in the hot path.
//!
//! ```
//! use shogi_core::attacks::{self, Occupied};
//! use shogi_core::{Bitboard, Square};
//! let sq: Square = "5e".parse()?;
//! let empty = Occupied::default();
//! assert_eq!(attacks::rook(sq, &empty).count(), 16);
//! assert_eq!(attacks::bishop(sq, &empty).count(), 16);
//! # Ok::<_, shogi_core::SquareParseError>(())
//! ```

use crate::{Bitboard, Color, PieceKind, Square};

/// Board occupancy kept four ways (plain, by rank, by both diagonals) for slider lookups.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Occupied {
    plain: u128,
    by_rank: u128,
    diag1: u128,
    diag2: u128,
}

impl Occupied {
    /// The occupancy of the squares in `bb`.
    #[must_use]
    pub fn from_bitboard(bb: Bitboard) -> Occupied {
        let mut o = Occupied::default();
        for sq in bb {
            o.toggle(sq);
        }
        o
    }

    /// The plain bitboard.
    #[inline]
    #[must_use]
    pub const fn bitboard(&self) -> Bitboard {
        Bitboard(self.plain)
    }

    /// Adds `sq` if empty, removes it if occupied.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        let i = sq.index();
        self.plain ^= 1u128 << i;
        self.by_rank ^= ROT_BIT[RANK][i];
        self.diag1 ^= ROT_BIT[DIAG1][i];
        self.diag2 ^= ROT_BIT[DIAG2][i];
    }

    /// A copy with `sq` toggled.
    #[inline]
    #[must_use]
    pub fn with_toggled(mut self, sq: Square) -> Occupied {
        self.toggle(sq);
        self
    }
}

// ---------------------------------------------------------------------------
// Line geometry (compile time)

const FILE: usize = 0;
const RANK: usize = 1;
const DIAG1: usize = 2;
const DIAG2: usize = 3;

/// For a square and a line family: (offset of the line in the rotated bitboard,
/// position along the line, line length, file step, rank step).
const fn line_info(family: usize, sq: usize) -> (usize, usize, usize, i32, i32) {
    let f = (sq / 9) as i32;
    let r = (sq % 9) as i32;
    match family {
        FILE => ((f * 9) as usize, r as usize, 9, 0, 1),
        RANK => ((r * 9) as usize, f as usize, 9, 1, 0),
        DIAG1 => {
            // f - r constant; walking increases both.
            let d = f - r + 8;
            let mut offset = 0;
            let mut k = 0;
            while k < d {
                offset += 9 - (k - 8).abs();
                k += 1;
            }
            let len = 9 - (f - r).abs();
            let pos = if f < r { f } else { r };
            (offset as usize, pos as usize, len as usize, 1, 1)
        }
        _ => {
            // f + r constant; walking increases f, decreases r.
            let s = f + r;
            let mut offset = 0;
            let mut k = 0;
            while k < s {
                offset += 9 - (k - 8).abs();
                k += 1;
            }
            let len = 9 - (s - 8).abs();
            let start_f = if s > 8 { s - 8 } else { 0 };
            (offset as usize, (f - start_f) as usize, len as usize, 1, -1)
        }
    }
}

const ROT_BIT: [[u128; 81]; 4] = {
    let mut t = [[0u128; 81]; 4];
    let mut fam = 0;
    while fam < 4 {
        let mut sq = 0;
        while sq < 81 {
            let (offset, pos, _, _, _) = line_info(fam, sq);
            t[fam][sq] = 1u128 << (offset + pos);
            sq += 1;
        }
        fam += 1;
    }
    t
};

/// Shift and mask that turn a family's rotated bitboard into the inner-occupancy index of `sq`.
const SHIFT_MASK: [[(u8, u8); 81]; 4] = {
    let mut t = [[(0u8, 0u8); 81]; 4];
    let mut fam = 0;
    while fam < 4 {
        let mut sq = 0;
        while sq < 81 {
            let (offset, _, len, _, _) = line_info(fam, sq);
            t[fam][sq] = if len >= 3 {
                ((offset + 1) as u8, ((1u32 << (len - 2)) - 1) as u8)
            } else {
                (0, 0)
            };
            sq += 1;
        }
        fam += 1;
    }
    t
};

/// Attacks along a line from `sq` given the inner occupancy `idx` of that line.
const fn line_attacks(family: usize, sq: usize, idx: usize) -> u128 {
    let (_, pos, len, df, dr) = line_info(family, sq);
    let f = (sq / 9) as i32;
    let r = (sq % 9) as i32;
    let mut out = 0u128;
    let mut dir = -1i32;
    while dir <= 1 {
        let mut p = pos as i32 + dir;
        let mut step = 1;
        while p >= 0 && p < len as i32 {
            let tf = f + df * dir * step;
            let tr = r + dr * dir * step;
            out |= 1u128 << (tf * 9 + tr);
            if p >= 1 && p <= len as i32 - 2 && (idx >> (p - 1)) & 1 != 0 {
                break;
            }
            p += dir;
            step += 1;
        }
        dir += 2;
    }
    out
}

const fn line_table(family: usize) -> [[Bitboard; 128]; 81] {
    let mut t = [[Bitboard(0); 128]; 81];
    let mut sq = 0;
    while sq < 81 {
        let mask = SHIFT_MASK[family][sq].1 as usize;
        let mut idx = 0;
        while idx <= mask {
            t[sq][idx] = Bitboard(line_attacks(family, sq, idx));
            idx += 1;
        }
        sq += 1;
    }
    t
}

static FILE_ATTACKS: [[Bitboard; 128]; 81] = line_table(FILE);
static RANK_ATTACKS: [[Bitboard; 128]; 81] = line_table(RANK);
static DIAG1_ATTACKS: [[Bitboard; 128]; 81] = line_table(DIAG1);
static DIAG2_ATTACKS: [[Bitboard; 128]; 81] = line_table(DIAG2);

#[inline(always)]
fn index(bits: u128, family: usize, sq: Square) -> usize {
    let (shift, mask) = SHIFT_MASK[family][sq.index()];
    ((bits >> shift) as usize) & mask as usize
}

/// Attacks along the file of `sq` in both directions (rook's vertical part).
#[inline(always)]
#[must_use]
pub fn file(sq: Square, occ: &Occupied) -> Bitboard {
    FILE_ATTACKS[sq.index()][index(occ.plain, FILE, sq)]
}

/// Attacks along the rank of `sq` (rook's horizontal part).
#[inline(always)]
#[must_use]
pub fn rank(sq: Square, occ: &Occupied) -> Bitboard {
    RANK_ATTACKS[sq.index()][index(occ.by_rank, RANK, sq)]
}

/// Rook attacks from `sq`.
#[inline(always)]
#[must_use]
pub fn rook(sq: Square, occ: &Occupied) -> Bitboard {
    file(sq, occ) | rank(sq, occ)
}

/// Bishop attacks from `sq`.
#[inline(always)]
#[must_use]
pub fn bishop(sq: Square, occ: &Occupied) -> Bitboard {
    DIAG1_ATTACKS[sq.index()][index(occ.diag1, DIAG1, sq)]
        | DIAG2_ATTACKS[sq.index()][index(occ.diag2, DIAG2, sq)]
}

/// Lance attacks from `sq` for `color`.
#[inline(always)]
#[must_use]
pub fn lance(color: Color, sq: Square, occ: &Occupied) -> Bitboard {
    file(sq, occ) & LANCE_RAY[color.index()][sq.index()]
}

/// Dragon attacks: rook plus one step in every direction.
#[inline(always)]
#[must_use]
pub fn dragon(sq: Square, occ: &Occupied) -> Bitboard {
    rook(sq, occ) | king(sq)
}

/// Horse attacks: bishop plus one step in every direction.
#[inline(always)]
#[must_use]
pub fn horse(sq: Square, occ: &Occupied) -> Bitboard {
    bishop(sq, occ) | king(sq)
}

// ---------------------------------------------------------------------------
// Step pieces

const fn step_table(deltas: &[(i32, i32)], color: Color) -> [Bitboard; 81] {
    let mut t = [Bitboard(0); 81];
    let mut sq = 0;
    while sq < 81 {
        let f = (sq / 9) as i32;
        let r = (sq % 9) as i32;
        let mut b = 0u128;
        let mut i = 0;
        while i < deltas.len() {
            let (df, dr) = deltas[i];
            let dr = match color {
                Color::Sente => dr,
                Color::Gote => -dr,
            };
            let (tf, tr) = (f + df, r + dr);
            if tf >= 0 && tf < 9 && tr >= 0 && tr < 9 {
                b |= 1u128 << (tf * 9 + tr);
            }
            i += 1;
        }
        t[sq] = Bitboard(b);
        sq += 1;
    }
    t
}

// Deltas for Sente: (file step, rank step); a negative rank step is forward.
const PAWN_D: [(i32, i32); 1] = [(0, -1)];
const KNIGHT_D: [(i32, i32); 2] = [(1, -2), (-1, -2)];
const SILVER_D: [(i32, i32); 5] = [(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)];
const GOLD_D: [(i32, i32); 6] = [(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)];
const KING_D: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
];

static PAWN: [[Bitboard; 81]; 2] = [
    step_table(&PAWN_D, Color::Sente),
    step_table(&PAWN_D, Color::Gote),
];
static KNIGHT: [[Bitboard; 81]; 2] = [
    step_table(&KNIGHT_D, Color::Sente),
    step_table(&KNIGHT_D, Color::Gote),
];
static SILVER: [[Bitboard; 81]; 2] = [
    step_table(&SILVER_D, Color::Sente),
    step_table(&SILVER_D, Color::Gote),
];
static GOLD: [[Bitboard; 81]; 2] = [
    step_table(&GOLD_D, Color::Sente),
    step_table(&GOLD_D, Color::Gote),
];
static KING: [Bitboard; 81] = step_table(&KING_D, Color::Sente);

/// The squares ahead of a lance of each colour on an empty board.
static LANCE_RAY: [[Bitboard; 81]; 2] = {
    let mut t = [[Bitboard(0); 81]; 2];
    let mut sq = 0;
    while sq < 81 {
        let f = sq / 9;
        let r = sq % 9;
        let mut b = 0u128;
        let mut k = 0;
        while k < r {
            b |= 1u128 << (f * 9 + k);
            k += 1;
        }
        t[0][sq] = Bitboard(b);
        let mut b = 0u128;
        let mut k = r + 1;
        while k < 9 {
            b |= 1u128 << (f * 9 + k);
            k += 1;
        }
        t[1][sq] = Bitboard(b);
        sq += 1;
    }
    t
};

/// Pawn attack (one square forward) for `color`.
#[inline(always)]
#[must_use]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

/// Knight attacks for `color`.
#[inline(always)]
#[must_use]
pub fn knight(color: Color, sq: Square) -> Bitboard {
    KNIGHT[color.index()][sq.index()]
}

/// Silver attacks for `color`.
#[inline(always)]
#[must_use]
pub fn silver(color: Color, sq: Square) -> Bitboard {
    SILVER[color.index()][sq.index()]
}

/// Gold attacks for `color` (also promoted pawn, lance, knight and silver).
#[inline(always)]
#[must_use]
pub fn gold(color: Color, sq: Square) -> Bitboard {
    GOLD[color.index()][sq.index()]
}

/// King attacks.
#[inline(always)]
#[must_use]
pub fn king(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// The squares a lance of `color` on `sq` would see on an empty board.
#[inline(always)]
#[must_use]
pub fn lance_ray(color: Color, sq: Square) -> Bitboard {
    LANCE_RAY[color.index()][sq.index()]
}

/// Rook attacks on an empty board.
#[inline(always)]
#[must_use]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    FILE_ATTACKS[sq.index()][0] | RANK_ATTACKS[sq.index()][0]
}

/// Bishop attacks on an empty board.
#[inline(always)]
#[must_use]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    DIAG1_ATTACKS[sq.index()][0] | DIAG2_ATTACKS[sq.index()][0]
}

/// Attacks of any piece of `color` and `kind` standing on `sq`.
#[must_use]
pub fn piece(color: Color, kind: PieceKind, sq: Square, occ: &Occupied) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn(color, sq),
        PieceKind::Lance => lance(color, sq, occ),
        PieceKind::Knight => knight(color, sq),
        PieceKind::Silver => silver(color, sq),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => gold(color, sq),
        PieceKind::Bishop => bishop(sq, occ),
        PieceKind::Rook => rook(sq, occ),
        PieceKind::King => king(sq),
        PieceKind::Horse => horse(sq, occ),
        PieceKind::Dragon => dragon(sq, occ),
    }
}

// ---------------------------------------------------------------------------
// Lines between squares

const fn direction(a: usize, b: usize) -> Option<(i32, i32)> {
    let (af, ar) = ((a / 9) as i32, (a % 9) as i32);
    let (bf, br) = ((b / 9) as i32, (b % 9) as i32);
    let (df, dr) = (bf - af, br - ar);
    if a == b {
        None
    } else if df == 0 || dr == 0 || df == dr || df == -dr {
        Some((df.signum(), dr.signum()))
    } else {
        None
    }
}

const fn squares_table(full_line: bool) -> [[Bitboard; 81]; 81] {
    let mut t = [[Bitboard(0); 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            if let Some((df, dr)) = direction(a, b) {
                let mut bits = 0u128;
                if full_line {
                    // Walk from a backwards to the edge, then forwards to the other edge.
                    let (mut f, mut r) = ((a / 9) as i32, (a % 9) as i32);
                    while f - df >= 0 && f - df < 9 && r - dr >= 0 && r - dr < 9 {
                        f -= df;
                        r -= dr;
                    }
                    while f >= 0 && f < 9 && r >= 0 && r < 9 {
                        bits |= 1u128 << (f * 9 + r);
                        f += df;
                        r += dr;
                    }
                } else {
                    let (mut f, mut r) = ((a / 9) as i32 + df, (a % 9) as i32 + dr);
                    while (f * 9 + r) as usize != b {
                        bits |= 1u128 << (f * 9 + r);
                        f += df;
                        r += dr;
                    }
                }
                t[a][b] = Bitboard(bits);
            }
            b += 1;
        }
        a += 1;
    }
    t
}

static BETWEEN: [[Bitboard; 81]; 81] = squares_table(false);
static LINE: [[Bitboard; 81]; 81] = squares_table(true);

/// The squares strictly between `a` and `b` on a rank, file or diagonal (empty otherwise).
#[inline(always)]
#[must_use]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line (edge to edge) through `a` and `b`, if they share a rank, file or diagonal.
#[inline(always)]
#[must_use]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    /// Slow reference: walk every direction square by square.
    fn slow_slider(sq: Square, occ: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let mut cur = sq;
            while let Some(n) = cur.offset(df, dr) {
                out.insert(n);
                if occ.contains(n) {
                    break;
                }
                cur = n;
            }
        }
        out
    }

    #[test]
    fn sliders_match_a_square_by_square_walk() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let a = seed as u128;
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let bits = (a << 64 | seed as u128) & (a >> 3);
            let bb = Bitboard::from_bits(bits);
            let occ = Occupied::from_bitboard(bb);
            for s in Square::all() {
                let rook_dirs = [(0, 1), (0, -1), (1, 0), (-1, 0)];
                let bishop_dirs = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
                assert_eq!(rook(s, &occ), slow_slider(s, bb, &rook_dirs), "rook {s}");
                assert_eq!(bishop(s, &occ), slow_slider(s, bb, &bishop_dirs), "bishop {s}");
                assert_eq!(lance(Color::Sente, s, &occ), slow_slider(s, bb, &[(0, -1)]));
                assert_eq!(lance(Color::Gote, s, &occ), slow_slider(s, bb, &[(0, 1)]));
            }
        }
    }

    #[test]
    fn step_pieces_from_the_centre() {
        let c = sq("5e");
        assert_eq!(pawn(Color::Sente, c), Bitboard::from_square(sq("5d")));
        assert_eq!(pawn(Color::Gote, c), Bitboard::from_square(sq("5f")));
        assert_eq!(
            knight(Color::Sente, c),
            Bitboard::from_square(sq("4c")) | Bitboard::from_square(sq("6c"))
        );
        assert_eq!(silver(Color::Sente, c).count(), 5);
        assert!(!silver(Color::Sente, c).contains(sq("5f")));
        assert!(gold(Color::Sente, c).contains(sq("5f")));
        assert!(!gold(Color::Sente, c).contains(sq("4f")));
        assert_eq!(king(sq("1a")).count(), 3);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("1a"), sq("1d")).count(), 2);
        assert_eq!(between(sq("1a"), sq("4d")).count(), 2);
        assert!(between(sq("1a"), sq("2c")).is_empty());
        assert_eq!(line(sq("5e"), sq("5f")).count(), 9);
        assert_eq!(line(sq("1a"), sq("2b")).count(), 9);
        assert!(line(sq("1a"), sq("2c")).is_empty());
    }
}
