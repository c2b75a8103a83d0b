//! The room's read model: the state of a game as every viewer sees it
//! ([`GameView`] and its parts), the players as shown beside the board, in
//! the lobby and in lists ([`PlayerView`]), a program's note on its move
//! ([`NoteView`], also in the review's record), the answer to a join
//! ([`Joined`]), and the `state` and `diff` messages serialised once per
//! change for all the connections that receive them ([`StateText`]).
//!
//! The room builds these views (`room::view`) and the handlers send them as
//! they are; they live with the games rather than with the wire in `api`
//! because the rooms, the lobby and the players make them, and nothing
//! outside `api` may use `api`. The JSON names are `docs/PROTOCOL.md`'s.

use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use serde::{Deserialize, Serialize};
use shogi_core::{Ending, Foul, ImpasseRule, Move, Position};

use crate::board::dests::{Dests, Drops, Promotions};
use crate::csa::note::{Note, Score};
use crate::game::ending::nifu_file;
use crate::game::text::as_text;
use crate::game::{reason_word, rule_code, EventPlace, Mode, RulesView, Seat, Side};

/// The answer to a join. The room makes it and the handler sends it as
/// it is, so it lives here with the room's views, not in `api`'s wire.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Joined {
    /// The invitee's token.
    pub token: String,
    /// The invitee's seat.
    pub side: Side,
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
// The wire has one flag per kind of seat (`guest`, `computer`, `bot`) and
// `provisional`; old clients read them as they are.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    /// The name.
    pub name: String,
    /// A guest's seat.
    pub guest: bool,
    /// The computer's seat.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub computer: bool,
    /// A program's account (it plays over CSA); sent only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    /// The rating (rounded), for accounts in games with a clock.
    pub rating: Option<i64>,
    /// Whether the rating is still provisional.
    pub provisional: bool,
    /// The amateur rank of the rating (`3k`, `1d`).
    pub rank: Option<String>,
}

impl Eq for PlayerView {}

/// One player's rating change in a rated game that ended: the ratings
/// before and after it, rounded, and the difference of the two as shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RatingChangeView {
    /// The rating before the game.
    pub before: i64,
    /// The rating after it.
    pub after: i64,
    /// `after - before`.
    pub delta: i64,
}

/// Both players' rating changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RatingChangesView {
    /// Sente's.
    pub sente: RatingChangeView,
    /// Gote's.
    pub gote: RatingChangeView,
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

/// A program's note on one of its moves (a CSA program's `'*` comment,
/// [`crate::csa::note`]): its evaluation from Sente's point of view and the
/// line it expects after the move. Exactly one of `score` and `mate` is set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NoteView {
    /// The move's number (1 for the first move).
    pub ply: u32,
    /// Centipawns, positive when Sente stands better (`None`: a mate).
    pub score: Option<i32>,
    /// The mate the program sees (`None`: an evaluation).
    pub mate: Option<MateView>,
    /// The expected line from the position after the move (USI in JSON).
    #[serde(serialize_with = "usi_list")]
    pub pv: Vec<Move>,
}

/// A mate a program sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MateView {
    /// The side that mates.
    pub winner: Side,
    /// In how many plies (`None`: the program did not say).
    pub plies: Option<u32>,
}

impl NoteView {
    /// The note of move `ply` as shown.
    #[must_use]
    pub fn of(ply: u32, note: &Note) -> NoteView {
        let (score, mate) = match note.score {
            Score::Centipawns(cp) => (Some(cp), None),
            Score::Mate { winner, plies } => (
                None,
                Some(MateView {
                    winner: winner.into(),
                    plies,
                }),
            ),
        };
        NoteView {
            ply,
            score,
            mate,
            pv: note.pv.clone(),
        }
    }

    /// The note the kept comment `comment` makes on move `ply`, `mv`,
    /// played in `before`; `None` when the comment is not an evaluation
    /// (it stays the move's comment in the record).
    #[must_use]
    pub fn read(ply: u32, comment: &str, before: &Position, mv: Move) -> Option<NoteView> {
        Note::read(comment, before, mv)
            .ok()
            .map(|note| NoteView::of(ply, &note))
    }
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
    /// The rating changes of a rated game that ended and changed ratings.
    pub rating_change: Option<RatingChangesView>,
    /// The event, round and board of a tournament game, and whether it
    /// allows chat and takebacks (absent for other games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<EventPlace>,
    /// Which players are connected.
    pub connected: ConnectedView,
    /// A standing takeback proposal.
    pub takeback: TakebackView,
    /// The computer's search while it is to move: thinking, or waiting for a search thread.
    pub computer: Option<ComputerView>,
    /// The programs' notes on their moves, by ply, only for the moves that
    /// have one (absent when none has). Shared with the room, not copied.
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "shared_list")]
    pub notes: Vec<Arc<NoteView>>,
    /// How the game ended, as the rules say it (the JSON says it as
    /// `status`; the CSA edge translates it to its own words).
    #[serde(skip)]
    pub ending: Option<Ending>,
    /// The time the last move took, in milliseconds, if it was played
    /// while this room ran (the CSA edge's `,T<seconds>`).
    #[serde(skip)]
    pub last_move_ms: Option<u64>,
}

/// What a change did to a game, which decides whether a `diff` can carry it
/// (docs/PROTOCOL.md, "Diffs").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A move was played: the last of the view's moves.
    Move,
    /// Only what a `diff` carries changed (an ending without a move, the
    /// rating change, the clocks, a proposal, who is connected, the computer's search); the
    /// moves, seats, players and rules are as they were.
    Diff,
    /// Anything else (a seat taken, a takeback): only a full `state` says it.
    Full,
}

/// Moves as a JSON list of USI texts, written without a `String` each.
fn usi_list<S: serde::Serializer>(moves: &[Move], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(moves.iter().map(|m| Usi(*m)))
}

/// Shared values as a JSON list of the values.
#[allow(clippy::ptr_arg)] // serde's `serialize_with` passes the field itself
fn shared_list<S: serde::Serializer, T: Serialize>(
    items: &Vec<Arc<T>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(items.iter().map(|i| &**i))
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
/// This is why the `state` message is written here and not with the
/// wire's other messages in `api`: the room serialises, the connections
/// only send.
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
            let full = serde_json::to_string(&StateMessage {
                kind: "state",
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
                rating_change: v.rating_change.as_ref(),
                impasse: &v.impasse,
                connected: &v.connected,
                takeback: &v.takeback,
                computer: v.computer.as_ref(),
                note: match self.change {
                    Change::Move => v
                        .notes
                        .last()
                        .filter(|n| u32::try_from(v.moves.len()).ok() == Some(n.ply))
                        .map(|n| &**n),
                    _ => None,
                },
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

/// The `state` message: the [`GameView`] with `type` first and the
/// connection's seat `you` last. Written here, beside the `diff`, and not
/// with the wire's other messages in `api`, because the room serialises it
/// once per change for every connection ([`StateText`]).
#[derive(Serialize)]
struct StateMessage<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    view: &'a GameView,
    you: Option<Seat>,
}

/// The fields of a `state` that a `diff` replaces (docs/PROTOCOL.md,
/// "Diffs"); a diff also carries `type`, `ply` and `move`.
pub const DIFF_FIELDS: [&str; 14] = [
    "sfen",
    "last_move",
    "side_to_move",
    "in_check",
    "dests",
    "drops",
    "promotions",
    "clocks",
    "status",
    "rating_change",
    "impasse",
    "connected",
    "takeback",
    "computer",
];

/// The `diff` message: what changed in a [`GameView`] since the state or
/// diff before; everything not here (the id, mode, start, rules, seats,
/// players, rated) is as it was, `moves` grows by `move` if there is one,
/// and `notes` by `note`, the note of that move if it has one.
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
    rating_change: Option<&'a RatingChangesView>,
    impasse: &'a ImpasseView,
    connected: &'a ConnectedView,
    takeback: &'a TakebackView,
    computer: Option<&'a ComputerView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a NoteView>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::Color;

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
}
