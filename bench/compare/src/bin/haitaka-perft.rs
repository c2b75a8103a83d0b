//! `haitaka-perft DEPTH SFEN [--no-bulk]`: perft with haitaka 0.3.2 (copy-make, as its own example does).
use haitaka::Board;

fn perft(board: &Board, depth: u8, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if bulk && depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.into_iter().len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += perft(&child, depth - 1, bulk);
        }
        false
    });
    nodes
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u8 = args[1].parse().expect("depth");
    let board = if args[2] == "startpos" { Board::startpos() } else { Board::from_sfen(&args[2]).expect("sfen") };
    let bulk = !args.iter().any(|a| a == "--no-bulk");
    println!("Nodes searched: {}", perft(&board, depth, bulk));
}
