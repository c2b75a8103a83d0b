//! Proof and disproof hands: with how little in the attacker's hand a proof
//! still holds, and with how much a disproof.
//!
//! A proof hand is the least attacker's hand that still mates: a drop adds
//! the dropped piece to the child's proof hand, a capture removes the
//! captured one; a defender's node takes the most of each kind over its
//! replies and, when a drop could block the check, all the attacker holds of
//! each kind the defender lacks (with less the defender would hold some). A
//! disproof hand is dually the most that still fails: an attacker's node
//! keeps none of a kind it lacks, which would give it new drops. A proof
//! holds for every hand that [covers](Hand::covers) its proof hand, a
//! disproof for every hand its disproof hand covers. Every hand here is
//! bounded by the node's own hand: a proof hand at most, a disproof hand at
//! least.

use shogi_core::{attacks, Color, Hand, HandKind, Position};

use super::node::{Child, NO_REP};

/// A hand with as many of every kind as a count can say: the disproof hand
/// of a position no hand mates.
pub(super) fn unlimited() -> Hand {
    let mut h = Hand::EMPTY;
    for k in HandKind::ALL {
        h.set(k, u8::MAX);
    }
    h
}

/// The attacker's hand before its move to `child`, from the child's hand:
/// a capture gave it a piece, a drop used one.
fn before_attack(child: &Child) -> Hand {
    let mut h = child.res.hand;
    if let Some(k) = child.capture {
        h.set(k, h.count(k).saturating_sub(1));
    }
    if let Some(k) = child.drop {
        h.set(k, h.count(k).saturating_add(1));
    }
    h
}

/// The proof hand of a defender's position (`pos`, the defender to move
/// and in check) from the union `union` of its children's proof hands: with
/// less in the attacker's hand `hand` the defender would hold more, so for
/// each kind the defender lacks the attacker must keep all it has (unless
/// no drop can block the check: a double check or an adjacent checker).
pub(super) fn and_proof_hand(union: Hand, hand: &Hand, pos: &Position, attacker: Color) -> Hand {
    let checkers = pos.checkers();
    let interposable = match (checkers.single(), pos.king(pos.side_to_move())) {
        (Some(c), Some(k)) => attacks::between(k, c).any(),
        _ => !checkers.more_than_one(),
    };
    let mut ph = union;
    if interposable {
        let theirs = pos.hand(attacker.opponent());
        for k in HandKind::ALL {
            if theirs.count(k) == 0 {
                ph.set(k, hand.count(k));
            }
        }
    }
    ph
}

/// The proof hand and mate distance of an attacker's node with hand `hand`:
/// from its shortest proven child.
pub(super) fn or_proof(kids: &[Child], hand: &Hand) -> (Hand, u32) {
    let (ph, dist) = kids
        .iter()
        .filter(|c| c.res.pn == 0)
        .min_by_key(|c| c.res.dist)
        .map_or((*hand, 0), |c| (before_attack(c), c.res.dist));
    (ph.min_per_kind(hand), dist + 1)
}

/// The proof hand and mate distance of a defender's node `pos` (all
/// children proven) with the attacker's hand `hand`: the most of each kind
/// over the children's proof hands, the longest defence.
pub(super) fn and_proof(
    kids: &[Child],
    hand: &Hand,
    pos: &Position,
    attacker: Color,
) -> (Hand, u32) {
    let mut union = Hand::EMPTY;
    let mut dist = 0;
    for c in kids {
        union = union.max_per_kind(&c.res.hand);
        dist = dist.max(c.res.dist);
    }
    let ph = and_proof_hand(union, hand, pos, attacker);
    (ph.min_per_kind(hand), dist + 1)
}

/// The disproof hand of an attacker's node with hand `hand`, all of whose
/// checks fail: the least of each kind over the children's, and none of a
/// kind the attacker lacks (with it, it would have new drops).
pub(super) fn or_disproof(kids: &[Child], hand: &Hand) -> Hand {
    let mut dh = unlimited();
    for c in kids {
        dh = dh.min_per_kind(&before_attack(c));
    }
    for k in HandKind::ALL {
        if hand.count(k) == 0 {
            dh.set(k, 0);
        }
    }
    dh.max_per_kind(hand)
}

/// The disproof hand of a defender's node with the attacker's hand `hand`,
/// at path index `index`: that of its first escape whose disproof does not
/// rely on a repetition of an ancestor.
pub(super) fn and_disproof(kids: &[Child], hand: &Hand, index: u32) -> Hand {
    let dh = kids
        .iter()
        .find(|c| c.res.dn == 0 && (c.res.rep == NO_REP || c.res.rep >= index))
        .map_or(*hand, |c| c.res.hand);
    dh.max_per_kind(hand)
}

/// The disproof hand of an attacker's node with hand `hand` and no check at
/// all: a larger hand helps only with a kind it lacks.
pub(super) fn no_check_disproof(hand: &Hand) -> Hand {
    let mut dh = Hand::EMPTY;
    for k in hand.kinds() {
        dh.set(k, u8::MAX);
    }
    dh
}
