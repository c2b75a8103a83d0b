//! The search pool: the computer's moves, game analyses and mate searches
//! share a fixed number of search threads, so that a burst of them cannot
//! take more CPU than the machine has. At most `threads` searches hold a
//! [`SearchPermit`] at once; the others wait in the order they asked
//! (tokio's semaphore is fair), and a [`Ticket`] says how many wait before
//! it, which the room shows the waiting player (`computer.state = "queued"`).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use shogi_server::search_pool::SearchPool;
//! let pool = SearchPool::new(1);
//! let first = pool.ticket();
//! assert_eq!(first.ahead(), None); // a free thread: it searches at once
//! let running = first.wait().await;
//! let second = pool.ticket();
//! assert_eq!(second.ahead(), Some(0)); // queued, no one before it
//! drop(running);
//! let next = second.wait().await; // the freed thread goes to it
//! drop(next);
//! assert_eq!(pool.run(|| 6 * 7).await.unwrap(), 42);
//! # }
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinError;

/// The shared search threads (cheap to clone).
#[derive(Clone, Debug)]
pub struct SearchPool {
    permits: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    threads: usize,
}

impl Default for SearchPool {
    /// As many threads as the machine has cores.
    fn default() -> Self {
        SearchPool::new(default_threads())
    }
}

/// The machine's parallelism (1 when it cannot be read).
#[must_use]
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

impl SearchPool {
    /// A pool of `threads` search threads (at least 1).
    #[must_use]
    pub fn new(threads: usize) -> SearchPool {
        let threads = threads.max(1);
        SearchPool {
            permits: Arc::new(Semaphore::new(threads)),
            waiting: Arc::default(),
            threads,
        }
    }

    /// How many searches may run at once.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// How many searches wait for a thread now.
    #[must_use]
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }

    /// A place in the queue: a thread at once if one is free, otherwise a
    /// place behind the searches already waiting.
    #[must_use]
    pub fn ticket(&self) -> Ticket {
        match Arc::clone(&self.permits).try_acquire_owned() {
            Ok(permit) => Ticket {
                pool: self.clone(),
                state: TicketState::Ready(permit),
            },
            Err(_) => Ticket {
                state: TicketState::Waiting {
                    ahead: self.waiting.fetch_add(1, Ordering::SeqCst),
                },
                pool: self.clone(),
            },
        }
    }

    /// Runs the blocking search `f` on a thread of the pool when one is free.
    ///
    /// # Errors
    /// The search panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, JoinError> {
        let permit = self.ticket().wait().await;
        tokio::task::spawn_blocking(move || {
            let out = f();
            drop(permit);
            out
        })
        .await
    }
}

#[derive(Debug)]
enum TicketState {
    Ready(OwnedSemaphorePermit),
    Waiting {
        ahead: usize,
    },
    /// Waited for: no longer counted as waiting.
    Done,
}

/// A search's place in the pool's queue.
#[derive(Debug)]
pub struct Ticket {
    pool: SearchPool,
    state: TicketState,
}

impl Ticket {
    /// `None` when the search may start at once, otherwise how many
    /// searches waited before this one when it joined the queue.
    #[must_use]
    pub fn ahead(&self) -> Option<usize> {
        match self.state {
            TicketState::Waiting { ahead } => Some(ahead),
            TicketState::Ready(_) | TicketState::Done => None,
        }
    }

    /// Waits for a free thread (at once for a ticket that got one).
    pub async fn wait(mut self) -> SearchPermit {
        match std::mem::replace(&mut self.state, TicketState::Done) {
            TicketState::Ready(permit) => SearchPermit {
                _held: Some(permit),
            },
            TicketState::Waiting { ahead } => {
                // Counted as waiting until the permit comes, also if this future is dropped.
                self.state = TicketState::Waiting { ahead };
                let permit = Arc::clone(&self.pool.permits).acquire_owned().await;
                self.state = TicketState::Done;
                self.pool.waiting.fetch_sub(1, Ordering::SeqCst);
                // The pool never closes its semaphore, so the permit always comes.
                SearchPermit { _held: permit.ok() }
            }
            TicketState::Done => SearchPermit { _held: None },
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if let TicketState::Waiting { .. } = self.state {
            self.pool.waiting.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// A thread of the pool, held while a search runs (released on drop).
#[derive(Debug)]
#[must_use = "the thread is released when the permit is dropped"]
pub struct SearchPermit {
    _held: Option<OwnedSemaphorePermit>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn waiting_tickets_count_those_before_them_and_leave_in_order() {
        let pool = SearchPool::new(2);
        let a = pool.ticket().wait().await;
        let b = pool.ticket().wait().await;
        let c = pool.ticket();
        let d = pool.ticket();
        assert_eq!((c.ahead(), d.ahead()), (Some(0), Some(1)));
        assert_eq!(pool.waiting(), 2);
        let c = tokio::spawn(c.wait());
        let d = tokio::spawn(d.wait());
        tokio::task::yield_now().await;
        drop(a);
        let c = c.await.unwrap();
        assert_eq!(pool.waiting(), 1);
        drop(b);
        let _d = d.await.unwrap();
        assert_eq!(pool.waiting(), 0);
        drop(c);
    }

    #[tokio::test]
    async fn a_dropped_ticket_leaves_the_queue() {
        let pool = SearchPool::new(1);
        let _running = pool.ticket().wait().await;
        let t = pool.ticket();
        assert_eq!(pool.waiting(), 1);
        drop(t);
        assert_eq!(pool.waiting(), 0);
        assert_eq!(pool.ticket().ahead(), Some(0));
    }

    #[test]
    fn a_pool_has_at_least_one_thread() {
        assert_eq!(SearchPool::new(0).threads(), 1);
        assert!(SearchPool::default().threads() >= 1);
    }
}
