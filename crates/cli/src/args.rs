//! Command-line arguments.

use clap::{Args, Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  shogi perft 5                                   count the leaves of the start position to depth 5
  shogi perft 3 --sfen 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1' --divide
  shogi moves --sfen startpos --moves 7g7f 3c3d   the legal moves after 1.7g7f 3c3d
  shogi status --sfen startpos --moves 7g7f 3c3d 8h2b+ 3a2b
  shogi status --sfen '<SFEN>' --impasse-rule count24 --explain
  shogi show --handicap rook --style kif          a KIF board diagram of the rook handicap start

Positions: --sfen takes an SFEN, 'startpos', or a whole USI line ('startpos moves 7g7f');
--handicap takes even, lance, right-lance, bishop, rook, rook-lance, 2, 3, 4, 5, left-5, 6,
left-7, right-7, 8, 10. Bad input prints one line on stderr and exits with status 2.";

/// Shogi rules, move generation and analysis tools.
#[derive(Parser, Debug)]
#[command(name = "shogi", version, about, after_help = EXAMPLES, after_long_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaf nodes of the legal move tree (perft).
    Perft(PerftArgs),
    /// List the legal moves, one USI move per line.
    Moves(PositionArgs),
    /// Print one word: the state of the game for the side to move after the moves.
    ///
    /// Words: illegal_move, checkmate, no_legal_moves, perpetual_check_loss,
    /// perpetual_check_win, repetition_draw, impasse_win, impasse_draw, impasse_loss,
    /// try_loss, max_moves_draw, ongoing. Precedence: illegal_move > checkmate /
    /// no_legal_moves > repetition > impasse > move limit > ongoing.
    Status(StatusArgs),
    /// Draw the position as text.
    Show(ShowArgs),
}

/// Where to start and which moves to play.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// Start position: an SFEN, `startpos`, or a USI line (`startpos moves 7g7f`).
    #[arg(long)]
    pub sfen: Option<String>,
    /// Start from a standard handicap position instead (e.g. `rook`, `2`, `left-7`).
    #[arg(long)]
    pub handicap: Option<String>,
    /// USI moves to play first (several values, or one quoted list).
    #[arg(long, num_args = 1.., allow_hyphen_values = false)]
    pub moves: Vec<String>,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Print each legal move with its leaf count (`MOVE: COUNT`).
    #[arg(long)]
    pub divide: bool,
    /// Make and unmake every leaf move instead of counting the last ply.
    #[arg(long)]
    pub no_bulk: bool,
}

#[derive(Args, Debug)]
pub struct StatusArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Impasse rule: 27 (CSA declaration), 24 (JSA declaration), count24 (both kings in: below 24 loses), try, none.
    #[arg(long, default_value = "27")]
    pub impasse_rule: String,
    /// Credit the pieces removed by a handicap to the handicap giver in impasse counts.
    #[arg(long)]
    pub handicap_credit: bool,
    /// Draw once this many moves have been played.
    #[arg(long)]
    pub max_moves: Option<u32>,
    /// Explain the verdict in a sentence on stderr.
    #[arg(long)]
    pub explain: bool,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// `plain` (files 9..1 across, ranks a..i down) or `kif` (the Japanese BOD board).
    #[arg(long, default_value = "plain", value_parser = ["plain", "kif", "bod"])]
    pub style: String,
}
