//! The weights of the linear evaluation and their text file.
//!
//! [`EvalParams`] is one flat vector of integer weights (centipawn-like
//! units), divided into named [`GROUPS`]: board piece values, hand piece
//! values, tables of each kind class by its square relative to each king,
//! king placement and safety, threats to pieces, safe drop checks, slider
//! mobility and the tempo. The evaluation
//! ([`crate::eval`]) is the dot product of these weights with a position's
//! feature vector, which is what lets the tuner ([`crate::tune`]) fit them.
//!
//! The file format is one group per line, `name = v1 v2 ...`, with `#`
//! comments and blank lines ignored; every group must appear exactly once.
//! The default weights are `params/eval.txt`, compiled in; the hand-written
//! weights they were tuned from are `params/handwritten.txt`.
//!
//! ```
//! use shogi_engine::params::EvalParams;
//! let p = EvalParams::parse("piece = 1 2 3 4 5 6 7 8 9 10 11 12 13\n");
//! assert!(p.is_err()); // the other groups are missing
//! let text = EvalParams::builtin().to_text("# a copy");
//! let q = EvalParams::parse(&text)?;
//! assert_eq!(&q, EvalParams::builtin().as_ref());
//! # Ok::<_, shogi_engine::params::ParamsError>(())
//! ```

use std::sync::{Arc, OnceLock};

use shogi_core::{HandKind, PieceKind};

/// One named group of weights: `len` weights from `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// The name in the file.
    pub name: &'static str,
    /// The first weight's index in the flat vector.
    pub offset: usize,
    /// How many weights.
    pub len: usize,
    /// What the weights are, for the file's comments.
    pub doc: &'static str,
}

/// Kind classes of the king-relative tables.
pub const CLASSES: usize = 9;
/// Names of the kind classes, in table order (`gold` also counts the
/// promoted pawn, lance, knight and silver, which move as a gold).
pub const CLASS_NAMES: [&str; CLASSES] = [
    "pawn", "lance", "knight", "silver", "gold", "bishop", "horse", "rook", "dragon",
];
/// File distances (0-8) between a piece and a king.
pub const FILE_DISTANCES: usize = 9;
/// Rank differences (-8..=8) between a piece and a king.
pub const RANK_DIFFERENCES: usize = 17;
/// Squares relative to a king in a king-relative table: row `dr + 8`
/// (`dr` the piece's rank minus the king's, counted from the piece's own
/// side, so negative is towards the far side), column the file distance.
/// A table is left-right symmetric.
pub const OFFSETS: usize = RANK_DIFFERENCES * FILE_DISTANCES;

/// Board pieces: P L N S G B R +P +L +N +S +B(horse) +R(dragon) (no king).
pub const PIECE: usize = 0;
/// Pieces in hand: P L N S G B R.
pub const HAND: usize = PIECE + 13;
/// Each piece by its kind class and its square relative to the enemy king.
pub const ENEMY_KING: usize = HAND + 7;
/// Each piece by its kind class and its square relative to the own king.
pub const OWN_KING: usize = ENEMY_KING + CLASSES * OFFSETS;
/// The king by its rank counted from its own side (1 = the far rank).
pub const KING_RANK: usize = OWN_KING + CLASSES * OFFSETS;
/// Golds, silvers, tokins and promoted silvers next to the own king.
pub const KING_GUARD: usize = KING_RANK + 9;
/// Enemy pieces within distance 2 of the own king.
pub const KING_ATTACKER: usize = KING_GUARD + 1;
/// Non-pawn pieces in hand while the enemy has a king.
pub const HAND_THREAT: usize = KING_ATTACKER + 1;
/// The squares next to the own king that the enemy attacks: by the
/// square's place (ahead, ahead to the side, beside, behind, behind to the
/// side), by one or several attackers, by whether another own piece
/// defends it, and by whether the enemy holds a non-pawn piece in hand
/// ([`king_zone_slot`]).
pub const KING_ZONE: usize = HAND_THREAT + 1;
/// The weights of [`KING_ZONE`]: 5 places × 2 × 2 × 2.
pub const KING_ZONE_LEN: usize = 40;
/// Own pieces (not the king) the enemy attacks: by the piece's kind
/// class, by the cheapest kind of attacker (a pawn; a lance, knight,
/// silver or gold-mover; a bishop, rook, promoted one or the king), by
/// whether an own piece or the king defends it, and by whether its side is
/// to move ([`threat_slot`]).
pub const THREAT: usize = KING_ZONE + KING_ZONE_LEN;
/// The weights of [`THREAT`]: 9 classes × 3 attacker tiers × 2 × 2.
pub const THREAT_LEN: usize = CLASSES * 12;
/// Safe drop checks against the own king: for each non-pawn kind the
/// enemy holds in hand, the empty squares from which a piece of that kind
/// dropped there would check the king, that no other own piece defends,
/// and that the enemy supports when they are next to the king; by the
/// kind, by one such square or several, by whether one of them is next to
/// the king (a contact check), and by whether the enemy is to move
/// ([`drop_check_slot`]).
pub const DROP_CHECK: usize = THREAT + THREAT_LEN;
/// The weights of [`DROP_CHECK`]: 6 kinds (lance knight silver gold bishop
/// rook) × 2 × 2 × 2 (a silver's and a gold's checks are all contact
/// checks, a knight's never: those slots stay 0).
pub const DROP_CHECK_LEN: usize = 48;
/// Squares a slider attacks that are not its side's: lance, bishop, rook, horse, dragon.
pub const MOBILITY: usize = DROP_CHECK + DROP_CHECK_LEN;
/// The side to move.
pub const TEMPO: usize = MOBILITY + 5;
/// How many weights (and features) there are.
pub const NUM_FEATURES: usize = TEMPO + 1;

impl Group {
    /// The indices of its weights in the flat vector.
    #[must_use]
    pub const fn range(&self) -> std::ops::Range<usize> {
        self.offset..self.offset + self.len
    }
}

const fn group(name: &'static str, offset: usize, len: usize, doc: &'static str) -> Group {
    Group {
        name,
        offset,
        len,
        doc,
    }
}

/// Every group, in file and vector order.
pub const GROUPS: [Group; 28] = [
    group(
        "piece",
        PIECE,
        13,
        "board piece values: P L N S G B R +P +L +N +S +B +R",
    ),
    group("hand", HAND, 7, "hand piece values: P L N S G B R"),
    group(
        "enemy_king.pawn",
        ENEMY_KING,
        OFFSETS,
        "relative to the enemy king: rank difference -8..8 x file distance 0-8",
    ),
    group("enemy_king.lance", ENEMY_KING + OFFSETS, OFFSETS, ""),
    group("enemy_king.knight", ENEMY_KING + 2 * OFFSETS, OFFSETS, ""),
    group("enemy_king.silver", ENEMY_KING + 3 * OFFSETS, OFFSETS, ""),
    group("enemy_king.gold", ENEMY_KING + 4 * OFFSETS, OFFSETS, ""),
    group("enemy_king.bishop", ENEMY_KING + 5 * OFFSETS, OFFSETS, ""),
    group("enemy_king.horse", ENEMY_KING + 6 * OFFSETS, OFFSETS, ""),
    group("enemy_king.rook", ENEMY_KING + 7 * OFFSETS, OFFSETS, ""),
    group("enemy_king.dragon", ENEMY_KING + 8 * OFFSETS, OFFSETS, ""),
    group(
        "own_king.pawn",
        OWN_KING,
        OFFSETS,
        "relative to the own king: rank difference -8..8 x file distance 0-8",
    ),
    group("own_king.lance", OWN_KING + OFFSETS, OFFSETS, ""),
    group("own_king.knight", OWN_KING + 2 * OFFSETS, OFFSETS, ""),
    group("own_king.silver", OWN_KING + 3 * OFFSETS, OFFSETS, ""),
    group("own_king.gold", OWN_KING + 4 * OFFSETS, OFFSETS, ""),
    group("own_king.bishop", OWN_KING + 5 * OFFSETS, OFFSETS, ""),
    group("own_king.horse", OWN_KING + 6 * OFFSETS, OFFSETS, ""),
    group("own_king.rook", OWN_KING + 7 * OFFSETS, OFFSETS, ""),
    group("own_king.dragon", OWN_KING + 8 * OFFSETS, OFFSETS, ""),
    group(
        "king_rank",
        KING_RANK,
        9,
        "the king on its relative rank 1 (far) .. 9 (home)",
    ),
    group(
        "king_guard",
        KING_GUARD,
        1,
        "per general next to the own king",
    ),
    group(
        "king_attacker",
        KING_ATTACKER,
        1,
        "per enemy piece within 2 squares of the own king",
    ),
    group("hand_threat", HAND_THREAT, 1, "per non-pawn piece in hand"),
    group(
        "king_zone",
        KING_ZONE,
        KING_ZONE_LEN,
        "per attacked square next to the own king: place (ahead, ahead-side, side, behind, behind-side) x attackers (1, 2+) x defended (no, yes) x enemy non-pawn in hand (no, yes)",
    ),
    group(
        "threat",
        THREAT,
        THREAT_LEN,
        "per own piece the enemy attacks: class (pawn lance knight silver gold bishop horse rook dragon) x cheapest attacker (pawn; lance knight silver gold-mover; bishop rook horse dragon king) x defended (no, yes) x own side to move (no, yes)",
    ),
    group(
        "drop_check",
        DROP_CHECK,
        DROP_CHECK_LEN,
        "per kind the enemy holds with a safe drop check on the own king: kind (lance knight silver gold bishop rook) x squares (1, 2+) x next to the king (none, some) x enemy to move (no, yes)",
    ),
    group(
        "mobility",
        MOBILITY,
        5,
        "per attacked square: lance bishop rook horse dragon",
    ),
];

/// The tempo group (kept apart so that [`GROUPS`] reads as the evaluation's terms).
pub const TEMPO_GROUP: Group = group("tempo", TEMPO, 1, "for the side to move");

/// Every group including the tempo.
pub fn all_groups() -> impl Iterator<Item = Group> {
    GROUPS.into_iter().chain(std::iter::once(TEMPO_GROUP))
}

/// The slot of a board piece kind in the `piece` group (`None` for the king).
#[must_use]
pub const fn piece_slot(kind: PieceKind) -> Option<usize> {
    match kind {
        PieceKind::King => None,
        k if (k as usize) < 7 => Some(k as usize),
        k => Some(k as usize - 1),
    }
}

/// The slot in the `king_zone` group of a square next to the own king:
/// `place` 0-4 (ahead, ahead to the side, beside, behind, behind to the
/// side), attacked by `several` enemy pieces or one, `defended` by another
/// own piece or not, while the enemy holds a non-pawn piece in hand
/// (`hand_threat`) or not.
///
/// ```
/// use shogi_engine::params::{king_zone_slot, KING_ZONE_LEN};
/// assert_eq!(king_zone_slot(0, false, false, false), 0);
/// assert_eq!(king_zone_slot(4, true, true, true), KING_ZONE_LEN - 1);
/// ```
#[must_use]
pub const fn king_zone_slot(
    place: usize,
    several: bool,
    defended: bool,
    hand_threat: bool,
) -> usize {
    ((place * 2 + several as usize) * 2 + defended as usize) * 2 + hand_threat as usize
}

/// The slot in the `threat` group of an own piece the enemy attacks: its
/// kind `class` ([`CLASS_NAMES`]), the `tier` of its cheapest attacker (0 a
/// pawn; 1 a lance, knight, silver or a piece that moves as a gold; 2 a
/// bishop, rook, horse, dragon or the king), `defended` by another own
/// piece or the king or not, and whether its side is to move (`to_move`).
///
/// ```
/// use shogi_engine::params::{threat_slot, THREAT_LEN};
/// assert_eq!(threat_slot(0, 0, false, false), 0);
/// assert_eq!(threat_slot(8, 2, true, true), THREAT_LEN - 1);
/// ```
#[must_use]
pub const fn threat_slot(class: usize, tier: usize, defended: bool, to_move: bool) -> usize {
    ((class * 3 + tier) * 2 + defended as usize) * 2 + to_move as usize
}

/// The slot in the `drop_check` group: the enemy's hand `kind` (lance,
/// knight, silver, gold, bishop or rook; `None` for a pawn), `several`
/// safe checking squares or one, `contact` if one of them is next to the
/// king, and whether the enemy is to move (`enemy_to_move`).
///
/// ```
/// use shogi_core::HandKind;
/// use shogi_engine::params::{drop_check_slot, DROP_CHECK_LEN};
/// assert_eq!(drop_check_slot(HandKind::Lance, false, false, false), Some(0));
/// assert_eq!(drop_check_slot(HandKind::Rook, true, true, true), Some(DROP_CHECK_LEN - 1));
/// assert_eq!(drop_check_slot(HandKind::Pawn, true, true, true), None);
/// ```
#[must_use]
pub const fn drop_check_slot(
    kind: HandKind,
    several: bool,
    contact: bool,
    enemy_to_move: bool,
) -> Option<usize> {
    let k = match kind {
        HandKind::Pawn => return None,
        HandKind::Lance => 0,
        HandKind::Knight => 1,
        HandKind::Silver => 2,
        HandKind::Gold => 3,
        HandKind::Bishop => 4,
        HandKind::Rook => 5,
    };
    Some(((k * 2 + several as usize) * 2 + contact as usize) * 2 + enemy_to_move as usize)
}

/// The slot of a hand kind in the `hand` group.
#[must_use]
pub const fn hand_slot(kind: HandKind) -> usize {
    kind as usize
}

/// The evaluation weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// The flat weight vector; see the offsets and [`GROUPS`].
    pub weights: [i32; NUM_FEATURES],
}

/// Why a parameters file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamsError {
    /// A line that is not `name = values`.
    #[error("line {line}: expected `name = v1 v2 ...`, found {text:?}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A group name the evaluation does not have.
    #[error("line {line}: unknown parameter group {name:?}")]
    UnknownGroup {
        /// 1-based line number.
        line: usize,
        /// The name.
        name: String,
    },
    /// A group given twice.
    #[error("line {line}: parameter group {name:?} given twice")]
    Duplicate {
        /// 1-based line number.
        line: usize,
        /// The name.
        name: String,
    },
    /// A value that is not an integer.
    #[error("line {line}: {token:?} is not an integer")]
    BadNumber {
        /// 1-based line number.
        line: usize,
        /// The token.
        token: String,
    },
    /// The wrong number of values for a group.
    #[error("line {line}: {name} takes {expected} values, found {found}")]
    Count {
        /// 1-based line number.
        line: usize,
        /// The group.
        name: String,
        /// How many it takes.
        expected: usize,
        /// How many were given.
        found: usize,
    },
    /// A group absent from the file.
    #[error("parameter group {0:?} is missing")]
    Missing(String),
}

const BUILTIN_TEXT: &str = include_str!("../params/eval.txt");
/// The hand-written weights, as a file (for comparisons and as the tuner's start).
pub const HANDWRITTEN_TEXT: &str = include_str!("../params/handwritten.txt");

impl EvalParams {
    /// All weights zero.
    #[must_use]
    pub const fn zero() -> EvalParams {
        EvalParams {
            weights: [0; NUM_FEATURES],
        }
    }

    /// The default weights (`params/eval.txt`, compiled in), parsed once.
    ///
    /// # Panics
    /// Never in a build whose tests pass: the compiled-in file is checked by a test.
    #[must_use]
    pub fn builtin() -> Arc<EvalParams> {
        static BUILTIN: OnceLock<Arc<EvalParams>> = OnceLock::new();
        Arc::clone(BUILTIN.get_or_init(|| {
            Arc::new(EvalParams::parse(BUILTIN_TEXT).expect("params/eval.txt is valid"))
        }))
    }

    /// The hand-written weights (`params/handwritten.txt`).
    ///
    /// # Panics
    /// Never in a build whose tests pass (checked by a test).
    #[must_use]
    pub fn handwritten() -> EvalParams {
        EvalParams::parse(HANDWRITTEN_TEXT).expect("params/handwritten.txt is valid")
    }

    /// The weights of `group`.
    #[must_use]
    pub fn group(&self, group: Group) -> &[i32] {
        &self.weights[group.range()]
    }

    /// Reads a parameters file.
    ///
    /// # Errors
    /// The first bad line (with its number), or the first missing group.
    pub fn parse(text: &str) -> Result<EvalParams, ParamsError> {
        let mut params = EvalParams::zero();
        let mut seen = [false; GROUPS.len() + 1];
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let Some((name, values)) = content.split_once('=') else {
                return Err(ParamsError::Syntax {
                    line,
                    text: raw.to_string(),
                });
            };
            let name = name.trim();
            let Some((gi, g)) = all_groups().enumerate().find(|(_, g)| g.name == name) else {
                return Err(ParamsError::UnknownGroup {
                    line,
                    name: name.to_string(),
                });
            };
            if seen[gi] {
                return Err(ParamsError::Duplicate {
                    line,
                    name: name.to_string(),
                });
            }
            seen[gi] = true;
            let values = values
                .split_whitespace()
                .map(|t| {
                    t.parse::<i32>().map_err(|_| ParamsError::BadNumber {
                        line,
                        token: t.to_string(),
                    })
                })
                .collect::<Result<Vec<i32>, ParamsError>>()?;
            if values.len() != g.len {
                return Err(ParamsError::Count {
                    line,
                    name: name.to_string(),
                    expected: g.len,
                    found: values.len(),
                });
            }
            params.weights[g.range()].copy_from_slice(&values);
        }
        if let Some((_, g)) = all_groups().enumerate().find(|(i, _)| !seen[*i]) {
            return Err(ParamsError::Missing(g.name.to_string()));
        }
        Ok(params)
    }

    /// Writes the weights in the file format, after `header` (comment lines).
    #[must_use]
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for l in header.lines() {
            out.push_str(l);
            out.push('\n');
        }
        for g in all_groups() {
            if !g.doc.is_empty() {
                out.push_str(&format!("# {}\n", g.doc));
            }
            let values: Vec<String> = self.group(g).iter().map(ToString::to_string).collect();
            out.push_str(&format!("{} = {}\n", g.name, values.join(" ")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_vector() {
        let mut next = 0;
        for g in all_groups() {
            assert_eq!(g.offset, next, "{}", g.name);
            next += g.len;
        }
        assert_eq!(next, NUM_FEATURES);
    }

    #[test]
    fn shipped_files_parse_and_round_trip() {
        for text in [BUILTIN_TEXT, HANDWRITTEN_TEXT] {
            let p = EvalParams::parse(text).unwrap();
            assert_eq!(EvalParams::parse(&p.to_text("# x")).unwrap(), p);
        }
    }

    #[test]
    fn errors_name_the_line() {
        let good = EvalParams::handwritten().to_text("");
        let bad = good.replacen("tempo = ", "tempo = x", 1);
        let line = bad.lines().position(|l| l.starts_with("tempo")).unwrap() + 1;
        assert_eq!(
            EvalParams::parse(&bad),
            Err(ParamsError::BadNumber {
                line,
                token: bad.lines().nth(line - 1).unwrap()[8..].to_string()
            })
        );
        let short = good.replacen("hand = ", "hand = 1 ", 1);
        assert!(matches!(
            EvalParams::parse(&short),
            Err(ParamsError::Count {
                expected: 7,
                found: 8,
                ..
            })
        ));
        let unknown = format!("{good}bogus = 1\n");
        assert!(matches!(
            EvalParams::parse(&unknown),
            Err(ParamsError::UnknownGroup { .. })
        ));
        let twice = format!("{good}tempo = 1\n");
        assert!(matches!(
            EvalParams::parse(&twice),
            Err(ParamsError::Duplicate { .. })
        ));
        let missing: String = good
            .lines()
            .filter(|l| !l.starts_with("mobility"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(
            EvalParams::parse(&missing),
            Err(ParamsError::Missing("mobility".into()))
        );
        assert!(matches!(
            EvalParams::parse("piece 1 2"),
            Err(ParamsError::Syntax { line: 1, .. })
        ));
    }
}
