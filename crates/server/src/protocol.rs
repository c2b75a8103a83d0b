//! The JSON messages of `docs/PROTOCOL.md`: requests, WebSocket messages and
//! the game state the server sends. Parsed at the edge; inside, typed values.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shogi_core::Color;

use crate::clock::TimeControl;

/// A colour as JSON text: `"sente"` or `"gote"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Sente (moves first in even games).
    Sente,
    /// Gote.
    Gote,
}

impl Side {
    /// The JSON word.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Side::Sente => "sente",
            Side::Gote => "gote",
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Sente => Side::Sente,
            Color::Gote => Side::Gote,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::Sente => Color::Sente,
            Side::Gote => Color::Gote,
        }
    }
}

impl FromStr for Side {
    type Err = ();
    fn from_str(s: &str) -> Result<Side, ()> {
        match s {
            "sente" => Ok(Side::Sente),
            "gote" => Ok(Side::Gote),
            _ => Err(()),
        }
    }
}

/// Who a connection or token plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// Sente.
    Sente,
    /// Gote.
    Gote,
    /// Both sides (a local game).
    Both,
}

impl Seat {
    /// Whether this seat plays `color`.
    #[must_use]
    pub fn plays(self, color: Color) -> bool {
        match self {
            Seat::Both => true,
            Seat::Sente => color == Color::Sente,
            Seat::Gote => color == Color::Gote,
        }
    }
}

impl From<Color> for Seat {
    fn from(c: Color) -> Seat {
        match c {
            Color::Sente => Seat::Sente,
            Color::Gote => Seat::Gote,
        }
    }
}

/// How a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Against the computer.
    Ai,
    /// Against a friend who joins with an invite.
    Friend,
    /// Two people at one device.
    Local,
}

impl Mode {
    /// The JSON word.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Mode::Ai => "ai",
            Mode::Friend => "friend",
            Mode::Local => "local",
        }
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        match s {
            "ai" => Ok(Mode::Ai),
            "friend" => Ok(Mode::Friend),
            "local" => Ok(Mode::Local),
            _ => Err(format!("unknown mode {s:?}")),
        }
    }
}

/// The creator's choice of seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideChoice {
    /// Sente.
    #[default]
    Sente,
    /// Gote.
    Gote,
    /// Chosen by the server at random.
    Random,
}

/// What an illegal move does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IllegalPolicy {
    /// Refused with the reason.
    #[default]
    Prevent,
    /// Recorded and loses the game.
    Lose,
}

/// `POST /api/games`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The mode.
    pub mode: Mode,
    /// The creator's seat.
    #[serde(default)]
    pub side: SideChoice,
    /// The handicap name (`even` if absent).
    #[serde(default)]
    pub handicap: Option<String>,
    /// A start position in SFEN instead of a handicap (set-up positions, problems).
    #[serde(default)]
    pub sfen: Option<String>,
    /// The time control, or none.
    #[serde(default)]
    pub time: Option<TimeControl>,
    /// The rules.
    #[serde(default)]
    pub rules: Option<RulesRequest>,
    /// The computer's settings.
    #[serde(default)]
    pub ai: Option<AiRequest>,
}

/// The `rules` of [`CreateGame`].
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesRequest {
    /// `count24`, `27`, `24`, `try` or `none`.
    #[serde(default)]
    pub impasse: Option<String>,
    /// The illegal-move policy.
    #[serde(default)]
    pub illegal: Option<IllegalPolicy>,
    /// A draw after this many moves.
    #[serde(default)]
    pub max_moves: Option<u32>,
}

/// The `ai` of [`CreateGame`].
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AiRequest {
    /// 1..=10.
    #[serde(default = "level_one")]
    pub level: u8,
}

fn level_one() -> u8 {
    1
}

/// The answer to `POST /api/games`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Created {
    /// The game id.
    pub id: String,
    /// The creator's token.
    pub token: String,
    /// The creator's seat: `sente`, `gote` or `both`.
    pub side: String,
    /// The invite link (friend games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// `POST /api/games/{id}/join`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The invite code.
    pub invite: String,
}

/// The answer to a join.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Joined {
    /// The invitee's token.
    pub token: String,
    /// The invitee's seat.
    pub side: Side,
}

/// The rules of a game as stored and shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesView {
    /// The impasse rule's name.
    pub impasse: String,
    /// The illegal-move policy.
    pub illegal: IllegalPolicy,
    /// The move limit.
    pub max_moves: Option<u32>,
}

/// Everything chosen at creation that the server keeps (stored as JSON).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Settings {
    /// The rules.
    pub rules: RulesView,
    /// The time control.
    pub time: Option<TimeControl>,
    /// The computer's seat and level.
    pub ai: Option<AiSeat>,
    /// The handicap's name.
    pub handicap: String,
}

/// The computer's seat.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct AiSeat {
    /// Which side it plays.
    pub side: Side,
    /// Its level, 1..=10.
    pub level: u8,
}

/// A message from the client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// Play a move.
    Move {
        /// The move in USI.
        usi: String,
    },
    /// Resign.
    Resign,
    /// Declare an impasse win.
    Declare,
    /// Propose the count (count24).
    ProposeCount,
    /// Accept the opponent's proposal.
    AcceptCount,
    /// Decline it.
    DeclineCount,
    /// Keep-alive.
    Ping,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Checkmate.
    Checkmate,
    /// Resignation.
    Resign,
    /// Out of time.
    Timeout,
    /// Fourfold repetition (a draw).
    Repetition,
    /// Fourfold repetition with perpetual check (the checker loses).
    PerpetualCheck,
    /// Declaration or count.
    Impasse,
    /// The try rule.
    Try,
    /// An illegal move under the "lose" policy.
    IllegalMove,
    /// The move limit (a draw).
    MaxMoves,
    /// No legal move without being in check.
    NoLegalMoves,
}

impl Reason {
    const ALL: [Reason; 10] = [
        Reason::Checkmate,
        Reason::Resign,
        Reason::Timeout,
        Reason::Repetition,
        Reason::PerpetualCheck,
        Reason::Impasse,
        Reason::Try,
        Reason::IllegalMove,
        Reason::MaxMoves,
        Reason::NoLegalMoves,
    ];

    /// The JSON word.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Resign => "resign",
            Reason::Timeout => "timeout",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual_check",
            Reason::Impasse => "impasse",
            Reason::Try => "try",
            Reason::IllegalMove => "illegal_move",
            Reason::MaxMoves => "max_moves",
            Reason::NoLegalMoves => "no_legal_moves",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Reason {
    type Err = ();
    fn from_str(s: &str) -> Result<Reason, ()> {
        Reason::ALL.into_iter().find(|r| r.name() == s).ok_or(())
    }
}

/// One side's clock as shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// Main time left.
    pub main_ms: u64,
    /// What is left of the current byoyomi period (the full period in main time).
    pub byoyomi_ms: u64,
    /// Byoyomi periods left.
    pub periods_left: u32,
}

/// Both clocks as shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClocksView {
    /// Sente's clock.
    pub sente: ClockView,
    /// Gote's clock.
    pub gote: ClockView,
    /// The side whose clock runs.
    pub running: Option<Side>,
    /// When these readings were taken (Unix milliseconds).
    pub server_time_ms: u64,
}

/// The game's status as shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StatusView {
    /// Whether the game is over.
    pub over: bool,
    /// The winner (`None` for a draw or a game not over).
    pub winner: Option<Side>,
    /// Why it ended.
    pub reason: Option<Reason>,
}

/// Impasse facts as shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ImpasseView {
    /// The game's impasse rule.
    pub rule: String,
    /// Sente's points under that rule.
    pub sente_points: u32,
    /// Gote's points.
    pub gote_points: u32,
    /// The side to move meets the declaration conditions (27 / 24).
    pub can_declare: bool,
    /// Both kings stand in the enemy camps (count24).
    pub can_propose_count: bool,
    /// Who proposed the count, if a proposal stands.
    pub count_proposed_by: Option<Side>,
}

/// Which seats are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SeatsView {
    /// Sente's seat is taken.
    pub sente: bool,
    /// Gote's seat is taken.
    pub gote: bool,
}

/// The state of a game, the same for every viewer (`you` is added per connection).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// The game id.
    pub id: String,
    /// The mode.
    pub mode: Mode,
    /// The current position.
    pub sfen: String,
    /// The start position.
    pub start_sfen: String,
    /// The moves played, in USI.
    pub moves: Vec<String>,
    /// The last move.
    pub last_move: Option<String>,
    /// The side to move.
    pub side_to_move: Side,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Board moves of the side to move: origin → destinations.
    pub dests: BTreeMap<String, Vec<String>>,
    /// Drops of the side to move: piece letter → squares.
    pub drops: BTreeMap<String, Vec<String>>,
    /// Promotion choices: from+to → `may` or `must`.
    pub promotions: BTreeMap<String, &'static str>,
    /// Which seats are taken.
    pub seats: SeatsView,
    /// The clocks, if the game has any.
    pub clocks: Option<ClocksView>,
    /// Over, winner, reason.
    pub status: StatusView,
    /// Impasse facts.
    pub impasse: ImpasseView,
    /// The rules.
    pub rules: RulesView,
}

/// A message from the server.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage<'a> {
    /// The game state.
    State {
        /// The state.
        #[serde(flatten)]
        view: &'a GameView,
        /// The connection's seat.
        you: Option<Seat>,
    },
    /// A refused message; the game is unchanged.
    Error {
        /// Why.
        message: &'a str,
    },
    /// The answer to a ping.
    Pong,
}
