//! Byte-level scanning shared by the readers: finding an ASCII byte and
//! splitting text into lines, exactly as `str::find` with an ASCII `char` and
//! `str::lines` do, without their per-match overhead (the standard searcher
//! compares every candidate with a `memcmp` call, which was a tenth of
//! reading the KIF and CSA records).

/// Sixteen copies of `b`.
const fn splat(b: u8) -> u128 {
    u128::from_ne_bytes([b; 16])
}

const LOW: u128 = splat(0x01);
const HIGH: u128 = splat(0x80);

/// The index of the first zero byte of `word` (read little-endian, so the
/// first byte is the lowest): the classic SWAR test, whose lowest flagged
/// byte is always a true zero (a borrow only carries upward, past a zero).
#[inline]
const fn first_zero(word: u128) -> Option<usize> {
    let mask = word.wrapping_sub(LOW) & !word & HIGH;
    if mask == 0 {
        None
    } else {
        Some((mask.trailing_zeros() / 8) as usize)
    }
}

/// The index of the first `needle` in `hay`, sixteen bytes at a time (the
/// last few bytes padded with a byte that is not `needle`).
#[inline]
pub(crate) fn find_byte(hay: &[u8], needle: u8) -> Option<usize> {
    let pattern = splat(needle);
    let mut chunks = hay.chunks_exact(16);
    let mut base = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 16];
        word.copy_from_slice(chunk);
        if let Some(i) = first_zero(u128::from_le_bytes(word) ^ pattern) {
            return Some(base + i);
        }
        base += 16;
    }
    // The last few bytes: eight at once, then one at a time. Copied into a
    // padded word instead (a `memset` and a `memcpy`), they were stored a
    // byte at a time and loaded back whole, a load the processor cannot
    // forward from those stores: a stall at the end of every short search.
    let mut rest = chunks.remainder();
    if let Some((&head, tail)) = rest.split_first_chunk::<8>() {
        // The upper half padded with a byte that is not `needle`.
        let pad = u128::from(u64::from_ne_bytes([!needle; 8])) << 64;
        let word = u128::from(u64::from_le_bytes(head)) | pad;
        if let Some(i) = first_zero(word ^ pattern) {
            return Some(base + i);
        }
        base += 8;
        rest = tail;
    }
    rest.iter().position(|&b| b == needle).map(|i| base + i)
}

/// `s.find(c)`: the last byte of `c`'s encoding is searched for, then the
/// bytes before it compared (a whole encoding matched in valid UTF-8 always
/// starts at a character boundary).
#[inline]
pub(crate) fn find_char(s: &str, c: char) -> Option<usize> {
    let mut buf = [0u8; 4];
    let pat = c.encode_utf8(&mut buf).as_bytes();
    let (&last, init) = pat.split_last()?;
    let hay = s.as_bytes();
    let mut from = 0;
    while let Some(i) = find_byte(&hay[from..], last) {
        let end = from + i;
        if end >= init.len() && hay[end - init.len()..end].iter().eq(init) {
            return Some(end - init.len());
        }
        from = end + 1;
    }
    None
}

/// The lines of `text` as [`str::lines`] gives them: split at `\n`, one `\r`
/// before it removed, no empty line after a final `\n`.
pub(crate) fn lines(text: &str) -> Lines<'_> {
    Lines { rest: text }
}

/// See [`lines`].
pub(crate) struct Lines<'a> {
    rest: &'a str,
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        let line = match find_byte(self.rest.as_bytes(), b'\n') {
            Some(i) => {
                // `\n` is ASCII, so both cuts fall on character boundaries.
                let (line, rest) = (&self.rest[..i], &self.rest[i + 1..]);
                self.rest = rest;
                line.strip_suffix('\r').unwrap_or(line)
            }
            None => std::mem::take(&mut self.rest),
        };
        Some(line)
    }
}

/// How many bytes of spaces (`' '`, `'\t'`, `'　'`) `b` starts with,
/// compared as bytes (the full-width space is `E3 80 80`; `E3` only ever
/// starts a character).
#[inline]
pub(crate) fn leading_spaces(b: &[u8]) -> usize {
    let mut i = 0;
    loop {
        match b.get(i..) {
            Some([b' ' | b'\t', ..]) => i += 1,
            Some([0xE3, 0x80, 0x80, ..]) => i += 3,
            _ => return i,
        }
    }
}

/// `s.trim_start_matches([' ', '\t', '　'])`, compared as bytes.
#[inline]
pub(crate) fn trim_start_spaces(s: &str) -> &str {
    &s[leading_spaces(s.as_bytes())..]
}

/// `s.trim_end_matches([' ', '\t', '　'])` compared as bytes (the last two
/// bytes of the full-width space `E3 80 80` only ever continue a
/// character, so a match at the end is a whole character).
pub(crate) fn trim_end_spaces(s: &str) -> &str {
    let mut b = s.as_bytes();
    loop {
        while let [rest @ .., b' ' | b'\t'] = b {
            b = rest;
        }
        match b {
            [rest @ .., 0xE3, 0x80, 0x80] => b = rest,
            _ => return &s[..b.len()],
        }
    }
}

/// `s.trim_end_matches(ascii)` for a set of ASCII characters, compared as
/// bytes (the last byte of a longer character is never ASCII).
#[inline]
pub(crate) fn trim_end_ascii<'a>(s: &'a str, ascii: &[u8]) -> &'a str {
    let b = s.as_bytes();
    let mut end = b.len();
    while end > 0 && ascii.contains(&b[end - 1]) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn lines_agree_with_std_on_edge_cases() {
        for text in [
            "",
            "\n",
            "\r\n",
            "\r",
            "a",
            "a\n",
            "a\r\n",
            "a\r",
            "a\r\rb\r\n\r\n\n",
            "\n\nx",
            "一行目\r\n二行目\n\r三",
            "0123456789abcdef\n0123456789abcdefghij\r\n",
        ] {
            assert_eq!(
                lines(text).collect::<Vec<_>>(),
                text.lines().collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn lines_agree_with_std(text in "[a\r\n \u{3000}歩]{0,80}") {
            prop_assert_eq!(lines(&text).collect::<Vec<_>>(), text.lines().collect::<Vec<_>>());
        }

        #[test]
        fn trims_agree_with_std(text in "[a\r\t \u{3000}\u{3001}歩]{0,20}") {
            prop_assert_eq!(trim_start_spaces(&text), text.trim_start_matches([' ', '\t', '\u{3000}']));
            prop_assert_eq!(trim_end_spaces(&text), text.trim_end_matches([' ', '\t', '\u{3000}']));
            prop_assert_eq!(trim_end_ascii(&text, b"\r \t"), text.trim_end_matches(['\r', ' ', '\t']));
        }

        #[test]
        fn find_char_agrees_with_std(text in "[a:：\u{ff1b}\u{3000}歩]{0,20}", c in "[a:：\u{ff1b}歩\u{1a}]") {
            let c = c.chars().next().expect("one char");
            prop_assert_eq!(find_char(&text, c), text.find(c));
        }

        #[test]
        fn find_byte_agrees_with_position(
            hay in proptest::collection::vec(any::<u8>(), 0..70),
            needle in any::<u8>(),
        ) {
            prop_assert_eq!(find_byte(&hay, needle), hay.iter().position(|&b| b == needle));
        }
    }
}
