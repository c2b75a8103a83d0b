//! Saved review annotations (comments and variations) of a game or an
//! imported record, stored as the JSON tree of [`Annotations`].

use sqlx::Row;

use super::store::{corrupt, ms, Store};
use crate::review::annotated::Annotations;

impl Store {
    /// The annotations saved for `id`, if any.
    ///
    /// # Errors
    /// The database refused the query, or the stored tree does not read back.
    pub async fn annotations(&self, id: &str) -> Result<Option<Annotations>, sqlx::Error> {
        let row = sqlx::query("SELECT tree FROM annotations WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.reader)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let tree: String = row.try_get("tree")?;
        serde_json::from_str(&tree)
            .map(Some)
            .map_err(|e| corrupt(format!("annotations of {id}: {e}")))
    }

    /// Saves (or replaces) the annotations of `id`.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn save_annotations(
        &self,
        id: &str,
        ann: &Annotations,
        updated_at_ms: u64,
    ) -> Result<(), sqlx::Error> {
        let tree = serde_json::to_string(ann).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        sqlx::query(
            "INSERT INTO annotations (id, updated_at, tree) VALUES ($1, $2, $3)
             ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at, tree = excluded.tree",
        )
        .bind(id)
        .bind(ms(updated_at_ms))
        .bind(tree)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
