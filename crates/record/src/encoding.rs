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
use std::sync::OnceLock;

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
    let mut rest = bytes;
    for _ in 0..5 {
        let line = match crate::scan::find_byte(rest, b'\n') {
            Some(end) => {
                let line = &rest[..end];
                rest = &rest[end + 1..];
                line
            }
            None => std::mem::take(&mut rest),
        };
        if !matches!(line.first(), Some(b'#' | b'\'')) {
            continue;
        }
        // Looked for in the bytes (a comment line without a declaration,
        // most of them, is not copied): the first `=` after `encoding`.
        let mut from = 0;
        let start = loop {
            let Some(j) = crate::scan::find_byte(&line[from..], b'=') else {
                break None;
            };
            let eq = from + j;
            if eq >= 8 && line[eq - 8..eq].eq_ignore_ascii_case(b"encoding") {
                break Some(eq + 1);
            }
            from = eq + 1;
        };
        let Some(start) = start else {
            continue;
        };
        let value = String::from_utf8_lossy(&line[start..]).to_ascii_lowercase();
        let value = value.trim();
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
        // What `from_utf8_lossy` gives valid text, found faster.
        let text = match simdutf8::basic::from_utf8(rest) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(rest),
        };
        return (text, Encoding::Utf8);
    }
    let declared = declared(bytes);
    if declared != Some(Encoding::ShiftJis) {
        // The same verdict as `std::str::from_utf8`, several times faster on
        // Japanese text.
        match simdutf8::basic::from_utf8(bytes) {
            Ok(text) => return (Cow::Borrowed(text), Encoding::Utf8),
            Err(_) if declared == Some(Encoding::Utf8) => {
                return (String::from_utf8_lossy(bytes), Encoding::Utf8);
            }
            Err(_) => {}
        }
    }
    let text = match decode_sjis_plain(bytes) {
        Some(text) => Cow::Owned(text),
        None => encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes).0,
    };
    (text, Encoding::ShiftJis)
}

/// How `encoding_rs` decodes each `Shift_JIS` unit, looked up rather than
/// decoded: single bytes from 0x80 (0 where the byte is not a character on
/// its own) and lead/trail pairs, one row per lead byte (0 where the pair is
/// not a character). Every character these decode to is in the Basic
/// Multilingual Plane, and none is U+0000. Each part is built the first time
/// it is needed, so that reading one file builds only the rows of the lead
/// bytes it uses.
struct SjisTable {
    single: OnceLock<[u16; 0x80]>,
    /// Indexed by `lead - 0x81`, then `trail - 0x40`.
    rows: [OnceLock<[u16; TRAILS]>; LEADS],
}

const TRAILS: usize = 0xFD - 0x40;
const LEADS: usize = 0xFD - 0x81;

static SJIS: SjisTable = SjisTable {
    single: OnceLock::new(),
    rows: [const { OnceLock::new() }; LEADS],
};

/// Asks `encoding_rs` how it decodes each of `units`, in one call: each
/// unit is followed by a newline, which no unit's bytes contain and after
/// which the decoder starts afresh, so the output falls into one piece per
/// unit; a piece that is one character other than U+FFFD is that unit's.
fn decode_units<const N: usize>(units: impl Iterator<Item = [u8; 2]>, len: usize) -> [u16; N] {
    let mut input = Vec::with_capacity(N * 3);
    for unit in units {
        input.extend_from_slice(&unit[..len]);
        input.push(b'\n');
    }
    let text = encoding_rs::SHIFT_JIS.decode_without_bom_handling(&input).0;
    let mut out = [0u16; N];
    let (mut i, mut count, mut first) = (0, 0, '\0');
    for c in text.chars() {
        if c == '\n' {
            if count == 1 && first != char::REPLACEMENT_CHARACTER && i < N {
                out[i] = u16::try_from(u32::from(first)).unwrap_or(0);
            }
            i += 1;
            count = 0;
        } else {
            if count == 0 {
                first = c;
            }
            count += 1;
        }
    }
    out
}

fn sjis_single() -> &'static [u16; 0x80] {
    SJIS.single
        .get_or_init(|| decode_units((0x80..=0xFFu8).map(|b| [b, 0]), 1))
}

fn sjis_row(lead: u8) -> &'static [u16; TRAILS] {
    SJIS.rows[usize::from(lead - 0x81)]
        .get_or_init(|| decode_units((0x40..0xFDu8).map(|t| [lead, t]), 2))
}

/// How many bytes at the start of `b` are ASCII, eight at a time.
fn ascii_run(b: &[u8]) -> usize {
    let mut n = 0;
    while let Some(&word) = b[n..].first_chunk::<8>() {
        let high = u64::from_le_bytes(word) & 0x8080_8080_8080_8080;
        if high != 0 {
            return n + (high.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + b[n..]
        .iter()
        .position(|c| !c.is_ascii())
        .unwrap_or(b.len() - n)
}

/// `Shift_JIS` bytes decoded as `encoding_rs` decodes them, when every unit is
/// a character (ASCII, a single byte from the table or a lead/trail pair);
/// `None` at the first unit that is not, for `encoding_rs` to decode the
/// whole text with its replacement rules. Looking each unit up is about
/// twice as fast as `encoding_rs`, which was a tenth of reading KIF files.
/// The characters are written as UTF-8 bytes and the result checked once
/// (with SIMD) rather than pushed to a `String` one by one.
fn decode_sjis_plain(bytes: &[u8]) -> Option<String> {
    let single_table = sjis_single();
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len() + bytes.len() / 2);
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii() {
            let run = ascii_run(&bytes[i..]);
            out.extend_from_slice(&bytes[i..i + run]);
            i += run;
            continue;
        }
        let single = single_table[usize::from(b - 0x80)];
        let code = if single != 0 {
            i += 1;
            single
        } else {
            let trail = *bytes.get(i + 1)?;
            if !(0x81..0xFD).contains(&b) || !(0x40..0xFD).contains(&trail) {
                return None;
            }
            i += 2;
            sjis_row(b)[usize::from(trail - 0x40)]
        };
        // UTF-8 of a code point from U+0080 (the table's 0 is no character).
        match code {
            0 => return None,
            0x80..=0x7FF => {
                out.extend_from_slice(&[0xC0 | (code >> 6) as u8, 0x80 | (code & 0x3F) as u8]);
            }
            _ => out.extend_from_slice(&[
                0xE0 | (code >> 12) as u8,
                0x80 | ((code >> 6) & 0x3F) as u8,
                0x80 | (code & 0x3F) as u8,
            ]),
        }
    }
    // Always valid (surrogates are never in the table, and would be refused
    // here): the check is what lets safe code make a `str` of the bytes.
    simdutf8::basic::from_utf8(&out).ok().map(str::to_owned)
}

/// Encodes text; characters `Shift_JIS` cannot hold become HTML numeric references (`&#NNNN;`).
#[must_use]
pub fn encode(text: &str, encoding: Encoding) -> Vec<u8> {
    match encoding {
        Encoding::Utf8 => text.as_bytes().to_vec(),
        Encoding::ShiftJis => encoding_rs::SHIFT_JIS.encode(text).0.into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    fn reference(bytes: &[u8]) -> String {
        encoding_rs::SHIFT_JIS
            .decode_without_bom_handling(bytes)
            .0
            .into_owned()
    }

    #[test]
    fn plain_sjis_decoding_agrees_with_encoding_rs_on_every_unit() {
        let mut plain = 0;
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for bytes in [
                    &[a, b][..],
                    &[b'x', a, b, 0x82][..],
                    &[a, b, 0x88, 0x9f][..],
                ] {
                    if let Some(text) = super::decode_sjis_plain(bytes) {
                        assert_eq!(text, reference(bytes), "{bytes:02x?}");
                        plain += 1;
                    }
                }
            }
            assert_eq!(
                super::decode_sjis_plain(&[a]).is_some(),
                !reference(&[a]).contains('\u{fffd}')
            );
        }
        // Most pairs are characters: the fast path is taken.
        assert!(plain > 20_000, "{plain}");
    }

    /// `declared` as it was written first: the lines split one byte at a
    /// time, each comment line copied, lower-cased and searched.
    fn declared_by_copies(bytes: &[u8]) -> Option<super::Encoding> {
        use super::Encoding;
        for line in bytes.split(|&b| b == b'\n').take(5) {
            if !matches!(line.first(), Some(b'#' | b'\'')) {
                continue;
            }
            let line = String::from_utf8_lossy(line).to_ascii_lowercase();
            let Some(i) = line.find("encoding=") else {
                continue;
            };
            let value = line[i + 9..].trim();
            if value.starts_with("utf-8") || value.starts_with("utf8") {
                return Some(Encoding::Utf8);
            }
            if ["shift_jis", "shift-jis", "sjis", "cp932", "windows-31j"]
                .iter()
                .any(|p| value.starts_with(p))
            {
                return Some(Encoding::ShiftJis);
            }
        }
        None
    }

    proptest! {
        #[test]
        fn declared_agrees_with_the_copying_search(
            lines in proptest::collection::vec(
                "[#' ]?[a-z ]{0,3}(ENCODING|Encoding|encoding|encodin|coding)?[=: ]{0,2}(=|  |\u{3000})?(UTF-8|utf8|Shift_JIS|sjis|cp932|Windows-31J|x|\u{fffd})?[ ,=\r]{0,2}",
                0..7,
            ),
            raw in proptest::collection::vec(any::<u8>(), 0..6),
        ) {
            let mut bytes = lines.join("\n").into_bytes();
            bytes.extend(&raw);
            prop_assert_eq!(super::declared(&bytes), declared_by_copies(&bytes), "{:?}", String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn simd_utf8_validation_agrees_with_std(
            bytes in proptest::collection::vec(
                prop_oneof![any::<u8>(), 0x80..0xC0u8, 0xE0..0xF0u8, 0x20..0x7Fu8],
                0..80,
            ),
            text in "[a-z 歩▲\u{10000}-\u{10010}]{0,40}",
        ) {
            prop_assert_eq!(simdutf8::basic::from_utf8(&bytes).ok(), std::str::from_utf8(&bytes).ok());
            prop_assert_eq!(simdutf8::basic::from_utf8(text.as_bytes()).ok(), Some(text.as_str()));
        }

        #[test]
        fn plain_sjis_decoding_agrees_with_encoding_rs(
            bytes in proptest::collection::vec(
                prop_oneof![any::<u8>(), 0x81..0xA0u8, 0xE0..0xF0u8, 0x20..0x7Fu8],
                0..40,
            )
        ) {
            if let Some(text) = super::decode_sjis_plain(&bytes) {
                prop_assert_eq!(text, reference(&bytes));
            }
        }
    }
}
