//! Shogi game records and move notation, on top of [`shogi_core`].
//!
//! One [`Record`] model (headers, start position, main line with times and
//! comments, variations, [`Ending`]) with a reader and a writer per format:
//! [`kif`] (KIF/KIFU), [`ki2`], [`csa`] (V2.2 and V3.0), [`jkf`] (JSON Kifu
//! Format), [`usi`] (`position … moves …`) and [`usen`], plus single-move display text
//! in [`notation`] (Japanese, KIF, Western, Russian/Ukrainian) and KIF board
//! diagrams in [`bod`], and SVG board pictures in [`diagram`]. [`strategy`]
//! names a game's openings, castles and line in four languages.
//!
//! Readers sniff the text encoding from the content ([`encoding`]), never
//! panic on input, report syntax problems as [`ReadError`] with line, column
//! and token, and read a record with an illegal move up to that move
//! ([`Record::illegal_move`]).
//!
//! ```
//! use shogi_record::{read, Format};
//! let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
//! let rec = read(kif.as_bytes())?;
//! assert_eq!(rec.main_line().len(), 2);
//! assert!(matches!(rec.ending, shogi_record::Ending::Game(shogi_core::Ending::Resignation { .. })));
//! assert!(rec.to_csa().contains("+7776FU"));
//! assert!(rec.to_ki2().contains("▲７六歩"));
//! assert_eq!(rec.to_usi(), "position startpos moves 7g7f 3c3d resign");
//! let again = shogi_record::read_as(rec.to_jkf().as_bytes(), Format::Jkf)?;
//! assert_eq!(again.main_line(), rec.main_line());
//! # Ok::<_, shogi_record::ReadError>(())
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod bod;
mod builder;
pub mod csa;
pub mod diagram;
pub mod encoding;
mod error;
pub mod jkf;
pub mod ki2;
pub mod kif;
mod kif_family;
pub mod notation;
mod record;
mod scan;
pub mod strategy;
#[cfg(test)]
mod test_rng;
pub mod usen;
pub mod usi;

pub use encoding::Encoding;
pub use error::{ReadError, ReadErrorKind};
pub use record::{Ending, Headers, IllegalMoveInfo, MoveProblem, Node, Record, TimeControl};

/// A record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// KIF / KIFU.
    Kif,
    /// KI2 / KI2U.
    Ki2,
    /// CSA V2.2 / V3.0.
    Csa,
    /// JSON Kifu Format.
    Jkf,
    /// USI `position … moves …` text.
    Usi,
    /// USEN, the URL-safe form of the Playground for Shogi.
    Usen,
}

impl Format {
    /// Every format, in the order [`detect`] prefers them.
    pub const ALL: [Format; 5] = [
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Jkf,
        Format::Usi,
    ];

    /// The usual file extension.
    #[must_use]
    pub fn extension(self) -> &'static str {
        match self {
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Jkf => "jkf",
            Format::Usi => "usi",
            Format::Usen => "usen",
        }
    }
}

/// Guesses the format of decoded record text from its content.
#[must_use]
pub fn detect(text: &str) -> Format {
    let text = text.trim_start_matches('\u{feff}');
    let trimmed = text.trim();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        // JSON: JKF, or some other JSON that the JKF reader then rejects.
        return Format::Jkf;
    }
    if trimmed.contains('~') && !trimmed.contains(char::is_whitespace) {
        return Format::Usen;
    }
    let mut ki2 = false;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.starts_with("position") || line.starts_with("startpos") || line.starts_with("sfen ")
        {
            return Format::Usi;
        }
        let b = line.as_bytes();
        let csa_line = line.starts_with("V2")
            || line.starts_with("V3")
            || line.starts_with("PI")
            || line.starts_with("N+")
            || line.starts_with("N-")
            || (b.len() >= 2 && b[0] == b'P' && b[1].is_ascii_digit())
            || (b.len() >= 7 && (b[0] == b'+' || b[0] == b'-') && b[1].is_ascii_digit())
            || line.starts_with('%');
        if csa_line {
            return Format::Csa;
        }
        if b.first().is_some_and(u8::is_ascii_digit) {
            return Format::Kif;
        }
        if line.starts_with(['▲', '△', '☗', '☖']) {
            ki2 = true;
        }
    }
    if ki2 {
        Format::Ki2
    } else {
        Format::Kif
    }
}

/// Reads a record in any format, sniffing encoding and format from the content.
///
/// # Errors
/// The reader's [`ReadError`].
pub fn read(bytes: &[u8]) -> Result<Record, ReadError> {
    let text = encoding::decode_cow(bytes).0;
    read_str_as(&text, detect(&text))
}

/// Reads every record of a file in any format, sniffing encoding and
/// format as [`read`] does: each with the bytes it was read from. A CSA
/// file may hold several records, a line holding only `/` between each and
/// the next ([`csa::records`]); a USI file one game a line
/// ([`usi::records`]); a KIF or KI2 file several games one after the
/// other, a game starting where moves follow the previous game's end
/// ([`ReadErrorKind::SeveralRecords`]) together with its own headers above
/// them. Each is read on its own, its error's line counted from the top of
/// the file.
///
/// ```
/// let file = b"V2.2\nN+A\nPI\n+\n+7776FU\n/\nN+B\nPI\n+\n+7776XX\n";
/// let read = shogi_record::read_each(file);
/// assert_eq!(read.len(), 2);
/// assert_eq!(read[0].1.as_ref().unwrap().headers.sente.as_deref(), Some("A"));
/// assert_eq!(read[1].0, &b"N+B\nPI\n+\n+7776XX\n"[..]);
/// assert_eq!(read[1].1.as_ref().unwrap_err().line, 10);
/// ```
#[must_use]
pub fn read_each(bytes: &[u8]) -> Vec<(&[u8], Result<Record, ReadError>)> {
    let text = encoding::decode_cow(bytes).0;
    let format = detect(&text);
    each_record(bytes, &text, format)
}

/// Reads every record of a file in `format`, sniffing the encoding: as
/// [`read_each`] does, the format given.
#[must_use]
pub fn read_each_as(bytes: &[u8], format: Format) -> Vec<(&[u8], Result<Record, ReadError>)> {
    each_record(bytes, &encoding::decode_cow(bytes).0, format)
}

/// The records of `bytes`, decoded to `text`, in `format`.
fn each_record<'b>(
    bytes: &'b [u8],
    text: &str,
    format: Format,
) -> Vec<(&'b [u8], Result<Record, ReadError>)> {
    match format {
        Format::Csa => {
            // The same lines split the decoded text and the bytes: each
            // record is read from the file's text as a whole was decoded,
            // and keeps its own bytes.
            let texts = csa::records(text.as_bytes());
            let raw = csa::records(bytes);
            if texts.len() > 1 && texts.len() == raw.len() {
                return texts
                    .iter()
                    .zip(raw)
                    .map(|(t, r)| {
                        // Split at ASCII lines of valid UTF-8: a character boundary.
                        let part = std::str::from_utf8(t.bytes).unwrap_or_default();
                        let rec = csa::read(part).map_err(|e| e.after_lines(t.lines_before));
                        (r.bytes, rec)
                    })
                    .collect();
            }
        }
        Format::Kif | Format::Ki2 => return kif_games(bytes, text),
        Format::Usi => {
            // One game a line (`startpos moves ...`), ASCII: the lines of the bytes.
            let games = usi::records(bytes);
            if !games.is_empty() {
                return games
                    .into_iter()
                    .map(|(before, line)| {
                        let rec = usi::read(&String::from_utf8_lossy(line))
                            .map_err(|e| e.after_lines(before));
                        (line, rec)
                    })
                    .collect();
            }
        }
        _ => {}
    }
    vec![(bytes, read_str_as(text, format))]
}

/// The games of a KIF or KI2 file. There is no separator: a game ends where
/// the reader finds the next one's first move ([`ReadErrorKind::SeveralRecords`]),
/// and the next starts at its own preamble above that move
/// ([`kif::first_game_lines`]); after a game that does not read, the next
/// starts at the next line opening a game ([`kif::failed_game_lines`]).
/// Each game is read from its own lines; the bytes and the decoded text
/// have the same line breaks (ASCII in UTF-8 and `Shift_JIS`).
fn kif_games<'b>(bytes: &'b [u8], text: &str) -> Vec<(&'b [u8], Result<Record, ReadError>)> {
    let mut games = Vec::new();
    let (mut bytes, mut text, mut before) = (bytes, text, 0);
    loop {
        let read = kif::read(text);
        let (next, several) = match &read {
            Ok(_) => (0, false),
            Err(e) if e.kind == ReadErrorKind::SeveralRecords => {
                (kif::first_game_lines(text, e.line), true)
            }
            Err(e) => (kif::failed_game_lines(text, e.line), false),
        };
        if next == 0 {
            // One game to the end.
            games.push((bytes, read.map_err(|e| e.after_lines(before))));
            return games;
        }
        // Cuts after a line break: character boundaries.
        let (text_cut, bytes_cut) = (line_start(text.as_bytes(), next), line_start(bytes, next));
        let game = if several {
            kif::read(&text[..text_cut])
        } else {
            read
        };
        games.push((&bytes[..bytes_cut], game.map_err(|e| e.after_lines(before))));
        (bytes, text, before) = (&bytes[bytes_cut..], &text[text_cut..], before + next);
    }
}

/// The byte where line `n` (from 0) of `b` starts (its length past the last).
fn line_start(b: &[u8], n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    b.iter()
        .enumerate()
        .filter(|&(_, &c)| c == b'\n')
        .nth(n - 1)
        .map_or(b.len(), |(i, _)| i + 1)
}

/// Reads a record in `format`, sniffing the encoding.
///
/// # Errors
/// The reader's [`ReadError`].
pub fn read_as(bytes: &[u8], format: Format) -> Result<Record, ReadError> {
    read_str_as(&encoding::decode_cow(bytes).0, format)
}

/// Reads decoded text in `format`.
///
/// # Errors
/// The reader's [`ReadError`].
pub fn read_str_as(text: &str, format: Format) -> Result<Record, ReadError> {
    match format {
        Format::Kif | Format::Ki2 => kif::read(text),
        Format::Csa => csa::read(text),
        Format::Jkf => jkf::read(text),
        Format::Usi => usi::read(text),
        Format::Usen => usen::read(text),
    }
}

/// Writes `rec` in `format` as text.
#[must_use]
pub fn write(rec: &Record, format: Format) -> String {
    match format {
        Format::Kif => kif::write(rec),
        Format::Ki2 => ki2::write(rec),
        Format::Csa => csa::write(rec),
        Format::Jkf => jkf::write(rec),
        Format::Usi => usi::write(rec),
        Format::Usen => usen::write(rec),
    }
}

/// Writes `rec` in `format` as bytes in `enc` (JKF and USI are always UTF-8).
#[must_use]
pub fn write_bytes(rec: &Record, format: Format, enc: Encoding) -> Vec<u8> {
    match format {
        Format::Kif => kif::write_bytes(rec, enc),
        Format::Ki2 => ki2::write_bytes(rec, enc),
        Format::Csa => csa::write_bytes(rec, enc),
        Format::Jkf | Format::Usi | Format::Usen => write(rec, format).into_bytes(),
    }
}

impl Record {
    /// KIF text (UTF-8).
    #[must_use]
    pub fn to_kif(&self) -> String {
        kif::write(self)
    }

    /// KI2 text (UTF-8).
    #[must_use]
    pub fn to_ki2(&self) -> String {
        ki2::write(self)
    }

    /// CSA text.
    #[must_use]
    pub fn to_csa(&self) -> String {
        csa::write(self)
    }

    /// JKF (JSON) text.
    #[must_use]
    pub fn to_jkf(&self) -> String {
        jkf::write(self)
    }

    /// USI `position … moves …` text.
    #[must_use]
    pub fn to_usi(&self) -> String {
        usi::write(self)
    }

    /// USEN text.
    #[must_use]
    pub fn to_usen(&self) -> String {
        usen::write(self)
    }
}
