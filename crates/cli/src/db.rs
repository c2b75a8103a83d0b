//! `shogi db import`, `shogi db stats` and `shogi explore`: thin calls into
//! `shogi_server::explorer` on a database (docs/EXPLORER.md).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use shogi_server::db::explorer::{GameFilter, Order, Outcome, Privacy};
use shogi_server::db::Store;
use shogi_server::explorer::import::{self, Input, Progress};
use shogi_server::explorer::{collection, query};
use shogi_server::ratings::TimeClass;

use crate::args::{DbCommand, DbImportArgs, ExploreArgs};
use crate::CliError;

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError(format!("cannot start the runtime: {e}")))
}

async fn open(db: &shogi_server::Location) -> Result<Store, CliError> {
    Store::open(db)
        .await
        .map_err(|e| CliError(format!("cannot open {db}: {e}")))
}

/// Runs one `shogi db` command.
pub fn run(c: &DbCommand) -> Result<(), CliError> {
    match c {
        DbCommand::Import(a) => runtime()?.block_on(import_files(a)),
        DbCommand::Stats(a) => runtime()?.block_on(stats(&a.db)),
        DbCommand::Generate(a) => crate::db_generate::run(a),
    }
}

/// The inputs: files as given, folders' record files and ZIP archives
/// (recursively, sorted), each ZIP's members.
fn inputs(paths: &[PathBuf]) -> Result<(Vec<Input>, Vec<import::Refused>), CliError> {
    let found = crate::convert::collect_inputs(paths, |p| {
        is_zip_name(p) || crate::convert::is_record_file(p)
    })?;
    let mut out = Vec::with_capacity(found.len());
    let mut refused = Vec::new();
    for p in found {
        if is_zip_name(&p) {
            let bytes = std::fs::read(&p).map_err(|e| CliError(format!("{}: {e}", p.display())))?;
            let (files, too_big) = import::expand_zip(&p.display().to_string(), &bytes)
                .map_err(|e| CliError(e.to_string()))?;
            out.extend(files.into_iter().map(Input::Bytes));
            refused.extend(too_big.into_iter().map(import::Refused::too_large));
        } else {
            out.push(Input::Path(p));
        }
    }
    Ok((out, refused))
}

fn is_zip_name(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
}

/// `FILE:LINE:COLUMN: message` of a file that did not import.
fn refusal_line(r: &import::Refused) -> String {
    match (r.line, r.column) {
        (Some(l), Some(c)) => {
            let message = r
                .problem
                .split_once(": ")
                .filter(|(head, _)| head.starts_with("line "))
                .map_or(r.problem.as_str(), |(_, m)| m);
            format!("{}:{l}:{c}: {message}", r.file)
        }
        _ => format!("{}: {}", r.file, r.problem),
    }
}

async fn import_files(a: &DbImportArgs) -> Result<(), CliError> {
    collection::check_name(&a.collection).map_err(|e| CliError(e.to_string()))?;
    let (files, mut refused) = inputs(&a.inputs)?;
    let store = open(&a.db.db).await?;
    let c = match store
        .collection(&a.collection)
        .await
        .map_err(|e| CliError(e.to_string()))?
    {
        Some(c) => c,
        None => {
            let privacy = if a.private {
                Privacy::Private
            } else {
                Privacy::Public
            };
            let owner = match &a.owner {
                Some(name) => Some(
                    store
                        .profile_user(&shogi_server::accounts::name_key(name))
                        .await
                        .map_err(|e| CliError(e.to_string()))?
                        .ok_or_else(|| CliError(format!("no account {name:?}")))?
                        .user,
                ),
                None => None,
            };
            let c = collection::create(&store, None, &a.collection, privacy, None)
                .await
                .map_err(|e| CliError(e.to_string()))?;
            if let Some(id) = owner {
                store
                    .set_collection_owner(c.id, id)
                    .await
                    .map_err(|e| CliError(e.to_string()))?;
            }
            c
        }
    };
    if c.id == shogi_server::db::explorer::SITE {
        return Err(CliError(
            "the site collection takes only the games played here".into(),
        ));
    }
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(files.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40.cyan/blue} {pos}/{len} files {per_sec} eta {eta} {wide_msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let started = Instant::now();
    let show = |p: &Progress| {
        bar.set_position(p.done as u64);
        bar.set_message(format!("{} added, {} duplicates", p.added, p.duplicates));
    };
    let done = import::import(&store, c.id, files, import::BULK_WRITE_POSITIONS, show)
        .await
        .map_err(|e| CliError(format!("import stopped: {e}")))?;
    bar.finish_and_clear();
    store.close().await;
    refused.extend(done.unreadable.iter().cloned());
    for r in &refused {
        eprintln!("shogi: {}", refusal_line(r));
    }
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    out!(
        "{} games added to {} ({} duplicates, {} unreadable) from {} files, {:.1} MB, in {:.1} s: {:.0} games/s, {:.1} MB/s, {:.0} moves/s",
        done.added,
        c.name,
        done.duplicates,
        refused.len(),
        done.files,
        done.bytes as f64 / 1e6,
        secs,
        (done.added + done.duplicates) as f64 / secs,
        done.bytes as f64 / 1e6 / secs,
        done.moves as f64 / secs,
    );
    if refused.is_empty() {
        Ok(())
    } else {
        Err(CliError(format!("{} files did not import", refused.len())))
    }
}

async fn stats(db: &shogi_server::Location) -> Result<(), CliError> {
    let store = open(db).await?;
    let s = store
        .explorer_stats()
        .await
        .map_err(|e| CliError(e.to_string()))?;
    store.close().await;
    out!("database: {db}");
    out!("collections: {}", s.collections.len());
    for c in &s.collections {
        out!(
            "  {:<24} {:<8} {:>10} games",
            c.name,
            c.privacy.name(),
            c.games
        );
    }
    let per = |n: u64| {
        if s.games == 0 {
            0.0
        } else {
            n as f64 / s.games as f64
        }
    };
    out!("games: {}", s.games);
    out!(
        "positions: {} rows ({:.1} a game)",
        s.positions,
        per(s.positions)
    );
    out!(
        "move counts: {} rows ({:.1} a game)",
        s.move_rows,
        per(s.move_rows)
    );
    out!(
        "record files, deflated: {:.1} MB ({:.0} bytes a game)",
        s.source_bytes as f64 / 1e6,
        per(s.source_bytes)
    );
    out!(
        "database: {:.1} MB ({:.0} bytes a game)",
        s.database_bytes as f64 / 1e6,
        per(s.database_bytes)
    );
    Ok(())
}

/// Runs `shogi explore`.
pub fn explore(a: &ExploreArgs) -> Result<(), CliError> {
    runtime()?.block_on(explore_in(a))
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

async fn explore_in(a: &ExploreArgs) -> Result<(), CliError> {
    let time_class = match &a.time_class {
        Some(w) => Some(TimeClass::from_name(w).ok_or_else(|| {
            CliError(format!(
                "--time-class is bullet, blitz, rapid or classical, not {w:?}"
            ))
        })?),
        None => None,
    };
    let store = open(&a.db.db).await?;
    let req = query::ExplorerRequest {
        sfen: a.sfen.clone(),
        collection: a.collection.clone(),
        filter: GameFilter {
            time_class,
            min_rating: a.min_rating,
            max_rating: a.max_rating,
            ..GameFilter::default()
        },
        order: Order::Recent,
        limit: a.games.min(query::MAX_LIMIT),
    };
    let answer = query::explore(&store, None, &req)
        .await
        .map_err(|e| match e {
            shogi_server::Error::NotFound => CliError(format!(
                "no public collection {:?}",
                a.collection.as_deref().unwrap_or_default()
            )),
            e => CliError(e.to_string()),
        });
    store.close().await;
    let answer = answer?;
    out!("position: {}", answer.position.to_sfen());
    out!("games: {}", answer.total);
    out!(
        "{:<8} {:>8} {:>7} {:>7} {:>7} {:>7}  {}",
        "move",
        "games",
        "sente",
        "draw",
        "gote",
        "rating",
        "last played"
    );
    // A record without a date: a dash in the date's column.
    let day = |ms| query::listed_date(ms).unwrap_or_else(|| "-".to_owned());
    for m in &answer.moves {
        let c = &m.counts;
        out!(
            "{:<8} {:>8} {:>7} {:>7} {:>7} {:>7}  {}",
            m.mv.to_string(),
            c.games,
            percent(c.sente_wins, c.games),
            percent(c.draws, c.games),
            percent(c.gote_wins, c.games),
            if c.rated > 0 {
                (c.rating_sum / c.rated as i64).to_string()
            } else {
                "-".into()
            },
            day(c.last_played_ms)
        );
    }
    if answer.ended.games > 0 {
        out!("(ended here: {} games)", answer.ended.games);
    }
    if !answer.games.is_empty() {
        out!("recent games:");
    }
    for g in &answer.games {
        let name = |n: &Option<String>, r: Option<i64>| {
            let n = n.as_deref().unwrap_or("?");
            r.map_or_else(|| n.to_owned(), |r| format!("{n} ({r})"))
        };
        let result = match g.outcome {
            Some(Outcome::SenteWin) => "1-0",
            Some(Outcome::GoteWin) => "0-1",
            Some(Outcome::Draw) => "½-½",
            None => "*",
        };
        out!(
            "  {:<10}  {} - {}  {}  {}",
            day(g.played_at_ms),
            name(&g.sente, g.sente_rating),
            name(&g.gote, g.gote_rating),
            result,
            g.id
        );
    }
    Ok(())
}
