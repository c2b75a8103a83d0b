//! Accounts and their sessions: names, passwords (argon2id hashes), login,
//! logout, password changes and deleting an account. No HTTP here: the
//! handlers in `api` turn cookies and bodies into these calls.
//!
//! A [`Name`] is 2-24 characters after NFKC normalisation: `_`, `-` and the
//! letters and digits Unicode recommends for identifiers (UTS #39's
//! identifier profile, which leaves out invisible fillers, format
//! characters and historic scripts), of one script or of a combination
//! readers know (Japanese kana with kanji and Latin, say; not Latin with
//! Cyrillic). Names are unique by their [`Name::key`], the Unicode full case
//! folding of the NFKC form, so `Ёжик` and `ёЖИК`, `Straße` and `STRASSE`, or
//! `ａｌｉｃｅ` and `Alice` are one name; and a name whose confusable skeleton
//! ([`Name::skeleton`], UTS #39) is an existing name's is refused as too like
//! it (`сосо` in Cyrillic beside `coco` in Latin).
//!
//! ```
//! use shogi_server::accounts::{GuestName, Name, Password};
//! let a = Name::parse("Ёжик").unwrap();
//! let b = Name::parse("ёЖИК").unwrap();
//! assert_eq!(a.key(), b.key());
//! assert_eq!(a.as_str(), "Ёжик");
//! assert!(Name::parse("x").is_err());
//! assert!(Name::parse("<script>").is_err());
//! assert!(Name::parse("аlice").is_err()); // Cyrillic а, Latin lice
//! assert_eq!(Name::parse("ａｌｉｃｅ").unwrap().key(), Name::parse("Alice").unwrap().key());
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
pub mod programs;
pub mod role;

use std::sync::Arc;
use std::time::Duration;

use sha2::{Digest, Sha256};
use tokio::sync::broadcast;

use crate::db::{NameKeys, NewSession, Store, UserRow};
use crate::error::{Error, Problem};
use crate::time::unix_ms;
use crate::token;

use credentials::typed;
pub use credentials::{name_key, name_skeleton, CredentialError, GuestName, Name, Password};
use hasher::Hasher;
pub use hasher::MAX_HASHING;
pub use role::Role;

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
    /// What it may do beyond playing.
    pub role: Role,
    /// Whether it is a program's account (`shogi user add NAME --bot`).
    pub bot: bool,
}

impl Account {
    /// Whether it administers the server (organises any event, sets roles).
    #[must_use]
    pub fn is_admin(&self) -> bool {
        self.role.is_admin()
    }
}

impl From<&UserRow> for Account {
    fn from(row: &UserRow) -> Account {
        Account {
            id: row.id,
            name: row.name.clone(),
            role: row.role,
            bot: row.bot,
        }
    }
}

/// What a session is stored as: the SHA-256 of the cookie's value in hex,
/// so that a copy of the database opens no session.
///
/// ```
/// use shogi_server::accounts::session_key;
/// assert_eq!(session_key("abc").len(), 64);
/// assert_ne!(session_key("abc"), "abc");
/// ```
#[must_use]
pub fn session_key(cookie: &str) -> String {
    let digest = Sha256::digest(cookie.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
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
    ends: broadcast::Sender<SessionEnd>,
}

/// Sessions that just ended, told to the sockets opened with them so that
/// they close at once ([`Accounts::session_ends`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// One session (its [`session_key`]): a logout.
    One(String),
    /// Every session of an account (its id): a password change, the
    /// account deleted or disabled.
    AllOf(i64),
}

impl SessionEnd {
    /// Whether it ends the session `key` of account `user`.
    #[must_use]
    pub fn ends(&self, key: &str, user: i64) -> bool {
        match self {
            SessionEnd::One(k) => k == key,
            SessionEnd::AllOf(u) => *u == user,
        }
    }
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
                // Endings are rare; a socket that lags behind checks its session.
                ends: broadcast::channel(64).0,
            }),
        }
    }

    fn store(&self) -> &Store {
        &self.inner.store
    }

    /// The sessions ending from now on, for a socket to close when its own
    /// does. Only this instance's endings: with several instances on one
    /// database a socket elsewhere notices at its next request
    /// (docs/SECURITY.md).
    #[must_use]
    pub fn session_ends(&self) -> broadcast::Receiver<SessionEnd> {
        self.inner.ends.subscribe()
    }

    /// Every session of account `user` has ended (deleted from the store
    /// by the caller: an account disabled): its sockets close.
    pub fn sessions_ended(&self, user: i64) {
        self.ended(SessionEnd::AllOf(user));
    }

    fn ended(&self, end: SessionEnd) {
        // No receiver: no socket is open.
        let _ = self.inner.ends.send(end);
    }

    fn new_session(&self, user_id: i64) -> (Session, NewSession) {
        let id = token::new_token();
        let now = unix_ms();
        let ttl_ms = u64::try_from(self.inner.session_ttl.as_millis()).unwrap_or(u64::MAX);
        let row = NewSession {
            id: session_key(&id),
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

    /// Stores the confusable skeleton of every account created before
    /// names had one (run at start-up; nothing to do after the first).
    ///
    /// # Errors
    /// The database failed.
    pub async fn fill_skeletons(&self) -> Result<usize, Error> {
        let rows = self.store().users_without_skeleton().await?;
        for (id, name) in &rows {
            self.store().set_skeleton(*id, &name_skeleton(name)).await?;
        }
        Ok(rows.len())
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
        role: Role,
    ) -> Result<Account, Error> {
        if self.name_taken(name).await? {
            return Err(name_taken());
        }
        if let Some(like) = self.store().name_with_skeleton(name.skeleton()).await? {
            return Err(Error::Problem(Problem::NameTooLike { name: like }));
        }
        let hash = self.inner.hasher.hash(password.0).await?;
        let keys = NameKeys {
            name: name.as_str(),
            key: name.key(),
            skeleton: name.skeleton(),
        };
        let id = self
            .store()
            .insert_user(&keys, &hash, role, unix_ms())
            .await?
            .ok_or_else(name_taken)?;
        Ok(Account {
            id,
            name: name.as_str().to_string(),
            role,
            bot: false,
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
        let account = self.create(name, password, Role::Player).await?;
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
        // Said only to whoever knows the password.
        if row.disabled {
            return Err(Problem::AccountDisabled.into());
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
            let key = session_key(session_id);
            self.store().delete_session(&key).await?;
            self.ended(SessionEnd::One(key));
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
        let row = self
            .store()
            .session_user(&session_key(session_id), unix_ms())
            .await?;
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
        self.ended(SessionEnd::AllOf(user_id));
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
        self.ended(SessionEnd::AllOf(row.id));
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
        self.ended(SessionEnd::AllOf(user_id));
        Ok(())
    }
}

fn name_taken() -> Error {
    Error::Problem(Problem::NameTaken)
}

/// The administrator's tools (`shogi user ...`): each opens the database
/// (an `SQLite` file or a PostgreSQL URL), does one thing and closes it.
pub mod admin {
    use super::{Account, Accounts, Error, Name, Password, Role, Store, MAX_HASHING};
    use crate::db::Location;
    use crate::token;

    async fn open(db: &Location) -> Result<Accounts, Error> {
        Ok(Accounts::new(Store::open(db).await?))
    }

    /// Creates the account `name` with `password` and `role`.
    ///
    /// # Errors
    /// A bad name or password ([`Error::BadRequest`]), a name taken
    /// ([`Error::Conflict`]), or the database cannot be opened.
    pub async fn add_user(
        db: &Location,
        name: &str,
        password: &str,
        role: Role,
    ) -> Result<Account, Error> {
        let name = Name::parse(name)?;
        let password = Password::new(password)?;
        let accounts = open(db).await?;
        let result = accounts.create(&name, password, role).await;
        accounts.store().close().await;
        result
    }

    /// Creates the program accounts `names` (`shogi user add NAME... --bot`)
    /// in one opening of the database, [`MAX_HASHING`]
    /// at once: each web password is random and never shown. `added` is
    /// told each account and its CSA token (to be shown once), in the order
    /// of `names`. Every name is checked before any account is made, so a
    /// malformed one makes none.
    ///
    /// # Errors
    /// The first name that fails and why (as [`add_user`]); the accounts
    /// made before it stay, and `added` was told of them.
    pub async fn add_programs(
        db: &Location,
        names: &[String],
        mut added: impl FnMut(&Account, &str),
    ) -> Result<(), (String, Error)> {
        let mut parsed = Vec::with_capacity(names.len());
        for n in names {
            parsed.push(Name::parse(n).map_err(|e| (n.clone(), e.into()))?);
        }
        let first = names.first().cloned().unwrap_or_default();
        let accounts = open(db).await.map_err(|e| (first, e))?;
        let result = async {
            for chunk in parsed.chunks(MAX_HASHING) {
                // Hashed side by side on the hasher's threads.
                let made: Vec<_> = chunk
                    .iter()
                    .map(|name| tokio::spawn(add_one(accounts.clone(), name.clone())))
                    .collect();
                let mut failed = None;
                for (task, name) in made.into_iter().zip(chunk) {
                    let outcome = task
                        .await
                        .unwrap_or_else(|e| Err(Error::Internal(e.to_string())));
                    match outcome {
                        Ok((account, token)) => added(&account, &token),
                        Err(e) => {
                            failed.get_or_insert((name.as_str().to_owned(), e));
                        }
                    }
                }
                if let Some(f) = failed {
                    return Err(f);
                }
            }
            Ok(())
        }
        .await;
        accounts.store().close().await;
        result
    }

    /// Makes the program account `name` with a random web password; the
    /// account and its new CSA token.
    async fn add_one(accounts: Accounts, name: Name) -> Result<(Account, String), Error> {
        let password = Password::new(&token::new_token())?;
        let mut account = accounts.create(&name, password, Role::Player).await?;
        let token = accounts.issue_csa_token(&account.name).await?;
        account.bot = true;
        Ok((account, token))
    }

    /// Issues account `name` a new CSA token, marking it as a program
    /// (`shogi user csa-token NAME`); the old token stops working.
    ///
    /// # Errors
    /// An unknown account ([`Error::NoSuch`]), or the database cannot be
    /// opened.
    pub async fn csa_token(db: &Location, name: &str) -> Result<String, Error> {
        let accounts = open(db).await?;
        let result = accounts.issue_csa_token(name).await;
        accounts.store().close().await;
        result
    }

    /// Sets the role of account `name`, logged as done from the command
    /// line (`shogi user role NAME ROLE`).
    ///
    /// # Errors
    /// An unknown account ([`Error::NoSuch`]), or the database cannot be
    /// opened.
    pub async fn set_role(db: &Location, name: &str, role: Role) -> Result<String, Error> {
        let name = Name::parse(name)?;
        let store = Store::open(db).await?;
        let result = async {
            let row = store
                .user_by_key(name.key())
                .await?
                .ok_or(Error::NoSuch("account"))?;
            let target = format!("{}: {}", row.name, role.name());
            let entry = crate::db::moderation::LogEntry {
                moderator: None,
                moderator_name: "shogi user role",
                action: "role",
                target: &target,
                reason: "set from the command line",
                at_ms: crate::time::unix_ms(),
            };
            store.set_role(row.id, role, &entry).await?;
            Ok(row.name)
        }
        .await;
        store.close().await;
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
    fn invisible_and_mixed_script_names_are_refused() {
        // Hangul fillers, a zero-width joiner, a lone combining mark.
        for bad in [
            "\u{3164}\u{3164}",
            "\u{115F}\u{1160}",
            "ab\u{200D}",
            "\u{301}ab",
        ] {
            assert!(
                matches!(Name::parse(bad), Err(CredentialError::Character { .. })),
                "{bad:?}"
            );
        }
        // Cyrillic а with Latin; Greek ο with Latin.
        for bad in ["\u{430}lice", "b\u{3BF}b"] {
            assert_eq!(
                Name::parse(bad),
                Err(CredentialError::MixedScripts { what: "name" }),
                "{bad:?}"
            );
        }
        // Japanese mixes kanji, kana and Latin; digits go with any script.
        for ok in ["羽生善治", "藤井そうた", "Taro太郎", "Иван2", "ΣΩΚΡΑΤΗΣ"]
        {
            assert!(Name::parse(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn full_width_names_are_their_ascii_twins() {
        let full = Name::parse("ａｌｉｃｅ").unwrap();
        assert_eq!(full.as_str(), "alice");
        assert_eq!(full.key(), Name::parse("ALICE").unwrap().key());
    }

    #[test]
    fn look_alike_names_share_a_skeleton() {
        let skeleton = |s| Name::parse(s).unwrap().skeleton().to_string();
        assert_eq!(skeleton("coco"), skeleton("сосо"));
        assert_eq!(skeleton("Paul"), skeleton("PAUL"));
        assert_eq!(skeleton("I1l"), skeleton("lll"));
        assert_ne!(skeleton("ivan"), skeleton("ivanov"));
    }

    #[test]
    fn sessions_are_stored_as_a_hash() {
        let cookie = token::new_token();
        let key = session_key(&cookie);
        assert_eq!(key.len(), 64);
        assert!(!key.contains(&cookie));
        assert_eq!(key, session_key(&cookie));
        // SHA-256 of "abc" (FIPS 180-2, appendix B.1).
        assert_eq!(
            session_key("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
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
