//! Who sits at a game: an account, a guest with a typed name, or the
//! computer; how each is shown (name, rating and rank in the game's time
//! class); the ratings a rated game changes; and a player's profile.
//!
//! A rated game is one Glicko-2 rating period for each player, rated against
//! the other's rating from before the game (docs/RATINGS.md).

use serde::Serialize;
use shogi_core::{ByColor, Color, Ending};

use crate::accounts::{Account, GuestName};
use crate::db::outbox::Due;
pub use crate::db::players::SeatPlayer;
use crate::db::players::{ProfileRow, RatingRow, Settlement};
use crate::db::{Consequence, Store};
use crate::error::Error;
use crate::game::Results;
use crate::games::view::{PlayerView, RatingChangeView, RatingChangesView};
use crate::ratings::{Glicko2, Rank, Rating, Score, TimeClass};

/// A rating is provisional while its deviation is above this.
pub const PROVISIONAL_RD: f64 = 110.0;

/// The name a deleted account's seats keep.
pub const DELETED_NAME: &str = "deleted";

/// Who asks for a seat: the logged-in account, or a guest with the display
/// name they typed (if any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Identity {
    /// A logged-in account.
    Account {
        /// `users.id`.
        id: i64,
        /// The account's name.
        name: String,
    },
    /// A guest.
    Guest {
        /// The typed display name.
        name: Option<String>,
    },
}

impl Identity {
    /// The account id, if logged in.
    #[must_use]
    pub fn user(&self) -> Option<i64> {
        match self {
            Identity::Account { id, .. } => Some(*id),
            Identity::Guest { .. } => None,
        }
    }
}

/// Who asks: the logged-in `account`, or a guest with the name typed (if
/// any, and not blank).
///
/// # Errors
/// [`Error::BadRequest`] for a guest name that breaks the rules of names.
pub fn identity(account: Option<&Account>, typed: Option<&str>) -> Result<Identity, Error> {
    if let Some(a) = account {
        return Ok(Identity::Account {
            id: a.id,
            name: a.name.clone(),
        });
    }
    let name = match typed.map(str::trim).filter(|n| !n.is_empty()) {
        Some(n) => Some(GuestName::parse(n)?.as_str().to_string()),
        None => None,
    };
    Ok(Identity::Guest { name })
}

impl SeatPlayer {
    /// The seat of `who` in a game of time class `class` (the rating is read
    /// for accounts when the game has a clock).
    ///
    /// # Errors
    /// Database errors.
    pub async fn of(
        store: &Store,
        who: &Identity,
        class: Option<TimeClass>,
    ) -> Result<Option<SeatPlayer>, Error> {
        Ok(match who {
            Identity::Account { id, name } => {
                let rating = match class {
                    Some(class) => Some(
                        store
                            .rating(*id, class)
                            .await?
                            .map_or(Rating::NEW, |r| r.rating),
                    ),
                    None => None,
                };
                Some(SeatPlayer {
                    user: Some(*id),
                    name: name.clone(),
                    guest: false,
                    bot: store.is_program(*id).await?,
                    rating,
                })
            }
            Identity::Guest { name: None } => None,
            Identity::Guest { name: Some(name) } => Some(SeatPlayer {
                user: None,
                name: name.clone(),
                guest: true,
                bot: false,
                rating: None,
            }),
        })
    }
}

/// A rating rounded for display, with its rank and provisional mark.
#[allow(clippy::cast_possible_truncation)]
fn shown(r: Rating) -> (i64, bool, String) {
    (
        r.rating.round() as i64,
        r.deviation > PROVISIONAL_RD,
        Rank::of(r.rating).short(),
    )
}

/// The view of a seat's player.
#[must_use]
pub fn view(p: &SeatPlayer) -> PlayerView {
    let (rating, provisional, rank) = match p.rating {
        Some(r) => {
            let (rating, provisional, rank) = shown(r);
            (Some(rating), provisional, Some(rank))
        }
        None => (None, false, None),
    };
    PlayerView {
        name: p.name.clone(),
        guest: p.guest,
        computer: false,
        bot: p.bot,
        rating,
        provisional,
        rank,
    }
}

/// The computer's seat at `level`.
#[must_use]
pub fn computer_view(level: u8) -> PlayerView {
    PlayerView {
        name: format!("AI {level}"),
        guest: false,
        computer: true,
        bot: false,
        rating: None,
        provisional: false,
        rank: None,
    }
}

/// The score of `side` in a game that ended with `ending`; `None` when the
/// game has no result (aborted).
fn score_of(ending: Ending, side: Color) -> Option<Score> {
    if ending == Ending::Abort {
        return None;
    }
    Some(match ending.winner() {
        Some(w) if w == side => Score::Win,
        Some(_) => Score::Loss,
        None => Score::Draw,
    })
}

/// At most this many games between the same two accounts change their
/// ratings in 24 hours; further ones are played unrated.
pub const RATED_GAMES_PER_PAIR_A_DAY: u32 = 3;

/// A finished rated game as [`settle`] reads it.
#[derive(Clone, Copy, Debug)]
pub struct Finished<'a> {
    /// The game's id.
    pub game_id: &'a str,
    /// Its time class (`None`: no clock, never rated).
    pub class: Option<TimeClass>,
    /// The accounts at its seats.
    pub users: ByColor<Option<i64>>,
    /// How it ended.
    pub ending: Ending,
    /// Moves played (plies).
    pub plies: usize,
}

/// Rates a finished rated game, once: both players' ratings in its class
/// change as one rating period each, against the other's rating from
/// before; the new ratings and the history are stored in one transaction,
/// which also takes the game's rating out of the outbox (a game rated
/// already is not rated again). A rating is earned by play, so nothing
/// changes for an aborted game, a game in which a side has not moved (a
/// resignation or a flag before that), a seat without an account, or a
/// game between two accounts that already played
/// [`RATED_GAMES_PER_PAIR_A_DAY`] rated games in the 24 hours before
/// `now_ms`; its rating is marked carried out all the same. Returns both
/// players' ratings before and after, if this call changed them.
///
/// # Errors
/// Database errors (nothing is changed then; the rating stays due).
pub async fn settle(
    store: &Store,
    game: Finished<'_>,
    now_ms: u64,
) -> Result<Option<ByColor<RatingChange>>, Error> {
    let rated = rate(store, game, now_ms).await?;
    match rated {
        Some((s, change)) if store.settle(&s).await? => Ok(Some(change)),
        Some(_) => Ok(None),
        None => {
            store.done(game.game_id, Consequence::Rating).await?;
            Ok(None)
        }
    }
}

/// What rating `game` changes, if it changes any.
async fn rate<'a>(
    store: &Store,
    game: Finished<'a>,
    now_ms: u64,
) -> Result<Option<(Settlement<'a>, ByColor<RatingChange>)>, Error> {
    let Finished {
        game_id,
        class,
        users,
        ending,
        plies,
    } = game;
    let (Some(class), Some(sente), Some(gote)) = (class, users[Color::Sente], users[Color::Gote])
    else {
        return Ok(None);
    };
    let Some(sente_score) = score_of(ending, Color::Sente) else {
        return Ok(None);
    };
    if plies < 2 {
        return Ok(None);
    }
    let day_ago = now_ms.saturating_sub(24 * 3600 * 1000);
    if store.rated_games_between(sente, gote, day_ago).await? >= RATED_GAMES_PER_PAIR_A_DAY {
        return Ok(None);
    }
    let gote_score = score_of(ending, Color::Gote).unwrap_or(Score::Draw);
    let before = |row: Option<RatingRow>| row.map_or((Rating::NEW, 0), |r| (r.rating, r.games));
    let (s_before, s_games) = before(store.rating(sente, class).await?);
    let (g_before, g_games) = before(store.rating(gote, class).await?);
    let system = Glicko2::default();
    let s_after = system.rate(s_before, &[(g_before, sente_score)]);
    let g_after = system.rate(g_before, &[(s_before, gote_score)]);
    let settlement = Settlement {
        game_id,
        class,
        at_ms: now_ms,
        players: [(sente, s_after, s_games + 1), (gote, g_after, g_games + 1)],
    };
    let change = ByColor::new(
        RatingChange {
            before: s_before,
            after: s_after,
        },
        RatingChange {
            before: g_before,
            after: g_after,
        },
    );
    Ok(Some((settlement, change)))
}

/// One player's rating in a rated game's class before and after the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    /// Before the game.
    pub before: Rating,
    /// After it.
    pub after: Rating,
}

/// Both players' rating changes as shown: rounded, the difference that of
/// the rounded numbers (so that `1500` and `+162` make `1662`).
#[must_use]
#[allow(clippy::cast_possible_truncation)]
pub fn change_view(change: ByColor<RatingChange>) -> RatingChangesView {
    let one = |c: RatingChange| {
        let before = c.before.rating.round() as i64;
        let after = c.after.rating.round() as i64;
        RatingChangeView {
            before,
            after,
            delta: after - before,
        }
    };
    RatingChangesView {
        sente: one(change[Color::Sente]),
        gote: one(change[Color::Gote]),
    }
}

/// The rating changes stored game `game_id` made (a rated game that
/// ended, read back from both players' rating histories: the game's point
/// and the point before it in its class, or a new player's rating);
/// `None` if it changed no rating.
///
/// # Errors
/// Database errors.
pub async fn stored_change(
    store: &Store,
    game_id: &str,
    users: ByColor<Option<i64>>,
) -> Result<Option<RatingChangesView>, Error> {
    let (Some(sente), Some(gote)) = (users[Color::Sente], users[Color::Gote]) else {
        return Ok(None);
    };
    let mut change = [None, None];
    for (slot, user) in change.iter_mut().zip([sente, gote]) {
        let history = store.rating_history(user).await?;
        let Some(at) = history.iter().position(|h| h.game_id == game_id) else {
            return Ok(None);
        };
        let point = &history[at];
        let before = history[..at]
            .iter()
            .rev()
            .find(|h| h.class == point.class)
            .map_or(Rating::NEW, |h| Rating::new(h.rating, h.rd, 0.0));
        *slot = Some(RatingChange {
            before,
            after: Rating::new(point.rating, point.rd, 0.0),
        });
    }
    let [Some(s), Some(g)] = change else {
        return Ok(None);
    };
    Ok(Some(change_view(ByColor::new(s, g))))
}

/// Rates every game whose rating is still due (its process died between
/// the ending and the rating), as of its ending, the oldest first; returns
/// how many it carried out. A game that cannot be rated now stays due and
/// is logged.
///
/// # Errors
/// The outbox cannot be read.
pub async fn settle_due(store: &Store) -> Result<usize, Error> {
    let mut carried = 0;
    for due in store.due(Consequence::Rating).await? {
        match settle_stored(store, &due).await {
            Ok(()) => carried += 1,
            Err(e) => tracing::error!(game = %due.game_id, "rating the game: {e}"),
        }
    }
    Ok(carried)
}

/// [`settle`] for a stored game.
async fn settle_stored(store: &Store, due: &Due) -> Result<(), Error> {
    let game = store.load(&due.game_id).await?;
    let Some((g, ending)) = game.and_then(|g| g.ending.map(|e| (g, e))) else {
        // Not over (never recorded so) or gone: nothing to rate.
        store.done(&due.game_id, Consequence::Rating).await?;
        return Ok(());
    };
    let user = |c: Color| g.players.seats[c].as_ref().and_then(|p| p.user);
    let finished = Finished {
        game_id: &due.game_id,
        class: g.settings.time.as_ref().map(TimeClass::of_control),
        users: ByColor::new(user(Color::Sente), user(Color::Gote)),
        ending,
        plies: g.moves.len(),
    };
    settle(store, finished, due.ended_at_ms).await?;
    Ok(())
}

/// One class of a profile.
#[derive(Clone, Debug, Serialize)]
pub struct ClassRating {
    /// The rating, rounded.
    pub rating: i64,
    /// Its deviation.
    pub rd: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated games played in the class.
    pub games: u32,
    /// Whether it is still provisional.
    pub provisional: bool,
    /// The amateur rank.
    pub rank: String,
}

/// One point of a rating history.
#[derive(Clone, Debug, Serialize)]
pub struct HistoryPoint {
    /// When (Unix milliseconds).
    pub at_ms: u64,
    /// The rating after the game, rounded.
    pub rating: i64,
    /// Its deviation.
    pub rd: f64,
    /// The game.
    pub game: String,
}

/// `GET /api/players/{name}`.
#[derive(Clone, Debug, Serialize)]
pub struct Profile {
    /// The name as registered.
    pub name: String,
    /// When the account was made.
    pub created_at_ms: u64,
    /// Always `false` (profiles are of accounts).
    pub guest: bool,
    /// Whether it is a program's account (it plays over CSA).
    pub bot: bool,
    /// The rank in the class with the most games.
    pub rank: Option<String>,
    /// The ratings per class with at least one rated game.
    pub ratings: std::collections::BTreeMap<&'static str, ClassRating>,
    /// Every finished game's result (rated or not, aborted ones left out).
    pub results: Results,
    /// Each class's ratings after each rated game, oldest first.
    pub history: std::collections::BTreeMap<&'static str, Vec<HistoryPoint>>,
}

/// The profile of the account whose name folds to `name_key`
/// (`accounts::name_key`).
///
/// # Errors
/// [`Error::NoSuch`] for an unknown name; database errors.
#[allow(clippy::cast_possible_truncation)]
pub async fn profile(store: &Store, name_key: &str) -> Result<Profile, Error> {
    let ProfileRow {
        user,
        name,
        created_at_ms,
        bot,
    } = store
        .profile_user(name_key)
        .await?
        .ok_or(Error::NoSuch("player"))?;
    let mut ratings = std::collections::BTreeMap::new();
    let mut best: Option<(u32, String)> = None;
    for class in TimeClass::ALL {
        if let Some(r) = store.rating(user, class).await? {
            let (rating, provisional, rank) = shown(r.rating);
            if best.as_ref().is_none_or(|(g, _)| r.games > *g) {
                best = Some((r.games, rank.clone()));
            }
            ratings.insert(
                class.name(),
                ClassRating {
                    rating,
                    rd: r.rating.deviation,
                    volatility: r.rating.volatility,
                    games: r.games,
                    provisional,
                    rank,
                },
            );
        }
    }
    let mut history = std::collections::BTreeMap::new();
    for row in store.rating_history(user).await? {
        history
            .entry(row.class.name())
            .or_insert_with(Vec::new)
            .push(HistoryPoint {
                at_ms: row.at_ms,
                rating: row.rating.round() as i64,
                rd: row.rd,
                game: row.game_id,
            });
    }
    Ok(Profile {
        name,
        created_at_ms,
        guest: false,
        bot,
        rank: best.map(|(_, rank)| rank),
        ratings,
        results: store.results(user).await?,
        history,
    })
}

/// The most games one ZIP download holds (the newest are left out beyond it).
pub const MAX_ZIP_GAMES: usize = 5000;

/// Every finished game of the account whose name folds to `name_key`, as
/// one ZIP of KIF files named `<date>-<id>.kif` (UTF-8), oldest first.
/// Returns the account's name and the ZIP's bytes.
///
/// # Errors
/// [`Error::NoSuch`] for an unknown name; database errors.
pub async fn games_zip(store: &Store, name_key: &str) -> Result<(String, Vec<u8>), Error> {
    use std::io::Write as _;
    let user = store
        .profile_user(name_key)
        .await?
        .ok_or(Error::NoSuch("player"))?;
    let ids = store.finished_games_of(user.user).await?;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let internal = |e: &dyn std::fmt::Display| Error::Internal(format!("zip: {e}"));
    for id in ids.iter().take(MAX_ZIP_GAMES) {
        let review = crate::review::records::load(store, id, None).await?;
        let date = review
            .record
            .headers
            .start_time
            .as_deref()
            .and_then(|t| t.get(..10))
            .unwrap_or("game")
            .replace('/', "-");
        let text = shogi_record::write(&review.record, shogi_record::Format::Kif);
        zip.start_file(format!("{date}-{id}.kif"), options)
            .map_err(|e| internal(&e))?;
        zip.write_all(text.as_bytes()).map_err(|e| internal(&e))?;
    }
    let bytes = zip.finish().map_err(|e| internal(&e))?.into_inner();
    Ok((user.name, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_aborted_game_has_no_score_and_a_draw_is_half() {
        assert_eq!(score_of(Ending::Abort, Color::Sente), None);
        assert_eq!(
            score_of(Ending::Resignation { loser: Color::Gote }, Color::Sente),
            Some(Score::Win)
        );
        assert_eq!(
            score_of(Ending::Resignation { loser: Color::Gote }, Color::Gote),
            Some(Score::Loss)
        );
        assert_eq!(score_of(Ending::Repetition, Color::Gote), Some(Score::Draw));
    }

    #[test]
    fn a_new_players_rating_is_provisional_and_2_kyu() {
        let v = view(&SeatPlayer {
            user: Some(1),
            name: "Алиса".into(),
            guest: false,
            bot: false,
            rating: Some(Rating::NEW),
        });
        assert_eq!(v.rating, Some(1500));
        assert!(v.provisional);
        assert_eq!(v.rank.as_deref(), Some("2k"));
        let settled = view(&SeatPlayer {
            user: Some(1),
            name: "x".into(),
            guest: false,
            bot: false,
            rating: Some(Rating::new(1700.0, 60.0, 0.06)),
        });
        assert!(!settled.provisional);
        assert_eq!(settled.rank.as_deref(), Some("1d"));
    }
}
