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
    /// Four 128-bit boards as little-endian pairs of words, in the order FILE
    /// (the plain layout), RANK, DIAG1, DIAG2. Plain words let the compiler
    /// toggle all four with two vector instructions.
    words: [u64; 8],
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
        Bitboard(self.get(FILE))
    }

    /// Adds `sq` if empty, removes it if occupied.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        // The four masks of a square share one cache line.
        let m = &ROT_BITS[sq.index()].0;
        for (w, m) in self.words.iter_mut().zip(m) {
            *w ^= m;
        }
    }

    #[inline(always)]
    const fn get(&self, family: usize) -> u128 {
        self.words[2 * family] as u128 | (self.words[2 * family + 1] as u128) << 64
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

/// The four rotated bits of each square, one 64-byte line per square.
#[repr(align(64))]
struct RotBits([u64; 8]);

static ROT_BITS: [RotBits; 81] = {
    let mut t = [const { RotBits([0; 8]) }; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut fam = 0;
        while fam < 4 {
            t[sq].0[2 * fam] = ROT_BIT[fam][sq] as u64;
            t[sq].0[2 * fam + 1] = (ROT_BIT[fam][sq] >> 64) as u64;
            fam += 1;
        }
        sq += 1;
    }
    t
};

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

/// Attacks along a file or rank as a 9-bit pattern of positions along the
/// line, by the square's position (0-8) and the inner occupancy (7 bits).
const fn pattern_table() -> [[u16; 128]; 9] {
    let mut t = [[0u16; 128]; 9];
    let mut pos = 0;
    while pos < 9 {
        let mut idx = 0;
        while idx < 128 {
            let mut out = 0u16;
            let mut dir = -1i32;
            while dir <= 1 {
                let mut p = pos as i32 + dir;
                while p >= 0 && p < 9 {
                    out |= 1 << p;
                    if p >= 1 && p <= 7 && (idx >> (p - 1)) & 1 != 0 {
                        break;
                    }
                    p += dir;
                }
                dir += 2;
            }
            t[pos][idx] = out;
            idx += 1;
        }
        pos += 1;
    }
    t
}

/// Line attack patterns for files and ranks (both are lines of nine).
static LINE9: [[u16; 128]; 9] = pattern_table();

/// A 9-bit set of files turned into the squares of rank a.
static RANK_SPREAD: [u128; 512] = {
    let mut t = [0u128; 512];
    let mut p = 0;
    while p < 512 {
        let mut f = 0;
        while f < 9 {
            if (p >> f) & 1 != 0 {
                t[p] |= 1u128 << (f * 9);
            }
            f += 1;
        }
        p += 1;
    }
    t
};

/// Where each square's entries start in a diagonal family's flat table.
const fn diag_bases(family: usize) -> ([u16; 81], usize) {
    let mut bases = [0u16; 81];
    let mut total = 0usize;
    let mut sq = 0;
    while sq < 81 {
        bases[sq] = total as u16;
        total += SHIFT_MASK[family][sq].1 as usize + 1;
        sq += 1;
    }
    (bases, total)
}

/// Entries in each diagonal family's flat table (the same for both).
const DIAG_ENTRIES: usize = diag_bases(DIAG1).1;

const fn diag_table(family: usize) -> ([u16; 81], [Bitboard; DIAG_ENTRIES]) {
    let (bases, _) = diag_bases(family);
    let mut t = [Bitboard(0); DIAG_ENTRIES];
    let mut sq = 0;
    while sq < 81 {
        let mask = SHIFT_MASK[family][sq].1 as usize;
        let mut idx = 0;
        while idx <= mask {
            t[bases[sq] as usize + idx] = Bitboard(line_attacks(family, sq, idx));
            idx += 1;
        }
        sq += 1;
    }
    (bases, t)
}

static DIAG1_TABLE: ([u16; 81], [Bitboard; DIAG_ENTRIES]) = diag_table(DIAG1);
static DIAG2_TABLE: ([u16; 81], [Bitboard; DIAG_ENTRIES]) = diag_table(DIAG2);

#[inline(always)]
fn index(bits: u128, family: usize, sq: Square) -> usize {
    let (shift, mask) = SHIFT_MASK[family][sq.index()];
    ((bits >> shift) as usize) & mask as usize
}

#[inline(always)]
fn diag(
    table: &([u16; 81], [Bitboard; DIAG_ENTRIES]),
    bits: u128,
    family: usize,
    sq: Square,
) -> Bitboard {
    table.1[table.0[sq.index()] as usize + index(bits, family, sq)]
}

/// Attacks along the file of `sq` in both directions (rook's vertical part).
#[inline(always)]
#[must_use]
pub fn file(sq: Square, occ: &Occupied) -> Bitboard {
    let pattern = LINE9[sq.rank().index()][index(occ.get(FILE), FILE, sq)];
    Bitboard(u128::from(pattern) << (sq.file().index() * 9))
}

/// Attacks along the rank of `sq` (rook's horizontal part).
#[inline(always)]
#[must_use]
pub fn rank(sq: Square, occ: &Occupied) -> Bitboard {
    let pattern = LINE9[sq.file().index()][index(occ.get(RANK), RANK, sq)];
    Bitboard(RANK_SPREAD[pattern as usize] << sq.rank().index())
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
    diag(&DIAG1_TABLE, occ.get(DIAG1), DIAG1, sq) | diag(&DIAG2_TABLE, occ.get(DIAG2), DIAG2, sq)
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

/// Step attacks of every kind, by colour, kind and square (empty for the
/// sliding part of lance, bishop and rook; the king step of horse and dragon).
static STEP: [[[Bitboard; 81]; 14]; 2] = {
    let mut t = [[[Bitboard(0); 81]; 14]; 2];
    let colors = [Color::Sente, Color::Gote];
    let mut c = 0;
    while c < 2 {
        let color = colors[c];
        t[c][PieceKind::Pawn as usize] = step_table(&PAWN_D, color);
        t[c][PieceKind::Knight as usize] = step_table(&KNIGHT_D, color);
        t[c][PieceKind::Silver as usize] = step_table(&SILVER_D, color);
        let gold = step_table(&GOLD_D, color);
        t[c][PieceKind::Gold as usize] = gold;
        t[c][PieceKind::ProPawn as usize] = gold;
        t[c][PieceKind::ProLance as usize] = gold;
        t[c][PieceKind::ProKnight as usize] = gold;
        t[c][PieceKind::ProSilver as usize] = gold;
        let king = step_table(&KING_D, color);
        t[c][PieceKind::King as usize] = king;
        t[c][PieceKind::Horse as usize] = king;
        t[c][PieceKind::Dragon as usize] = king;
        c += 1;
    }
    t
};

/// The step (non-sliding) attacks of a piece of `color` and `kind` on `sq`.
#[inline(always)]
#[must_use]
pub fn step(color: Color, kind: PieceKind, sq: Square) -> Bitboard {
    STEP[color.index()][kind.index()][sq.index()]
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
    ROOK_PSEUDO[sq.index()]
}

/// Bishop attacks on an empty board.
#[inline(always)]
#[must_use]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    BISHOP_PSEUDO[sq.index()]
}

static ROOK_PSEUDO: [Bitboard; 81] = {
    let mut t = [Bitboard(0); 81];
    let mut sq = 0;
    while sq < 81 {
        t[sq] = Bitboard(line_attacks(FILE, sq, 0) | line_attacks(RANK, sq, 0));
        sq += 1;
    }
    t
};

static BISHOP_PSEUDO: [Bitboard; 81] = {
    let mut t = [Bitboard(0); 81];
    let mut sq = 0;
    while sq < 81 {
        t[sq] = Bitboard(line_attacks(DIAG1, sq, 0) | line_attacks(DIAG2, sq, 0));
        sq += 1;
    }
    t
};

/// Attacks of any piece of `color` and `kind` standing on `sq`.
#[inline]
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

/// Which line family joins two squares: 0 none, else 1 + FILE/RANK/DIAG1/DIAG2.
static ALIGN: [[u8; 81]; 81] = {
    let mut t = [[0u8; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            if let Some((df, dr)) = direction(a, b) {
                t[a][b] = if df == 0 {
                    1 + FILE as u8
                } else if dr == 0 {
                    1 + RANK as u8
                } else if df == dr {
                    1 + DIAG1 as u8
                } else {
                    1 + DIAG2 as u8
                };
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// How two squares are aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Alignment {
    /// Not on one line.
    None,
    /// Same file.
    File,
    /// Same rank.
    Rank,
    /// Same diagonal; `occ`-dependent attacks from `a` along it are given by [`diagonal_through`].
    Diagonal,
}

#[inline(always)]
pub(crate) fn alignment(a: Square, b: Square) -> (Alignment, u8) {
    let v = ALIGN[a.index()][b.index()];
    let kind = match v {
        0 => Alignment::None,
        1 => Alignment::File,
        2 => Alignment::Rank,
        _ => Alignment::Diagonal,
    };
    (kind, v)
}

/// Attacks from `sq` along only the diagonal family `code` (from [`alignment`]).
#[inline(always)]
pub(crate) fn diagonal_through(sq: Square, code: u8, occ: &Occupied) -> Bitboard {
    if code == 1 + DIAG1 as u8 {
        diag(&DIAG1_TABLE, occ.get(DIAG1), DIAG1, sq)
    } else {
        diag(&DIAG2_TABLE, occ.get(DIAG2), DIAG2, sq)
    }
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

/// Whether `a` and `b` share a rank, file or diagonal (`line(a, b)` is not
/// empty), from a table of 6.5 KB rather than [`line`]'s 105 KB, whose
/// entries the record readers' legality checks waited for from memory.
#[inline(always)]
#[must_use]
pub fn aligned(a: Square, b: Square) -> bool {
    ALIGN[a.index()][b.index()] != 0
}

/// Whether `c` is on the line through `a` and `b` (`line(a, b).contains(c)`),
/// from the same small table as [`aligned`]: through `a` there is one line
/// of each family, so `c` is on it when it is `a` or joined to `a` in the
/// family that joins `b`.
///
/// ```
/// use shogi_core::{attacks, Square};
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// assert!(attacks::on_line_through(sq("5e"), sq("3c"), sq("7g")));
/// assert!(!attacks::on_line_through(sq("5e"), sq("3c"), sq("5a")));
/// ```
#[inline(always)]
#[must_use]
pub fn on_line_through(a: Square, b: Square, c: Square) -> bool {
    let family = ALIGN[a.index()][b.index()];
    family != 0 && (c == a || ALIGN[a.index()][c.index()] == family)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_alignment_table_agrees_with_the_lines() {
        for a in Square::all() {
            for b in Square::all() {
                assert_eq!(aligned(a, b), line(a, b).any(), "{a} {b}");
                for c in Square::all() {
                    assert_eq!(
                        on_line_through(a, b, c),
                        line(a, b).contains(c),
                        "{a} {b} {c}"
                    );
                }
            }
        }
    }

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
            let a = u128::from(seed);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let bits = (a << 64 | u128::from(seed)) & (a >> 3);
            let bb = Bitboard::from_bits(bits);
            let occ = Occupied::from_bitboard(bb);
            for s in Square::all() {
                let rook_dirs = [(0, 1), (0, -1), (1, 0), (-1, 0)];
                let bishop_dirs = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
                assert_eq!(rook(s, &occ), slow_slider(s, bb, &rook_dirs), "rook {s}");
                assert_eq!(
                    bishop(s, &occ),
                    slow_slider(s, bb, &bishop_dirs),
                    "bishop {s}"
                );
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
