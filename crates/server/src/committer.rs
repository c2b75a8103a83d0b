//! Group commit: the writes of live games (moves, endings) that arrive
//! together are stored by one task in one transaction.
//!
//! A room hands its write to the [`Committer`] and waits for the answer; it
//! acknowledges the move to its player and broadcasts it only after the
//! transaction holding it has committed, so a crash loses nothing anyone
//! was shown. While one transaction commits, the writes arriving meanwhile
//! queue up and go together in the next one: under load, one commit carries
//! many moves; alone, a move waits for no one.
//!
//! A transaction the database refuses is taken apart: each of its writes is
//! tried again in a transaction of its own, so that one bad write (a game
//! the database no longer has) fails alone and the others are stored; a
//! write that fails alone fails as before (the room keeps its game as it
//! was and tells the player).
//!
//! ```
//! # use shogi_server::committer::Committer;
//! # use shogi_server::db::Store;
//! # async fn example(store: Store) {
//! let committer = Committer::spawn(store);
//! # }
//! ```

use tokio::sync::{mpsc, oneshot};

use crate::db::{Fence, GameWrite, Store};

/// The most writes one transaction carries.
pub const MAX_BATCH: usize = 512;
/// How many writes may wait for the committer before rooms wait to hand theirs over.
const QUEUE: usize = 4096;

/// A write waiting for its transaction.
#[derive(Debug)]
struct Pending {
    game: String,
    fence: Option<Fence>,
    write: GameWrite,
    reply: oneshot::Sender<Result<(), sqlx::Error>>,
}

/// A handle on the committing task (cheap to clone). The task stops when
/// every handle is dropped.
#[derive(Clone, Debug)]
pub struct Committer {
    tx: mpsc::Sender<Pending>,
}

impl Committer {
    /// Starts the task that commits to `store` (inside a Tokio runtime).
    #[must_use]
    pub fn spawn(store: Store) -> Committer {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(store, rx));
        Committer { tx }
    }

    /// Stores `write` for game `game` (only while `fence`, if any, holds);
    /// returns once the transaction holding it has committed.
    ///
    /// # Errors
    /// The database refused it or the fence no longer holds (nothing of it
    /// is stored then), or the committer has stopped.
    pub async fn write(
        &self,
        game: &str,
        fence: Option<&Fence>,
        write: GameWrite,
    ) -> Result<(), sqlx::Error> {
        let (reply, answer) = oneshot::channel();
        let pending = Pending {
            game: game.to_owned(),
            fence: fence.cloned(),
            write,
            reply,
        };
        self.tx
            .send(pending)
            .await
            .map_err(|_| sqlx::Error::PoolClosed)?;
        answer.await.unwrap_or(Err(sqlx::Error::PoolClosed))
    }
}

/// Commits what has arrived, in batches of up to [`MAX_BATCH`], until every
/// handle is dropped.
async fn run(store: Store, mut rx: mpsc::Receiver<Pending>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        commit(&store, &mut batch).await;
    }
}

/// Commits `batch` (emptied) in one transaction and answers each write; if
/// the transaction fails, each write is tried alone.
async fn commit(store: &Store, batch: &mut Vec<Pending>) {
    let writes: Vec<(&str, Option<&Fence>, &GameWrite)> = batch
        .iter()
        .map(|p| (p.game.as_str(), p.fence.as_ref(), &p.write))
        .collect();
    let result = store.write_batch(&writes).await;
    drop(writes);
    match result {
        Ok(()) => {
            for p in batch.drain(..) {
                let _ = p.reply.send(Ok(()));
            }
        }
        Err(e) if batch.len() == 1 => {
            if let Some(p) = batch.pop() {
                let _ = p.reply.send(Err(e));
            }
        }
        Err(e) => {
            tracing::warn!(
                writes = batch.len(),
                "a group commit failed ({e}); committing its writes one by one"
            );
            for p in batch.drain(..) {
                let r = store
                    .write_batch(&[(p.game.as_str(), p.fence.as_ref(), &p.write)])
                    .await;
                let _ = p.reply.send(r);
            }
        }
    }
}
