//! The values of a game's analysis: one position's evaluation ([`Eval`])
//! and where the analysis stands ([`AnalysisStatus`]), as `db` stores them
//! and `GET /api/games/{id}/analysis` shows them.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The evaluation of one position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Eval {
    /// The position after this many moves.
    pub ply: usize,
    /// Sente's view, centipawns (±10000 for a mate).
    pub score_cp: i32,
    /// Plies to mate, positive when Sente mates.
    pub mate: Option<i32>,
    /// The engine's move in USI (`null` when there is no legal move).
    pub best_move: Option<String>,
}

/// Where an analysis stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AnalysisStatus {
    /// Never asked for.
    None,
    /// Waiting for the worker.
    Queued,
    /// Being evaluated.
    Running,
    /// Every position evaluated.
    Done,
}

impl AnalysisStatus {
    /// The JSON word.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            AnalysisStatus::None => "none",
            AnalysisStatus::Queued => "queued",
            AnalysisStatus::Running => "running",
            AnalysisStatus::Done => "done",
        }
    }
}

impl FromStr for AnalysisStatus {
    type Err = ();
    fn from_str(s: &str) -> Result<AnalysisStatus, ()> {
        [
            AnalysisStatus::None,
            AnalysisStatus::Queued,
            AnalysisStatus::Running,
            AnalysisStatus::Done,
        ]
        .into_iter()
        .find(|a| a.name() == s)
        .ok_or(())
    }
}
