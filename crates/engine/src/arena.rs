//! The match runner behind `shogi match`: plays USI engines against each
//! other and judges every game with our own rules core.
//!
//! Each opening is played twice, once with each engine as Sente. Games run
//! on `concurrency` worker threads, each with its own pair of engine
//! processes. The referee is [`shogi_core::Game`]: an illegal move, a wrong
//! `bestmove win` or running out of time loses; checkmate, no legal move,
//! repetition and perpetual check, the impasse rule and the move limit end
//! the game as the rules say.
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
use shogi_core::{ByColor, Color, Game, GameRules, GameStatus, Move, Position};

use crate::elo::{Sprt, SprtVerdict, Tally};
use crate::usi_client::{ClientError, EngineCommand, UsiClient};

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

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The rules ended it (checkmate, repetition, impasse, ...): the status word.
    Rules(&'static str),
    /// A player resigned.
    Resign,
    /// A player declared impasse (`bestmove win`); whether rightly is in the result.
    Declaration {
        /// Whether the declaration was valid.
        valid: bool,
    },
    /// A player played an illegal or unreadable move.
    IllegalMove(String),
    /// A player ran out of time.
    TimeLoss,
    /// A player's process failed.
    Crash(String),
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Index of the game in the match.
    pub index: usize,
    /// Which engine (0 or 1) played Sente.
    pub sente_engine: usize,
    /// The winner's colour, or `None` for a draw.
    pub winner: Option<Color>,
    /// How it ended.
    pub termination: Termination,
    /// The start position and moves, as `position` text.
    pub record: PositionCommand,
    /// Per engine, the least time left on its clock after a reply in this
    /// game (milliseconds; negative: late but within the margin), `None`
    /// without a clock or when it did not move.
    pub least_time_left_ms: [Option<i64>; 2],
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
    /// The result from engine 0's point of view: 1, ½ or 0.
    #[must_use]
    pub fn score_of_first(&self) -> f64 {
        match self.winner {
            None => 0.5,
            Some(c) => {
                let first_color = if self.sente_engine == 0 {
                    Color::Sente
                } else {
                    Color::Gote
                };
                if c == first_color {
                    1.0
                } else {
                    0.0
                }
            }
        }
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
    /// Per engine, how much it searched over the match.
    pub effort: [Effort; 2],
}

/// Why a match could not run.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// An engine could not be started.
    #[error(transparent)]
    Engine(#[from] ClientError),
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
                        if sprt.verdict(&s.tally) != SprtVerdict::Continue {
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
    if let Some(winner) = r.winner {
        let loser_color = winner.opponent();
        let loser_engine = if loser_color == Color::Sente {
            r.sente_engine
        } else {
            1 - r.sente_engine
        };
        match r.termination {
            Termination::TimeLoss => s.time_losses[loser_engine] += 1,
            Termination::IllegalMove(_) => s.illegal_moves[loser_engine] += 1,
            Termination::Crash(_) => s.crashes[loser_engine] += 1,
            _ => {}
        }
    }
    for (least, game) in s.least_time_left_ms.iter_mut().zip(r.least_time_left_ms) {
        *least = match (*least, game) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
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

fn play_game(
    config: &MatchConfig,
    index: usize,
    sente_engine: usize,
    opening: &PositionCommand,
    clients: &mut [Option<UsiClient>; 2],
) -> GameResult {
    let rules = GameRules {
        impasse: config.impasse,
        max_moves: Some(config.max_moves + opening.moves.len() as u32),
        illegal_move_loses: true,
        ..GameRules::default()
    };
    let (mut game, _) = opening.replay(rules);
    let main_ms = match config.time {
        TimeControl::Byoyomi { main_ms, .. } | TimeControl::Fischer { main_ms, .. } => main_ms,
        _ => 0,
    };
    let mut clocks = ByColor::new(Clock { main_ms }, Clock { main_ms });
    // As GUIs do: `isready` (the engine prepares, off the clock), then `usinewgame`.
    for c in clients.iter_mut().flatten() {
        let _ = c.ready(Duration::from_secs(30));
        let _ = c.new_game();
    }
    let engine_of = |color: Color| {
        if color == Color::Sente {
            sente_engine
        } else {
            1 - sente_engine
        }
    };
    let mut least_left: [Option<i64>; 2] = [None, None];
    let mut effort = [Effort::default(); 2];
    let finish =
        |game: &Game,
         winner: Option<Color>,
         termination: Termination,
         (least_time_left_ms, effort): ([Option<i64>; 2], [Effort; 2])| GameResult {
            index,
            sente_engine,
            winner,
            termination,
            record: PositionCommand {
                start: game.start().clone(),
                moves: game.moves().to_vec(),
            },
            least_time_left_ms,
            effort,
        };
    let result = loop {
        let status = game.status();
        if status != GameStatus::Ongoing {
            let mover = game.position().side_to_move();
            let winner = status.outcome(mover).and_then(|o| o.winner);
            break finish(
                &game,
                winner,
                Termination::Rules(status.word()),
                (least_left, effort),
            );
        }
        let us = game.position().side_to_move();
        let e = engine_of(us);
        let position_line = format!(
            "position {}",
            PositionCommand {
                start: game.start().clone(),
                moves: game.moves().to_vec()
            }
            .to_usi()
        );
        let go = go_line(config.time, &clocks);
        let allowance = match config.time {
            TimeControl::Byoyomi { byoyomi_ms, .. } => clocks[us].main_ms + byoyomi_ms,
            TimeControl::Fischer { .. } => clocks[us].main_ms,
            TimeControl::Nodes(_) | TimeControl::Depth(_) => 600_000,
        };
        let timeout =
            Duration::from_millis(allowance) + config.time_margin + Duration::from_secs(1);
        let Some(client) = clients[e].as_mut() else {
            break finish(
                &game,
                Some(us.opponent()),
                Termination::Crash("no engine".into()),
                (least_left, effort),
            );
        };
        let reply = match client.go(&position_line, &go, timeout) {
            Ok(r) => r,
            Err(ClientError::Timeout { .. }) => {
                break finish(
                    &game,
                    Some(us.opponent()),
                    Termination::TimeLoss,
                    (least_left, effort),
                )
            }
            Err(err) => {
                clients[e] = None;
                break finish(
                    &game,
                    Some(us.opponent()),
                    Termination::Crash(err.to_string()),
                    (least_left, effort),
                );
            }
        };
        if !matches!(config.time, TimeControl::Nodes(_) | TimeControl::Depth(_)) {
            let used = i64::try_from(reply.elapsed.as_millis()).unwrap_or(i64::MAX);
            let left = i64::try_from(allowance).unwrap_or(i64::MAX) - used;
            least_left[e] = Some(least_left[e].map_or(left, |l| l.min(left)));
        }
        effort[e].add(Effort {
            moves: 1,
            nodes: reply.last_nodes.unwrap_or(0),
            think_ms: u64::try_from(reply.elapsed.as_millis()).unwrap_or(u64::MAX),
        });
        if !charge(
            config.time,
            &mut clocks[us],
            reply.elapsed,
            config.time_margin,
        ) {
            break finish(
                &game,
                Some(us.opponent()),
                Termination::TimeLoss,
                (least_left, effort),
            );
        }
        match reply.bestmove.as_str() {
            "resign" => {
                break finish(
                    &game,
                    Some(us.opponent()),
                    Termination::Resign,
                    (least_left, effort),
                )
            }
            "win" => {
                let verdict =
                    impasse::judge(game.position(), config.impasse, game.impasse_credit());
                let valid = verdict == Some(ImpasseVerdict::Win);
                let winner = if valid { us } else { us.opponent() };
                break finish(
                    &game,
                    Some(winner),
                    Termination::Declaration { valid },
                    (least_left, effort),
                );
            }
            text => {
                let played = text
                    .parse::<Move>()
                    .map_err(|e| e.to_string())
                    .and_then(|m| game.play(m).map_err(|e| e.to_string()));
                if let Err(why) = played {
                    break finish(
                        &game,
                        Some(us.opponent()),
                        Termination::IllegalMove(format!("{text}: {why}")),
                        (least_left, effort),
                    );
                }
            }
        }
    };
    for (i, c) in clients.iter_mut().enumerate() {
        if let Some(c) = c {
            let color = if i == sente_engine {
                Color::Sente
            } else {
                Color::Gote
            };
            let word = match result.winner {
                None => "draw",
                Some(w) if w == color => "win",
                Some(_) => "lose",
            };
            let _ = c.game_over(word);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

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
