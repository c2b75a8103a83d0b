//! Points and tie-breaks.

use crate::{Event, PlayerId, Points};

/// A tie-break, applied in the order the organiser chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// Sonneborn-Berger.
    SonnebornBerger,
    /// Sum of opponents' scores (Buchholz).
    Sos,
    /// Sum of opponents' SOS.
    Sosos,
    /// Sum of defeated opponents' scores.
    Sodos,
    /// Median Buchholz: SOS less the highest and lowest.
    Median,
    /// The games among the tied players.
    DirectEncounter,
    /// Games won.
    Wins,
    /// Sum of the running scores.
    Cumulative,
}

impl Tiebreak {
    /// Every tie-break.
    pub const ALL: [Tiebreak; 8] = [
        Tiebreak::SonnebornBerger,
        Tiebreak::Sos,
        Tiebreak::Sosos,
        Tiebreak::Sodos,
        Tiebreak::Median,
        Tiebreak::DirectEncounter,
        Tiebreak::Wins,
        Tiebreak::Cumulative,
    ];

    /// The key in the JSON API: `sb`, `sos`, `sosos`, `sodos`, `median`,
    /// `direct`, `wins`, `cumulative`.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Tiebreak::SonnebornBerger => "sb",
            Tiebreak::Sos => "sos",
            Tiebreak::Sosos => "sosos",
            Tiebreak::Sodos => "sodos",
            Tiebreak::Median => "median",
            Tiebreak::DirectEncounter => "direct",
            Tiebreak::Wins => "wins",
            Tiebreak::Cumulative => "cumulative",
        }
    }

    /// The tie-break of a key.
    #[must_use]
    pub fn from_key(key: &str) -> Option<Tiebreak> {
        Tiebreak::ALL.into_iter().find(|t| t.key() == key)
    }
}

/// A player's place.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// 1-based; players level on points and every tie-break share a rank.
    pub rank: u32,
    /// Who.
    pub player: PlayerId,
    /// Points (with the McMahon start score, in McMahon).
    pub points: Points,
    /// The tie-breaks' values, in the order asked.
    pub tiebreaks: Vec<f64>,
}

/// The standings after every result entered so far, best first.
#[must_use]
pub fn standings(event: &Event, order: &[Tiebreak]) -> Vec<Standing> {
    let _ = (event, order);
    todo!("helper P2")
}
