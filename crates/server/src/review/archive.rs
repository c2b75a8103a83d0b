//! The archive: finished games and imported records in one list, filtered
//! by player and result, newest first. The query is checked here and becomes
//! a typed [`ArchiveFilter`] that the store pages through.

use serde::Deserialize;
use serde_json::{json, Value};

pub use crate::db::archive::{ArchiveEntry, ArchiveFilter, EntryKind, ResultFilter};
use crate::db::Store;
use crate::error::Error;
use crate::game::Side;

/// The most archive entries on one page.
pub const MAX_PER_PAGE: usize = 100;
/// Entries on a page when the query does not say.
pub const DEFAULT_PER_PAGE: usize = 20;

/// The `GET /api/archive` query.
#[derive(Debug, Default, Deserialize)]
pub struct ArchiveQuery {
    /// A part of either player's name (case-insensitive).
    pub player: Option<String>,
    /// `sente`, `gote` or `draw` (no winner).
    pub result: Option<String>,
    /// A strategy tag's id (`mino`, `fourth_file_rook`, `yagura`...;
    /// docs/STRATEGY.md): games with it on either side or as their line.
    pub strategy: Option<String>,
    /// 1-based page.
    pub page: Option<usize>,
    /// Entries per page (1..=100, default 20).
    pub per_page: Option<usize>,
}

impl ArchiveQuery {
    /// The filter this query asks for.
    ///
    /// # Errors
    /// [`Error::BadRequest`] naming the bad parameter.
    pub fn filter(&self) -> Result<ArchiveFilter, Error> {
        let bad = |m: String| Error::BadRequest(m);
        let per_page = self.per_page.unwrap_or(DEFAULT_PER_PAGE);
        if !(1..=MAX_PER_PAGE).contains(&per_page) {
            return Err(bad(format!("per_page must be 1..={MAX_PER_PAGE}")));
        }
        let page = self.page.unwrap_or(1);
        if page == 0 {
            return Err(bad("page starts at 1".into()));
        }
        let result = match self.result.as_deref().filter(|r| !r.is_empty()) {
            None => None,
            Some("sente") => Some(ResultFilter::Won(Side::Sente)),
            Some("gote") => Some(ResultFilter::Won(Side::Gote)),
            Some("draw") => Some(ResultFilter::Draw),
            Some(_) => return Err(bad("result must be sente, gote or draw".into())),
        };
        let player = self
            .player
            .as_deref()
            .map(|p| p.trim().to_lowercase())
            .filter(|p| !p.is_empty());
        let strategy = match self.strategy.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(id) if super::strategy::is_tag(id) => Some(id.to_owned()),
            Some(_) => return Err(bad("strategy must be a tag id of docs/STRATEGY.md".into())),
        };
        Ok(ArchiveFilter {
            player,
            result,
            user: None,
            strategy,
            offset: (page - 1).saturating_mul(per_page),
            limit: per_page,
        })
    }
}

/// One page of the archive as the JSON of `GET /api/archive`.
///
/// # Errors
/// [`Error::BadRequest`] for a bad query; database errors.
pub async fn page(store: &Store, q: &ArchiveQuery) -> Result<Value, Error> {
    let filter = q.filter()?;
    if filter.strategy.is_some() {
        // Games are tagged with their dedupe key once over: those finished
        // since the last look-up are tagged first (one indexed query when
        // there are none).
        super::records::fill_game_keys(store).await?;
    }
    listing(store, &filter).await
}

/// The page `filter` asks for, as the JSON of `GET /api/archive` (also a
/// player's games, with [`ArchiveFilter::user`] set).
///
/// # Errors
/// Database errors.
pub async fn listing(store: &Store, filter: &ArchiveFilter) -> Result<Value, Error> {
    let (total, entries) = store.archive(filter).await?;
    Ok(json!({
        "total": total,
        "page": filter.offset / filter.limit + 1,
        "per_page": filter.limit,
        "entries": entries,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_becomes_a_typed_filter() {
        let q = ArchiveQuery {
            player: Some("  Алиса ".into()),
            result: Some("gote".into()),
            strategy: Some("mino".into()),
            page: Some(3),
            per_page: Some(10),
        };
        assert_eq!(
            q.filter().unwrap(),
            ArchiveFilter {
                player: Some("алиса".into()),
                result: Some(ResultFilter::Won(Side::Gote)),
                user: None,
                strategy: Some("mino".into()),
                offset: 20,
                limit: 10,
            }
        );
        let bad = ArchiveQuery {
            result: Some("black".into()),
            ..ArchiveQuery::default()
        };
        assert!(bad.filter().is_err());
        let zero = ArchiveQuery {
            page: Some(0),
            ..ArchiveQuery::default()
        };
        assert!(zero.filter().is_err());
        let unknown = ArchiveQuery {
            strategy: Some("mino' OR 1=1 --".into()),
            ..ArchiveQuery::default()
        };
        assert!(unknown.filter().is_err());
    }
}
