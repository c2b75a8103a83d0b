//! Unguessable tokens and ids from the operating system's random source.

use std::fmt::Write;

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    // Without a random source there is no safe way to hand out seats.
    getrandom::fill(&mut buf).expect("the operating system's random source failed");
    buf.iter()
        .fold(String::with_capacity(bytes * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// A seat token or invite code: 128 random bits as 32 hex digits.
#[must_use]
pub fn new_token() -> String {
    random_hex(16)
}

/// A game id: 64 random bits as 16 hex digits (ids are public; tokens guard the seats).
#[must_use]
pub fn new_game_id() -> String {
    random_hex(8)
}

/// Whether `s` looks like a game id.
#[must_use]
pub fn is_game_id(s: &str) -> bool {
    s.len() == 16 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A random bit.
#[must_use]
pub fn coin() -> bool {
    let mut b = [0u8; 1];
    getrandom::fill(&mut b).expect("the operating system's random source failed");
    b[0] & 1 == 1
}

/// Compares two secrets in time that does not depend on where they differ.
#[must_use]
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_32_hex_digits_and_differ() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert!(same(&a, &a.clone()) && !same(&a, &b));
        assert!(is_game_id(&new_game_id()));
    }
}
