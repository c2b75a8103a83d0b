//! [`UsiClient`]: drives an external USI engine process (ours or anyone's)
//! for the match runner.
//!
//! A reader thread forwards every line the engine prints to a channel, so a
//! slow or silent engine can be timed out instead of blocking the match.
//!
//! ```no_run
//! use shogi_engine::usi_client::{EngineCommand, UsiClient};
//! use std::time::Duration;
//! let cmd = EngineCommand::parse("shogi usi")?;
//! let mut engine = UsiClient::start(&cmd, Duration::from_secs(10))?;
//! engine.new_game()?;
//! let reply = engine.go("position startpos", "go byoyomi 100", Duration::from_secs(5))?;
//! println!("{}", reply.bestmove);
//! # Ok::<_, shogi_engine::usi_client::ClientError>(())
//! ```

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How to start an engine: a program, its arguments and USI options to set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// `setoption name N value V` pairs sent after `usiok`.
    pub options: Vec<(String, String)>,
}

impl EngineCommand {
    /// Splits a command line on white space: `"shogi usi"`, `"./engine --flag"`.
    ///
    /// # Errors
    /// [`ClientError::EmptyCommand`] for an empty line.
    pub fn parse(line: &str) -> Result<EngineCommand, ClientError> {
        let mut words = line.split_whitespace();
        let program = words.next().ok_or(ClientError::EmptyCommand)?;
        Ok(EngineCommand {
            program: PathBuf::from(program),
            args: words.map(str::to_string).collect(),
            options: Vec::new(),
        })
    }
}

/// What can go wrong talking to an engine.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// No program given.
    #[error("empty engine command")]
    EmptyCommand,
    /// The program could not be started.
    #[error("cannot start engine {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// The engine closed its output or could not be written to.
    #[error("engine {0} stopped talking")]
    Disconnected(String),
    /// The engine did not answer in time.
    #[error("engine {name} did not answer {expected:?} within {waited:?}")]
    Timeout {
        /// The engine's name.
        name: String,
        /// What was awaited.
        expected: &'static str,
        /// How long we waited.
        waited: Duration,
    },
}

/// The engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoReply {
    /// The token after `bestmove`: a USI move, `resign` or `win`.
    pub bestmove: String,
    /// Wall time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The last `score cp N` / `score mate N` seen, as text.
    pub last_score: Option<String>,
    /// The node count of the last `info ... nodes N` seen.
    pub last_nodes: Option<u64>,
}

/// A running USI engine.
pub struct UsiClient {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The `id name` the engine gave, or the program name.
    pub name: String,
}

impl UsiClient {
    /// Starts the engine and completes the handshake (`usi`/`usiok`, options,
    /// `isready`/`readyok`), waiting at most `timeout` for each answer.
    ///
    /// # Errors
    /// If the program cannot start or does not answer.
    pub fn start(cmd: &EngineCommand, timeout: Duration) -> Result<UsiClient, ClientError> {
        let program = cmd.program.display().to_string();
        let mut child = Command::new(&cmd.program)
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| ClientError::Spawn {
                program: program.clone(),
                source,
            })?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| ClientError::Disconnected(program.clone()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| ClientError::Disconnected(program.clone()))?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut client = UsiClient {
            child,
            stdin,
            lines: rx,
            name: program,
        };
        client.send("usi")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = client.recv_until(deadline, "usiok")?;
            if let Some(name) = line.strip_prefix("id name ") {
                client.name = name.trim().to_string();
            }
            if line.trim() == "usiok" {
                break;
            }
        }
        for (name, value) in &cmd.options {
            client.send(&format!("setoption name {name} value {value}"))?;
        }
        client.ready(timeout)?;
        Ok(client)
    }

    /// Sends one line.
    ///
    /// # Errors
    /// If the engine's input is closed.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| ClientError::Disconnected(self.name.clone()))
    }

    /// The next line the engine prints, waiting at most `wait` (`None`: no
    /// line came), for a caller that watches something else between lines
    /// (`shogi csa-client` reads its server while the engine thinks).
    ///
    /// # Errors
    /// [`ClientError::Disconnected`] once the engine's output is closed.
    pub fn recv_line(&mut self, wait: Duration) -> Result<Option<String>, ClientError> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(Some(line)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => {
                Err(ClientError::Disconnected(self.name.clone()))
            }
        }
    }

    fn recv_until(
        &mut self,
        deadline: Instant,
        expected: &'static str,
    ) -> Result<String, ClientError> {
        let now = Instant::now();
        let wait = deadline.saturating_duration_since(now);
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout {
                name: self.name.clone(),
                expected,
                waited: wait,
            }),
            Err(RecvTimeoutError::Disconnected) => {
                Err(ClientError::Disconnected(self.name.clone()))
            }
        }
    }

    /// `isready` and wait for `readyok`.
    ///
    /// # Errors
    /// If the engine does not answer within `timeout`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self.recv_until(deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// `usinewgame`.
    ///
    /// # Errors
    /// If the engine's input is closed.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send("usinewgame")
    }

    /// Sends `position_line` and `go_line` and waits up to `timeout` for `bestmove`.
    /// On a timeout the engine is told to `stop` and its late `bestmove` is read
    /// and discarded, so the engine can be used again.
    ///
    /// # Errors
    /// [`ClientError::Timeout`] when no `bestmove` came in time.
    pub fn go(
        &mut self,
        position_line: &str,
        go_line: &str,
        timeout: Duration,
    ) -> Result<GoReply, ClientError> {
        self.send(position_line)?;
        self.send(go_line)?;
        let start = Instant::now();
        let deadline = start + timeout;
        let mut last_score = None;
        let mut last_nodes = None;
        loop {
            let line = match self.recv_until(deadline, "bestmove") {
                Ok(line) => line,
                Err(e @ ClientError::Timeout { .. }) => {
                    let _ = self.send("stop");
                    let grace = Instant::now() + Duration::from_secs(2);
                    while let Ok(l) = self.recv_until(grace, "bestmove") {
                        if l.starts_with("bestmove") {
                            break;
                        }
                    }
                    return Err(e);
                }
                Err(e) => return Err(e),
            };
            if let Some(i) = line.find("score ") {
                let score: Vec<&str> = line[i + 6..].split_whitespace().take(2).collect();
                last_score = Some(score.join(" "));
            }
            let mut words = line.split_whitespace();
            if line.starts_with("info") && words.any(|w| w == "nodes") {
                if let Some(n) = words.next().and_then(|n| n.parse().ok()) {
                    last_nodes = Some(n);
                }
            }
            if let Some(rest) = line.strip_prefix("bestmove") {
                let bestmove = rest
                    .split_whitespace()
                    .next()
                    .unwrap_or("resign")
                    .to_string();
                return Ok(GoReply {
                    bestmove,
                    elapsed: start.elapsed(),
                    last_score,
                    last_nodes,
                });
            }
        }
    }

    /// Tells the engine the result (`gameover win|lose|draw`).
    ///
    /// # Errors
    /// If the engine's input is closed.
    pub fn game_over(&mut self, result: &str) -> Result<(), ClientError> {
        self.send(&format!("gameover {result}"))
    }
}

impl Drop for UsiClient {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
