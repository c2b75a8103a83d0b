//! The lobby: open challenges (seeks) and the games in progress between
//! people, with a live stream of changes.
//!
//! Seeks live in memory: they last [`SEEK_LIFETIME_MS`] unless accepted or
//! withdrawn, and an address may hold [`MAX_OPEN_SEEKS_PER_ADDRESS`] at once.
//! Every change is serialised once and sent to every lobby watcher as the
//! same shared text; the live list is sent at most every [`LIVE_REFRESH`]
//! when it changed (the rooms only mark it changed).

mod live;
mod program;
mod seek;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::json;
use shogi_core::Handicap;
use tokio::sync::broadcast;

use crate::error::{Error, Problem};
use crate::game::clock::RATED_TOO_FAST;
use crate::game::SideChoice;
use crate::games::players::Identity;
use crate::games::view::PlayerView;
use crate::time::{unix_ms, TimeSource};
use crate::token;

use live::RemoteGame;
pub use live::{LiveGame, LivePlayers};
pub use program::{Offer, ProgramDoor, PROGRAM_ANSWER};
pub use seek::{Seek, SeekRequest, SeekView, Terms};

/// How long a seek stays open.
pub const SEEK_LIFETIME_MS: u64 = 30 * 60 * 1000;
/// Seeks one address may hold open at once.
pub const MAX_OPEN_SEEKS_PER_ADDRESS: usize = 3;
/// Programs' seeks listed at once (more programs may wait for each other
/// over the CSA protocol; only this many are offered to people).
pub const MAX_PROGRAM_SEEKS: usize = 100;
/// Live games listed (the highest rated first).
pub const MAX_LIVE_LISTED: usize = 50;
/// How often changed move numbers are sent.
pub const LIVE_REFRESH: Duration = Duration::from_secs(2);
/// Messages a slow lobby watcher may fall behind before it skips some.
const EVENT_BUFFER: usize = 256;

#[derive(Default)]
struct State {
    seeks: Vec<Seek>,
    live: HashMap<String, LiveGame>,
    /// The other instances' live games (several instances, on the home).
    remote: HashMap<String, RemoteGame>,
    /// How many live games the other instances have.
    remote_total: usize,
    live_changed: bool,
    /// The ids of the last live list sent, in its order.
    listed: Vec<String>,
    /// Listed games that moved since then.
    moved: std::collections::HashSet<String>,
}

impl State {
    /// Where seek `id` is in the list.
    fn seek_at(&self, id: &str) -> Result<usize, Error> {
        self.seeks
            .iter()
            .position(|s| s.view.id == id)
            .ok_or(Error::NoSuch("challenge"))
    }
}

/// The lobby (cheap to clone).
#[derive(Clone)]
pub struct Lobby {
    state: Arc<Mutex<State>>,
    /// Several instances: the address of the instance that holds the lobby,
    /// when it is another one (its requests are forwarded there).
    home: Arc<Mutex<Option<String>>>,
    /// Seeks one address may hold open (`usize::MAX`: no cap).
    open_cap: Arc<std::sync::atomic::AtomicUsize>,
    events: broadcast::Sender<Arc<str>>,
    time: TimeSource,
}

fn text(v: &serde_json::Value) -> Arc<str> {
    Arc::from(v.to_string())
}

fn bad(msg: impl Into<String>) -> Error {
    Error::BadRequest(msg.into())
}

impl Lobby {
    /// An empty lobby reading `time`.
    #[must_use]
    pub fn new(time: TimeSource) -> Lobby {
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        Lobby {
            state: Arc::default(),
            home: Arc::default(),
            open_cap: Arc::new(std::sync::atomic::AtomicUsize::new(
                MAX_OPEN_SEEKS_PER_ADDRESS,
            )),
            events,
            time,
        }
    }

    /// Lifts (`false`) or restores the cap on open seeks per address
    /// (`shogi serve --no-rate-limits`, where every bot has one address).
    pub fn cap_open_seeks(&self, cap: bool) {
        let n = if cap {
            MAX_OPEN_SEEKS_PER_ADDRESS
        } else {
            usize::MAX
        };
        self.open_cap.store(n, std::sync::atomic::Ordering::Relaxed);
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves consistent data (every change is one assignment).
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn send(&self, msg: Arc<str>) {
        // No watcher is not an error.
        let _ = self.events.send(msg);
    }

    /// The games listed (the strongest [`MAX_LIVE_LISTED`], this instance's
    /// and the others'), and how many are live in all.
    fn live_list(state: &State) -> (Vec<serde_json::Value>, usize) {
        let mut live: Vec<(i64, &str, Option<&LiveGame>, Option<&RemoteGame>)> = state
            .live
            .values()
            .map(|g| (g.strength(), g.id.as_str(), Some(g), None))
            .chain(
                state
                    .remote
                    .iter()
                    .filter(|(id, _)| !state.live.contains_key(*id))
                    .map(|(id, g)| (g.strength, id.as_str(), None, Some(g))),
            )
            .collect();
        live.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        let listed = live
            .into_iter()
            .take(MAX_LIVE_LISTED)
            .map(|(_, _, local, remote)| match (local, remote) {
                (Some(g), _) => json!(g),
                (None, Some(g)) => g.listed.clone(),
                (None, None) => serde_json::Value::Null,
            })
            .collect();
        (listed, Lobby::live_total(state))
    }

    fn live_total(state: &State) -> usize {
        state.live.len() + state.remote_total
    }

    /// The move number of listed game `id`, this instance's or another's.
    fn moves_of(state: &State, id: &str) -> Option<usize> {
        state
            .live
            .get(id)
            .map(|g| g.moves)
            .or_else(|| state.remote.get(id).map(|g| g.moves))
    }

    /// Removes the seeks older than [`SEEK_LIFETIME_MS`].
    fn expire(&self, state: &mut State) {
        let now = self.time.now_ms();
        let mut gone = Vec::new();
        state.seeks.retain(|s| {
            let keep = now.saturating_sub(s.posted_ms) < SEEK_LIFETIME_MS;
            if !keep {
                gone.push(s.view.id.clone());
            }
            keep
        });
        for id in gone {
            self.send(text(&json!({"type": "seek_removed", "id": id})));
        }
    }

    /// The lobby now: `{"seeks": [...], "live": [...], "live_total": N}`.
    #[must_use]
    pub fn snapshot(&self) -> serde_json::Value {
        let mut state = self.lock();
        self.expire(&mut state);
        let seeks: Vec<&SeekView> = state.seeks.iter().map(|s| &s.view).collect();
        let (live, total) = Lobby::live_list(&state);
        json!({"seeks": seeks, "live": live, "live_total": total})
    }

    /// The changes from now on (each a JSON text), and the lobby now.
    #[must_use]
    pub fn subscribe(&self) -> (broadcast::Receiver<Arc<str>>, serde_json::Value) {
        let rx = self.events.subscribe();
        (rx, self.snapshot())
    }

    /// Posts a seek by `owner` (shown as `by`) from `address`. Returns its
    /// id and the seeker's seat token.
    ///
    /// # Errors
    /// [`Error::BadRequest`] for a bad request, [`Error::Unauthorized`] for
    /// a rated seek by a guest, [`Error::TooManyRequests`] over the open
    /// seeks of one address.
    pub fn post(
        &self,
        req: &SeekRequest,
        owner: Identity,
        by: PlayerView,
        address: IpAddr,
        to_key: Option<String>,
    ) -> Result<(String, String), Error> {
        self.insert(req, owner, by, address, to_key, None)
    }

    /// Lists a program waiting over the CSA protocol for `game` (its CSA
    /// game name) as an unrated seek, which a person accepts through
    /// `door`. Returns the seek's id.
    ///
    /// # Errors
    /// As [`Lobby::post`].
    pub fn post_program(
        &self,
        req: &SeekRequest,
        owner: Identity,
        by: PlayerView,
        address: IpAddr,
        game: String,
        door: ProgramDoor,
    ) -> Result<String, Error> {
        if req.rated {
            return Err(bad("a program's challenge is unrated"));
        }
        self.insert(req, owner, by, address, None, Some((game, door)))
            .map(|(id, _)| id)
    }

    fn insert(
        &self,
        req: &SeekRequest,
        owner: Identity,
        by: PlayerView,
        address: IpAddr,
        to_key: Option<String>,
        program: Option<(String, ProgramDoor)>,
    ) -> Result<(String, String), Error> {
        if let Some(tc) = &req.time {
            tc.validate().map_err(bad)?;
        }
        let handicap = req.handicap.unwrap_or(Handicap::Even);
        if req.rated {
            if owner.user().is_none() {
                return Err(Error::Unauthorized(
                    "log in to post a rated challenge".into(),
                ));
            }
            match &req.time {
                None => return Err(bad("a rated challenge needs a time control")),
                Some(tc) if !tc.rateable() => return Err(bad(RATED_TOO_FAST)),
                Some(_) => {}
            }
            if handicap != Handicap::Even {
                return Err(bad("handicap games are unrated"));
            }
        }
        let id = token::new_game_id();
        let seat_token = token::new_token();
        let mut state = self.lock();
        self.expire(&mut state);
        // A program's seek is its account's one (one login per account),
        // whatever address it connects from.
        let cap = self.open_cap.load(std::sync::atomic::Ordering::Relaxed);
        let people = |s: &&Seek| s.address == address && s.program.is_none();
        if program.is_some()
            && state.seeks.iter().filter(|s| s.program.is_some()).count() >= MAX_PROGRAM_SEEKS
        {
            return Err(Error::TooManyRequests {
                message: format!("at most {MAX_PROGRAM_SEEKS} programs are listed at once"),
                retry_after_s: 60,
            });
        }
        if program.is_none() && state.seeks.iter().filter(people).count() >= cap {
            return Err(Error::TooManyRequests {
                message: format!(
                    "at most {MAX_OPEN_SEEKS_PER_ADDRESS} open challenges at once; withdraw one first"
                ),
                retry_after_s: 60,
            });
        }
        let (game, program) = match program {
            Some((game, door)) => (Some(game), Some(door)),
            None => (None, None),
        };
        let view = SeekView {
            id: id.clone(),
            by,
            terms: Terms::new(req.time, req.rated, handicap.to_string()),
            side: match req.side {
                SideChoice::Sente => "sente",
                SideChoice::Gote => "gote",
                SideChoice::Random => "random",
            },
            to: req.to.clone(),
            game,
            created_at_ms: unix_ms(),
        };
        self.send(text(&json!({"type": "seek_added", "seek": view})));
        state.seeks.push(Seek {
            view,
            owner,
            address,
            token: seat_token.clone(),
            side: req.side,
            handicap,
            to_key,
            posted_ms: self.time.now_ms(),
            program,
        });
        Ok((id, seat_token))
    }

    /// A person's open seek a program waiting for `game` may take: open to
    /// anyone, unrated (a program's games with people are unrated), with
    /// the same clock and start, and a seat that fits `side` (the seat the
    /// program asks for; `Random` fits any). The oldest such seek's id.
    #[must_use]
    pub fn open_to_program(
        &self,
        time: &crate::game::clock::TimeControl,
        handicap: Handicap,
        side: SideChoice,
    ) -> Option<String> {
        let mut state = self.lock();
        self.expire(&mut state);
        state
            .seeks
            .iter()
            .find(|s| {
                s.program.is_none()
                    && s.to_key.is_none()
                    && !s.view.terms.rated
                    && s.view.terms.time.as_ref() == Some(time)
                    && s.handicap == handicap
                    && match (s.side, side) {
                        (SideChoice::Random, _) | (_, SideChoice::Random) => true,
                        (a, b) => a != b,
                    }
            })
            .map(|s| s.view.id.clone())
    }

    /// Puts back a seek taken for a game that did not start (a program
    /// took it and then rejected the game), with its lifetime counted
    /// from now.
    pub fn put_back(&self, mut seek: Seek) {
        let mut state = self.lock();
        seek.posted_ms = self.time.now_ms();
        self.send(text(&json!({"type": "seek_added", "seek": seek.view})));
        state.seeks.push(seek);
    }

    /// Withdraws seek `id` by its author: the same account, or the holder
    /// of its token.
    ///
    /// # Errors
    /// [`Error::NoSuch`] for a seek that is gone, [`Error::Forbidden`] for
    /// someone else's.
    pub fn withdraw(&self, id: &str, who: &Identity, token: Option<&str>) -> Result<(), Error> {
        let mut state = self.lock();
        let at = state.seek_at(id)?;
        let seek = &state.seeks[at];
        let by_account = who.user().is_some() && seek.owner.user() == who.user();
        let by_token = token.is_some_and(|t| token::same(&seek.token, t));
        if !by_account && !by_token {
            return Err(Problem::NotYourChallenge.into());
        }
        state.seeks.remove(at);
        self.send(text(&json!({"type": "seek_removed", "id": id})));
        Ok(())
    }

    /// Withdraws every seek of account `user` (disabled by a moderator).
    pub fn withdraw_all_of(&self, user: i64) {
        let mut state = self.lock();
        let gone: Vec<String> = state
            .seeks
            .iter()
            .filter(|s| s.owner.user() == Some(user))
            .map(|s| s.view.id.clone())
            .collect();
        state.seeks.retain(|s| s.owner.user() != Some(user));
        for id in &gone {
            self.send(text(&json!({"type": "seek_removed", "id": id})));
        }
    }

    /// Takes seek `id` off the list for `who` (whose name folds to
    /// `who_key`), who accepts it.
    ///
    /// # Errors
    /// [`Error::NoSuch`] for a seek that is gone, [`Error::Conflict`] for
    /// one's own, [`Error::Forbidden`] for a challenge to someone else,
    /// [`Error::Unauthorized`] for a rated seek without an account.
    pub fn take(&self, id: &str, who: &Identity, who_key: Option<&str>) -> Result<Seek, Error> {
        let mut state = self.lock();
        self.expire(&mut state);
        let at = state.seek_at(id)?;
        let seek = &state.seeks[at];
        if who.user().is_some() && seek.owner.user() == who.user() {
            return Err(Problem::OwnChallenge.into());
        }
        if let Some(to) = &seek.to_key {
            if who_key != Some(to.as_str()) {
                return Err(Error::Forbidden(
                    "this challenge is addressed to another player".into(),
                ));
            }
        }
        if seek.view.terms.rated && who.user().is_none() {
            return Err(Error::Unauthorized(
                "log in to accept a rated challenge".into(),
            ));
        }
        // Announced by `accepted` (or `dropped`), so that the seeker's
        // client learns the game before it forgets the seek.
        Ok(state.seeks.remove(at))
    }

    /// Tells the watchers that taken seek `id` is gone without a game (its
    /// game could not be started).
    pub fn dropped(&self, id: &str) {
        self.send(text(&json!({"type": "seek_removed", "id": id})));
    }

    /// Tells the watchers that taken seek `id` became game `game` (and left the list).
    pub fn accepted(&self, id: &str, game: &str) {
        self.send(text(
            &json!({"type": "seek_accepted", "id": id, "game": game}),
        ));
    }

    /// A game between people started (or was restored); sent with the next refresh.
    pub fn game_started(&self, game: LiveGame) {
        let mut state = self.lock();
        state.live.insert(game.id.clone(), game);
        state.live_changed = true;
    }

    /// A move was played in a live game; sent with the next refresh.
    pub fn game_moved(&self, id: &str, moves: usize) {
        let mut state = self.lock();
        if let Some(g) = state.live.get_mut(id) {
            g.moves = moves;
            state.moved.insert(id.to_string());
        }
    }

    /// A live game ended; sent with the next refresh.
    pub fn game_ended(&self, id: &str) {
        let mut state = self.lock();
        if state.live.remove(id).is_some() {
            state.live_changed = true;
        }
    }

    /// Several instances: where the lobby lives, `None` for here (alone, or
    /// this instance is the lobby's home).
    #[must_use]
    pub fn home(&self) -> Option<String> {
        self.home
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Several instances: the lobby lives at `home` (`None`: here).
    pub fn set_home(&self, home: Option<String>) {
        *self
            .home
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = home;
    }

    /// Several instances, on the lobby's home: the live games the other
    /// instances list now (`listed`: their `live` lists; `total`: their
    /// `live_total`s summed), merged into this lobby's list from the next
    /// refresh on. Anywhere else: nothing (`listed` empty, `total` 0).
    pub fn set_remote(&self, listed: Vec<serde_json::Value>, total: usize) {
        let remote: HashMap<String, RemoteGame> =
            listed.into_iter().filter_map(RemoteGame::of).collect();
        let mut state = self.lock();
        if state.remote_total != total
            || state.remote.len() != remote.len()
            || remote.keys().any(|id| !state.remote.contains_key(id))
        {
            state.live_changed = true;
        }
        for (id, g) in &remote {
            if state.remote.get(id).is_some_and(|old| old.moves != g.moves) {
                state.moved.insert(id.clone());
            }
        }
        state.remote = remote;
        state.remote_total = total;
    }

    /// Sends the live list if it changed (games started, ended or moved),
    /// and drops expired seeks; called every [`LIVE_REFRESH`], so that a
    /// thousand games starting at once make one message, not a thousand.
    pub fn refresh(&self) {
        let mut state = self.lock();
        self.expire(&mut state);
        // Games came or went beyond the listed ones: the total changed.
        let mut total_changed = false;
        if state.live_changed {
            state.live_changed = false;
            total_changed = true;
            let (live, total) = Lobby::live_list(&state);
            let ids: Vec<String> = live
                .iter()
                .filter_map(|g| g["id"].as_str().map(str::to_owned))
                .collect();
            if ids != state.listed {
                state.listed = ids;
                state.moved.clear();
                self.send(text(
                    &json!({"type": "live", "live": live, "live_total": total}),
                ));
                return;
            }
        }
        // The same games listed: only their new move numbers.
        if total_changed || !state.moved.is_empty() {
            let moved = std::mem::take(&mut state.moved);
            let moves: serde_json::Map<String, serde_json::Value> = state
                .listed
                .iter()
                .filter(|id| moved.contains(*id))
                .filter_map(|id| Lobby::moves_of(&state, id).map(|m| (id.clone(), json!(m))))
                .collect();
            if total_changed || !moves.is_empty() {
                self.send(text(&json!({
                    "type": "live_moves", "moves": moves, "live_total": Lobby::live_total(&state),
                })));
            }
        }
    }

    /// Calls [`Lobby::refresh`] every [`LIVE_REFRESH`] until the task is aborted.
    #[must_use]
    pub fn spawn_refresher(&self) -> tokio::task::JoinHandle<()> {
        let lobby = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(LIVE_REFRESH);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                lobby.refresh();
            }
        })
    }

    /// How many games are listed live.
    #[must_use]
    pub fn live_count(&self) -> usize {
        self.lock().live.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(v: serde_json::Value) -> SeekRequest {
        serde_json::from_value(v).unwrap()
    }

    fn guest(name: &str) -> (Identity, PlayerView) {
        (
            Identity::Guest {
                name: Some(name.into()),
            },
            PlayerView {
                name: name.into(),
                guest: true,
                computer: false,
                bot: false,
                rating: None,
                provisional: false,
                rank: None,
            },
        )
    }

    /// A live game whose Sente is an account of that rating.
    fn live_game(id: &str, rating: i64, moves: usize) -> LiveGame {
        LiveGame {
            id: id.into(),
            players: LivePlayers {
                sente: Some(PlayerView {
                    rating: Some(rating),
                    ..account(1, "a").1
                }),
                gote: None,
            },
            terms: Terms::new(None, false, "even".into()),
            moves,
        }
    }

    fn account(id: i64, name: &str) -> (Identity, PlayerView) {
        (
            Identity::Account {
                id,
                name: name.into(),
            },
            PlayerView {
                name: name.into(),
                guest: false,
                computer: false,
                bot: false,
                rating: Some(1500),
                provisional: true,
                rank: Some("2k".into()),
            },
        )
    }

    const HOME: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    #[tokio::test]
    async fn a_seek_is_listed_announced_taken_once_and_expires() {
        let (time, clock) = TimeSource::manual();
        let lobby = Lobby::new(time);
        let (mut rx, now) = lobby.subscribe();
        assert_eq!(now["seeks"].as_array().unwrap().len(), 0);
        let (who, view) = guest("Гость");
        let req = request(json!({"time": {"main_ms": 1_800_000, "byoyomi_ms": 30_000}}));
        let (id, _token) = lobby.post(&req, who, view, HOME, None).unwrap();
        let added: serde_json::Value = serde_json::from_str(&rx.recv().await.unwrap()).unwrap();
        assert_eq!(added["type"], "seek_added");
        assert_eq!(added["seek"]["class"], "classical");
        assert_eq!(added["seek"]["side"], "random");
        // Shown in Unix time (after 2020), whatever the lobby's own clock reads.
        assert!(added["seek"]["created_at_ms"].as_u64().unwrap() > 1_600_000_000_000);
        let (taker, _) = account(7, "Ivan");
        lobby.take(&id, &taker, Some("ivan")).unwrap();
        assert!(matches!(
            lobby.take(&id, &taker, Some("ivan")),
            Err(Error::NoSuch(_))
        ));
        // A second seek expires after its lifetime.
        let (who, view) = guest("Гость");
        let (id2, _) = lobby.post(&req, who, view, HOME, None).unwrap();
        clock.advance(SEEK_LIFETIME_MS);
        lobby.refresh();
        assert_eq!(lobby.snapshot()["seeks"].as_array().unwrap().len(), 0);
        assert!(lobby.take(&id2, &taker, None).is_err());
    }

    #[test]
    fn rated_seeks_need_an_account_a_clock_and_no_handicap() {
        let lobby = Lobby::new(TimeSource::manual().0);
        let (who, view) = guest("g");
        let rated = request(json!({"rated": true, "time": {"main_ms": 600_000}}));
        assert!(matches!(
            lobby.post(&rated, who, view, HOME, None),
            Err(Error::Unauthorized(_))
        ));
        let (who, view) = account(1, "a");
        let no_clock = request(json!({"rated": true}));
        assert!(lobby
            .post(&no_clock, who.clone(), view.clone(), HOME, None)
            .is_err());
        let handicap =
            request(json!({"rated": true, "time": {"main_ms": 600_000}, "handicap": "rook"}));
        assert!(lobby.post(&handicap, who, view, HOME, None).is_err());
    }

    #[test]
    fn own_seeks_addressed_seeks_and_the_per_address_cap() {
        let lobby = Lobby::new(TimeSource::manual().0);
        let (alice, view) = account(1, "Alice");
        let req = request(json!({"to": "Bob"}));
        let (id, token) = lobby
            .post(&req, alice.clone(), view.clone(), HOME, Some("bob".into()))
            .unwrap();
        assert!(matches!(
            lobby.take(&id, &alice, Some("alice")),
            Err(Error::Problem(Problem::OwnChallenge))
        ));
        let (carol, _) = account(3, "Carol");
        assert!(matches!(
            lobby.take(&id, &carol, Some("carol")),
            Err(Error::Forbidden(_))
        ));
        assert!(matches!(
            lobby.withdraw(&id, &carol, None),
            Err(Error::Problem(Problem::NotYourChallenge))
        ));
        lobby
            .withdraw(&id, &Identity::Guest { name: None }, Some(&token))
            .unwrap();
        let open = request(json!({}));
        for _ in 0..MAX_OPEN_SEEKS_PER_ADDRESS {
            lobby
                .post(&open, alice.clone(), view.clone(), HOME, None)
                .unwrap();
        }
        assert!(matches!(
            lobby.post(&open, alice, view, HOME, None),
            Err(Error::TooManyRequests { .. })
        ));
    }

    #[test]
    fn live_games_are_listed_highest_rated_first_and_leave_when_over() {
        let lobby = Lobby::new(TimeSource::manual().0);
        lobby.game_started(live_game("a", 1400, 0));
        lobby.game_started(live_game("b", 1900, 0));
        lobby.refresh();
        let (mut rx, _) = lobby.subscribe();
        lobby.game_moved("a", 5);
        // The same games listed: only the move number goes out.
        lobby.refresh();
        let moved: serde_json::Value = serde_json::from_str(&rx.try_recv().unwrap()).unwrap();
        assert_eq!(
            moved,
            json!({"type": "live_moves", "moves": {"a": 5}, "live_total": 2})
        );
        let snap = lobby.snapshot();
        assert_eq!(snap["live"][0]["id"], "b");
        assert_eq!(snap["live"][1]["moves"], 5);
        let (mut rx, _) = lobby.subscribe();
        lobby.game_ended("b");
        assert_eq!(lobby.live_count(), 1);
        // Sent once, by the next refresh.
        assert!(rx.try_recv().is_err());
        lobby.refresh();
        let live: serde_json::Value = serde_json::from_str(&rx.try_recv().unwrap()).unwrap();
        assert_eq!(live["live_total"], 1);
        lobby.refresh();
        assert!(rx.try_recv().is_err());
    }

    #[test]
    fn the_home_lists_the_other_instances_games_with_its_own() {
        let lobby = Lobby::new(TimeSource::manual().0);
        lobby.game_started(live_game("here", 1500, 0));
        // Another instance lists two games (of three it has live).
        let remote = |moves| {
            vec![
                json!(live_game("there", 1800, moves)),
                json!(live_game("far", 1200, 3)),
            ]
        };
        lobby.set_remote(remote(7), 3);
        lobby.refresh();
        let snap = lobby.snapshot();
        let ids: Vec<&str> = snap["live"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap())
            .collect();
        assert_eq!(
            ids,
            ["there", "here", "far"],
            "strongest first, wherever played"
        );
        assert_eq!(snap["live_total"], 4);
        assert_eq!(snap["live"][0]["moves"], 7);
        // A move on the other instance goes out as a move number.
        let (mut rx, _) = lobby.subscribe();
        lobby.set_remote(remote(8), 3);
        lobby.refresh();
        let moved: serde_json::Value = serde_json::from_str(&rx.try_recv().unwrap()).unwrap();
        assert_eq!(
            moved,
            json!({"type": "live_moves", "moves": {"there": 8}, "live_total": 4})
        );
        // Not the home any more: only its own games.
        lobby.set_remote(Vec::new(), 0);
        lobby.refresh();
        assert_eq!(lobby.snapshot()["live_total"], 1);
    }

    fn door(name: &str) -> ProgramDoor {
        ProgramDoor {
            name: name.into(),
            offers: tokio::sync::mpsc::channel(1).0,
        }
    }

    #[test]
    fn programs_seeks_are_listed_apart_from_the_address_cap_and_bounded() {
        let lobby = Lobby::new(TimeSource::default());
        let req = request(json!({"time": {"main_ms": 600_000, "byoyomi_ms": 10_000}}));
        // People's seeks from one address are capped...
        for i in 0..MAX_OPEN_SEEKS_PER_ADDRESS {
            let (who, by) = guest(&format!("g{i}"));
            lobby.post(&req, who, by, HOME, None).unwrap();
        }
        let (who, by) = guest("one_more");
        assert!(lobby.post(&req, who, by, HOME, None).is_err());
        // ...programs from the same address are not, up to their own bound.
        for i in 0..MAX_PROGRAM_SEEKS {
            let name = format!("bot{i}");
            let (who, by) = account(i64::try_from(i).unwrap() + 10, &name);
            let id = lobby
                .post_program(&req, who, by, HOME, "test-600-10".into(), door(&name))
                .unwrap();
            assert_eq!(id.len(), 16);
        }
        let (who, by) = account(9999, "late");
        let late = lobby.post_program(&req, who, by, HOME, "test-600-10".into(), door("late"));
        assert!(matches!(late, Err(Error::TooManyRequests { .. })));
        // A program's seek is never rated and says its game name.
        let (who, by) = account(9998, "rated");
        let rated = request(json!({"time": {"main_ms": 600_000}, "rated": true}));
        assert!(lobby
            .post_program(&rated, who, by, HOME, "x-600-0".into(), door("rated"))
            .is_err());
        let snapshot = lobby.snapshot();
        let listed = snapshot["seeks"].as_array().unwrap();
        assert_eq!(listed.len(), MAX_OPEN_SEEKS_PER_ADDRESS + MAX_PROGRAM_SEEKS);
        assert_eq!(listed.last().unwrap()["game"], "test-600-10");
        assert!(listed[0].get("game").is_none());
    }

    #[test]
    fn a_program_finds_only_peoples_open_unrated_seeks_of_its_clock_and_colour() {
        let lobby = Lobby::new(TimeSource::default());
        let tc = |main: u64| crate::game::clock::TimeControl {
            main_ms: main,
            byoyomi_ms: 10_000,
            periods: 1,
            increment_ms: 0,
        };
        let post = |v: serde_json::Value, name: &str| {
            let (who, by) = guest(name);
            let ip = IpAddr::V4(std::net::Ipv4Addr::new(
                10,
                0,
                0,
                name.len().try_into().unwrap(),
            ));
            lobby.post(&request(v), who, by, ip, None).unwrap().0
        };
        let addressed = {
            let (who, by) = guest("a");
            let req = request(json!({"time": tc(300_000), "to": "someone"}));
            lobby
                .post(&req, who, by, HOME, Some("someone".into()))
                .unwrap()
                .0
        };
        let sente = post(json!({"time": tc(300_000), "side": "sente"}), "bb");
        let other_clock = post(json!({"time": tc(600_000)}), "ccc");
        // Addressed to someone: never; Sente wanted by both: no.
        assert_eq!(
            lobby.open_to_program(&tc(300_000), Handicap::Even, SideChoice::Sente),
            None
        );
        assert_eq!(
            lobby.open_to_program(&tc(300_000), Handicap::Even, SideChoice::Gote),
            Some(sente.clone())
        );
        assert_eq!(
            lobby.open_to_program(&tc(600_000), Handicap::Even, SideChoice::Random),
            Some(other_clock)
        );
        assert_eq!(
            lobby.open_to_program(&tc(600_000), Handicap::Lance, SideChoice::Random),
            None
        );
        // Taken and put back: listed again.
        let (who, _) = account(5, "robo");
        let taken = lobby.take(&sente, &who, None).unwrap();
        assert_eq!(
            lobby.open_to_program(&tc(300_000), Handicap::Even, SideChoice::Gote),
            None
        );
        lobby.put_back(taken);
        assert_eq!(
            lobby.open_to_program(&tc(300_000), Handicap::Even, SideChoice::Gote),
            Some(sente)
        );
        assert!(!addressed.is_empty());
    }
}
