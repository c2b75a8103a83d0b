//! The `shogi` command as a user runs it.

use std::process::{Command, Output};

fn shogi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shogi"))
        .args(args)
        .output()
        .expect("run shogi")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

const POS207: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

#[test]
fn perft_prints_the_node_count_last() {
    let o = shogi(&["perft", "3"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("Nodes searched: 25470"));
    assert!(stderr(&o).contains("nodes/s"));
    let o = shogi(&["perft", "2", "--sfen", POS207, "--no-bulk"]);
    assert_eq!(stdout(&o).lines().last(), Some("Nodes searched: 28684"));
}

#[test]
fn perft_divide_lists_every_move_with_its_count() {
    let o = shogi(&["perft", "2", "--divide", "--sfen", "startpos"]);
    let out = stdout(&o);
    let mut total = 0;
    let mut lines = 0;
    for line in out
        .lines()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
    {
        let (m, n) = line.split_once(": ").unwrap();
        assert!(m.parse::<shogi_core::Move>().is_ok(), "{m}");
        total += n.parse::<u64>().unwrap();
        lines += 1;
    }
    assert_eq!((lines, total), (30, 900));
    assert_eq!(out.lines().last(), Some("Nodes searched: 900"));
}

#[test]
fn moves_lists_the_legal_moves() {
    let o = shogi(&["moves", "--sfen", "startpos"]);
    assert_eq!(stdout(&o).lines().count(), 30);
    let o = shogi(&[
        "moves",
        "--sfen",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    ]);
    assert_eq!(stdout(&o).lines().count(), 593);
    let o = shogi(&["moves", "--sfen", "startpos", "--moves", "7g7f", "3c3d"]);
    assert!(stdout(&o).lines().any(|l| l == "8h2b+"));
}

fn status(args: &[&str]) -> String {
    let o = shogi(&[&["status"], args].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o).trim().to_string()
}

#[test]
fn status_words() {
    assert_eq!(status(&["--sfen", "startpos"]), "ongoing");
    assert_eq!(
        status(&["--sfen", "startpos", "--moves", "7g7f", "3c3d", "7f7e", "7e7d"]),
        "illegal_move"
    );
    assert_eq!(
        status(&["--sfen", "8k/9/6NG1/9/9/9/9/9/4K4 b G 1", "--moves", "G*1b"]),
        "checkmate"
    );
    assert_eq!(
        status(&["--sfen", "8k/9/6NG1/9/9/9/9/9/4K4 b P 1", "--moves", "P*1b"]),
        "illegal_move"
    );
    assert_eq!(
        status(&["--sfen", "8k/6G2/7G1/9/9/9/9/9/K8 w - 1"]),
        "no_legal_moves"
    );
    let perpetual = "4h5h 5a4a 5h4h 4a5a 4h5h 5a4a 5h4h 4a5a 4h5h 5a4a 5h4h 4a5a";
    let start = "4k4/9/9/9/9/9/9/5R3/4K4 b - 1";
    assert_eq!(
        status(&["--sfen", start, "--moves", perpetual]),
        "perpetual_check_loss"
    );
    assert_eq!(
        status(&["--sfen", start, "--moves", perpetual, "4h5h"]),
        "perpetual_check_win"
    );
    let draw = "2h3h 8b7b 3h2h 7b8b ".repeat(3);
    assert_eq!(
        status(&["--sfen", "startpos", "--moves", &draw]),
        "repetition_draw"
    );
    let entered = "GGGGKSSSS/RB7/9/9/9/9/9/9/4k4 b RB 1";
    assert_eq!(status(&["--sfen", entered]), "impasse_win");
    assert_eq!(
        status(&["--sfen", entered, "--impasse-rule", "24"]),
        "impasse_draw"
    );
    assert_eq!(
        status(&["--sfen", entered, "--impasse-rule", "none"]),
        "ongoing"
    );
    let both = "9/4K4/9/9/9/9/9/4k4/9 b RB13Prb4g4s4n5p 1";
    assert_eq!(
        status(&["--sfen", both, "--impasse-rule", "count24"]),
        "impasse_loss"
    );
    assert_eq!(
        status(&[
            "--sfen",
            "4K4/9/9/9/9/9/9/4k4/9 w - 1",
            "--impasse-rule",
            "try"
        ]),
        "try_loss"
    );
}

#[test]
fn status_explain_says_why_on_stderr() {
    let o = shogi(&[
        "status",
        "--sfen",
        "startpos",
        "--moves",
        "7g7f",
        "3c3d",
        "8h2b",
        "2b3c",
        "--explain",
    ]);
    assert_eq!(stdout(&o).trim(), "illegal_move");
    let e = stderr(&o);
    assert!(e.contains("move 4") && e.contains("2b3c"), "{e}");
}

#[test]
fn bad_input_is_one_line_on_stderr_and_exit_2() {
    for args in [
        vec!["perft", "x"],
        vec!["perft", "4000"],
        vec!["perft", "-1"],
        vec!["bench", "--depth", "0"],
        vec!["bench", "--depth", "100000"],
        vec!["match", "--depth", "500"],
        vec!["match", "--games", "0"],
        vec!["match", "--concurrency", "0"],
        vec![
            "tune",
            "gen",
            "--games",
            "0",
            "--out",
            "/tmp/never-written.txt",
        ],
        vec!["tune", "openings", "--count", "0"],
        vec!["tune", "spsa", "--param", "Nonsense"],
        vec!["tune", "spsa", "--start", "FutilityBase=9999"],
        vec![
            "tune",
            "spsa",
            "--param",
            "FutilityBase",
            "--start",
            "AspirationDelta=30",
        ],
        vec!["tune", "spsa", "--iterations", "0"],
        vec!["tune", "spsa", "--r-end", "0"],
        vec!["perft", "2", "--sfen", "not an sfen"],
        vec!["moves", "--sfen", "startpos", "--moves", "7g7x"],
        vec!["status", "--impasse-rule", "42"],
        vec!["show", "--handicap", "queen"],
        vec!["frobnicate"],
    ] {
        let o = shogi(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn show_draws_the_board() {
    let o = shogi(&["show", "--sfen", "startpos"]);
    let out = stdout(&o);
    assert!(out.contains("   9  8  7  6  5  4  3  2  1"));
    assert!(out
        .lines()
        .any(|l| l.trim_end().ends_with('i') && l.contains('K')));
    let o = shogi(&["show", "--handicap", "rook", "--style", "kif"]);
    let out = stdout(&o);
    assert!(out.contains("|v香v桂v銀v金v玉v金v銀v桂v香|一"), "{out}");
    assert!(out.contains("後手番"));
}

#[test]
fn help_lists_examples() {
    let o = shogi(&["--help"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("Examples:"));
}

#[test]
fn mate_prints_the_line_or_nomate() {
    let o = shogi(&[
        "mate",
        "--sfen",
        "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
        "--time-ms",
        "5000",
    ]);
    assert_eq!(stdout(&o).trim(), "G*5b");
    let o = shogi(&[
        "mate",
        "--sfen",
        "4k4/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l16p 1",
        "--time-ms",
        "5000",
    ]);
    assert_eq!(stdout(&o).trim(), "nomate");
    let o = shogi(&["mate", "--sfen", "garbage"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn bench_ends_with_nodes_and_nps() {
    let o = shogi(&["bench", "--depth", "3"]);
    let out = stdout(&o);
    let last: Vec<&str> = out.lines().last().unwrap().split_whitespace().collect();
    assert_eq!(last.len(), 4, "{out}");
    assert!(last[0].parse::<u64>().unwrap() > 0);
    assert_eq!((last[1], last[3]), ("nodes", "nps"));
    // The node count is deterministic.
    let again = shogi(&["bench", "--depth", "3"]);
    assert_eq!(
        stdout(&again)
            .lines()
            .last()
            .unwrap()
            .split_whitespace()
            .next(),
        Some(last[0])
    );
}

#[test]
fn match_plays_games_and_summarises() {
    let o = shogi(&[
        "match",
        "--games",
        "2",
        "--depth",
        "1",
        "--max-moves",
        "40",
        "--sprt",
        "0,10",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Games: 2"), "{out}");
    assert!(out.contains("Illegal moves: 0 / 0"), "{out}");
    assert!(out.contains("SPRT"), "{out}");
    // How much each engine searched, from its `info ... nodes` lines.
    assert!(out.contains("Per move: "), "{out}");
    // Each game's line names the winner (not "1-0", which reads as a Sente win).
    let progress = stderr(&o);
    assert!(
        progress.contains("game 1 (engine1 as Sente): "),
        "{progress}"
    );
    let results = ["engine1 won by", "engine2 won by", "draw by"];
    assert_eq!(
        progress
            .lines()
            .filter(|l| results.iter().any(|r| l.contains(r)))
            .count(),
        2,
        "{progress}"
    );
    let o = shogi(&["match", "--nodes", "10", "--depth", "2"]);
    assert_eq!(o.status.code(), Some(2));
    // At fixed nodes the 300 built-in openings make 600 different games;
    // more would replay them move for move.
    let o = shogi(&["match", "--nodes", "10", "--games", "602"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("at most 600 games"), "{}", stderr(&o));
}

#[test]
fn match_stops_when_the_sprt_decides() {
    // Full strength against the weakest level at depth 4: the first engine wins
    // nearly every game, so a test against +400 Elo decides long before 40 games.
    let o = shogi(&[
        "match",
        "--games",
        "40",
        "--depth",
        "4",
        "--option2",
        "SkillLevel=0",
        "--sprt",
        "0,400",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("H1 accepted"), "{out}");
    let games: u32 = out
        .split("Games: ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!((2..40).contains(&games), "{out}");
}

#[test]
fn tune_gen_fit_and_openings_round_trip() {
    let dir = std::env::temp_dir().join(format!("shogi-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    let params = dir.join("params.txt");
    let d = data.to_str().unwrap();
    let p = params.to_str().unwrap();
    let o = shogi(&[
        "tune",
        "gen",
        "--games",
        "2",
        "--nodes",
        "300",
        "--random-plies",
        "4",
        "--max-plies",
        "40",
        "--seed",
        "7",
        "--out",
        d,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("2 games, "), "{}", stdout(&o));
    let o = shogi(&["tune", "fit", "--data", d, "--epochs", "20", "--out", p]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("held-out loss:"), "{}", stdout(&o));
    let text = std::fs::read_to_string(&params).unwrap();
    assert!(shogi_engine::params::EvalParams::parse(&text).is_ok());
    // A bad data line is one line on stderr with the file and line number.
    std::fs::write(&data, "# header\nnot a position;0;1\n").unwrap();
    let o = shogi(&["tune", "fit", "--data", d, "--out", p]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(":line 2:"), "{}", stderr(&o));
    let o = shogi(&[
        "tune",
        "openings",
        "--count",
        "2",
        "--plies",
        "2",
        "--check-nodes",
        "500",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o)
            .lines()
            .filter(|l| l.starts_with("startpos moves "))
            .count(),
        2
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_spsa_plays_its_iterations_and_prints_values_in_range() {
    let o = shogi(&[
        "tune",
        "spsa",
        "--iterations",
        "2",
        "--nodes",
        "300",
        "--param",
        "FutilityBase",
        "--param",
        "aspirationdelta",
        "--start",
        "FutilityBase=90",
        "--report",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("start: FutilityBase=90.0 AspirationDelta=40.0"),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("2/2 (")), "{out}");
    let result = out
        .lines()
        .find_map(|l| l.strip_prefix("result: "))
        .expect("a result line");
    let values: Vec<(&str, i32)> = result
        .split_whitespace()
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap();
            (k, v.parse().unwrap())
        })
        .collect();
    assert_eq!(values.len(), 2, "{result}");
    assert_eq!(values[0].0, "FutilityBase");
    assert_eq!(values[1].0, "AspirationDelta");
    // Two iterations of two games move a value by a few units at most.
    assert!((60..=120).contains(&values[0].1), "{result}");
    assert!((5..=70).contains(&values[1].1), "{result}");
}

/// Runs `shogi` and waits at most 30 s (a server that did start is killed).
fn shogi_bounded(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shogi"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run shogi");
    for _ in 0..300 {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    child.wait_with_output().expect("output")
}

#[test]
fn serve_says_what_failed_and_never_that_it_serves_when_it_cannot() {
    let dir = std::env::temp_dir().join(format!("shogi-serve-fail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");
    // A port already taken.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let o = shogi_bounded(&["serve", "--port", &port, "--db", db.to_str().unwrap()]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(!e.contains("serving"), "{e}");
    assert!(e.contains("cannot serve") && e.contains(&port), "{e}");
    // A database that cannot be opened (its folder does not exist).
    let o = shogi_bounded(&["serve", "--port", "0", "--db", "/no/such/folder/games.db"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(!e.contains("serving"), "{e}");
    assert!(e.contains("/no/such/folder/games.db"), "{e}");
    drop(taken);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Output into a pipe nobody reads any more (`shogi ... | head` after head
/// has quit) ends the command quietly: no panic, exit code 0.
#[test]
fn a_closed_output_is_no_panic() {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let o = Command::new(env!("CARGO_BIN_EXE_shogi"))
        .args([
            "mate",
            "--sfen",
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
        ])
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("run shogi");
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!e.contains("panicked"), "{e}");
    assert_eq!(o.status.code(), Some(0), "{e}");
}
