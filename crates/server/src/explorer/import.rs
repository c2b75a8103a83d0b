//! Importing many records into a collection at once (`shogi db import`,
//! `POST /api/collections/{name}/import`): files, folders' files and the
//! files inside ZIP archives, read in parallel, written in large
//! transactions, duplicates skipped, each unreadable file reported with
//! its line and column.

use std::io::Read as _;
use std::sync::Arc;

use crate::db::explorer::Entry;
use crate::db::Store;
use crate::error::Error;
use crate::review::records::MAX_IMPORT_BYTES;
use crate::token;

use super::zip_names;

/// One record file to import: its name (for reports) and its bytes.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Where it came from (`archive.zip/games/1.kif`).
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// The most files one ZIP archive may hold.
pub const MAX_ZIP_FILES: usize = 2_000_000;

/// The most bytes a ZIP archive may expand to.
pub const MAX_ZIP_BYTES: u64 = 8 * 1024 * 1024 * 1024;

/// A ZIP archive that does not read.
#[derive(Debug, thiserror::Error)]
pub enum ZipError {
    /// Not a ZIP archive, or a broken one.
    #[error("{name}: not a readable ZIP archive: {reason}")]
    Unreadable {
        /// The archive's name.
        name: String,
        /// What the reader said.
        reason: String,
    },
    /// More files or bytes than allowed.
    #[error("{name}: more than {MAX_ZIP_FILES} files or {MAX_ZIP_BYTES} bytes")]
    TooBig {
        /// The archive's name.
        name: String,
    },
}

/// Whether `bytes` start like a ZIP archive.
#[must_use]
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// The record files inside ZIP archive `bytes` called `name` (folders and
/// files over [`MAX_IMPORT_BYTES`] are left out; the second list names the
/// files left out for their size).
///
/// # Errors
/// [`ZipError`] for an archive that does not read or is too big.
pub fn expand_zip(name: &str, bytes: &[u8]) -> Result<(Vec<SourceFile>, Vec<String>), ZipError> {
    let unreadable = |e: zip::result::ZipError| ZipError::Unreadable {
        name: name.to_owned(),
        reason: e.to_string(),
    };
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(unreadable)?;
    if archive.len() > MAX_ZIP_FILES {
        return Err(ZipError::TooBig {
            name: name.to_owned(),
        });
    }
    let mut files = Vec::with_capacity(archive.len());
    let mut too_big = Vec::new();
    let mut total: u64 = 0;
    for i in 0..archive.len() {
        let mut f = archive.by_index(i).map_err(unreadable)?;
        if f.is_dir() {
            continue;
        }
        let inner = format!("{name}/{}", zip_names::member_name(f.name_raw(), f.name()));
        if f.size() > MAX_IMPORT_BYTES as u64 {
            too_big.push(inner);
            continue;
        }
        total = total.saturating_add(f.size());
        if total > MAX_ZIP_BYTES {
            return Err(ZipError::TooBig {
                name: name.to_owned(),
            });
        }
        let mut out = Vec::with_capacity(usize::try_from(f.size()).unwrap_or(0));
        // The size in the header may lie: read one byte past the limit at most.
        (&mut f)
            .take(MAX_IMPORT_BYTES as u64 + 1)
            .read_to_end(&mut out)
            .map_err(|e| ZipError::Unreadable {
                name: inner.clone(),
                reason: e.to_string(),
            })?;
        if out.len() > MAX_IMPORT_BYTES {
            too_big.push(inner);
            continue;
        }
        files.push(SourceFile {
            name: inner,
            bytes: out,
        });
    }
    Ok((files, too_big))
}

/// A file that did not import, and why (`line:column: message` for a
/// record that does not read).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Refused {
    /// The file's name.
    pub file: String,
    /// Why, in English words (for the terminal).
    pub problem: String,
    /// Why, as a code a page words in its reader's language: the record
    /// reader's reasons (`bad_move`, `unknown_format`... as in an
    /// `unreadable_record` error), or `empty_file`, `too_large` (over
    /// [`MAX_IMPORT_BYTES`]), `unreadable_file` (the file system's error).
    pub reason: &'static str,
    /// The text that does not read, for a record that does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The line of the token that does not read (from 1), if it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Its column (from 1, in characters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

impl Refused {
    /// A file refused as a whole (not at a place in it).
    #[must_use]
    pub fn whole(file: String, reason: &'static str, problem: String) -> Refused {
        Refused {
            file,
            problem,
            reason,
            token: None,
            line: None,
            column: None,
        }
    }

    /// A file larger than [`MAX_IMPORT_BYTES`].
    #[must_use]
    pub fn too_large(file: String) -> Refused {
        Refused::whole(
            file,
            "too_large",
            format!("larger than {MAX_IMPORT_BYTES} bytes"),
        )
    }
}

/// How an import is going.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Progress {
    /// Files to read.
    pub files: usize,
    /// Files read so far.
    pub done: usize,
    /// Games added.
    pub added: usize,
    /// Games skipped: the collection had them already (same start, moves
    /// and players), or the same upload had them twice.
    pub duplicates: usize,
    /// Files that did not read.
    pub unreadable: Vec<Refused>,
    /// Bytes read so far.
    pub bytes: u64,
    /// Moves in the games read so far.
    pub moves: u64,
    /// The import is over.
    pub finished: bool,
}

/// A file to import: its bytes, or a path read when its batch is.
#[derive(Clone, Debug)]
pub enum Input {
    /// Bytes already read (an upload, a ZIP archive's member).
    Bytes(SourceFile),
    /// A file on disk (`shogi db import`).
    Path(std::path::PathBuf),
}

impl From<SourceFile> for Input {
    fn from(f: SourceFile) -> Input {
        Input::Bytes(f)
    }
}

/// Files read and written per transaction.
pub const BATCH: usize = 2000;

/// Reads `files` on every core: the entries of those that read, the
/// refusals of those that do not, and the bytes read.
fn read_batch(files: &[Input]) -> (Vec<Entry>, Vec<Refused>, u64) {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let per = files.len().div_ceil(threads).max(1);
    let parts: Vec<Vec<FileRead>> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .chunks(per)
            .map(|chunk| s.spawn(move || chunk.iter().map(read_one).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut entries = Vec::with_capacity(files.len());
    let mut refused = Vec::new();
    let mut bytes = 0;
    for (read, n) in parts.into_iter().flatten() {
        bytes += n;
        for r in read {
            match r {
                Ok(e) => entries.push(e),
                Err(x) => refused.push(x),
            }
        }
    }
    (entries, refused, bytes)
}

/// What one input gave: the entries of its records (a file may hold
/// several), or why one of them or the file does not read; and its size.
type FileRead = (Vec<Result<Entry, Refused>>, u64);

/// Reads one input.
fn read_one(input: &Input) -> FileRead {
    match input {
        Input::Bytes(f) => (read_file(f), f.bytes.len() as u64),
        Input::Path(path) => {
            let name = path.display().to_string();
            match std::fs::read(path) {
                Ok(bytes) => {
                    let n = bytes.len() as u64;
                    (read_file(&SourceFile { name, bytes }), n)
                }
                Err(e) => (
                    vec![Err(Refused::whole(name, "unreadable_file", e.to_string()))],
                    0,
                ),
            }
        }
    }
}

/// The entries of one file's records (a CSA file may hold several, see
/// [`shogi_record::read_each`]), each kept with its own bytes, or why a
/// record or the file does not read.
fn read_file(f: &SourceFile) -> Vec<Result<Entry, Refused>> {
    if f.bytes.is_empty() {
        return vec![Err(Refused::whole(
            f.name.clone(),
            "empty_file",
            "empty file".into(),
        ))];
    }
    if f.bytes.len() > MAX_IMPORT_BYTES {
        return vec![Err(Refused::too_large(f.name.clone()))];
    }
    shogi_record::read_each(&f.bytes)
        .into_iter()
        .map(|(bytes, read)| {
            let rec = read.map_err(|e| Refused {
                file: f.name.clone(),
                problem: e.to_string(),
                reason: e.kind.code(),
                token: Some(e.token.clone()).filter(|t| !t.is_empty()),
                line: Some(e.line),
                column: Some(e.column),
            })?;
            Ok(super::entry::of_record(token::new_game_id(), bytes, &rec))
        })
        .collect()
}

/// The positions `shogi db import` gathers before it writes them, in one
/// transaction and in key order: about 80,000 games. Once the explorer's
/// tables outgrow memory, each transaction rewrites most of their pages
/// whatever its size, so fewer, larger ones write less (docs/EXPLORER.md).
pub const BULK_WRITE_POSITIONS: usize = 8_000_000;

/// Imports `files` into collection `collection`: reads a batch of
/// [`BATCH`] files on every core while the one before is written; the
/// games read are written once they reach `write_positions` positions (0:
/// each batch as it is read), one transaction each; calls `progress` after
/// each batch read and each write (and once at the end, `finished`).
///
/// # Errors
/// Database errors (the transactions written before stay).
pub async fn import(
    store: &Store,
    collection: i64,
    files: Vec<Input>,
    write_positions: usize,
    mut progress: impl FnMut(&Progress),
) -> Result<Progress, Error> {
    let mut state = Progress {
        files: files.len(),
        ..Progress::default()
    };
    progress(&state);
    let files = Arc::new(files);
    let batches = files.len().div_ceil(BATCH);
    let read = |k: usize| {
        let files = Arc::clone(&files);
        tokio::task::spawn_blocking(move || {
            let part = &files[k * BATCH..((k + 1) * BATCH).min(files.len())];
            let (entries, refused, bytes) = read_batch(part);
            (part.len(), bytes, entries, refused)
        })
    };
    let mut next = (batches > 0).then(|| read(0));
    let mut k = 0;
    let mut pending: Vec<Entry> = Vec::new();
    let mut pending_positions = 0;
    while let Some(reading) = next.take() {
        let (count, bytes, entries, refused) = reading
            .await
            .map_err(|e| Error::Internal(format!("reading records: {e}")))?;
        k += 1;
        if k < batches {
            next = Some(read(k));
        }
        state.done += count;
        state.bytes += bytes;
        state.moves += entries.iter().map(|e| u64::from(e.plies)).sum::<u64>();
        state.unreadable.extend(refused);
        pending_positions += entries.iter().map(|e| e.positions.len()).sum::<usize>();
        pending.extend(entries);
        if pending_positions >= write_positions || k == batches {
            let added = store.add_to_collection(collection, &pending, false).await?;
            state.added += added;
            state.duplicates += pending.len() - added;
            pending.clear();
            pending_positions = 0;
        }
        progress(&state);
    }
    state.finished = true;
    progress(&state);
    Ok(state)
}
