//! USEN (URL-safe SFEN-extended notation, from the Playground for Shogi):
//! a whole game with branches in one URL-safe string.
//!
//! `{start}~{offset}.{moves}.{final}~{offset}.{moves}.{final}...`: the start is
//! an SFEN without move number with `/` → `_`, space → `.`, `+` → `z` (empty
//! for the normal start); then the main line and any number of branches, each
//! an offset (the number of main-line moves before it), moves of three base-36
//! digits each, and a final action (`r` resign, `t` time up, `p` interrupted,
//! `j` declared win, `i` + a move: that illegal move). A move is
//! `(from × 81 + to) × 2 + promote` with squares numbered `(rank − 1) × 9 + (file − 1)`
//! and drops coming from `81 + id` (pawn 91, lance 92, knight 93, silver 94,
//! gold 90, bishop 95, rook 96).
//!
//! USEN holds no headers, comments or times, and branches only off the main
//! line: deeper variations are not written. Endings other than the four above
//! are not written either, nor a resignation out of turn (`r` always names
//! the side to move as the loser) or a try-rule win.
//!
//! ```
//! let rec = shogi_record::usen::read("~0.7ku2jm6y21cx.r")?;
//! assert_eq!(shogi_record::usi::write(&rec), "position startpos moves 7g7f 3c3d 2g2f 2b8h+ resign");
//! assert_eq!(shogi_record::usen::write(&rec), "~0.7ku2jm6y21cx.r");
//! # Ok::<_, shogi_record::ReadError>(())
//! ```

use shogi_core::{sfen, Ending as GameEnding, Foul, HandKind, Leniency, Move, Position, Square};
use std::fmt::Write as _;

use crate::builder::Builder;
use crate::error::{ReadError, ReadErrorKind};
use crate::record::{Ending, MoveProblem, Node, Record};

fn index(sq: Square) -> u32 {
    u32::from(sq.rank().number() - 1) * 9 + u32::from(sq.file().number() - 1)
}

fn square(i: u32) -> Option<Square> {
    let i = u8::try_from(i).ok()?;
    if i >= 81 {
        return None;
    }
    Square::from_numbers(i % 9 + 1, i / 9 + 1)
}

fn drop_id(kind: HandKind) -> u32 {
    match kind {
        HandKind::Pawn => 10,
        HandKind::Lance => 11,
        HandKind::Knight => 12,
        HandKind::Silver => 13,
        HandKind::Gold => 9,
        HandKind::Bishop => 14,
        HandKind::Rook => 15,
    }
}

fn drop_kind(id: u32) -> Option<HandKind> {
    HandKind::ALL.into_iter().find(|&k| drop_id(k) == id)
}

/// The three base-36 digits of a move.
#[must_use]
pub fn encode_move(m: Move) -> String {
    let (from, promote) = match m {
        Move::Board { from, promote, .. } => (index(from), promote),
        Move::Drop { kind, .. } => (81 + drop_id(kind), false),
    };
    let mut x = (from * 81 + index(m.to())) * 2 + u32::from(promote);
    let mut digits = [b'0'; 3];
    for d in digits.iter_mut().rev() {
        let v = (x % 36) as u8;
        *d = if v < 10 { b'0' + v } else { b'a' + v - 10 };
        x /= 36;
    }
    String::from_utf8_lossy(&digits).into_owned()
}

/// Decodes three base-36 digits into a move.
#[must_use]
pub fn decode_move(s: &str) -> Option<Move> {
    if s.len() != 3 {
        return None;
    }
    let x = u32::from_str_radix(s, 36).ok()?;
    let (a, b, c) = (x / 162, x / 2 % 81, x % 2);
    let to = square(b)?;
    if a >= 81 {
        let kind = drop_kind(a - 81)?;
        (c == 0).then_some(Move::Drop { kind, to })
    } else {
        let from = square(a)?;
        (from != to).then_some(Move::Board {
            from,
            to,
            promote: c == 1,
        })
    }
}

/// The ending a final action means, `stm` to move after the moves.
fn final_ending(s: &str, stm: shogi_core::Color) -> Option<Ending> {
    Some(Ending::Game(match s.chars().next()? {
        'r' => GameEnding::Resignation { loser: stm },
        't' => GameEnding::Timeout { loser: stm },
        'p' => GameEnding::Abort,
        'j' => GameEnding::Impasse { winner: Some(stm) },
        'i' => GameEnding::Foul {
            loser: stm,
            foul: Foul::Unspecified,
        },
        _ => return None,
    }))
}

/// The final action for `ending`, `stm` to move after the moves: empty for the endings USEN
/// cannot say, among them a resignation out of turn (`r` is always the side to move's, and
/// would name the wrong loser) and a try-rule win.
fn final_word(ending: Ending, stm: shogi_core::Color) -> &'static str {
    match ending.game() {
        Some(GameEnding::Resignation { loser }) if loser == stm => "r",
        Some(GameEnding::Timeout { loser }) if loser == stm => "t",
        Some(GameEnding::Abort) => "p",
        Some(GameEnding::Impasse { winner }) if winner == Some(stm) => "j",
        _ => "",
    }
}

/// Reads a USEN string.
///
/// # Errors
/// A malformed start, section, move or final action (the column is 1-based in the string).
pub fn read(text: &str) -> Result<Record, ReadError> {
    let text = text.trim();
    let err = |token: &str, kind: ReadErrorKind| ReadError::at(1, text, token, kind);
    let mut sections = text.split('~');
    let start_text = sections.next().unwrap_or("");
    let start = if start_text.is_empty() {
        Position::startpos()
    } else {
        let s: String = start_text
            .chars()
            .map(|c| match c {
                '_' => '/',
                '.' => ' ',
                'z' => '+',
                c => c,
            })
            .collect();
        sfen::parse_position_with(
            &s,
            Leniency {
                allow_missing_kings: true,
            },
        )
        .map_err(|e| err(start_text, ReadErrorKind::Sfen(e.to_string())))?
    };
    let mut b = Builder::new(start);
    let mut first = true;
    for section in sections {
        let mut parts = section.splitn(3, '.');
        let (Some(offset), Some(moves), Some(fin)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(err(section, ReadErrorKind::UnexpectedLine));
        };
        let offset: usize = offset
            .parse()
            .map_err(|_| err(section, ReadErrorKind::BadVariation))?;
        if !first && !b.begin_main_variation(offset + 1) {
            return Err(err(section, ReadErrorKind::BadVariation));
        }
        if moves.len() % 3 != 0 || !moves.is_ascii() {
            return Err(err(moves, ReadErrorKind::BadMove));
        }
        for i in (0..moves.len()).step_by(3) {
            let tok = &moves[i..i + 3];
            let m = decode_move(tok).ok_or_else(|| err(tok, ReadErrorKind::BadMove))?;
            b.push(Ok::<Move, MoveProblem>(m), tok);
        }
        if !fin.is_empty() && !b.is_dead() {
            let stm = b.position().side_to_move();
            let e = final_ending(fin, stm).ok_or_else(|| err(fin, ReadErrorKind::BadMove))?;
            if first {
                b.ending(e);
            }
            if let Some(illegal) = fin.strip_prefix('i') {
                b.push(decode_move(illegal).ok_or(MoveProblem::NoMatch), illegal);
            }
        }
        first = false;
    }
    if first {
        return Err(err(text, ReadErrorKind::UnexpectedLine));
    }
    Ok(b.finish())
}

fn moves_text(line: &[Node]) -> String {
    line.iter().map(|n| encode_move(n.mv)).collect()
}

/// Writes `rec` as USEN (main line, its branches, and the endings USEN has).
#[must_use]
pub fn write(rec: &Record) -> String {
    let start = if rec.start == Position::startpos() {
        String::new()
    } else {
        let sfen = rec.start.to_sfen();
        let fields: Vec<&str> = sfen.split(' ').take(3).collect();
        fields.join(".").replace('/', "_").replace('+', "z")
    };
    let mut out = format!(
        "{start}~0.{}.{}",
        moves_text(&rec.moves),
        final_word(rec.ending, rec.side_to_move_at_end())
    );
    for (i, node) in rec.moves.iter().enumerate() {
        for v in &node.variations {
            let _ = write!(out, "~{i}.{}.", moves_text(v));
        }
    }
    out
}
