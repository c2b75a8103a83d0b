//! The dedupe key that finds a record already in the archive: the same
//! start position, the same main line and the same two players, whether it
//! was imported or played here.
//!
//! The key is the lower-case hex SHA-256 of four fields, each written as its
//! length in bytes (decimal), `:`, its UTF-8 bytes and `\n`, in this order:
//! the start position as SFEN without its move number (board, side to move,
//! hands: a handicap written as a name and the same position written as SFEN
//! agree), the main line's moves in USI separated by single spaces, Sente's
//! name and Gote's name. A name is normalised as NFKC, trimmed and in Unicode
//! lower case; a missing name is empty. Comments, variations, times, the
//! ending and the other headers do not count. For an imported record the
//! main line is the file's (annotations that change it later do not change
//! the key); for a game played here it is the record `review::records`
//! builds of it (seat names as its downloads write them: `AI 3`,
//! `bob (guest)`).

use sha2::{Digest, Sha256};
use shogi_record::Record;
use unicode_normalization::UnicodeNormalization;

use crate::db::Store;
use crate::error::Error;

/// A player's name as the key compares it.
fn name_part(name: Option<&str>) -> String {
    name.map(|n| n.nfkc().collect::<String>().trim().to_lowercase())
        .unwrap_or_default()
}

/// The dedupe key of a record's start, main line and players.
#[must_use]
pub fn key(rec: &Record) -> String {
    let sfen = rec.start.to_sfen();
    let position: Vec<&str> = sfen.split(' ').take(3).collect();
    let moves: Vec<String> = rec.moves.iter().map(|n| n.mv.to_string()).collect();
    let fields = [
        position.join(" "),
        moves.join(" "),
        name_part(rec.headers.sente.as_deref()),
        name_part(rec.headers.gote.as_deref()),
    ];
    let mut hash = Sha256::new();
    for field in &fields {
        hash.update(format!("{}:", field.len()).as_bytes());
        hash.update(field.as_bytes());
        hash.update(b"\n");
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// How many rows one pass of a fill reads.
pub(crate) const FILL_BATCH: i64 = 200;

/// Computes the key (and the strategy tags, [`super::strategy`]) of every
/// imported record that has none (imported before migration 18, or before
/// 21, which asked for them all again), at start-up. A record that no longer reads gets
/// an empty key (it is never found as a duplicate).
///
/// # Errors
/// Database errors.
pub async fn fill_records(store: &Store) -> Result<usize, Error> {
    let mut done = 0;
    loop {
        let rows = store.records_without_key(FILL_BATCH).await?;
        if rows.is_empty() {
            return Ok(done);
        }
        for (id, source) in &rows {
            let (key, tags) = match shogi_record::read(source) {
                Ok(rec) => (key(&rec), super::strategy::tags_text(&rec.strategy())),
                Err(e) => {
                    tracing::warn!("record {id} no longer reads, it gets no dedupe key: {e}");
                    (String::new(), String::new())
                }
            };
            store.set_record_key(id, &key, &tags).await?;
            done += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Record {
        shogi_record::read(text.as_bytes()).unwrap()
    }

    #[test]
    fn the_same_moves_and_players_give_the_same_key_in_any_format() {
        let kif = "先手：Алиса\n後手：Bob\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
        let csa = "N+алиса\nN-BOB \nPI\n+\n+7776FU\n-3334FU\n";
        assert_eq!(key(&read(kif)), key(&read(csa)));
        let other = "N+алиса\nN-Carol\nPI\n+\n+7776FU\n-3334FU\n";
        assert_ne!(key(&read(kif)), key(&read(other)));
        let shorter = "N+алиса\nN-Bob\nPI\n+\n+7776FU\n";
        assert_ne!(key(&read(csa)), key(&read(shorter)));
        assert_eq!(key(&read(csa)).len(), 64);
    }

    #[test]
    fn names_compare_in_nfkc_lower_case() {
        assert_eq!(name_part(Some(" ＡＬＩＣＥ ")), "alice");
        assert_eq!(name_part(None), "");
    }
}
