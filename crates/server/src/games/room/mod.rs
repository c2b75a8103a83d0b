//! One live game: a task that owns the game, its seats and clocks, fed by a
//! channel of commands, and a broadcast of the state after every change.
//!
//! Every change is written to the database before it is answered or broadcast; a
//! change the database refuses leaves the game as it was. Moves and endings
//! go through the [`Committer`], which stores those of many games arriving
//! together in one transaction. The room ends the
//! game on time by itself: it sleeps until the running side's flag would fall.
//!
//! The room's task here only dispatches; each verb lives in its own file,
//! its rules as functions over plain values where they can be:
//! `moves` (a move and the clock), `takeback`, `impasse` (the declaration
//! and the count), `finish` (abort, resignation and every ending), `seats`
//! (tokens, joining and presence), `chat` (numbered messages a moderator
//! may hide), `computer` (the computer's turn)
//! and `view` (the state sent to clients); `error` says why a room refuses.

mod chat;
mod computer;
mod error;
mod finish;
mod impasse;
mod moves;
mod seats;
mod takeback;
mod view;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use serde::Deserialize;
use shogi_core::{ByColor, Color, Ending, Game, GameRules, ImpasseRule, Move, Position};
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::activity::ActivityGate;
use crate::db::players::GamePlayers;
use crate::db::{Fence, GameWrite, Store};
use crate::error::Error;
use crate::game::clock::Clock;
use crate::game::{reason_word, IllegalPolicy, Mode, Seat, Settings};
use crate::games::committer::Committer;
use crate::games::connections::Connections;
use crate::games::opponent::Opponent;
use crate::games::players::{Identity, SeatPlayer};
use crate::games::view::{ComputerView, GameView, Joined, NoteView, RatingChangesView, StateText};
use crate::limits::bucket::TokenBucket;
use crate::lobby::Lobby;
use crate::search_pool::SearchPool;
use crate::time::TimeSource;

pub use error::{ErrorDetail, RoomError};

/// How many state updates a slow connection may fall behind before it skips some.
const BROADCAST_BUFFER: usize = 16;
/// How many commands may wait for a room.
const COMMAND_BUFFER: usize = 64;
/// The longest chat message, in characters.
pub const MAX_CHAT_CHARS: usize = 200;
/// Chat messages a game keeps (and sends to a player who connects).
pub const CHAT_HISTORY: usize = 50;
/// Chat messages a player may send at once; one more each second.
pub const CHAT_BURST: u32 = 3;

/// Something a seated player does: the game's verbs, listed once. The
/// WebSocket reads a player's message straight into it (docs/PROTOCOL.md,
/// "Client → server": `{"type": "move", "usi": "7g7f"}`, `{"type":
/// "resign"}`, ...), so a verb added here is a message of the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play a move.
    Move {
        /// The move (USI in JSON).
        #[serde(rename = "usi", with = "crate::game::text::as_text")]
        mv: Move,
    },
    /// Resign.
    Resign,
    /// Declare (27 / 24 rules).
    Declare,
    /// Propose the count (count24).
    ProposeCount,
    /// Accept the proposed count.
    AcceptCount,
    /// Decline it.
    DeclineCount,
    /// End the game without a result (before each side has moved).
    Abort,
    /// Propose taking back moves to the proposer's last turn.
    Takeback,
    /// Accept the proposed takeback.
    AcceptTakeback,
    /// Decline it.
    DeclineTakeback,
}

/// A player's answer to the opponent's proposal (a count, a takeback).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    /// Yes.
    Accept,
    /// No.
    Decline,
}

/// What a connection receives: the state updates, the state now, and for
/// a seated player the chat (updates and history).
#[derive(Debug)]
pub struct Subscription {
    /// Every state after a change, serialised once for every connection.
    pub updates: broadcast::Receiver<Arc<StateText>>,
    /// The state now.
    pub now: Arc<StateText>,
    /// The chat, for seated players only.
    pub chat: Option<ChatFeed>,
}

/// A seated player's chat: the messages from now on and the last ones, as JSON text.
#[derive(Debug)]
pub struct ChatFeed {
    /// New messages.
    pub updates: broadcast::Receiver<Arc<str>>,
    /// The last [`CHAT_HISTORY`] messages, oldest first.
    pub history: Vec<Arc<str>>,
}

/// A request to a room.
#[derive(Debug)]
enum Command {
    Act {
        seat: Seat,
        action: Action,
        /// A comment kept with a move (ignored by other actions).
        comment: Option<String>,
        reply: oneshot::Sender<Result<(), RoomError>>,
    },
    Forfeit {
        seat: Seat,
        reply: oneshot::Sender<Result<(), RoomError>>,
    },
    Suspend {
        reply: oneshot::Sender<Result<(), RoomError>>,
    },
    Authorize {
        token: String,
        reply: oneshot::Sender<Option<Seat>>,
    },
    Join {
        invite: String,
        who: Identity,
        reply: oneshot::Sender<Result<Joined, Error>>,
    },
    AuthorizeUser {
        user: i64,
        reply: oneshot::Sender<Option<Seat>>,
    },
    SeatUsers {
        reply: oneshot::Sender<ByColor<Option<i64>>>,
    },
    Subscribe {
        seat: Option<Seat>,
        reply: oneshot::Sender<Subscription>,
    },
    Leave {
        seat: Seat,
    },
    Chat {
        seat: Seat,
        text: String,
        reply: oneshot::Sender<Result<(), RoomError>>,
    },
    ChatMessage {
        n: u32,
        reply: oneshot::Sender<Option<(String, String)>>,
    },
    HideChat {
        n: u32,
        reply: oneshot::Sender<bool>,
    },
    Snapshot {
        reply: oneshot::Sender<Arc<GameView>>,
    },
    Shutdown {
        reply: oneshot::Sender<()>,
    },
    Computer {
        ply: usize,
        mv: Option<Move>,
    },
    /// The computer's queued search got a thread.
    ComputerStarted {
        ply: usize,
    },
}

/// A handle on a room (cheap to clone).
#[derive(Clone, Debug)]
pub struct RoomHandle {
    tx: mpsc::Sender<Command>,
    connections: Arc<Connections>,
}

impl RoomHandle {
    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Command) -> Option<T> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(make(reply)).await.ok()?;
        rx.await.ok()
    }

    /// Does `action` for `seat`.
    ///
    /// # Errors
    /// Why the action was refused; the game is then unchanged.
    pub async fn act(&self, seat: Seat, action: Action) -> Result<(), RoomError> {
        self.ask(|reply| Command::Act {
            seat,
            action,
            comment: None,
            reply,
        })
        .await
        .unwrap_or(Err(RoomError::Gone))
    }

    /// Plays `mv` for `seat` with `comment` kept beside it in the stored
    /// game (a CSA program's `'*` evaluation, already bounded and clean).
    ///
    /// # Errors
    /// Why the move was refused; the game is then unchanged.
    pub async fn play_commented(
        &self,
        seat: Seat,
        mv: Move,
        comment: Option<String>,
    ) -> Result<(), RoomError> {
        self.ask(|reply| Command::Act {
            seat,
            action: Action::Move { mv },
            comment,
            reply,
        })
        .await
        .unwrap_or(Err(RoomError::Gone))
    }

    /// `seat`, to move, loses by a foul no move on the board can show: a
    /// move it sent that cannot be read in the position (the CSA edge's
    /// `#ILLEGAL_MOVE` for a program's unreadable move).
    ///
    /// # Errors
    /// Why it was refused (the game is over, not `seat`'s turn).
    pub async fn forfeit(&self, seat: Seat) -> Result<(), RoomError> {
        self.ask(|reply| Command::Forfeit { seat, reply })
            .await
            .unwrap_or(Err(RoomError::Gone))
    }

    /// Stops the game without a result, at any move, for one of its
    /// players (a CSA program's `%CHUDAN`; the caller checks who asks):
    /// stored as aborted, unrated.
    ///
    /// # Errors
    /// Why it was refused (the game is over or not yet under way).
    pub async fn suspend(&self) -> Result<(), RoomError> {
        self.ask(|reply| Command::Suspend { reply })
            .await
            .unwrap_or(Err(RoomError::Gone))
    }

    /// The seat `token` holds in this game, if any.
    pub async fn authorize(&self, token: String) -> Option<Seat> {
        self.ask(|reply| Command::Authorize { token, reply })
            .await
            .flatten()
    }

    /// The seat account `user` holds in this game, if any.
    pub async fn authorize_user(&self, user: i64) -> Option<Seat> {
        self.ask(|reply| Command::AuthorizeUser { user, reply })
            .await
            .flatten()
    }

    /// The accounts at the seats (`None`: a guest, the computer, free).
    pub async fn seat_users(&self) -> ByColor<Option<i64>> {
        self.ask(|reply| Command::SeatUsers { reply })
            .await
            .unwrap_or_default()
    }

    /// Takes the free seat with `invite`, as `who`.
    ///
    /// # Errors
    /// A wrong code, no free seat, or the database refused it.
    pub async fn join(&self, invite: String, who: Identity) -> Result<Joined, Error> {
        self.ask(|reply| Command::Join { invite, who, reply })
            .await
            .unwrap_or(Err(Error::NotFound))
    }

    /// The updates from now on and the state now, for a connection of
    /// `seat` (`None`: a spectator). A seated connection counts as
    /// connected until [`RoomHandle::leave`].
    pub async fn subscribe(&self, seat: Option<Seat>) -> Option<Subscription> {
        self.ask(|reply| Command::Subscribe { seat, reply }).await
    }

    /// A seated connection of `seat` closed.
    pub async fn leave(&self, seat: Seat) {
        let _ = self.tx.send(Command::Leave { seat }).await;
    }

    /// Sends a chat message from `seat` to both players.
    ///
    /// # Errors
    /// Why it was refused.
    pub async fn chat(&self, seat: Seat, text: String) -> Result<(), RoomError> {
        self.ask(|reply| Command::Chat { seat, text, reply })
            .await
            .unwrap_or(Err(RoomError::Gone))
    }

    /// Chat message `n`'s writer and text, if the room keeps it.
    pub async fn chat_message(&self, n: u32) -> Option<(String, String)> {
        self.ask(|reply| Command::ChatMessage { n, reply })
            .await
            .flatten()
    }

    /// Hides chat message `n` (a moderator's action); whether the room kept it.
    pub async fn hide_chat(&self, n: u32) -> bool {
        self.ask(|reply| Command::HideChat { n, reply })
            .await
            .unwrap_or(false)
    }

    /// The state now.
    pub async fn snapshot(&self) -> Option<Arc<GameView>> {
        self.ask(|reply| Command::Snapshot { reply }).await
    }

    /// The room's open WebSocket connections.
    #[must_use]
    pub fn connections(&self) -> &Arc<Connections> {
        &self.connections
    }

    /// Whether the room's task has stopped (shut down, or the game was
    /// taken over by another instance).
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.tx.is_closed()
    }

    /// Saves the time used on the turn in progress and stops the room.
    pub async fn shutdown(&self) {
        self.ask(|reply| Command::Shutdown { reply }).await;
    }
}

/// What a room starts from: a new game, or one restored from the database.
#[derive(Debug)]
pub struct RoomInit {
    /// The game id.
    pub id: String,
    /// The mode.
    pub mode: Mode,
    /// The settings.
    pub settings: Settings,
    /// The start position.
    pub start: Position,
    /// The moves played so far.
    pub moves: Vec<Move>,
    /// The comment kept with each move so far (a CSA program's `'*`
    /// evaluation; empty for a new game), the programs' notes read again.
    pub comments: Vec<Option<String>>,
    /// The seats' tokens.
    pub tokens: ByColor<Option<String>>,
    /// The unused invite code.
    pub invite: Option<String>,
    /// The clocks, if the game has any.
    pub clocks: Option<ByColor<Clock>>,
    /// Whether the clock runs (both seats taken).
    pub clock_started: bool,
    /// Time already used on the current turn (restored games).
    pub turn_used_ms: u64,
    /// The ending, if the game is over.
    pub ending: Option<Ending>,
    /// Who sits where (`None`: an unnamed guest, a free seat, the
    /// computer), and whether the game is rated.
    pub players: GamePlayers,
    /// With several instances: the lease this instance holds the game by,
    /// which fences every write of the room.
    pub fence: Option<Fence>,
    /// The rating changes of a rated game that ended (read back from the
    /// ratings' history when a finished game's room opens).
    pub rating_change: Option<RatingChangesView>,
}

/// What every room shares.
#[derive(Clone)]
pub struct RoomDeps {
    /// The database.
    pub store: Store,
    /// Where moves and endings are stored, several games' in one transaction.
    pub committer: Committer,
    /// The clock.
    pub time: TimeSource,
    /// The computer player.
    pub opponent: Arc<dyn Opponent>,
    /// Touched by every move, so that background analysis waits.
    pub activity: ActivityGate,
    /// Told when games between people start, move and end.
    pub lobby: Lobby,
    /// The search threads the computer's moves wait for.
    pub search: SearchPool,
    /// Told of every game that ends (the tournaments replay a sennichite).
    pub ended: GameEndedSender,
    /// The crash tests' hook (never set otherwise).
    pub crash: CrashAfterEnding,
}

/// A game that ended: its id, the ending and the clocks as they stood.
#[derive(Clone, Debug)]
pub struct GameEnd {
    /// The game.
    pub id: String,
    /// How it ended.
    pub ending: Ending,
    /// Both clocks at the end, if the game had any.
    pub clocks: Option<ByColor<Clock>>,
    /// Whether each player opened the game (a seated connection) or moved
    /// in it while its room ran here; both `true` when not known (an
    /// ending read back from the database).
    pub opened: ByColor<bool>,
}

/// Where rooms report their endings; unset in rooms nobody listens to.
#[derive(Clone, Debug, Default)]
pub struct GameEndedSender(Option<mpsc::UnboundedSender<GameEnd>>);

impl GameEndedSender {
    /// A sender and the receiver its reports reach.
    #[must_use]
    pub fn channel() -> (GameEndedSender, mpsc::UnboundedReceiver<GameEnd>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (GameEndedSender(Some(tx)), rx)
    }

    /// Reports an ending (a receiver that has gone is no one's concern).
    pub fn send(&self, e: GameEnd) {
        if let Some(tx) = &self.0 {
            let _ = tx.send(e);
        }
    }
}

/// The crash tests' hook: the process aborts right after the `n`th ending
/// the rooms store, before anything else follows from it (`shogi serve
/// --crash-after-ending N`, a hidden option for
/// `crates/cli/tests/crash_endings.rs`). Unset by default: nothing happens.
#[derive(Clone, Debug, Default)]
pub struct CrashAfterEnding(Option<Arc<AtomicU32>>);

impl CrashAfterEnding {
    /// Abort after the `n`th ending stored (0: never).
    #[must_use]
    pub fn after(n: u32) -> CrashAfterEnding {
        CrashAfterEnding((n > 0).then(|| Arc::new(AtomicU32::new(n))))
    }

    /// An ending is stored: counts it, and aborts the process at the `n`th.
    fn ending_stored(&self) {
        if let Some(left) = &self.0 {
            if left.fetch_sub(1, Ordering::SeqCst) == 1 {
                eprintln!("shogi: crashing after an ending, as --crash-after-ending asked");
                std::process::abort();
            }
        }
    }
}

#[expect(
    clippy::struct_excessive_bools,
    reason = "a game's independent facts (rated, local, started...), each kept as it was stored"
)]
struct Room {
    id: String,
    mode: Mode,
    settings: Settings,
    start_sfen: String,
    game: Game,
    usi_moves: Vec<Move>,
    /// The programs' notes on their moves, by ply (only moves with one).
    notes: Vec<Arc<NoteView>>,
    tokens: ByColor<Option<String>>,
    invite: Option<String>,
    clocks: Option<ByColor<Clock>>,
    clock_started: bool,
    /// When the current turn started (or the room started, for a restored turn).
    turn_start_ms: u64,
    /// Time used on the current turn before `turn_start_ms` (a restored turn).
    turn_base_ms: u64,
    ending: Option<Ending>,
    /// The time the last move took, if it was played while the room ran.
    last_move_ms: Option<u64>,
    count_proposed_by: Option<Color>,
    takeback_by: Option<Color>,
    thinking: bool,
    players: ByColor<Option<SeatPlayer>>,
    rated: bool,
    /// What the game's ending did to the players' ratings.
    rating_change: Option<RatingChangesView>,
    connected: ByColor<u32>,
    /// Whether each seat has had a connection since the room started.
    opened: ByColor<bool>,
    chat: VecDeque<chat::ChatLine>,
    /// Chat messages sent in this room so far (the last one's number).
    chat_count: u32,
    chat_updates: broadcast::Sender<Arc<str>>,
    /// Each player's chat: [`CHAT_BURST`] messages at once, one more a second.
    chat_allowance: ByColor<TokenBucket>,
    /// The computer's search, shown while it is to move.
    computer: Option<ComputerView>,
    deps: RoomDeps,
    /// The lease the room's writes are fenced by (several instances).
    fence: Option<Fence>,
    /// Another instance took the game over: the room stops.
    lost: bool,
    updates: broadcast::Sender<Arc<StateText>>,
    tx: mpsc::Sender<Command>,
}

/// Starts the task of a room.
#[must_use]
pub fn spawn(init: RoomInit, deps: RoomDeps) -> RoomHandle {
    let impasse_rule = init.settings.rules.impasse;
    // The core judges declarations and counts as soon as they are possible;
    // here they wait for the players, so only the try rule is left to it.
    let rules = GameRules {
        impasse: if impasse_rule == ImpasseRule::Try {
            ImpasseRule::Try
        } else {
            ImpasseRule::None
        },
        handicap_credit: false,
        max_moves: init.settings.rules.max_moves,
        illegal_move_loses: init.settings.rules.illegal == IllegalPolicy::Lose,
    };
    let start_sfen = init.start.to_sfen();
    let mut game = Game::with_rules(init.start, rules);
    let mut notes = Vec::new();
    for (i, &m) in init.moves.iter().enumerate() {
        if let Some(Some(comment)) = init.comments.get(i) {
            let ply = u32::try_from(i + 1).unwrap_or(u32::MAX);
            notes.extend(NoteView::read(ply, comment, game.position(), m).map(Arc::new));
        }
        // An illegal move is stored only when it lost the game; replaying it records that again.
        let _ = game.play(m);
    }
    let (tx, rx) = mpsc::channel(COMMAND_BUFFER);
    let (updates, _) = broadcast::channel(BROADCAST_BUFFER);
    let (chat_updates, _) = broadcast::channel(BROADCAST_BUFFER);
    let connections = Connections::new(deps.time.clone());
    let room = Room {
        id: init.id,
        mode: init.mode,
        settings: init.settings,
        start_sfen,
        game,
        usi_moves: init.moves,
        notes,
        tokens: init.tokens,
        invite: init.invite,
        clocks: init.clocks,
        clock_started: init.clock_started,
        turn_start_ms: deps.time.now_ms(),
        turn_base_ms: init.turn_used_ms,
        ending: init.ending,
        last_move_ms: None,
        count_proposed_by: None,
        takeback_by: None,
        thinking: false,
        players: init.players.seats,
        rated: init.players.rated,
        rating_change: init.rating_change,
        connected: ByColor::default(),
        opened: ByColor::default(),
        chat: VecDeque::new(),
        chat_count: 0,
        chat_updates,
        chat_allowance: ByColor::new(
            TokenBucket::new(1.0, CHAT_BURST),
            TokenBucket::new(1.0, CHAT_BURST),
        ),
        computer: None,
        deps,
        fence: init.fence,
        lost: false,
        updates,
        tx: tx.clone(),
    };
    tokio::spawn(room.run(rx));
    RoomHandle { tx, connections }
}

impl Room {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        self.announce_if_live();
        self.maybe_start_computer();
        loop {
            let deadline = self.flag_deadline();
            let time = self.deps.time.clone();
            let flag = async move {
                match deadline {
                    Some(at) => time.sleep_until_ms(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                cmd = rx.recv() => {
                    let Some(cmd) = cmd else { break };
                    if !self.handle(cmd).await {
                        break;
                    }
                }
                () = flag => {
                    let now = self.deps.time.now_ms();
                    self.flag_if_out_of_time(now).await;
                }
            }
            if self.lost {
                tracing::warn!(game = %self.id, "another instance took the game over; its room here stops");
                break;
            }
        }
    }

    /// Handles one command; `false` stops the room.
    async fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Act {
                seat,
                action,
                comment,
                reply,
            } => {
                let r = self.act(seat, action, comment).await;
                let _ = reply.send(r);
            }
            Command::Forfeit { seat, reply } => {
                let r = self.forfeit(seat).await;
                let _ = reply.send(r);
            }
            Command::Suspend { reply } => {
                let r = self.suspend().await;
                let _ = reply.send(r);
            }
            Command::Authorize { token, reply } => {
                let _ = reply.send(self.seat_of(&token));
            }
            Command::Join { invite, who, reply } => {
                let r = self.join(&invite, &who).await;
                let _ = reply.send(r);
            }
            Command::AuthorizeUser { user, reply } => {
                let _ = reply.send(self.seat_of_user(user));
            }
            Command::SeatUsers { reply } => {
                let user = |c: Color| self.players[c].as_ref().and_then(|p| p.user);
                let _ = reply.send(ByColor::new(user(Color::Sente), user(Color::Gote)));
            }
            Command::Subscribe { seat, reply } => {
                let _ = reply.send(self.subscribe(seat));
            }
            Command::Leave { seat } => self.connect(seat, false),
            Command::Chat { seat, text, reply } => {
                let _ = reply.send(self.chat(seat, &text));
            }
            Command::ChatMessage { n, reply } => {
                let _ = reply.send(self.chat_message(n));
            }
            Command::HideChat { n, reply } => {
                let _ = reply.send(self.hide_chat(n));
            }
            Command::Snapshot { reply } => {
                let _ = reply.send(Arc::new(self.view()));
            }
            Command::Shutdown { reply } => {
                self.save_turn_used().await;
                let _ = reply.send(());
                return false;
            }
            Command::Computer { ply, mv } => self.computer_moved(ply, mv).await,
            Command::ComputerStarted { ply } => self.computer_started(ply),
        }
        true
    }

    /// Does `action` for `seat` once the game is on (not over, in time,
    /// both seats taken): each verb's own file decides.
    async fn act(
        &mut self,
        seat: Seat,
        action: Action,
        comment: Option<String>,
    ) -> Result<(), RoomError> {
        self.deps.activity.touch();
        let now = self.deps.time.now_ms();
        self.ensure_on(now).await?;
        // The side a seat acts for: its own, or the side to move for a local game's token.
        let acting = match seat {
            Seat::Both => self.game.position().side_to_move(),
            Seat::Sente => Color::Sente,
            Seat::Gote => Color::Gote,
        };
        match action {
            Action::Move { mv } => self.play(acting, mv, now, comment).await,
            Action::Resign => self.resign(acting).await,
            Action::Declare => self.declare(acting).await,
            Action::ProposeCount => self.propose_count(acting).await,
            Action::AcceptCount => self.answer_count(seat, acting, Answer::Accept).await,
            Action::DeclineCount => self.answer_count(seat, acting, Answer::Decline).await,
            Action::Abort => self.abort().await,
            Action::Takeback => self.propose_takeback(seat, acting, now).await,
            Action::AcceptTakeback => self.answer_takeback(acting, Answer::Accept, now).await,
            Action::DeclineTakeback => self.answer_takeback(acting, Answer::Decline, now).await,
        }
    }

    /// Whether the game is on at `now`: not over, no flag fallen (a fallen
    /// one ends it here), both seats taken.
    pub(super) async fn ensure_on(&mut self, now: u64) -> Result<(), RoomError> {
        if let Some(ending) = self.ending {
            return Err(RoomError::Over(reason_word(ending)));
        }
        if self.flag_if_out_of_time(now).await {
            return Err(RoomError::Over("timeout"));
        }
        if !self.seats_full() {
            return Err(RoomError::WaitingForOpponent);
        }
        Ok(())
    }

    /// How many moves have been played.
    pub(super) fn plies(&self) -> u32 {
        u32::try_from(self.usi_moves.len()).unwrap_or(u32::MAX)
    }

    /// Stores `write` through the committer, fenced by the room's lease; a
    /// refused fenced write whose lease has changed hands marks the room lost.
    pub(super) async fn store(&mut self, write: GameWrite) -> Result<(), sqlx::Error> {
        let result = self
            .deps
            .committer
            .write(&self.id, self.fence.as_ref(), write)
            .await;
        if result.is_err() {
            self.check_lease().await;
        }
        result
    }

    /// After a refused write: marks the room lost if its lease has changed
    /// hands (a fenced write of an instance that lost the lease is refused).
    pub(super) async fn check_lease(&mut self) {
        if let Some(fence) = &self.fence {
            let holds = self
                .deps
                .store
                .holds_lease(&self.id, &fence.instance_id, fence.epoch)
                .await;
            // Only a definite "no" stops the room; a database that cannot
            // answer is the same failure the write met.
            self.lost = matches!(holds, Ok(false));
        }
    }
}
