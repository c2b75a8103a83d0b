//! The puzzle set: `data/puzzles.json` embedded at build time, read and
//! checked once. A file that does not read, or a puzzle whose solution does
//! not replay (an illegal move, a mate line that does not mate, a best move
//! that is not legal), is an error that names the puzzle: the server refuses
//! to start with it and the tests fail.
//!
//! ```
//! use shogi_server::puzzles::{Kind, PuzzleSet};
//! let set = PuzzleSet::parse(r#"{"version": 1, "generator": "hand", "puzzles": [
//!   {"id": "m1-0001", "kind": "mate", "sfen": "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
//!    "plies": 1, "solution": ["G*5b"], "rating": 800}]}"#)?;
//! let p = set.get("m1-0001").unwrap();
//! assert_eq!((p.kind, p.plies), (Kind::Mate, 1));
//! # Ok::<_, shogi_server::puzzles::SetError>(())
//! ```

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use serde::Deserialize;
use shogi_core::{Leniency, Move, Position};

/// The embedded puzzle file.
const EMBEDDED: &str = include_str!("../../data/puzzles.json");
/// The only file version read.
const VERSION: u32 = 1;
/// The longest puzzle id.
pub const MAX_ID_BYTES: usize = 32;

/// What a puzzle asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Mate the defender within [`Puzzle::plies`] plies.
    Mate,
    /// Find the one move clearly better than the others.
    Best,
}

impl Kind {
    /// `mate` or `best`, as in the file and the API.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::Mate => "mate",
            Kind::Best => "best",
        }
    }

    /// The kind named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Kind> {
        match name {
            "mate" => Some(Kind::Mate),
            "best" => Some(Kind::Best),
            _ => None,
        }
    }
}

/// One puzzle, checked.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// Its id (`m3-0001`): ASCII letters, digits and `-`.
    pub id: String,
    /// Mate or best move.
    pub kind: Kind,
    /// The position as the file gives it.
    pub sfen: String,
    /// The position, the solver to move.
    pub position: Position,
    /// The solution's length in plies (a mate: the shortest mate's; a best
    /// move: 1).
    pub plies: u32,
    /// The stored solution, the solver's moves and the defender's replies.
    pub solution: Vec<Move>,
    /// The rating the file gives (before any attempt).
    pub rating: f64,
    /// A best-move puzzle: the best move's and the second best's evaluation
    /// (centipawns, the solver's view).
    pub best_cp: Option<i32>,
    /// See [`Puzzle::best_cp`].
    pub second_cp: Option<i32>,
}

/// Why a puzzle file was refused.
#[derive(Debug, thiserror::Error)]
pub enum SetError {
    /// The JSON does not read.
    #[error("puzzles.json: {0}")]
    Json(#[from] serde_json::Error),
    /// The file's version is not the one this build reads (1).
    #[error("puzzles.json: version {0} (expected 1)")]
    Version(u32),
    /// One puzzle is wrong.
    #[error("puzzles.json: puzzle {id:?}: {what}")]
    Puzzle {
        /// The puzzle's id.
        id: String,
        /// What is wrong.
        what: String,
    },
}

/// The file (`docs/PUZZLES.md`); fields the server does not use (the
/// generator's `stats`, a puzzle's `nodes`, `game`, `ply`) are ignored.
#[derive(Deserialize)]
struct File {
    version: u32,
    generator: String,
    puzzles: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    id: String,
    kind: String,
    sfen: String,
    plies: u32,
    solution: Vec<String>,
    rating: f64,
    best_cp: Option<i32>,
    second_cp: Option<i32>,
}

/// Every puzzle, in the file's order, found by id.
#[derive(Debug, Default)]
pub struct PuzzleSet {
    puzzles: Vec<Puzzle>,
    by_id: HashMap<String, usize>,
    generator: String,
}

impl PuzzleSet {
    /// Reads and checks a puzzle file.
    ///
    /// # Errors
    /// The JSON does not read, or a puzzle is wrong ([`SetError`] names it).
    pub fn parse(json: &str) -> Result<PuzzleSet, SetError> {
        let file: File = serde_json::from_str(json)?;
        if file.version != VERSION {
            return Err(SetError::Version(file.version));
        }
        let mut set = PuzzleSet {
            generator: file.generator,
            ..PuzzleSet::default()
        };
        for e in file.puzzles {
            let id = e.id.clone();
            let p = check(e).map_err(|what| SetError::Puzzle {
                id: id.clone(),
                what,
            })?;
            if set.by_id.insert(id.clone(), set.puzzles.len()).is_some() {
                return Err(SetError::Puzzle {
                    id,
                    what: "the id is used twice".into(),
                });
            }
            set.puzzles.push(p);
        }
        Ok(set)
    }

    /// The embedded set, read once.
    ///
    /// # Errors
    /// The embedded file is wrong (the server does not start).
    pub fn embedded() -> Result<Arc<PuzzleSet>, String> {
        static SET: OnceLock<Result<Arc<PuzzleSet>, String>> = OnceLock::new();
        SET.get_or_init(|| {
            PuzzleSet::parse(EMBEDDED)
                .map(Arc::new)
                .map_err(|e| e.to_string())
        })
        .clone()
    }

    /// The puzzle `id`.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&Puzzle> {
        self.by_id.get(id).map(|&i| &self.puzzles[i])
    }

    /// Every puzzle, in the file's order.
    #[must_use]
    pub fn all(&self) -> &[Puzzle] {
        &self.puzzles
    }

    /// What made the set (the file's `generator`).
    #[must_use]
    pub fn generator(&self) -> &str {
        &self.generator
    }
}

/// Whether `id` could be a puzzle id (checked before it is looked up).
#[must_use]
pub fn plausible_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_BYTES
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// One entry checked: the position reads, the solution replays and is what
/// the kind asks for.
fn check(e: Entry) -> Result<Puzzle, String> {
    if !plausible_id(&e.id) {
        return Err("the id must be 1-32 letters, digits, '-' or '_'".into());
    }
    let kind = Kind::from_name(&e.kind).ok_or_else(|| format!("unknown kind {:?}", e.kind))?;
    let position = shogi_core::sfen::parse_position_with(
        &e.sfen,
        Leniency {
            allow_missing_kings: true,
        },
    )
    .map_err(|err| format!("sfen: {err}"))?;
    let solution = e
        .solution
        .iter()
        .map(|m| m.parse::<Move>().map_err(|err| format!("{m:?}: {err}")))
        .collect::<Result<Vec<_>, _>>()?;
    if usize::try_from(e.plies).ok() != Some(solution.len()) {
        return Err(format!(
            "plies {} but {} moves in the solution",
            e.plies,
            solution.len()
        ));
    }
    if !e.rating.is_finite() || !(0.0..=4000.0).contains(&e.rating) {
        return Err(format!("rating {} out of 0..=4000", e.rating));
    }
    match kind {
        Kind::Mate => {
            if !shogi_engine::dfpn::verify_mate_line(&position, &solution) {
                return Err("the solution is not a mate by checks".into());
            }
        }
        Kind::Best => {
            if solution.len() != 1 || !position.is_legal(solution[0]) {
                return Err("a best-move puzzle needs one legal move".into());
            }
        }
    }
    Ok(Puzzle {
        id: e.id,
        kind,
        sfen: e.sfen,
        position,
        plies: e.plies,
        solution,
        rating: e.rating,
        best_cp: e.best_cp,
        second_cp: e.second_cp,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = r#"{"version": 1, "generator": "t", "puzzles": ["#;

    fn one(entry: &str) -> Result<PuzzleSet, SetError> {
        PuzzleSet::parse(&format!("{HEAD}{entry}]}}"))
    }

    #[test]
    fn the_embedded_set_reads_and_every_kind_is_there() {
        let set = PuzzleSet::embedded().unwrap();
        assert!(set.all().iter().any(|p| p.kind == Kind::Mate));
        assert!(set.all().iter().any(|p| p.kind == Kind::Best));
    }

    #[test]
    fn a_mate_that_does_not_mate_is_refused_with_its_id() {
        let e = one(
            r#"{"id": "x", "kind": "mate", "sfen": "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
                "plies": 1, "solution": ["G*4b"], "rating": 900}"#,
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("puzzle \"x\": the solution is not a mate"),
            "{e}"
        );
    }

    #[test]
    fn plies_must_match_the_solution_and_ids_be_unique() {
        let m1 = r#"{"id": "a", "kind": "mate", "sfen": "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
                "plies": 1, "solution": ["G*5b"], "rating": 900}"#;
        assert!(one(m1).is_ok());
        assert!(one(&m1.replace("\"plies\": 1", "\"plies\": 3"))
            .unwrap_err()
            .to_string()
            .contains("plies 3 but 1 moves"));
        let e = PuzzleSet::parse(&format!("{HEAD}{m1},{m1}]}}")).unwrap_err();
        assert!(e.to_string().contains("used twice"), "{e}");
        assert!(one(&m1.replace("\"a\"", "\"a b\"")).is_err());
    }

    #[test]
    fn another_version_is_refused() {
        let e = PuzzleSet::parse(r#"{"version": 2, "generator": "t", "puzzles": []}"#).unwrap_err();
        assert!(matches!(e, SetError::Version(2)));
    }
}
