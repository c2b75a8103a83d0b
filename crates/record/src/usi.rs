//! USI / SFEN move lists: `position startpos moves 7g7f 3c3d`, `sfen <SFEN> moves ...`,
//! with or without the leading `position`, or a bare SFEN.
//!
//! A trailing word after the moves gives the ending (this crate's
//! extension, as some GUIs write): `resign` (the side to move resigned),
//! `resign_win` (the side that moved last resigned, out of turn), `win`
//! (declaration), `draw`, `rep_draw`, `perpetual_check`, `impasse`,
//! `timeout`, `mate`, `illegal` (the side to move lost by a foul),
//! `illegal_win` (the side that moved last did), `try` (the side that moved
//! last won by the try rule), `abort`, `max_moves`, `nomate`, `sealed`,
//! `matta`, `error`.
//!
//! ```
//! let rec = shogi_record::usi::read("position startpos moves 7g7f 3c3d resign")?;
//! assert_eq!(rec.main_line().len(), 2);
//! assert!(matches!(rec.ending, shogi_record::Ending::Game(shogi_core::Ending::Resignation { .. })));
//! assert_eq!(shogi_record::usi::write(&rec), "position startpos moves 7g7f 3c3d resign");
//! # Ok::<_, shogi_record::ReadError>(())
//! ```

use shogi_core::{sfen, Color, Ending as GameEnding, Foul, Leniency, Move, Position};

use crate::builder::Builder;
use crate::error::{ReadError, ReadErrorKind};
use crate::record::{Ending, Record};

/// The word after the moves for `ending`, `stm` to move after them.
fn ending_word(ending: Ending, stm: Color) -> Option<&'static str> {
    let game = match ending {
        Ending::None => return None,
        Ending::NoMate => return Some("nomate"),
        Ending::Sealed => return Some("sealed"),
        Ending::Matta => return Some("matta"),
        Ending::Error => return Some("error"),
        Ending::Game(g) => g,
    };
    Some(match game {
        GameEnding::Resignation { loser } if loser == stm => "resign",
        GameEnding::Resignation { .. } => "resign_win",
        GameEnding::Checkmate { .. } | GameEnding::NoLegalMoves { .. } => "mate",
        GameEnding::Timeout { .. } => "timeout",
        GameEnding::Foul { loser, .. } if loser == stm => "illegal",
        GameEnding::Foul { .. } => "illegal_win",
        GameEnding::PerpetualCheck { .. } => "perpetual_check",
        GameEnding::Repetition => "rep_draw",
        GameEnding::Impasse { winner: None } => "impasse",
        GameEnding::Impasse { winner: Some(_) } => "win",
        GameEnding::Try { .. } => "try",
        GameEnding::MaxMoves => "max_moves",
        GameEnding::DrawAgreement => "draw",
        GameEnding::Abort => "abort",
    })
}

/// The ending a word after the moves means, `stm` to move after them.
fn word_ending(word: &str, stm: Color) -> Option<Ending> {
    let foul = |loser| GameEnding::Foul {
        loser,
        foul: Foul::Unspecified,
    };
    Some(Ending::Game(match word {
        "resign" => GameEnding::Resignation { loser: stm },
        "resign_win" => GameEnding::Resignation {
            loser: stm.opponent(),
        },
        "win" => GameEnding::Impasse { winner: Some(stm) },
        "draw" => GameEnding::DrawAgreement,
        "rep_draw" => GameEnding::Repetition,
        "perpetual_check" => GameEnding::PerpetualCheck {
            loser: stm.opponent(),
        },
        "impasse" => GameEnding::Impasse { winner: None },
        "timeout" => GameEnding::Timeout { loser: stm },
        "mate" => GameEnding::Checkmate { loser: stm },
        "illegal" => foul(stm),
        "illegal_win" => foul(stm.opponent()),
        "try" => GameEnding::Try {
            winner: stm.opponent(),
        },
        "abort" | "break" => GameEnding::Abort,
        "max_moves" => GameEnding::MaxMoves,
        "nomate" => return Some(Ending::NoMate),
        "sealed" => return Some(Ending::Sealed),
        "matta" => return Some(Ending::Matta),
        "error" => return Some(Ending::Error),
        _ => return None,
    }))
}

/// Whether `line` starts a position: `position`, `startpos` or `sfen `
/// (after spaces, and a byte-order mark on a file's first line).
fn is_position_line(line: &[u8]) -> bool {
    let line = line
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(line)
        .trim_ascii_start();
    line.starts_with(b"position") || line.starts_with(b"startpos") || line.starts_with(b"sfen ")
}

/// The lines of a USI file of several games, one position line each
/// (`startpos moves ...` as engines and match runners list their games),
/// each with the number of lines before it; other lines (`go`, `bestmove`
/// of a log) are left out. Empty unless the file holds two or more.
///
/// ```
/// let file = b"startpos moves 7g7f\ngo btime 0\nstartpos moves 2g2f\n";
/// let games = shogi_record::usi::records(file);
/// assert_eq!(games, [(0, &b"startpos moves 7g7f"[..]), (2, &b"startpos moves 2g2f"[..])]);
/// ```
#[must_use]
pub fn records(bytes: &[u8]) -> Vec<(usize, &[u8])> {
    let lines: Vec<(usize, &[u8])> = bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, l)| is_position_line(l))
        .map(|(i, l)| (i, l.strip_suffix(b"\r").unwrap_or(l)))
        .collect();
    if lines.len() < 2 {
        return Vec::new();
    }
    lines
}

/// Reads the first non-empty line of USI position text; a second position
/// line (another game: [`crate::read_each`] reads each) is refused.
///
/// # Errors
/// A malformed SFEN or move token; [`ReadErrorKind::SeveralRecords`] at
/// a second position line.
pub fn read(text: &str) -> Result<Record, ReadError> {
    let Some((idx, raw)) = text.lines().enumerate().find(|(_, l)| !l.trim().is_empty()) else {
        return Err(ReadError::new(
            1,
            1,
            "",
            ReadErrorKind::Sfen("empty text".into()),
        ));
    };
    let line_no = idx + 1;
    if let Some((i, second)) = text
        .lines()
        .enumerate()
        .skip(line_no)
        .find(|(_, l)| is_position_line(l.as_bytes()))
    {
        return Err(ReadError::at(
            i + 1,
            second,
            second.trim(),
            ReadErrorKind::SeveralRecords,
        ));
    }
    let line = raw.trim();
    let mut rest = line.strip_prefix("position").unwrap_or(line).trim_start();
    let (pos_part, moves_part) = match rest.find(" moves") {
        Some(i) => (&rest[..i], rest.get(i + 6..).unwrap_or("")),
        None => (rest.strip_suffix("moves").unwrap_or(rest), ""),
    };
    rest = pos_part.trim();
    let start = if rest == "startpos" {
        Position::startpos()
    } else {
        let s = rest.strip_prefix("sfen").unwrap_or(rest).trim();
        sfen::parse_position_with(
            s,
            Leniency {
                allow_missing_kings: true,
            },
        )
        .map_err(|e| ReadError::at(line_no, raw, s, ReadErrorKind::Sfen(e.to_string())))?
    };
    let mut b = Builder::new(start);
    for tok in moves_part.split_whitespace() {
        let stm = b.position().side_to_move();
        if let Some(e) = word_ending(tok, stm) {
            b.ending(e);
            break;
        }
        match tok.parse::<Move>() {
            Ok(m) => b.push(Ok(m), tok),
            Err(e) => {
                if b.is_dead() {
                    continue;
                }
                return Err(ReadError::at(
                    line_no,
                    raw,
                    tok,
                    ReadErrorKind::Sfen(e.to_string()),
                ));
            }
        }
    }
    Ok(b.finish())
}

/// Writes `position startpos moves ...` or `position sfen ... moves ...` (main line only),
/// followed by the ending word if there is one.
#[must_use]
pub fn write(rec: &Record) -> String {
    let mut s = if rec.start == Position::startpos() {
        "position startpos".to_string()
    } else {
        format!("position sfen {}", rec.start.to_sfen())
    };
    if !rec.moves.is_empty() {
        s.push_str(" moves");
        for n in &rec.moves {
            s.push(' ');
            s.push_str(&n.mv.to_string());
        }
    }
    if let Some(w) = ending_word(rec.ending, rec.side_to_move_at_end()) {
        if rec.moves.is_empty() {
            s.push_str(" moves");
        }
        s.push(' ');
        s.push_str(w);
    }
    s
}
