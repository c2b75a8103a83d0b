//! `shogi db generate`: a large collection of self-play games for the
//! database's benchmarks (docs/EXPLORER.md): random opening moves, then
//! our engine at a few hundred nodes a move, written as KIF and CSA files
//! with players, dates and a time control.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use shogi_core::{Ending, Game, GameRules, GameStatus, ImpasseRule, Position};
use shogi_engine::eval::LinearEval;
use shogi_engine::limits::SearchLimit;
use shogi_engine::params::EvalParams;
use shogi_engine::rng::Rng;
use shogi_engine::search::{
    search_on_this_thread, PastPosition, SearchControl, SearchOptions, MATE_IN_MAX_PLY,
    SEARCH_STACK,
};
use shogi_engine::tt::TranspositionTable;
use shogi_record::encoding::Encoding;
use shogi_record::{Format, Record};

use crate::args::DbGenerateArgs;
use crate::CliError;

/// The players' names the games are given (a club of 60).
const FIRST: [&str; 12] = [
    "Ivan", "Olga", "Taro", "Hanako", "Petro", "Oksana", "Alice", "Boris", "Kenji", "Yuki",
    "Dmytro", "Anna",
];
const LAST: [&str; 5] = ["S", "K", "M", "T", "V"];

/// One game: its record (players, date, time control, moves, ending).
fn play(
    a: &DbGenerateArgs,
    index: usize,
    tt: &TranspositionTable,
    options: &SearchOptions,
) -> Record {
    let mut rng = Rng::new(a.seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let rules = GameRules {
        impasse: ImpasseRule::Csa27,
        max_moves: Some(a.max_plies),
        ..GameRules::default()
    };
    // A game's table starts empty, so the game depends on its number only.
    tt.clear();
    let mut game = Game::with_rules(Position::startpos(), rules);
    let mut past: Vec<PastPosition> = Vec::new();
    // The search checks its node count every 1024 nodes, so below that a
    // depth is the limit that holds.
    let limit = if a.nodes < 1024 {
        SearchLimit::Depth(u32::try_from(a.nodes / 100).unwrap_or(1).clamp(1, 8))
    } else {
        SearchLimit::Nodes(a.nodes)
    };
    let random = 2 + rng.below(a.random_plies.saturating_sub(1) as usize + 1);
    let mut ending = None;
    for ply in 0.. {
        if game.status() != GameStatus::Ongoing {
            ending = game.ending();
            break;
        }
        let pos = game.position().clone();
        let us = pos.side_to_move();
        let m = if ply < random {
            let moves = pos.legal_moves();
            moves[rng.below(moves.len())]
        } else {
            let r = search_on_this_thread(
                &pos,
                &past,
                &limit,
                options,
                tt,
                &SearchControl::new(false),
                &mut |_: &str| {},
            );
            match r.best_move {
                Some(m) if r.score > -MATE_IN_MAX_PLY => m,
                _ => {
                    ending = Some(Ending::Resignation { loser: us });
                    break;
                }
            }
        };
        past.push(PastPosition {
            key: pos.hash(),
            gave_check: false,
        });
        if game.play(m).is_err() {
            ending = game.ending();
            break;
        }
    }
    let mut rec = Record::new(Position::startpos());
    let name = |rng: &mut Rng| {
        format!(
            "{} {}",
            FIRST[rng.below(FIRST.len())],
            LAST[rng.below(LAST.len())]
        )
    };
    let sente = name(&mut rng);
    let mut gote = name(&mut rng);
    while gote == sente {
        gote = name(&mut rng);
    }
    rec.headers.sente = Some(sente);
    rec.headers.gote = Some(gote);
    // A day in 2023-2025: every one past (the years 2024-2026 written
    // until 2026-12-08 put some games in the weeks after the day they were
    // written, and the explorer then listed games played in the future).
    let day = rng.below(3 * 365);
    let (y, d) = (2023 + day / 365, day % 365);
    rec.headers.start_time = Some(format!(
        "{y}/{:02}/{:02} 19:00:00",
        d / 31 % 12 + 1,
        d % 28 + 1
    ));
    rec.headers.event = Some("Club self-play".into());
    rec.headers.time_control = Some(shogi_record::TimeControl {
        main: [600, 1800, 180][index % 3],
        byoyomi: 30,
        increment: 0,
    });
    for &m in game.moves() {
        rec.moves.push(shogi_record::Node::new(m));
    }
    rec.ending = ending.map_or(shogi_record::Ending::None, shogi_record::Ending::Game);
    rec
}

/// Runs `shogi db generate`.
pub fn run(a: &DbGenerateArgs) -> Result<(), CliError> {
    std::fs::create_dir_all(&a.out).map_err(|e| CliError(format!("{}: {e}", a.out.display())))?;
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
        .max(1);
    let next = Arc::new(AtomicUsize::new(a.first));
    let end = a.first.saturating_add(a.games);
    let started = Instant::now();
    let results = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let next = Arc::clone(&next);
                let thread = std::thread::Builder::new().stack_size(SEARCH_STACK);
                thread.spawn_scoped(s, move || -> Result<(usize, usize), CliError> {
                    let params = EvalParams::builtin();
                    let options = SearchOptions {
                        impasse: ImpasseRule::Csa27,
                        evaluator: Arc::new(LinearEval::new(Arc::clone(&params))),
                        ..SearchOptions::default()
                    };
                    let tt = TranspositionTable::new(1);
                    let (mut games, mut moves) = (0, 0);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= end {
                            return Ok((games, moves));
                        }
                        let rec = play(a, i, &tt, &options);
                        moves += rec.moves.len();
                        games += 1;
                        write(&a.out, i, &rec)?;
                        if i.is_multiple_of(10_000) && i > a.first {
                            eprintln!("{i} games, {:.0} s", started.elapsed().as_secs_f64());
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h
                    .join()
                    .unwrap_or_else(|_| Err(CliError("a thread panicked".into()))),
                Err(e) => Err(CliError(format!("starting a thread: {e}"))),
            })
            .collect::<Vec<_>>()
    });
    let (mut games, mut moves) = (0, 0);
    for r in results {
        let (g, m) = r?;
        games += g;
        moves += m;
    }
    let secs = started.elapsed().as_secs_f64();
    out!(
        "{games} games ({moves} moves) written to {} in {secs:.0} s: {:.0} games/s",
        a.out.display(),
        games as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn write(out: &Path, index: usize, rec: &Record) -> Result<(), CliError> {
    let dir = out.join(format!("{:04}", index / 1000));
    std::fs::create_dir_all(&dir).map_err(|e| CliError(format!("{}: {e}", dir.display())))?;
    let (path, bytes) = if index.is_multiple_of(2) {
        (
            dir.join(format!("g{index:07}.kif")),
            shogi_record::write_bytes(rec, Format::Kif, Encoding::ShiftJis),
        )
    } else {
        let text = shogi_record::write(rec, Format::Csa);
        (dir.join(format!("g{index:07}.csa")), text.into_bytes())
    };
    std::fs::write(&path, bytes).map_err(|e| CliError(format!("{}: {e}", path.display())))
}
