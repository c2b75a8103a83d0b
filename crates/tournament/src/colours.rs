//! Colour history and furigoma.
//!
//! A player's colours are read from the rounds played: a game counts only
//! if it was played (a forfeit, a bye or a round sat out leaves no colour).
//! Swiss and McMahon pairs get their colours from the two histories, in
//! the order of FIDE's colour rules (C.04.3 A.6 and E); where the
//! histories do not decide (round 1, or two identical histories) a
//! furigoma does, as in shogi practice.
//!
//! ```
//! use shogi_tournament::colours::{self, Preference, Strength};
//! use shogi_tournament::Side::{Gote, Sente};
//!
//! let history = [Some(Sente), None, Some(Sente)];
//! assert_eq!(colours::difference(&history), 2);
//! assert_eq!(
//!     colours::preference(&history),
//!     Some(Preference { side: Gote, strength: Strength::Absolute })
//! );
//! // A furigoma is a pure function of the event's seed, the round and the pair.
//! assert_eq!(colours::toss(7, 1, 0, 1), colours::toss(7, 1, 0, 1));
//! ```

use crate::{Board, ColourChoice, Event, GameResult, PlayerId, Round, Side, Toss};

/// Whether a board's game was played over the board (not forfeited).
/// A board without a result yet counts as played.
#[must_use]
pub fn played(board: &Board) -> bool {
    !matches!(
        board.result,
        Some(GameResult::SenteForfeit | GameResult::GoteForfeit | GameResult::DoubleForfeit)
    )
}

/// The side `player` played in `round`, if they played a game in it.
#[must_use]
pub fn side_in(round: &Round, player: PlayerId) -> Option<Side> {
    round.boards.iter().filter(|b| played(b)).find_map(|b| {
        if b.sente == player {
            Some(Side::Sente)
        } else if b.gote == player {
            Some(Side::Gote)
        } else {
            None
        }
    })
}

/// `player`'s colour in each round of `event.played`, round 1 first;
/// `None` where no game was played.
#[must_use]
pub fn history(event: &Event, player: PlayerId) -> Vec<Option<Side>> {
    event.played.iter().map(|r| side_in(r, player)).collect()
}

/// Games as Sente less games as Gote.
#[must_use]
pub fn difference(history: &[Option<Side>]) -> i32 {
    history.iter().flatten().fold(0, |d, s| match s {
        Side::Sente => d + 1,
        Side::Gote => d - 1,
    })
}

/// How much a player wants a colour (FIDE C.04.3 A.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strength {
    /// Colours are balanced: the player would alternate.
    Mild,
    /// One colour more of one side.
    Strong,
    /// Two more of one side, or the same side in the last two games: the
    /// other side is due, and getting the same again breaks the colour
    /// rule (a third in a row, or a difference beyond ±2).
    Absolute,
}

/// The colour a player is due and how strongly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Preference {
    /// The side due.
    pub side: Side,
    /// How strongly.
    pub strength: Strength,
}

/// The colour `history` makes due; `None` before a first game.
#[must_use]
pub fn preference(history: &[Option<Side>]) -> Option<Preference> {
    let games: Vec<Side> = history.iter().flatten().copied().collect();
    let last = *games.last()?;
    let diff = difference(history);
    let two_in_row = games.len() >= 2 && games[games.len() - 2] == last;
    let (side, strength) = if diff > 1 {
        (Side::Gote, Strength::Absolute)
    } else if diff < -1 {
        (Side::Sente, Strength::Absolute)
    } else if two_in_row {
        (last.opponent(), Strength::Absolute)
    } else if diff == 1 {
        (Side::Gote, Strength::Strong)
    } else if diff == -1 {
        (Side::Sente, Strength::Strong)
    } else {
        (last.opponent(), Strength::Mild)
    };
    Some(Preference { side, strength })
}

/// Whether giving `side` to a player with `history` breaks the absolute
/// colour rule: a third game in a row with one side, or a colour
/// difference beyond ±2.
#[must_use]
pub fn breaks_absolute(history: &[Option<Side>], side: Side) -> bool {
    preference(history).is_some_and(|p| p.strength == Strength::Absolute && p.side != side) && {
        let games: Vec<Side> = history.iter().flatten().copied().collect();
        let n = games.len();
        let third = n >= 2 && games[n - 1] == side && games[n - 2] == side;
        let diff = difference(history)
            + match side {
                Side::Sente => 1,
                Side::Gote => -1,
            };
        third || diff.abs() > 2
    }
}

/// SplitMix64's finaliser: a well-mixed 64-bit hash of `x`.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The furigoma of `a` (the tosser, the first-listed player of the board)
/// and `b` in `round`: five pawns, each one bit of a SplitMix64 hash of the
/// event's seed, the round and the two players. The same inputs always
/// give the same toss, so pairing the same state again gives the same
/// colours.
///
/// ```
/// use shogi_tournament::colours::toss;
/// let t = toss(42, 3, 5, 9);
/// assert_eq!(t.tosser, 5);
/// assert!(t.fu_up <= 5);
/// ```
#[must_use]
pub fn toss(seed: u64, round: u32, a: PlayerId, b: PlayerId) -> Toss {
    let mut h = mix(seed);
    h = mix(h ^ u64::from(round));
    h = mix(h ^ a as u64);
    h = mix(h ^ b as u64);
    Toss {
        tosser: a,
        fu_up: (h & 0b1_1111).count_ones() as u8,
    }
}

/// The colours of a Swiss or McMahon pair: `(sente, gote, how)`.
/// `higher` is the higher-ranked player of the two (more points, then the
/// seeding order) and tosses where a furigoma decides.
///
/// In order: identical histories (both without a game, or the same
/// sequence of sides) → furigoma; preferences for different sides → each
/// gets theirs; one preference only → it is met; both want one side → the
/// stronger preference wins, then (both absolute) the wider colour
/// difference, then both alternate from the most recent game in which
/// their sides differed, then the higher-ranked player gets their due
/// colour.
#[must_use]
pub fn allocate(
    seed: u64,
    round: u32,
    higher: (PlayerId, &[Option<Side>]),
    lower: (PlayerId, &[Option<Side>]),
) -> (PlayerId, PlayerId, ColourChoice) {
    let (h, hh) = higher;
    let (l, lh) = lower;
    let h_games: Vec<Side> = hh.iter().flatten().copied().collect();
    let l_games: Vec<Side> = lh.iter().flatten().copied().collect();
    if h_games == l_games {
        let t = toss(seed, round, h, l);
        let (s, g) = if t.tosser_sente() { (h, l) } else { (l, h) };
        return (s, g, ColourChoice::Furigoma(t));
    }
    let higher_sente = higher_takes_sente(hh, lh, &h_games, &l_games);
    if higher_sente {
        (h, l, ColourChoice::Balance)
    } else {
        (l, h, ColourChoice::Balance)
    }
}

/// Whether the higher-ranked of two players with different histories
/// takes Sente (see [`allocate`]).
fn higher_takes_sente(hh: &[Option<Side>], lh: &[Option<Side>], hg: &[Side], lg: &[Side]) -> bool {
    let (hp, lp) = (preference(hh), preference(lh));
    let winner_side = match (hp, lp) {
        (None, None) => return true,
        (Some(p), None) => return p.side == Side::Sente,
        (None, Some(p)) => return p.side == Side::Gote,
        (Some(p), Some(q)) if p.side != q.side => return p.side == Side::Sente,
        (Some(p), Some(q)) => {
            if p.strength != q.strength {
                // The stronger preference is met.
                return (p.strength > q.strength) == (p.side == Side::Sente);
            }
            p.side
        }
    };
    let (hd, ld) = (difference(hh).abs(), difference(lh).abs());
    if hp.is_some_and(|p| p.strength == Strength::Absolute) && hd != ld {
        return (hd > ld) == (winner_side == Side::Sente);
    }
    // Alternate from the most recent game (counted from the end) in which
    // their sides differed.
    for (a, b) in hg.iter().rev().zip(lg.iter().rev()) {
        if a != b {
            return *a == Side::Gote;
        }
    }
    winner_side == Side::Sente
}

#[cfg(test)]
mod tests {
    use super::*;
    use Side::{Gote, Sente};

    #[test]
    fn no_games_no_preference() {
        assert_eq!(preference(&[None, None]), None);
    }

    #[test]
    fn two_in_a_row_is_absolute_even_when_balanced() {
        let h = [Some(Gote), Some(Sente), Some(Sente), Some(Gote), Some(Gote)];
        assert_eq!(difference(&h), -1);
        assert_eq!(
            preference(&h),
            Some(Preference {
                side: Sente,
                strength: Strength::Absolute
            })
        );
        assert!(breaks_absolute(&h, Gote));
        assert!(!breaks_absolute(&h, Sente));
    }

    #[test]
    fn a_missed_round_does_not_break_a_run() {
        // Sente, (bye), Sente: the last two games were both Sente.
        let h = [Some(Sente), None, Some(Sente)];
        assert!(breaks_absolute(&h, Sente));
    }

    #[test]
    fn mild_alternates() {
        let h = [Some(Sente), Some(Gote)];
        assert_eq!(
            preference(&h),
            Some(Preference {
                side: Sente,
                strength: Strength::Mild
            })
        );
        assert!(!breaks_absolute(&h, Gote));
    }

    #[test]
    fn toss_is_about_fair() {
        let sente = (0..10_000u32)
            .filter(|&r| toss(99, r, 1, 2).tosser_sente())
            .count();
        assert!((4_700..5_300).contains(&sente), "{sente}");
    }

    #[test]
    fn equal_histories_toss() {
        let (s, g, how) = allocate(5, 1, (3, &[]), (8, &[]));
        assert!(matches!(how, ColourChoice::Furigoma(t) if t.tosser == 3));
        assert_eq!((s.min(g), s.max(g)), (3, 8));
    }

    #[test]
    fn different_dues_are_both_met() {
        let (s, g, how) = allocate(0, 2, (1, &[Some(Sente)]), (2, &[Some(Gote)]));
        assert_eq!((s, g, how), (2, 1, ColourChoice::Balance));
    }

    #[test]
    fn stronger_preference_wins() {
        // Higher: S G, mild Sente; lower: (bye) G, strong Sente.
        let (s, g, _) = allocate(
            0,
            3,
            (1, &[Some(Sente), Some(Gote)]),
            (2, &[None, Some(Gote)]),
        );
        assert_eq!((s, g), (2, 1));
        // Higher: S G G, absolute Sente (two Gote in a row); lower: G S G,
        // strong Sente.
        let hi = [Some(Sente), Some(Gote), Some(Gote)];
        let lo = [Some(Gote), Some(Sente), Some(Gote)];
        assert_eq!(allocate(0, 4, (1, &hi), (2, &lo)).0, 1);
        assert_eq!(allocate(0, 4, (2, &lo), (1, &hi)).0, 1);
    }

    #[test]
    fn wider_difference_wins_between_absolutes() {
        // Both due Sente absolutely: the higher S G G (difference -1),
        // the lower G G (difference -2): the wider difference wins.
        let hi = [Some(Sente), Some(Gote), Some(Gote)];
        let lo = [None, Some(Gote), Some(Gote)];
        assert_eq!(allocate(0, 4, (1, &hi), (2, &lo)).0, 2);
    }

    #[test]
    fn same_played_sides_toss_even_in_different_rounds() {
        let hi = [Some(Gote), Some(Sente), Some(Gote)];
        let lo = [None, Some(Gote), Some(Sente), Some(Gote)];
        assert!(matches!(
            allocate(0, 5, (1, &hi), (2, &lo)).2,
            ColourChoice::Furigoma(_)
        ));
    }

    #[test]
    fn equal_preferences_alternate_from_last_difference() {
        // Both mild Gote (balanced, last Sente). From the end their games
        // agree twice, then differ: the higher had Sente there, so takes
        // Gote now.
        let hi = [Some(Gote), Some(Sente), Some(Gote), Some(Sente)];
        let lo = [Some(Sente), Some(Gote), Some(Gote), Some(Sente)];
        assert_eq!(
            allocate(0, 5, (1, &hi), (2, &lo)),
            (2, 1, ColourChoice::Balance)
        );
    }
}
