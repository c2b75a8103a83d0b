//! Programs waiting for an opponent: two waiting with the same game name
//! (and colours that fit) are paired at once, first come first served.
//!
//! ```
//! use shogi_server::csa::{Pairing, Preference, Waiting};
//! let mut w = Waiting::new(10);
//! assert_eq!(w.offer(1, "test-60-0", Preference::Any, true), Ok(None));
//! // The second program takes Gote, since the first asked for nothing.
//! assert_eq!(
//!     w.offer(2, "test-60-0", Preference::Gote, true),
//!     Ok(Some(Pairing { sente: 1, gote: 2, game: "test-60-0".into() }))
//! );
//! assert!(w.is_empty());
//! ```

use super::Preference;

/// The queue is full.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("too many programs are waiting")]
pub struct Full;

/// Two programs paired: who plays Sente and who Gote, and the game name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing<K> {
    /// Sente's program (`+`).
    pub sente: K,
    /// Gote's program (`-`).
    pub gote: K,
    /// The game name they share.
    pub game: String,
}

#[derive(Clone, Debug)]
struct Entry<K> {
    key: K,
    game: String,
    preference: Preference,
}

/// The programs waiting, oldest first, at most a fixed number.
#[derive(Clone, Debug)]
pub struct Waiting<K> {
    entries: Vec<Entry<K>>,
    capacity: usize,
}

/// The colours of a newcomer asking `new` against a waiting program
/// asking `old` (`None`: they do not fit); `coin` decides when neither
/// asked. `true`: the waiting program plays Sente.
fn old_plays_sente(old: Preference, new: Preference, coin: bool) -> Option<bool> {
    use Preference::{Any, Gote, Sente};
    match (old, new) {
        (Sente, Sente) | (Gote, Gote) => None,
        (Sente, _) | (Any, Gote) => Some(true),
        (Gote, _) | (Any, Sente) => Some(false),
        (Any, Any) => Some(coin),
    }
}

impl<K: Clone + PartialEq> Waiting<K> {
    /// An empty queue for at most `capacity` programs.
    #[must_use]
    pub fn new(capacity: usize) -> Waiting<K> {
        Waiting {
            entries: Vec::new(),
            capacity,
        }
    }

    /// Program `key` asks for `game` with `preference`: paired with the
    /// oldest program waiting for the same game whose colour fits, or
    /// queued. `coin` picks the colours when neither asked.
    ///
    /// # Errors
    /// [`Full`] when it would wait and the queue is full.
    pub fn offer(
        &mut self,
        key: K,
        game: &str,
        preference: Preference,
        coin: bool,
    ) -> Result<Option<Pairing<K>>, Full> {
        let found = self.entries.iter().enumerate().find_map(|(i, e)| {
            if e.game != game || e.key == key {
                return None;
            }
            old_plays_sente(e.preference, preference, coin).map(|s| (i, s))
        });
        if let Some((i, old_sente)) = found {
            let old = self.entries.remove(i);
            let (sente, gote) = if old_sente {
                (old.key, key)
            } else {
                (key, old.key)
            };
            return Ok(Some(Pairing {
                sente,
                gote,
                game: old.game,
            }));
        }
        if self.entries.len() >= self.capacity {
            return Err(Full);
        }
        self.entries.push(Entry {
            key,
            game: game.to_owned(),
            preference,
        });
        Ok(None)
    }

    /// Takes program `key` out of the queue; whether it was waiting.
    pub fn withdraw(&mut self, key: &K) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| e.key != *key);
        before != self.entries.len()
    }

    /// Whether nobody waits.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The programs waiting and their game names, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &str)> {
        self.entries.iter().map(|e| (&e.key, e.game.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Preference::{Any, Gote, Sente};

    #[test]
    fn only_the_same_game_name_pairs() {
        let mut w = Waiting::new(10);
        assert_eq!(w.offer(1, "a-60-0", Any, true), Ok(None));
        assert_eq!(w.offer(2, "a-60-10", Any, true), Ok(None));
        let p = w.offer(3, "a-60-10", Any, false).unwrap().unwrap();
        assert_eq!((p.sente, p.gote), (3, 2));
        assert_eq!(w.iter().count(), 1);
    }

    #[test]
    fn colour_preferences_are_kept_and_equal_ones_do_not_pair() {
        let mut w = Waiting::new(10);
        assert_eq!(w.offer(1, "g", Sente, true), Ok(None));
        assert_eq!(w.offer(2, "g", Sente, true), Ok(None));
        let p = w.offer(3, "g", Any, false).unwrap().unwrap();
        assert_eq!((p.sente, p.gote), (1, 3));
        let p = w.offer(4, "g", Gote, false).unwrap().unwrap();
        assert_eq!((p.sente, p.gote), (2, 4));
        assert_eq!(w.offer(5, "g", Gote, true), Ok(None));
        let p = w.offer(6, "g", Any, true).unwrap().unwrap();
        assert_eq!((p.sente, p.gote), (6, 5));
    }

    #[test]
    fn a_program_never_meets_itself_and_the_queue_is_bounded() {
        let mut w = Waiting::new(1);
        assert_eq!(w.offer(1, "g", Any, true), Ok(None));
        assert_eq!(w.offer(1, "g", Any, true), Err(Full));
        assert!(w.withdraw(&1));
        assert!(!w.withdraw(&1));
        assert!(w.is_empty());
    }
}
