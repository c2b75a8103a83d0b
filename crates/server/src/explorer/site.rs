//! The `site` collection: every finished game played here, added once it
//! is over (before each explorer or search request, and at start-up).

use crate::db::explorer::SITE;
use crate::db::Store;
use crate::error::Error;

/// How many games one pass adds.
const BATCH: i64 = 200;

/// Adds every finished game not yet in the `site` collection; answers how
/// many were added (a game without moves is marked and left out).
///
/// # Errors
/// Database errors.
pub async fn fill(store: &Store) -> Result<usize, Error> {
    let mut added = 0;
    loop {
        let ids = store.games_to_explore(BATCH).await?;
        if ids.is_empty() {
            return Ok(added);
        }
        let mut entries = Vec::with_capacity(ids.len());
        for id in &ids {
            match store.load(id).await? {
                Some(g) => match super::entry::of_game(id, &g) {
                    Some(e) => entries.push(e),
                    None => store.skip_exploring(id).await?,
                },
                None => store.skip_exploring(id).await?,
            }
        }
        added += store.add_to_collection(SITE, &entries, true).await?;
    }
}
