//! The df-pn solver against the shared tsume collection
//! (`shared/data/tsume/manifest.tsv`, beside the repository clone).
//!
//! Every problem whose `strict_min_mate_plain_rules` is a number must be
//! solved with a checked line of exactly that length (the solver shortens
//! the first mate it proves); other problems must not
//! produce a wrong line. The 1525-ply "microcosmos" is solved with the
//! default table, as `shogi mate` does (about two minutes of CPU), and the
//! 611-ply 寿 (Kotobuki) from its published position.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use shogi_core::{Leniency, Position};
use shogi_engine::dfpn::{
    solve_mate, solve_mate_with_stats, verify_mate_line, MateLimit, MateResult,
};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/tsume");

struct Problem {
    id: String,
    sfen: String,
    strict: Option<usize>,
}

fn problems() -> Vec<Problem> {
    let path = PathBuf::from(DATA).join("manifest.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "tsume data missing: cannot read {} ({e}); the shared/ data directory must sit beside the repository clone",
            path.display()
        )
    });
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("manifest.tsv has no column {name}"))
    };
    let (id, sfen, strict) = (col("id"), col("sfen"), col("strict_min_mate_plain_rules"));
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Problem {
                id: f[id].to_string(),
                sfen: f[sfen].to_string(),
                strict: f[strict].trim().parse().ok(),
            }
        })
        .collect()
}

fn position(p: &Problem) -> Position {
    shogi_core::sfen::parse_position_with(
        &p.sfen,
        Leniency {
            allow_missing_kings: true,
        },
    )
    .unwrap_or_else(|e| panic!("{}: bad SFEN {}: {e}", p.id, p.sfen))
}

#[test]
fn strict_mates_are_solved() {
    let all = problems();
    assert!(all.len() > 50, "manifest has only {} problems", all.len());
    let mut solved = 0;
    let start = Instant::now();
    for p in all.iter().filter(|p| p.strict.is_some()) {
        let want = p.strict.unwrap_or(0);
        let pos = position(p);
        let t = Instant::now();
        let r = solve_mate(&pos, MateLimit::time(Duration::from_secs(20)));
        let ms = t.elapsed().as_millis();
        match r {
            MateResult::Mate(line) => {
                assert!(
                    verify_mate_line(&pos, &line),
                    "{}: invalid line {line:?}",
                    p.id
                );
                assert_eq!(
                    line.len(),
                    want,
                    "{}: mate in {}, but the shortest is {want}",
                    p.id,
                    line.len()
                );
                println!(
                    "{}: mate in {} (minimum {want}) in {ms} ms",
                    p.id,
                    line.len()
                );
                solved += 1;
            }
            other => panic!(
                "{}: expected a mate in {want}, got {other:?} after {ms} ms",
                p.id
            ),
        }
    }
    println!(
        "{solved} strict mates solved in {} ms",
        start.elapsed().as_millis()
    );
}

#[test]
fn other_problems_give_no_wrong_mate() {
    for p in problems()
        .iter()
        .filter(|p| p.strict.is_none() && p.id != "microcosmos")
    {
        let pos = position(p);
        let t = Instant::now();
        let (r, nodes) = solve_mate_with_stats(&pos, MateLimit::time(Duration::from_secs(3)));
        let ms = t.elapsed().as_millis();
        if let MateResult::Mate(line) = &r {
            assert!(
                verify_mate_line(&pos, line),
                "{}: invalid line {line:?}",
                p.id
            );
            println!("{}: mate in {} in {ms} ms, {nodes} nodes", p.id, line.len());
        } else {
            println!("{}: {r:?} in {ms} ms, {nodes} nodes", p.id);
        }
    }
}

/// Microcosmos: 1800 s and the default table (2 million entries, 64 MB),
/// unless the environment says otherwise (`MICROCOSMOS_SECS`,
/// `MICROCOSMOS_ENTRIES`; 64 million entries take 3 GB and fewer nodes).
#[test]
fn microcosmos() {
    let p = problems()
        .into_iter()
        .find(|p| p.id == "microcosmos")
        .expect("microcosmos in manifest");
    let pos = position(&p);
    let t = Instant::now();
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (r, nodes) = solve_mate_with_stats(
        &pos,
        MateLimit {
            time: Some(Duration::from_secs(env("MICROCOSMOS_SECS", 1800))),
            max_entries: env("MICROCOSMOS_ENTRIES", 0) as usize,
            ..MateLimit::default()
        },
    );
    let ms = t.elapsed().as_millis();
    match &r {
        MateResult::Mate(line) => {
            assert!(verify_mate_line(&pos, line), "invalid line");
            println!(
                "microcosmos: mate in {} in {ms} ms, {nodes} nodes",
                line.len()
            );
        }
        other => println!("microcosmos: {other:?} after {ms} ms, {nodes} nodes"),
    }
    assert!(
        matches!(r, MateResult::Mate(_)),
        "microcosmos is a mate: {r:?}"
    );
}

/// 寿 (Kotobuki), 伊藤看寿『将棋図巧』第100番 (1755, public domain), the
/// 611-ply classic. The position is not in the shared collection; it is
/// taken from the Open Tsume dataset (`tokoroten/edo_era_tsume_shogi`,
/// `collections/edo/zukou/problems/100.json`, CC0), whose line cshogi
/// replays as a mate. The solver needs about ten seconds of CPU.
#[test]
fn kotobuki_611() {
    let pos = position(&Problem {
        id: "kotobuki".into(),
        sfen: "g3p3+r/3lPG3/1s4ppp/1l1B4P/L2b1kPl1/3+p3+R+p/3+p2+s1S/+NP+p1gS3/1g+p2P3 b 4P3n 1"
            .into(),
        strict: None,
    });
    let t = Instant::now();
    let (r, nodes) = solve_mate_with_stats(&pos, MateLimit::time(Duration::from_secs(600)));
    let ms = t.elapsed().as_millis();
    let MateResult::Mate(line) = &r else {
        panic!("Kotobuki is a mate: {r:?} after {ms} ms, {nodes} nodes");
    };
    assert!(verify_mate_line(&pos, line), "invalid line");
    // Plain rules leave the defender every choice the tsume convention
    // does, so no mate is shorter than the published 611 plies.
    assert!(
        line.len() >= 611,
        "mate in {}: shorter than 611",
        line.len()
    );
    println!("kotobuki: mate in {} in {ms} ms, {nodes} nodes", line.len());
}

/// 伊藤看寿『将棋図巧』第3番 (1755, public domain; position from the Open
/// Tsume dataset, `tokoroten/edo_era_tsume_shogi`,
/// `collections/edo/zukou/problems/003.json`, CC0), published as 45 plies.
/// The first mate df-pn proves is 51 plies; shortening must bring it to at
/// most the published length, which is a mate under plain rules against
/// every defence (the depth-limited search proves it so). The node limit
/// (not a time) bounds the search for a still shorter one.
#[test]
fn zukou_3_is_shortened_to_its_published_length() {
    let pos = position(&Problem {
        id: "zukou-003".into(),
        sfen: "2p1g+P3/1P1p1pp2/l1P1g1S+r1/P1B1P1+p2/1p3l3/1kN6/9/2+B6/1r7 b GS2N2Pg2sn2l5p 1"
            .into(),
        strict: None,
    });
    let limit = MateLimit {
        nodes: Some(400_000),
        ..MateLimit::default()
    };
    let MateResult::Mate(line) = solve_mate(&pos, limit) else {
        panic!("zukou 3 is a mate");
    };
    assert!(verify_mate_line(&pos, &line), "invalid line {line:?}");
    assert!(line.len() <= 45, "mate in {}, published 45", line.len());
}
