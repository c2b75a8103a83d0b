//! The rules a pairing may break, named so an organiser who forces a
//! pairing is told which.

use crate::{Event, PlayerId, Round};

/// A pairing rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Two players meet a second time (in a round robin: more often than
    /// the table says).
    Rematch,
    /// A player gets a second pairing bye.
    SecondBye,
    /// A player gets the same colour a third time in a row.
    ThirdColourInRow,
    /// The pairing bye does not go to the lowest score group.
    ByeNotLowest,
    /// Two players of different scores meet where equal scores could.
    ScoreGap,
    /// A player floats (is paired out of their score group) the same way
    /// twice in a row.
    RepeatedFloat,
    /// Two players of one club meet.
    SameClub,
    /// A player's colours become two or more out of balance.
    ColourImbalance,
}

impl Rule {
    /// The rule's key in the JSON API and the client's translations:
    /// `rematch`, `second_bye`, `third_colour_in_row`, `bye_not_lowest`,
    /// `score_gap`, `repeated_float`, `same_club`, `colour_imbalance`.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Rule::Rematch => "rematch",
            Rule::SecondBye => "second_bye",
            Rule::ThirdColourInRow => "third_colour_in_row",
            Rule::ByeNotLowest => "bye_not_lowest",
            Rule::ScoreGap => "score_gap",
            Rule::RepeatedFloat => "repeated_float",
            Rule::SameClub => "same_club",
            Rule::ColourImbalance => "colour_imbalance",
        }
    }
}

/// A rule a pairing breaks, and the players it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The rule.
    pub rule: Rule,
    /// The players concerned.
    pub players: Vec<PlayerId>,
}

/// The rules `round` would break as the next round of `event`.
#[must_use]
pub fn check(event: &Event, round: &Round) -> Vec<Warning> {
    let _ = (event, round);
    todo!("helper P1")
}
