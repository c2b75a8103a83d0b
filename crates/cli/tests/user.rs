//! `shogi user add` and `shogi user passwd`: accounts made from the command
//! line log in through the server's library.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use shogi_server::accounts::{Account, Accounts, Role};
use shogi_server::db::Store;

/// Runs `shogi` with `stdin` as its standard input.
fn shogi(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shogi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run shogi");
    // A run refused before it reads its input has closed it: not an error.
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Logs in with the library on the database at `db`.
fn login(db: &Path, name: &str, password: &str) -> Option<Account> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let store = Store::open(&shogi_server::Location::from(db))
            .await
            .unwrap();
        let result = Accounts::new(store.clone()).login(name, password).await;
        store.close().await;
        result.ok().map(|(account, _)| account)
    })
}

struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn user_add_and_passwd_take_the_password_from_stdin() {
    let dir = Dir(std::env::temp_dir().join(format!("shogi-user-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let db = dir.0.join("shogi.db");
    let db_arg = db.to_str().unwrap();

    let o = shogi(&["user", "add", "Алиса", "--db", db_arg], "secret words\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let o = shogi(
        &["user", "add", "root", "--admin", "--db", db_arg],
        "admin words\r\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));

    let o = shogi(
        &["user", "add", "mod", "--moderator", "--db", db_arg],
        "moderator words\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));

    let alice = login(&db, "алиса", "secret words").expect("Алиса logs in");
    assert_eq!((alice.name.as_str(), alice.role), ("Алиса", Role::Player));
    assert_eq!(login(&db, "root", "admin words").unwrap().role, Role::Admin);
    assert_eq!(
        login(&db, "mod", "moderator words").unwrap().role,
        Role::Moderator
    );
    // `user role` takes no password.
    let o = shogi(&["user", "role", "алиса", "moderator", "--db", db_arg], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        login(&db, "Алиса", "secret words").unwrap().role,
        Role::Moderator
    );
    let o = shogi(&["user", "role", "Алиса", "player", "--db", db_arg], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(login(&db, "Алиса", "secret words\n").is_none());

    let o = shogi(
        &["user", "passwd", "АЛИСА", "--db", db_arg],
        "other words\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(login(&db, "Алиса", "secret words").is_none());
    assert!(login(&db, "Алиса", "other words").is_some());

    // Errors: one line, exit status 2.
    for (args, stdin, says) in [
        (vec!["user", "add", "алиса"], "secret words\n", "name taken"),
        (
            vec!["user", "add", "bob"],
            "short\n",
            "a password has 8-256 characters",
        ),
        (
            vec!["user", "add", "b c"],
            "secret words\n",
            "a name has only letters",
        ),
        (vec!["user", "add", "bob"], "", "no password"),
        (vec!["user", "role", "bob", "king"], "", "unknown role"),
        (
            vec!["user", "role", "nobody", "admin"],
            "",
            "no such account",
        ),
        (
            vec!["user", "passwd", "nobody"],
            "secret words\n",
            "no such account",
        ),
    ] {
        let args = [args.as_slice(), &["--db", db_arg]].concat();
        let o = shogi(&args, stdin);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(
            e.starts_with("shogi: ") && e.contains(says),
            "{args:?}: {e}"
        );
    }
}

/// Whether `token` is program `name`'s CSA token, asked through the library.
fn program_login(db: &Path, name: &str, token: &str) -> bool {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let store = Store::open(&shogi_server::Location::from(db))
            .await
            .unwrap();
        let found = Accounts::new(store.clone())
            .program_login(name, token)
            .await
            .unwrap();
        store.close().await;
        found.is_some_and(|p| p.name == name)
    })
}

/// The token at the end of the line of `out` that mentions "token".
fn token_in(out: &Output) -> String {
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("token"))
        .expect("a token line");
    line.rsplit(' ').next().unwrap().to_owned()
}

#[test]
fn user_add_bot_prints_a_csa_token_and_csa_token_replaces_it() {
    let dir = Dir(std::env::temp_dir().join(format!("shogi-bot-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let db = dir.0.join("u.db");
    let db_arg = db.to_str().unwrap();
    // No password is read for a program.
    let added = shogi(&["user", "add", "mybot", "--bot", "--db", db_arg], "");
    assert!(added.status.success(), "{}", stderr(&added));
    let first = token_in(&added);
    assert!(program_login(&db, "mybot", &first));
    assert!(!program_login(&db, "mybot", "not-the-token"));
    let again = shogi(&["user", "csa-token", "mybot", "--db", db_arg], "");
    assert!(again.status.success(), "{}", stderr(&again));
    let second = token_in(&again);
    assert_ne!(first, second);
    assert!(program_login(&db, "mybot", &second));
    assert!(
        !program_login(&db, "mybot", &first),
        "the old token stops working"
    );
    // A person's account is not a program until given a token.
    let person = shogi(
        &["user", "add", "alice", "--db", db_arg],
        "a long password\n",
    );
    assert!(person.status.success(), "{}", stderr(&person));
    assert!(!program_login(&db, "alice", &second));
}

/// Each `CSA token` line's program name and token, in order.
fn tokens_in(out: &Output) -> Vec<(String, String)> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("CSA token (shown once; LOGIN ")?;
            let (name, _) = rest.split_once(' ')?;
            let (_, token) = rest.rsplit_once(' ')?;
            Some((name.to_owned(), token.to_owned()))
        })
        .collect()
}

#[test]
fn user_add_bot_makes_several_programs_in_one_run() {
    let dir = Dir(std::env::temp_dir().join(format!("shogi-bots-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let db = dir.0.join("u.db");
    let db_arg = db.to_str().unwrap();
    let added = shogi(
        &[
            "user", "add", "bot1", "bot2", "bot3", "--bot", "--db", db_arg,
        ],
        "",
    );
    assert!(added.status.success(), "{}", stderr(&added));
    let tokens = tokens_in(&added);
    let names: Vec<&str> = tokens.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["bot1", "bot2", "bot3"]);
    for (name, token) in &tokens {
        assert!(program_login(&db, name, token), "{name}");
    }
    // A name taken stops the run there: the programs before it are made
    // and their tokens shown; one line on stderr, exit status 2.
    let o = shogi(
        &[
            "user", "add", "bot4", "bot2", "bot5", "--bot", "--db", db_arg,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.starts_with("shogi: cannot add bot2: ") && e.contains("name taken"),
        "{e}"
    );
    let made = tokens_in(&o);
    assert_eq!(made.len(), 1, "{made:?}");
    assert!(program_login(&db, "bot4", &made[0].1));
    // A malformed name makes none.
    let o = shogi(&["user", "add", "bot6", "b c", "--bot", "--db", db_arg], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(tokens_in(&o).is_empty());
    // Several names are for programs only (a person's password is typed).
    let o = shogi(
        &["user", "add", "carol", "dave", "--db", db_arg],
        "a long password\n",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
