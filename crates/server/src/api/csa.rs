//! The CSA server protocol edge (`shogi serve --csa-port 4081`): programs
//! connect over TCP, log in as program accounts, are paired by game name
//! and play in the same rooms as everyone's games (docs/CSA.md).
//!
//! One task per connection reads lines (at most
//! [`MAX_LINE`](crate::csa::command::MAX_LINE) bytes each, from a reader
//! task of its own) and writes its answers straight to the socket, each
//! write bounded by [`WRITE_TIMEOUT`]. The protocol's words are
//! `crate::csa`'s; this file only moves them between the socket, the
//! pairing [`Hub`] and the rooms: a move is a room [`Action`], and the
//! room's updates become the echoed moves and the result lines.

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::FromRef;
use shogi_core::{ByColor, Color, Ending, Foul, Position};
use shogi_record::csa::CsaMove;
use tokio::io::{AsyncReadExt, AsyncWrite, AsyncWriteExt, BufWriter};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{broadcast, mpsc, Semaphore};
use tokio::task::JoinSet;

use crate::accounts::programs::Program;
use crate::csa::command::{self, MAX_LINE};
use crate::csa::{result, Command, GameName, Login, Pairing, Preference, Summary, Waiting};
use crate::db::Store;
use crate::error::{Error, Problem};
use crate::game::{Seat, SideChoice};
use crate::games::create::Created;
use crate::games::players::{self, Identity, SeatPlayer};
use crate::games::room::{Action, RoomError, RoomHandle};
use crate::games::rooms::{ProgramGame, Rooms};
use crate::games::view::StateText;
use crate::limits::rates::{address_key, Kind};
use crate::lobby::{Lobby, Offer, ProgramDoor, Seek, SeekRequest};
use crate::ratings::{Rating, TimeClass};
use crate::state::AppState;
use crate::time::{unix_ms, TimeSource};
use crate::token;

/// How long a write to a client may take before the connection is closed.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a new connection has to log in.
pub const LOGIN_TIMEOUT: Duration = Duration::from_secs(60);
/// The most connections served at once (one more is closed at once): 2000
/// programs in 1000 games (the `csa_load` benchmark, docs/LOAD.md) with
/// room to spare. Each takes a file descriptor, so holding this many needs
/// `ulimit -n` above it and the web's sockets; while none is free, accepting
/// fails, is logged, and is tried again a second later.
pub const MAX_CONNECTIONS: usize = 4096;
/// The most programs waiting for an opponent: half of
/// [`MAX_CONNECTIONS`], every other program waiting for the one it meets.
pub const MAX_WAITING: usize = MAX_CONNECTIONS / 2;
/// The move limit of programs' games (floodgate's).
pub const MAX_MOVES: u32 = 256;
/// How often programs waiting for a `floodgate-` game are paired
/// (floodgate's schedule: at :00 and :30).
pub const SCHEDULED_PAIRING: Duration = Duration::from_secs(30 * 60);
/// Chat lines a slow connection may fall behind before it skips some.
const CHAT_BUFFER: usize = 64;
/// The least time between two chat lines of one connection.
const CHAT_EVERY_MS: u64 = 1000;
/// Events a connection's inbox holds (a table sends at most two).
const INBOX: usize = 8;
/// Lines read ahead of the connection's task.
const LINES_AHEAD: usize = 8;

/// A connection's number (the pairing's key).
type ConnId = u64;

/// What the hub tells a connection.
#[derive(Debug)]
enum Event {
    /// Paired: the table both sit at, and this connection's colour.
    Paired(Arc<Table>, Color),
    /// Both agreed: the game's room.
    Start(RoomHandle),
    /// Someone rejected (their name), or the game could not start.
    Rejected(String),
}

/// Two paired programs between the summary and the start.
#[derive(Debug)]
struct Table {
    id: String,
    game: GameName,
    programs: ByColor<Program>,
    inboxes: ByColor<mpsc::Sender<Event>>,
    /// Who agreed; `None` once the table is closed (started or rejected).
    agreed: tokio::sync::Mutex<Option<ByColor<bool>>>,
}

/// A waiting program: its inbox, its account and the game it asked for.
type Seeker = (mpsc::Sender<Event>, Program, GameName);

/// A program and a person between the summary and the start.
#[derive(Debug)]
struct PersonTable {
    id: String,
    game: GameName,
    /// The program's colour.
    me: Color,
    person: Identity,
    person_name: String,
    asker: Asker,
}

/// How a program met a person.
#[derive(Debug)]
enum Asker {
    /// The person accepted the program's seek in the lobby and waits for
    /// the program's answer: their seat.
    Accepted(tokio::sync::oneshot::Sender<Result<Created, Error>>),
    /// The program took the person's seek (`%%GAME`, `%%CHALLENGE`); it
    /// goes back to the lobby if the game does not start.
    Took(Box<Seek>),
}

/// A game in progress, for `%%LIST` and `%%SHOW`.
#[derive(Clone, Debug)]
struct Live {
    room: RoomHandle,
    names: ByColor<String>,
    /// The game name the programs were paired by.
    game: String,
    start: Position,
}

/// The programs logged in and waiting: shared by every connection.
#[derive(Debug)]
struct Hub {
    next_id: AtomicU64,
    /// Logged-in accounts (id) → their connection and name.
    online: Mutex<HashMap<i64, (ConnId, String)>>,
    waiting: Mutex<Waiting<ConnId>>,
    /// The waiting connections' inboxes and logins.
    seekers: Mutex<HashMap<ConnId, Seeker>>,
    /// The games in progress by id (at most one per two connections);
    /// a game is dropped when a player learns it ended, or when a listing
    /// finds it over.
    games: Mutex<BTreeMap<String, Live>>,
    /// `%%CHAT` lines, to every program logged in.
    chat: broadcast::Sender<Arc<str>>,
}

impl Hub {
    fn new() -> Hub {
        Hub {
            next_id: AtomicU64::new(1),
            online: Mutex::default(),
            waiting: Mutex::new(Waiting::new(MAX_WAITING)),
            seekers: Mutex::default(),
            games: Mutex::default(),
            chat: broadcast::channel(CHAT_BUFFER).0,
        }
    }
}

/// What a program asking for a game gets from the hub.
enum Offered {
    /// It waits: in the queue and among the seekers.
    Queued,
    /// Paired with a waiting program, which left the queue and the seekers
    /// with it.
    Paired(Pairing<ConnId>, Seeker),
    /// Nobody to meet now (`%%CHALLENGE`), or the queue is full.
    Nobody,
}

impl Hub {
    /// Program `key` (`seeker`) asks for its game: paired with a waiting
    /// program, or (unless `now_only`) queued. The queue and the seekers
    /// change together, under both locks (always taken in this order), so
    /// that a program is never in one and not in the other: two programs
    /// logging in at once once paired with a program not yet among the
    /// seekers, and both waited for ever.
    fn offer(
        &self,
        key: ConnId,
        seeker: Seeker,
        preference: Preference,
        now_only: bool,
    ) -> Offered {
        let mut waiting = lock(&self.waiting);
        let mut seekers = lock(&self.seekers);
        let game = seeker.2.text.clone();
        let pairing = if now_only {
            Ok(waiting.pair_now(key, &game, preference, token::coin()))
        } else {
            waiting.offer(key, &game, preference, token::coin())
        };
        match pairing {
            Ok(None) if !now_only => {
                seekers.insert(key, seeker);
                Offered::Queued
            }
            Ok(Some(p)) => {
                let other = if p.sente == key { p.gote } else { p.sente };
                match seekers.remove(&other) {
                    Some(s) => Offered::Paired(p, s),
                    None => Offered::Nobody,
                }
            }
            Ok(None) => Offered::Nobody,
            Err(_) => {
                tracing::warn!("CSA: the queue is full");
                Offered::Nobody
            }
        }
    }
}

/// Locks a mutex, taking over a poisoned one (its data stays consistent:
/// every critical section here is a few map operations).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Serves the CSA protocol on `listener` until `stop` completes; the
/// connections end with it.
pub(crate) async fn serve(
    listener: TcpListener,
    state: AppState,
    pairing_every: Duration,
    stop: impl std::future::Future<Output = ()>,
) {
    let hub = Arc::new(Hub::new());
    let schedule = tokio::spawn(schedule(Arc::clone(&hub), state.clone(), pairing_every));
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut connections = JoinSet::new();
    tokio::pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => break,
            Some(_) = connections.join_next() => {}
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
                        tracing::warn!(%peer, "CSA: too many connections");
                        continue;
                    };
                    let conn = Connection::new(&hub, &state, peer);
                    connections.spawn(async move {
                        conn.run(stream).await;
                        drop(slot);
                    });
                }
                Err(e) => {
                    tracing::warn!("CSA accept: {e}");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            },
        }
    }
    schedule.abort();
    connections.shutdown().await;
}

/// Pairs the programs waiting for `floodgate-` games every `every`, on the
/// wall clock's multiples of it (every 30 minutes: at :00 and :30), the
/// waits measured on the server's clock (which tests move by hand).
async fn schedule(hub: Arc<Hub>, state: AppState, every: Duration) {
    let time = TimeSource::from_ref(&state);
    let store = Store::from_ref(&state);
    let every_ms = u64::try_from(every.as_millis()).unwrap_or(u64::MAX).max(1);
    // The first pairing falls on the next multiple of `every` on the wall
    // clock: in (0, every] from now.
    let mut at = time
        .now_ms()
        .saturating_add(every_ms - unix_ms() % every_ms);
    loop {
        time.sleep_until_ms(at).await;
        pair_scheduled(&hub, &store).await;
        at = at.saturating_add(every_ms);
    }
}

/// Puts a program paired by the schedule back in the queue (its opponent
/// left before the summaries went out).
fn wait_again(hub: &Hub, key: ConnId, seeker: Seeker) {
    let mut waiting = lock(&hub.waiting);
    let mut seekers = lock(&hub.seekers);
    match waiting.offer(key, &seeker.2.text, Preference::Any, token::coin()) {
        Ok(None) => {
            seekers.insert(key, seeker);
        }
        // Cannot happen for a scheduled name (they never pair at once), and
        // a full queue: the program keeps waiting unpaired until it leaves.
        Ok(Some(_)) | Err(_) => tracing::warn!("CSA: a program could not wait again"),
    }
}

/// The schedule's pairing now: the programs waiting for scheduled games,
/// each with the one nearest in rating in the programs' pool (a program
/// without a rating counts as 1500), sent their summaries.
async fn pair_scheduled(hub: &Hub, store: &Store) {
    let keys: Vec<(ConnId, i64, TimeClass)> = {
        let waiting = lock(&hub.waiting);
        let seekers = lock(&hub.seekers);
        waiting
            .scheduled_keys()
            .filter_map(|k| {
                let (_, program, game) = seekers.get(k)?;
                Some((*k, program.id, TimeClass::of_control(&game.time_control())))
            })
            .collect()
    };
    if keys.len() < 2 {
        return;
    }
    let mut ratings: HashMap<ConnId, f64> = HashMap::with_capacity(keys.len());
    for (k, user, class) in keys {
        let r = match store.rating(user, class).await {
            Ok(Some(row)) => row.rating.rating,
            Ok(None) => Rating::NEW.rating,
            Err(e) => {
                tracing::error!("CSA scheduled pairing: {e}");
                return;
            }
        };
        ratings.insert(k, r);
    }
    // The queue and the seekers change together (as in `Hub::offer`).
    let tables: Vec<_> = {
        let mut waiting = lock(&hub.waiting);
        let mut seekers = lock(&hub.seekers);
        waiting
            .pair_scheduled(
                |k| ratings.get(k).copied().unwrap_or(Rating::NEW.rating),
                token::coin,
            )
            .into_iter()
            .map(|p| {
                let (sente, gote) = (seekers.remove(&p.sente), seekers.remove(&p.gote));
                (p, sente, gote)
            })
            .collect()
    };
    for (p, sente, gote) in tables {
        match (sente, gote) {
            (Some(s), Some(g)) => {
                let table = Arc::new(Table {
                    id: token::new_game_id(),
                    game: s.2,
                    programs: ByColor::new(s.1, g.1),
                    inboxes: ByColor::new(s.0, g.0),
                    agreed: tokio::sync::Mutex::new(Some(ByColor::default())),
                });
                for c in [Color::Sente, Color::Gote] {
                    let told = table.inboxes[c]
                        .send(Event::Paired(Arc::clone(&table), c))
                        .await;
                    if told.is_err() {
                        reject(&table, c).await;
                    }
                }
            }
            // One of the two left meanwhile: the other waits again.
            (Some(one), None) => wait_again(hub, p.sente, one),
            (None, Some(one)) => wait_again(hub, p.gote, one),
            (None, None) => {}
        }
    }
}

/// A line read, or why none could be.
enum Incoming {
    Line(String),
    TooLong,
}

/// Reads lines of at most [`MAX_LINE`] bytes into `lines` until the peer
/// closes; a longer line is skipped to its end and reported once.
async fn read_lines(mut reader: impl tokio::io::AsyncRead + Unpin, lines: mpsc::Sender<Incoming>) {
    let mut buf = vec![0u8; 4096];
    let mut line: Vec<u8> = Vec::with_capacity(256);
    let mut skipping = false;
    loop {
        let n = match reader.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        for &b in &buf[..n] {
            if b == b'\n' {
                let out = if skipping {
                    Incoming::TooLong
                } else {
                    Incoming::Line(String::from_utf8_lossy(&line).into_owned())
                };
                skipping = false;
                line.clear();
                if lines.send(out).await.is_err() {
                    return;
                }
            } else if !skipping {
                if line.len() >= MAX_LINE {
                    skipping = true;
                    line.clear();
                } else {
                    line.push(b);
                }
            }
        }
    }
}

/// A game in play on this connection.
struct Play {
    room: RoomHandle,
    id: String,
    me: Color,
    updates: broadcast::Receiver<Arc<StateText>>,
    /// The position after the moves told so far.
    pos: Position,
    /// How many moves were told.
    told: usize,
    /// When the turn in progress started (the server's clock), for `%TORYO,T`.
    turn_started_ms: u64,
}

/// A game a connection watches (`%%MONITOR2ON`), at most one at a time.
struct Monitor {
    id: String,
    updates: broadcast::Receiver<Arc<StateText>>,
    /// The position after the moves told so far.
    pos: Position,
    /// How many moves were told.
    told: usize,
}

impl Monitor {
    /// The moves of `state` not told yet as `##[MONITOR2][<id>]` lines,
    /// and once over its reason line; whether the game is over.
    fn tell(&mut self, state: &StateText, out: &mut Vec<String>) -> bool {
        let view = &state.view;
        let shown = moves_shown(view);
        while self.told < shown {
            let m = view.moves[self.told];
            let secs = if self.told + 1 == view.moves.len() {
                view.last_move_ms.unwrap_or(0) / 1000
            } else {
                0
            };
            out.push(format!(
                "##[MONITOR2][{}] {},T{secs}",
                self.id,
                CsaMove::of(&self.pos, m)
            ));
            self.pos.make_move(m);
            self.told += 1;
        }
        let Some(ending) = view.ending else {
            return false;
        };
        let reason = result::reason(ending).unwrap_or("#END");
        out.push(format!("##[MONITOR2][{}] {reason}", self.id));
        out.push(format!("##[MONITOR2][{}] +OK", self.id));
        true
    }
}

/// Where a connection is.
enum Phase {
    /// Not logged in.
    Login,
    /// Logged in, not waiting (after a game, a rejection).
    Idle,
    /// Waiting for an opponent.
    Waiting,
    /// Paired: the summary was sent, the answer is awaited.
    Offered(Arc<Table>, Color),
    /// Met a person: the summary was sent, the answer is awaited.
    WithPerson(Box<PersonTable>),
    /// Playing.
    Playing(Box<Play>),
}

/// What the loop does after a step.
enum Next {
    Go,
    Close,
}

struct Connection {
    id: ConnId,
    hub: Arc<Hub>,
    state: AppState,
    rooms: Rooms,
    lobby: Lobby,
    store: Store,
    time: TimeSource,
    peer: SocketAddr,
    program: Option<Program>,
    phase: Phase,
    inbox_tx: mpsc::Sender<Event>,
    inbox: mpsc::Receiver<Event>,
    monitor: Option<Monitor>,
    /// While waiting: the game asked for and the colour.
    asked: Option<(GameName, Preference)>,
    /// While waiting and listed in the lobby: the seek's id, and where
    /// people accepting it are offered.
    listed: Option<(String, mpsc::Receiver<Offer>)>,
    /// `%%CHAT` lines, once logged in.
    chat: Option<broadcast::Receiver<Arc<str>>>,
    /// When this connection last chatted (the server's clock).
    chatted_ms: Option<u64>,
}

impl Connection {
    fn new(hub: &Arc<Hub>, state: &AppState, peer: SocketAddr) -> Connection {
        let (inbox_tx, inbox) = mpsc::channel(INBOX);
        Connection {
            id: hub.next_id.fetch_add(1, Ordering::Relaxed),
            hub: Arc::clone(hub),
            state: state.clone(),
            rooms: Rooms::from_ref(state),
            lobby: Lobby::from_ref(state),
            store: Store::from_ref(state),
            time: TimeSource::from_ref(state),
            peer,
            program: None,
            phase: Phase::Login,
            inbox_tx,
            inbox,
            monitor: None,
            asked: None,
            listed: None,
            chat: None,
            chatted_ms: None,
        }
    }

    async fn run(mut self, stream: TcpStream) {
        let _ = stream.set_nodelay(true);
        let (reader, writer) = stream.into_split();
        let mut out = BufWriter::new(writer);
        let (lines_tx, mut lines) = mpsc::channel(LINES_AHEAD);
        let reader = tokio::spawn(read_lines(reader, lines_tx));
        let login_deadline = tokio::time::sleep(LOGIN_TIMEOUT);
        tokio::pin!(login_deadline);
        let mut texts: Vec<String> = Vec::new();
        loop {
            let playing = matches!(self.phase, Phase::Playing(_));
            let logging_in = matches!(self.phase, Phase::Login);
            let monitoring = self.monitor.is_some();
            let next = tokio::select! {
                line = lines.recv() => match line {
                    Some(Incoming::Line(l)) => self.line(&l, &mut texts).await,
                    Some(Incoming::TooLong) => {
                        tracing::debug!(peer = %self.peer, "CSA: a line over {MAX_LINE} bytes skipped");
                        Next::Go
                    }
                    None => Next::Close,
                },
                Some(event) = self.inbox.recv() => self.event(event, &mut texts).await,
                update = recv_update(&mut self.phase), if playing => {
                    self.update(update, &mut texts).await
                }
                watched = recv_monitor(&mut self.monitor), if monitoring => {
                    self.watched(watched, &mut texts);
                    Next::Go
                }
                offer = recv_offer(&mut self.listed) => {
                    if let Some(offer) = offer {
                        self.offered(offer, &mut texts);
                    } else {
                        self.listed = None;
                    }
                    Next::Go
                }
                said = recv_chat(&mut self.chat) => {
                    match said {
                        Some(line) => texts.push(line.to_string()),
                        None => self.chat = None,
                    }
                    Next::Go
                }
                () = &mut login_deadline, if logging_in => Next::Close,
            };
            if !texts.is_empty() && write_all(&mut out, &texts).await.is_err() {
                break;
            }
            texts.clear();
            if matches!(next, Next::Close) {
                break;
            }
        }
        reader.abort();
        self.leave().await;
    }

    /// Everything this connection held, given back: its place in the
    /// queue, an offered game (rejected), its seat's presence.
    async fn leave(&mut self) {
        self.stop_waiting();
        match std::mem::replace(&mut self.phase, Phase::Idle) {
            Phase::Offered(table, me) => reject(&table, me).await,
            Phase::WithPerson(table) => self.turn_down(*table),
            Phase::Playing(play) => play.room.leave(Seat::from(play.me)).await,
            _ => {}
        }
        if let Some(p) = &self.program {
            let mut online = lock(&self.hub.online);
            if online.get(&p.id).is_some_and(|(conn, _)| *conn == self.id) {
                online.remove(&p.id);
            }
        }
    }

    async fn line(&mut self, line: &str, out: &mut Vec<String>) -> Next {
        let command = match Command::parse(line) {
            Ok(c) => c,
            Err(e) => {
                tracing::debug!(peer = %self.peer, "CSA: {e}");
                // A move that cannot even be read loses on the mover's turn.
                if line.starts_with(['+', '-']) {
                    if let Phase::Playing(play) = &self.phase {
                        let _ = play.room.forfeit(Seat::from(play.me)).await;
                    }
                }
                return Next::Go;
            }
        };
        match command {
            Command::KeepAlive => out.push(String::new()),
            Command::Login { id, password, x1 } => {
                return self.login(&id, &password, x1, out).await;
            }
            Command::Logout => {
                if !matches!(self.phase, Phase::Playing(_)) {
                    out.push("LOGOUT:completed".into());
                    return Next::Close;
                }
            }
            Command::Agree(_) => match &self.phase {
                Phase::Offered(table, me) => agree(table, *me, &self.rooms, &self.hub).await,
                Phase::WithPerson(_) => return self.agree_with_person(out).await,
                _ => {}
            },
            Command::Reject(_) => match std::mem::replace(&mut self.phase, Phase::Idle) {
                Phase::Offered(table, me) => {
                    reject(&table, me).await;
                    self.phase = Phase::Offered(table, me);
                }
                Phase::WithPerson(table) => {
                    let id = table.id.clone();
                    self.turn_down(*table);
                    let name = self.program.as_ref().map_or("", |p| p.name.as_str());
                    out.push(format!("REJECT:{id} by {name}"));
                }
                other => self.phase = other,
            },
            Command::Move { mv, comment } => {
                let comment = comment.as_deref().and_then(command::kept_comment);
                self.play(mv, comment).await;
            }
            Command::Resign => self.act(Action::Resign).await,
            Command::Declare => self.act(Action::Declare).await,
            Command::Chudan => {
                if let Phase::Playing(play) = &self.phase {
                    if let Err(e) = play.room.suspend().await {
                        tracing::debug!(game = %play.id, "CSA %CHUDAN: {e}");
                    }
                }
            }
            Command::Extension { word, args } => self.extension(&word, &args, out).await,
        }
        Next::Go
    }

    async fn login(&mut self, id: &str, password: &str, x1: bool, out: &mut Vec<String>) -> Next {
        if !matches!(self.phase, Phase::Login) {
            return Next::Go;
        }
        let incorrect = |out: &mut Vec<String>| {
            out.push("LOGIN:incorrect".into());
            Next::Close
        };
        let address = address_key(self.peer.ip());
        if self
            .state
            .limiter()
            .check(Kind::LoginAddress, &address)
            .await
            .is_err()
        {
            return incorrect(out);
        }
        // `LOGIN id token x1`: no game yet (the x1 extension's `%%GAME`
        // names it); otherwise `gamename,token`.
        let (asked, token) = if x1 && !password.contains(',') {
            (None, password.to_owned())
        } else {
            let Ok(login) = Login::parse(password) else {
                return incorrect(out);
            };
            let Some(token) = login.token else {
                return incorrect(out);
            };
            (Some((login.game, login.preference)), token)
        };
        let program = match self.state.accounts().program_login(id, &token).await {
            Ok(Some(p)) => p,
            Ok(None) => return incorrect(out),
            Err(e) => {
                tracing::error!("CSA login: {e}");
                return incorrect(out);
            }
        };
        // A second login of an id already connected is refused.
        {
            let mut online = lock(&self.hub.online);
            if online.contains_key(&program.id) {
                drop(online);
                return incorrect(out);
            }
            online.insert(program.id, (self.id, program.name.clone()));
        }
        out.push(format!("LOGIN:{id} OK"));
        self.program = Some(program.clone());
        self.chat = Some(self.hub.chat.subscribe());
        self.phase = Phase::Idle;
        if let Some((game, preference)) = asked {
            self.seek(program, game, preference, out).await;
        }
        Next::Go
    }

    /// Joins the queue for `game` (and the lobby's list, where people may
    /// accept it), or sits at a table at once.
    async fn seek(
        &mut self,
        program: Program,
        game: GameName,
        preference: Preference,
        out: &mut Vec<String>,
    ) {
        let seeker = (self.inbox_tx.clone(), program.clone(), game.clone());
        match self.hub.offer(self.id, seeker, preference, false) {
            Offered::Nobody => self.phase = Phase::Idle,
            Offered::Queued => {
                self.phase = Phase::Waiting;
                self.asked = Some((game.clone(), preference));
                self.list(&program, &game, preference).await;
            }
            Offered::Paired(p, other) => self.sit_with_program(&p, program, game, other, out).await,
        }
    }

    /// Sits at a table with the program `p` paired this one with (`other`,
    /// taken off the seekers by the pairing).
    async fn sit_with_program(
        &mut self,
        p: &Pairing<ConnId>,
        program: Program,
        game: GameName,
        other: Seeker,
        out: &mut Vec<String>,
    ) {
        let (other_inbox, other_program, _) = other;
        let me = if p.sente == self.id {
            Color::Sente
        } else {
            Color::Gote
        };
        let mut programs = ByColor::new(program.clone(), program);
        programs[me.opponent()] = other_program;
        let mut inboxes = ByColor::new(self.inbox_tx.clone(), self.inbox_tx.clone());
        inboxes[me.opponent()] = other_inbox;
        let table = Arc::new(Table {
            id: token::new_game_id(),
            game,
            programs,
            inboxes,
            agreed: tokio::sync::Mutex::new(Some(ByColor::default())),
        });
        out.push(summary(&table, me));
        let told = table.inboxes[me.opponent()]
            .send(Event::Paired(Arc::clone(&table), me.opponent()))
            .await;
        // The other program left meanwhile: the game cannot start.
        if told.is_err() {
            reject(&table, me.opponent()).await;
        }
        self.phase = Phase::Offered(table, me);
    }

    /// Lists this waiting program in the lobby as an unrated seek.
    async fn list(&mut self, program: &Program, game: &GameName, preference: Preference) {
        let identity = identity_of(program);
        let time = game.time_control();
        let class = Some(TimeClass::of_control(&time));
        let by = match SeatPlayer::of(&self.store, &identity, class).await {
            Ok(Some(p)) => players::view(&p),
            Ok(None) => return,
            Err(e) => {
                tracing::error!("CSA: listing a program: {e}");
                return;
            }
        };
        let (offers, inbox) = mpsc::channel(1);
        let req = SeekRequest {
            time: Some(time),
            rated: false,
            side: side_of(preference),
            handicap: Some(game.handicap),
            to: None,
            name: None,
        };
        let door = ProgramDoor {
            name: program.name.clone(),
            offers,
        };
        match self
            .lobby
            .post_program(&req, identity, by, self.peer.ip(), game.text.clone(), door)
        {
            Ok(id) => self.listed = Some((id, inbox)),
            Err(e) => tracing::debug!(program = %program.name, "CSA: not listed in the lobby: {e}"),
        }
    }

    /// Leaves the queue and the lobby's list (paired, left, or met a person).
    fn stop_waiting(&mut self) {
        {
            // Together, as `Hub::offer` changes them.
            let mut waiting = lock(&self.hub.waiting);
            let mut seekers = lock(&self.hub.seekers);
            waiting.withdraw(&self.id);
            seekers.remove(&self.id);
        }
        self.asked = None;
        if let (Some((id, _)), Some(p)) = (self.listed.take(), &self.program) {
            // Gone already when a person took it: nothing to withdraw.
            let _ = self.lobby.withdraw(&id, &identity_of(p), None);
        }
    }

    /// A person accepted this waiting program's seek: the summary names
    /// them, and the person waits for the program's answer.
    fn offered(&mut self, offer: Offer, out: &mut Vec<String>) {
        // Not waiting any more (paired meanwhile): the dropped offer
        // tells the person that the program declined.
        if !matches!(self.phase, Phase::Waiting) {
            return;
        }
        let Some((game, preference)) = self.asked.clone() else {
            return;
        };
        // The lobby took the seek off its list already.
        self.listed = None;
        self.stop_waiting();
        let me = colour_of(preference);
        let person_name = name_of(&offer.acceptor);
        self.sit_with_person(
            game,
            me,
            offer.acceptor,
            person_name,
            Asker::Accepted(offer.reply),
            out,
        );
    }

    /// Takes the person's seek `seek` for `game` (`%%GAME`, `%%CHALLENGE`).
    fn take_seek(
        &mut self,
        seek: Seek,
        game: GameName,
        preference: Preference,
        out: &mut Vec<String>,
    ) {
        let me = match seek.side {
            SideChoice::Sente => Color::Gote,
            SideChoice::Gote => Color::Sente,
            SideChoice::Random => colour_of(preference),
        };
        let person = seek.owner.clone();
        let person_name = if seek.view.by.name.is_empty() {
            name_of(&person)
        } else {
            seek.view.by.name.clone()
        };
        self.sit_with_person(
            game,
            me,
            person,
            person_name,
            Asker::Took(Box::new(seek)),
            out,
        );
    }

    fn sit_with_person(
        &mut self,
        game: GameName,
        me: Color,
        person: Identity,
        person_name: String,
        asker: Asker,
        out: &mut Vec<String>,
    ) {
        let Some(program) = &self.program else {
            return;
        };
        let table = PersonTable {
            id: token::new_game_id(),
            game,
            me,
            person,
            person_name,
            asker,
        };
        let mut names = ByColor::new(program.name.clone(), program.name.clone());
        names[me.opponent()].clone_from(&table.person_name);
        out.push(summary_text(&table.id, &table.game, names, me));
        self.phase = Phase::WithPerson(Box::new(table));
    }

    /// The program did not agree to the game with a person (it rejected or
    /// left): the person is told, or their seek goes back to the lobby.
    fn turn_down(&self, table: PersonTable) {
        match table.asker {
            Asker::Accepted(reply) => {
                let name = self.program.as_ref().map_or("", |p| p.name.as_str());
                let _ = reply.send(Err(Problem::ProgramDeclined { name: name.into() }.into()));
            }
            Asker::Took(seek) => self.lobby.put_back(*seek),
        }
    }

    /// The program agreed to the game with a person: it is stored, the
    /// person learns their seat, and play starts.
    async fn agree_with_person(&mut self, out: &mut Vec<String>) -> Next {
        let Phase::WithPerson(table) = std::mem::replace(&mut self.phase, Phase::Idle) else {
            return Next::Go;
        };
        let Some(program) = self.program.clone() else {
            return Next::Go;
        };
        let PersonTable {
            id,
            game,
            me,
            person,
            person_name,
            asker,
        } = *table;
        if let Asker::Accepted(reply) = &asker {
            // The person stopped waiting for the answer.
            if reply.is_closed() {
                out.push(format!("REJECT:{id} by {person_name}"));
                return Next::Go;
            }
        }
        let mut seats = ByColor::new(identity_of(&program), identity_of(&program));
        seats[me.opponent()] = person;
        let mut tokens: ByColor<Option<String>> = ByColor::default();
        if let Asker::Took(seek) = &asker {
            tokens[me.opponent()] = Some(seek.token.clone());
        }
        let g = ProgramGame {
            id: id.clone(),
            seats,
            time: game.time_control(),
            handicap: game.handicap,
            max_moves: MAX_MOVES,
            tokens,
        };
        let (room, tokens) = match self.rooms.create_program_game(&g).await {
            Ok(created) => created,
            Err(e) => {
                tracing::error!(game = %id, "CSA: storing a game with a person: {e}");
                match asker {
                    Asker::Accepted(reply) => {
                        let _ = reply.send(Err(e));
                    }
                    Asker::Took(seek) => self.lobby.put_back(*seek),
                }
                out.push(format!("REJECT:{id} by server"));
                return Next::Go;
            }
        };
        match asker {
            Asker::Accepted(reply) => {
                let seat = Created {
                    id: id.clone(),
                    token: tokens[me.opponent()].clone(),
                    side: Seat::from(me.opponent()),
                    invite: None,
                };
                if reply.send(Ok(seat)).is_err() {
                    // The person stopped waiting in the last instant.
                    let _ = room.act(Seat::from(me), Action::Abort).await;
                    out.push(format!("REJECT:{id} by {person_name}"));
                    return Next::Go;
                }
            }
            Asker::Took(seek) => self.lobby.accepted(&seek.view.id, &id),
        }
        let mut names = ByColor::new(program.name.clone(), program.name.clone());
        names[me.opponent()] = person_name;
        lock(&self.hub.games).insert(
            id.clone(),
            Live {
                room: room.clone(),
                names,
                game: game.text.clone(),
                start: game.handicap.position(),
            },
        );
        self.start_play(room, id, me, game.handicap.position(), out)
            .await
    }

    /// `START:` and the game's moves so far; play goes on in the room.
    async fn start_play(
        &mut self,
        room: RoomHandle,
        id: String,
        me: Color,
        start: Position,
        out: &mut Vec<String>,
    ) -> Next {
        let Some(sub) = room.subscribe(Some(Seat::from(me))).await else {
            return Next::Go;
        };
        out.push(format!("START:{id}"));
        let mut play = Box::new(Play {
            room,
            id,
            me,
            updates: sub.updates,
            pos: start,
            told: 0,
            turn_started_ms: self.time.now_ms(),
        });
        let over = tell(&mut play, &sub.now, self.time.now_ms(), out);
        if over {
            self.phase = Phase::Idle;
            lock(&self.hub.games).remove(&play.id);
            play.room.leave(Seat::from(me)).await;
            return after_game(&sub.now, me);
        }
        self.phase = Phase::Playing(play);
        Next::Go
    }

    async fn event(&mut self, event: Event, out: &mut Vec<String>) -> Next {
        match event {
            Event::Paired(table, me) => {
                if matches!(self.phase, Phase::Waiting) {
                    self.stop_waiting();
                    out.push(summary(&table, me));
                    self.phase = Phase::Offered(table, me);
                } else {
                    reject(&table, me).await;
                }
            }
            Event::Start(room) => {
                let Phase::Offered(table, me) = std::mem::replace(&mut self.phase, Phase::Idle)
                else {
                    return Next::Go;
                };
                let start = table.game.handicap.position();
                return self
                    .start_play(room, table.id.clone(), me, start, out)
                    .await;
            }
            Event::Rejected(by) => {
                if let Phase::Offered(table, _) = &self.phase {
                    out.push(format!("REJECT:{} by {by}", table.id));
                    self.phase = Phase::Idle;
                }
            }
        }
        Next::Go
    }

    /// Tells the game's new moves and ending; closes the connection of a
    /// program that lost on time once it has been told.
    async fn update(&mut self, update: Option<Arc<StateText>>, out: &mut Vec<String>) -> Next {
        let Phase::Playing(play) = &mut self.phase else {
            return Next::Go;
        };
        let state = match update {
            Some(s) => s,
            // Fell behind, or the room stopped: the state now says all.
            None => match play.room.snapshot().await {
                Some(view) => Arc::new(StateText::new((*view).clone())),
                None => {
                    self.phase = Phase::Idle;
                    return Next::Go;
                }
            },
        };
        if !tell(play, &state, self.time.now_ms(), out) {
            return Next::Go;
        }
        let me = play.me;
        lock(&self.hub.games).remove(&play.id);
        play.room.leave(Seat::from(me)).await;
        self.phase = Phase::Idle;
        after_game(&state, me)
    }

    async fn play(&mut self, mv: CsaMove, comment: Option<String>) {
        let Phase::Playing(play) = &self.phase else {
            return;
        };
        let seat = Seat::from(play.me);
        match mv.to_move(&play.pos) {
            Ok(m) => {
                let played = play.room.play_commented(seat, m, comment).await;
                // A move no one could make on a real board (no piece of the
                // mover's there, a piece not in hand) loses like any illegal
                // one. Not its turn, the game over, or the database failed:
                // the program is not punished; the game goes on as it was.
                if let Err(
                    RoomError::NoPieceOfYours { .. }
                    | RoomError::NotInHand { .. }
                    | RoomError::Illegal(_),
                ) = played
                {
                    let _ = play.room.forfeit(seat).await;
                }
            }
            Err(_) if play.pos.side_to_move() == play.me => {
                let _ = play.room.forfeit(seat).await;
            }
            Err(_) => {}
        }
    }

    async fn act(&mut self, action: Action) {
        if let Phase::Playing(play) = &self.phase {
            if let Err(e) = play.room.act(Seat::from(play.me), action).await {
                tracing::debug!(game = %play.id, "CSA {action:?}: {e}");
            }
        }
    }

    /// The x1 extension: `%%VERSION`, `%%WHO` (the programs logged in),
    /// `%%LIST` (the games in progress), `%%SHOW <game id>` (one's state)
    /// and `%%HELP`; anything else is answered as unknown.
    /// Who is online and what they play is told to programs logged in only.
    async fn extension(&mut self, word: &str, args: &str, out: &mut Vec<String>) {
        if matches!(self.phase, Phase::Login)
            && matches!(
                word,
                "WHO"
                    | "LIST"
                    | "SHOW"
                    | "MONITOR2ON"
                    | "MONITOR2OFF"
                    | "GAME"
                    | "CHALLENGE"
                    | "CHAT"
            )
        {
            out.push(format!("##[ERROR] %%{word} needs a LOGIN first"));
            return;
        }
        match word {
            "WHO" => {
                let mut names: Vec<String> = lock(&self.hub.online)
                    .values()
                    .map(|(_, name)| name.clone())
                    .collect();
                names.sort_unstable();
                out.extend(names.into_iter().map(|n| format!("##[WHO] {n}")));
                out.push("##[WHO] +OK".into());
            }
            "LIST" => {
                for (id, live, view) in self.live_games().await {
                    out.push(format!(
                        "##[LIST] {id} {} {} {} {}",
                        live.names[Color::Sente],
                        live.names[Color::Gote],
                        live.game,
                        view.moves.len()
                    ));
                }
                out.push("##[LIST] +OK".into());
            }
            "SHOW" => self.show(args.trim(), out).await,
            "GAME" => self.game_command(args, false, out).await,
            "CHALLENGE" => self.game_command(args, true, out).await,
            "CHAT" => self.say(args, out),
            "MONITOR2ON" => self.monitor_on(args.trim(), out).await,
            "MONITOR2OFF" => {
                if let Some(m) = self.monitor.take() {
                    out.push(format!("##[MONITOR2][{}] +OK", m.id));
                } else {
                    out.push("##[MONITOR2] +OK".into());
                }
            }
            "HELP" => {
                for line in [
                    "%%VERSION           the server's name and version",
                    "%%WHO               the programs logged in",
                    "%%LIST              the games in progress: id, Sente, Gote, game name, moves",
                    "%%SHOW <game id>    a game in progress: players, position, moves",
                    "%%MONITOR2ON <id>   the position, then each move as it is played",
                    "%%MONITOR2OFF       stop watching",
                    "%%GAME <name> [+-*] take a person's open challenge for this game, or wait for it",
                    "%%CHALLENGE <name> [+-] play someone waiting for this game now, or nobody",
                    "%%CHAT <text>       a line to every program logged in",
                    "%%HELP              this list; see docs/CSA.md",
                ] {
                    out.push(format!("##[HELP] {line}"));
                }
                out.push("##[HELP] +OK".into());
            }
            "VERSION" => {
                out.push(format!(
                    "##[VERSION] shogi-server (Rust) {}",
                    env!("CARGO_PKG_VERSION")
                ));
                out.push("##[VERSION] +OK".into());
            }
            _ => out.push(format!("##[ERROR] unknown command %%{word}")),
        }
    }
}

/// What follows a game's end for the player of `me`: a program that lost
/// on time has stopped answering, as far as the server can tell, and its
/// connection is closed once the result lines are written (as
/// shogi-server does); any other ending leaves it logged in.
fn after_game(state: &StateText, me: Color) -> Next {
    match state.view.ending {
        Some(Ending::Timeout { loser }) if loser == me => Next::Close,
        _ => Next::Go,
    }
}

impl Connection {
    /// `%%GAME <name> [+|-|*]`: a person's open challenge that fits is
    /// taken; otherwise the program waits for `name` as after a `LOGIN`
    /// with it. `%%CHALLENGE <name> [+|-]`: a person's open challenge, or
    /// a program waiting for `name`, now; or `##[ERROR]`.
    async fn game_command(&mut self, args: &str, challenge: bool, out: &mut Vec<String>) {
        let word = if challenge { "CHALLENGE" } else { "GAME" };
        let Some(program) = self.program.clone() else {
            return;
        };
        if !matches!(self.phase, Phase::Idle) {
            out.push(format!("##[ERROR] %%{word}: waiting or playing already"));
            return;
        }
        let mut words = args.split_whitespace();
        let (Some(name), sign) = (words.next(), words.next()) else {
            out.push(format!("##[ERROR] %%{word} needs a game name"));
            return;
        };
        let (game, mut preference) = match GameName::parse_with_preference(name) {
            Ok(g) => g,
            Err(e) => {
                out.push(format!("##[ERROR] %%{word} {}: {e}", head(name)));
                return;
            }
        };
        match sign {
            None | Some("*") => {}
            Some("+") => preference = Preference::Sente,
            Some("-") => preference = Preference::Gote,
            Some(other) => {
                out.push(format!(
                    "##[ERROR] %%{word}: {} is not +, - or *",
                    head(other)
                ));
                return;
            }
        }
        let open =
            self.lobby
                .open_to_program(&game.time_control(), game.handicap, side_of(preference));
        if let Some(seek_id) = open {
            if let Ok(seek) = self.lobby.take(&seek_id, &identity_of(&program), None) {
                self.take_seek(seek, game, preference, out);
                return;
            }
        }
        if !challenge {
            self.seek(program, game, preference, out).await;
            return;
        }
        let seeker = (self.inbox_tx.clone(), program.clone(), game.clone());
        match self.hub.offer(self.id, seeker, preference, true) {
            Offered::Paired(p, other) => self.sit_with_program(&p, program, game, other, out).await,
            Offered::Queued | Offered::Nobody => {
                out.push(format!(
                    "##[ERROR] nobody is waiting for {}",
                    head(&game.text)
                ));
            }
        }
    }

    /// `%%CHAT <text>`: `##[CHAT][<name>] <text>` to every program logged
    /// in, at most a line a second from one connection.
    fn say(&mut self, text: &str, out: &mut Vec<String>) {
        let Some(program) = &self.program else {
            return;
        };
        let now = self.time.now_ms();
        if self
            .chatted_ms
            .is_some_and(|t| now.saturating_sub(t) < CHAT_EVERY_MS)
        {
            out.push("##[ERROR] %%CHAT: at most a line a second".into());
            return;
        }
        let text: String = text.trim().chars().filter(|c| !c.is_control()).collect();
        if text.is_empty() {
            return;
        }
        self.chatted_ms = Some(now);
        let _ = self
            .hub
            .chat
            .send(Arc::from(format!("##[CHAT][{}] {text}", program.name)));
    }

    /// The games in progress, in id order, with their state now; games
    /// found over (or whose room stopped) are dropped from the list.
    async fn live_games(&self) -> Vec<(String, Live, Arc<crate::games::view::GameView>)> {
        let games: Vec<(String, Live)> = lock(&self.hub.games)
            .iter()
            .map(|(id, live)| (id.clone(), live.clone()))
            .collect();
        let mut out = Vec::with_capacity(games.len());
        for (id, live) in games {
            match live.room.snapshot().await {
                Some(view) if view.ending.is_none() => out.push((id, live, view)),
                _ => {
                    lock(&self.hub.games).remove(&id);
                }
            }
        }
        out
    }

    /// `%%SHOW <game id>`: a game in progress as `##[SHOW]` lines: its
    /// players and game name, the position now and the moves played.
    async fn show(&self, id: &str, out: &mut Vec<String>) {
        let live = lock(&self.hub.games).get(id).cloned();
        let view = match &live {
            Some(live) => live.room.snapshot().await,
            None => None,
        };
        let (Some(live), Some(view)) = (live, view) else {
            out.push(format!("##[ERROR] no game in progress {}", head(id)));
            return;
        };
        if view.ending.is_some() {
            lock(&self.hub.games).remove(id);
            out.push(format!("##[ERROR] no game in progress {}", head(id)));
            return;
        }
        out.push(format!("##[SHOW] Game_ID:{id}"));
        out.push(format!("##[SHOW] Name+:{}", live.names[Color::Sente]));
        out.push(format!("##[SHOW] Name-:{}", live.names[Color::Gote]));
        out.push(format!("##[SHOW] Game_Name:{}", live.game));
        let mut pos = live.start;
        let mut moves = Vec::with_capacity(view.moves.len());
        for &m in &view.moves {
            moves.push(format!("##[SHOW] {}", CsaMove::of(&pos, m)));
            pos.make_move(m);
        }
        let mut board = String::new();
        crate::csa::summary::position_lines(&mut board, &pos);
        out.extend(board.lines().map(|l| format!("##[SHOW] {l}")));
        out.push(format!("##[SHOW] Moves:{}", moves.len()));
        out.extend(moves);
        out.push("##[SHOW] +OK".into());
    }
}

impl Connection {
    /// `%%MONITOR2ON <game id>`: the game's position and moves now (as
    /// `%%SHOW` does, in `##[MONITOR2][<id>]` lines), then each move as it
    /// is played and the ending. Watching another game stops the first.
    async fn monitor_on(&mut self, id: &str, out: &mut Vec<String>) {
        let live = lock(&self.hub.games).get(id).cloned();
        let sub = match &live {
            Some(live) => live.room.subscribe(None).await,
            None => None,
        };
        let (Some(live), Some(sub)) = (live, sub) else {
            out.push(format!("##[ERROR] no game in progress {}", head(id)));
            return;
        };
        let tag = format!("##[MONITOR2][{id}]");
        out.push(format!("{tag} Name+:{}", live.names[Color::Sente]));
        out.push(format!("{tag} Name-:{}", live.names[Color::Gote]));
        let mut board = String::new();
        crate::csa::summary::position_lines(&mut board, &live.start);
        out.extend(board.lines().map(|l| format!("{tag} {l}")));
        let mut monitor = Monitor {
            id: id.to_owned(),
            updates: sub.updates,
            pos: live.start,
            told: 0,
        };
        self.monitor = if monitor.tell(&sub.now, out) {
            None
        } else {
            Some(monitor)
        };
    }

    /// A watched game's update, told; the watch ends with the game.
    fn watched(&mut self, update: Option<Arc<StateText>>, out: &mut Vec<String>) {
        let Some(monitor) = self.monitor.as_mut() else {
            return;
        };
        let over = match update {
            Some(state) => monitor.tell(&state, out),
            None => {
                out.push(format!("##[MONITOR2][{}] +OK", monitor.id));
                true
            }
        };
        if over {
            self.monitor = None;
        }
    }
}

/// The next state of the watched game (`None`: its room stopped); a
/// watcher that fell behind reads the newest state, which has every move.
async fn recv_monitor(monitor: &mut Option<Monitor>) -> Option<Arc<StateText>> {
    let Some(m) = monitor else {
        return std::future::pending().await;
    };
    loop {
        match m.updates.recv().await {
            Ok(s) => return Some(s),
            Err(broadcast::error::RecvError::Lagged(_)) => {}
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}

/// At most the first 64 characters of a client's word, for an answer.
fn head(text: &str) -> String {
    text.chars().take(64).collect()
}

/// The next update of the game in play (`None`: fell behind or the room
/// stopped).
async fn recv_update(phase: &mut Phase) -> Option<Arc<StateText>> {
    let Phase::Playing(play) = phase else {
        return std::future::pending().await;
    };
    play.updates.recv().await.ok()
}

/// Writes `texts`, each followed by a line feed (a text of several lines
/// already has its own), within [`WRITE_TIMEOUT`].
async fn write_all(out: &mut (impl AsyncWrite + Unpin), texts: &[String]) -> std::io::Result<()> {
    let write = async {
        for t in texts {
            out.write_all(t.as_bytes()).await?;
            if !t.ends_with('\n') || t.is_empty() {
                out.write_all(b"\n").await?;
            }
        }
        out.flush().await
    };
    tokio::time::timeout(WRITE_TIMEOUT, write)
        .await
        .unwrap_or_else(|_| Err(std::io::ErrorKind::TimedOut.into()))
}

fn summary(table: &Table, me: Color) -> String {
    summary_text(
        &table.id,
        &table.game,
        ByColor::new(
            table.programs[Color::Sente].name.clone(),
            table.programs[Color::Gote].name.clone(),
        ),
        me,
    )
}

/// The `Game_Summary` of game `id` between `names`, for the player of `me`.
fn summary_text(id: &str, game: &GameName, names: ByColor<String>, me: Color) -> String {
    let [sente, gote] = [Color::Sente, Color::Gote].map(|c| names[c].clone());
    Summary {
        game_id: id.to_owned(),
        sente,
        gote,
        game,
        max_moves: MAX_MOVES,
    }
    .text(me)
}

/// A program's account as a seat's occupant.
fn identity_of(p: &Program) -> Identity {
    Identity::Account {
        id: p.id,
        name: p.name.clone(),
    }
}

/// The lobby's seat choice of a colour preference.
fn side_of(preference: Preference) -> SideChoice {
    match preference {
        Preference::Sente => SideChoice::Sente,
        Preference::Gote => SideChoice::Gote,
        Preference::Any => SideChoice::Random,
    }
}

/// The colour of a preference, a coin deciding `Any`.
fn colour_of(preference: Preference) -> Color {
    match preference {
        Preference::Sente => Color::Sente,
        Preference::Gote => Color::Gote,
        Preference::Any if token::coin() => Color::Sente,
        Preference::Any => Color::Gote,
    }
}

/// How a person is named to a program (a guest who typed no name: `guest`).
fn name_of(who: &Identity) -> String {
    match who {
        Identity::Account { name, .. } | Identity::Guest { name: Some(name) } => name.clone(),
        Identity::Guest { name: None } => "guest".into(),
    }
}

/// The next person offered to a listed program (`None`: the lobby let go
/// of the door).
async fn recv_offer(listed: &mut Option<(String, mpsc::Receiver<Offer>)>) -> Option<Offer> {
    match listed {
        Some((_, offers)) => offers.recv().await,
        None => std::future::pending().await,
    }
}

/// The next `%%CHAT` line (`None`: the hub is gone); a connection that
/// fell behind skips the lines it missed.
async fn recv_chat(chat: &mut Option<broadcast::Receiver<Arc<str>>>) -> Option<Arc<str>> {
    let Some(rx) = chat else {
        return std::future::pending().await;
    };
    loop {
        match rx.recv().await {
            Ok(line) => return Some(line),
            Err(broadcast::error::RecvError::Lagged(_)) => {}
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}

/// `me` agrees; when both have, the game is stored and both start.
async fn agree(table: &Arc<Table>, me: Color, rooms: &Rooms, hub: &Hub) {
    let mut agreed = table.agreed.lock().await;
    let Some(a) = agreed.as_mut() else {
        return;
    };
    a[me] = true;
    if !(a[Color::Sente] && a[Color::Gote]) {
        return;
    }
    *agreed = None;
    let identity = |c: Color| Identity::Account {
        id: table.programs[c].id,
        name: table.programs[c].name.clone(),
    };
    let game = ProgramGame {
        id: table.id.clone(),
        seats: ByColor::new(identity(Color::Sente), identity(Color::Gote)),
        time: table.game.time_control(),
        handicap: table.game.handicap,
        max_moves: MAX_MOVES,
        tokens: ByColor::default(),
    };
    match rooms.create_program_game(&game).await {
        Ok((room, _)) => {
            lock(&hub.games).insert(
                table.id.clone(),
                Live {
                    room: room.clone(),
                    names: ByColor::new(
                        table.programs[Color::Sente].name.clone(),
                        table.programs[Color::Gote].name.clone(),
                    ),
                    game: table.game.text.clone(),
                    start: table.game.handicap.position(),
                },
            );
            for c in [Color::Sente, Color::Gote] {
                let _ = table.inboxes[c].send(Event::Start(room.clone())).await;
            }
        }
        Err(e) => {
            tracing::error!(game = %table.id, "CSA: storing the game: {e}");
            for c in [Color::Sente, Color::Gote] {
                let _ = table.inboxes[c]
                    .send(Event::Rejected("server".into()))
                    .await;
            }
        }
    }
}

/// `me` rejects (or left): both are told, the table closes.
async fn reject(table: &Arc<Table>, me: Color) {
    let mut agreed = table.agreed.lock().await;
    if agreed.take().is_none() {
        return;
    }
    drop(agreed);
    let by = table.programs[me].name.clone();
    for c in [Color::Sente, Color::Gote] {
        let _ = table.inboxes[c].send(Event::Rejected(by.clone())).await;
    }
}

/// How many of the game's moves a CSA client is told: all but an illegal
/// move that lost (`#ILLEGAL_MOVE` says it; it is never echoed).
fn moves_shown(view: &crate::games::view::GameView) -> usize {
    match view.ending {
        Some(Ending::Foul {
            foul: Foul::Move { .. },
            ..
        }) => view.moves.len().saturating_sub(1),
        _ => view.moves.len(),
    }
}

/// Tells the moves of `state` not told yet and, once, its ending; whether
/// the game is over.
fn tell(play: &mut Play, state: &StateText, now_ms: u64, out: &mut Vec<String>) -> bool {
    let view = &state.view;
    let shown = moves_shown(view);
    while play.told < shown {
        let m = view.moves[play.told];
        let last = play.told + 1 == view.moves.len();
        let secs = if last {
            view.last_move_ms.unwrap_or(0) / 1000
        } else {
            0
        };
        out.push(format!("{},T{secs}", CsaMove::of(&play.pos, m)));
        play.pos.make_move(m);
        play.told += 1;
        play.turn_started_ms = now_ms;
    }
    let Some(ending) = view.ending else {
        return false;
    };
    match ending {
        Ending::Resignation { .. } => {
            let secs = now_ms.saturating_sub(play.turn_started_ms) / 1000;
            out.push(format!("%TORYO,T{secs}"));
        }
        Ending::Impasse { .. }
        | Ending::Foul {
            foul: Foul::FalseDeclaration,
            ..
        } => out.push("%KACHI".into()),
        _ => {}
    }
    out.extend(result::lines(ending, play.me).into_iter().map(String::from));
    true
}
