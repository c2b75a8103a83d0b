//! The protocol's words for how a game ended and for the rule a move broke:
//! the one translation of the core's [`Ending`] and [`IllegalMove`] to the
//! words clients translate.

use shogi_core::{Ending, Foul, IllegalMove};

/// The protocol's code for the rule an illegal move breaks: the one
/// translation of [`IllegalMove`] to the words clients translate
/// (`docs/PROTOCOL.md`, "Refused moves").
#[must_use]
pub fn rule_code(reason: IllegalMove) -> &'static str {
    match reason {
        IllegalMove::NoPiece(_) => "no_piece",
        IllegalMove::NotYourPiece(_) => "not_your_piece",
        IllegalMove::BadDirection { .. } => "not_reachable",
        IllegalMove::PathBlocked { .. } => "path_blocked",
        IllegalMove::OwnPieceOnTarget(_) => "own_piece",
        IllegalMove::LeavesKingInCheck => "self_check",
        IllegalMove::Nifu(_) => "nifu",
        IllegalMove::DeadDrop { .. } => "dead_piece",
        IllegalMove::MustPromote(_) => "must_promote",
        IllegalMove::CannotPromote => "cannot_promote",
        IllegalMove::PawnDropMate => "uchifuzume",
        IllegalMove::NotInHand(_) => "not_in_hand",
        IllegalMove::DropOnOccupied(_) => "occupied",
    }
}

/// The file a nifu names (the pawn already on it), `None` for other rules.
#[must_use]
pub(crate) fn nifu_file(reason: IllegalMove) -> Option<u8> {
    match reason {
        IllegalMove::Nifu(file) => Some(file.number()),
        _ => None,
    }
}

/// The protocol's word for how a game ended (`status.reason`, the archive's
/// `reason`): the core's [`Ending::reason_word`], except that a false
/// impasse declaration stays `impasse`, as the protocol has always said of a
/// declaration the declarer loses.
#[must_use]
pub fn reason_word(ending: Ending) -> &'static str {
    match ending {
        Ending::Foul {
            foul: Foul::FalseDeclaration,
            ..
        } => "impasse",
        e => e.reason_word(),
    }
}
