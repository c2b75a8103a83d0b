//! `differential [POSITIONS] [DEPTH]`: walk random games with shogi-core and
//! compare perft counts of every visited position with rsshogi's. Prints the
//! first disagreement (SFEN and both counts) or a summary line.
use rsshogi::board::perft::compute_perft;
use rsshogi::board::position_from_sfen;
use shogi_core::{Handicap, Position};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let depth: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut checked = 0u64;
    for g in 0..games {
        let mut pos: Position = Handicap::ALL[g % Handicap::ALL.len()].position();
        for _ply in 0..200 {
            let ours = shogi_core::perft::perft(&mut pos.clone(), depth, true);
            let sfen = pos.to_sfen();
            let mut theirs_pos = position_from_sfen(&sfen).expect("rsshogi reads our SFEN");
            theirs_pos.init_stack();
            let theirs = compute_perft(&mut theirs_pos, depth as u8);
            if ours != theirs {
                println!("DISAGREE {sfen}: ours {ours} rsshogi {theirs}");
                std::process::exit(1);
            }
            checked += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[(rnd() % moves.len() as u64) as usize]);
        }
    }
    println!("{checked} positions agree at depth {depth}");
}
