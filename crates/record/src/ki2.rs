//! KI2 records: KIF headers and board diagrams with moves written without
//! origin squares (`▲７六歩    △３四歩`), any number per line, resolved
//! against the legal moves with the JSA relative markers (see
//! [`notation::japanese`](crate::notation::japanese)).
//!
//! The ending is read from the `まで…` summary line (or a terminal word);
//! the writer puts it there.
//!
//! ```
//! let rec = shogi_record::ki2::read("▲７六歩 △３四歩 ▲２二角成 △同　銀\nまで4手で後手の勝ち\n")?;
//! assert_eq!(rec.main_line().len(), 4);
//! assert!(matches!(rec.ending, shogi_record::Ending::Game(shogi_core::Ending::Resignation { .. })));
//! let text = shogi_record::ki2::write(&rec);
//! assert!(text.contains("▲２二角成"));
//! assert!(text.contains("△同　銀"));
//! # Ok::<_, shogi_record::ReadError>(())
//! ```

use std::fmt::Write as _;

use shogi_core::{Position, Square};

use crate::encoding::{self, Encoding};
use crate::error::ReadError;
use crate::kif;
use crate::kif_family::ending::summary;
use crate::kif_family::preamble;
use crate::notation::japanese;
use crate::record::{Node, Record};

/// Reads KI2 (or KIF) bytes, sniffing the encoding from the content.
///
/// # Errors
/// See [`kif::read`].
pub fn read_bytes(bytes: &[u8]) -> Result<Record, ReadError> {
    kif::read_bytes(bytes)
}

/// Reads KI2 (or KIF) text.
///
/// # Errors
/// See [`kif::read`].
pub fn read(text: &str) -> Result<Record, ReadError> {
    kif::read(text)
}

/// Moves on one line when writing, unless told otherwise ([`write_lines`]).
pub const PER_LINE: usize = 6;

fn write_line(
    out: &mut String,
    pos: &Position,
    start_ply: usize,
    line: &[Node],
    prev_to: Option<Square>,
    pending: &mut Vec<(usize, Position, Option<Square>, Vec<Node>)>,
    per_line: usize,
) -> Position {
    let mut pos = pos.clone();
    let mut last_to = prev_to;
    let mut on_line = 0;
    for (i, node) in line.iter().enumerate() {
        for v in node.variations.iter().rev() {
            pending.push((start_ply + i, pos.clone(), last_to, v.clone()));
        }
        if pos.check_move(node.mv).is_err() {
            break;
        }
        let text = japanese::write(&pos, node.mv, last_to);
        if on_line > 0 {
            // Pad to a common column width (full-width characters count twice).
            let width: usize = 12usize.saturating_sub(2 * text.chars().count());
            let _ = write!(out, "{:width$}", "");
        }
        out.push_str(&text);
        on_line += 1;
        pos.make_move(node.mv);
        last_to = Some(node.mv.to());
        if !node.comments.is_empty() || on_line >= per_line {
            out.push('\n');
            on_line = 0;
            for c in &node.comments {
                let _ = writeln!(out, "*{c}");
            }
        }
    }
    if on_line > 0 {
        out.push('\n');
    }
    pos
}

/// Writes `rec` as KI2 text (declared as UTF-8).
#[must_use]
pub fn write(rec: &Record) -> String {
    write_with(rec, Encoding::Utf8)
}

/// Writes `rec` as KI2 text whose first line declares `enc`.
#[must_use]
pub fn write_with(rec: &Record, enc: Encoding) -> String {
    write_lines(rec, enc, PER_LINE)
}

/// Writes `rec` as KI2 text declaring `enc`, with at most `per_line` moves on a line
/// (at least one). Some readers (cshogi 1.1) only follow one move per line.
#[must_use]
pub fn write_lines(rec: &Record, enc: Encoding, per_line: usize) -> String {
    let per_line = per_line.max(1);
    let mut out = String::new();
    preamble::write(&mut out, rec, "KI2", enc);
    let mut pending = Vec::new();
    let end = write_line(
        &mut out,
        &rec.start,
        1,
        &rec.moves,
        None,
        &mut pending,
        per_line,
    );
    let handicapped = preamble::is_handicapped(rec);
    if let Some(s) = summary(rec.ending, rec.moves.len(), end.side_to_move(), handicapped) {
        let _ = writeln!(out, "{s}");
    }
    while let Some((ply, pos, last_to, line)) = pending.pop() {
        let _ = write!(out, "\n変化：{ply}手\n");
        let mut sub = Vec::new();
        write_line(&mut out, &pos, ply, &line, last_to, &mut sub, per_line);
        pending.extend(sub);
    }
    out
}

/// Writes `rec` as KI2 bytes in `enc`.
#[must_use]
pub fn write_bytes(rec: &Record, enc: Encoding) -> Vec<u8> {
    encoding::encode(&write_with(rec, enc), enc)
}
