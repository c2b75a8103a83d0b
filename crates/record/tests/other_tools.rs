//! Acceptance by other programs: real records from `shared/data/records`, written by our
//! KIF, KI2, CSA and JKF writers, are read back by cshogi (Python) and tsshogi (Node),
//! and their moves, start positions and endings are compared with ours.
//!
//! `scripts/test-all.sh` installs both tools (`pip install cshogi`, `npm ci` in
//! `tools/other-tools`) and names the ones that must run in `SHOGI_OTHER_TOOLS`
//! (`cshogi,tsshogi`); a tool not named there that is missing only skips its half of the
//! test, with a message.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use shogi_core::{Color, Ending as GameEnding};
use shogi_record::{Encoding, Ending, Format, Record};

const RECORDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/records");
const TOOLS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tools/other-tools");

/// One written file and what a reader should find in it.
struct Job {
    tool: &'static str,
    format: &'static str,
    path: PathBuf,
    record: usize,
}

fn required(tool: &str) -> bool {
    std::env::var("SHOGI_OTHER_TOOLS").is_ok_and(|v| v.split(',').any(|t| t.trim() == tool))
}

fn skip(tool: &str, why: &str) {
    assert!(
        !required(tool),
        "{tool} must run (SHOGI_OTHER_TOOLS names it) but {why}"
    );
    println!("SKIPPED: reading our records with {tool}: {why}");
}

/// The record files of `shared/data/records` (not the `.usi` answers nor the manifests).
fn sources() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(RECORDS)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        p.is_file()
            && p.extension().is_none_or(|e| !e.eq_ignore_ascii_case("usi"))
            && !name.starts_with("manifest")
    });
    files.sort();
    files
}

/// The first three SFEN fields (board, side, hands) in our spelling: tools differ in move
/// numbers and in the order of the pieces in hand.
fn sfen3(s: &str) -> String {
    let lenient = shogi_core::Leniency {
        allow_missing_kings: true,
    };
    let s = shogi_core::sfen::parse_position_with(s, lenient)
        .map_or_else(|_| s.to_string(), |p| p.to_sfen());
    s.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

/// What cshogi's `endgame` should be, or `None` where the test does not check it.
fn cshogi_endgame(format: &str, rec: &Record) -> Option<&'static str> {
    if format != "csa" {
        return None;
    }
    let stm = rec.side_to_move_at_end();
    let game = match rec.ending {
        Ending::None => return Some(""),
        Ending::NoMate => return Some("%FUZUMI"),
        Ending::Matta => return Some("%MATTA"),
        Ending::Sealed | Ending::Error => return None,
        Ending::Game(g) => g,
    };
    Some(match game {
        GameEnding::Resignation { loser } if loser == stm => "%TORYO",
        GameEnding::Checkmate { .. } | GameEnding::NoLegalMoves { .. } => "%TSUMI",
        GameEnding::Repetition => "%SENNICHITE",
        GameEnding::PerpetualCheck { .. } => "%OUTE_SENNICHITE",
        GameEnding::Impasse { winner: None } => "%JISHOGI",
        GameEnding::Impasse { winner } if winner == Some(stm) => "%KACHI",
        GameEnding::Foul { loser, .. } if loser == stm => "%ILLEGAL_MOVE",
        GameEnding::Foul {
            loser: Color::Sente,
            ..
        }
        | GameEnding::Resignation {
            loser: Color::Sente,
        } => "%+ILLEGAL_ACTION",
        GameEnding::Foul {
            loser: Color::Gote, ..
        }
        | GameEnding::Resignation { loser: Color::Gote } => "%-ILLEGAL_ACTION",
        GameEnding::Timeout { .. } => "%TIME_UP",
        GameEnding::Abort => "%CHUDAN",
        GameEnding::MaxMoves => "%MAX_MOVES",
        GameEnding::DrawAgreement => "%HIKIWAKE",
        GameEnding::Impasse { .. } | GameEnding::Try { .. } => return None,
    })
}

/// What cshogi's `win` should be for KIF and KI2 (from our `まで…` line): `Some(None)` for
/// no result, `Some(Some(n))` with `BLACK_WIN` 1, `WHITE_WIN` 2, DRAW 0; `None` where it does
/// not read our line (詰み, 時間切れ, トライ, …) and so is not checked.
#[allow(clippy::option_option)] // the doc comment above gives the three meanings
fn cshogi_win(format: &str, rec: &Record) -> Option<Option<i64>> {
    if format == "csa" {
        return None;
    }
    let colour = |c: Color| Some(Some(if c == Color::Sente { 1 } else { 2 }));
    match rec.ending.game() {
        None if rec.ending == Ending::None => Some(None),
        Some(GameEnding::Abort) => Some(None),
        Some(
            e @ (GameEnding::Resignation { .. }
            | GameEnding::Impasse { winner: Some(_) }
            | GameEnding::Foul { .. }),
        ) => e.winner().and_then(colour),
        Some(GameEnding::Repetition | GameEnding::Impasse { winner: None }) => Some(Some(0)),
        _ => None,
    }
}

/// What tsshogi's last special move should be (its `SpecialMoveType`), or `None` where the
/// test does not check it.
fn tsshogi_end(format: &str, rec: &Record) -> Option<&'static str> {
    let stm = rec.side_to_move_at_end();
    let game = match rec.ending {
        Ending::None => return Some(""),
        Ending::NoMate => return Some("noMate"),
        Ending::Sealed | Ending::Matta | Ending::Error => return None,
        Ending::Game(g) => g,
    };
    Some(match game {
        GameEnding::Resignation { loser } if loser == stm => "resign",
        GameEnding::Checkmate { .. } => "mate",
        GameEnding::Repetition => "repetitionDraw",
        GameEnding::Impasse { winner: None } => "impass",
        GameEnding::Impasse { winner } if winner == Some(stm) => "enteringOfKing",
        GameEnding::Foul { loser, .. } if loser == stm => "foulLose",
        // tsshogi 2.2 reads CSA's `%+ILLEGAL_ACTION` ("Sente's foul: Gote wins") as a
        // win for Sente, against the CSA standard, and JKF likewise; KIF and KI2 agree.
        GameEnding::Foul { .. } if matches!(format, "csa" | "jkf") => return None,
        GameEnding::Foul { .. } => "foulWin",
        GameEnding::Timeout { .. } => "timeout",
        GameEnding::Abort => "interrupt",
        GameEnding::MaxMoves => "maxMoves",
        GameEnding::DrawAgreement => "draw",
        _ => return None,
    })
}

/// Why cshogi cannot be expected to read a record right in `format` (its known limits).
fn cshogi_limit(format: &str, rec: &Record) -> Option<&'static str> {
    let handicap = rec.handicap().is_some();
    if (format == "kif" || format == "ki2") && !handicap {
        return Some("cshogi's KIF and KI2 readers ignore board diagrams (non-handicap starts)");
    }
    let result_line_known = matches!(
        rec.ending,
        Ending::Game(
            GameEnding::Resignation { .. }
                | GameEnding::Impasse { winner: Some(_) }
                | GameEnding::Foul { .. }
                | shogi_core::Ending::Repetition
                | shogi_core::Ending::Impasse { winner: None }
                | shogi_core::Ending::Abort
        )
    );
    if format != "csa" && !result_line_known && has_variations(rec) {
        return Some("cshogi's KIF and KI2 readers read on into 変化 sections unless a result line they know ends the main line");
    }
    if format == "ki2" && marker_beside_drop(rec) {
        return Some(
            "cshogi's KI2 reader counts a drop among the pieces that 右左上引寄直 choose from",
        );
    }
    None
}

/// Whether some main-line move needs a relative marker (右, 引, ...) while the mover also
/// holds a piece of that kind in hand.
fn marker_beside_drop(rec: &Record) -> bool {
    let mut pos = rec.start.clone();
    let mut last_to = None;
    for node in &rec.moves {
        let mv = node.mv;
        if let shogi_core::Move::Board { from, .. } = mv {
            let text = shogi_record::notation::japanese::write(&pos, mv, last_to);
            let marked = text.contains(['右', '左', '直', '上', '引', '寄']);
            let in_hand = pos
                .piece_at(from)
                .and_then(|p| p.kind.hand_kind().filter(|_| !p.kind.is_promoted()))
                .is_some_and(|k| pos.hand(pos.side_to_move()).count(k) > 0);
            if marked && in_hand {
                return true;
            }
        }
        if !pos.is_legal(mv) {
            break;
        }
        pos.make_move(mv);
        last_to = Some(mv.to());
    }
    false
}

fn has_variations(rec: &Record) -> bool {
    rec.moves.iter().any(|n| !n.variations.is_empty())
}

#[derive(Default)]
struct Tally {
    written: usize,
    accepted: usize,
    same_moves: usize,
    same_start: usize,
    same_end: usize,
    end_checked: usize,
    not_comparable: usize,
}

#[test]
#[allow(clippy::too_many_lines)] // one table of every format each tool reads, checked in one pass
fn other_tools_read_our_records() {
    let sources = sources();
    if sources.is_empty() {
        println!("SKIPPED: no records at {RECORDS}");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("other_tools");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    let mut records = Vec::new();
    let mut unread = 0;
    for src in &sources {
        match std::fs::read(src).map(|b| shogi_record::read(&b)) {
            Ok(Ok(rec)) if !rec.moves.is_empty() => records.push((src.clone(), rec)),
            _ => unread += 1,
        }
    }
    println!(
        "{} records read from {} files ({unread} without moves or unreadable)",
        records.len(),
        sources.len()
    );
    assert!(records.len() >= 30, "too few records: {}", records.len());

    // Write every record in every format the tools read. cshogi reads `.kif` and KI2 as
    // Shift_JIS; tsshogi takes UTF-8 text.
    let mut jobs = Vec::new();
    for (i, (src, rec)) in records.iter().enumerate() {
        let stem = src.file_name().unwrap().to_string_lossy().replace('.', "_");
        let mut put = |tool: &'static str, format: &'static str, ext: &str, bytes: Vec<u8>| {
            let path = dir.join(format!("{i:03}_{stem}.{tool}.{ext}"));
            std::fs::write(&path, bytes).unwrap();
            jobs.push(Job {
                tool,
                format,
                path,
                record: i,
            });
        };
        let sjis = Encoding::ShiftJis;
        let utf8 = Encoding::Utf8;
        put(
            "cshogi",
            "kif",
            "kif",
            shogi_record::write_bytes(rec, Format::Kif, sjis),
        );
        // cshogi 1.1's KI2 reader loses its place after the first move of a line
        // (it adds a match's end within the rest of the line to the line offset), so
        // its copy has one move a line; tsshogi gets the usual six.
        let ki2_one = shogi_record::ki2::write_lines(rec, sjis, 1);
        put(
            "cshogi",
            "ki2",
            "ki2",
            shogi_record::encoding::encode(&ki2_one, sjis),
        );
        put(
            "cshogi",
            "csa",
            "csa",
            shogi_record::write_bytes(rec, Format::Csa, utf8),
        );
        put(
            "tsshogi",
            "kif",
            "kifu",
            shogi_record::write_bytes(rec, Format::Kif, utf8),
        );
        put(
            "tsshogi",
            "ki2",
            "ki2u",
            shogi_record::write_bytes(rec, Format::Ki2, utf8),
        );
        put(
            "tsshogi",
            "csa",
            "csa",
            shogi_record::write_bytes(rec, Format::Csa, utf8),
        );
        put(
            "tsshogi",
            "jkf",
            "jkf",
            shogi_record::write_bytes(rec, Format::Jkf, utf8),
        );
    }

    let mut failures = Vec::new();
    let mut figures = String::new();
    for tool in ["cshogi", "tsshogi"] {
        let Some(results) = run_tool(tool, &dir, &jobs) else {
            continue;
        };
        let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
        let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
        for job in jobs.iter().filter(|j| j.tool == tool) {
            let rec = &records[job.record].1;
            let t = tallies.entry(job.format).or_default();
            t.written += 1;
            let key = job.path.to_string_lossy().into_owned();
            let limit = if tool == "cshogi" {
                cshogi_limit(job.format, rec)
            } else {
                None
            };
            let Some(got) = results.get(&key) else {
                failures.push(format!("{tool}: no answer for {key}"));
                continue;
            };
            if got["ok"] != true {
                if let Some(why) = limit {
                    t.not_comparable += 1;
                    *reasons.entry(why).or_default() += 1;
                } else {
                    failures.push(format!("{tool} rejected {key}: {}", got["error"]));
                }
                continue;
            }
            t.accepted += 1;
            let want_moves: Vec<String> = rec.main_line().iter().map(ToString::to_string).collect();
            let got_moves: Vec<String> = got["moves"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            let same_moves = got_moves == want_moves;
            let same_start =
                sfen3(got["sfen"].as_str().unwrap_or("")) == sfen3(&rec.start.to_sfen());
            let (want_end, got_end) = if tool == "cshogi" && job.format == "csa" {
                (
                    cshogi_endgame(job.format, rec).map(String::from),
                    got["endgame"].as_str().unwrap_or("").to_string(),
                )
            } else if tool == "cshogi" {
                (
                    cshogi_win(job.format, rec).map(|w| format!("win={w:?}")),
                    format!("win={:?}", got["win"].as_i64()),
                )
            } else {
                (
                    tsshogi_end(job.format, rec).map(String::from),
                    got["end"].as_str().unwrap_or("").to_string(),
                )
            };
            let same_end = want_end.as_ref().is_none_or(|w| *w == got_end);
            t.same_moves += usize::from(same_moves);
            t.same_start += usize::from(same_start);
            t.end_checked += usize::from(want_end.is_some());
            t.same_end += usize::from(same_end && want_end.is_some());
            if let Some(why) = limit {
                if !(same_moves && same_start && same_end) {
                    t.not_comparable += 1;
                    *reasons.entry(why).or_default() += 1;
                }
                continue;
            }
            if !same_moves {
                failures.push(format!(
                    "{tool} {key}: moves differ\n  ours:   {}\n  theirs: {}",
                    want_moves.join(" "),
                    got_moves.join(" ")
                ));
            }
            if !same_start {
                failures.push(format!(
                    "{tool} {key}: start differs: ours {} theirs {}",
                    rec.start.to_sfen(),
                    got["sfen"]
                ));
            }
            if !same_end {
                failures.push(format!(
                    "{tool} {key}: ending differs: ours {:?} (want {:?}) theirs {got_end:?}",
                    rec.ending,
                    want_end.unwrap_or_default()
                ));
            }
        }
        for (format, t) in &tallies {
            let _ = writeln!(
                figures,
                "{tool:8} {format:4}: accepted {}/{}, moves agree {}, start agrees {}, ending agrees {}/{} checked, off only where a known limit of the tool applies {}",
                t.accepted, t.written, t.same_moves, t.same_start, t.same_end, t.end_checked, t.not_comparable
            );
        }
        for (format, t) in &tallies {
            // The known limits must not excuse most of a format.
            if t.same_moves * 4 < t.written * 3 {
                failures.push(format!(
                    "{tool} {format}: only {} of {} records agree on the moves",
                    t.same_moves, t.written
                ));
            }
        }
        for (why, n) in &reasons {
            let _ = writeln!(figures, "  {n} files off because {why}");
        }
    }
    println!("{figures}");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Runs one tool over every job of it (one process), returning its answers by file name,
/// or `None` when the tool is not installed (after saying so).
fn run_tool(tool: &str, dir: &Path, jobs: &[Job]) -> Option<BTreeMap<String, serde_json::Value>> {
    let list = dir.join(format!("{tool}.list"));
    let text: String = jobs
        .iter()
        .filter(|j| j.tool == tool)
        .fold(String::new(), |mut s, j| {
            let _ = writeln!(s, "{}\t{}", j.format, j.path.display());
            s
        });
    std::fs::write(&list, text).unwrap();
    let tools = Path::new(TOOLS);
    let mut cmd = if tool == "cshogi" {
        let ok = Command::new("python3")
            .args(["-c", "import cshogi"])
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            skip(tool, "python3 cannot import cshogi (pip install cshogi)");
            return None;
        }
        let mut c = Command::new("python3");
        c.arg(tools.join("read_cshogi.py"));
        c
    } else {
        if !tools.join("node_modules/tsshogi").is_dir() {
            skip(
                tool,
                "tools/other-tools/node_modules has no tsshogi (npm ci there)",
            );
            return None;
        }
        let mut c = Command::new("node");
        c.arg(tools.join("read_tsshogi.mjs"));
        c
    };
    let out = match cmd.arg(&list).env("PYTHONIOENCODING", "utf-8").output() {
        Ok(o) => o,
        Err(e) => {
            skip(tool, &format!("it could not be started: {e}"));
            return None;
        }
    };
    assert!(
        out.status.success(),
        "{tool} reader failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut answers = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let file = v["file"].as_str().unwrap_or("").to_string();
        answers.insert(file, v);
    }
    Some(answers)
}
