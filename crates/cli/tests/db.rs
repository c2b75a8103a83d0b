//! `shogi db import`, `shogi db stats` and `shogi explore` on the shared
//! records: the explorer's first-move counts equal a count made directly
//! from the expected main lines (`*.usi` next to each record), duplicates
//! are skipped, an unreadable file gets its `FILE:LINE:COLUMN` line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shogi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shogi"))
        .args(args)
        .output()
        .unwrap()
}

fn records() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/records")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shogi-cli-db-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The distinct main lines from the start position among the `.usi` files.
fn start_lines() -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    for entry in std::fs::read_dir(records()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "usi") {
            let text = std::fs::read_to_string(&path).unwrap();
            let Some(rest) = text.trim().strip_prefix("position startpos") else {
                continue;
            };
            let moves = rest
                .trim()
                .strip_prefix("moves")
                .unwrap_or("")
                .split_whitespace()
                .map(str::to_owned)
                .collect();
            out.insert(moves);
        }
    }
    out
}

#[test]
fn explore_counts_the_first_moves_of_the_imported_main_lines() {
    let dir = temp("usi");
    let input = dir.join("usi");
    std::fs::create_dir_all(&input).unwrap();
    for entry in std::fs::read_dir(records()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "usi") {
            std::fs::copy(&path, input.join(path.file_name().unwrap())).unwrap();
        }
    }
    let db = dir.join("club.db");
    let db = db.to_str().unwrap();
    let input = input.to_str().unwrap();
    let o = shogi(&["db", "import", input, "--collection", "usi", "--db", db]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );

    let lines = start_lines();
    let mut want: BTreeMap<String, u64> = BTreeMap::new();
    for l in lines.iter().filter(|l| !l.is_empty()) {
        *want.entry(l[0].clone()).or_default() += 1;
    }
    let o = shogi(&["explore", "--db", db, "--collection", "usi"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    let total = out
        .lines()
        .find_map(|l| l.strip_prefix("games: "))
        .unwrap()
        .parse::<usize>()
        .unwrap();
    assert_eq!(total, lines.len(), "{out}");
    let mut got = BTreeMap::new();
    for line in out.lines().skip_while(|l| !l.starts_with("move ")).skip(1) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if cols.len() < 2 || !cols[0].chars().next().unwrap().is_ascii_digit() {
            break;
        }
        got.insert(cols[0].to_owned(), cols[1].parse::<u64>().unwrap());
    }
    assert_eq!(got, want, "{out}");

    // Importing again adds nothing; stats count the games.
    let o = shogi(&["db", "import", input, "--collection", "usi", "--db", db]);
    let again = String::from_utf8_lossy(&o.stdout);
    assert!(again.starts_with("0 games added to usi ("), "{again}");
    let o = shogi(&["db", "stats", "--db", db]);
    let stats = String::from_utf8_lossy(&o.stdout);
    let games = stats
        .lines()
        .find_map(|l| l.strip_prefix("games: "))
        .unwrap();
    let row = ["usi", "public", games, "games"];
    assert!(
        stats.lines().any(|l| l.split_whitespace().eq(row)),
        "{stats}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unreadable_file_is_named_with_its_line_and_column_and_the_rest_imported() {
    let dir = temp("bad");
    std::fs::write(
        dir.join("good.csa"),
        "N+A\nN-B\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n",
    )
    .unwrap();
    std::fs::write(dir.join("bad.csa"), "PI\n+\n+7776FU\n-33ZZFU\n").unwrap();
    let db = dir.join("x.db");
    let o = shogi(&[
        "db",
        "import",
        dir.to_str().unwrap(),
        "--collection",
        "mixed",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    let bad = format!("shogi: {}:4:1: ", dir.join("bad.csa").display());
    assert!(err.lines().next().unwrap().starts_with(&bad), "{err}");
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("1 games added to mixed"));
    let o = shogi(&[
        "explore",
        "--db",
        db.to_str().unwrap(),
        "--collection",
        "nope",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&o.stderr).lines().count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}
