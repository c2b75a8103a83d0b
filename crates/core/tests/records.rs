//! Every game in `shared/data/records/*.usi` replayed move by move; where the
//! manifest's ending is a rule ending, the rules core must reach it.

use std::collections::HashMap;
use std::path::PathBuf;

use shogi_core::usi::PositionCommand;
use shogi_core::{GameRules, GameStatus, ImpasseRule, Leniency};

fn data_dir() -> PathBuf {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/records"
    ));
    assert!(
        dir.join("manifest.tsv").exists(),
        "test data missing: expected {} (shared/ beside the repository)",
        dir.display()
    );
    dir
}

/// file -> `expected_ending`, from the manifest.
fn endings() -> HashMap<String, String> {
    let text = std::fs::read_to_string(data_dir().join("manifest.tsv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (file, ending) = (col("file"), col("expected_ending"));
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f.len() > ending)
        .map(|f| (f[file].to_string(), f[ending].to_string()))
        .collect()
}

#[test]
fn every_record_replays_and_rule_endings_are_reached() {
    let endings = endings();
    let mut replayed = 0;
    let mut rule_endings = 0;
    let mut entries: Vec<_> = std::fs::read_dir(data_dir()).unwrap().flatten().collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name().to_string_lossy().to_string();
        // Only the expected main lines (`X.usi` next to a record `X` of the manifest);
        // a record that is itself in USI format may hold illegal moves on purpose.
        let Some(record) = name.strip_suffix(".usi") else {
            continue;
        };
        if !endings.contains_key(record) {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let cmd = PositionCommand::parse_with(
            text.trim(),
            Leniency {
                allow_missing_kings: true,
            },
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        // Judge under the try rule too: one record ends by a king reaching the try square.
        for impasse in [ImpasseRule::Csa27, ImpasseRule::Try] {
            let rules = GameRules {
                impasse,
                ..GameRules::default()
            };
            let (game, err) = cmd.replay(rules);
            if record == "sbq_test_drops.usi" {
                // The fixture drops a pawn Sente does not hold (it holds a bishop after
                // 8h2b+ 3a2b); the manifest does not flag it, the rules must.
                let (ply, e) = err.expect("P*5e must be refused");
                assert_eq!(ply, 5);
                assert!(e.to_string().contains("no Pawn in hand"), "{e}");
                continue;
            }
            assert!(err.is_none(), "{name}: {err:?}");
            let status = game.status();
            let us = game.position().side_to_move();
            let ending = endings.get(record).map_or("", String::as_str);
            let winner = status.outcome(us).map(|o| o.winner);
            match ending {
                "千日手" => {
                    assert_eq!(status, GameStatus::RepetitionDraw, "{name}");
                    rule_endings += 1;
                }
                // The side to move lost by a foul: perpetual check, or the opponent's try.
                "反則負け" => {
                    if impasse == ImpasseRule::Try {
                        assert_eq!(winner, Some(Some(us.opponent())), "{name}: {status:?}");
                        assert!(
                            matches!(status, GameStatus::PerpetualCheckLoss | GameStatus::TryLoss),
                            "{name}: {status:?}"
                        );
                        rule_endings += 1;
                    }
                }
                // 反則勝ち after a legal move: the foul is not in the record (a bridge
                // scenario), so the rules see a game that goes on.
                "反則勝ち" => assert_eq!(status, GameStatus::Ongoing, "{name}"),
                // Resignations, interruptions and records that just stop: no rule ended them.
                _ => assert!(
                    matches!(status, GameStatus::Ongoing | GameStatus::Checkmate),
                    "{name}: ending {ending:?} but the rules say {status:?}"
                ),
            }
        }
        replayed += 1;
    }
    assert!(replayed >= 60, "only {replayed} records found");
    assert!(
        rule_endings >= 4,
        "only {rule_endings} rule endings checked"
    );
}
