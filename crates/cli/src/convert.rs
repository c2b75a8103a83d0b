//! `shogi convert`: records from one format to another, one file or many.

use std::collections::HashSet;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use shogi_record::{Encoding, Format, ReadError, Record};

use crate::args::{ConvertArgs, EncodingArg, FormatArg};
use crate::CliError;

/// File name endings taken from a folder given as input.
const RECORD_EXTENSIONS: [&str; 11] = [
    "kif", "kifu", "ki2", "ki2u", "csa", "jkf", "json", "usi", "usen", "sfen", "txt",
];

fn format(f: FormatArg) -> Format {
    match f {
        FormatArg::Kif => Format::Kif,
        FormatArg::Ki2 => Format::Ki2,
        FormatArg::Csa => Format::Csa,
        FormatArg::Jkf => Format::Jkf,
        FormatArg::Usen => Format::Usen,
        FormatArg::Usi => Format::Usi,
    }
}

/// The main line as one USI line without `position` and without an ending word:
/// `startpos moves 7g7f 3c3d` or `sfen SFEN moves ...` (`startpos` alone without moves).
#[must_use]
pub fn usi_line(rec: &Record) -> String {
    let mut s = if rec.start == shogi_core::Position::startpos() {
        "startpos".to_string()
    } else {
        format!("sfen {}", rec.start.to_sfen())
    };
    if !rec.moves.is_empty() {
        s.push_str(" moves");
        for n in &rec.moves {
            s.push(' ');
            s.push_str(&n.mv.to_string());
        }
    }
    s
}

/// The output bytes of `rec` in `to`.
fn render(rec: &Record, to: FormatArg, enc: Encoding) -> Vec<u8> {
    let mut out = if to == FormatArg::Usi {
        usi_line(rec).into_bytes()
    } else {
        shogi_record::write_bytes(rec, format(to), enc)
    };
    if !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    out
}

/// The one-line message for an unreadable input.
fn read_error_line(name: &str, e: &ReadError) -> String {
    format!(
        "{name}:{}:{}: {} at {:?}",
        e.line.max(1),
        e.column.max(1),
        e.kind,
        e.token
    )
}

/// The one-line warning for a record cut at an illegal move, if it has one.
fn illegal_warning(name: &str, rec: &Record) -> Option<String> {
    let info = rec.illegal_move.as_ref()?;
    Some(format!(
        "warning: {name}: move {} ({}) is not playable: {}; converted the first {} moves",
        info.ply,
        info.text,
        info.problem,
        rec.moves.len()
    ))
}

/// Each record of `bytes` ([`shogi_record::read_each`]): a CSA file may
/// hold several (a line holding only `/` between them), a USI file one game
/// a line, a KIF or KI2 file one game after another.
fn parse_each(bytes: &[u8], from: Option<FormatArg>, name: &str) -> Vec<Result<Record, CliError>> {
    let each = match from {
        Some(f) => shogi_record::read_each_as(bytes, format(f)),
        None => shogi_record::read_each(bytes),
    };
    // The record crate decides what is a record: text with none of one in it
    // (no move, board, ending or known header) is an error at its first line.
    each.into_iter()
        .map(|(_, r)| r.map_err(|e| CliError(read_error_line(name, &e))))
        .collect()
}

/// Runs `shogi convert`.
pub fn run(a: &ConvertArgs) -> Result<(), CliError> {
    let enc = match a.encoding {
        EncodingArg::Utf8 => Encoding::Utf8,
        EncodingArg::Sjis => Encoding::ShiftJis,
    };
    let from_stdin = a.inputs.is_empty() || a.inputs.iter().any(|p| p.as_os_str() == "-");
    if from_stdin && a.inputs.len() > 1 {
        return Err(CliError(
            "stdin (`-`) can only be converted on its own".into(),
        ));
    }
    let batch = !from_stdin
        && (a.inputs.len() > 1
            || a.inputs.iter().any(|p| p.is_dir())
            || a.output.as_ref().is_some_and(|o| {
                // An existing folder, or a name ending in `/`: one to make.
                o.is_dir()
                    || o.as_os_str()
                        .to_string_lossy()
                        .ends_with(std::path::is_separator)
            }));
    if !batch {
        return convert_one(a, enc);
    }
    let Some(out_dir) = &a.output else {
        return Err(CliError(
            "several inputs or a folder need -o OUTPUT_FOLDER".into(),
        ));
    };
    let files = collect_inputs(&a.inputs, is_record_file)?;
    if files.is_empty() {
        return Err(CliError("no record files found in the inputs".into()));
    }
    std::fs::create_dir_all(out_dir)
        .map_err(|e| CliError(format!("{}: {e}", out_dir.display())))?;
    convert_many(&files, out_dir, a, enc)
}

fn convert_one(a: &ConvertArgs, enc: Encoding) -> Result<(), CliError> {
    let input = a.inputs.first().filter(|p| p.as_os_str() != "-");
    let (bytes, name) = match input {
        Some(path) => (
            std::fs::read(path).map_err(|e| CliError(format!("{}: {e}", path.display())))?,
            path.display().to_string(),
        ),
        None => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| CliError(format!("stdin: {e}")))?;
            (buf, "-".to_string())
        }
    };
    let mut each = parse_each(&bytes, a.from, &name);
    if each.len() > 1 {
        return Err(CliError(format!(
            "{name}: {} records in one file: convert them into a folder, \
             one file each (-o FOLDER/)",
            each.len()
        )));
    }
    // `read_each` gives at least one record or error.
    let rec = each
        .pop()
        .ok_or_else(|| CliError(format!("{name}: no record")))??;
    if let Some(w) = illegal_warning(&name, &rec) {
        eprintln!("shogi: {w}");
    }
    let out = render(&rec, a.to, enc);
    match &a.output {
        Some(path) if path.as_os_str() != "-" => {
            std::fs::write(path, out).map_err(|e| CliError(format!("{}: {e}", path.display())))
        }
        _ => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            lock.write_all(&out)
                .and_then(|()| lock.flush())
                .map_err(|e| CliError(format!("stdout: {e}")))
        }
    }
}

/// Whether `path` is named like a record file ([`RECORD_EXTENSIONS`]).
pub(crate) fn is_record_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| RECORD_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// The files to read: named files as given, and the files of named folders
/// (recursively, sorted) that `wanted` keeps.
pub(crate) fn collect_inputs(
    inputs: &[PathBuf],
    wanted: fn(&Path) -> bool,
) -> Result<Vec<PathBuf>, CliError> {
    let mut files = Vec::new();
    for p in inputs {
        if p.is_dir() {
            let mut found = Vec::new();
            walk(p, wanted, &mut found)?;
            found.sort();
            files.extend(found);
        } else if p.is_file() {
            files.push(p.clone());
        } else {
            return Err(CliError(format!("{}: no such file or folder", p.display())));
        }
    }
    Ok(files)
}

fn walk(dir: &Path, wanted: fn(&Path) -> bool, out: &mut Vec<PathBuf>) -> Result<(), CliError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| CliError(format!("{}: {e}", dir.display())))?;
    for entry in entries {
        let path = entry
            .map_err(|e| CliError(format!("{}: {e}", dir.display())))?
            .path();
        if path.is_dir() {
            walk(&path, wanted, out)?;
        } else if wanted(&path) {
            out.push(path);
        }
    }
    Ok(())
}

/// The output name of `input`: its stem with the new extension, or its whole name with the
/// new extension when that stem was already used.
fn output_name(input: &Path, ext: &str, used: &mut HashSet<String>) -> String {
    let stem = input
        .file_stem()
        .map_or_else(|| "record".into(), |s| s.to_string_lossy().into_owned());
    let mut name = format!("{stem}.{ext}");
    if used.contains(&name) {
        let whole = input
            .file_name()
            .map_or_else(|| stem.clone(), |s| s.to_string_lossy().into_owned());
        name = format!("{whole}.{ext}");
        let mut n = 2;
        while used.contains(&name) {
            name = format!("{stem}-{n}.{ext}");
            n += 1;
        }
    }
    used.insert(name.clone());
    name
}

fn convert_many(
    files: &[PathBuf],
    out_dir: &Path,
    a: &ConvertArgs,
    enc: Encoding,
) -> Result<(), CliError> {
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(files.len() as u64);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40.cyan/blue} {pos}/{len} {wide_msg}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let ext = format(a.to).extension();
    let mut used = HashSet::new();
    // One line per unreadable input; the last one is returned (and printed by main).
    let mut errors: Vec<CliError> = Vec::new();
    for path in files {
        let name = path.display().to_string();
        bar.set_message(name.clone());
        let each = match std::fs::read(path) {
            Ok(bytes) => parse_each(&bytes, a.from, &name),
            Err(e) => vec![Err(CliError(format!("{name}: {e}")))],
        };
        let several = each.len() > 1;
        for (k, result) in each.into_iter().enumerate() {
            match result {
                Ok(rec) => {
                    if let Some(w) = illegal_warning(&name, &rec) {
                        bar.suspend(|| eprintln!("shogi: {w}"));
                    }
                    // The records of a file of several: `match-1.kif`, `match-2.kif`...
                    let input = if several {
                        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
                        path.with_file_name(format!("{stem}-{}.record", k + 1))
                    } else {
                        path.clone()
                    };
                    let target = out_dir.join(output_name(&input, ext, &mut used));
                    if let Err(e) = std::fs::write(&target, render(&rec, a.to, enc)) {
                        bar.finish_and_clear();
                        return Err(CliError(format!("{}: {e}", target.display())));
                    }
                }
                Err(e) => {
                    if let Some(previous) = errors.last() {
                        bar.suspend(|| eprintln!("shogi: {previous}"));
                    }
                    errors.push(e);
                }
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    match errors.pop() {
        Some(last) => Err(last),
        None => Ok(()),
    }
}
