//! The JSON messages of `docs/PROTOCOL.md`: requests, WebSocket messages and
//! the game state the server sends. Parsed at the edge; inside, typed values.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use bytes::Bytes;

use serde::{Deserialize, Serialize};
use shogi_core::{Color, Ending, Foul, Handicap, IllegalMove, ImpasseRule, Move};

use crate::clock::TimeControl;
use crate::dests::{Dests, Drops, Promotions};

/// serde through `Display` and `FromStr`: the protocol's text form of a core
/// value (a USI move, an impasse rule's name, a handicap's name) is read and
/// written here, at the edge, and nowhere else.
pub(crate) mod as_text {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `v` as its `Display` text.
    pub fn serialize<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    /// Reads a `T` from text with its `FromStr`.
    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let text = String::deserialize(d)?;
        text.parse().map_err(D::Error::custom)
    }
}

/// [`as_text`] for an optional value in a request (`null` or absent is `None`).
pub(crate) mod opt_text {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer};

    /// Reads an optional `T` from text with its `FromStr`.
    pub fn deserialize<'de, T, D>(d: D) -> Result<Option<T>, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        match Option::<String>::deserialize(d)? {
            Some(text) => text.parse().map(Some).map_err(D::Error::custom),
            None => Ok(None),
        }
    }
}

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
    /// The handicap (`even` if absent).
    #[serde(default, deserialize_with = "opt_text::deserialize")]
    pub handicap: Option<Handicap>,
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
    /// A guest's display name (ignored for a logged-in creator).
    #[serde(default)]
    pub name: Option<String>,
}

/// The `rules` of [`CreateGame`].
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesRequest {
    /// `count24`, `27`, `24`, `try` or `none`.
    #[serde(default, deserialize_with = "opt_text::deserialize")]
    pub impasse: Option<ImpasseRule>,
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
    pub side: Seat,
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
    /// A guest's display name (ignored for a logged-in player).
    #[serde(default)]
    pub name: Option<String>,
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
    /// The impasse rule (its name in JSON).
    #[serde(with = "as_text")]
    pub impasse: ImpasseRule,
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
    /// The handicap, or `custom` for a start position given as SFEN.
    #[serde(with = "as_text")]
    pub handicap: StartChoice,
}

/// Where a game started: a handicap's position or a custom one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartChoice {
    /// A handicap (`even` included).
    Handicap(Handicap),
    /// A position given as SFEN (`custom`).
    Custom,
}

impl fmt::Display for StartChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartChoice::Handicap(h) => f.write_str(h.name()),
            StartChoice::Custom => f.write_str("custom"),
        }
    }
}

impl FromStr for StartChoice {
    type Err = shogi_core::UnknownHandicap;
    fn from_str(s: &str) -> Result<StartChoice, Self::Err> {
        if s == "custom" {
            return Ok(StartChoice::Custom);
        }
        s.parse().map(StartChoice::Handicap)
    }
}

/// The computer's seat.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct AiSeat {
    /// Which side it plays.
    pub side: Side,
    /// Its level, 1..=10.
    pub level: u8,
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusView {
    /// Whether the game is over.
    pub over: bool,
    /// The winner (`None` for a draw or a game not over).
    pub winner: Option<Side>,
    /// Why it ended ([`reason_word`]).
    pub reason: Option<&'static str>,
    /// The broken rule, for a game lost by a foul (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub foul: Option<FoulView>,
}

/// A foul that lost the game, as shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FoulView {
    /// `illegal_move`, `unreadable_move` or `false_declaration`.
    pub kind: &'static str,
    /// The illegal move in USI (`illegal_move` only).
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    /// The rule it broke, as a code ([`rule_code`]; `illegal_move` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    /// The file of the pawn already there (`nifu` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<u8>,
    /// The rule it broke, in English words (`illegal_move` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The protocol's code for the rule an illegal move breaks: the one
/// translation of [`IllegalMove`] to the words clients translate
/// (`docs/PROTOCOL.md`, "Refused moves").
#[must_use]
pub fn rule_code(reason: IllegalMove) -> &'static str {
    match reason {
        IllegalMove::NoPiece(_) => "no_piece",
        IllegalMove::NotYourPiece(_) => "not_your_piece",
        IllegalMove::BadDirection { .. } => "not_reachable",
        IllegalMove::PathBlocked { .. } => "path_blocked",
        IllegalMove::OwnPieceOnTarget(_) => "own_piece",
        IllegalMove::LeavesKingInCheck => "self_check",
        IllegalMove::Nifu(_) => "nifu",
        IllegalMove::DeadDrop { .. } => "dead_piece",
        IllegalMove::MustPromote(_) => "must_promote",
        IllegalMove::CannotPromote => "cannot_promote",
        IllegalMove::PawnDropMate => "uchifuzume",
        IllegalMove::NotInHand(_) => "not_in_hand",
        IllegalMove::DropOnOccupied(_) => "occupied",
    }
}

/// The file a nifu names (the pawn already on it), `None` for other rules.
fn nifu_file(reason: IllegalMove) -> Option<u8> {
    match reason {
        IllegalMove::Nifu(file) => Some(file.number()),
        _ => None,
    }
}

/// A move the rules refuse, as an `error` message names it: the move, the
/// rule's code and the square to show it at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// Always `illegal_move`.
    pub code: &'static str,
    /// The move in USI.
    #[serde(rename = "move")]
    pub mv: String,
    /// The rule it breaks ([`rule_code`]).
    pub rule: &'static str,
    /// Where the move went (its origin when there is no piece of the mover's there).
    pub square: String,
    /// The file of the pawn already there (`nifu` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<u8>,
}

impl Refusal {
    /// The refusal of `mv` for `reason`.
    #[must_use]
    pub fn of(mv: Move, reason: IllegalMove) -> Refusal {
        let square = match reason {
            IllegalMove::NoPiece(sq) | IllegalMove::NotYourPiece(sq) => sq,
            _ => mv.to(),
        };
        Refusal {
            code: "illegal_move",
            mv: mv.to_string(),
            rule: rule_code(reason),
            square: square.to_string(),
            file: nifu_file(reason),
        }
    }
}

/// The protocol's word for how a game ended (`status.reason`, the archive's
/// `reason`): the core's [`Ending::reason_word`], except that a false
/// impasse declaration stays `impasse`, as the protocol has always said of a
/// declaration the declarer loses.
#[must_use]
pub fn reason_word(ending: Ending) -> &'static str {
    match ending {
        Ending::Foul {
            foul: Foul::FalseDeclaration,
            ..
        } => "impasse",
        e => e.reason_word(),
    }
}

impl StatusView {
    /// The status of a game with `ending` (`None`: in progress): the one
    /// translation of an [`Ending`] to the protocol's JSON.
    #[must_use]
    pub fn of(ending: Option<Ending>) -> StatusView {
        let foul = match ending {
            Some(Ending::Foul { foul, .. }) => Some(match foul {
                Foul::Move { mv, reason } => FoulView {
                    kind: "illegal_move",
                    mv: Some(mv.to_string()),
                    rule: Some(rule_code(reason)),
                    file: nifu_file(reason),
                    message: Some(reason.to_string()),
                },
                Foul::UnreadableMove => FoulView {
                    kind: "unreadable_move",
                    mv: None,
                    rule: None,
                    file: None,
                    message: None,
                },
                Foul::FalseDeclaration => FoulView {
                    kind: "false_declaration",
                    mv: None,
                    rule: None,
                    file: None,
                    message: None,
                },
                Foul::Unspecified => FoulView {
                    kind: "unspecified",
                    mv: None,
                    rule: None,
                    file: None,
                    message: None,
                },
            }),
            _ => None,
        };
        StatusView {
            over: ending.is_some(),
            winner: ending.and_then(Ending::winner).map(Side::from),
            reason: ending.map(reason_word),
            foul,
        }
    }
}

/// Impasse facts as shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ImpasseView {
    /// The game's impasse rule (its name in JSON).
    #[serde(with = "as_text")]
    pub rule: ImpasseRule,
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

/// A player as shown beside the board, in the lobby and in lists.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    /// The name.
    pub name: String,
    /// A guest's seat.
    pub guest: bool,
    /// The computer's seat.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub computer: bool,
    /// The rating (rounded), for accounts in games with a clock.
    pub rating: Option<i64>,
    /// Whether the rating is still provisional.
    pub provisional: bool,
    /// The amateur rank of the rating (`3k`, `1d`).
    pub rank: Option<String>,
}

impl Eq for PlayerView {}

/// Wins, losses and draws.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Results {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

/// Who plays each side (`None`: an unnamed guest or a free seat).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayersView {
    /// Sente's player.
    pub sente: Option<PlayerView>,
    /// Gote's player.
    pub gote: Option<PlayerView>,
}

/// Which seats have a connection open now (the computer's always).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ConnectedView {
    /// Sente's player is connected.
    pub sente: bool,
    /// Gote's player is connected.
    pub gote: bool,
}

/// A takeback proposal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TakebackView {
    /// Who proposed it, if a proposal stands.
    pub proposed_by: Option<Side>,
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
    /// The moves played (USI in JSON).
    #[serde(serialize_with = "usi_list")]
    pub moves: Vec<Move>,
    /// The last move (USI in JSON).
    #[serde(serialize_with = "usi_opt")]
    pub last_move: Option<Move>,
    /// The side to move.
    pub side_to_move: Side,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Board moves of the side to move: origin → destinations.
    pub dests: Dests,
    /// Drops of the side to move: piece letter → squares.
    pub drops: Drops,
    /// Promotion choices: from+to → `may` or `must`.
    pub promotions: Promotions,
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
    /// Who plays.
    pub players: PlayersView,
    /// Whether the game is rated.
    pub rated: bool,
    /// Which players are connected.
    pub connected: ConnectedView,
    /// A standing takeback proposal.
    pub takeback: TakebackView,
    /// The computer's search while it is to move: thinking, or waiting for a search thread.
    pub computer: Option<ComputerView>,
}

/// What a change did to a game, which decides whether a `diff` can carry it
/// (docs/PROTOCOL.md, "Diffs").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A move was played: the last of the view's moves.
    Move,
    /// Only what a `diff` carries changed (an ending without a move, the
    /// clocks, a proposal, who is connected, the computer's search); the
    /// moves, seats, players and rules are as they were.
    Diff,
    /// Anything else (a seat taken, a takeback): only a full `state` says it.
    Full,
}

/// Moves as a JSON list of USI texts, written without a `String` each.
fn usi_list<S: serde::Serializer>(moves: &[Move], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(moves.iter().map(|m| Usi(*m)))
}

/// An optional move as USI text or `null`.
#[allow(clippy::ref_option)] // serde's `serialize_with` passes the field itself
fn usi_opt<S: serde::Serializer>(m: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
    match m {
        Some(m) => s.collect_str(m),
        None => s.serialize_none(),
    }
}

/// A move serialised as its USI text.
#[derive(Clone, Copy)]
struct Usi(Move);

impl Serialize for Usi {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// A change serialised once for all the connections that receive it: the
/// full `state` (the same for every one but the `you` field, the
/// connection's seat, which [`StateText::text`] appends) and, where the
/// change allows, the `diff` message. Each is serialised on first need, at
/// most once, however many watch; a room makes one per change.
#[derive(Debug)]
pub struct StateText {
    /// The state.
    pub view: GameView,
    /// The change that led to it.
    change: Change,
    /// The `state` message up to the value of `you` (the last field).
    head: OnceLock<String>,
    /// The `diff` message, as bytes that every connection sending it
    /// shares (a reference count, not a copy per connection).
    diff: OnceLock<Bytes>,
}

impl StateText {
    /// A state that only a full `state` message tells (the first one a
    /// connection receives).
    #[must_use]
    pub fn new(view: GameView) -> StateText {
        StateText::after(view, Change::Full)
    }

    /// The state after `change`.
    #[must_use]
    pub fn after(view: GameView, change: Change) -> StateText {
        StateText {
            view,
            change,
            head: OnceLock::new(),
            diff: OnceLock::new(),
        }
    }

    /// How many moves have been played.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.view.moves.len()
    }

    /// The `state` message for a connection of `you` (`None`: a spectator).
    #[must_use]
    pub fn text(&self, you: Option<Seat>) -> String {
        let head = self.head.get_or_init(|| {
            // Serializing our own plain structs cannot fail; `you` comes last.
            let full = serde_json::to_string(&ServerMessage::State {
                view: &self.view,
                you: None,
            })
            .unwrap_or_default();
            full.strip_suffix("null}").unwrap_or(&full).to_owned()
        });
        let seat = match you {
            None => "null",
            Some(Seat::Sente) => "\"sente\"",
            Some(Seat::Gote) => "\"gote\"",
            Some(Seat::Both) => "\"both\"",
        };
        let mut text = String::with_capacity(head.len() + seat.len() + 1);
        text.push_str(head);
        text.push_str(seat);
        text.push('}');
        text
    }

    /// The `diff` message (UTF-8 JSON) for a connection that was last told
    /// the state after `ply` moves, if this change can be told to it as a
    /// diff.
    #[must_use]
    pub fn diff_after(&self, ply: usize) -> Option<Bytes> {
        let base = match self.change {
            Change::Move => self.ply().checked_sub(1)?,
            Change::Diff => self.ply(),
            Change::Full => return None,
        };
        if base != ply {
            return None;
        }
        Some(self.diff.get_or_init(|| {
            let v = &self.view;
            let diff = DiffView {
                kind: "diff",
                ply: v.moves.len(),
                mv: match self.change {
                    Change::Move => v.last_move.map(Usi),
                    _ => None,
                },
                sfen: &v.sfen,
                last_move: v.last_move.map(Usi),
                side_to_move: v.side_to_move,
                in_check: v.in_check,
                dests: &v.dests,
                drops: &v.drops,
                promotions: &v.promotions,
                clocks: v.clocks.as_ref(),
                status: &v.status,
                impasse: &v.impasse,
                connected: &v.connected,
                takeback: &v.takeback,
                computer: v.computer.as_ref(),
            };
            // About the size of the text, so that it is not grown step by
            // step: the destinations take most of it.
            let mut text = Vec::with_capacity(512 + 8 * v.dests.count());
            // Serializing our own plain structs into memory cannot fail.
            let _ = serde_json::to_writer(&mut text, &diff);
            Bytes::from(text)
        }))
        .cloned()
    }
}

/// The fields of a `state` that a `diff` replaces (docs/PROTOCOL.md,
/// "Diffs"); a diff also carries `type`, `ply` and `move`.
pub const DIFF_FIELDS: [&str; 13] = [
    "sfen",
    "last_move",
    "side_to_move",
    "in_check",
    "dests",
    "drops",
    "promotions",
    "clocks",
    "status",
    "impasse",
    "connected",
    "takeback",
    "computer",
];

/// The `diff` message: what changed in a [`GameView`] since the state or
/// diff before; everything not here (the id, mode, start, rules, seats,
/// players, rated) is as it was, and `moves` grows by `move` if there is one.
#[derive(Serialize)]
struct DiffView<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    ply: usize,
    #[serde(rename = "move")]
    mv: Option<Usi>,
    sfen: &'a str,
    last_move: Option<Usi>,
    side_to_move: Side,
    in_check: bool,
    dests: &'a Dests,
    drops: &'a Drops,
    promotions: &'a Promotions,
    clocks: Option<&'a ClocksView>,
    status: &'a StatusView,
    impasse: &'a ImpasseView,
    connected: &'a ConnectedView,
    takeback: &'a TakebackView,
    computer: Option<&'a ComputerView>,
}

/// What the computer is doing while it is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ComputerView {
    /// Its search runs.
    Thinking,
    /// Its search waits for a free search thread.
    Queued {
        /// How many searches waited before it when it joined the queue.
        ahead: usize,
    },
}

/// Why a WebSocket message was refused, beside the English words: the
/// fields `code` and its parameters (docs/PROTOCOL.md, "Server → client").
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ErrorDetail {
    /// A move the rules refuse (code `illegal_move`): its rule and square.
    Move(Refusal),
    /// Any other refusal.
    Other {
        /// `not_your_turn`, `game_over`, `bad_message`, ...
        code: &'static str,
        /// The code's parameters (`reason` of `game_over`, ...).
        #[serde(flatten)]
        params: serde_json::Map<String, serde_json::Value>,
    },
}

impl ErrorDetail {
    /// A refusal without parameters.
    #[must_use]
    pub fn code(code: &'static str) -> ErrorDetail {
        ErrorDetail::Other {
            code,
            params: serde_json::Map::new(),
        }
    }
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
        /// Why, in English words.
        message: &'a str,
        /// Why, as a code (and its parameters) a client words itself.
        #[serde(flatten)]
        detail: ErrorDetail,
    },
    /// The answer to a ping.
    Pong,
}

/// One move of an annotated tree, as the record JSON writes it (`time` and
/// other fields are ignored: times come from the stored record).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
pub struct AnnotatedNode {
    /// The move in USI (checked against the record, so kept as sent).
    pub usi: String,
    /// Its comments, one line each.
    #[serde(default)]
    pub comments: Vec<String>,
    /// Lines replacing this move.
    #[serde(default)]
    pub variations: Vec<Vec<AnnotatedNode>>,
}

/// The annotations of a record, as stored.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
pub struct Annotations {
    /// Comments before the first move.
    #[serde(default)]
    pub start_comments: Vec<String>,
    /// One entry per main-line move, in order.
    pub nodes: Vec<AnnotatedNode>,
}

/// `PUT /api/games/{id}/annotations` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnnotationsRequest {
    /// A seat token of the game, or the owner token of the imported record.
    pub token: String,
    /// Comments before the first move.
    #[serde(default)]
    pub start_comments: Vec<String>,
    /// The main line with its comments and variations.
    pub nodes: Vec<AnnotatedNode>,
}

/// The evaluation of one position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Eval {
    /// The position after this many moves.
    pub ply: usize,
    /// Sente's view, centipawns (±10000 for a mate).
    pub score_cp: i32,
    /// Plies to mate, positive when Sente mates.
    pub mate: Option<i32>,
    /// The engine's move in USI (`null` when there is no legal move).
    pub best_move: Option<String>,
}

/// Where an analysis stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AnalysisStatus {
    /// Never asked for.
    None,
    /// Waiting for the worker.
    Queued,
    /// Being evaluated.
    Running,
    /// Every position evaluated.
    Done,
}

impl AnalysisStatus {
    /// The JSON word.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            AnalysisStatus::None => "none",
            AnalysisStatus::Queued => "queued",
            AnalysisStatus::Running => "running",
            AnalysisStatus::Done => "done",
        }
    }
}

impl FromStr for AnalysisStatus {
    type Err = ();
    fn from_str(s: &str) -> Result<AnalysisStatus, ()> {
        [
            AnalysisStatus::None,
            AnalysisStatus::Queued,
            AnalysisStatus::Running,
            AnalysisStatus::Done,
        ]
        .into_iter()
        .find(|a| a.name() == s)
        .ok_or(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn status(e: Option<Ending>) -> serde_json::Value {
        serde_json::to_value(StatusView::of(e)).unwrap()
    }

    #[test]
    fn endings_become_the_documented_status() {
        assert_eq!(
            status(None),
            json!({"over": false, "winner": null, "reason": null})
        );
        // A resignation names the resigner as loser, whoever was to move.
        assert_eq!(
            status(Some(Ending::Resignation { loser: Color::Gote })),
            json!({"over": true, "winner": "sente", "reason": "resign"})
        );
        assert_eq!(
            status(Some(Ending::Try {
                winner: Color::Gote
            })),
            json!({"over": true, "winner": "gote", "reason": "try"})
        );
        assert_eq!(
            status(Some(Ending::Repetition)),
            json!({"over": true, "winner": null, "reason": "repetition"})
        );
        assert_eq!(
            status(Some(Ending::Foul {
                loser: Color::Sente,
                foul: Foul::FalseDeclaration
            })),
            json!({"over": true, "winner": "gote", "reason": "impasse",
                   "foul": {"kind": "false_declaration"}})
        );
    }

    #[test]
    fn settings_keep_their_stored_json_words() {
        let stored = r#"{"rules":{"impasse":"27","illegal":"lose","max_moves":null},
            "time":null,"ai":{"side":"gote","level":3},"handicap":"rook"}"#;
        let s: Settings = serde_json::from_str(stored).unwrap();
        assert_eq!(s.rules.impasse, ImpasseRule::Csa27);
        assert_eq!(s.handicap, StartChoice::Handicap(Handicap::Rook));
        let back = serde_json::to_value(&s).unwrap();
        assert_eq!(back["rules"]["impasse"], "27");
        assert_eq!(back["handicap"], "rook");
        let custom: StartChoice = "custom".parse().unwrap();
        assert_eq!(custom.to_string(), "custom");
    }
}
