//! Ratings recomputed from the games that made them: what a moderator's
//! annulment needs. Each rated game was one Glicko-2 rating period for each
//! player against the other's rating from before it, in the order the games
//! were rated; [`replay`] does the same again over a time class's rated
//! games, leaving out the annulled ones, and so finds every rating an
//! annulment changes: its two players', and through their later games
//! everyone's who played them afterwards, and so on.
//!
//! ```
//! use shogi_core::{ByColor, Color};
//! use shogi_server::ratings::replay::{replay, RatedGame};
//! use shogi_server::ratings::Rating;
//! let game = |id: &str, winner| RatedGame {
//!     id: id.to_string(),
//!     users: ByColor::new(Some(1), Some(2)),
//!     start: ByColor::new(None, None),
//!     winner,
//! };
//! let games = [game("a", Some(Color::Sente)), game("b", None)];
//! let all = replay(&games, None);
//! assert!(all.ratings[&1].0.rating > 1500.0);
//! let without_a = replay(&games, Some("a"));
//! assert_eq!(without_a.points.len(), 2); // game b, both players
//! assert_eq!(without_a.ratings[&1].1, 1); // one game each
//! assert_eq!(replay(&games[..1], Some("a")).ratings.len(), 0);
//! ```

use std::collections::BTreeMap;

use shogi_core::{ByColor, Color};

use super::{Glicko2, Rating, Score};

/// A rated game as stored: who played (an account id, `None` for an
/// account deleted since), the ratings the seats had when the game began
/// (used for a deleted opponent, whose later rating is gone) and the
/// winner (`None`: a draw).
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    /// The game's id.
    pub id: String,
    /// The accounts at its seats.
    pub users: ByColor<Option<i64>>,
    /// Rating and deviation of each seat at the start, as stored.
    pub start: ByColor<Option<(f64, f64)>>,
    /// Who won; `None` for a draw.
    pub winner: Option<Color>,
}

/// What [`replay`] finds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Replayed {
    /// Each (account, game) history point: the rating after the game.
    pub points: BTreeMap<(i64, String), Rating>,
    /// Each account's rating after its last game, and its rated games.
    pub ratings: BTreeMap<i64, (Rating, u32)>,
}

/// The score of `side` when `winner` won (`None`: a draw).
fn score(winner: Option<Color>, side: Color) -> Score {
    match winner {
        Some(w) if w == side => Score::Win,
        Some(_) => Score::Loss,
        None => Score::Draw,
    }
}

/// Rates `games` again, in their order, from new ratings, leaving out the
/// game `annulled` (if any): every history point and every final rating.
#[must_use]
pub fn replay(games: &[RatedGame], annulled: Option<&str>) -> Replayed {
    let system = Glicko2::default();
    let mut out = Replayed::default();
    for game in games.iter().filter(|g| Some(g.id.as_str()) != annulled) {
        let before = |c: Color, out: &Replayed| match game.users[c] {
            Some(u) => out.ratings.get(&u).map_or(Rating::NEW, |r| r.0),
            None => game.start[c].map_or(Rating::NEW, |(rating, deviation)| {
                Rating::new(rating, deviation, Rating::NEW.volatility)
            }),
        };
        let start = ByColor::new(before(Color::Sente, &out), before(Color::Gote, &out));
        for side in [Color::Sente, Color::Gote] {
            let Some(user) = game.users[side] else {
                continue;
            };
            let after = system.rate(
                start[side],
                &[(start[side.opponent()], score(game.winner, side))],
            );
            let games = out.ratings.get(&user).map_or(0, |r| r.1) + 1;
            out.ratings.insert(user, (after, games));
            out.points.insert((user, game.id.clone()), after);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, s: i64, g: i64, winner: Option<Color>) -> RatedGame {
        RatedGame {
            id: id.into(),
            users: ByColor::new(Some(s), Some(g)),
            start: ByColor::new(None, None),
            winner,
        }
    }

    #[test]
    fn replaying_everything_is_rating_game_by_game() {
        // The same arithmetic settle does, one game at a time.
        let system = Glicko2::default();
        let (a1, b1) = (
            system.rate(Rating::NEW, &[(Rating::NEW, Score::Win)]),
            system.rate(Rating::NEW, &[(Rating::NEW, Score::Loss)]),
        );
        let (b2, c2) = (
            system.rate(b1, &[(Rating::NEW, Score::Draw)]),
            system.rate(Rating::NEW, &[(b1, Score::Draw)]),
        );
        let games = [game("1", 1, 2, Some(Color::Sente)), game("2", 2, 3, None)];
        let r = replay(&games, None);
        assert_eq!(r.ratings[&1], (a1, 1));
        assert_eq!(r.ratings[&2], (b2, 2));
        assert_eq!(r.ratings[&3], (c2, 1));
        assert_eq!(r.points[&(2, "1".to_string())], b1);
    }

    #[test]
    fn an_annulment_reaches_later_opponents() {
        let games = [
            game("1", 1, 2, Some(Color::Sente)),
            game("2", 2, 3, Some(Color::Gote)),
        ];
        let all = replay(&games, None);
        let without = replay(&games, Some("1"));
        assert!(!without.ratings.contains_key(&1));
        // Player 3 beat a 1500 instead of a player who had lost once.
        assert_ne!(all.ratings[&3], without.ratings[&3]);
        assert_eq!(
            without.ratings[&3].0,
            Glicko2::default().rate(Rating::NEW, &[(Rating::NEW, Score::Win)])
        );
    }

    #[test]
    fn a_deleted_opponent_counts_with_the_rating_it_started_with() {
        let mut g = game("1", 1, 2, None);
        g.users[Color::Gote] = None;
        g.start[Color::Gote] = Some((1800.0, 60.0));
        let r = replay(&[g], None);
        let expected = Glicko2::default().rate(
            Rating::NEW,
            &[(Rating::new(1800.0, 60.0, 0.06), Score::Draw)],
        );
        assert_eq!(r.ratings[&1], (expected, 1));
        assert_eq!(r.ratings.len(), 1);
    }
}
