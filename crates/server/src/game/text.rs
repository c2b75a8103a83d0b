//! The serde helpers for core values the protocol writes as text
//! ([`as_text`], and [`opt_text`] for optional ones in requests).

/// serde through `Display` and `FromStr`: the protocol's text form of a core
/// value (a USI move, an impasse rule's name, a handicap's name) is read and
/// written here, at the edge, and nowhere else.
pub(crate) mod as_text {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `v` as its `Display` text.
    pub fn serialize<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    /// Reads a `T` from text with its `FromStr`.
    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let text = String::deserialize(d)?;
        text.parse().map_err(D::Error::custom)
    }
}

/// [`as_text`] for an optional value in a request (`null` or absent is `None`).
pub(crate) mod opt_text {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer};

    /// Reads an optional `T` from text with its `FromStr`.
    pub fn deserialize<'de, T, D>(d: D) -> Result<Option<T>, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        match Option::<String>::deserialize(d)? {
            Some(text) => text.parse().map(Some).map_err(D::Error::custom),
            None => Ok(None),
        }
    }
}
