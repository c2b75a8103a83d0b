//! One live game: a task that owns the game, its seats and clocks, fed by a
//! channel of commands, and a broadcast of the state after every change.
//!
//! Every change is written to the database before it is answered or broadcast; a
//! change the database refuses leaves the game as it was. Moves and endings
//! go through the [`Committer`], which stores those of many games arriving
//! together in one transaction. The room ends the
//! game on time by itself: it sleeps until the running side's flag would fall.

use std::collections::VecDeque;
use std::sync::Arc;

use shogi_core::impasse::{self, declaration, total_points};
use shogi_core::{
    ByColor, Color, Ending, Foul, Game, GameRules, HandKind, IllegalMove, ImpasseRule,
    ImpasseVerdict, Move, PlayError, Position, Square,
};
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::activity::ActivityGate;
use crate::bucket::TokenBucket;
use crate::clock::Clock;
use crate::committer::Committer;
use crate::connections::Connections;
use crate::db::players::GamePlayers;
use crate::db::{Fence, GameWrite, MoveRecord, Store};
use crate::error::{Error, Problem};
use crate::legal::LegalMoves;
use crate::lobby::{LiveGame, LivePlayers, Lobby, Terms};
use crate::opponent::{Limits, Opponent};
use crate::players::{self, Identity, SeatPlayer};
use crate::protocol::{
    reason_word, AiSeat, Change, ClockView, ClocksView, ComputerView, ConnectedView, ErrorDetail,
    GameView, IllegalPolicy, ImpasseView, Joined, Mode, PlayerView, PlayersView, Refusal, Seat,
    SeatsView, Settings, Side, StateText, StatusView, TakebackView,
};
use crate::ratings::TimeClass;
use crate::search_pool::SearchPool;
use crate::time::{unix_ms, TimeSource};
use crate::token;

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

/// Something a seated player does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play a move.
    Move(Move),
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

/// Why a room refused an action; the game is then unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RoomError {
    /// The game has ended (the protocol's word for why).
    #[error("the game is over ({0})")]
    Over(&'static str),
    /// A seat is still free.
    #[error("waiting for the opponent to join")]
    WaitingForOpponent,
    /// A move by the side not to move.
    #[error("it is not your turn")]
    NotYourTurn,
    /// A declaration by the side not to move.
    #[error("only the player to move may declare")]
    NotYourDeclaration,
    /// A declaration under a rule without one.
    #[error("there is no declaration under the {0} rule")]
    NoDeclaration(ImpasseRule),
    /// A count proposed under a rule without one.
    #[error("there is no count under the {0} rule")]
    NoCount(ImpasseRule),
    /// A count proposed before both kings entered.
    #[error("the count needs both kings in the enemy camps")]
    CountNotPossible,
    /// A second proposal.
    #[error("a count has already been proposed")]
    CountAlreadyProposed,
    /// An answer to no proposal.
    #[error("no count has been proposed")]
    NoCountProposed,
    /// The proposer answering its own proposal.
    #[error("the other player answers a proposal")]
    OwnProposal,
    /// A board move from a square without a piece of the mover's.
    #[error("{mv}: no piece of yours on {from}")]
    NoPieceOfYours {
        /// The move.
        mv: Move,
        /// Its origin.
        from: Square,
    },
    /// A drop of a piece not in hand.
    #[error("{mv}: no {} in hand", .kind.piece_kind().sfen())]
    NotInHand {
        /// The move.
        mv: Move,
        /// The piece.
        kind: HandKind,
    },
    /// An illegal move under the `prevent` policy, with the rule it breaks.
    #[error(transparent)]
    Illegal(PlayError),
    /// The database refused the move.
    #[error("the move could not be stored; try again")]
    MoveNotStored,
    /// The database refused the ending.
    #[error("the game could not be stored; try again")]
    EndingNotStored,
    /// An abort after both sides have moved.
    #[error("a game can be aborted only before each side has made a move")]
    TooLateToAbort,
    /// A takeback in a rated game.
    #[error("there are no takebacks in rated games")]
    RatedTakeback,
    /// A takeback with no move of the proposer's to take back.
    #[error("there is no move of yours to take back")]
    NothingToTakeBack,
    /// A second takeback proposal.
    #[error("a takeback has already been proposed")]
    TakebackAlreadyProposed,
    /// An answer to no takeback proposal.
    #[error("no takeback has been proposed")]
    NoTakebackProposed,
    /// Chat from a seat that is not one player's.
    #[error("chat is between the two players")]
    NoChat,
    /// An empty or too long chat message.
    #[error("a chat message has 1 to {MAX_CHAT_CHARS} characters")]
    ChatLength,
    /// Chat faster than allowed.
    #[error("too many chat messages; wait a moment")]
    ChatTooFast,
    /// The room has stopped.
    #[error("the game is not available")]
    Gone,
}

impl RoomError {
    /// Why, as the `error` message's code and parameters: for a move the
    /// rules refuse the move, its rule and square.
    #[must_use]
    pub fn detail(&self) -> ErrorDetail {
        if let Some(r) = self.refusal() {
            return ErrorDetail::Move(r);
        }
        let mut params = serde_json::Map::new();
        let code = match *self {
            RoomError::Over(reason) => {
                params.insert("reason".into(), reason.into());
                "game_over"
            }
            RoomError::WaitingForOpponent => "waiting_for_opponent",
            RoomError::NotYourTurn => "not_your_turn",
            RoomError::NotYourDeclaration => "not_your_declaration",
            RoomError::NoDeclaration(rule) | RoomError::NoCount(rule) => {
                params.insert("rule".into(), rule.to_string().into());
                if matches!(self, RoomError::NoCount(_)) {
                    "no_count"
                } else {
                    "no_declaration"
                }
            }
            RoomError::CountNotPossible => "count_not_possible",
            RoomError::CountAlreadyProposed => "count_already_proposed",
            RoomError::NoCountProposed => "no_count_proposed",
            RoomError::OwnProposal => "own_proposal",
            // Refused moves carry their rule (above).
            RoomError::NoPieceOfYours { .. }
            | RoomError::NotInHand { .. }
            | RoomError::Illegal(_) => "illegal_move",
            RoomError::MoveNotStored | RoomError::EndingNotStored => "not_stored",
            RoomError::TooLateToAbort => "too_late_to_abort",
            RoomError::RatedTakeback => "rated_takeback",
            RoomError::NothingToTakeBack => "nothing_to_take_back",
            RoomError::TakebackAlreadyProposed => "takeback_already_proposed",
            RoomError::NoTakebackProposed => "no_takeback_proposed",
            RoomError::NoChat => "no_chat",
            RoomError::ChatLength => {
                params.insert("max".into(), MAX_CHAT_CHARS.into());
                "chat_length"
            }
            RoomError::ChatTooFast => "chat_too_fast",
            RoomError::Gone => "game_gone",
        };
        ErrorDetail::Other { code, params }
    }

    /// For a refused move, its rule and square.
    #[must_use]
    pub fn refusal(&self) -> Option<Refusal> {
        match *self {
            RoomError::NoPieceOfYours { mv, from } => {
                Some(Refusal::of(mv, IllegalMove::NoPiece(from)))
            }
            RoomError::NotInHand { mv, kind } => {
                Some(Refusal::of(mv, IllegalMove::NotInHand(kind)))
            }
            RoomError::Illegal(PlayError::Illegal { mv, reason }) => Some(Refusal::of(mv, reason)),
            _ => None,
        }
    }
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
            reply,
        })
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

struct Room {
    id: String,
    mode: Mode,
    settings: Settings,
    start_sfen: String,
    game: Game,
    usi_moves: Vec<Move>,
    tokens: ByColor<Option<String>>,
    invite: Option<String>,
    clocks: Option<ByColor<Clock>>,
    clock_started: bool,
    /// When the current turn started (or the room started, for a restored turn).
    turn_start_ms: u64,
    /// Time used on the current turn before `turn_start_ms` (a restored turn).
    turn_base_ms: u64,
    ending: Option<Ending>,
    count_proposed_by: Option<Color>,
    takeback_by: Option<Color>,
    thinking: bool,
    players: ByColor<Option<SeatPlayer>>,
    rated: bool,
    connected: ByColor<u32>,
    chat: VecDeque<Arc<str>>,
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
    for &m in &init.moves {
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
        tokens: init.tokens,
        invite: init.invite,
        clocks: init.clocks,
        clock_started: init.clock_started,
        turn_start_ms: deps.time.now_ms(),
        turn_base_ms: init.turn_used_ms,
        ending: init.ending,
        count_proposed_by: None,
        takeback_by: None,
        thinking: false,
        players: init.players.seats,
        rated: init.players.rated,
        connected: ByColor::default(),
        chat: VecDeque::new(),
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

/// The verdict of an impasse declaration by `us` in `pos` under `rule`
/// (`None`: the rule has no declaration). A declaration whose conditions are
/// not met is a foul; under the 24-point rule a declaration with the
/// conditions met is won, drawn or lost by the points.
fn declaration_ending(pos: &Position, us: Color, rule: ImpasseRule) -> Option<Ending> {
    let d = declaration(pos, us, 0);
    let false_declaration = Ending::Foul {
        loser: us,
        foul: Foul::FalseDeclaration,
    };
    Some(match rule {
        ImpasseRule::Csa27 => {
            let need = if us == Color::Sente { 28 } else { 27 };
            if d.conditions_met() && d.points >= need {
                Ending::Impasse { winner: Some(us) }
            } else {
                false_declaration
            }
        }
        ImpasseRule::Jsa24 => match d.points {
            _ if !d.conditions_met() => false_declaration,
            31.. => Ending::Impasse { winner: Some(us) },
            24..=30 => Ending::Impasse { winner: None },
            _ => Ending::Impasse {
                winner: Some(us.opponent()),
            },
        },
        _ => return None,
    })
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
                reply,
            } => {
                let r = self.act(seat, action).await;
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
            Command::Subscribe { seat, reply } => {
                let chat = seat.map(|_| ChatFeed {
                    updates: self.chat_updates.subscribe(),
                    history: self.chat.iter().cloned().collect(),
                });
                if let Some(seat) = seat {
                    self.connect(seat, true);
                }
                let _ = reply.send(Subscription {
                    updates: self.updates.subscribe(),
                    now: Arc::new(StateText::new(self.view())),
                    chat,
                });
            }
            Command::Leave { seat } => self.connect(seat, false),
            Command::Chat { seat, text, reply } => {
                let _ = reply.send(self.chat(seat, &text));
            }
            Command::Snapshot { reply } => {
                let _ = reply.send(Arc::new(self.view()));
            }
            Command::Shutdown { reply } => {
                if self.flag_deadline().is_some() {
                    let used = self.turn_used(self.deps.time.now_ms());
                    if let Err(e) = self
                        .deps
                        .store
                        .save_turn_used(&self.id, self.plies(), used)
                        .await
                    {
                        tracing::error!(game = %self.id, "saving the clock at shutdown: {e}");
                    }
                }
                let _ = reply.send(());
                return false;
            }
            Command::Computer { ply, mv } => self.computer_moved(ply, mv).await,
            Command::ComputerStarted { ply } => {
                if ply == self.usi_moves.len() && self.computer.is_some() {
                    self.computer = Some(ComputerView::Thinking);
                    self.publish();
                }
            }
        }
        true
    }

    fn seat_of(&self, token: &str) -> Option<Seat> {
        let holds = |c: Color| {
            self.tokens[c]
                .as_deref()
                .is_some_and(|t| token::same(t, token))
        };
        match (holds(Color::Sente), holds(Color::Gote)) {
            (true, true) => Some(Seat::Both),
            (true, false) => Some(Seat::Sente),
            (false, true) => Some(Seat::Gote),
            (false, false) => None,
        }
    }

    fn seat_of_user(&self, user: i64) -> Option<Seat> {
        let holds = |c: Color| {
            self.players[c]
                .as_ref()
                .is_some_and(|p| p.user == Some(user))
        };
        match (holds(Color::Sente), holds(Color::Gote)) {
            (true, true) => Some(Seat::Both),
            (true, false) => Some(Seat::Sente),
            (false, true) => Some(Seat::Gote),
            (false, false) => None,
        }
    }

    fn sides_of(seat: Seat) -> &'static [Color] {
        match seat {
            Seat::Both => &[Color::Sente, Color::Gote],
            Seat::Sente => &[Color::Sente],
            Seat::Gote => &[Color::Gote],
        }
    }

    /// Counts a seated connection in (`true`) or out; the state is sent
    /// when a side's presence changes.
    fn connect(&mut self, seat: Seat, open: bool) {
        let mut changed = false;
        for &c in Room::sides_of(seat) {
            let before = self.connected[c] > 0;
            self.connected[c] = if open {
                self.connected[c].saturating_add(1)
            } else {
                self.connected[c].saturating_sub(1)
            };
            changed |= before != (self.connected[c] > 0);
        }
        if changed {
            self.publish();
        }
    }

    fn chat(&mut self, seat: Seat, text: &str) -> Result<(), RoomError> {
        let from = match seat {
            Seat::Sente => Color::Sente,
            Seat::Gote => Color::Gote,
            Seat::Both => return Err(RoomError::NoChat),
        };
        let text = text.trim();
        if text.is_empty() || text.chars().count() > MAX_CHAT_CHARS {
            return Err(RoomError::ChatLength);
        }
        let now = self.deps.time.now_ms();
        if !self.chat_allowance[from].allow(now) {
            return Err(RoomError::ChatTooFast);
        }
        let name = self.players[from].as_ref().map(|p| p.name.as_str());
        let msg: Arc<str> = Arc::from(
            serde_json::json!({
                "type": "chat", "from": Side::from(from), "name": name,
                "text": text, "at_ms": unix_ms(),
            })
            .to_string(),
        );
        if self.chat.len() == CHAT_HISTORY {
            self.chat.pop_front();
        }
        self.chat.push_back(Arc::clone(&msg));
        // No player connected is not an error.
        let _ = self.chat_updates.send(msg);
        Ok(())
    }

    /// Whether this is a game between two people in progress (listed in the lobby).
    fn is_live(&self) -> bool {
        self.mode == Mode::Friend && self.ending.is_none() && self.seats_full()
    }

    fn time_class(&self) -> Option<TimeClass> {
        self.settings.time.as_ref().map(TimeClass::of_control)
    }

    fn player_view(&self, c: Color) -> Option<PlayerView> {
        if self.computer_side() == Some(c) {
            return self.settings.ai.map(|ai| players::computer_view(ai.level));
        }
        self.players[c].as_ref().map(players::view)
    }

    fn announce_if_live(&self) {
        if !self.is_live() {
            return;
        }
        self.deps.lobby.game_started(LiveGame {
            id: self.id.clone(),
            players: LivePlayers {
                sente: self.player_view(Color::Sente),
                gote: self.player_view(Color::Gote),
            },
            terms: Terms::new(
                self.settings.time,
                self.rated,
                self.settings.handicap.to_string(),
            ),
            moves: self.usi_moves.len(),
        });
    }

    /// What follows every ending: the lobby is told, a rated game is rated.
    async fn finished(&mut self) {
        self.deps.lobby.game_ended(&self.id);
        if let Some(ending) = self.ending {
            self.deps.ended.send(GameEnd {
                id: self.id.clone(),
                ending,
                clocks: self.clocks,
            });
        }
        let (Some(ending), true, Some(class)) = (self.ending, self.rated, self.time_class()) else {
            return;
        };
        let users = ByColor::new(
            self.players[Color::Sente].as_ref().and_then(|p| p.user),
            self.players[Color::Gote].as_ref().and_then(|p| p.user),
        );
        // History points are dated in Unix time, like the games (the room's
        // clock measures turns from the server's start).
        if let Err(e) =
            players::settle(&self.deps.store, &self.id, class, users, ending, unix_ms()).await
        {
            tracing::error!(game = %self.id, "rating the game: {e}");
        }
    }

    fn computer_side(&self) -> Option<Color> {
        self.settings.ai.map(|ai| Color::from(ai.side))
    }

    fn seat_taken(&self, c: Color) -> bool {
        self.tokens[c].is_some() || self.computer_side() == Some(c)
    }

    fn seats_full(&self) -> bool {
        self.seat_taken(Color::Sente) && self.seat_taken(Color::Gote)
    }

    fn turn_used(&self, now: u64) -> u64 {
        self.turn_base_ms + now.saturating_sub(self.turn_start_ms)
    }

    /// When the side to move runs out of time, if its clock runs.
    fn flag_deadline(&self) -> Option<u64> {
        if self.ending.is_some() || !self.clock_started {
            return None;
        }
        let clock = self.clocks?[self.game.position().side_to_move()];
        Some((self.turn_start_ms + clock.time_available_ms()).saturating_sub(self.turn_base_ms))
    }

    /// Ends the game on time if the side to move is out of it; says whether it did.
    async fn flag_if_out_of_time(&mut self, now: u64) -> bool {
        match self.flag_deadline() {
            Some(deadline) if now >= deadline => {}
            _ => return false,
        }
        let loser = self.game.position().side_to_move();
        if let Some(clocks) = self.clocks.as_mut() {
            clocks[loser].main_ms = 0;
            clocks[loser].periods_left = 0;
        }
        let ending = Ending::Timeout { loser };
        // The flag fell whatever the database says; a failed write is logged.
        let write = GameWrite::Finish {
            ending,
            plies: self.plies(),
            clocks: self.clocks,
        };
        if let Err(e) = self.store(write).await {
            tracing::error!(game = %self.id, "storing a timeout: {e}");
            if self.lost {
                return true;
            }
        }
        self.ending = Some(ending);
        self.finished().await;
        self.publish();
        true
    }

    /// How many moves have been played.
    fn plies(&self) -> u32 {
        u32::try_from(self.usi_moves.len()).unwrap_or(u32::MAX)
    }

    fn impasse_rule(&self) -> ImpasseRule {
        self.settings.rules.impasse
    }

    async fn act(&mut self, seat: Seat, action: Action) -> Result<(), RoomError> {
        self.deps.activity.touch();
        if let Some(ending) = self.ending {
            return Err(RoomError::Over(reason_word(ending)));
        }
        let now = self.deps.time.now_ms();
        if self.flag_if_out_of_time(now).await {
            return Err(RoomError::Over("timeout"));
        }
        if !self.seats_full() {
            return Err(RoomError::WaitingForOpponent);
        }
        let to_move = self.game.position().side_to_move();
        // The side a seat acts for: its own, or the side to move for a local game's token.
        let acting = match seat {
            Seat::Both => to_move,
            Seat::Sente => Color::Sente,
            Seat::Gote => Color::Gote,
        };
        match action {
            Action::Move(m) => {
                if acting != to_move {
                    return Err(RoomError::NotYourTurn);
                }
                self.play(m, now).await
            }
            // Either player may resign at any time: the resigner loses, whoever is to move.
            Action::Resign => self.end(Ending::Resignation { loser: acting }).await,
            Action::Declare => {
                if acting != to_move {
                    return Err(RoomError::NotYourDeclaration);
                }
                let rule = self.impasse_rule();
                let ending = declaration_ending(self.game.position(), to_move, rule)
                    .ok_or(RoomError::NoDeclaration(rule))?;
                self.end(ending).await
            }
            Action::ProposeCount => {
                if self.impasse_rule() != ImpasseRule::Count24 {
                    return Err(RoomError::NoCount(self.impasse_rule()));
                }
                if !self.count_possible() {
                    return Err(RoomError::CountNotPossible);
                }
                if self.count_proposed_by.is_some() {
                    return Err(RoomError::CountAlreadyProposed);
                }
                if self.computer_side() == Some(acting.opponent()) {
                    // The computer accepts at once: the count is the rules' verdict.
                    return self.count().await;
                }
                self.count_proposed_by = Some(acting);
                self.publish();
                Ok(())
            }
            Action::AcceptCount | Action::DeclineCount => {
                let Some(proposer) = self.count_proposed_by else {
                    return Err(RoomError::NoCountProposed);
                };
                if seat != Seat::Both && acting == proposer {
                    return Err(RoomError::OwnProposal);
                }
                if action == Action::DeclineCount {
                    self.count_proposed_by = None;
                    self.publish();
                    return Ok(());
                }
                self.count().await
            }
            Action::Abort => {
                if self.usi_moves.len() >= 2 {
                    return Err(RoomError::TooLateToAbort);
                }
                self.end(Ending::Abort).await
            }
            Action::Takeback => self.propose_takeback(seat, acting, now).await,
            Action::AcceptTakeback | Action::DeclineTakeback => {
                let Some(proposer) = self.takeback_by else {
                    return Err(RoomError::NoTakebackProposed);
                };
                if acting == proposer {
                    return Err(RoomError::OwnProposal);
                }
                self.takeback_by = None;
                if action == Action::DeclineTakeback {
                    self.publish();
                    return Ok(());
                }
                self.take_back_to(proposer, now).await
            }
        }
    }

    /// The moves to take back so that it is `side`'s turn again before its
    /// last move (`None`: `side` has not moved).
    fn plies_back_to(&self, side: Color) -> Option<usize> {
        let n = self.usi_moves.len();
        let to_move = self.game.position().side_to_move();
        // The last move was by the side not to move.
        let back = if to_move == side { 2 } else { 1 };
        (n >= back).then_some(back)
    }

    async fn propose_takeback(
        &mut self,
        seat: Seat,
        acting: Color,
        now: u64,
    ) -> Result<(), RoomError> {
        if self.rated {
            return Err(RoomError::RatedTakeback);
        }
        if seat == Seat::Both {
            // Two people at one device: the last move goes back at once.
            if self.usi_moves.is_empty() {
                return Err(RoomError::NothingToTakeBack);
            }
            return self.take_back(1, now).await;
        }
        let back = self
            .plies_back_to(acting)
            .ok_or(RoomError::NothingToTakeBack)?;
        if self.computer_side() == Some(acting.opponent()) {
            // The computer grants it at once.
            return self.take_back(back, now).await;
        }
        if self.takeback_by.is_some() {
            return Err(RoomError::TakebackAlreadyProposed);
        }
        self.takeback_by = Some(acting);
        self.publish();
        Ok(())
    }

    async fn take_back_to(&mut self, proposer: Color, now: u64) -> Result<(), RoomError> {
        let back = self
            .plies_back_to(proposer)
            .ok_or(RoomError::NothingToTakeBack)?;
        self.take_back(back, now).await
    }

    /// Takes back the last `plies` moves; each clock keeps the time it shows.
    async fn take_back(&mut self, plies: usize, now: u64) -> Result<(), RoomError> {
        let keep = self.usi_moves.len().saturating_sub(plies);
        let clocks = self.stopped_clocks(now);
        let mut game = Game::with_rules(self.game.start().clone(), *self.game.rules());
        for &m in &self.game.moves()[..keep] {
            // Every kept move was played on this board before.
            let _ = game.play(m);
        }
        if let Err(e) = self
            .deps
            .store
            .take_back(
                &self.id,
                u32::try_from(keep).unwrap_or(u32::MAX),
                clocks,
                self.fence.as_ref(),
            )
            .await
        {
            tracing::error!(game = %self.id, "storing a takeback: {e}");
            self.check_lease().await;
            return Err(RoomError::MoveNotStored);
        }
        self.game = game;
        self.usi_moves.truncate(keep);
        self.clocks = clocks;
        self.turn_start_ms = now;
        self.turn_base_ms = 0;
        self.count_proposed_by = None;
        self.takeback_by = None;
        if self.is_live() {
            self.deps.lobby.game_moved(&self.id, keep);
        }
        self.maybe_start_computer();
        self.publish_after(Change::Full);
        Ok(())
    }

    /// The clocks with the running side's time used so far taken off.
    fn stopped_clocks(&self, now: u64) -> Option<ByColor<Clock>> {
        let mut clocks = self.clocks;
        if let (Some(c), Some(_)) = (clocks.as_mut(), self.flag_deadline()) {
            let side = self.game.position().side_to_move();
            let (main, _, periods) = c[side].reading(self.turn_used(now));
            c[side].main_ms = main;
            c[side].periods_left = periods;
        }
        clocks
    }

    /// Ends the game by the count24 verdict.
    async fn count(&mut self) -> Result<(), RoomError> {
        let pos = self.game.position();
        let to_move = pos.side_to_move();
        let verdict = impasse::judge(pos, ImpasseRule::Count24, ByColor::default())
            .ok_or(RoomError::CountNotPossible)?;
        let winner = match verdict {
            ImpasseVerdict::Win => Some(to_move),
            ImpasseVerdict::Loss => Some(to_move.opponent()),
            ImpasseVerdict::Draw => None,
        };
        self.end(Ending::Impasse { winner }).await
    }

    fn count_possible(&self) -> bool {
        impasse::judge(
            self.game.position(),
            ImpasseRule::Count24,
            ByColor::default(),
        )
        .is_some()
    }

    async fn play(&mut self, m: Move, now: u64) -> Result<(), RoomError> {
        let pos = self.game.position();
        let mover = pos.side_to_move();
        // A move no one could make on a real board is refused even when illegal moves lose.
        match m {
            Move::Board { from, .. } => {
                if pos.piece_at(from).is_none_or(|p| p.color != mover) {
                    return Err(RoomError::NoPieceOfYours { mv: m, from });
                }
            }
            Move::Drop { kind, .. } => {
                if pos.hand(mover).count(kind) == 0 {
                    return Err(RoomError::NotInHand { mv: m, kind });
                }
            }
        }
        let used = self.turn_used(now);
        let mut clocks = self.clocks;
        // The flag was checked before; a move at the very limit still loses in `charge`.
        let in_time = match (clocks.as_mut(), self.clock_started) {
            (Some(c), true) => c[mover].charge(used).is_ok(),
            _ => true,
        };
        // `act` refused it if the game were over (`self.ending` is the
        // game's ending after every move), so the rules are not judged again
        // before the move, only after it. The move is played on the game
        // itself (a refused move leaves it unchanged) and taken back if it
        // cannot stand, which is rare, rather than played on a copy.
        match self.game.play_ignoring_endings(m) {
            Ok(()) => {}
            Err(PlayError::Illegal { .. }) if self.game.illegal_move().is_some() => {}
            Err(e) => return Err(RoomError::Illegal(e)),
        }
        if !in_time {
            self.game.undo();
            self.flag_if_out_of_time(now).await;
            return Err(RoomError::Over("timeout"));
        }
        let ending = self.game.ending();
        let record = MoveRecord {
            ply: self.plies().saturating_add(1),
            mv: m,
            used_ms: used,
            mover,
            clocks,
            ending,
        };
        if let Err(e) = self.store(GameWrite::Move(record)).await {
            tracing::error!(game = %self.id, "storing move {m}: {e}");
            self.game.undo();
            return Err(RoomError::MoveNotStored);
        }
        self.usi_moves.push(m);
        self.clocks = clocks;
        self.turn_start_ms = now;
        self.turn_base_ms = 0;
        self.ending = ending;
        self.count_proposed_by = None;
        self.takeback_by = None;
        if self.ending.is_some() {
            self.finished().await;
        } else if self.is_live() {
            self.deps.lobby.game_moved(&self.id, self.usi_moves.len());
        }
        // The computer's queue place is part of the state sent.
        self.maybe_start_computer();
        self.publish_after(Change::Move);
        Ok(())
    }

    /// Stores `write` through the committer, fenced by the room's lease; a
    /// refused fenced write whose lease has changed hands marks the room lost.
    async fn store(&mut self, write: GameWrite) -> Result<(), sqlx::Error> {
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
    async fn check_lease(&mut self) {
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

    /// Ends the game for a reason no move caused; stored first.
    async fn end(&mut self, ending: Ending) -> Result<(), RoomError> {
        // The running clock stops where it stands.
        let clocks = self.stopped_clocks(self.deps.time.now_ms());
        let write = GameWrite::Finish {
            ending,
            plies: self.plies(),
            clocks,
        };
        if let Err(e) = self.store(write).await {
            tracing::error!(game = %self.id, "storing the ending: {e}");
            return Err(RoomError::EndingNotStored);
        }
        self.clocks = clocks;
        self.ending = Some(ending);
        self.finished().await;
        self.publish();
        Ok(())
    }

    async fn join(&mut self, invite: &str, who: &Identity) -> Result<Joined, Error> {
        let Some(code) = self.invite.as_deref() else {
            return Err(Problem::SeatTaken.into());
        };
        if !token::same(code, invite) {
            return Err(Problem::WrongInvite.into());
        }
        let side = if self.tokens[Color::Sente].is_none() {
            Color::Sente
        } else {
            Color::Gote
        };
        let new_token = token::new_token();
        let player = SeatPlayer::of(&self.deps.store, who, self.time_class()).await?;
        if let Err(e) = self
            .deps
            .store
            .join(&self.id, side, &new_token, self.fence.as_ref())
            .await
        {
            self.check_lease().await;
            return Err(e.into());
        }
        if let Some(p) = &player {
            self.deps.store.set_game_player(&self.id, side, p).await?;
        }
        self.players[side] = player;
        self.tokens[side] = Some(new_token.clone());
        self.invite = None;
        self.clock_started = true;
        self.turn_start_ms = self.deps.time.now_ms();
        self.turn_base_ms = 0;
        self.announce_if_live();
        self.publish_after(Change::Full);
        Ok(Joined {
            token: new_token,
            side: side.into(),
        })
    }

    fn maybe_start_computer(&mut self) {
        let Some(side) = self.computer_side() else {
            return;
        };
        if self.thinking || self.ending.is_some() || self.game.position().side_to_move() != side {
            return;
        }
        self.thinking = true;
        let position = self.game.position().clone();
        let limits = Limits {
            level: self.settings.ai.map_or(1, |ai: AiSeat| ai.level),
            time_available_ms: self.clocks.map(|c| c[side].time_available_ms()),
        };
        let ply = self.usi_moves.len();
        let tx = self.tx.clone();
        let opponent = self.deps.opponent.clone();
        // The search waits for a thread of the pool; the player sees its place.
        let ticket = self.deps.search.ticket();
        self.computer = Some(match ticket.ahead() {
            None => ComputerView::Thinking,
            Some(ahead) => ComputerView::Queued { ahead },
        });
        tokio::spawn(async move {
            let queued = ticket.ahead().is_some();
            let permit = ticket.wait().await;
            if queued {
                let _ = tx.send(Command::ComputerStarted { ply }).await;
            }
            let mv = tokio::task::spawn_blocking(move || {
                let mv = opponent.choose_move(&position, limits);
                drop(permit);
                mv
            })
            .await
            .ok()
            .flatten();
            let _ = tx.send(Command::Computer { ply, mv }).await;
        });
    }

    async fn computer_moved(&mut self, ply: usize, mv: Option<Move>) {
        self.deps.activity.touch();
        self.thinking = false;
        self.computer = None;
        let Some(side) = self.computer_side() else {
            return;
        };
        if ply != self.usi_moves.len() || self.ending.is_some() {
            return;
        }
        let action = match mv {
            Some(m) => Action::Move(m),
            None => Action::Resign,
        };
        if let Err(e) = self.act(side.into(), action).await {
            tracing::warn!(game = %self.id, "the computer's move was refused: {e}");
        }
    }

    /// Sends the state after a change that a `diff` can tell (an ending
    /// without a move, the clocks, a proposal, who is connected, the
    /// computer's search).
    fn publish(&self) {
        self.publish_after(Change::Diff);
    }

    /// Sends the state after `change`. Serialised by the first connection
    /// that needs it, once, not by each connection; with no subscriber,
    /// not built at all.
    fn publish_after(&self, change: Change) {
        if self.updates.receiver_count() > 0 {
            let _ = self
                .updates
                .send(Arc::new(StateText::after(self.view(), change)));
        }
    }

    fn view(&self) -> GameView {
        let pos = self.game.position();
        let to_move = pos.side_to_move();
        let playing = self.ending.is_none() && self.seats_full();
        let legal = if playing {
            LegalMoves::of(pos)
        } else {
            LegalMoves::default()
        };
        let running = self.flag_deadline().map(|_| to_move);
        let clocks = self.clocks.map(|c| {
            let used = self.turn_used(self.deps.time.now_ms());
            let read = |side: Color| {
                let (main_ms, byoyomi_ms, periods_left) =
                    c[side].reading(if running == Some(side) { used } else { 0 });
                ClockView {
                    main_ms,
                    byoyomi_ms,
                    periods_left,
                }
            };
            ClocksView {
                sente: read(Color::Sente),
                gote: read(Color::Gote),
                running: running.map(Side::from),
                server_time_ms: unix_ms(),
            }
        });
        let rule = self.impasse_rule();
        let points = |c: Color| match rule {
            ImpasseRule::Csa27 | ImpasseRule::Jsa24 => declaration(pos, c, 0).points,
            _ => total_points(pos, c),
        };
        let impasse = ImpasseView {
            rule,
            sente_points: points(Color::Sente),
            gote_points: points(Color::Gote),
            can_declare: playing
                && matches!(rule, ImpasseRule::Csa27 | ImpasseRule::Jsa24)
                && declaration(pos, to_move, 0).conditions_met(),
            can_propose_count: playing && rule == ImpasseRule::Count24 && self.count_possible(),
            count_proposed_by: self.count_proposed_by.map(Side::from),
        };
        GameView {
            id: self.id.clone(),
            mode: self.mode,
            sfen: pos.to_sfen(),
            start_sfen: self.start_sfen.clone(),
            moves: self.usi_moves.clone(),
            last_move: self.usi_moves.last().copied(),
            side_to_move: to_move.into(),
            in_check: pos.in_check(),
            dests: legal.dests,
            drops: legal.drops,
            promotions: legal.promotions,
            seats: SeatsView {
                sente: self.seat_taken(Color::Sente),
                gote: self.seat_taken(Color::Gote),
            },
            clocks,
            status: StatusView::of(self.ending),
            impasse,
            rules: self.settings.rules.clone(),
            players: PlayersView {
                sente: self.player_view(Color::Sente),
                gote: self.player_view(Color::Gote),
            },
            rated: self.rated,
            connected: ConnectedView {
                sente: self.connected[Color::Sente] > 0
                    || self.computer_side() == Some(Color::Sente),
                gote: self.connected[Color::Gote] > 0 || self.computer_side() == Some(Color::Gote),
            },
            takeback: TakebackView {
                proposed_by: self.takeback_by.map(Side::from),
            },
            computer: self.computer.filter(|_| self.ending.is_none()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_has_a_documented_code() {
        let doc = include_str!("../../../docs/PROTOCOL.md");
        let mv: Move = "5e5d".parse().unwrap();
        let all = [
            RoomError::Over("resign"),
            RoomError::WaitingForOpponent,
            RoomError::NotYourTurn,
            RoomError::NotYourDeclaration,
            RoomError::NoDeclaration(ImpasseRule::Count24),
            RoomError::NoCount(ImpasseRule::Csa27),
            RoomError::CountNotPossible,
            RoomError::CountAlreadyProposed,
            RoomError::NoCountProposed,
            RoomError::OwnProposal,
            RoomError::NoPieceOfYours {
                mv,
                from: "5e".parse().unwrap(),
            },
            RoomError::NotInHand {
                mv: "P*5e".parse().unwrap(),
                kind: HandKind::Pawn,
            },
            RoomError::MoveNotStored,
            RoomError::EndingNotStored,
            RoomError::TooLateToAbort,
            RoomError::RatedTakeback,
            RoomError::NothingToTakeBack,
            RoomError::TakebackAlreadyProposed,
            RoomError::NoTakebackProposed,
            RoomError::NoChat,
            RoomError::ChatLength,
            RoomError::ChatTooFast,
            RoomError::Gone,
        ];
        for e in all {
            let json = serde_json::to_value(e.detail()).unwrap();
            let code = json["code"].as_str().unwrap();
            assert!(
                doc.contains(&format!("`{code}`")),
                "{code} is not in PROTOCOL.md"
            );
        }
        let over = serde_json::to_value(RoomError::Over("resign").detail()).unwrap();
        assert_eq!(
            over,
            serde_json::json!({"code": "game_over", "reason": "resign"})
        );
        let no_count =
            serde_json::to_value(RoomError::NoCount(ImpasseRule::Csa27).detail()).unwrap();
        assert_eq!(no_count["code"], "no_count");
        assert_eq!(no_count["rule"], ImpasseRule::Csa27.to_string());
    }

    /// Sente's king and 17 pieces in the enemy camp, two rooks and bishops in hand.
    const DECLARABLE: &str = "4K4/GGGG1SSSS/PPPPPPPPP/9/9/9/9/9/4k4 b 2R2B 1";

    fn pos(sfen: &str) -> Position {
        shogi_core::sfen::parse_position(sfen).unwrap()
    }

    #[test]
    fn a_declaration_with_the_conditions_met_wins_under_27() {
        let e = declaration_ending(&pos(DECLARABLE), Color::Sente, ImpasseRule::Csa27);
        assert_eq!(
            e,
            Some(Ending::Impasse {
                winner: Some(Color::Sente)
            })
        );
    }

    #[test]
    fn a_declaration_without_the_conditions_is_a_foul_by_the_declarer() {
        let start = Position::startpos();
        for rule in [ImpasseRule::Csa27, ImpasseRule::Jsa24] {
            let e = declaration_ending(&start, Color::Sente, rule).unwrap();
            assert_eq!(
                e,
                Ending::Foul {
                    loser: Color::Sente,
                    foul: Foul::FalseDeclaration
                },
                "{rule}"
            );
            assert_eq!(e.winner(), Some(Color::Gote));
        }
    }

    #[test]
    fn under_24_points_between_24_and_30_draw() {
        let e = declaration_ending(
            &pos("4K4/GGGG1SSSS/PPPPPPPPP/9/9/9/9/9/4k4 b 2R 1"),
            Color::Sente,
            ImpasseRule::Jsa24,
        );
        assert_eq!(e, Some(Ending::Impasse { winner: None }));
    }

    #[test]
    fn rules_without_a_declaration_have_none() {
        for rule in [ImpasseRule::Count24, ImpasseRule::Try, ImpasseRule::None] {
            assert_eq!(
                declaration_ending(&pos(DECLARABLE), Color::Sente, rule),
                None
            );
        }
    }

    #[test]
    fn refusals_read_as_the_protocol_documents_them() {
        assert_eq!(
            RoomError::Over("resign").to_string(),
            "the game is over (resign)"
        );
        let mv: Move = "5e5d".parse().unwrap();
        let e = RoomError::NoPieceOfYours {
            mv,
            from: "5e".parse().unwrap(),
        };
        assert_eq!(e.to_string(), "5e5d: no piece of yours on 5e");
    }
}
