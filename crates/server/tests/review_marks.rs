//! The review marks no book move: the first ten plies of real professional
//! games (`shared/data/records`, beside the checkout) evaluated by a short
//! search of fixed depth, as the background analysis would, get no mark.

mod common;

use common::records_dir;
use shogi_core::Position;
use shogi_engine::limits::SearchLimit;
use shogi_engine::search::SearchControl;
use shogi_engine::tt::TranspositionTable;
use shogi_server::review::analysis::evaluate;
use shogi_server::review::marks::{mistakes, win_chance};

/// Even games between professionals: a 2025 Kiō title match game (Fujii),
/// the 2017 women's Ōza, and games of the Edo period's hereditary
/// professionals (伊藤印達 and 大橋宗銀, 1709-1711).
const PRO_GAMES: [&str; 8] = [
    "sbq_test_kiou_comments.kif",
    "bioshogi_sample_womens_ouza_2017.csa",
    "sp_08731.kif",
    "sp_15732.kif",
    "sp_16217.kif",
    "sp_27479.kif",
    "sp_27482.kif",
    "sp_39801.kif",
];
/// The opening plies that must stay unmarked.
const OPENING_PLIES: usize = 10;
/// The search of each position: fixed, so the test is repeatable and quick.
const DEPTH: u32 = 9;

#[test]
fn no_book_move_of_professional_games_is_marked() {
    let dir = records_dir();
    let tt = TranspositionTable::new(16);
    let mut report = Vec::new();
    for name in PRO_GAMES {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let rec = shogi_record::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rec.start, Position::startpos(), "{name} is an even game");
        let moves: Vec<_> = rec.main_line().into_iter().take(OPENING_PLIES).collect();
        tt.clear();
        let mut pos = rec.start.clone();
        let mut evals = Vec::new();
        for ply in 0..=moves.len() {
            let control = SearchControl::new(false);
            evals.push(evaluate(
                &pos,
                ply,
                &SearchLimit::Depth(DEPTH),
                &tt,
                &control,
            ));
            if let Some(&mv) = moves.get(ply) {
                pos.make_move(mv);
            }
        }
        let chances: Vec<String> = evals
            .iter()
            .map(|e| format!("{:.0}", win_chance(e.score_cp, e.mate) * 100.0))
            .collect();
        report.push(format!("{name}: Sente's chance {}", chances.join(" ")));
        let marked = mistakes(&rec.start, &moves, &evals);
        assert!(
            marked.is_empty(),
            "{name}: {marked:?}\n{}",
            report.join("\n")
        );
    }
    println!("{}", report.join("\n"));
}
