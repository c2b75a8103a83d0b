//! Impasse (jishogi, 持将棋): the rules that end a game in which the kings
//! have entered the enemy camps.
//!
//! Points: rook and bishop (promoted or not) 5, every other piece but the
//! king 1. Which pieces count, and what the count decides, depends on the rule:
//!
//! | rule | when | counted | verdict |
//! |---|---|---|---|
//! | [`ImpasseRule::Csa27`] (`27`, default) | declarer's king in the enemy camp, ≥ 10 other own pieces there, not in check | pieces in the camp + hand | Sente ≥ 28, Gote ≥ 27 wins |
//! | [`ImpasseRule::Jsa24`] (`24`) | same | same | ≥ 31 wins, 24-30 draws, fewer loses |
//! | [`ImpasseRule::Count24`] (`count24`) | both kings in their enemy camps | everything on the board + hand | below 24 loses, both ≥ 24 draw |
//! | [`ImpasseRule::Try`] (`try`) | a king reaches the enemy king's start square unattacked | — | that side wins |
//! | [`ImpasseRule::None`] (`none`) | never | — | — |
//!
//! Handicap games may credit the pieces removed by the handicap to the
//! handicap giver: [`judge`] takes extra points per side.
//!
//! ```
//! use shogi_core::{impasse, ByColor, ImpasseRule, ImpasseVerdict, Position};
//! let pos = Position::startpos();
//! assert_eq!(impasse::judge(&pos, ImpasseRule::Csa27, ByColor::default()), None);
//! assert_eq!("count24".parse::<ImpasseRule>()?, ImpasseRule::Count24);
//! # Ok::<_, shogi_core::UnknownImpasseRule>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::{Bitboard, ByColor, Color, PieceKind, Position, Square};

/// Which impasse rule a game is played under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ImpasseRule {
    /// CSA 27-point declaration (`27`).
    #[default]
    Csa27,
    /// JSA 24-point declaration (`24`).
    Jsa24,
    /// The rules pages' count when both kings have entered (`count24`).
    Count24,
    /// The try rule (`try`).
    Try,
    /// No impasse rule (`none`).
    None,
}

/// The result of an impasse rule for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImpasseVerdict {
    /// The side to move wins (may declare, or out-counts the opponent).
    Win,
    /// A draw.
    Draw,
    /// The side to move loses.
    Loss,
}

/// An impasse rule name that is not one of `27`, `24`, `count24`, `try`, `none`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown impasse rule {0:?}; expected 27, 24, count24, try or none")]
pub struct UnknownImpasseRule(pub String);

impl ImpasseRule {
    /// The name used on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ImpasseRule::Csa27 => "27",
            ImpasseRule::Jsa24 => "24",
            ImpasseRule::Count24 => "count24",
            ImpasseRule::Try => "try",
            ImpasseRule::None => "none",
        }
    }
}

impl fmt::Display for ImpasseRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ImpasseRule {
    type Err = UnknownImpasseRule;
    fn from_str(s: &str) -> Result<ImpasseRule, UnknownImpasseRule> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "27" | "csa27" | "csarule27" => ImpasseRule::Csa27,
            "24" | "jsa24" | "csarule24" => ImpasseRule::Jsa24,
            "count24" => ImpasseRule::Count24,
            "try" | "tryrule" => ImpasseRule::Try,
            "none" | "noenteringking" => ImpasseRule::None,
            _ => return Err(UnknownImpasseRule(s.to_string())),
        })
    }
}

/// The square a king of `color` must reach under the try rule (the enemy king's start).
#[must_use]
pub fn try_square(color: Color) -> Square {
    let rank = match color {
        Color::Sente => 1,
        Color::Gote => 9,
    };
    Square::from_numbers(5, rank).expect("5a and 5i exist")
}

/// Facts about a declaration by `color` (usually the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// The king stands in the enemy camp.
    pub king_in_camp: bool,
    /// Own pieces other than the king in the enemy camp.
    pub pieces_in_camp: u32,
    /// Points of the pieces in the camp plus the hand (plus any credit).
    pub points: u32,
    /// The declarer is in check.
    pub in_check: bool,
}

impl Declaration {
    /// Whether the king, piece-count and check conditions hold.
    #[must_use]
    pub fn conditions_met(&self) -> bool {
        self.king_in_camp && self.pieces_in_camp >= 10 && !self.in_check
    }
}

/// The declaration facts for `color` in `pos`, with `credit` extra points.
#[must_use]
pub fn declaration(pos: &Position, color: Color, credit: u32) -> Declaration {
    let camp = Bitboard::zone(color);
    let king_in_camp = pos.king(color).is_some_and(|k| camp.contains(k));
    let ours = pos.color_bb(color) & camp & !pos.kind_bb(PieceKind::King);
    Declaration {
        king_in_camp,
        pieces_in_camp: ours.count(),
        points: pos.impasse_points(color, camp) + credit,
        in_check: color == pos.side_to_move() && pos.in_check(),
    }
}

/// The total points of `color`: every piece on the board and in hand.
#[must_use]
pub fn total_points(pos: &Position, color: Color) -> u32 {
    pos.impasse_points(color, Bitboard::FULL)
}

/// What `rule` says for the side to move of `pos`, if it says anything yet.
/// `credit` adds points per side (pieces removed by a handicap).
#[must_use]
pub fn judge(pos: &Position, rule: ImpasseRule, credit: ByColor<u32>) -> Option<ImpasseVerdict> {
    let us = pos.side_to_move();
    let them = us.opponent();
    match rule {
        ImpasseRule::None => None,
        ImpasseRule::Csa27 => {
            let d = declaration(pos, us, credit[us]);
            let need = if us == Color::Sente { 28 } else { 27 };
            (d.conditions_met() && d.points >= need).then_some(ImpasseVerdict::Win)
        }
        ImpasseRule::Jsa24 => {
            let d = declaration(pos, us, credit[us]);
            d.conditions_met().then_some(match d.points {
                31.. => ImpasseVerdict::Win,
                24..=30 => ImpasseVerdict::Draw,
                _ => ImpasseVerdict::Loss,
            })
        }
        ImpasseRule::Count24 => {
            let entered = |c: Color| pos.king(c).is_some_and(|k| Bitboard::zone(c).contains(k));
            if !(entered(us) && entered(them)) {
                return None;
            }
            let ours = total_points(pos, us) + credit[us];
            let theirs = total_points(pos, them) + credit[them];
            Some(match (ours >= 24, theirs >= 24) {
                (true, false) => ImpasseVerdict::Win,
                (false, true) => ImpasseVerdict::Loss,
                _ => ImpasseVerdict::Draw,
            })
        }
        ImpasseRule::Try => {
            let k = pos.king(them)?;
            (k == try_square(them) && !pos.is_attacked(k, us, pos.occupancy()))
                .then_some(ImpasseVerdict::Loss)
        }
    }
}
