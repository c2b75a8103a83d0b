//! Drives the USI loop in-process.

use std::io::{BufRead, Cursor, Read};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use shogi_core::usi::PositionCommand;
use shogi_core::{Leniency, Move};
use shogi_engine::usi::{run_usi, run_usi_to, SharedWriter};

/// Runs a whole script, closing the input at once (so a running search is
/// stopped by the end of input), and returns the output lines.
fn run_to_eof(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    run_usi_to(Cursor::new(script.to_string()), &mut out);
    String::from_utf8(out)
        .expect("utf-8 output")
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs a script, waits for one answer per `go`, then closes the input.
fn run(script: &str) -> Vec<String> {
    let s = Session::start();
    let mut gos = 0;
    for line in script.lines() {
        s.send(line);
        if line.starts_with("go") {
            gos += 1;
            let t = Instant::now();
            while answers(&s.lines()) < gos && t.elapsed() < Duration::from_secs(60) {
                thread::sleep(Duration::from_millis(2));
            }
        }
    }
    s.finish()
}

fn answers(lines: &[String]) -> usize {
    lines
        .iter()
        .filter(|l| l.starts_with("bestmove") || l.starts_with("checkmate"))
        .count()
}

/// An input fed line by line from the test, to send commands while the engine thinks.
struct ChannelReader {
    rx: Receiver<String>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = {
            let data = self.fill_buf()?;
            let n = data.len().min(out.len());
            out[..n].copy_from_slice(&data[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ChannelReader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos >= self.buf.len() {
            match self.rx.recv() {
                Ok(line) => {
                    self.buf = line.into_bytes();
                    self.pos = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.buf[self.pos..])
    }
    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
}

struct Session {
    tx: Option<Sender<String>>,
    out: Arc<Mutex<Vec<u8>>>,
    handle: Option<thread::JoinHandle<()>>,
}

impl Session {
    fn start() -> Session {
        let (tx, rx) = channel();
        let out = Arc::new(Mutex::new(Vec::new()));
        let writer = SharedWriter(Arc::clone(&out));
        let handle = thread::spawn(move || {
            run_usi(
                ChannelReader {
                    rx,
                    buf: Vec::new(),
                    pos: 0,
                },
                writer,
            );
        });
        Session {
            tx: Some(tx),
            out,
            handle: Some(handle),
        }
    }
    fn send(&self, line: &str) {
        if let Some(tx) = &self.tx {
            tx.send(format!("{line}\n")).expect("engine alive");
        }
    }
    fn lines(&self) -> Vec<String> {
        let b = self.out.lock().expect("lock").clone();
        String::from_utf8(b)
            .expect("utf-8")
            .lines()
            .map(str::to_string)
            .collect()
    }
    fn wait_for(&self, prefix: &str, count: usize, timeout: Duration) -> Vec<String> {
        let t = Instant::now();
        loop {
            let l = self.lines();
            if l.iter().filter(|x| x.starts_with(prefix)).count() >= count || t.elapsed() > timeout
            {
                return l;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
    fn finish(mut self) -> Vec<String> {
        self.tx.take();
        if let Some(h) = self.handle.take() {
            h.join().expect("engine thread");
        }
        self.lines()
    }
}

fn bestmoves(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("bestmove")).collect()
}

fn assert_legal(position: &str, bestmove_line: &str) {
    let mv = bestmove_line.split_whitespace().nth(1).expect("a move");
    let cmd = PositionCommand::parse_with(
        position,
        Leniency {
            allow_missing_kings: true,
        },
    )
    .expect("position");
    let mut pos = cmd.start.clone();
    for m in &cmd.moves {
        pos.play(*m).expect("legal position moves");
    }
    let m: Move = mv.parse().expect("USI move");
    assert!(pos.is_legal(m), "{mv} illegal in {position}");
}

/// Lines other than these would break a GUI.
fn assert_protocol_only(lines: &[String]) {
    let ok = [
        "id ",
        "option ",
        "usiok",
        "readyok",
        "info ",
        "bestmove ",
        "checkmate ",
    ];
    for l in lines {
        assert!(
            ok.iter().any(|p| l.starts_with(p) || l == p.trim()),
            "not a protocol line: {l:?}"
        );
    }
}

#[test]
fn handshake_and_depth_search() {
    let pos = "position startpos moves 7g7f 3c3d";
    let lines = run(&format!(
        "usi\nsetoption name USI_Hash value 8\nisready\nusinewgame\n{pos}\ngo depth 3\nquit\n"
    ));
    assert_protocol_only(&lines);
    assert!(lines.iter().any(|l| l.starts_with("id name")));
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    assert!(lines
        .iter()
        .any(|l| l.contains("option name EnteringKingRule type combo")));
    let usiok = lines.iter().position(|l| l == "usiok").expect("usiok");
    let readyok = lines.iter().position(|l| l == "readyok").expect("readyok");
    assert!(usiok < readyok);
    let b = bestmoves(&lines);
    assert_eq!(b.len(), 1, "{lines:?}");
    assert_legal(pos, b[0]);
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 3"))
        .expect("info depth 3");
    for key in [
        " seldepth ",
        " score ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(key), "{info}");
    }
    assert!(
        info.find(" pv ") > info.find(" time "),
        "pv must come last: {info}"
    );
}

#[test]
fn byoyomi_without_clocks() {
    let pos = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    let s = Session::start();
    s.send("isready");
    s.wait_for("readyok", 1, Duration::from_secs(10));
    s.send(pos);
    let t = Instant::now();
    s.send("go byoyomi 300");
    let lines = s.wait_for("bestmove", 1, Duration::from_secs(10));
    let elapsed = t.elapsed();
    let b = bestmoves(&lines);
    assert_eq!(b.len(), 1, "{lines:?}");
    assert_legal(pos, b[0]);
    // Uses most of the byoyomi, keeps the safety margin.
    assert!(
        elapsed >= Duration::from_millis(200),
        "took only {elapsed:?}"
    );
    assert!(elapsed < Duration::from_millis(1500), "took {elapsed:?}");
    s.send("quit");
    assert_eq!(bestmoves(&s.finish()).len(), 1);
}

/// `go infinite` waits for `stop`, then answers exactly one legal bestmove
/// (with several threads too: no helper thread answers as well).
fn infinite_then_stop(threads: usize) {
    let s = Session::start();
    s.send(&format!("setoption name Threads value {threads}"));
    s.send("position startpos moves 7g7f 3c3d");
    s.send("go infinite");
    thread::sleep(Duration::from_millis(300));
    assert!(
        bestmoves(&s.lines()).is_empty(),
        "go infinite must wait for stop"
    );
    s.send("stop");
    let lines = s.wait_for("bestmove", 1, Duration::from_secs(10));
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
    s.send("isready");
    s.wait_for("readyok", 1, Duration::from_secs(10));
    let lines = s.finish();
    let answers = bestmoves(&lines);
    assert_eq!(answers.len(), 1, "{lines:?}");
    assert_legal("startpos moves 7g7f 3c3d", answers[0]);
    assert_protocol_only(&lines);
}

#[test]
fn infinite_then_stop_gives_one_bestmove() {
    infinite_then_stop(1);
}

#[test]
fn infinite_then_stop_gives_one_bestmove_with_two_threads() {
    infinite_then_stop(2);
}

#[test]
fn quit_mid_search_still_answers() {
    let s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    s.send("quit");
    let lines = s.finish();
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
}

/// No bestmove while pondering; after `ponderhit` exactly one legal one.
fn ponder_then_ponderhit(threads: usize) {
    let s = Session::start();
    s.send(&format!("setoption name Threads value {threads}"));
    s.send("setoption name USI_Ponder value true");
    s.send("position startpos moves 7g7f");
    s.send("go ponder btime 0 wtime 0 byoyomi 200");
    thread::sleep(Duration::from_millis(400));
    assert!(
        bestmoves(&s.lines()).is_empty(),
        "no bestmove while pondering"
    );
    s.send("ponderhit");
    let lines = s.wait_for("bestmove", 1, Duration::from_secs(5));
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
    s.send("isready");
    s.wait_for("readyok", 1, Duration::from_secs(10));
    let lines = s.finish();
    let answers = bestmoves(&lines);
    assert_eq!(answers.len(), 1, "{lines:?}");
    assert_legal("startpos moves 7g7f", answers[0]);
    assert_protocol_only(&lines);
}

#[test]
fn ponder_then_ponderhit_gives_one_bestmove() {
    ponder_then_ponderhit(1);
}

#[test]
fn ponder_then_ponderhit_gives_one_bestmove_with_two_threads() {
    ponder_then_ponderhit(2);
}

#[test]
fn eof_mid_search_still_answers() {
    let lines = run_to_eof("position startpos\ngo infinite\n");
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
}

#[test]
fn malformed_lines_are_reported_not_fatal() {
    let lines = run(
        "hello world\nsetoption name Nope value 1\nsetoption name MultiPV value x\nposition sfen garbage\nposition startpos moves 7g7f 7g7f\ngo depth x nonsense 2\nisready\n",
    );
    assert_protocol_only(&lines);
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .count()
            >= 5,
        "{lines:?}"
    );
    assert_eq!(bestmoves(&lines).len(), 1);
    assert!(lines.iter().any(|l| l == "readyok"));
}

#[test]
fn invalid_utf8_is_not_fatal() {
    let mut input = b"isready\n\xff\xfe garbage\n".to_vec();
    input.extend_from_slice(b"position startpos\ngo depth 2\n");
    let mut out = Vec::new();
    run_usi_to(Cursor::new(input), &mut out);
    let text = String::from_utf8(out).expect("utf-8 output");
    assert!(text.contains("info string unknown command"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
}

#[test]
fn options_are_accepted() {
    let lines = run(
        "setoption name Threads value 2\nsetoption name MultiPV value 2\nsetoption name EnteringKingRule value TryRule\nsetoption name MaxMovesToDraw value 256\nsetoption name NetworkDelay value 50\nsetoption name SkillLevel value 3\nisready\nposition startpos\ngo depth 3\n",
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    assert_eq!(bestmoves(&lines).len(), 1);
    assert!(lines.iter().any(|l| l.contains("multipv 2")), "{lines:?}");
}

#[test]
fn resign_without_legal_moves() {
    let lines = run("position sfen k8/1G7/1K7/9/9/9/9/9/9 w - 1\ngo byoyomi 100\n");
    assert_eq!(bestmoves(&lines), vec!["bestmove resign"]);
}

#[test]
fn declares_an_impasse_win() {
    // Sente's king in the enemy camp with ten pieces there and 28+ points.
    let pos = "position sfen K+R+B+P+P+P+P+P1/+P+P+P+P5/9/9/9/9/9/9/8k b RB2G 1";
    let lines = run(&format!(
        "setoption name EnteringKingRule value CSARule27\n{pos}\ngo byoyomi 100\n"
    ));
    assert_eq!(bestmoves(&lines), vec!["bestmove win"], "{lines:?}");
    let lines = run(&format!(
        "setoption name EnteringKingRule value NoEnteringKing\n{pos}\ngo byoyomi 100\n"
    ));
    assert_ne!(bestmoves(&lines), vec!["bestmove win"]);
}

#[test]
fn go_mate_answers_checkmate() {
    let lines = run("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\ngo mate 5000\n");
    assert!(lines.iter().any(|l| l == "checkmate G*5b"), "{lines:?}");
    let lines =
        run("position sfen 9/4k4/9/4S4/9/9/9/9/9 b GS2r2b3g2s4n4l18p 1\ngo mate infinite\n");
    let c = lines
        .iter()
        .find(|l| l.starts_with("checkmate"))
        .expect("checkmate line");
    assert_eq!(c.split_whitespace().count(), 4, "{c}");
    let lines = run("position sfen 9/4k4/9/4P4/9/9/9/9/9 b G2r2b4s4n4l17p 1\ngo mate 5000\n");
    assert!(lines.iter().any(|l| l == "checkmate nomate"), "{lines:?}");
}

#[test]
fn ponder_move_is_offered_when_enabled() {
    let pos = "position startpos moves 7g7f 3c3d";
    let lines = run(&format!(
        "setoption name USI_Ponder value true\n{pos}\ngo depth 5\n"
    ));
    let b = bestmoves(&lines);
    assert_eq!(b.len(), 1);
    let words: Vec<&str> = b[0].split_whitespace().collect();
    assert_eq!(words.len(), 4, "{}", b[0]);
    assert_eq!(words[2], "ponder");
    assert_legal(
        &format!("{pos} {}", words[1]),
        &format!("bestmove {}", words[3]),
    );
}

#[test]
fn mate_search_can_be_stopped() {
    let s = Session::start();
    // A hard problem: no answer within a few milliseconds.
    s.send("position sfen 3g1n1l1/2p1g1r2/5k2S/4p1N+R1/3+p5/7N1/B8/9/9 b 2GSNb2s3l15p 1");
    s.send("go mate infinite");
    thread::sleep(Duration::from_millis(100));
    s.send("stop");
    let lines = s.wait_for("checkmate", 1, Duration::from_secs(10));
    assert!(lines.iter().any(|l| l == "checkmate timeout"), "{lines:?}");
    s.send("gameover lose");
    s.send("quit");
    let lines = s.finish();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("checkmate")).count(),
        1
    );
    assert!(bestmoves(&lines).is_empty());
}

#[test]
fn multipv_reports_each_line() {
    let lines = run("setoption name MultiPV value 3\nposition startpos\ngo depth 4\n");
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 4 ") && l.contains(&format!(" multipv {k} "))),
            "multipv {k} missing: {lines:?}"
        );
    }
}

#[test]
fn fischer_clock_is_respected() {
    let s = Session::start();
    s.send("position startpos");
    let t = Instant::now();
    s.send("go btime 1000 wtime 1000 binc 100 winc 100");
    let lines = s.wait_for("bestmove", 1, Duration::from_secs(10));
    assert!(
        t.elapsed() < Duration::from_millis(900),
        "took {:?}",
        t.elapsed()
    );
    assert_eq!(bestmoves(&lines).len(), 1);
    s.send("quit");
    s.finish();
}

#[test]
fn eval_file_loads_a_parameters_file_and_reports_errors() {
    let good = concat!(env!("CARGO_MANIFEST_DIR"), "/params/handwritten.txt");
    let lines = run(&format!(
        "setoption name EvalFile value {good}\nposition startpos\ngo depth 3\n"
    ));
    assert!(
        lines
            .iter()
            .any(|l| l == &format!("info string EvalFile {good}: loaded")),
        "{lines:?}"
    );
    assert_eq!(bestmoves(&lines).len(), 1);

    let dir = std::env::temp_dir().join(format!("shogi-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "# comment\npiece = 1 2 x\n").unwrap();
    let lines = run(&format!(
        "setoption name EvalFile value {}\nsetoption name EvalFile value /no/such/file\nposition startpos\ngo depth 2\n",
        bad.display()
    ));
    let strings: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string EvalFile"))
        .collect();
    assert_eq!(strings.len(), 2, "{lines:?}");
    assert!(
        strings[0].contains("line 2") && strings[0].contains("\"x\""),
        "{lines:?}"
    );
    assert!(
        strings[0].contains("keeping the evaluation of <internal>"),
        "{lines:?}"
    );
    assert!(strings[1].contains("/no/such/file"), "{lines:?}");
    assert_eq!(bestmoves(&lines).len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_search_has_no_switches() {
    // The search's on/off switches were removed (docs/TUNING.md, "Removed
    // switches"): the only check option left is USI_Ponder, and a switch
    // set by an old script is refused as unknown, the search unchanged.
    let lines = run(
        "usi\nsetoption name NullMove value false\nsetoption name Razoring value true\nposition startpos\ngo depth 4\n",
    );
    assert!(
        lines.iter().any(|l| l.contains("EvalFile type string")),
        "{lines:?}"
    );
    let checks: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains(" type check "))
        .collect();
    assert_eq!(checks, ["option name USI_Ponder type check default false"]);
    let refused = lines
        .iter()
        .filter(|l| l.starts_with("info string") && l.contains("unknown option"))
        .count();
    assert_eq!(refused, 2, "{lines:?}");
    assert_eq!(bestmoves(&lines).len(), 1);
}

#[test]
fn a_position_that_cannot_be_read_is_not_searched_in_the_old_ones_place() {
    let lines = run_to_eof(
        "position startpos moves 7g7f\nposition sfen garbage here\ngo depth 3\nposition startpos moves 7g7f 7g7f\ngo depth 3\ngo mate 100\nposition startpos\ngo depth 2\n",
    );
    let answers: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove") || l.starts_with("checkmate"))
        .collect();
    assert_eq!(answers.len(), 4, "{lines:?}");
    // The unreadable SFEN and the illegal second 7g7f: resign, each with the reason.
    assert_eq!(answers[0], "bestmove resign", "{lines:?}");
    assert_eq!(answers[1], "bestmove resign", "{lines:?}");
    assert_eq!(answers[2], "checkmate nomate", "{lines:?}");
    let reasons: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string not searching"))
        .collect();
    assert_eq!(reasons.len(), 3, "{lines:?}");
    assert!(reasons[0].contains("bad position"), "{lines:?}");
    assert!(reasons[1].contains("illegal move 2"), "{lines:?}");
    // A good position afterwards is searched again.
    assert_ne!(answers[3], "bestmove resign", "{lines:?}");
    assert_legal("position startpos", answers[3]);
}

#[test]
fn control_characters_in_echoed_input_are_escaped() {
    let lines = run_to_eof("hello\u{1b}[2Jworld\u{7}\n");
    let info: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string unknown command"))
        .collect();
    assert_eq!(info.len(), 1, "{lines:?}");
    assert!(!info[0].chars().any(char::is_control), "{lines:?}");
    assert!(info[0].contains("\\u{1b}[2Jworld\\u{7}"), "{lines:?}");
}

/// The nodes of the last `info ... nodes N` line.
fn last_nodes(lines: &[String]) -> u64 {
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let mut w = l.split_whitespace();
            w.by_ref().find(|&t| t == "nodes")?;
            w.next()?.parse().ok()
        })
        .expect("an info line with nodes")
}

#[test]
fn search_constants_are_spin_options_that_reach_the_search() {
    let listed = run("usi\n");
    for t in shogi_engine::search_params::TUNABLES {
        assert!(listed.contains(&t.option_line()), "{} not listed", t.name);
    }
    let go = "position startpos moves 7g7f 3c3d 2g2f\ngo depth 7\n";
    let default = run(go);
    let again = run(go);
    let pruned = run(&format!(
        "setoption name ReverseFutilityMargin value 30\nsetoption name FutilityBase value 0\n{go}"
    ));
    assert!(
        !pruned.iter().any(|l| l.starts_with("info string")),
        "{pruned:?}"
    );
    assert_eq!(
        last_nodes(&default),
        last_nodes(&again),
        "one thread, same tree"
    );
    // Smaller margins prune more of the same tree.
    assert!(
        last_nodes(&pruned) < last_nodes(&default),
        "{} !< {}",
        last_nodes(&pruned),
        last_nodes(&default)
    );
    let refused =
        run("setoption name AspirationDelta value 4\nsetoption name LateMoveBase value x\n");
    assert_eq!(
        refused
            .iter()
            .filter(|l| l.starts_with("info string") && l.contains("bad value"))
            .count(),
        2,
        "{refused:?}"
    );
}

/// The `nodes` of an `info` line.
fn info_nodes(line: &str) -> u64 {
    let mut words = line.split_whitespace();
    words.find(|&w| w == "nodes").expect("nodes");
    words.next().expect("a count").parse().expect("a number")
}

#[test]
fn a_search_stopped_by_its_node_limit_ends_with_its_total_nodes() {
    // The limit falls inside an iteration (checked every 1,024 nodes), so
    // the last completed iteration's line alone would show fewer.
    let lines = run(
        "usi\nsetoption name USI_Hash value 8\nisready\nposition startpos\ngo nodes 20000\nquit\n",
    );
    assert_protocol_only(&lines);
    let b = lines
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .expect("bestmove");
    let last = lines[..b]
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line before bestmove");
    let nodes = info_nodes(last);
    assert!((20_000..20_000 + 1_024 * 4).contains(&nodes), "{last}");
}
