//! Accounts and their sessions: names, passwords (argon2id hashes), login,
//! logout, password changes and deleting an account. No HTTP here: the
//! handlers in `api` turn cookies and bodies into these calls.
//!
//! A [`Name`] is 2-24 characters after NFC normalisation: letters of any
//! script, digits, `_` and `-`. Names are unique by their [`Name::key`], the
//! Unicode full case folding of the NFC form, so `Ёжик` and `ёЖИК`, or
//! `Straße` and `STRASSE`, are one name.
//!
//! ```
//! use shogi_server::accounts::{GuestName, Name, Password};
//! let a = Name::parse("Ёжик").unwrap();
//! let b = Name::parse("ёЖИК").unwrap();
//! assert_eq!(a.key(), b.key());
//! assert_eq!(a.as_str(), "Ёжик");
//! assert!(Name::parse("x").is_err());
//! assert!(Name::parse("<script>").is_err());
//! assert!(GuestName::parse("x").is_ok());
//! assert!(Password::new("short").is_err());
//! ```
//!
//! Passwords are hashed with argon2id (the `argon2` crate's default
//! parameters, stored as a PHC string) on tokio's blocking threads, at most
//! [`MAX_HASHING`] at once so that a flood of logins cannot take every core.
//! A wrong password and an unknown name answer the same error after the same
//! work (an unknown name is checked against a dummy hash).

mod credentials;
mod hasher;

use std::sync::Arc;
use std::time::Duration;

use crate::db::{NewSession, Store, UserRow};
use crate::error::{Error, Problem};
use crate::time::unix_ms;
use crate::token;

use credentials::typed;
pub use credentials::{name_key, CredentialError, GuestName, Name, Password};
use hasher::Hasher;
pub use hasher::MAX_HASHING;

/// How long a session lasts: 30 days.
pub const SESSION_TTL: Duration = Duration::from_secs(30 * 24 * 3600);

/// The answer to a wrong name or password, whichever it was.
pub const WRONG_LOGIN: &str = "wrong name or password";

/// A logged-in account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The account's row id.
    pub id: i64,
    /// The name as registered.
    pub name: String,
    /// Whether it may administer the server.
    pub admin: bool,
}

impl From<&UserRow> for Account {
    fn from(row: &UserRow) -> Account {
        Account {
            id: row.id,
            name: row.name.clone(),
            admin: row.admin,
        }
    }
}

/// A session: the cookie's value and when it ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// 128 random bits as 32 hex digits.
    pub id: String,
    /// How long the cookie should live.
    pub max_age: Duration,
}

/// Whether `id` looks like a session id (32 lower-case hex digits).
#[must_use]
pub fn is_session_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The accounts service (cheap to clone).
#[derive(Clone)]
pub struct Accounts {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    hasher: Hasher,
    session_ttl: Duration,
}

impl Accounts {
    /// Accounts stored in `store`, sessions lasting [`SESSION_TTL`].
    #[must_use]
    pub fn new(store: Store) -> Accounts {
        Accounts::with_session_ttl(store, SESSION_TTL)
    }

    /// Accounts whose sessions last `ttl` (tests use a short one).
    #[must_use]
    pub fn with_session_ttl(store: Store, ttl: Duration) -> Accounts {
        Accounts {
            inner: Arc::new(Inner {
                store,
                hasher: Hasher::new(),
                session_ttl: ttl,
            }),
        }
    }

    fn store(&self) -> &Store {
        &self.inner.store
    }

    fn new_session(&self, user_id: i64) -> (Session, NewSession) {
        let id = token::new_token();
        let now = unix_ms();
        let ttl_ms = u64::try_from(self.inner.session_ttl.as_millis()).unwrap_or(u64::MAX);
        let row = NewSession {
            id: id.clone(),
            user_id,
            created_at_ms: now,
            expires_at_ms: now.saturating_add(ttl_ms),
        };
        let session = Session {
            id,
            max_age: self.inner.session_ttl,
        };
        (session, row)
    }

    async fn start_session(&self, user_id: i64) -> Result<Session, Error> {
        let (session, row) = self.new_session(user_id);
        self.store().insert_session(&row).await?;
        Ok(session)
    }

    /// Whether an account has this name (in any case).
    ///
    /// # Errors
    /// The database failed.
    pub async fn name_taken(&self, name: &Name) -> Result<bool, Error> {
        Ok(self.store().user_by_key(name.key()).await?.is_some())
    }

    /// Creates an account (without logging it in).
    ///
    /// # Errors
    /// [`Error::Conflict`] `name taken` for a name already used in any case;
    /// the database failed.
    pub async fn create(
        &self,
        name: &Name,
        password: Password,
        admin: bool,
    ) -> Result<Account, Error> {
        if self.name_taken(name).await? {
            return Err(name_taken());
        }
        let hash = self.inner.hasher.hash(password.0).await?;
        let id = self
            .store()
            .insert_user(name.as_str(), name.key(), &hash, admin, unix_ms())
            .await?
            .ok_or_else(name_taken)?;
        Ok(Account {
            id,
            name: name.as_str().to_string(),
            admin,
        })
    }

    /// Creates an account and logs it in.
    ///
    /// # Errors
    /// As [`Accounts::create`].
    pub async fn register(
        &self,
        name: &Name,
        password: Password,
    ) -> Result<(Account, Session), Error> {
        let account = self.create(name, password, false).await?;
        let session = self.start_session(account.id).await?;
        Ok((account, session))
    }

    /// Logs in: a new session for the account if the password is its own.
    ///
    /// # Errors
    /// [`Error::Unauthorized`] [`WRONG_LOGIN`] for an unknown name or a wrong
    /// password alike (after the same work); the database failed.
    pub async fn login(&self, name: &str, password: &str) -> Result<(Account, Session), Error> {
        let password = typed(password);
        let row = match Name::parse(name) {
            Ok(name) => self.store().user_by_key(name.key()).await?,
            Err(_) => None,
        };
        let Some(row) = row else {
            self.inner.hasher.verify_dummy(password).await?;
            return Err(Problem::WrongLogin.into());
        };
        if !self
            .inner
            .hasher
            .verify(password, row.password_hash.clone())
            .await?
        {
            return Err(Problem::WrongLogin.into());
        }
        self.store()
            .delete_expired_sessions(row.id, unix_ms())
            .await?;
        let session = self.start_session(row.id).await?;
        Ok((Account::from(&row), session))
    }

    /// Ends the session `id` (nothing happens for an unknown one).
    ///
    /// # Errors
    /// The database failed.
    pub async fn logout(&self, session_id: &str) -> Result<(), Error> {
        if is_session_id(session_id) {
            self.store().delete_session(session_id).await?;
        }
        Ok(())
    }

    /// The account logged in with session `id`, if it is a live session.
    ///
    /// # Errors
    /// The database failed.
    pub async fn user_of_session(&self, session_id: &str) -> Result<Option<Account>, Error> {
        if !is_session_id(session_id) {
            return Ok(None);
        }
        let row = self.store().session_user(session_id, unix_ms()).await?;
        Ok(row.as_ref().map(Account::from))
    }

    /// The stored row of account `id` if `password` is its password.
    async fn checked(&self, user_id: i64, password: &str) -> Result<UserRow, Error> {
        let wrong = || Error::Problem(Problem::WrongPassword);
        let row = self.store().user_by_id(user_id).await?.ok_or_else(wrong)?;
        let ok = self
            .inner
            .hasher
            .verify(typed(password), row.password_hash.clone())
            .await?;
        if ok {
            Ok(row)
        } else {
            Err(wrong())
        }
    }

    /// Changes the password of account `id`: every session of the account
    /// ends, and the new session returned replaces the caller's.
    ///
    /// # Errors
    /// [`Error::Unauthorized`] `wrong password` when `old` is not the
    /// password; [`Error::BadRequest`] for a bad new password; the database
    /// failed.
    pub async fn change_password(
        &self,
        user_id: i64,
        old: &str,
        new: &str,
    ) -> Result<Session, Error> {
        let new = Password::new(new)?;
        self.checked(user_id, old).await?;
        let hash = self.inner.hasher.hash(new.0).await?;
        let (session, row) = self.new_session(user_id);
        self.store()
            .set_password(user_id, &hash, Some(&row))
            .await?;
        Ok(session)
    }

    /// Sets the password of the account named `name` (an administrator's
    /// reset): every session of the account ends.
    ///
    /// # Errors
    /// [`Error::NoSuch`] `account` for an unknown name; the database failed.
    pub async fn set_password(&self, name: &Name, password: Password) -> Result<(), Error> {
        let row = self
            .store()
            .user_by_key(name.key())
            .await?
            .ok_or(Error::NoSuch("account"))?;
        let hash = self.inner.hasher.hash(password.0).await?;
        self.store().set_password(row.id, &hash, None).await?;
        Ok(())
    }

    /// Deletes account `id` if `password` is its password: the account, its
    /// sessions and its ratings go; its games stay, their seat named
    /// `deleted`, in the same transaction.
    ///
    /// # Errors
    /// [`Error::Unauthorized`] `wrong password`; the database failed.
    pub async fn delete_account(&self, user_id: i64, password: &str) -> Result<(), Error> {
        self.checked(user_id, password).await?;
        self.store().delete_user(user_id).await?;
        Ok(())
    }
}

fn name_taken() -> Error {
    Error::Problem(Problem::NameTaken)
}

/// The administrator's tools (`shogi user ...`): each opens the database
/// (an `SQLite` file or a PostgreSQL URL), does one thing and closes it.
pub mod admin {
    use super::{Account, Accounts, Error, Name, Password, Store};
    use crate::db::Location;

    async fn open(db: &Location) -> Result<Accounts, Error> {
        Ok(Accounts::new(Store::open(db).await?))
    }

    /// Creates the account `name` with `password` (and the admin flag).
    ///
    /// # Errors
    /// A bad name or password ([`Error::BadRequest`]), a name taken
    /// ([`Error::Conflict`]), or the database cannot be opened.
    pub async fn add_user(
        db: &Location,
        name: &str,
        password: &str,
        admin: bool,
    ) -> Result<Account, Error> {
        let name = Name::parse(name)?;
        let password = Password::new(password)?;
        let accounts = open(db).await?;
        let result = accounts.create(&name, password, admin).await;
        accounts.store().close().await;
        result
    }

    /// Sets the password of the account `name`, ending its sessions.
    ///
    /// # Errors
    /// A bad name or password, an unknown account ([`Error::NoSuch`]), or
    /// the database cannot be opened.
    pub async fn set_password(db: &Location, name: &str, password: &str) -> Result<(), Error> {
        let name = Name::parse(name)?;
        let password = Password::new(password)?;
        let accounts = open(db).await?;
        let result = accounts.set_password(&name, password).await;
        accounts.store().close().await;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_any_script_with_digits_underscore_and_hyphen() {
        for ok in ["Алиса", "太郎", "たろう", "ab", "a_b-c9", "Ｘ１", "Straße"] {
            assert!(Name::parse(ok).is_ok(), "{ok}");
        }
        assert_eq!(
            Name::parse(&"я".repeat(24))
                .unwrap()
                .as_str()
                .chars()
                .count(),
            24
        );
    }

    #[test]
    fn bad_names_say_which_rule() {
        assert_eq!(
            Name::parse("a").unwrap_err().to_string(),
            "a name has 2-24 characters, not 1"
        );
        assert!(matches!(
            Name::parse(&"a".repeat(25)),
            Err(CredentialError::Length { len: 25, .. })
        ));
        assert_eq!(
            Name::parse("a b").unwrap_err(),
            CredentialError::Character {
                what: "name",
                bad: ' '
            }
        );
        assert!(Name::parse("<script>").is_err());
        assert!(Name::parse("ab\u{0}").is_err());
        assert!(Name::parse("ab.cd").is_err());
    }

    #[test]
    fn names_are_counted_after_nfc() {
        // "é" as e + combining acute: two code points, one after NFC.
        assert!(Name::parse("e\u{301}").is_err());
        let name = Name::parse("e\u{301}x").unwrap();
        assert_eq!(name.as_str(), "\u{e9}x");
        assert_eq!(name.key(), Name::parse("\u{c9}X").unwrap().key());
    }

    #[test]
    fn keys_fold_case_fully() {
        let key = |s| Name::parse(s).unwrap().key().to_string();
        assert_eq!(key("Ёжик"), key("ёЖИК"));
        assert_eq!(key("Straße"), key("STRASSE"));
        assert_eq!(key("ΣΊΣΥΦΟΣ"), key("σίσυφος"));
        assert_ne!(key("Алиса"), key("Alisa"));
    }

    #[test]
    fn guest_names_allow_one_character() {
        assert!(GuestName::parse("x").is_ok());
        assert!(GuestName::parse(&"x".repeat(25)).is_err());
        assert!(GuestName::parse("a<b").is_err());
    }

    #[test]
    fn passwords_have_8_to_256_characters() {
        assert!(Password::new("1234567").is_err());
        assert!(Password::new("12345678").is_ok());
        assert!(Password::new(&"ж".repeat(256)).is_ok());
        assert!(Password::new(&"ж".repeat(257)).is_err());
        assert_eq!(
            format!("{:?}", Password::new("secret-words").unwrap()),
            "Password(..)"
        );
    }

    #[test]
    fn session_ids_are_32_lower_hex() {
        assert!(is_session_id(&token::new_token()));
        assert!(!is_session_id("0123"));
        assert!(!is_session_id(&"G".repeat(32)));
    }
}
