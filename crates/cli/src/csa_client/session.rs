//! One game on one connection: `LOGIN`, the `Game_Summary`, `AGREE`,
//! `START`, the moves (the engine thinks on this client's turns while the
//! server is watched, so that a game ending meanwhile stops the search),
//! the result lines, `gameover` to the engine, and `LOGOUT`.
//!
//! A server keeps a program logged in after a game, and ours takes `LOGIN`
//! only as a connection's first command, so each game has a connection of
//! its own: after `LOGOUT:completed` the bridge waits for the server to
//! close it, which on ours means the login is released and the next
//! `LOGIN` of the same id is not refused as a second one.

use std::time::{Duration, Instant};

use shogi_engine::usi_client::ClientError;

use super::connection::{Connection, ConnectionError};
use super::game::{Desync, Game};
use super::protocol::{ProtocolError, ServerLine};
use super::report::GameReport;
use super::summary::{GameSummary, SummaryError, SummaryReader};
use super::usi::{Bestmove, Engine};

/// How long connecting may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the engine is read at a time while it thinks, between looks at
/// the server.
const POLL: Duration = Duration::from_millis(5);
/// How long one wait for the server lasts (the keep-alive goes on inside).
const WAIT: Duration = Duration::from_secs(3600);
/// How long the server has to answer `LOGIN` (ours closes a connection
/// that has not logged in after 60 s).
const LOGIN_WAIT: Duration = Duration::from_secs(60);
/// How long the server has to answer `LOGOUT` and close the connection.
const LOGOUT_WAIT: Duration = Duration::from_secs(10);
/// How long past its time on the server's clock the engine may think
/// before the bridge gives up on it (the server should have ended the game
/// long before).
const ENGINE_GRACE: Duration = Duration::from_secs(60);

/// How to reach the server and play.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `HOST:PORT`.
    pub server: String,
    /// `LOGIN`'s id.
    pub id: String,
    /// `LOGIN`'s password (`game,token`).
    pub password: String,
    /// Kept back from the engine's time (see `clock`).
    pub margin_ms: u64,
    /// The silence after which an empty line is sent (`None`: never).
    pub keep_alive: Option<Duration>,
    /// Whether moves carry floodgate's evaluation comment.
    pub comments: bool,
}

/// Why a game could not be played to its end.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// Connecting, reading or writing failed.
    #[error(transparent)]
    Connection(#[from] ConnectionError),
    /// No answer to `LOGIN`.
    #[error("no answer to LOGIN within {} s", LOGIN_WAIT.as_secs())]
    NoLoginAnswer,
    /// `LOGIN:incorrect`.
    #[error(
        "LOGIN:incorrect for {0}: a wrong token or password, an account that is not a \
         program's, a bad game name, the id logged in elsewhere, or too many logins"
    )]
    LoginIncorrect(String),
    /// The server sent a line that cannot be read.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// The server sent a `Game_Summary` that cannot be read.
    #[error(transparent)]
    Summary(#[from] SummaryError),
    /// The server and the bridge disagree about the game.
    #[error(transparent)]
    Desync(#[from] Desync),
    /// The engine failed.
    #[error(transparent)]
    Engine(#[from] ClientError),
    /// The engine thought far longer than its clock allowed.
    #[error("engine {name} gave no move in {secs} s, long past its time on the server's clock")]
    EngineTimeout {
        /// The engine's name.
        name: String,
        /// How long it was given.
        secs: u64,
    },
    /// The server closed the connection before the game's result.
    #[error("the server closed the connection during game {0}, before its result")]
    ClosedInGame(String),
}

/// Plays one game on a new connection, to its result (or its rejection).
///
/// # Errors
/// See [`SessionError`]. An engine that fails during the game resigns it
/// first (`%TORYO`), so that the opponent is not kept waiting.
pub fn play(settings: &Settings, engine: &mut Engine) -> Result<GameReport, SessionError> {
    let mut conn = Connection::open(&settings.server, CONNECT_TIMEOUT, settings.keep_alive)?;
    conn.send(&format!("LOGIN {} {}", settings.id, settings.password))?;
    login(&mut conn, &settings.id)?;
    let mut game = Game::new(summary(&mut conn)?)?;
    engine.new_game()?;
    conn.send("AGREE")?;
    if let Some(by) = started(&mut conn)? {
        logout(&mut conn);
        return Ok(game.rejected(&by));
    }
    let played = moves(&mut conn, engine, &mut game, settings);
    if played.is_err() && !game.is_over() {
        let _ = conn.send("%TORYO");
    }
    played?;
    engine.stop()?;
    engine.game_over(game.game_over())?;
    logout(&mut conn);
    Ok(game.report())
}

/// Waits for the answer to `LOGIN`.
fn login(conn: &mut Connection, id: &str) -> Result<(), SessionError> {
    let deadline = Instant::now() + LOGIN_WAIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Some(line) = conn.recv(left)? else {
            return Err(SessionError::NoLoginAnswer);
        };
        match ServerLine::parse(&line) {
            Ok(ServerLine::LoginOk) => return Ok(()),
            Ok(ServerLine::LoginIncorrect) => return Err(SessionError::LoginIncorrect(id.into())),
            _ => {}
        }
    }
}

/// Waits for a `Game_Summary` (as long as it takes an opponent to come)
/// and reads it.
fn summary(conn: &mut Connection) -> Result<GameSummary, SessionError> {
    loop {
        let Some(line) = conn.recv(WAIT)? else {
            continue;
        };
        if let Ok(ServerLine::SummaryBegin) = ServerLine::parse(&line) {
            break;
        }
    }
    let mut reader = SummaryReader::default();
    loop {
        let Some(line) = conn.recv(WAIT)? else {
            continue;
        };
        if let Some(summary) = reader.push(&line)? {
            return Ok(summary);
        }
    }
}

/// Waits for `START` (`None`) or `REJECT` (`Some(by)`).
fn started(conn: &mut Connection) -> Result<Option<String>, SessionError> {
    loop {
        let Some(line) = conn.recv(WAIT)? else {
            continue;
        };
        match ServerLine::parse(&line) {
            Ok(ServerLine::Start(_)) => return Ok(None),
            Ok(ServerLine::Reject { by, .. }) => return Ok(Some(by)),
            _ => {}
        }
    }
}

/// Plays the moves to the game's end.
fn moves(
    conn: &mut Connection,
    engine: &mut Engine,
    game: &mut Game,
    settings: &Settings,
) -> Result<(), SessionError> {
    let mut thinking_since = Instant::now();
    while !game.is_over() {
        if game.our_turn() && !engine.thinking() {
            engine.go(
                &game.position_command(),
                &game.go_command(settings.margin_ms),
            )?;
            thinking_since = Instant::now();
        }
        let wait = if engine.thinking() {
            if let Some(thought) = engine.poll(POLL)? {
                if let Bestmove::Unreadable(word) = &thought.bestmove {
                    eprintln!(
                        "shogi: engine {} answered `bestmove {word}`: resigning game {}",
                        engine.name(),
                        game.summary().game_id
                    );
                }
                // A failed write: the server has closed the connection (a
                // loss on time); the lines it sent before say so.
                let _ = conn.send(&game.answer(&thought, settings.comments));
            } else if thinking_since.elapsed() > game.allowance() + ENGINE_GRACE {
                return Err(SessionError::EngineTimeout {
                    name: engine.name().to_owned(),
                    secs: thinking_since.elapsed().as_secs(),
                });
            }
            Duration::ZERO
        } else {
            WAIT
        };
        // What the server said meanwhile (all of it, then wait no more).
        let mut wait = wait;
        loop {
            let line = match conn.recv(wait) {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(ConnectionError::Closed) if !game.is_over() => {
                    return Err(SessionError::ClosedInGame(game.summary().game_id.clone()))
                }
                Err(ConnectionError::Closed) => break,
                Err(e) => return Err(e.into()),
            };
            game.read(&ServerLine::parse(&line)?)?;
            if game.is_over() {
                break;
            }
            wait = Duration::ZERO;
        }
    }
    Ok(())
}

/// `LOGOUT`, then waits (a little) for the server to close the connection;
/// a server that has closed it already is fine.
fn logout(conn: &mut Connection) {
    if conn.send("LOGOUT").is_err() {
        return;
    }
    let deadline = Instant::now() + LOGOUT_WAIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match conn.recv(left) {
            Ok(Some(_)) if !left.is_zero() => {}
            _ => return,
        }
    }
}
