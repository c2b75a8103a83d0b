//! The USI engine the bridge plays with, a subprocess driven through
//! `shogi_engine::usi_client`: `usi`/`usiok` and the `setoption`s at the
//! start, `isready`/`readyok` and `usinewgame` before each game, `position`
//! and `go` on each of its turns (read without blocking, so that the server
//! is watched while it thinks), `stop` when a game ends during its turn,
//! `gameover win|lose|draw` after each game and `quit` when it is dropped.
//!
//! What it says while thinking is kept for the floodgate comment: the last
//! `score cp N` / `score mate N` and `pv`, preferring an exact score to a
//! bound.

use std::time::{Duration, Instant};

use shogi_core::Move;
use shogi_engine::usi_client::{ClientError, EngineCommand, UsiClient};

/// How long the engine may take to answer `usi` and `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a stopped search may take to give its `bestmove`.
const STOP_TIMEOUT: Duration = Duration::from_secs(10);

/// An evaluation from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `score cp N`: centipawns.
    Cp(i32),
    /// `score mate N`: the mover mates in N plies (N < 0: is mated in -N);
    /// `mate +` / `mate -` without a count read as 1 / -1.
    Mate(i32),
}

impl Score {
    /// The score of an `info` line's words after `score` (`cp 35`,
    /// `mate -4`, `cp 10 lowerbound`).
    fn parse(words: &[&str]) -> Option<Score> {
        match words {
            ["cp", n, ..] => n.parse().ok().map(Score::Cp),
            ["mate", "+", ..] => Some(Score::Mate(1)),
            ["mate", "-", ..] => Some(Score::Mate(-1)),
            ["mate", n, ..] => n.parse().ok().map(Score::Mate),
            _ => None,
        }
    }
}

/// The engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bestmove {
    /// A move.
    Move(Move),
    /// `bestmove resign`.
    Resign,
    /// `bestmove win`: it declares a win by impasse.
    Win,
    /// Anything else, as written.
    Unreadable(String),
}

impl Bestmove {
    fn parse(word: &str) -> Bestmove {
        match word {
            "resign" => Bestmove::Resign,
            "win" => Bestmove::Win,
            w => w
                .parse()
                .map_or_else(|_| Bestmove::Unreadable(w.to_owned()), Bestmove::Move),
        }
    }
}

/// A finished search: its answer and what it last said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The answer.
    pub bestmove: Bestmove,
    /// The last score it gave.
    pub score: Option<Score>,
    /// The last principal variation it gave, as USI moves (the first is
    /// normally the best move).
    pub pv: Vec<String>,
}

/// What the `info` lines of the search in progress said: the last score
/// and variation, those of an exact score once there is one (a
/// `lowerbound` / `upperbound` line after it, a fail high or low with a
/// cut variation, is passed over).
#[derive(Debug, Default)]
struct Search {
    score: Option<Score>,
    pv: Vec<String>,
    exact: bool,
}

impl Search {
    fn read_info(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let bound = words
            .iter()
            .any(|w| *w == "lowerbound" || *w == "upperbound");
        if (bound && self.exact) || words.get(1) == Some(&"string") {
            return;
        }
        if let Some(i) = words.iter().position(|w| *w == "score") {
            self.exact = !bound;
            if let Some(s) = Score::parse(&words[i + 1..]) {
                self.score = Some(s);
            }
        }
        if let Some(i) = words.iter().position(|w| *w == "pv") {
            self.pv = words[i + 1..].iter().map(|w| (*w).to_owned()).collect();
        }
    }
}

/// How a game ended for the engine (`gameover`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOver {
    /// `gameover win`.
    Win,
    /// `gameover lose`.
    Lose,
    /// `gameover draw`.
    Draw,
}

/// A running engine.
pub struct Engine {
    client: UsiClient,
    search: Option<Search>,
}

impl Engine {
    /// Starts the engine and completes the handshake.
    ///
    /// # Errors
    /// If it cannot be started or does not answer `usi` and `isready`.
    pub fn start(command: &EngineCommand) -> Result<Engine, ClientError> {
        Ok(Engine {
            client: UsiClient::start(command, HANDSHAKE_TIMEOUT)?,
            search: None,
        })
    }

    /// Its `id name`, or its program's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.client.name
    }

    /// `isready` (waiting for `readyok`), then `usinewgame`.
    ///
    /// # Errors
    /// If it does not answer.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.client.ready(HANDSHAKE_TIMEOUT)?;
        self.client.new_game()?;
        Ok(())
    }

    /// Starts a search: `position_command` (`position startpos moves ...`)
    /// and `go_command` (`go btime ...`).
    ///
    /// # Errors
    /// If its input is closed.
    pub fn go(&mut self, position_command: &str, go_command: &str) -> Result<(), ClientError> {
        self.client.send(position_command)?;
        self.client.send(go_command)?;
        self.search = Some(Search::default());
        Ok(())
    }

    /// Whether a search is under way.
    #[must_use]
    pub fn thinking(&self) -> bool {
        self.search.is_some()
    }

    /// Reads what the engine says for at most `wait`: the search's result
    /// once it gives `bestmove`.
    ///
    /// # Errors
    /// If its output is closed.
    pub fn poll(&mut self, wait: Duration) -> Result<Option<Thought>, ClientError> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.client.recv_line(left)? else {
                return Ok(None);
            };
            let Some(search) = self.search.as_mut() else {
                continue;
            };
            if line.starts_with("info") {
                search.read_info(&line);
            } else if let Some(rest) = line.strip_prefix("bestmove") {
                let word = rest.split_whitespace().next().unwrap_or("resign");
                let search = self.search.take().unwrap_or_default();
                return Ok(Some(Thought {
                    bestmove: Bestmove::parse(word),
                    score: search.score,
                    pv: search.pv,
                }));
            }
            if left.is_zero() {
                return Ok(None);
            }
        }
    }

    /// Stops the search under way, if any, and reads its `bestmove`
    /// (discarded).
    ///
    /// # Errors
    /// If it stopped talking or gives no `bestmove` in time.
    pub fn stop(&mut self) -> Result<(), ClientError> {
        if self.search.is_none() {
            return Ok(());
        }
        self.client.send("stop")?;
        let deadline = Instant::now() + STOP_TIMEOUT;
        while self.search.is_some() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(ClientError::Timeout {
                    name: self.client.name.clone(),
                    expected: "bestmove",
                    waited: STOP_TIMEOUT,
                });
            }
            self.poll(left)?;
        }
        Ok(())
    }

    /// `gameover win|lose|draw`.
    ///
    /// # Errors
    /// If its input is closed.
    pub fn game_over(&mut self, result: GameOver) -> Result<(), ClientError> {
        let word = match result {
            GameOver::Win => "win",
            GameOver::Lose => "lose",
            GameOver::Draw => "draw",
        };
        self.client.game_over(word)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_the_last_exact_score_and_pv() {
        let mut s = Search::default();
        s.read_info("info depth 1 score cp 35 upperbound pv 2g2f");
        assert_eq!(s.score, Some(Score::Cp(35)));
        s.read_info("info depth 1 score cp 30 pv 7g7f 3c3d");
        // A bound after an exact score is passed over.
        s.read_info("info depth 2 nodes 100 score cp -12 lowerbound pv 7g7f");
        assert_eq!(s.score, Some(Score::Cp(30)));
        assert_eq!(s.pv, ["7g7f", "3c3d"]);
        s.read_info("info depth 9 score mate 5 pv 2b3c+ 4a3b");
        assert_eq!(s.score, Some(Score::Mate(5)));
        assert_eq!(s.pv, ["2b3c+", "4a3b"]);
        s.read_info("info score mate - pv");
        assert_eq!(s.score, Some(Score::Mate(-1)));
        assert!(s.pv.is_empty());
        // An `info string` is the engine talking, not searching.
        s.read_info("info string score cp 7 pv 1g1f");
        assert_eq!(s.score, Some(Score::Mate(-1)));
        assert!(s.pv.is_empty());
    }

    #[test]
    fn bestmove_words() {
        assert_eq!(Bestmove::parse("resign"), Bestmove::Resign);
        assert_eq!(Bestmove::parse("win"), Bestmove::Win);
        assert_eq!(
            Bestmove::parse("7g7f"),
            Bestmove::Move("7g7f".parse().unwrap())
        );
        assert_eq!(Bestmove::parse("7g7z"), Bestmove::Unreadable("7g7z".into()));
    }
}
