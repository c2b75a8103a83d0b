//! `shogi csa-client`: a bridge from a USI engine (ours by default) to a
//! CSA protocol server such as floodgate or `shogi serve --csa-port`.
//!
//! For each of `--games` games it connects, logs in, waits for a
//! `Game_Summary`, agrees, plays the engine's moves to the result, logs out
//! and prints one line; then a summary line (`report` says their form). The
//! parts: [`protocol`] reads the server's lines and [`summary`] its
//! `Game_Summary`, [`game`] keeps one game's position, clocks ([`clock`])
//! and result, [`usi`] drives the engine, [`comment`] writes floodgate's
//! evaluation comment, [`connection`] is the TCP side and [`session`] plays
//! one game over one connection.
//! docs/CSA.md has the flags and an example.

mod clock;
mod comment;
mod connection;
mod game;
mod protocol;
mod report;
mod session;
mod summary;
mod usi;

use std::time::Duration;

use crate::args::CsaClientArgs;
use crate::engine::engine_command;
use crate::CliError;

use report::Tally;
use session::Settings;
use usi::Engine;

/// A LOGIN id: letters, digits, `_` and `-`, at most 32 bytes (the
/// protocol's rule).
fn id_ok(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 32
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Plays the games and prints their lines and the summary.
pub fn run(a: &CsaClientArgs) -> Result<(), CliError> {
    if !id_ok(&a.id) {
        return Err(CliError(format!(
            "bad --id {:?}: letters, digits, _ and - only, at most 32",
            a.id
        )));
    }
    if a.password.is_empty() || !a.password.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(CliError(
            "bad --password: printable ASCII without spaces, such as GAME,TOKEN".into(),
        ));
    }
    let mut command = engine_command(None, &a.options)?;
    if let Some(program) = &a.engine {
        command.program.clone_from(program);
        command.args.clone_from(&a.engine_args);
    }
    let mut engine = Engine::start(&command).map_err(|e| CliError(e.to_string()))?;
    let settings = Settings {
        server: a.server.clone(),
        id: a.id.clone(),
        password: a.password.clone(),
        margin_ms: a.margin_ms,
        keep_alive: Some(Duration::from_secs(a.keep_alive)),
        comments: a.floodgate_comments,
    };
    let mut tally = Tally::default();
    for index in 1..=a.games {
        let report = session::play(&settings, &mut engine)
            .map_err(|e| CliError(format!("game {index}/{}: {e}", a.games)))?;
        out!("{}", report.line(index, a.games));
        tally.add(&report);
    }
    out!("{}", tally.line());
    Ok(())
}
