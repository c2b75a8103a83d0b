//! The credentials an account is made of, checked from the text typed: a
//! [`Name`] (and a guest's [`GuestName`]), the [`name_key`] names are
//! unique by, and a new [`Password`], each refused with a
//! [`CredentialError`] saying which rule the text breaks.

use std::fmt;

use unicode_normalization::UnicodeNormalization;

use crate::error::{Error, Problem};

/// What makes a name, a guest name or a password unacceptable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CredentialError {
    /// Too short or too long (in characters, after NFC normalisation).
    #[error("a {what} has {min}-{max} characters, not {len}")]
    Length {
        /// `name`, `guest name` or `password`.
        what: &'static str,
        /// The fewest allowed.
        min: usize,
        /// The most allowed.
        max: usize,
        /// How many it has.
        len: usize,
    },
    /// A character that is not a letter, a digit, `_` or `-`.
    #[error("a {what} has only letters, digits, _ and -, not {bad:?}")]
    Character {
        /// `name` or `guest name`.
        what: &'static str,
        /// The first character refused.
        bad: char,
    },
}

impl From<CredentialError> for Error {
    fn from(e: CredentialError) -> Error {
        Error::Problem(match e {
            CredentialError::Length {
                what,
                min,
                max,
                len,
            } => Problem::BadLength {
                what,
                min,
                max,
                len,
            },
            CredentialError::Character { what, bad } => Problem::BadCharacter { what, bad },
        })
    }
}

/// The NFC form of `text` if it has `min..=max` characters, each a letter,
/// a digit, `_` or `-`.
fn checked_name(
    text: &str,
    what: &'static str,
    min: usize,
    max: usize,
) -> Result<String, CredentialError> {
    let nfc: String = text.nfc().collect();
    let len = nfc.chars().count();
    if !(min..=max).contains(&len) {
        return Err(CredentialError::Length {
            what,
            min,
            max,
            len,
        });
    }
    if let Some(bad) = nfc
        .chars()
        .find(|&c| !(c.is_alphabetic() || c.is_numeric() || c == '_' || c == '-'))
    {
        return Err(CredentialError::Character { what, bad });
    }
    Ok(nfc)
}

/// The key names are compared by: the Unicode full case folding of `text`,
/// normalised to NFC again (folding may undo it).
///
/// ```
/// use shogi_server::accounts::name_key;
/// assert_eq!(name_key("Straße"), name_key("STRASSE"));
/// assert_eq!(name_key("ЁЖИК"), "ёжик");
/// ```
#[must_use]
pub fn name_key(text: &str) -> String {
    let nfc: String = text.nfc().collect();
    caseless::default_case_fold_str(&nfc).nfc().collect()
}

/// An account's name: 2-24 letters, digits, `_` or `-`, in NFC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    text: String,
    key: String,
}

impl Name {
    /// Checks and normalises `text`.
    ///
    /// # Errors
    /// [`CredentialError`] saying which rule `text` breaks.
    pub fn parse(text: &str) -> Result<Name, CredentialError> {
        let text = checked_name(text, "name", 2, 24)?;
        let key = name_key(&text);
        Ok(Name { text, key })
    }

    /// The name as registered (NFC).
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The case-folded key that makes names unique.
    #[must_use]
    pub fn key(&self) -> &str {
        &self.key
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A guest's display name: 1-24 letters, digits, `_` or `-`, in NFC. It may
/// equal an account's name (it is shown as a guest).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuestName(String);

impl GuestName {
    /// Checks and normalises `text`.
    ///
    /// ```
    /// use shogi_server::accounts::GuestName;
    /// assert_eq!(GuestName::parse("Гость").unwrap().as_str(), "Гость");
    /// assert!(GuestName::parse("").is_err());
    /// assert!(GuestName::parse("a b").is_err());
    /// ```
    ///
    /// # Errors
    /// [`CredentialError`] saying which rule `text` breaks.
    pub fn parse(text: &str) -> Result<GuestName, CredentialError> {
        checked_name(text, "guest name", 1, 24).map(GuestName)
    }

    /// The name (NFC).
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GuestName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A new password: 8-256 characters (any), normalised to NFC so that the
/// same text typed on two keyboards is the same password.
#[derive(Clone)]
pub struct Password(pub(super) String);

impl Password {
    /// Checks the length of `text`.
    ///
    /// # Errors
    /// [`CredentialError::Length`] outside 8-256 characters.
    pub fn new(text: &str) -> Result<Password, CredentialError> {
        let nfc: String = text.nfc().collect();
        let len = nfc.chars().count();
        if !(8..=256).contains(&len) {
            return Err(CredentialError::Length {
                what: "password",
                min: 8,
                max: 256,
                len,
            });
        }
        Ok(Password(nfc))
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(..)")
    }
}

/// A password as typed at login, normalised like [`Password`] but not checked.
pub(super) fn typed(text: &str) -> String {
    text.nfc().collect()
}
