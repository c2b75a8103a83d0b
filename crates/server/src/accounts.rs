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

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use sha2::{Digest, Sha256};
use tokio::sync::{broadcast, OnceCell};
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

use crate::db::{NameKeys, NewSession, Store, UserRow};
use crate::error::{Error, Problem};
use crate::time::unix_ms;
use crate::token;

/// How long a session lasts: 30 days.
pub const SESSION_TTL: Duration = Duration::from_secs(30 * 24 * 3600);

/// At most this many password hashes are computed at once.
pub const MAX_HASHING: usize = 2;

/// The answer to a wrong name or password, whichever it was.
pub const WRONG_LOGIN: &str = "wrong name or password";

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
pub struct Password(String);

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
fn typed(text: &str) -> String {
    text.nfc().collect()
}

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

/// A hashing job for the worker threads.
type Job = Box<dyn FnOnce() + Send>;

/// Hashes and verifies passwords on [`MAX_HASHING`] threads of its own.
///
/// Own threads rather than tokio's blocking pool: argon2 allocates its
/// 19 MiB of memory per hash, and the allocator keeps such blocks in the
/// arena of the thread that freed them. On the blocking pool, whose threads
/// come and go, every new thread kept its own copy (1.2 GB after 2000
/// registrations in the load benchmark); two fixed threads keep two.
struct Hasher {
    jobs: std::sync::Mutex<std::sync::mpsc::Sender<Job>>,
    dummy: OnceCell<String>,
}

impl Hasher {
    fn new() -> Hasher {
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let rx = Arc::new(std::sync::Mutex::new(rx));
        for i in 0..MAX_HASHING {
            let rx = Arc::clone(&rx);
            let spawned = std::thread::Builder::new()
                .name(format!("password-hash-{i}"))
                .spawn(move || loop {
                    // The lock is held only to take the next job.
                    let next = rx
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .recv();
                    match next {
                        Ok(job) => job(),
                        // The accounts service is gone.
                        Err(_) => return,
                    }
                });
            if let Err(e) = spawned {
                tracing::error!("cannot start a password hashing thread: {e}");
            }
        }
        Hasher {
            jobs: std::sync::Mutex::new(tx),
            dummy: OnceCell::new(),
        }
    }

    /// Runs `job` on a hashing thread, after the jobs before it.
    async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Error> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            // The caller may have stopped waiting.
            let _ = reply.send(job());
        });
        self.jobs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .send(job)
            .map_err(|_| Error::Internal("password hashing stopped".into()))?;
        answer
            .await
            .map_err(|_| Error::Internal("password hashing failed".into()))
    }

    /// The PHC string of `password` with a fresh random salt.
    async fn hash(&self, password: String) -> Result<String, Error> {
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).map_err(|e| Error::Internal(format!("random source: {e}")))?;
        self.run(move || {
            let salt = SaltString::encode_b64(&salt)
                .map_err(|e| Error::Internal(format!("password salt: {e}")))?;
            Argon2::default()
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(|e| Error::Internal(format!("password hashing: {e}")))
        })
        .await?
    }

    /// Whether `password` matches the PHC string `hash` (compared in
    /// constant time by the crate).
    async fn verify(&self, password: String, hash: String) -> Result<bool, Error> {
        self.run(move || {
            let parsed = PasswordHash::new(&hash)
                .map_err(|e| Error::Internal(format!("stored password hash: {e}")))?;
            Ok(Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok())
        })
        .await?
    }

    /// The same work as a verification, for a name that has no account.
    async fn verify_dummy(&self, password: String) -> Result<(), Error> {
        let dummy = self
            .dummy
            .get_or_try_init(|| self.hash(token::new_token()))
            .await?
            .clone();
        self.verify(password, dummy).await.map(|_| ())
    }
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
        admin: bool,
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
            .insert_user(&keys, &hash, admin, unix_ms())
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
