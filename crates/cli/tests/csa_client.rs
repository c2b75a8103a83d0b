//! `shogi csa-client` against `shogi serve --csa-port`: two bridges, each
//! with our own engine at its weakest (`SkillLevel 0`: 500 nodes a move),
//! play a game to a result they agree on, and the game is in the server's
//! archive; a wrong token and a server that is not there are one line on
//! stderr and exit status 2. No assertion depends on how long anything takes.

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long a bridge may take before the test gives up on it (a game of
/// 500-node moves takes seconds; the limit only keeps a broken build from
/// hanging the suite).
const BRIDGE_LIMIT: Duration = Duration::from_secs(600);

struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn shogi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_shogi"))
}

/// A program account in `db`; its CSA token.
fn program(db: &Path, name: &str) -> String {
    let o = shogi()
        .args(["user", "add", name, "--bot", "--db"])
        .arg(db)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let line = text.lines().find(|l| l.starts_with("CSA token")).unwrap();
    line.rsplit(' ').next().unwrap().to_owned()
}

/// How a bridge is given its password.
#[derive(Clone, Copy)]
enum Given {
    /// `--password GAME,TOKEN`.
    Argument,
    /// The environment variable `SHOGI_CSA_PASSWORD`, where other users of
    /// the machine cannot read it.
    Environment,
}

/// `shogi csa-client` for one game as `id` with `password`, our engine at
/// its weakest.
fn bridge(server: &str, id: &str, password: &str) -> Child {
    bridge_given(server, id, password, Given::Argument)
}

/// [`bridge`], the password given as `given` says.
fn bridge_given(server: &str, id: &str, password: &str, given: Given) -> Child {
    let mut command = shogi();
    command
        .args(["csa-client", "--server", server, "--id", id])
        .env_remove("SHOGI_CSA_PASSWORD");
    match given {
        Given::Argument => command.args(["--password", password]),
        Given::Environment => command.env("SHOGI_CSA_PASSWORD", password),
    };
    command
        .args(["--option", "SkillLevel=0", "--option", "USI_Hash=16"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The child's output once it ends (killed after [`BRIDGE_LIMIT`]).
fn finish(mut child: Child) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > BRIDGE_LIMIT {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// One bridge's game line, read: (game id, Sente, Gote, outcome, reason,
/// moves, colour).
#[derive(Debug)]
struct Line {
    id: String,
    players: String,
    outcome: String,
    reason: String,
    moves: usize,
    colour: String,
}

fn game_line(text: &str) -> Line {
    // game 1/1 <id>: <sente> vs <gote>: <outcome> <reason>, <n> moves, as <colour>
    let rest = text.strip_prefix("game 1/1 ").expect(text);
    let (id, rest) = rest.split_once(": ").expect(text);
    let (players, rest) = rest.split_once(": ").expect(text);
    let (result, rest) = rest.split_once(", ").expect(text);
    let (outcome, reason) = result.split_once(' ').expect(text);
    let (moves, colour) = rest.split_once(" moves, as ").expect(text);
    Line {
        id: id.to_owned(),
        players: players.to_owned(),
        outcome: outcome.to_owned(),
        reason: reason.to_owned(),
        moves: moves.parse().expect(text),
        colour: colour.to_owned(),
    }
}

/// A plain HTTP GET: the status and the body.
fn get(addr: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    (
        head.split(' ').nth(1).unwrap().parse().unwrap(),
        body.to_owned(),
    )
}

#[test]
fn two_bridges_play_one_game_to_one_result_kept_in_the_archive() {
    let dir = Dir(std::env::temp_dir().join(format!("shogi-csa-client-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let db = dir.0.join("shogi.db");
    let token_a = program(&db, "bridge-a");
    let token_b = program(&db, "bridge-b");
    let (_server, http, csa) =
        support::serve_with_csa(db.as_os_str(), &["--port", "0", "--csa-port", "0"]);

    let a = bridge(&csa, "bridge-a", &format!("test-0-10,{token_a}"));
    // The second bridge reads its token from the environment.
    let b = bridge_given(
        &csa,
        "bridge-b",
        &format!("test-0-10,{token_b}"),
        Given::Environment,
    );
    let (a, b) = (finish(a), finish(b));
    for o in [&a, &b] {
        assert!(
            o.status.success(),
            "{:?}: {}{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let lines = |o: &Output| -> Vec<String> {
        String::from_utf8(o.stdout.clone())
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    };
    let (lines_a, lines_b) = (lines(&a), lines(&b));
    assert_eq!(lines_a.len(), 2, "{lines_a:?}");
    assert_eq!(lines_b.len(), 2, "{lines_b:?}");
    let (ga, gb) = (game_line(&lines_a[0]), game_line(&lines_b[0]));

    // The same game, seen from its two sides.
    assert_eq!(ga.id, gb.id);
    assert_eq!(ga.players, gb.players);
    assert!(
        ga.players == "bridge-a vs bridge-b" || ga.players == "bridge-b vs bridge-a",
        "{ga:?}"
    );
    let mut colours = [ga.colour.as_str(), gb.colour.as_str()];
    colours.sort_unstable();
    assert_eq!(colours, ["Gote", "Sente"]);
    assert_eq!(ga.moves, gb.moves);
    assert_eq!(ga.reason, gb.reason);
    let outcomes = (ga.outcome.as_str(), gb.outcome.as_str());
    assert!(
        matches!(
            outcomes,
            ("#WIN", "#LOSE") | ("#LOSE", "#WIN") | ("#DRAW", "#DRAW") | ("#CENSORED", "#CENSORED")
        ),
        "{ga:?} {gb:?}"
    );
    for (line, g) in [(&lines_a[1], &ga), (&lines_b[1], &gb)] {
        let counted = match g.outcome.as_str() {
            "#WIN" => "1 wins, 0 losses, 0 draws",
            "#LOSE" => "0 wins, 1 losses, 0 draws",
            _ => "0 wins, 0 losses, 1 draws",
        };
        assert!(
            line.starts_with(&format!("summary: 1 games, {counted}, 0 unfinished;")),
            "{line}"
        );
    }

    // The server stored it: its record has the moves both bridges counted.
    let (status, record) = get(&http, &format!("/api/games/{}/record?format=csa", ga.id));
    assert_eq!(status, 200, "{record}");
    assert!(record.contains("N+bridge-"), "{record}");
    let moves = record
        .lines()
        .filter(|l| l.len() >= 7 && l.starts_with(['+', '-']) && l.as_bytes()[1].is_ascii_digit())
        .count();
    assert_eq!(moves, ga.moves, "{record}");
    // Floodgate comments are on by default and kept with the moves.
    assert!(ga.moves > 0, "{ga:?}");
    assert!(record.contains("\n'* "), "{record}");

    // A wrong token: LOGIN:incorrect, one line, exit status 2.
    let o = finish(bridge(&csa, "bridge-a", "test-0-10,wrong"));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("shogi: game 1/1: LOGIN:incorrect for bridge-a"),
        "{err}"
    );
}

#[test]
fn no_server_is_one_line_and_exit_status_2() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let o = finish(bridge(&format!("127.0.0.1:{port}"), "bot", "test-0-10,x"));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "shogi: game 1/1: cannot connect to 127.0.0.1:{port}"
        )),
        "{err}"
    );
    assert!(o.stdout.is_empty());

    let o = shogi()
        .args(["csa-client", "--server", "127.0.0.1:1", "--id", "b@d"])
        .args(["--password", "x,y"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("shogi: bad --id"));
}
