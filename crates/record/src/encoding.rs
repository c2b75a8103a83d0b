//! Text encoding of record files, sniffed from the content (never from the file name).
//!
//! Order: a UTF-8 byte-order mark; an encoding declared on the first lines
//! (`#KIF version=2.0 encoding=UTF-8`, `#KI2 ... encoding=Shift_JIS`, CSA
//! `'encoding=Shift_JIS`); text that is valid UTF-8; otherwise `Shift_JIS`
//! (Windows code page 932).
//!
//! ```
//! use shogi_record::encoding::{decode, encode, Encoding};
//! let sjis = encode("７六歩", Encoding::ShiftJis);
//! assert_eq!(decode(&sjis), ("７六歩".to_string(), Encoding::ShiftJis));
//! assert_eq!(decode("７六歩".as_bytes()).1, Encoding::Utf8);
//! ```

use std::borrow::Cow;

/// A text encoding a record can be written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 (without a byte-order mark when writing).
    #[default]
    Utf8,
    /// `Shift_JIS` as Windows writes it (code page 932).
    ShiftJis,
}

fn declared(bytes: &[u8]) -> Option<Encoding> {
    // Only the first few lines may declare an encoding; they are ASCII.
    for line in bytes.split(|&b| b == b'\n').take(5) {
        if !matches!(line.first(), Some(b'#' | b'\'')) {
            continue;
        }
        let line = String::from_utf8_lossy(line).to_ascii_lowercase();
        let Some(i) = line.find("encoding=") else {
            continue;
        };
        if !(line.starts_with('#') || line.starts_with('\'')) {
            continue;
        }
        let value = line[i + 9..].trim();
        if value.starts_with("utf-8") || value.starts_with("utf8") {
            return Some(Encoding::Utf8);
        }
        if value.starts_with("shift_jis")
            || value.starts_with("shift-jis")
            || value.starts_with("sjis")
            || value.starts_with("cp932")
            || value.starts_with("windows-31j")
        {
            return Some(Encoding::ShiftJis);
        }
    }
    None
}

/// Decodes record bytes, returning the text (without a byte-order mark) and the encoding found.
/// Undecodable bytes become U+FFFD; decoding never fails.
#[must_use]
pub fn decode(bytes: &[u8]) -> (String, Encoding) {
    let (text, enc) = decode_cow(bytes);
    (text.into_owned(), enc)
}

/// [`decode`] without copying: valid UTF-8 is borrowed from `bytes`
/// (checked once, not once to sniff and again to convert).
pub(crate) fn decode_cow(bytes: &[u8]) -> (Cow<'_, str>, Encoding) {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return (String::from_utf8_lossy(rest), Encoding::Utf8);
    }
    let declared = declared(bytes);
    if declared != Some(Encoding::ShiftJis) {
        match std::str::from_utf8(bytes) {
            Ok(text) => return (Cow::Borrowed(text), Encoding::Utf8),
            Err(_) if declared == Some(Encoding::Utf8) => {
                return (String::from_utf8_lossy(bytes), Encoding::Utf8);
            }
            Err(_) => {}
        }
    }
    let text = encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes).0;
    (text, Encoding::ShiftJis)
}

/// Encodes text; characters `Shift_JIS` cannot hold become HTML numeric references (`&#NNNN;`).
#[must_use]
pub fn encode(text: &str, encoding: Encoding) -> Vec<u8> {
    match encoding {
        Encoding::Utf8 => text.as_bytes().to_vec(),
        Encoding::ShiftJis => encoding_rs::SHIFT_JIS.encode(text).0.into_owned(),
    }
}
