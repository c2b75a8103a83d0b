//! An event's state as pairing and standings read it.

use std::fmt;

/// A player's place in [`Event::players`].
pub type PlayerId = usize;

/// A score in half points, so that sums are exact (`Points(3)` is 1½).
/// Negative in McMahon, where players below the top group start below zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(pub i32);

impl Points {
    /// No points.
    pub const ZERO: Points = Points(0);
    /// A draw.
    pub const HALF: Points = Points(1);
    /// A win.
    pub const ONE: Points = Points(2);

    /// The score as a number: `Points(3).value() == 1.5`.
    #[must_use]
    pub fn value(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl fmt::Display for Points {
    /// `1½`, `2`, `½`, `-1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0.div_euclid(2);
        let half = self.0.rem_euclid(2) == 1;
        match (whole, half) {
            (0, true) => write!(f, "½"),
            (w, true) if w < 0 => write!(f, "-{}½", -w - 1),
            (w, true) => write!(f, "{w}½"),
            (w, false) => write!(f, "{w}"),
        }
    }
}

/// A side of the board. Sente moves first; in a handicap game the giver
/// (uwate) plays Gote and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// First player (black, ☗).
    Sente,
    /// Second player (white, ☖).
    Gote,
}

impl Side {
    /// The other side.
    #[must_use]
    pub fn opponent(self) -> Side {
        match self {
            Side::Sente => Side::Gote,
            Side::Gote => Side::Sente,
        }
    }
}

/// How a round's game ended, as the event scores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Sente won over the board.
    SenteWin,
    /// Gote won over the board.
    GoteWin,
    /// A draw (jishogi, or a repetition not replayed).
    Draw,
    /// Sente did not play: Gote wins by forfeit.
    SenteForfeit,
    /// Gote did not play: Sente wins by forfeit.
    GoteForfeit,
    /// Neither played: both score zero.
    DoubleForfeit,
}

/// Why a player has no game in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByeKind {
    /// The odd player out of the pairing (Swiss, McMahon: a full point;
    /// round robin: the idle player, no points).
    Pairing,
    /// Sat out at their request or the organiser's, for no points.
    Zero,
    /// Sat out for half a point.
    Half,
    /// Sat out for a full point.
    Full,
}

/// A player without a game in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bye {
    /// Who.
    pub player: PlayerId,
    /// Why, and so for how many points.
    pub kind: ByeKind,
}

/// A furigoma: five pawns tossed by one player; if `fu_up >= 3` of them
/// land pawn side up, the tosser takes Sente.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Toss {
    /// Who tossed (the first-listed player of the board).
    pub tosser: PlayerId,
    /// How many of the five pawns showed 歩 (the rest showed と).
    pub fu_up: u8,
}

impl Toss {
    /// Whether the tosser takes Sente.
    #[must_use]
    pub fn tosser_sente(self) -> bool {
        self.fu_up >= 3
    }
}

/// How a board's colours were chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColourChoice {
    /// The Berger table's colours (the first-named player takes Sente).
    Table,
    /// A furigoma decided.
    Furigoma(Toss),
    /// The players' colour histories decided.
    Balance,
    /// Forced by the organiser.
    Forced,
}

/// One game of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Who plays Sente.
    pub sente: PlayerId,
    /// Who plays Gote.
    pub gote: PlayerId,
    /// How the colours were chosen.
    pub colours: ColourChoice,
    /// The result, once known.
    pub result: Option<GameResult>,
}

/// A round: its boards (board 1 first) and its byes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    /// The games.
    pub boards: Vec<Board>,
    /// The players without a game.
    pub byes: Vec<Bye>,
}

/// An amateur grade as a number: steps above 1 kyu (1 kyu is 0, 1 dan is
/// 1, 3 kyu is -2). Pairing only compares grades.
pub type Grade = i32;

/// An entrant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Their rating, if known (seeding; Elo-like scale).
    pub rating: Option<i32>,
    /// Their grade, if known (seeding, McMahon start scores).
    pub grade: Option<Grade>,
    /// Their club: players of one club are kept apart where possible.
    pub club: Option<String>,
    /// The first round they may be paired in (1-based; a late entry
    /// joins later).
    pub from_round: u32,
    /// The first round they are no longer paired in (withdrawn).
    pub withdrawn_from: Option<u32>,
}

impl Player {
    /// Whether the player takes part in round `round` (1-based).
    #[must_use]
    pub fn plays_in(&self, round: u32) -> bool {
        round >= self.from_round && self.withdrawn_from.is_none_or(|w| round < w)
    }
}

/// The format of an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Everyone meets everyone (twice, colours reversed, if `double`),
    /// by the Berger tables.
    RoundRobin {
        /// A double round robin.
        double: bool,
    },
    /// Swiss pairing.
    Swiss,
    /// McMahon: Swiss on scores that start from the grades.
    McMahon {
        /// The bar: everyone at or above it starts at zero.
        bar: Grade,
        /// The floor: everyone at or below it starts as if at the floor.
        floor: Grade,
    },
}

/// Everything pairing and standings read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The format.
    pub format: Format,
    /// The rounds planned.
    pub rounds: u32,
    /// The seed the furigoma tosses are drawn from (chosen at random when
    /// the event is created, stored with it).
    pub seed: u64,
    /// The entrants, in the order of entry (the order seeds ties).
    pub players: Vec<Player>,
    /// The rounds paired so far, round 1 first (the last may still be in
    /// play).
    pub played: Vec<Round>,
}
