//! Password hashing with argon2id on a few threads of its own ([`Hasher`]),
//! at most [`MAX_HASHING`] hashes at once.

use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use tokio::sync::OnceCell;

use crate::error::Error;
use crate::token;

/// At most this many password hashes are computed at once.
pub const MAX_HASHING: usize = 2;

/// A hashing job for the worker threads.
type Job = Box<dyn FnOnce() + Send>;

/// Hashes and verifies passwords on [`MAX_HASHING`] threads of its own.
///
/// Own threads rather than tokio's blocking pool: argon2 allocates its
/// 19 MiB of memory per hash, and the allocator keeps such blocks in the
/// arena of the thread that freed them. On the blocking pool, whose threads
/// come and go, every new thread kept its own copy (1.2 GB after 2000
/// registrations in the load benchmark); two fixed threads keep two.
pub(super) struct Hasher {
    jobs: std::sync::Mutex<std::sync::mpsc::Sender<Job>>,
    dummy: OnceCell<String>,
}

impl Hasher {
    pub(super) fn new() -> Hasher {
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
    pub(super) async fn run<T: Send + 'static>(
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
    pub(super) async fn hash(&self, password: String) -> Result<String, Error> {
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
    pub(super) async fn verify(&self, password: String, hash: String) -> Result<bool, Error> {
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
    pub(super) async fn verify_dummy(&self, password: String) -> Result<(), Error> {
        let dummy = self
            .dummy
            .get_or_try_init(|| self.hash(token::new_token()))
            .await?
            .clone();
        self.verify(password, dummy).await.map(|_| ())
    }
}
