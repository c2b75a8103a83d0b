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
//! The committer keeps its writing connection between transactions while
//! writes keep coming: sqlx checks a connection with a round trip when it
//! goes back to the pool, one more hand-over to `SQLite`'s thread (or to the
//! PostgreSQL server) for every transaction. Held, a move cost 7 µs less
//! CPU at 3000 games a server on `SQLite`, 16-22 µs less on PostgreSQL (the
//! load benchmark; docs/LOAD.md). It lets go after [`LINGER`] without a write, and at the
//! latest after [`MAX_HOLD`] or [`MAX_HOLD_BATCHES`] transactions, so that
//! other writes (a game created, a seat taken) wait for `SQLite`'s one
//! connection no longer than that.
//!
//! A transaction the database refuses is taken apart: each of its writes is
//! tried again in a transaction of its own, so that one bad write (a game
//! the database no longer has) fails alone and the others are stored; a
//! write that fails alone fails as before (the room keeps its game as it
//! was and tells the player).
//!
//! ```
//! # use shogi_server::games::committer::Committer;
//! # use shogi_server::db::Store;
//! # async fn example(store: Store) {
//! let committer = Committer::spawn(store);
//! # }
//! ```

use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio::time::{timeout, Instant};

use crate::db::{Fence, GameWrite, Store, Writer};

/// The most writes one transaction carries.
pub const MAX_BATCH: usize = 512;
/// How many writes may wait for the committer before rooms wait to hand theirs over.
const QUEUE: usize = 4096;
/// How long the committer keeps its connection without a write to store.
pub const LINGER: Duration = Duration::from_millis(2);
/// How long the committer keeps its connection at most before letting the
/// writes waiting for it go first.
pub const MAX_HOLD: Duration = Duration::from_millis(10);
/// How many transactions the committer commits at most on one taking of its
/// connection.
pub const MAX_HOLD_BATCHES: u32 = 32;

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
///
/// A batch's length is a power of two ([`batch_len`]); the writes beyond it go
/// first in the next batch, which starts at once. The store writes a
/// batch of plain moves whose length is a power of two as one statement,
/// atomic by itself; any other length as several statements between BEGIN
/// and COMMIT, three more round trips to the database's thread (and a
/// statement journal in `SQLite`).
async fn run(store: Store, mut rx: mpsc::Receiver<Pending>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    // The connection, when it was taken and how many batches it committed.
    let mut held: Option<(Writer, Instant, u32)> = None;
    loop {
        if batch.is_empty() {
            let received = match &held {
                Some(_) => match timeout(LINGER, rx.recv_many(&mut batch, MAX_BATCH)).await {
                    Ok(n) => n,
                    Err(_) => {
                        held = None;
                        continue;
                    }
                },
                None => rx.recv_many(&mut batch, MAX_BATCH).await,
            };
            if received == 0 {
                return;
            }
        }
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(p) => batch.push(p),
                Err(_) => break,
            }
        }
        let rest = batch.split_off(batch_len(batch.len()));
        if held.as_ref().is_some_and(|(_, since, batches)| {
            *batches >= MAX_HOLD_BATCHES || since.elapsed() >= MAX_HOLD
        }) {
            // The pool serves whoever waited first: the writes waiting
            // for the connection go before the committer takes it again.
            held = None;
        }
        let (writer, batches) = match &mut held {
            Some((writer, _, batches)) => (writer, batches),
            None => match store.writer().await {
                Ok(writer) => {
                    let (writer, _, batches) = held.insert((writer, Instant::now(), 0));
                    (writer, batches)
                }
                Err(e) => {
                    one_by_one(&store, &mut batch, e).await;
                    batch = rest;
                    continue;
                }
            },
        };
        *batches += 1;
        if let Err(e) = commit(writer, &mut batch).await {
            // A connection that failed may be broken: the pool checks it,
            // and each write is tried alone on a connection it hands out.
            held = None;
            one_by_one(&store, &mut batch, e).await;
        }
        batch = rest;
    }
}

/// How many of `queued` (at least 1) writes the next batch takes: the
/// largest power of two not above it.
fn batch_len(queued: usize) -> usize {
    1 << queued.max(1).ilog2()
}

/// Commits `batch` in one transaction; if it commits, answers each write
/// and empties `batch`.
///
/// # Errors
/// The transaction failed (nothing of it is stored; `batch` is kept).
async fn commit(writer: &mut Writer, batch: &mut Vec<Pending>) -> Result<(), sqlx::Error> {
    let writes: Vec<(&str, Option<&Fence>, &GameWrite)> = batch
        .iter()
        .map(|p| (p.game.as_str(), p.fence.as_ref(), &p.write))
        .collect();
    let result = writer.write_batch(&writes).await;
    drop(writes);
    result?;
    for p in batch.drain(..) {
        let _ = p.reply.send(Ok(()));
    }
    Ok(())
}

/// Answers the writes of a transaction that failed with `error`, or could
/// not get a connection (emptying `batch`): a write alone gets `error`;
/// several are each tried again in a transaction of their own.
async fn one_by_one(store: &Store, batch: &mut Vec<Pending>, error: sqlx::Error) {
    if batch.len() == 1 {
        if let Some(p) = batch.pop() {
            let _ = p.reply.send(Err(error));
        }
        return;
    }
    tracing::warn!(
        writes = batch.len(),
        "a group commit failed ({error}); committing its writes one by one"
    );
    for p in batch.drain(..) {
        let r = store
            .write_batch(&[(p.game.as_str(), p.fence.as_ref(), &p.write)])
            .await;
        let _ = p.reply.send(r);
    }
}

#[cfg(test)]
mod tests {
    use super::{batch_len, MAX_BATCH};

    #[test]
    fn a_batch_is_the_largest_power_of_two_queued() {
        for queued in 1..=2 * MAX_BATCH {
            let n = batch_len(queued);
            assert!(n.is_power_of_two(), "{queued} -> {n}");
            assert!(n <= queued && 2 * n > queued, "{queued} -> {n}");
        }
        assert_eq!(
            [batch_len(1), batch_len(3), batch_len(7), batch_len(8)],
            [1, 2, 4, 8]
        );
        assert!(MAX_BATCH.is_power_of_two());
    }
}
