//! The match runner behind `shogi match`: plays USI engines against each
//! other and judges every game with our own rules core.
//!
//! Each opening is played twice, once with each engine as Sente. Games run
//! on `concurrency` worker threads, each with its own pair of engine
//! processes. The referee is [`shogi_core::Game`]: an illegal move, a wrong
//! `bestmove win` or running out of time loses; checkmate, no legal move,
//! repetition and perpetual check, the impasse rule and the move limit end
//! the game as the rules say. Every game ends with a
//! [`shogi_core::Ending`]; an engine that crashes is the one thing beyond
//! the rules: the game is an [`Ending::Abort`] with a [`Crash`], scored as
//! the crashed engine's loss.
//!
//! ```no_run
//! use shogi_engine::arena::{self, MatchConfig, TimeControl};
//! use shogi_engine::usi_client::EngineCommand;
//! let config = MatchConfig {
//!     engines: [EngineCommand::parse("shogi usi")?, EngineCommand::parse("shogi usi")?],
//!     games: 4,
//!     time: TimeControl::Byoyomi { main_ms: 0, byoyomi_ms: 100 },
//!     ..MatchConfig::default()
//! };
//! let summary = arena::run(&config, |_game, _tally| {})?;
//! println!("{:?}", summary.tally);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use shogi_core::impasse::{self, ImpasseRule, ImpasseVerdict};
use shogi_core::usi::PositionCommand;
use shogi_core::{ByColor, Color, Ending, Foul, Game, GameRules, Move, PlayError, Position};

use crate::elo::{Sprt, SprtVerdict, Tally};
use crate::usi_client::{ClientError, EngineCommand, GoReply, UsiClient};

/// How long each side may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Main time, then a fixed allowance per move.
    Byoyomi {
        /// Main time in ms.
        main_ms: u64,
        /// Per-move allowance after the main time, in ms.
        byoyomi_ms: u64,
    },
    /// Main time plus an increment after each move.
    Fischer {
        /// Main time in ms.
        main_ms: u64,
        /// Increment in ms.
        increment_ms: u64,
    },
    /// A node limit per move (`go nodes N`), no clock.
    Nodes(u64),
    /// A depth limit per move (`go depth N`), no clock.
    Depth(u32),
}

/// A match to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are from the first one's point of view.
    pub engines: [EngineCommand; 2],
    /// Number of games (rounded up to whole opening pairs).
    pub games: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// The time control.
    pub time: TimeControl,
    /// Openings as USI position text (`startpos moves ...`, `sfen ...`); each is
    /// played twice with colours swapped. Empty: the start position.
    pub openings: Vec<PositionCommand>,
    /// The impasse rule the referee applies (and `bestmove win` is judged by).
    pub impasse: ImpasseRule,
    /// A draw after this many moves (counted from the opening's start).
    pub max_moves: u32,
    /// Extra time allowed beyond the clock before a move counts as too late.
    pub time_margin: Duration,
    /// Stop starting games once this test reaches a verdict (games already
    /// under way are finished and counted).
    pub sprt: Option<Sprt>,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        let ours = EngineCommand::parse("shogi usi").expect("non-empty");
        MatchConfig {
            engines: [ours.clone(), ours],
            games: 2,
            concurrency: 1,
            time: TimeControl::Byoyomi {
                main_ms: 0,
                byoyomi_ms: 100,
            },
            openings: Vec::new(),
            impasse: ImpasseRule::Csa27,
            max_moves: 320,
            time_margin: Duration::from_millis(200),
            sprt: None,
        }
    }
}

/// An engine process that failed during a game (it could not be asked for
/// a move, or it died or hung up while thinking).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crash {
    /// The side whose engine failed; the game is scored as its loss.
    pub loser: Color,
    /// What went wrong.
    pub error: String,
}

impl std::fmt::Display for Crash {
    /// `crash of Sente's engine: <error>`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "crash of {:?}'s engine: {}", self.loser, self.error)
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Index of the game in the match.
    pub index: usize,
    /// Which engine (0 or 1) played Sente.
    pub sente_engine: usize,
    /// How it ended: a rules ending ([`Game::ending`]), a resignation, a
    /// flag fallen ([`Ending::Timeout`]), a foul (an illegal or unreadable
    /// move, a false `bestmove win`), a valid `bestmove win`
    /// ([`Ending::Impasse`]); [`Ending::Abort`] when an engine crashed (see
    /// [`GameResult::crash`]).
    pub ending: Ending,
    /// Set when an engine crashed: the game has no result by the rules
    /// (its ending is [`Ending::Abort`]) but is scored as a loss for the
    /// side that crashed.
    pub crash: Option<Crash>,
    /// The start position and moves, as `position` text.
    pub record: PositionCommand,
    /// Per engine, the least time left on its clock after a reply in this
    /// game (milliseconds; negative: late but within the margin), `None`
    /// without a clock or when it did not move.
    pub least_time_left_ms: [Option<i64>; 2],
    /// Per engine, its replies in this game that came after the clock ran
    /// out but within the margin: each would have lost on time under a
    /// referee without [`MatchConfig::time_margin`].
    pub late_moves: [u32; 2],
    /// Per engine, how much it searched in this game.
    pub effort: [Effort; 2],
}

/// How much an engine searched: its moves, the nodes its last `info` line
/// reported for each, and the wall time from `go` to `bestmove`. Compares
/// the engines' search speed under the same clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// Moves played.
    pub moves: u64,
    /// Sum over the moves of the reported node counts.
    pub nodes: u64,
    /// Sum over the moves of the time taken, in milliseconds.
    pub think_ms: u64,
}

impl Effort {
    fn add(&mut self, other: Effort) {
        self.moves += other.moves;
        self.nodes += other.nodes;
        self.think_ms += other.think_ms;
    }

    /// Mean nodes per move (0 before the first move).
    #[must_use]
    pub fn nodes_per_move(&self) -> u64 {
        self.nodes.checked_div(self.moves).unwrap_or(0)
    }

    /// Mean milliseconds per move (0 before the first move).
    #[must_use]
    pub fn ms_per_move(&self) -> u64 {
        self.think_ms.checked_div(self.moves).unwrap_or(0)
    }
}

impl GameResult {
    /// The winner's colour, `None` for a draw: the ending's winner, or the
    /// opponent of an engine that crashed.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        match &self.crash {
            Some(crash) => Some(crash.loser.opponent()),
            None => self.ending.winner(),
        }
    }

    /// Which engine (0 or 1) played `color`.
    #[must_use]
    pub fn engine_of(&self, color: Color) -> usize {
        engine_of(self.sente_engine, color)
    }

    /// The result from engine 0's point of view: 1, ½ or 0.
    #[must_use]
    pub fn score_of_first(&self) -> f64 {
        match self.winner() {
            None => 0.5,
            Some(c) if self.engine_of(c) == 0 => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// Which engine (0 or 1) plays `color` when engine `sente_engine` is Sente.
fn engine_of(sente_engine: usize, color: Color) -> usize {
    if color == Color::Sente {
        sente_engine
    } else {
        1 - sente_engine
    }
}

/// The outcome of a whole match.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    /// Every game, in the order they finished.
    pub games: Vec<GameResult>,
    /// Wins, losses, draws of engine 0.
    pub tally: Tally,
    /// Games lost on time, by engine.
    pub time_losses: [u32; 2],
    /// Games lost by an illegal move, by engine.
    pub illegal_moves: [u32; 2],
    /// Games lost by a crash, by engine.
    pub crashes: [u32; 2],
    /// Per engine, the least time left on its clock after any reply of the
    /// match (milliseconds; negative: late but within the margin).
    pub least_time_left_ms: [Option<i64>; 2],
    /// Per engine, its replies over the match that came after the clock ran
    /// out but within the margin ([`GameResult::late_moves`]).
    pub late_moves: [u32; 2],
    /// Per engine, how much it searched over the match.
    pub effort: [Effort; 2],
    /// The SPRT's verdict and engine 0's tally when it stopped the match.
    /// Games already under way then still finish and count in `tally`, so
    /// the final tally's LLR may fall back inside the bounds; the decision
    /// is this one.
    pub sprt_stop: Option<(SprtVerdict, Tally)>,
}

/// Why a match could not run.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// An engine could not be started.
    #[error(transparent)]
    Engine(#[from] ClientError),
    /// At a fixed number of nodes or a fixed depth the engines play the
    /// same game again from the same opening and colours, so games past
    /// two per opening would only count earlier games twice.
    #[error(
        "{games} games at a fixed {limit} would play some games twice, move for move: \
         {openings} opening(s) with both colours make {max} different games; \
         ask for at most {max} games or give more openings"
    )]
    RepeatedGames {
        /// Games asked for.
        games: usize,
        /// Openings given (the start position alone counts as one).
        openings: usize,
        /// Games that are all different: two per opening.
        max: usize,
        /// `node count` or `depth`.
        limit: &'static str,
    },
}

/// A small balanced set of short openings (both sides' common first moves),
/// each a few plies from the start position.
pub const OPENINGS: &str = include_str!("openings.txt");

/// Reads an opening list: one USI position line per line (`startpos moves ...`,
/// `sfen ... moves ...`); blank lines and `#` comments are skipped.
///
/// # Errors
/// The first line that is not a position, with its 1-based line number.
pub fn parse_openings(text: &str) -> Result<Vec<PositionCommand>, (usize, String)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            l.trim()
                .parse::<PositionCommand>()
                .map_err(|e| (i + 1, e.to_string()))
        })
        .collect()
}

/// Plays the match; `progress` is called after every game with it and the tally so far.
///
/// # Errors
/// If an engine cannot be started at all.
pub fn run<F>(config: &MatchConfig, progress: F) -> Result<MatchSummary, MatchError>
where
    F: Fn(&GameResult, &MatchSummary) + Sync,
{
    let openings = if config.openings.is_empty() {
        vec![PositionCommand {
            start: Position::startpos(),
            moves: Vec::new(),
        }]
    } else {
        config.openings.clone()
    };
    let total = config.games.div_ceil(2) * 2;
    let limit = match config.time {
        TimeControl::Nodes(_) => Some("node count"),
        TimeControl::Depth(_) => Some("depth"),
        TimeControl::Byoyomi { .. } | TimeControl::Fischer { .. } => None,
    };
    if let Some(limit) = limit.filter(|_| total > 2 * openings.len()) {
        return Err(MatchError::RepeatedGames {
            games: total,
            openings: openings.len(),
            max: 2 * openings.len(),
            limit,
        });
    }
    let next = AtomicUsize::new(0);
    let decided = AtomicBool::new(false);
    let summary = Mutex::new(MatchSummary::default());
    let first_error: Mutex<Option<MatchError>> = Mutex::new(None);
    let handshake = Duration::from_secs(30);
    let openings = Arc::new(openings);
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            scope.spawn(|| {
                let mut clients: [Option<UsiClient>; 2] = [None, None];
                loop {
                    if decided.load(Ordering::SeqCst) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= total {
                        break;
                    }
                    for (i, slot) in clients.iter_mut().enumerate() {
                        if slot.is_none() {
                            match UsiClient::start(&config.engines[i], handshake) {
                                Ok(c) => *slot = Some(c),
                                Err(e) => {
                                    first_error
                                        .lock()
                                        .expect("lock")
                                        .get_or_insert(MatchError::Engine(e));
                                    return;
                                }
                            }
                        }
                    }
                    let opening = &openings[(index / 2) % openings.len()];
                    let sente_engine = index % 2;
                    let result = play_game(config, index, sente_engine, opening, &mut clients);
                    let mut s = summary.lock().expect("lock");
                    record(&mut s, &result);
                    if let Some(sprt) = &config.sprt {
                        let verdict = sprt.verdict(&s.tally);
                        if verdict != SprtVerdict::Continue && s.sprt_stop.is_none() {
                            s.sprt_stop = Some((verdict, s.tally));
                            decided.store(true, Ordering::SeqCst);
                        }
                    }
                    progress(&result, &s);
                }
            });
        }
    });
    if let Some(e) = first_error.into_inner().expect("lock") {
        let s = summary.into_inner().expect("lock");
        if s.games.is_empty() {
            return Err(e);
        }
        return Ok(s);
    }
    Ok(summary.into_inner().expect("lock"))
}

fn record(s: &mut MatchSummary, r: &GameResult) {
    match r.score_of_first() {
        x if x > 0.75 => s.tally.wins += 1,
        x if x < 0.25 => s.tally.losses += 1,
        _ => s.tally.draws += 1,
    }
    if let Some(crash) = &r.crash {
        s.crashes[r.engine_of(crash.loser)] += 1;
    }
    match r.ending {
        Ending::Timeout { loser } => s.time_losses[r.engine_of(loser)] += 1,
        Ending::Foul {
            loser,
            foul: Foul::Move { .. } | Foul::UnreadableMove,
        } => s.illegal_moves[r.engine_of(loser)] += 1,
        _ => {}
    }
    for (least, game) in s.least_time_left_ms.iter_mut().zip(r.least_time_left_ms) {
        *least = match (*least, game) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    for (total, game) in s.late_moves.iter_mut().zip(r.late_moves) {
        *total += game;
    }
    for (total, game) in s.effort.iter_mut().zip(r.effort) {
        total.add(game);
    }
    s.games.push(r.clone());
}

/// Remaining clock of one side.
#[derive(Clone, Copy, Debug)]
struct Clock {
    main_ms: u64,
}

fn go_line(time: TimeControl, clocks: &ByColor<Clock>) -> String {
    match time {
        TimeControl::Byoyomi { byoyomi_ms, .. } => format!(
            "go btime {} wtime {} byoyomi {byoyomi_ms}",
            clocks.sente.main_ms, clocks.gote.main_ms
        ),
        TimeControl::Fischer { increment_ms, .. } => format!(
            "go btime {} wtime {} binc {increment_ms} winc {increment_ms}",
            clocks.sente.main_ms, clocks.gote.main_ms
        ),
        TimeControl::Nodes(n) => format!("go nodes {n}"),
        TimeControl::Depth(d) => format!("go depth {d}"),
    }
}

/// Charges `elapsed` to `clock`; false if the side ran out of time.
fn charge(time: TimeControl, clock: &mut Clock, elapsed: Duration, margin: Duration) -> bool {
    let used = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
    let margin = u64::try_from(margin.as_millis()).unwrap_or(0);
    match time {
        TimeControl::Byoyomi { byoyomi_ms, .. } => {
            if used <= clock.main_ms {
                clock.main_ms -= used;
                true
            } else {
                let over = used - clock.main_ms;
                clock.main_ms = 0;
                over <= byoyomi_ms + margin
            }
        }
        TimeControl::Fischer { increment_ms, .. } => {
            if used > clock.main_ms + margin {
                return false;
            }
            clock.main_ms = clock.main_ms.saturating_sub(used) + increment_ms;
            true
        }
        TimeControl::Nodes(_) | TimeControl::Depth(_) => true,
    }
}

/// Why [`Referee::turn`] ended a game: an ending, or a crash.
enum Stop {
    /// The game ended.
    Ending(Ending),
    /// An engine failed.
    Crash(Crash),
}

/// One game under way: the rules' game, the clocks, and what each engine
/// has done so far.
struct Referee<'a> {
    config: &'a MatchConfig,
    /// Which engine (0 or 1) plays Sente.
    sente_engine: usize,
    game: Game,
    clocks: ByColor<Clock>,
    /// Per engine, the least time left after a reply.
    least_left: [Option<i64>; 2],
    /// Per engine, the replies that came after the clock ran out but
    /// within the margin.
    late: [u32; 2],
    /// Per engine, how much it searched.
    effort: [Effort; 2],
}

/// Plays game `index` of the match from `opening`, engine `sente_engine`
/// as Sente, with the engines `clients` (a client that crashes is dropped,
/// to be started again for the next game).
fn play_game(
    config: &MatchConfig,
    index: usize,
    sente_engine: usize,
    opening: &PositionCommand,
    clients: &mut [Option<UsiClient>; 2],
) -> GameResult {
    let mut referee = Referee::new(config, sente_engine, opening);
    // As GUIs do: `isready` (the engine prepares, off the clock), then `usinewgame`.
    for c in clients.iter_mut().flatten() {
        let _ = c.ready(Duration::from_secs(30));
        let _ = c.new_game();
    }
    let stop = loop {
        if let Some(ending) = referee.game.ending() {
            break Stop::Ending(ending);
        }
        if let Some(stop) = referee.turn(clients) {
            break stop;
        }
    };
    let result = referee.finish(index, stop);
    tell_result(clients, &result);
    result
}

/// Sends each engine still running `gameover win`, `lose` or `draw`.
fn tell_result(clients: &mut [Option<UsiClient>; 2], result: &GameResult) {
    let winner = result.winner().map(|c| result.engine_of(c));
    for (i, c) in clients.iter_mut().enumerate() {
        if let Some(c) = c {
            let word = match winner {
                None => "draw",
                Some(w) if w == i => "win",
                Some(_) => "lose",
            };
            let _ = c.game_over(word);
        }
    }
}

impl<'a> Referee<'a> {
    /// The game from `opening` under the match's rules, both clocks full.
    fn new(config: &'a MatchConfig, sente_engine: usize, opening: &PositionCommand) -> Self {
        let rules = GameRules {
            impasse: config.impasse,
            max_moves: Some(config.max_moves + opening.moves.len() as u32),
            illegal_move_loses: true,
            ..GameRules::default()
        };
        let (game, _) = opening.replay(rules);
        let main_ms = match config.time {
            TimeControl::Byoyomi { main_ms, .. } | TimeControl::Fischer { main_ms, .. } => main_ms,
            _ => 0,
        };
        Referee {
            config,
            sente_engine,
            game,
            clocks: ByColor::new(Clock { main_ms }, Clock { main_ms }),
            least_left: [None, None],
            late: [0, 0],
            effort: [Effort::default(); 2],
        }
    }

    /// One move: asks the engine to move for the side to move, charges its
    /// clock and plays its reply; `Some` if that ended the game.
    fn turn(&mut self, clients: &mut [Option<UsiClient>; 2]) -> Option<Stop> {
        let us = self.game.position().side_to_move();
        let e = engine_of(self.sente_engine, us);
        let crash = |error: String| Some(Stop::Crash(Crash { loser: us, error }));
        let allowance = self.allowance(us);
        let timeout =
            Duration::from_millis(allowance) + self.config.time_margin + Duration::from_secs(1);
        let Some(client) = clients[e].as_mut() else {
            return crash("no engine".into());
        };
        let position = format!("position {}", self.record().to_usi());
        let go = go_line(self.config.time, &self.clocks);
        let reply = match client.go(&position, &go, timeout) {
            Ok(r) => r,
            Err(ClientError::Timeout { .. }) => {
                return Some(Stop::Ending(Ending::Timeout { loser: us }))
            }
            Err(err) => {
                clients[e] = None;
                return crash(err.to_string());
            }
        };
        self.account(e, allowance, &reply);
        if !charge(
            self.config.time,
            &mut self.clocks[us],
            reply.elapsed,
            self.config.time_margin,
        ) {
            return Some(Stop::Ending(Ending::Timeout { loser: us }));
        }
        self.judge(&reply.bestmove).map(Stop::Ending)
    }

    /// The most time the side to move `us` may take for its move, in ms
    /// (ten minutes without a clock).
    fn allowance(&self, us: Color) -> u64 {
        match self.config.time {
            TimeControl::Byoyomi { byoyomi_ms, .. } => self.clocks[us].main_ms + byoyomi_ms,
            TimeControl::Fischer { .. } => self.clocks[us].main_ms,
            TimeControl::Nodes(_) | TimeControl::Depth(_) => 600_000,
        }
    }

    /// Notes engine `e`'s reply: the time it had left of `allowance`, and
    /// its effort.
    fn account(&mut self, e: usize, allowance: u64, reply: &GoReply) {
        if !matches!(
            self.config.time,
            TimeControl::Nodes(_) | TimeControl::Depth(_)
        ) {
            let used = i64::try_from(reply.elapsed.as_millis()).unwrap_or(i64::MAX);
            let left = i64::try_from(allowance).unwrap_or(i64::MAX) - used;
            self.least_left[e] = Some(self.least_left[e].map_or(left, |l| l.min(left)));
            if left < 0 {
                self.late[e] += 1;
            }
        }
        self.effort[e].add(Effort {
            moves: 1,
            nodes: reply.last_nodes.unwrap_or(0),
            think_ms: u64::try_from(reply.elapsed.as_millis()).unwrap_or(u64::MAX),
        });
    }

    /// Plays the side to move's `bestmove`: `resign`, `win` (an impasse
    /// declaration, judged by the match's rule) or a move, which must be
    /// readable and legal; `Some` if that ended the game.
    fn judge(&mut self, bestmove: &str) -> Option<Ending> {
        let us = self.game.position().side_to_move();
        let foul = |foul| Some(Ending::Foul { loser: us, foul });
        match bestmove {
            "resign" => Some(Ending::Resignation { loser: us }),
            "win" => {
                let verdict = impasse::judge(
                    self.game.position(),
                    self.config.impasse,
                    self.game.impasse_credit(),
                );
                if verdict == Some(ImpasseVerdict::Win) {
                    Some(Ending::Impasse { winner: Some(us) })
                } else {
                    foul(Foul::FalseDeclaration)
                }
            }
            text => {
                let Ok(mv) = text.parse::<Move>() else {
                    return foul(Foul::UnreadableMove);
                };
                match self.game.play(mv) {
                    Ok(()) => None,
                    Err(PlayError::Illegal { mv, reason }) => foul(Foul::Move { mv, reason }),
                    // Not reached: the game is asked for a move only while it goes on.
                    Err(PlayError::GameOver(_)) => self.game.ending(),
                }
            }
        }
    }

    /// The game so far as `position` text.
    fn record(&self) -> PositionCommand {
        PositionCommand {
            start: self.game.start().clone(),
            moves: self.game.moves().to_vec(),
        }
    }

    /// The result of the game, game `index` of the match, ended by `stop`.
    fn finish(self, index: usize, stop: Stop) -> GameResult {
        let (ending, crash) = match stop {
            Stop::Ending(ending) => (ending, None),
            Stop::Crash(crash) => (Ending::Abort, Some(crash)),
        };
        GameResult {
            index,
            sente_engine: self.sente_engine,
            ending,
            crash,
            record: self.record(),
            least_time_left_ms: self.least_left,
            late_moves: self.late,
            effort: self.effort,
        }
    }
}

#[cfg(test)]
mod tests {
    use shogi_core::{GameStatus, IllegalMove};

    use super::*;

    fn start() -> PositionCommand {
        PositionCommand {
            start: Position::startpos(),
            moves: Vec::new(),
        }
    }

    fn result(sente_engine: usize, ending: Ending, crash: Option<Crash>) -> GameResult {
        GameResult {
            index: 0,
            sente_engine,
            ending,
            crash,
            record: start(),
            least_time_left_ms: [None, None],
            late_moves: [0, 0],
            effort: [Effort::default(); 2],
        }
    }

    #[test]
    fn fixed_effort_matches_refuse_to_replay_games() {
        // Two openings: four different games at most, before any engine starts.
        let two = parse_openings("startpos moves 7g7f\nstartpos moves 2g2f\n").unwrap();
        let config = MatchConfig {
            engines: [
                EngineCommand::parse("/nonexistent/engine").unwrap(),
                EngineCommand::parse("/nonexistent/engine").unwrap(),
            ],
            games: 5,
            time: TimeControl::Nodes(1000),
            openings: two,
            ..MatchConfig::default()
        };
        let err = run(&config, |_, _| {}).unwrap_err();
        assert!(matches!(
            err,
            MatchError::RepeatedGames {
                games: 6,
                openings: 2,
                max: 4,
                limit: "node count"
            }
        ));
        assert!(err.to_string().contains("at most 4 games"), "{err}");
        let depth = MatchConfig {
            time: TimeControl::Depth(3),
            openings: Vec::new(),
            games: 3,
            ..config.clone()
        };
        assert!(matches!(
            run(&depth, |_, _| {}),
            Err(MatchError::RepeatedGames { max: 2, .. })
        ));
        // Under a clock the games differ by timing: no limit (the engine
        // cannot start here, which is the error that comes back).
        let clock = MatchConfig {
            time: TimeControl::Byoyomi {
                main_ms: 0,
                byoyomi_ms: 100,
            },
            ..config
        };
        assert!(matches!(run(&clock, |_, _| {}), Err(MatchError::Engine(_))));
    }

    #[test]
    fn replies_become_endings_for_the_side_to_move() {
        let config = MatchConfig::default();
        let mut r = Referee::new(&config, 0, &start());
        assert_eq!(r.judge("7g7f"), None);
        // Gote to move now.
        assert_eq!(
            r.judge("resign"),
            Some(Ending::Resignation { loser: Color::Gote })
        );
        assert_eq!(
            r.judge("win"),
            Some(Ending::Foul {
                loser: Color::Gote,
                foul: Foul::FalseDeclaration
            })
        );
        assert_eq!(
            r.judge("7x7y"),
            Some(Ending::Foul {
                loser: Color::Gote,
                foul: Foul::UnreadableMove
            })
        );
        let Some(Ending::Foul {
            loser: Color::Gote,
            foul: Foul::Move { mv, reason },
        }) = r.judge("5a5c")
        else {
            panic!("an illegal king move is a foul");
        };
        assert_eq!(mv, "5a5c".parse().unwrap());
        assert!(
            matches!(reason, IllegalMove::OwnPieceOnTarget(_)),
            "{reason:?}"
        );
        // The referee's game now says the same.
        assert_eq!(
            r.game.ending(),
            Some(Ending::Foul {
                loser: Color::Gote,
                foul: Foul::Move { mv, reason }
            })
        );
    }

    #[test]
    fn a_valid_declaration_wins_by_impasse() {
        // Sente's king in camp with enough points (CSA 27-point rule).
        let pos = shogi_core::sfen::parse_position(
            "+R+B2K4/+P+P+P+P+P+P+P+P+P/9/9/9/9/9/9/4k4 b RB4G4S4N4L9p 1",
        )
        .unwrap();
        let opening = PositionCommand {
            start: pos,
            moves: Vec::new(),
        };
        let config = MatchConfig::default();
        let mut r = Referee::new(&config, 1, &opening);
        assert_eq!(
            r.judge("win"),
            Some(Ending::Impasse {
                winner: Some(Color::Sente)
            })
        );
    }

    #[test]
    fn summary_counts_losses_by_cause_and_engine() {
        let mut s = MatchSummary::default();
        // Engine 1 (Sente) loses on time; engine 0 (Gote) plays an illegal move.
        record(
            &mut s,
            &result(
                1,
                Ending::Timeout {
                    loser: Color::Sente,
                },
                None,
            ),
        );
        let foul = |foul| Ending::Foul {
            loser: Color::Gote,
            foul,
        };
        record(&mut s, &result(1, foul(Foul::UnreadableMove), None));
        // A false declaration loses but is not an illegal move.
        record(&mut s, &result(1, foul(Foul::FalseDeclaration), None));
        // Engine 0 (Sente) crashes: an abort by the rules, a loss in the tally.
        let crash = Crash {
            loser: Color::Sente,
            error: "gone".into(),
        };
        let crashed = result(0, Ending::Abort, Some(crash));
        assert_eq!(crashed.winner(), Some(Color::Gote));
        assert_eq!(crashed.score_of_first(), 0.0);
        record(&mut s, &crashed);
        record(&mut s, &result(0, Ending::Repetition, None));
        assert_eq!(s.time_losses, [0, 1]);
        assert_eq!(s.illegal_moves, [1, 0]);
        assert_eq!(s.crashes, [1, 0]);
        assert_eq!((s.tally.wins, s.tally.losses, s.tally.draws), (1, 3, 1));
    }

    #[test]
    fn replies_past_the_allowance_count_as_late() {
        let config = MatchConfig::default(); // byoyomi 100 ms, margin 200 ms
        let mut r = Referee::new(&config, 0, &start());
        let reply = |ms| GoReply {
            bestmove: "7g7f".into(),
            elapsed: Duration::from_millis(ms),
            last_score: None,
            last_nodes: Some(1000),
        };
        r.account(0, 100, &reply(80));
        r.account(1, 100, &reply(100)); // on the flag: not late
        r.account(0, 100, &reply(170)); // 70 ms late, within the margin
        r.account(0, 100, &reply(90));
        let result = r.finish(0, Stop::Ending(Ending::Repetition));
        assert_eq!(result.late_moves, [1, 0]);
        assert_eq!(result.least_time_left_ms, [Some(-70), Some(0)]);
        assert_eq!(result.effort[0].moves, 3);
        let mut s = MatchSummary::default();
        record(&mut s, &result);
        record(&mut s, &result);
        assert_eq!(s.late_moves, [2, 0]);
        // Without a clock nothing is late.
        let nodes = MatchConfig {
            time: TimeControl::Nodes(1000),
            ..MatchConfig::default()
        };
        let mut r = Referee::new(&nodes, 0, &start());
        r.account(0, 600_000, &reply(700_000));
        assert_eq!(r.late, [0, 0]);
    }

    #[test]
    fn shipped_openings_are_legal_and_balanced_in_number() {
        let openings = parse_openings(OPENINGS).expect("openings parse");
        assert!(openings.len() >= 16);
        for o in &openings {
            let (game, err) = o.replay(GameRules::default());
            assert!(err.is_none(), "{}: {err:?}", o.to_usi());
            assert_eq!(game.status(), GameStatus::Ongoing);
        }
    }

    #[test]
    fn byoyomi_clock_charges_main_time_then_the_allowance() {
        let tc = TimeControl::Byoyomi {
            main_ms: 1000,
            byoyomi_ms: 100,
        };
        let mut c = Clock { main_ms: 1000 };
        let m = Duration::from_millis(50);
        assert!(charge(tc, &mut c, Duration::from_millis(900), m));
        assert_eq!(c.main_ms, 100);
        assert!(charge(tc, &mut c, Duration::from_millis(240), m));
        assert_eq!(c.main_ms, 0);
        assert!(!charge(tc, &mut c, Duration::from_millis(151), m));
    }

    #[test]
    fn fischer_clock_adds_the_increment() {
        let tc = TimeControl::Fischer {
            main_ms: 1000,
            increment_ms: 500,
        };
        let mut c = Clock { main_ms: 1000 };
        assert!(charge(
            tc,
            &mut c,
            Duration::from_millis(800),
            Duration::ZERO
        ));
        assert_eq!(c.main_ms, 700);
        assert!(!charge(
            tc,
            &mut c,
            Duration::from_millis(800),
            Duration::ZERO
        ));
    }
}
