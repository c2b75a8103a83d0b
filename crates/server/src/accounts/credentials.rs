//! The credentials an account is made of, checked from the text typed: a
//! [`Name`] (and a guest's [`GuestName`]), the [`name_key`] names are
//! unique by, and a new [`Password`], each refused with a
//! [`CredentialError`] saying which rule the text breaks.

use std::fmt;

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

use crate::error::{Error, Problem};

/// What makes a name, a guest name or a password unacceptable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CredentialError {
    /// Too short or too long (in characters, after NFKC normalisation).
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
    /// A character that is not a letter, a digit, `_` or `-` (or an
    /// invisible, historic or combining one where a name starts).
    #[error("a {what} has only letters, digits, _ and -, not {bad:?}")]
    Character {
        /// `name` or `guest name`.
        what: &'static str,
        /// The first character refused.
        bad: char,
    },
    /// Letters of scripts that readers cannot tell apart mixed in one name
    /// (Latin with Cyrillic or Greek, say).
    #[error("a {what} mixes the letters of different scripts")]
    MixedScripts {
        /// `name` or `guest name`.
        what: &'static str,
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
            CredentialError::MixedScripts { what } => Problem::MixedScripts { what },
        })
    }
}

/// The NFKC form of `text` if it has `min..=max` characters, each `_`,
/// `-` or a letter or digit of UTS #39's identifier profile, the first not a
/// combining mark, of scripts a reader can tell apart (UTS #39's "highly
/// restrictive" level: one script, or Han with kana, Hangul or Bopomofo,
/// each optionally with Latin).
fn checked_name(
    text: &str,
    what: &'static str,
    min: usize,
    max: usize,
) -> Result<String, CredentialError> {
    let nfkc: String = text.nfkc().collect();
    let len = nfkc.chars().count();
    if !(min..=max).contains(&len) {
        return Err(CredentialError::Length {
            what,
            min,
            max,
            len,
        });
    }
    let allowed = |c: char| {
        c == '_'
            || c == '-'
            || (c.is_alphanumeric() || is_combining_mark(c)) && c.identifier_allowed()
    };
    if let Some(bad) = nfkc.chars().find(|&c| !allowed(c)) {
        return Err(CredentialError::Character { what, bad });
    }
    if let Some(bad) = nfkc.chars().next().filter(|&c| is_combining_mark(c)) {
        return Err(CredentialError::Character { what, bad });
    }
    let letters: String = nfkc.chars().filter(|&c| c != '_' && c != '-').collect();
    if letters.detect_restriction_level() > RestrictionLevel::HighlyRestrictive {
        return Err(CredentialError::MixedScripts { what });
    }
    Ok(nfkc)
}

/// The key names are compared by: the Unicode full case folding of the
/// NFKC form of `text`, normalised to NFKC again (folding may undo it).
///
/// ```
/// use shogi_server::accounts::name_key;
/// assert_eq!(name_key("Straße"), name_key("STRASSE"));
/// assert_eq!(name_key("ЁЖИК"), "ёжик");
/// assert_eq!(name_key("ＡＢＣ"), "abc");
/// ```
#[must_use]
pub fn name_key(text: &str) -> String {
    let nfkc: String = text.nfkc().collect();
    caseless::default_case_fold_str(&nfkc).nfkc().collect()
}

/// The UTS #39 confusable skeleton of a name, taken before and after case
/// folding: two names with the same skeleton look alike (`coco` in Latin
/// and `сосо` in Cyrillic, `Ivan` and `lvan`, `rn` and `m`), so only one of
/// them may be an account's.
///
/// ```
/// use shogi_server::accounts::name_skeleton;
/// assert_eq!(name_skeleton("coco"), name_skeleton("сосо"));
/// assert_eq!(name_skeleton("Modern"), name_skeleton("rnodern"));
/// assert_eq!(name_skeleton("Ivan"), name_skeleton("lvan"));
/// assert_ne!(name_skeleton("Алиса"), name_skeleton("Alisa"));
/// ```
#[must_use]
pub fn name_skeleton(text: &str) -> String {
    // Before folding (`I` looks like `l`) and after it (`m` like `rn`).
    let nfkc: String = text.nfkc().collect();
    let shape: String = unicode_security::skeleton(&nfkc).collect();
    unicode_security::skeleton(&name_key(&shape)).collect()
}

/// An account's name: 2-24 letters, digits, `_` or `-`, in NFKC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    text: String,
    key: String,
    skeleton: String,
}

impl Name {
    /// Checks and normalises `text`.
    ///
    /// # Errors
    /// [`CredentialError`] saying which rule `text` breaks.
    pub fn parse(text: &str) -> Result<Name, CredentialError> {
        let text = checked_name(text, "name", 2, 24)?;
        let key = name_key(&text);
        let skeleton = name_skeleton(&text);
        Ok(Name {
            text,
            key,
            skeleton,
        })
    }

    /// The name as registered (NFKC).
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The case-folded key that makes names unique.
    #[must_use]
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The confusable skeleton of the name ([`name_skeleton`]).
    #[must_use]
    pub fn skeleton(&self) -> &str {
        &self.skeleton
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A guest's display name: 1-24 letters, digits, `_` or `-`, in NFKC. It may
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

    /// The name (NFKC).
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
