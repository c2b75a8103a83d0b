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

//!
//! Game names that start with `floodgate-` pair on a schedule instead, as
//! floodgate does: the programs waiting for one are paired all at once by
//! [`Waiting::pair_scheduled`] (every 30 minutes, at :00 and :30), each
//! with the one nearest in rating.

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
        if !scheduled(game) {
            if let Some(p) = self.pair_now(key.clone(), game, preference, coin) {
                return Ok(Some(p));
            }
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

    /// Program `key` challenges the programs waiting for `game`: paired
    /// with the oldest whose colour fits (a scheduled game too), or with
    /// none, never queued (`%%CHALLENGE`).
    pub fn pair_now(
        &mut self,
        key: K,
        game: &str,
        preference: Preference,
        coin: bool,
    ) -> Option<Pairing<K>> {
        let (i, old_sente) = self.entries.iter().enumerate().find_map(|(i, e)| {
            if e.game != game || e.key == key {
                return None;
            }
            old_plays_sente(e.preference, preference, coin).map(|s| (i, s))
        })?;
        let old = self.entries.remove(i);
        let (sente, gote) = if old_sente {
            (old.key, key)
        } else {
            (key, old.key)
        };
        Some(Pairing {
            sente,
            gote,
            game: old.game,
        })
    }

    /// The programs waiting for scheduled games (names starting with
    /// `floodgate-`), oldest first: whose ratings the schedule needs.
    pub fn scheduled_keys(&self) -> impl Iterator<Item = &K> {
        self.entries
            .iter()
            .filter(|e| scheduled(&e.game))
            .map(|e| &e.key)
    }

    /// The schedule's pairing: for each scheduled game name, the programs
    /// waiting for it sorted by `rating` (highest first, the oldest first
    /// among equals) are paired neighbour with neighbour, which makes the
    /// sum of the rating differences the least there is; of an odd number
    /// the one left waiting is the one whose absence makes that sum least
    /// (the lowest rated when all are equally far apart). The colours fit
    /// the preferences where they can; `coin` decides the rest. The paired
    /// leave the queue; the one left keeps its place.
    pub fn pair_scheduled(
        &mut self,
        rating: impl Fn(&K) -> f64,
        mut coin: impl FnMut() -> bool,
    ) -> Vec<Pairing<K>> {
        let mut games: Vec<String> = Vec::new();
        for e in &self.entries {
            if scheduled(&e.game) && !games.contains(&e.game) {
                games.push(e.game.clone());
            }
        }
        let mut pairings = Vec::new();
        for game in games {
            let mut group: Vec<(usize, f64)> = self
                .entries
                .iter()
                .enumerate()
                .filter(|(_, e)| e.game == game)
                .map(|(i, e)| (i, rating(&e.key)))
                .collect();
            group.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            let ratings: Vec<f64> = group.iter().map(|g| g.1).collect();
            let left = left_out(&ratings);
            let order: Vec<usize> = group
                .iter()
                .enumerate()
                .filter(|(at, _)| Some(*at) != left)
                .map(|(_, g)| g.0)
                .collect();
            for pair in order.chunks_exact(2) {
                let (a, b) = (&self.entries[pair[0]], &self.entries[pair[1]]);
                let a_sente =
                    old_plays_sente(a.preference, b.preference, coin()).unwrap_or_else(&mut coin);
                let (sente, gote) = if a_sente {
                    (a.key.clone(), b.key.clone())
                } else {
                    (b.key.clone(), a.key.clone())
                };
                pairings.push(Pairing {
                    sente,
                    gote,
                    game: game.clone(),
                });
            }
        }
        let paired: Vec<K> = pairings
            .iter()
            .flat_map(|p| [p.sente.clone(), p.gote.clone()])
            .collect();
        self.entries.retain(|e| !paired.contains(&e.key));
        pairings
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

/// Whether programs waiting for `game` are paired on the schedule (names
/// starting with `floodgate-`) rather than at once.
///
/// ```
/// use shogi_server::csa::matching::scheduled;
/// assert!(scheduled("floodgate-600-10F"));
/// assert!(!scheduled("test-600-10"));
/// ```
#[must_use]
pub fn scheduled(game: &str) -> bool {
    game.starts_with("floodgate-")
}

/// Of ratings sorted from the highest, the one to leave out so that
/// pairing the rest neighbour with neighbour makes the least sum of
/// differences (`None` for an even number). Only an even position can be
/// left out (an odd one would split the pairs); the last such among equals.
fn left_out(ratings: &[f64]) -> Option<usize> {
    if ratings.len().is_multiple_of(2) {
        return None;
    }
    let cost = |skip: usize| -> f64 {
        let rest: Vec<f64> = ratings
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != skip)
            .map(|(_, r)| *r)
            .collect();
        rest.chunks_exact(2).map(|p| (p[0] - p[1]).abs()).sum()
    };
    (0..ratings.len())
        .step_by(2)
        .min_by(|&a, &b| cost(a).total_cmp(&cost(b)).then(b.cmp(&a)))
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

    #[test]
    fn floodgate_names_wait_for_the_schedule_and_others_do_not() {
        let mut w = Waiting::new(10);
        assert_eq!(w.offer(1, "floodgate-600-10", Any, true), Ok(None));
        assert_eq!(w.offer(2, "floodgate-600-10", Any, true), Ok(None));
        assert_eq!(w.iter().count(), 2);
        // A challenge pairs at once all the same.
        let p = w.pair_now(3, "floodgate-600-10", Sente, true).unwrap();
        assert_eq!((p.sente, p.gote), (3, 1));
        assert_eq!(w.scheduled_keys().collect::<Vec<_>>(), vec![&2]);
    }

    #[test]
    fn the_schedule_pairs_neighbours_in_rating() {
        let mut w = Waiting::new(10);
        let ratings = [(1, 1500.0), (2, 2100.0), (3, 1480.0), (4, 2000.0)];
        for (k, _) in ratings {
            w.offer(k, "floodgate-300-10F", Any, true).unwrap();
        }
        w.offer(9, "other-60-0", Any, true).unwrap();
        let rating = |k: &i32| ratings.iter().find(|r| r.0 == *k).map_or(0.0, |r| r.1);
        let mut pairs: Vec<(i32, i32)> = w
            .pair_scheduled(rating, || true)
            .into_iter()
            .map(|p| (p.sente.min(p.gote), p.sente.max(p.gote)))
            .collect();
        pairs.sort_unstable();
        assert_eq!(pairs, vec![(1, 3), (2, 4)]);
        // Only the program of another name is left.
        assert_eq!(w.iter().map(|e| *e.0).collect::<Vec<_>>(), vec![9]);
    }

    #[test]
    fn of_an_odd_number_the_farthest_waits() {
        let mut w = Waiting::new(10);
        // 2400 is far from the others: it waits; 1500 and 1450 meet.
        let ratings = [(1, 1500.0), (2, 2400.0), (3, 1450.0)];
        for (k, _) in ratings {
            w.offer(k, "floodgate-600-10", Any, true).unwrap();
        }
        let rating = |k: &i32| ratings.iter().find(|r| r.0 == *k).map_or(0.0, |r| r.1);
        let p = w.pair_scheduled(rating, || false);
        assert_eq!(p.len(), 1);
        assert_eq!(
            (p[0].sente.min(p[0].gote), p[0].sente.max(p[0].gote)),
            (1, 3)
        );
        assert_eq!(w.iter().map(|e| *e.0).collect::<Vec<_>>(), vec![2]);
        assert_eq!(left_out(&[1800.0, 1700.0, 1000.0]), Some(2));
        assert_eq!(left_out(&[1800.0, 1100.0, 1000.0]), Some(0));
        assert_eq!(left_out(&[1500.0, 1500.0, 1500.0]), Some(2));
    }

    #[test]
    fn the_schedule_keeps_colour_preferences_that_fit() {
        let mut w = Waiting::new(10);
        w.offer(1, "floodgate-600-10", Gote, true).unwrap();
        w.offer(2, "floodgate-600-10", Any, true).unwrap();
        let p = w.pair_scheduled(|_| 1500.0, || true);
        assert_eq!((p[0].sente, p[0].gote), (2, 1));
    }
}
