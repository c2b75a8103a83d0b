//! `shogi user add` (one account, or several programs at once),
//! `shogi user passwd`, `shogi user role` and `shogi user csa-token`: thin calls
//! into `shogi_server::accounts::admin`, the password (where there is one)
//! read from standard input.

use std::io::{BufRead, IsTerminal, Write};

use shogi_server::accounts::{admin, Account, Role};

use crate::args::UserCommand;
use crate::CliError;

/// Runs one `shogi user` command.
pub fn run(c: &UserCommand) -> Result<(), CliError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError(format!("cannot start the runtime: {e}")))?;
    match c {
        UserCommand::Add(a) if a.bot => {
            let db = &a.user.db;
            let names: Vec<String> = std::iter::once(&a.user.name)
                .chain(&a.more)
                .cloned()
                .collect();
            let added = |account: &Account, token: &str| {
                out!("program {} added to {}", account.name, db);
                out!(
                    "CSA token (shown once; LOGIN {} <gamename>,<token>): {token}",
                    account.name
                );
            };
            runtime
                .block_on(admin::add_programs(db, &names, added))
                .map_err(|(name, e)| CliError(format!("cannot add {name}: {e}")))?;
        }
        UserCommand::CsaToken(a) => {
            let token = runtime
                .block_on(admin::csa_token(&a.db, &a.name))
                .map_err(|e| CliError(format!("cannot issue a CSA token to {}: {e}", a.name)))?;
            out!(
                "CSA token of {} (shown once; the old one no longer works): {token}",
                a.name
            );
        }
        UserCommand::Add(a) => {
            let password = read_password()?;
            let db = &a.user.db;
            let account = runtime
                .block_on(admin::add_user(db, &a.user.name, &password, a.role()))
                .map_err(|e| CliError(format!("cannot add {}: {e}", a.user.name)))?;
            let role = match account.role {
                Role::Admin => "administrator",
                Role::Moderator => "moderator",
                Role::Player => "account",
            };
            out!("{role} {} added to {}", account.name, db);
        }
        UserCommand::Role(a) => {
            let name = runtime
                .block_on(admin::set_role(&a.user.db, &a.user.name, a.role))
                .map_err(|e| CliError(format!("cannot set the role of {}: {e}", a.user.name)))?;
            out!("{name} is now {}", a.role);
        }
        UserCommand::Passwd(a) => {
            let password = read_password()?;
            runtime
                .block_on(admin::set_password(&a.db, &a.name, &password))
                .map_err(|e| CliError(format!("cannot set the password of {}: {e}", a.name)))?;
            out!("password of {} set; its sessions ended", a.name);
        }
    }
    Ok(())
}

/// The first line of standard input, without its line ending (a prompt on
/// standard error when it is a terminal; the typed text is not hidden).
fn read_password() -> Result<String, CliError> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprint!("password: ");
        let _ = std::io::stderr().flush();
    }
    let mut line = String::new();
    let read = stdin
        .lock()
        .read_line(&mut line)
        .map_err(|e| CliError(format!("cannot read the password from standard input: {e}")))?;
    if read == 0 {
        return Err(CliError(
            "no password: give it as the first line of standard input".into(),
        ));
    }
    let line = line.strip_suffix('\n').unwrap_or(&line);
    Ok(line.strip_suffix('\r').unwrap_or(line).to_string())
}
