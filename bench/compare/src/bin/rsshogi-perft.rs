//! `rsshogi-perft DEPTH SFEN [--no-bulk]`: perft with rsshogi 1.7.3, for timing as a whole process.
use rsshogi::board::movegen::generate_legal_all_move32;
use rsshogi::board::perft::compute_perft;
use rsshogi::board::{position_from_sfen, Move32List};

fn perft_no_bulk(pos: &mut rsshogi::board::Position, depth: u8) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = Move32List::new();
    generate_legal_all_move32(pos, &mut list);
    let mut n = 0;
    for &mv in list.iter() {
        pos.apply_move32(mv);
        n += perft_no_bulk(pos, depth - 1);
        // SAFETY: `mv` is the move just applied, so the state stack is not empty.
        unsafe { pos.undo_move32_unchecked(mv) };
    }
    n
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u8 = args[1].parse().expect("depth");
    let sfen = if args[2] == "startpos" { "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1" } else { &args[2] };
    let mut pos = position_from_sfen(sfen).expect("sfen");
    pos.init_stack();
    let n = if args.iter().any(|a| a == "--no-bulk") {
        perft_no_bulk(&mut pos, depth)
    } else {
        compute_perft(&mut pos, depth)
    };
    println!("Nodes searched: {n}");
}
