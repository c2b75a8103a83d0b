//! The names of the files inside a ZIP archive, as their makers wrote them.
//!
//! A ZIP archive names its files in UTF-8 only when it says so (bit 11 of
//! a member's flags, or a Unicode path field); otherwise the standard says
//! code page 437. Few makers follow it: Windows' own "compressed folder"
//! writes the names in the system's OEM code page (`Shift_JIS` on a Japanese
//! Windows, CP866 on a Russian one), and many tools write UTF-8 without the
//! flag. Read as CP437, `将棋.kif` becomes `Å½è┤.kif` in an import's report.
//!
//! [`member_name`] tries, in order: UTF-8 (flagged, or bytes that are valid
//! UTF-8); `Shift_JIS` when every character it gives is Japanese (kana, kanji,
//! full-width forms; not half-width katakana, which Russian text in CP866
//! turns into); CP866 when every character it gives is Cyrillic; else
//! CP437, the standard's. CP866 has no Ukrainian `І`/`і` (Ukrainian
//! Windows writes CP1125, which `encoding_rs` does not have), so such a
//! name reads with `Ў`/`ў` in their place.

use encoding_rs::{IBM866, SHIFT_JIS};

/// The name of an archive member whose name is `raw` in the archive, and
/// `standard` as the ZIP reader decoded it (UTF-8 when the archive says
/// so, else code page 437).
///
/// ```
/// use shogi_server::explorer::zip_names::member_name;
/// // 将棋.kif in Shift_JIS, which the reader took for CP437.
/// let raw = b"\x8f\xab\x8a\xfb.kif";
/// assert_eq!(member_name(raw, "Å½è√.kif"), "将棋.kif");
/// // партия.kif in CP866.
/// let raw = b"\xaf\xa0\xe0\xe2\xa8\xef.kif";
/// assert_eq!(member_name(raw, "»áαΓ¿∩.kif"), "партия.kif");
/// ```
#[must_use]
pub fn member_name(raw: &[u8], standard: &str) -> String {
    if raw.is_ascii() || raw == standard.as_bytes() {
        // ASCII, or flagged UTF-8 (the reader kept the bytes as they are).
        return standard.to_owned();
    }
    if let Ok(utf8) = std::str::from_utf8(raw) {
        return utf8.to_owned();
    }
    if let Some(japanese) = SHIFT_JIS.decode_without_bom_handling_and_without_replacement(raw) {
        if japanese.chars().all(|c| c.is_ascii() || is_japanese(c)) {
            return japanese.into_owned();
        }
    }
    if let Some(cyrillic) = IBM866.decode_without_bom_handling_and_without_replacement(raw) {
        if cyrillic.chars().all(|c| c.is_ascii() || is_cyrillic(c)) {
            return cyrillic.into_owned();
        }
    }
    standard.to_owned()
}

/// Kana, kanji, the CJK punctuation and the full-width forms (not the
/// half-width katakana).
fn is_japanese(c: char) -> bool {
    matches!(c,
        '\u{3000}'..='\u{30ff}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}'
        | '\u{f900}'..='\u{faff}' | '\u{ff01}'..='\u{ff60}' | '\u{ffe0}'..='\u{ffef}')
}

/// The Cyrillic letters and the numero sign.
fn is_cyrillic(c: char) -> bool {
    matches!(c, '\u{0400}'..='\u{04ff}' | '№')
}

#[cfg(test)]
mod tests {
    use encoding_rs::{IBM866, SHIFT_JIS};

    use super::*;

    /// The name as encoded in `encoding`, and as the ZIP reader decodes an
    /// unflagged name (code page 437; only its bytes' count matters here).
    fn written(name: &str, encoding: &'static encoding_rs::Encoding) -> (Vec<u8>, String) {
        let (raw, _, bad) = encoding.encode(name);
        assert!(!bad, "{name} in {}", encoding.name());
        let standard = raw.iter().map(|&b| char::from(b)).collect();
        (raw.into_owned(), standard)
    }

    #[test]
    fn names_from_japanese_and_russian_windows_read_as_written() {
        let japanese = [
            "将棋.kif",
            "第１局　羽生善治－渡辺明.kif",
            "棋譜/髙橋ｖｓ山﨑.csa",
            "かな・カナ.ki2",
        ];
        let russian = [
            "партия.kif",
            "Турнир 2026/тур №3 Иванов-Петров.kif",
            "ИВАНОВ.KIF",
            "ёлка Є.csa",
        ];
        for (encoding, names) in [(SHIFT_JIS, japanese), (IBM866, russian)] {
            for name in names {
                let (raw, standard) = written(name, encoding);
                assert_eq!(member_name(&raw, &standard), name, "{raw:x?}");
            }
        }
    }

    #[test]
    fn utf8_ascii_and_other_names_are_left_as_they_are() {
        // UTF-8 without the flag: the reader gave CP437, the bytes say UTF-8.
        let raw = "партия 将棋.kif".as_bytes();
        assert_eq!(member_name(raw, "garbled"), "партия 将棋.kif");
        // Flagged UTF-8: the reader's name is the bytes.
        assert_eq!(member_name(raw, "партия 将棋.kif"), "партия 将棋.kif");
        assert_eq!(member_name(b"game 1.kif", "game 1.kif"), "game 1.kif");
        // Neither Japanese nor Cyrillic (CP437's box drawing and accents):
        // the standard's reading.
        let raw = b"caf\x82 \xb0\xb1.kif";
        assert_eq!(member_name(raw, "café ░▒.kif"), "café ░▒.kif");
    }
}
