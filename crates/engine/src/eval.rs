//! Static evaluation: a weighted sum of features, behind the [`Evaluator`]
//! trait so that another evaluation (a network) can replace it.
//!
//! The features are material (board and hand), piece placement relative to
//! both kings (a table per kind class of the square relative to each king,
//! left-right symmetric), the king's
//! rank, king safety (guards next to it, enemy pieces near it, the squares
//! next to it the enemy attacks, the enemy's pieces in hand, the safe drop
//! checks the enemy's hand has against it), threats (each piece the enemy
//! attacks, by its cheapest attacker and whether it is defended), slider
//! mobility and the tempo. Each counts Sente's
//! occurrences minus Gote's, so the evaluation is exactly colour-symmetric.
//! The weights are an [`EvalParams`]; [`features`] gives the feature vector
//! the tuner fits them on, and the evaluation is its dot product with the
//! weights.
//!
//! Scores are in centipawn-like units from the side to move's point of view.
//!
//! ```
//! use shogi_engine::eval::{LinearEval, Evaluator};
//! let pos = shogi_core::Position::startpos();
//! let score = LinearEval::default().evaluate(&pos);
//! assert!(score.abs() < 100);
//! ```

use std::sync::{Arc, LazyLock};

use shogi_core::{attacks, Bitboard, Color, Hand, HandKind, PieceKind, Position, Square};

use crate::params::{
    drop_check_slot, hand_slot, king_zone_slot, piece_slot, threat_slot, EvalParams, DROP_CHECK,
    ENEMY_KING, FILE_DISTANCES, HAND, HAND_THREAT, KING_ATTACKER, KING_GUARD, KING_RANK, KING_ZONE,
    MOBILITY, NUM_FEATURES, OFFSETS, OWN_KING, PIECE, TEMPO, THREAT,
};

/// A static evaluation function.
pub trait Evaluator: Send + Sync {
    /// The score of `pos` for the side to move.
    fn evaluate(&self, pos: &Position) -> i32;
}

/// The value of a piece of `kind` on the board, as the search's move
/// ordering and exchange evaluation count it (fixed, not tuned).
#[must_use]
pub const fn piece_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Pawn => 90,
        PieceKind::Lance => 315,
        PieceKind::Knight => 405,
        PieceKind::Silver => 495,
        PieceKind::Gold => 540,
        PieceKind::Bishop => 855,
        PieceKind::Rook => 990,
        PieceKind::King => 15000,
        PieceKind::ProPawn => 540,
        PieceKind::ProLance => 540,
        PieceKind::ProKnight => 540,
        PieceKind::ProSilver => 540,
        PieceKind::Horse => 945,
        PieceKind::Dragon => 1395,
    }
}

/// The value of a piece of `kind` held in hand, for move ordering and
/// exchanges (a little more than on the board: it can be dropped anywhere).
#[must_use]
pub const fn hand_value(kind: HandKind) -> i32 {
    match kind {
        HandKind::Pawn => 100,
        HandKind::Lance => 350,
        HandKind::Knight => 450,
        HandKind::Silver => 550,
        HandKind::Gold => 600,
        HandKind::Bishop => 950,
        HandKind::Rook => 1100,
    }
}

/// What a capture of a piece of `kind` is worth: it leaves the board and
/// enters the capturer's hand.
#[must_use]
pub fn capture_value(kind: PieceKind) -> i32 {
    piece_value(kind) + kind.hand_kind().map_or(0, hand_value)
}

/// The linear evaluation: the dot product of [`EvalParams`] weights with
/// the position's [`features`].
#[derive(Clone, Debug)]
pub struct LinearEval {
    params: Arc<EvalParams>,
}

impl Default for LinearEval {
    /// The compiled-in weights ([`EvalParams::builtin`]).
    fn default() -> Self {
        LinearEval {
            params: EvalParams::builtin(),
        }
    }
}

/// Chebyshev distance between two squares.
fn distance(a: Square, b: Square) -> usize {
    let df = a.file().index().abs_diff(b.file().index());
    let dr = a.rank().index().abs_diff(b.rank().index());
    df.max(dr)
}

/// The place of a piece of `color` on `piece` relative to a king on
/// `king`, in a king-relative table (see [`OFFSETS`]).
fn offset(color: Color, piece: Square, king: Square) -> usize {
    let dr = i32::from(piece.rank().relative(color)) - i32::from(king.rank().relative(color));
    let df = piece.file().index().abs_diff(king.file().index());
    // dr + 8 is in 0..=16 on a 9 × 9 board.
    (dr + 8) as usize * FILE_DISTANCES + df
}

/// [`offset`] for every colour and pair of squares, and the squares within
/// distance 2 of each square: looked up, not recomputed, at every node.
struct Geometry {
    offset: [[[u8; 81]; 81]; 2],
    near2: [Bitboard; 81],
}

static GEOMETRY: LazyLock<Geometry> = LazyLock::new(|| {
    let mut g = Geometry {
        offset: [[[0; 81]; 81]; 2],
        near2: [Bitboard::EMPTY; 81],
    };
    for a in Square::all() {
        for b in Square::all() {
            for color in Color::ALL {
                // Below OFFSETS = 153.
                g.offset[color.index()][a.index()][b.index()] = offset(color, a, b) as u8;
            }
            if distance(a, b) <= 2 {
                g.near2[a.index()] |= Bitboard::from_square(b);
            }
        }
    }
    g
});

/// The king-relative table class of a board piece kind
/// ([`crate::params::CLASS_NAMES`]).
const fn class(kind: PieceKind) -> usize {
    match kind {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        PieceKind::Silver => 3,
        PieceKind::Bishop => 5,
        PieceKind::Horse => 6,
        PieceKind::Rook => 7,
        PieceKind::Dragon => 8,
        _ => 4,
    }
}

/// The slot of a slider in the `mobility` group.
const fn mobility_slot(kind: PieceKind) -> Option<usize> {
    match kind {
        PieceKind::Lance => Some(0),
        PieceKind::Bishop => Some(1),
        PieceKind::Rook => Some(2),
        PieceKind::Horse => Some(3),
        PieceKind::Dragon => Some(4),
        _ => None,
    }
}

/// A lance, knight, silver or a piece that moves as a gold: the middle
/// tier of attackers in the `threat` group.
const fn is_minor(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Lance
            | PieceKind::Knight
            | PieceKind::Silver
            | PieceKind::Gold
            | PieceKind::ProPawn
            | PieceKind::ProLance
            | PieceKind::ProKnight
            | PieceKind::ProSilver
    )
}

/// The pieces in `hand` other than pawns: what the hand threat counts and
/// what makes an attacked square next to the enemy king a drop threat.
fn non_pawns(hand: &Hand) -> u32 {
    hand.total() - u32::from(hand.count(HandKind::Pawn))
}

/// The squares one side's pieces attack: by its pieces other than the king
/// once and at least twice, by its king, and by its cheaper pieces.
#[derive(Clone, Copy, Default)]
struct AttackMap {
    once: Bitboard,
    twice: Bitboard,
    king: Bitboard,
    /// Attacked by a pawn.
    pawn: Bitboard,
    /// Attacked by a lance, knight, silver or a piece that moves as a gold.
    minor: Bitboard,
}

impl AttackMap {
    /// Adds the squares a piece other than the king attacks.
    #[inline(always)]
    fn add(&mut self, reach: Bitboard) {
        self.twice |= self.once & reach;
        self.once |= reach;
    }

    /// The squares attacked by at least two pieces, the king included.
    #[inline(always)]
    fn several(&self) -> Bitboard {
        self.twice | (self.once & self.king)
    }
}

/// The sign of a side's feature counts: + for Sente, - for Gote.
#[inline(always)]
const fn sign(color: Color) -> i32 {
    match color {
        Color::Sente => 1,
        Color::Gote => -1,
    }
}

/// Receives feature occurrences: `count` of feature `index`, already signed
/// (+ for Sente, - for Gote).
trait Accumulator {
    fn add(&mut self, index: usize, count: i32);
}

/// Sums weights: the evaluation.
struct Dot<'a> {
    weights: &'a [i32; NUM_FEATURES],
    sum: i32,
}

impl Accumulator for Dot<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.sum += self.weights[index] * count;
    }
}

/// Counts features: the vector the tuner uses.
struct Counts([i32; NUM_FEATURES]);

impl Accumulator for Counts {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        self.0[index] += count;
    }
}

/// Walks the position once and reports every feature, from Sente's view
/// (the tempo is +1 with Sente to move, -1 with Gote).
#[inline(always)]
fn walk<A: Accumulator>(pos: &Position, acc: &mut A) {
    let geometry = &*GEOMETRY;
    let kings = [pos.king(Color::Sente), pos.king(Color::Gote)];
    let occ = pos.occupancy();
    // What each side's pieces attack, kept for the king zone below.
    let mut maps = [AttackMap::default(); 2];
    for color in Color::ALL {
        let c = color.index();
        let sign = sign(color);
        let own_king = kings[c];
        let enemy_king = kings[1 - c];
        let offsets = &geometry.offset[c];
        let map = &mut maps[c];
        let hand = pos.hand(color);
        for k in HandKind::ALL {
            let n = i32::from(hand.count(k));
            if n != 0 {
                acc.add(HAND + hand_slot(k), sign * n);
            }
        }
        let own = pos.color_bb(color);
        for sq in own {
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            let Some(slot) = piece_slot(piece.kind) else {
                map.king = attacks::king(sq);
                acc.add(KING_RANK + usize::from(sq.rank().relative(color)) - 1, sign);
                continue;
            };
            let reach = attacks::piece(color, piece.kind, sq, occ);
            map.add(reach);
            if piece.kind == PieceKind::Pawn {
                map.pawn |= reach;
            } else if is_minor(piece.kind) {
                map.minor |= reach;
            }
            acc.add(PIECE + slot, sign);
            let table = class(piece.kind) * OFFSETS;
            let at = offsets[sq.index()];
            if let Some(ek) = enemy_king {
                acc.add(ENEMY_KING + table + usize::from(at[ek.index()]), sign);
            }
            if let Some(ok) = own_king {
                acc.add(OWN_KING + table + usize::from(at[ok.index()]), sign);
            }
            if let Some(m) = mobility_slot(piece.kind) {
                acc.add(MOBILITY + m, sign * (reach & !own).count() as i32);
            }
        }
        // King safety: our generals next to our king, the opponent's pieces
        // close to it.
        if let Some(ok) = own_king {
            let near = attacks::king(ok);
            let generals = pos.pieces(color, PieceKind::Gold)
                | pos.pieces(color, PieceKind::Silver)
                | pos.pieces(color, PieceKind::ProPawn)
                | pos.pieces(color, PieceKind::ProSilver);
            let guards = (near & generals).count() as i32;
            if guards != 0 {
                acc.add(KING_GUARD, sign * guards);
            }
            let attackers =
                (pos.color_bb(color.opponent()) & geometry.near2[ok.index()]).count() as i32;
            if attackers != 0 {
                acc.add(KING_ATTACKER, sign * attackers);
            }
        }
        // Pieces in hand threaten the enemy king.
        if enemy_king.is_some() {
            let pieces = non_pawns(hand) as i32;
            if pieces != 0 {
                acc.add(HAND_THREAT, sign * pieces);
            }
        }
    }
    king_zone(pos, kings, &maps, acc);
    threats(pos, &maps, acc);
    drop_checks(pos, kings, &maps, acc);
    let tempo = if pos.side_to_move() == Color::Sente {
        1
    } else {
        -1
    };
    acc.add(TEMPO, tempo);
}

/// The king zone: the squares next to each king that the enemy attacks.
#[inline(always)]
fn king_zone<A: Accumulator>(
    pos: &Position,
    kings: [Option<Square>; 2],
    maps: &[AttackMap; 2],
    acc: &mut A,
) {
    for color in Color::ALL {
        let Some(ok) = kings[color.index()] else {
            continue;
        };
        let sign = sign(color);
        let enemy = &maps[color.opponent().index()];
        let defended = maps[color.index()].once;
        let threat = non_pawns(pos.hand(color.opponent())) != 0;
        let king_rank = ok.rank().relative(color);
        let (attacked, several) = (enemy.once | enemy.king, enemy.several());
        for sq in attacks::king(ok) & attacked {
            let ahead = sq.rank().relative(color) < king_rank;
            let behind = sq.rank().relative(color) > king_rank;
            let side = sq.file() != ok.file();
            let place = match (ahead, behind, side) {
                (true, _, false) => 0,
                (true, _, true) => 1,
                (false, false, _) => 2,
                (_, true, false) => 3,
                (_, true, true) => 4,
            };
            let slot = king_zone_slot(place, several.contains(sq), defended.contains(sq), threat);
            acc.add(KING_ZONE + slot, sign);
        }
    }
}

/// Threats: own pieces the enemy attacks, by the cheapest attacker.
#[inline(always)]
fn threats<A: Accumulator>(pos: &Position, maps: &[AttackMap; 2], acc: &mut A) {
    let to_move = pos.side_to_move();
    for color in Color::ALL {
        let sign = sign(color);
        let (own, enemy) = (&maps[color.index()], &maps[color.opponent().index()]);
        let defended = own.once | own.king;
        for sq in pos.color_bb(color) & (enemy.once | enemy.king) {
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            if piece.kind == PieceKind::King {
                continue;
            }
            let tier = if enemy.pawn.contains(sq) {
                0
            } else if enemy.minor.contains(sq) {
                1
            } else {
                2
            };
            let slot = threat_slot(
                class(piece.kind),
                tier,
                defended.contains(sq),
                color == to_move,
            );
            acc.add(THREAT + slot, sign);
        }
    }
}

/// Safe drop checks: for each king and each non-pawn kind in the enemy's
/// hand, the empty squares a piece of that kind dropped on would check
/// from, that no other piece of the king's side defends and, next to the
/// king (which could take it), that an enemy piece or the enemy king
/// supports.
#[inline(always)]
fn drop_checks<A: Accumulator>(
    pos: &Position,
    kings: [Option<Square>; 2],
    maps: &[AttackMap; 2],
    acc: &mut A,
) {
    let occ = pos.occupancy();
    let empty = !pos.occupied();
    for color in Color::ALL {
        let Some(ok) = kings[color.index()] else {
            continue;
        };
        let enemy = color.opponent();
        let hand = pos.hand(enemy);
        if non_pawns(hand) == 0 {
            continue;
        }
        let sign = sign(color);
        let next = attacks::king(ok);
        // Not defended by another own piece; next to the king, supported
        // by an enemy piece or the enemy king.
        let support = maps[enemy.index()].once | maps[enemy.index()].king;
        let safe = empty & !maps[color.index()].once & !(next & !support);
        let enemy_to_move = pos.side_to_move() == enemy;
        let mut count = |kind: HandKind, from: Bitboard| {
            let from = from & safe;
            if from.any() {
                let several = from.count() > 1;
                let contact = (from & next).any();
                if let Some(slot) = drop_check_slot(kind, several, contact, enemy_to_move) {
                    acc.add(DROP_CHECK + slot, sign);
                }
            }
        };
        // An enemy piece on s attacks the king exactly when a piece of the
        // king's colour on the king's square attacks s.
        let has = |kind| hand.count(kind) != 0;
        if has(HandKind::Lance) || has(HandKind::Rook) {
            let file = attacks::file(ok, occ);
            if has(HandKind::Lance) {
                count(HandKind::Lance, file & attacks::lance_ray(color, ok));
            }
            if has(HandKind::Rook) {
                count(HandKind::Rook, file | attacks::rank(ok, occ));
            }
        }
        if has(HandKind::Knight) {
            count(HandKind::Knight, attacks::knight(color, ok));
        }
        if has(HandKind::Silver) {
            count(HandKind::Silver, attacks::silver(color, ok));
        }
        if has(HandKind::Gold) {
            count(HandKind::Gold, attacks::gold(color, ok));
        }
        if has(HandKind::Bishop) {
            count(HandKind::Bishop, attacks::bishop(ok, occ));
        }
    }
}

/// The feature vector of `pos` from Sente's view: for every weight, Sente's
/// count minus Gote's (the tempo is +1 with Sente to move, -1 with Gote).
/// The Sente-view score is the dot product with [`EvalParams::weights`].
#[must_use]
pub fn features(pos: &Position) -> [i32; NUM_FEATURES] {
    let mut counts = Counts([0; NUM_FEATURES]);
    walk(pos, &mut counts);
    counts.0
}

impl LinearEval {
    /// An evaluation with these weights.
    #[must_use]
    pub fn new(params: Arc<EvalParams>) -> LinearEval {
        LinearEval { params }
    }

    /// The weights.
    #[must_use]
    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// The score of `pos` for Sente (the tempo included, for the side to move).
    #[must_use]
    pub fn evaluate_sente(&self, pos: &Position) -> i32 {
        let mut dot = Dot {
            weights: &self.params.weights,
            sum: 0,
        };
        walk(pos, &mut dot);
        dot.sum
    }
}

impl Evaluator for LinearEval {
    fn evaluate(&self, pos: &Position) -> i32 {
        let s = self.evaluate_sente(pos);
        match pos.side_to_move() {
            Color::Sente => s,
            Color::Gote => -s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{DROP_CHECK_LEN, KING_ZONE_LEN, MOBILITY, THREAT_LEN};

    fn flipped(pos: &Position) -> Position {
        let mut s = pos.to_setup();
        let mut board = [None; 81];
        for sq in Square::all() {
            if let Some(p) = s.board[sq.index()] {
                board[sq.flip().index()] = Some(shogi_core::Piece::new(p.color.opponent(), p.kind));
            }
        }
        s.board = board;
        std::mem::swap(&mut s.hands.sente, &mut s.hands.gote);
        s.side_to_move = s.side_to_move.opponent();
        Position::from_setup(s).unwrap()
    }

    /// Positions along a few deterministic pseudo-random games.
    fn sample_positions() -> Vec<Position> {
        let mut out = Vec::new();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..8 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                pos.make_move(moves[(x % moves.len() as u64) as usize]);
                out.push(pos.clone());
            }
        }
        out
    }

    fn with_mobility() -> LinearEval {
        let mut p = EvalParams::handwritten();
        p.weights[MOBILITY..MOBILITY + 5].copy_from_slice(&[3, 4, 5, 6, 7]);
        LinearEval::new(Arc::new(p))
    }

    #[test]
    fn symmetric() {
        let pos = shogi_core::sfen::parse_position(
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
        )
        .unwrap();
        for e in [LinearEval::default(), with_mobility()] {
            assert_eq!(e.evaluate(&pos), e.evaluate(&flipped(&pos)));
        }
    }

    #[test]
    fn symmetric_along_random_games() {
        // The compiled-in weights set every group, the drop checks included.
        for e in [with_mobility(), LinearEval::default()] {
            for pos in sample_positions() {
                assert_eq!(e.evaluate(&pos), e.evaluate(&flipped(&pos)), "{pos:?}");
            }
        }
    }

    /// The king zone by the definition: each square next to a king asked
    /// who attacks it (`attackers_to`), one square at a time.
    fn king_zone_by_attackers(pos: &Position) -> Vec<i32> {
        let mut out = vec![0; KING_ZONE_LEN];
        let occ = pos.occupancy();
        for color in Color::ALL {
            let Some(ok) = pos.king(color) else { continue };
            let sign = sign(color);
            let enemy = color.opponent();
            let threat = non_pawns(pos.hand(enemy)) != 0;
            let own_rank = i32::from(ok.rank().relative(color));
            for sq in attacks::king(ok) {
                let att = pos.attackers_to(sq, enemy, occ);
                if att.is_empty() {
                    continue;
                }
                let dr = i32::from(sq.rank().relative(color)) - own_rank;
                let side = sq.file() != ok.file();
                let place = match dr {
                    -1 => usize::from(side),
                    0 => 2,
                    _ => 3 + usize::from(side),
                };
                let defenders = pos.color_bb(color) & !Bitboard::from_square(ok);
                let defended = (pos.attackers_to(sq, color, occ) & defenders).any();
                out[king_zone_slot(place, att.count() > 1, defended, threat)] += sign;
            }
        }
        out
    }

    #[test]
    fn king_zone_from_attack_maps_matches_asking_each_square() {
        let mut seen = 0;
        for pos in sample_positions() {
            let f = features(&pos);
            let zone = &f[KING_ZONE..KING_ZONE + KING_ZONE_LEN];
            assert_eq!(zone, king_zone_by_attackers(&pos).as_slice(), "{pos:?}");
            seen += zone.iter().filter(|&&n| n != 0).count();
        }
        // Random games attack the kings a lot: the comparison is not of zeros.
        assert!(seen > 500, "{seen}");
    }

    /// The threats by the definition: each own piece asked who attacks and
    /// who defends it (`attackers_to`), one piece at a time.
    fn threats_by_attackers(pos: &Position) -> Vec<i32> {
        let mut out = vec![0; THREAT_LEN];
        let occ = pos.occupancy();
        for color in Color::ALL {
            let sign = sign(color);
            for sq in pos.color_bb(color) {
                let piece = pos.piece_at(sq).unwrap();
                let attackers = pos.attackers_to(sq, color.opponent(), occ);
                if piece.kind == PieceKind::King || attackers.is_empty() {
                    continue;
                }
                let tier = attackers
                    .into_iter()
                    .map(|a| match pos.piece_at(a).unwrap().kind {
                        PieceKind::Pawn => 0,
                        PieceKind::Bishop
                        | PieceKind::Rook
                        | PieceKind::Horse
                        | PieceKind::Dragon
                        | PieceKind::King => 2,
                        _ => 1,
                    })
                    .min()
                    .unwrap();
                let defended = pos.attackers_to(sq, color, occ).any();
                let to_move = pos.side_to_move() == color;
                out[threat_slot(class(piece.kind), tier, defended, to_move)] += sign;
            }
        }
        out
    }

    #[test]
    fn threats_from_attack_maps_match_asking_each_piece() {
        let mut seen = [0; THREAT_LEN];
        for pos in sample_positions() {
            let f = features(&pos);
            let threats = &f[THREAT..THREAT + THREAT_LEN];
            assert_eq!(threats, threats_by_attackers(&pos).as_slice(), "{pos:?}");
            for (s, n) in seen.iter_mut().zip(threats) {
                *s += n.abs();
            }
        }
        // Random games hang pieces of every class, defended or not, with
        // either side to move: the comparison is not of zeros.
        let slots_seen = seen.iter().filter(|&&n| n != 0).count();
        assert!(slots_seen > THREAT_LEN / 2, "{seen:?}");
    }

    /// The drop checks by the definition: the enemy's legal drops that give
    /// check, as the rules core finds them, each asked who attacks and who
    /// defends its square. `None` when the enemy, put to move, is in check
    /// (its legal drops are then interpositions) or the position cannot
    /// have it to move.
    fn drop_checks_by_rules(pos: &Position) -> Option<Vec<i32>> {
        let mut out = vec![0; DROP_CHECK_LEN];
        let occ = pos.occupancy();
        for color in Color::ALL {
            let Some(ok) = pos.king(color) else { continue };
            let enemy = color.opponent();
            let sign = sign(color);
            let mut setup = pos.to_setup();
            setup.side_to_move = enemy;
            let Ok(turned) = Position::from_setup(setup) else {
                return None;
            };
            if turned.in_check() {
                return None;
            }
            let mut squares = [0u32; 7];
            let mut contact = [false; 7];
            for m in turned.legal_moves() {
                let shogi_core::Move::Drop { kind, to } = m else {
                    continue;
                };
                if kind == HandKind::Pawn || !turned.gives_check(m) {
                    continue;
                }
                let own = pos.attackers_to(to, color, occ) & !Bitboard::from_square(ok);
                let next = attacks::king(ok).contains(to);
                if own.is_empty() && (!next || pos.attackers_to(to, enemy, occ).any()) {
                    squares[kind as usize] += 1;
                    contact[kind as usize] |= next;
                }
            }
            let enemy_to_move = pos.side_to_move() == enemy;
            for kind in HandKind::ALL {
                let n = squares[kind as usize];
                if n > 0 {
                    let slot = drop_check_slot(kind, n > 1, contact[kind as usize], enemy_to_move)
                        .unwrap();
                    out[slot] += sign;
                }
            }
        }
        Some(out)
    }

    #[test]
    fn drop_checks_from_attack_maps_match_the_rules_drops() {
        let mut seen = [0; DROP_CHECK_LEN];
        let mut compared = 0;
        for pos in sample_positions() {
            let Some(expected) = drop_checks_by_rules(&pos) else {
                continue;
            };
            let f = features(&pos);
            let got = &f[DROP_CHECK..DROP_CHECK + DROP_CHECK_LEN];
            assert_eq!(got, expected.as_slice(), "{}", pos.to_sfen());
            compared += 1;
            for (s, n) in seen.iter_mut().zip(got) {
                *s += n.abs();
            }
        }
        assert!(compared > 500, "{compared}");
        // Random games put pieces of every kind in hand near either king:
        // the comparison is not of zeros.
        let slots_seen = seen.iter().filter(|&&n| n != 0).count();
        assert!(slots_seen > DROP_CHECK_LEN / 2, "{seen:?}");
    }

    #[test]
    fn a_gold_in_hand_with_a_supported_square_next_to_the_king_is_a_drop_check() {
        let dc = |sfen: &str| {
            let pos = shogi_core::sfen::parse_position(sfen).unwrap();
            features(&pos)[DROP_CHECK..DROP_CHECK + DROP_CHECK_LEN].to_vec()
        };
        let expect = |slots: &[(usize, i32)]| {
            let mut v = vec![0; DROP_CHECK_LEN];
            for &(s, n) in slots {
                v[s] += n;
            }
            v
        };
        let slot =
            |k, several, contact, to_move| drop_check_slot(k, several, contact, to_move).unwrap();
        // Gote's king on 5a, a Sente pawn on 5c supporting 5b; Sente holds a
        // gold and is to move. A gold checks from 4a, 6a, 4b, 5b, 6b (not
        // the squares diagonally behind it); only 5b is supported.
        assert_eq!(
            dc("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"),
            expect(&[(slot(HandKind::Gold, false, true, true), -1)])
        );
        // A gold of Gote's on 4a defends 5b and 4b: no safe check.
        assert_eq!(dc("4kg3/9/4P4/9/9/9/9/9/4K4 b G 1"), expect(&[]));
        // With Gote to move, a rook in Sente's hand checks from 1a-4a,
        // 6a-9a and 5b (the pawn on 5c blocks the file); of the squares next
        // to the king only 5b is supported: 1a-3a, 7a-9a and 5b are safe.
        assert_eq!(
            dc("4k4/9/4P4/9/9/9/9/9/4K4 w R 1"),
            expect(&[(slot(HandKind::Rook, true, true, false), -1)])
        );
    }

    #[test]
    fn evaluation_is_the_dot_product_of_weights_and_features() {
        for e in [LinearEval::default(), with_mobility()] {
            for pos in sample_positions() {
                let f = features(&pos);
                let dot: i32 = f
                    .iter()
                    .zip(e.params().weights.iter())
                    .map(|(a, b)| a * b)
                    .sum();
                assert_eq!(e.evaluate_sente(&pos), dot);
            }
        }
    }

    #[test]
    fn king_relative_places_are_seen_from_the_pieces_side() {
        let sq = |s: &str| {
            let b = s.as_bytes();
            Square::from_numbers(b[0] - b'0', b[1] - b'a' + 1).unwrap()
        };
        // A gold one rank in front of its king and one file aside: row
        // -1 + 8, file distance 1, for either colour.
        assert_eq!(offset(Color::Sente, sq("4h"), sq("5i")), 7 * 9 + 1);
        assert_eq!(offset(Color::Gote, sq("6b"), sq("5a")), 7 * 9 + 1);
        // Left and right are the same place.
        assert_eq!(offset(Color::Sente, sq("6h"), sq("5i")), 7 * 9 + 1);
        // A Sente pawn three ranks behind the Gote king on 1a, on 3d: rank d
        // is Sente's 4th, rank a its 1st, so 4 - 1 = 3 behind; files 3 and 1.
        assert_eq!(offset(Color::Sente, sq("3d"), sq("1a")), (3 + 8) * 9 + 2);
        // Every place is in the table.
        for a in Square::all() {
            for b in Square::all() {
                for c in Color::ALL {
                    assert!(offset(c, a, b) < OFFSETS);
                }
            }
        }
    }

    #[test]
    fn mobility_counts_free_and_capturable_squares() {
        // A lone Sente rook on 5e, its king on 5i: 4 + 4 on the rank, 4 up
        // to 5a, 3 down to 5h (5i is its own king).
        let pos = shogi_core::sfen::parse_position("k8/9/9/9/4R4/9/9/9/4K4 b - 1").unwrap();
        assert_eq!(features(&pos)[MOBILITY + 2], 4 + 4 + 4 + 3);
    }

    #[test]
    fn king_zone_counts_attacked_squares_by_place_defence_and_hand() {
        use crate::params::{king_zone_slot, KING_ZONE};
        let zone = |sfen: &str| {
            let pos = shogi_core::sfen::parse_position(sfen).unwrap();
            features(&pos)[KING_ZONE..KING_ZONE + KING_ZONE_LEN].to_vec()
        };
        let expect = |slots: &[usize]| {
            let mut v = vec![0; KING_ZONE_LEN];
            for &s in slots {
                v[s] += 1;
            }
            v
        };
        // A Gote rook on 4b attacks 4h (ahead of the Sente king on 5i, to
        // the side) and 4i (beside it), once each; only the king defends.
        assert_eq!(
            zone("4k4/5r3/9/9/9/9/9/9/4K4 b - 1"),
            expect(&[
                king_zone_slot(1, false, false, false),
                king_zone_slot(2, false, false, false)
            ])
        );
        // A gold on 3i defends both; a bishop in Gote's hand is the threat.
        assert_eq!(
            zone("4k4/5r3/9/9/9/9/9/9/4K1G2 b b 1"),
            expect(&[
                king_zone_slot(1, false, true, true),
                king_zone_slot(2, false, true, true)
            ])
        );
        // Gote's king counts with the opposite sign: a Sente rook on 6g
        // attacks 6b (ahead of the Gote king on 5a, seen from Gote, to the
        // side) and 6a beside it.
        let negated = |v: Vec<i32>| v.into_iter().map(|x| -x).collect::<Vec<_>>();
        assert_eq!(
            zone("4k4/9/9/9/9/9/3R5/9/4K4 b - 1"),
            negated(expect(&[
                king_zone_slot(1, false, false, false),
                king_zone_slot(2, false, false, false)
            ]))
        );
    }

    #[test]
    fn material_counts() {
        let up = shogi_core::sfen::parse_position("4k4/9/9/9/9/9/9/9/4K4 b R 1").unwrap();
        assert!(LinearEval::default().evaluate(&up) > 800);
    }
}
