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
//! assert!(matches!(rec.ending, shogi_record::Ending::Resign { .. }));
//! let text = shogi_record::ki2::write(&rec);
//! assert!(text.contains("▲２二角成"));
//! assert!(text.contains("△同　銀"));
//! # Ok::<_, shogi_record::ReadError>(())
//! ```

use std::fmt::Write as _;

use shogi_core::{Color, Move, Position, Square};

use crate::encoding::{self, Encoding};
use crate::error::ReadError;
use crate::kif::{self, write_preamble};
use crate::notation::japanese;
use crate::record::{Ending, Node, Record};

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

pub(crate) enum Ki2Token {
    Move(japanese::JapaneseMove, String),
    End(String),
}

/// How many alternatives the KI2 lookahead may try in one block of moves.
pub(crate) const LOOKAHEAD_BUDGET: u32 = 64;

/// The longest prefix of `toks` that can be read as legal moves from `pos`.
/// Among ambiguous readings, orthogonal steps are tried before diagonal ones, then pieces that
/// moved more recently (later in `history`) first; the first reading under which every
/// following move of the block is legal wins.
pub(crate) fn best_reading(
    pos: &mut Position,
    last_to: Option<Square>,
    toks: &[Ki2Token],
    budget: &mut u32,
    history: &mut Vec<Square>,
) -> Vec<Move> {
    let base = history.len();
    let mut chosen = Vec::new();
    let mut last_to = last_to;
    let mut undo = Vec::new();
    let mut i = 0;
    let result = loop {
        let Some(Ki2Token::Move(jm, _)) = toks.get(i) else {
            break std::mem::take(&mut chosen);
        };
        let Ok(mut cands) = japanese::candidates(pos, last_to, jm) else {
            break std::mem::take(&mut chosen);
        };
        cands.sort_by_key(|m| {
            let diagonal = m
                .from()
                .is_some_and(|f| f.file() != m.to().file() && f.rank() != m.to().rank());
            (
                diagonal,
                std::cmp::Reverse(m.from().and_then(|f| history.iter().rposition(|&s| s == f))),
            )
        });
        let Some(&first) = cands.first() else {
            break std::mem::take(&mut chosen);
        };
        if cands.len() == 1 || *budget == 0 {
            let m = first;
            undo.push((m, pos.make_move(m)));
            history.push(m.to());
            chosen.push(m);
            last_to = Some(m.to());
            i += 1;
            continue;
        }
        let moves_left = toks[i..]
            .iter()
            .take_while(|t| matches!(t, Ki2Token::Move(..)))
            .count();
        let mut best: Vec<Move> = Vec::new();
        for &m in &cands {
            *budget = budget.saturating_sub(1);
            let u = pos.make_move(m);
            history.push(m.to());
            let mut line = vec![m];
            line.extend(best_reading(
                pos,
                Some(m.to()),
                &toks[i + 1..],
                budget,
                history,
            ));
            history.pop();
            pos.unmake_move(m, u);
            let complete = line.len() == moves_left;
            if line.len() > best.len() {
                best = line;
            }
            if complete || *budget == 0 {
                break;
            }
        }
        chosen.extend(best);
        break std::mem::take(&mut chosen);
    };
    while let Some((m, u)) = undo.pop() {
        pos.unmake_move(m, u);
    }
    history.truncate(base);
    result
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

fn side_name(c: Color, handicapped: bool) -> &'static str {
    match (c, handicapped) {
        (Color::Sente, false) => "先手",
        (Color::Gote, false) => "後手",
        (Color::Sente, true) => "下手",
        (Color::Gote, true) => "上手",
    }
}

/// The `まで…` line for `ending` after `n` moves, `stm` to move, in the forms that Kifu for
/// Windows writes and other readers (cshogi, tsshogi) recognise: `まで6手で後手の勝ち`,
/// `まで6手で先手の反則勝ち` (the side to move wins by the last move's foul), `…の反則負け`,
/// `…の入玉勝ち`, `まで…手で千日手`.
pub(crate) fn summary(ending: Ending, n: usize, stm: Color, handicapped: bool) -> Option<String> {
    let side = |c: Color| side_name(c, handicapped);
    Some(match ending {
        Ending::None => return None,
        Ending::Resign { loser } => format!("まで{n}手で{}の勝ち", side(loser.opponent())),
        Ending::IllegalMove { loser } if loser == stm => {
            format!("まで{n}手で{}の反則負け", side(stm))
        }
        Ending::IllegalMove { .. } => format!("まで{n}手で{}の反則勝ち", side(stm)),
        Ending::DeclarationWin => format!("まで{n}手で{}の入玉勝ち", side(stm)),
        Ending::Timeout => format!("まで{n}手で時間切れにより{}の勝ち", side(stm.opponent())),
        other => format!(
            "まで{n}手で{}",
            kif::terminal_word(other, stm).unwrap_or("中断")
        ),
    })
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
    write_preamble(&mut out, rec, "KI2", enc);
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
    let handicapped = !matches!(rec.handicap(), Some(shogi_core::Handicap::Even) | None);
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
