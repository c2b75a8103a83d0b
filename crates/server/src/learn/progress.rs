//! The learn pages' progress of an account (`GET`/`PUT /api/me/learn`): the
//! exercises of the course it has solved. The course itself is data,
//! `web/src/learn/lessons/lessons.json`, embedded here only to know its exercise
//! ids, so that an account stores nothing else.
//!
//! ```
//! use shogi_server::learn::progress::{exercise_ids, is_exercise};
//! assert!(exercise_ids().len() >= 15);
//! assert!(!is_exercise("no-such-exercise"));
//! ```

use std::collections::BTreeSet;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::db::Store;
use crate::error::Error;

/// The largest `PUT /api/me/learn` body.
pub const MAX_PROGRESS_BYTES: usize = 8 * 1024;

/// The course, as the client bundles it.
const LESSONS_JSON: &str = include_str!("../../../../web/src/learn/lessons/lessons.json");

/// Only the ids of the course file.
#[derive(Deserialize)]
struct Course {
    lessons: Vec<LessonIds>,
}

#[derive(Deserialize)]
struct LessonIds {
    exercises: Vec<ExerciseId>,
}

#[derive(Deserialize)]
struct ExerciseId {
    id: String,
}

/// Every exercise id of the course (empty if the embedded file did not read,
/// which the tests rule out).
#[must_use]
pub fn exercise_ids() -> &'static BTreeSet<String> {
    static IDS: OnceLock<BTreeSet<String>> = OnceLock::new();
    IDS.get_or_init(|| {
        serde_json::from_str::<Course>(LESSONS_JSON)
            .map(|c| {
                c.lessons
                    .into_iter()
                    .flat_map(|l| l.exercises)
                    .map(|e| e.id)
                    .collect()
            })
            .unwrap_or_default()
    })
}

/// Whether `id` names an exercise of the course.
#[must_use]
pub fn is_exercise(id: &str) -> bool {
    exercise_ids().contains(id)
}

/// An account's progress: the exercises solved, in id order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    /// Exercise ids.
    pub done: Vec<String>,
}

/// The progress of `user_id`.
///
/// # Errors
/// [`Error::Internal`] if the database failed.
pub async fn progress(store: &Store, user_id: i64) -> Result<Progress, Error> {
    let done = store.learn_done(user_id).await?;
    Ok(Progress {
        done: done.into_iter().map(|(id, _)| id).collect(),
    })
}

/// Adds `more` to the progress of `user_id` (solved exercises stay solved)
/// and returns the whole.
///
/// # Errors
/// [`Error::BadRequest`] naming the first id that is no exercise of the
/// course (nothing is stored then); [`Error::Internal`] if the database failed.
pub async fn merge(
    store: &Store,
    user_id: i64,
    more: &Progress,
    now_ms: u64,
) -> Result<Progress, Error> {
    if let Some(bad) = more.done.iter().find(|id| !is_exercise(id)) {
        let shown: String = bad.chars().take(40).collect();
        return Err(Error::BadRequest(format!("no such exercise: {shown}")));
    }
    let mut ids = more.done.clone();
    ids.sort();
    ids.dedup();
    store.add_learn_done(user_id, &ids, now_ms).await?;
    progress(store, user_id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_course_reads_and_its_ids_are_unique() {
        let course: serde_json::Value = serde_json::from_str(LESSONS_JSON).unwrap();
        let all: Vec<&str> = course["lessons"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|l| l["exercises"].as_array().unwrap())
            .map(|e| e["id"].as_str().unwrap())
            .collect();
        assert_eq!(all.len(), exercise_ids().len(), "duplicate exercise ids");
        assert!(is_exercise(all[0]));
    }
}
