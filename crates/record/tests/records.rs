//! Every record in the shared data set reads to the expected main line, start
//! position and ending, and survives a round trip through every format.

use std::path::PathBuf;

use shogi_core::usi::PositionCommand;
use shogi_core::{Color, Leniency, Move, Position};
use shogi_record::{Ending, Format, Record};

fn data_dir() -> PathBuf {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/records"
    ));
    assert!(
        dir.join("manifest.tsv").is_file(),
        "test data not found at {}: put the `shared/` directory beside the repository clone",
        dir.display()
    );
    dir
}

struct Entry {
    file: String,
    expected_ending: String,
    illegal_move: String,
}

fn manifest() -> Vec<Entry> {
    let text =
        std::fs::read_to_string(data_dir().join("manifest.tsv")).expect("manifest.tsv readable");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("manifest header").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("manifest column {name}"))
    };
    let (f, e, i) = (col("file"), col("expected_ending"), col("illegal_move"));
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            let get = |k: usize| cells.get(k).copied().unwrap_or("").to_string();
            Entry {
                file: get(f),
                expected_ending: get(e),
                illegal_move: get(i),
            }
        })
        .collect()
}

/// The expected start and main line, cut before the first move that is not legal
/// (with its 1-based ply, which the reader must report).
fn expected(entry: &Entry) -> (Position, Vec<Move>, Option<usize>) {
    let path = data_dir().join(format!("{}.usi", entry.file));
    let text = std::fs::read_to_string(&path).expect("expected .usi readable");
    let cmd = PositionCommand::parse_with(
        text.trim(),
        Leniency {
            allow_missing_kings: true,
        },
    )
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut pos = cmd.start.clone();
    let mut legal = Vec::new();
    for m in cmd.moves {
        if pos.play(m).is_err() {
            return (cmd.start, legal.clone(), Some(legal.len() + 1));
        }
        legal.push(m);
    }
    (cmd.start, legal, None)
}

fn side_to_move_at_end(start: &Position, plies: usize) -> Color {
    if plies.is_multiple_of(2) {
        start.side_to_move()
    } else {
        start.side_to_move().opponent()
    }
}

fn expected_ending(entry: &Entry, stm: Color) -> Ending {
    let e = entry.expected_ending.as_str();
    match e {
        _ if e.starts_with("(none") => Ending::None,
        "投了" | "%TORYO" | "TORYO" | "resign" => {
            Ending::Game(shogi_core::Ending::Resignation { loser: stm })
        }
        "中断" | "%CHUDAN" | "CHUDAN" => Ending::Game(shogi_core::Ending::Abort),
        "千日手" | "%SENNICHITE" | "SENNICHITE" => Ending::Game(shogi_core::Ending::Repetition),
        "詰み" | "%TSUMI" => Ending::Game(shogi_core::Ending::Checkmate { loser: stm }),
        "反則負け" => Ending::Game(shogi_core::Ending::Foul {
            loser: stm,
            foul: shogi_core::Foul::Unspecified,
        }),
        "反則勝ち" => Ending::Game(shogi_core::Ending::Foul {
            loser: stm.opponent(),
            foul: shogi_core::Foul::Unspecified,
        }),
        _ if e.starts_with("まで") && e.ends_with("の勝ち") => {
            let winner = if e.contains("先手") || e.contains("下手") {
                Color::Sente
            } else {
                Color::Gote
            };
            Ending::Game(shogi_core::Ending::Resignation {
                loser: winner.opponent(),
            })
        }
        other => panic!("{}: unknown expected ending {other:?}", entry.file),
    }
}

/// The endings USEN can hold.
fn usen_has(e: Ending) -> bool {
    matches!(
        e,
        Ending::None
            | Ending::Game(
                shogi_core::Ending::Resignation { .. }
                    | shogi_core::Ending::Timeout { .. }
                    | shogi_core::Ending::Abort
                    | shogi_core::Ending::Impasse { winner: Some(_) }
            )
    )
}

fn check(label: &str, rec: &Record, start: &Position, moves: &[Move], ending: Ending) {
    assert_eq!(
        rec.start.to_sfen(),
        start.to_sfen(),
        "{label}: start position"
    );
    let usi = |ms: &[Move]| {
        ms.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(usi(&rec.main_line()), usi(moves), "{label}: main line");
    assert_eq!(rec.ending, ending, "{label}: ending");
}

#[test]
fn every_record_reads_as_expected_and_round_trips() {
    let entries = manifest();
    assert!(
        entries.len() >= 50,
        "manifest lists only {} records",
        entries.len()
    );
    let mut failures = Vec::new();
    for entry in &entries {
        let bytes = std::fs::read(data_dir().join(&entry.file)).expect("record readable");
        let (start, moves, illegal_in_usi) = expected(entry);
        let ending = expected_ending(entry, side_to_move_at_end(&start, moves.len()));
        let result = std::panic::catch_unwind(|| {
            let rec = shogi_record::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", entry.file));
            check(&entry.file, &rec, &start, &moves, ending);
            let manifest_ply = entry
                .illegal_move
                .split(':')
                .next()
                .and_then(|p| p.strip_prefix("ply "))
                .and_then(|p| p.trim().parse::<usize>().ok());
            match manifest_ply.or(illegal_in_usi) {
                Some(ply) => {
                    let info = rec
                        .illegal_move
                        .as_ref()
                        .unwrap_or_else(|| panic!("{}: illegal move not reported", entry.file));
                    assert_eq!(info.ply, ply, "{}: illegal move ply", entry.file);
                }
                None => assert_eq!(
                    rec.illegal_move, None,
                    "{}: unexpected illegal move",
                    entry.file
                ),
            }
            for format in Format::ALL {
                let text = shogi_record::write(&rec, format);
                let label = format!("{} -> {format:?}", entry.file);
                let again = shogi_record::read_str_as(&text, format)
                    .unwrap_or_else(|e| panic!("{label}: {e}\n{text}"));
                let ending = if format == Format::Usen && !usen_has(ending) {
                    Ending::None
                } else {
                    ending
                };
                check(&label, &again, &start, &moves, ending);
                assert_eq!(
                    again.illegal_move, None,
                    "{label}: illegal move after round trip"
                );
                // Auto-detection finds the format again.
                let detected = shogi_record::read(text.as_bytes())
                    .unwrap_or_else(|e| panic!("{label} (detected): {e}"));
                assert_eq!(detected.main_line(), moves, "{label}: detected format");
            }
            for format in [Format::Kif, Format::Ki2, Format::Csa] {
                let bytes =
                    shogi_record::write_bytes(&rec, format, shogi_record::Encoding::ShiftJis);
                let again = shogi_record::read(&bytes)
                    .unwrap_or_else(|e| panic!("{} -> {format:?} Shift_JIS: {e}", entry.file));
                check(
                    &format!("{} -> {format:?} Shift_JIS", entry.file),
                    &again,
                    &start,
                    &moves,
                    ending,
                );
            }
        });
        if let Err(e) = result {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_default();
            failures.push(msg);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} records failed:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n\n")
    );
}

/// Display width in a fixed-width font: full-width text counts 2, ASCII 1.
fn display_width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// The main-line move lines with a time column (`   1 ７六歩(77)   ( 0:01/00:00:01)`),
/// by ply, up to the first variation.
fn timed_move_lines(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .take_while(|l| !l.starts_with("変化"))
        .map(|l| l.trim_end_matches(['\r', ' ']))
        .filter_map(|l| {
            let ply: usize = l.split_whitespace().next()?.parse().ok()?;
            l.contains(':').then(|| (ply, l.to_string()))
        })
        .collect()
}

/// Where the time field `( 0:01/00:00:01)` of a move line starts.
fn time_column(line: &str) -> Option<usize> {
    line.match_indices('(')
        .map(|(i, _)| i)
        .find(|&i| line[i..].split(')').next().is_some_and(|t| t.contains(':')))
}

#[test]
fn written_kif_lays_out_its_columns_as_the_shared_records_do() {
    // Kifu for Windows' layout, which most shared KIF files use: the move column
    // padded to display width 13 after `NNNN `, then the time. Files written by
    // other programs with other widths are left out, but most lines must match.
    let mut compared = 0;
    for entry in manifest() {
        let ext = std::path::Path::new(&entry.file).extension();
        if !ext.is_some_and(|e| e.eq_ignore_ascii_case("kif") || e.eq_ignore_ascii_case("kifu")) {
            continue;
        }
        let bytes = std::fs::read(data_dir().join(&entry.file)).expect("record readable");
        let original = shogi_record::encoding::decode(&bytes).0;
        let theirs = timed_move_lines(&original);
        let layout_of_kfw = !theirs.is_empty()
            && theirs.iter().all(|(_, l)| {
                time_column(l).is_some_and(|i| {
                    display_width(&l[..i]) == 18
                        || display_width(&l[..i]) == 19 && l[..i].ends_with(") ")
                })
            });
        if !layout_of_kfw {
            continue;
        }
        let rec = shogi_record::read(&bytes).expect("shared record reads");
        let ours: std::collections::BTreeMap<usize, String> =
            timed_move_lines(&shogi_record::kif::write(&rec))
                .into_iter()
                .collect();
        for (ply, line) in &theirs {
            if rec.illegal_move.as_ref().is_some_and(|i| i.ply <= *ply)
                || *ply > rec.main_line().len()
            {
                break; // the terminal word's own time is not kept
            }
            // Where the time field starts, in display columns (its digits, and
            // whether a move to the last square is written 同, vary between programs).
            let column = |l: &str| display_width(&l[..time_column(l).unwrap_or(l.len())]);
            assert_eq!(
                ours.get(ply).map(|l| column(l)),
                Some(column(line)),
                "{} ply {ply}: ours {:?}, theirs {line:?}",
                entry.file,
                ours.get(ply)
            );
            compared += 1;
        }
    }
    assert!(compared >= 300, "only {compared} lines compared");
}

/// The shared CSA records written one after another in one file (CSA's `/`
/// line between them, as V2.2 and V3.0 allow), with LF and with CRLF line
/// breaks: `read_each` gives each record as reading its file alone does,
/// with its own bytes, and an error's line counted from the top of the file.
#[test]
fn a_csa_file_of_several_records_reads_as_its_records_alone() {
    let files: Vec<String> = manifest()
        .into_iter()
        .filter(|e| {
            std::path::Path::new(&e.file)
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("csa"))
        })
        .filter_map(|e| {
            // Records in Shift_JIS declare it in their first line, which
            // would apply to the whole file: only the UTF-8 ones are joined.
            let bytes = std::fs::read(data_dir().join(&e.file)).expect("record readable");
            String::from_utf8(bytes).ok()
        })
        .collect();
    assert!(files.len() >= 5, "{} UTF-8 CSA records", files.len());
    for crlf in [false, true] {
        let texts: Vec<String> = files
            .iter()
            .map(|t| {
                let t = if t.ends_with('\n') {
                    t.clone()
                } else {
                    format!("{t}\n")
                };
                if crlf {
                    t.replace("\r\n", "\n").replace('\n', "\r\n")
                } else {
                    t
                }
            })
            .collect();
        let sep = if crlf { "/\r\n" } else { "/\n" };
        let joined = texts.join(sep);
        let read = shogi_record::read_each(joined.as_bytes());
        assert_eq!(read.len(), texts.len());
        for ((bytes, rec), text) in read.iter().zip(&texts) {
            assert_eq!(*bytes, text.as_bytes());
            assert_eq!(rec, &shogi_record::read(text.as_bytes()), "{text}");
        }
        // A bad move in the last record: its line in the whole file.
        let bad = format!(
            "{joined}{sep}PI{}+{}+7776XX{}",
            &sep[1..],
            &sep[1..],
            &sep[1..]
        );
        let read = shogi_record::read_each(bad.as_bytes());
        let err = read
            .last()
            .and_then(|r| r.1.as_ref().err())
            .expect("bad move");
        assert_eq!(err.line, bad.lines().count());
        assert_eq!(bad.lines().nth(err.line - 1), Some("+7776XX"));
        // One record alone, a separator after it: still one record.
        let one = format!("{}{sep}", texts[0]);
        assert_eq!(shogi_record::read_each(one.as_bytes()).len(), 1);
    }
}
