//! Secrets the instances share (table `server_secrets`): made by the first
//! instance that asks for one, read by every other.

use super::store::Store;

impl Store {
    /// The secret named `name`, storing `fresh` as it if there is none yet
    /// (two instances asking at once both get the one stored first).
    ///
    /// # Errors
    /// The database refused it.
    pub async fn secret(&self, name: &str, fresh: &str) -> Result<String, sqlx::Error> {
        sqlx::query(
            "INSERT INTO server_secrets (name, secret) VALUES ($1, $2)
             ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(fresh)
        .execute(&self.pool)
        .await?;
        sqlx::query_scalar("SELECT secret FROM server_secrets WHERE name = $1")
            .bind(name)
            .fetch_one(&self.pool)
            .await
    }
}
