//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

const EXAMPLES: &str = "\
Examples:
  shogi perft 5                                   count the leaves of the start position to depth 5
  shogi perft 3 --sfen 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1' --divide
  shogi moves --sfen startpos --moves 7g7f 3c3d   the legal moves after 1.7g7f 3c3d
  shogi status --sfen startpos --moves 7g7f 3c3d 8h2b+ 3a2b
  shogi status --sfen '<SFEN>' --impasse-rule count24 --explain
  shogi show --handicap rook --style kif          a KIF board diagram of the rook handicap start
  shogi convert --to csa game.kif                 a record in another format (see `shogi convert --help`)
  shogi diagram --sfen startpos -o board.svg      a board picture, SVG or PNG (see `shogi diagram --help`)
  shogi usi                                       the USI engine (for ShogiHome, ShogiGUI, match runners)
  shogi mate --sfen '<SFEN>' --time-ms 5000       a mating line, or nomate / timeout
  shogi bench                                     search benchmark: N nodes M nps
  shogi match --games 20 --byoyomi 100            engine matches (see `shogi match --help`)
  shogi tune gen --games 1000 --out data.txt      self-play tuning data (see `shogi tune --help`)
  shogi serve --port 8080 --db shogi.db           the web app
  shogi csa-client --server HOST:4081 --id bot --password GAME,TOKEN
                                                  our engine on a CSA server (see `shogi csa-client --help`)
  shogi user add alice --admin < password.txt     an account of the web app (see `shogi user --help`)

Positions: --sfen takes an SFEN, 'startpos', or a whole USI line ('startpos moves 7g7f');
--handicap takes even, lance, right-lance, bishop, rook, rook-lance, 2, 3, 4, 5, left-5, 6,
left-7, right-7, 8, 10. Bad input prints one line on stderr and exits with status 2.";

/// Shogi: play in the browser (`shogi` alone serves the app on
/// http://127.0.0.1:8080), rules, records, engine and analysis tools.
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
    /// Convert game records between KIF, KI2, CSA, JKF, USEN and USI.
    ///
    /// The input format and text encoding (UTF-8 or Shift_JIS) are found from
    /// the content, never from the file name. A record with an illegal move is
    /// converted up to that move, with one warning line on stderr (exit 0).
    /// Unreadable input prints `shogi: FILE:LINE:COLUMN: message` and exits with 2.
    ///
    /// Several files or folders (searched recursively for .kif .kifu .ki2 .ki2u .csa
    /// .jkf .json .usi .usen .sfen .txt) convert in one call into the folder -o names,
    /// with a progress bar on stderr when it is a terminal; each unreadable input gets
    /// its one line, the others are still converted, and the exit status is then 2.
    /// A file of several records (CSA: a line holding only `/` between them;
    /// USI: one game a line; KIF or KI2: one game after another) gives one
    /// output each, `NAME-1`, `NAME-2`..., in the folder -o names.
    #[command(after_help = CONVERT_EXAMPLES, after_long_help = CONVERT_EXAMPLES)]
    Convert(ConvertArgs),
    /// Draw a board diagram as SVG or PNG.
    ///
    /// A 9x9 board with file numbers across the top and rank labels down the
    /// side, both hands with counts (Gote's at the top left, Sente's at the
    /// bottom right), the last move's square highlighted and a marker by the
    /// side to move. The output format follows the extension of -o (`.svg`
    /// or `.png`).
    #[command(after_help = DIAGRAM_EXAMPLES, after_long_help = DIAGRAM_EXAMPLES)]
    Diagram(DiagramArgs),
    /// Run the USI engine on standard input and output (for GUIs and match runners).
    Usi,
    /// Solve a mate problem with the df-pn solver: prints the mating line as USI
    /// moves on one line, or `nomate`, or `timeout`.
    Mate(MateArgs),
    /// Search fixed positions to a fixed depth on one thread: nodes per
    /// position, then `N nodes M nps`. The node count is the search's signature.
    Bench(BenchArgs),
    /// Play USI engines against each other, judged by our rules core.
    #[command(after_help = MATCH_EXAMPLES, after_long_help = MATCH_EXAMPLES)]
    Match(MatchArgs),
    /// Serve the web app (HTTP and WebSocket) on an embedded SQLite database.
    Serve(ServeArgs),
    /// Play a USI engine (ours by default) on a CSA protocol server, such as
    /// floodgate or `shogi serve --csa-port`: one line per game on stdout,
    /// then a summary line (docs/CSA.md).
    #[command(after_help = CSA_CLIENT_EXAMPLES, after_long_help = CSA_CLIENT_EXAMPLES)]
    CsaClient(CsaClientArgs),
    /// Manage the web app's accounts in its database (the server may be running).
    #[command(subcommand)]
    User(UserCommand),
    /// Tune the evaluation: self-play data, Texel fitting, match openings (docs/TUNING.md).
    #[command(subcommand)]
    Tune(TuneCommand),
    /// Make puzzles from our engine's self-play (docs/PUZZLES.md).
    #[command(subcommand)]
    Puzzles(PuzzlesCommand),
    /// The game database: import records into collections, print its size
    /// (docs/EXPLORER.md).
    #[command(subcommand)]
    Db(DbCommand),
    /// The opening explorer's moves table for a position, from a database's
    /// collections: the moves played, their games and results, then the most
    /// recent games through it (docs/EXPLORER.md).
    #[command(after_help = EXPLORE_EXAMPLES, after_long_help = EXPLORE_EXAMPLES)]
    Explore(ExploreArgs),
}

const EXPLORE_EXAMPLES: &str = "Examples:
  shogi explore                                     the start position, every collection
  shogi explore --sfen 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2'
  shogi explore --collection spb-2026 --db club.db --time-class classical";

const DB_IMPORT_EXAMPLES: &str = "Examples:
  shogi db import kifs/ --collection club               every record under kifs/ (and in its ZIPs)
  shogi db import games.zip more.kif --collection spb-2026 --db club.db
  shogi db import games/ --collection prep --private --owner alice --db postgres://shogi@localhost/shogi";

/// The `shogi db` commands.
#[derive(Subcommand, Debug)]
pub enum DbCommand {
    /// Import record files, folders (searched recursively) and ZIP archives
    /// into a collection (made if missing): every format, Shift_JIS or
    /// UTF-8, read in parallel; a game the collection has already (same
    /// start, moves and players) is skipped. A progress bar on stderr when
    /// it is a terminal; each unreadable file gets one line
    /// `shogi: FILE:LINE:COLUMN: message` (the others are still imported,
    /// and the exit status is then 2); a summary line on stdout.
    #[command(after_help = DB_IMPORT_EXAMPLES, after_long_help = DB_IMPORT_EXAMPLES)]
    Import(DbImportArgs),
    /// Print the collections, their games and the database's size per game.
    Stats(DbArgs),
    /// Write a collection of self-play games for benchmarks: each game
    /// opens with random moves, then our engine plays a few hundred nodes a
    /// move; every other game is KIF (Shift_JIS), the rest CSA, in folders
    /// of 1000 files. The same arguments write the same files.
    Generate(DbGenerateArgs),
}

/// Arguments of `shogi db generate`.
#[derive(Args, Debug)]
pub struct DbGenerateArgs {
    /// Games to write.
    #[arg(long)]
    pub games: usize,
    /// Nodes searched per move; below 1024 (where the search checks its
    /// count) a depth of nodes/100 (at least 1) instead.
    #[arg(long, default_value_t = 100)]
    pub nodes: u64,
    /// Random legal moves opening each game (each game draws 2 to this).
    #[arg(long, default_value_t = 10)]
    pub random_plies: u32,
    /// A game still going after this many moves is stopped (a draw).
    #[arg(long, default_value_t = 256)]
    pub max_plies: u32,
    /// The first game's number (to add to a collection written before).
    #[arg(long, default_value_t = 0)]
    pub first: usize,
    /// The seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The folder to write into.
    #[arg(short, long)]
    pub out: PathBuf,
}

/// A web app database.
#[derive(Args, Debug)]
pub struct DbArgs {
    /// The web app's database, as `shogi serve --db`: an SQLite file (created
    /// if missing) or a postgres:// URL.
    #[arg(long, default_value = "shogi.db", value_parser = parse_db)]
    pub db: shogi_server::Location,
}

/// Arguments of `shogi db import`.
#[derive(Args, Debug)]
pub struct DbImportArgs {
    /// Record files, folders and ZIP archives.
    #[arg(required = true, value_name = "FILE|FOLDER|ZIP")]
    pub inputs: Vec<PathBuf>,
    /// The collection's name (letters, digits, '-', '_', '.').
    #[arg(long)]
    pub collection: String,
    /// Make a new collection private: read only by its owner (`--owner`).
    #[arg(long, requires = "owner")]
    pub private: bool,
    /// The account that owns a new collection: reads it when it is private
    /// and adds to it on the site.
    #[arg(long)]
    pub owner: Option<String>,
    #[command(flatten)]
    pub db: DbArgs,
}

/// Arguments of `shogi explore`.
#[derive(Args, Debug)]
pub struct ExploreArgs {
    /// The position: `startpos` or an SFEN.
    #[arg(long, default_value = "startpos")]
    pub sfen: String,
    /// Only this collection (or several, comma-separated); by default every
    /// public one.
    #[arg(long)]
    pub collection: Option<String>,
    /// Only games of this time class: bullet, blitz, rapid or classical.
    #[arg(long)]
    pub time_class: Option<String>,
    /// Only games whose players' average rating is at least this.
    #[arg(long)]
    pub min_rating: Option<i64>,
    /// Only games whose players' average rating is at most this.
    #[arg(long)]
    pub max_rating: Option<i64>,
    /// The games listed after the moves.
    #[arg(long, default_value_t = 5)]
    pub games: usize,
    #[command(flatten)]
    pub db: DbArgs,
}

/// The `shogi puzzles` steps.
#[derive(Subcommand, Debug)]
pub enum PuzzlesCommand {
    /// Self-play games on one thread; every position is scanned for mates in 1, 3, 5
    /// and 7 with a unique first move and for a best move clearly ahead of the second.
    /// Writes the puzzle data file (JSON); progress and a summary on stderr. The same
    /// arguments give the same file.
    Generate(PuzzlesGenerateArgs),
    /// Searches every best-move puzzle of a data file again with this build's
    /// engine (two lines, fixed nodes, one thread) and rewrites the file: a
    /// puzzle whose move is still best by the margin keeps its place with the
    /// new scores, any other is dropped. Mate puzzles are left as they are
    /// (the solver proves them). For when the search has changed.
    Confirm(PuzzlesConfirmArgs),
}

/// Arguments of `shogi puzzles confirm`.
#[derive(Args, Debug)]
pub struct PuzzlesConfirmArgs {
    /// The puzzle data file, rewritten in place.
    #[arg(long)]
    pub file: PathBuf,
    /// Nodes of the two-line search (the re-proof test uses the same).
    #[arg(long, default_value_t = shogi_engine::puzzles::BEST_NODES)]
    pub best_nodes: u64,
    /// Least lead in centipawns of the puzzle's move over the second.
    #[arg(long, default_value_t = shogi_engine::puzzles::MARGIN)]
    pub margin: i32,
}

/// Arguments of `shogi puzzles generate`.
#[derive(Args, Debug)]
pub struct PuzzlesGenerateArgs {
    /// Self-play games (at least 1), from the built-in opening list in turn.
    #[arg(long, default_value_t = 100, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub games: usize,
    /// Least nodes per move of the self-play search (each side gets N to 2N per game).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(100..))]
    pub nodes: u64,
    /// Seed of the per-game node budgets.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game is drawn after this many plies.
    #[arg(long, default_value_t = 320)]
    pub max_plies: u32,
    /// Node limit of each mate search.
    #[arg(long, default_value_t = 200_000)]
    pub mate_nodes: u64,
    /// Nodes of the two-line search that confirms a best-move puzzle (the re-proof test uses the same).
    #[arg(long, default_value_t = shogi_engine::puzzles::BEST_NODES)]
    pub best_nodes: u64,
    /// Least lead in centipawns of the best move over the second.
    #[arg(long, default_value_t = shogi_engine::puzzles::MARGIN)]
    pub margin: i32,
    /// Keep at most this many puzzles of each kind and mate length (the first found).
    #[arg(long)]
    pub max_per_kind: Option<usize>,
    /// Scan these game records instead of playing (one USI position line each:
    /// `startpos moves ...`), to measure; the shipped set is our self-play.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
}

/// The `shogi tune` steps; each is repeatable for a given seed.
#[derive(Subcommand, Debug)]
pub enum TuneCommand {
    /// Self-play games on one thread; writes quiet positions as `SFEN;score;result`
    /// lines (search score and result from Sente's view).
    Gen(TuneGenArgs),
    /// Fit the evaluation weights to a data file (Texel's method, Adam) and write a
    /// parameters file; prints the loss before and after, on training and held-out data.
    Fit(TuneFitArgs),
    /// Balanced short openings for `shogi match`, one `startpos moves ...` per line.
    Openings(TuneOpeningsArgs),
    /// Tune the search's constants (the spin options from ReverseFutilityMargin on)
    /// by SPSA over self-play games; prints the estimate as it goes and the values
    /// to play with at the end.
    Spsa(TuneSpsaArgs),
}

/// Arguments of `shogi tune gen`.
#[derive(Args, Debug)]
pub struct TuneGenArgs {
    /// Games to play (at least 1).
    #[arg(long, default_value_t = 100, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub games: usize,
    /// Nodes searched per move (the search plays the move and scores the position).
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random legal moves from the start position before the search plays (not recorded).
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game is drawn after this many plies.
    #[arg(long, default_value_t = 320)]
    pub max_plies: u32,
    /// Record a position only if quiescence search and static evaluation differ by at most this.
    #[arg(long, default_value_t = 60)]
    pub quiet_margin: i32,
    /// The evaluation weights to play with (default: the built-in ones).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
}

/// Arguments of `shogi tune fit`.
#[derive(Args, Debug)]
pub struct TuneFitArgs {
    /// Data files written by `shogi tune gen` (repeatable).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Starting weights (default: the built-in ones).
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 1000)]
    pub epochs: usize,
    /// Weight of the search score in the target; the game result gets 1 - lambda.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Adam step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub learning_rate: f64,
    /// Seed of the 10% held-out split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Ridge penalty towards the starting weights (per squared centipawn).
    #[arg(long, default_value_t = 1e-6)]
    pub l2: f64,
    /// Fit only this group's weights, by its name in the parameters file
    /// (repeatable; default: every group). The others keep their starting values.
    #[arg(long)]
    pub only: Vec<String>,
    /// Output parameters file.
    #[arg(long)]
    pub out: PathBuf,
}

/// Arguments of `shogi tune openings`.
#[derive(Args, Debug)]
pub struct TuneOpeningsArgs {
    /// How many openings (at least 1).
    #[arg(long, default_value_t = 300, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub count: usize,
    /// Plies in each opening.
    #[arg(long, default_value_t = 8)]
    pub plies: usize,
    /// Seed of the move choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Keep an opening if a search scores it within this many centipawns.
    #[arg(long, default_value_t = 150)]
    pub max_eval: i32,
    /// Nodes of that search.
    #[arg(long, default_value_t = 20_000)]
    pub check_nodes: u64,
    /// Output file (default: stdout).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Arguments of `shogi tune spsa`.
#[derive(Args, Debug)]
pub struct TuneSpsaArgs {
    /// The engine, a command line (default: this program's `usi`).
    #[arg(long)]
    pub engine: Option<String>,
    /// A fixed option for both sides, `Name=Value` (repeatable).
    #[arg(long)]
    pub option: Vec<String>,
    /// A search constant to tune, by its option name (repeatable; default: all).
    #[arg(long = "param")]
    pub params: Vec<String>,
    /// Where a constant starts, `Name=Value` (repeatable; others start at the default).
    #[arg(long)]
    pub start: Vec<String>,
    /// Iterations: each plays `--pairs` openings with both colours.
    #[arg(long, default_value_t = 1000, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub iterations: usize,
    /// Openings (game pairs) per iteration.
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    pub pairs: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub concurrency: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 10_000, conflicts_with = "byoyomi")]
    pub nodes: u64,
    /// Milliseconds per move instead of a node limit.
    #[arg(long)]
    pub byoyomi: Option<u64>,
    /// Openings file, one USI position per line (default: the built-in openings).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// How far a point of result moves a constant at the end, in steps squared.
    #[arg(long, default_value_t = 0.02)]
    pub r_end: f64,
    /// Seed of the perturbations.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the estimate every this many iterations.
    #[arg(long, default_value_t = 10, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub report: usize,
}

const MATCH_EXAMPLES: &str = "\
Examples:
  shogi match --games 20 --byoyomi 100                  our engine against itself, 100 ms a move
  shogi match --engine 'shogi usi' --engine ./other-engine --games 200 --concurrency 2 \\
              --time 10000 --inc 100 --sprt 0,10        a Fischer match with an SPRT verdict
  shogi match --option2 SkillLevel=5 --nodes 20000 --games 40 --records out/

An engine is a command line (program and arguments); the default is this program's
`usi` subcommand. Each opening is played twice with colours swapped. The referee is
our rules core: an illegal move, a wrong `bestmove win` or a flag fall loses.";

/// Arguments of `shogi mate`.
#[derive(Args, Debug)]
pub struct MateArgs {
    /// The problem: an SFEN (the attacker to move; the attacker's king may be absent).
    #[arg(long)]
    pub sfen: String,
    /// Give up after this many milliseconds and print `timeout`.
    #[arg(long, default_value_t = 10_000)]
    pub time_ms: u64,
}

/// Arguments of `shogi bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search depth (1 to 100).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: u32,
    /// Transposition table size in MiB (16 to 4096): 16 gives the node
    /// signature; a game's size (e.g. 256) shows the speed a game gets.
    #[arg(long, default_value_t = shogi_engine::bench::BENCH_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(16..=4096))]
    pub hash: u32,
}

/// Arguments of `shogi match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine command line; give it twice (once uses it for both sides). Default: this program's `usi`.
    #[arg(long)]
    pub engine: Vec<String>,
    /// A USI option for the first engine, `Name=Value` (repeatable).
    #[arg(long)]
    pub option1: Vec<String>,
    /// A USI option for the second engine, `Name=Value` (repeatable).
    #[arg(long)]
    pub option2: Vec<String>,
    /// Number of games, at least 1 (rounded up to an even number: each opening twice).
    #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub games: usize,
    /// Games played at the same time (1 to 256).
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub concurrency: usize,
    /// Byoyomi per move in ms (after the main time of --time).
    #[arg(long)]
    pub byoyomi: Option<u64>,
    /// Main time per side in ms.
    #[arg(long)]
    pub time: Option<u64>,
    /// Fischer increment per move in ms (instead of byoyomi).
    #[arg(long)]
    pub inc: Option<u64>,
    /// A node limit per move instead of a clock.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// A depth limit per move instead of a clock (1 to 100).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Openings file: one USI position per line (`startpos moves ...`); default: the built-in set.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Impasse rule of the referee: 27, 24, count24, try, none.
    #[arg(long, default_value = "27")]
    pub impasse_rule: String,
    /// Draw after this many moves (beyond the opening).
    #[arg(long, default_value_t = 320)]
    pub max_moves: u32,
    /// SPRT bounds `ELO0,ELO1` (e.g. `0,10`): prints the log-likelihood ratio and the verdict, and
    /// starts no new game once the test has decided.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Write each game as a KIF record into this folder.
    #[arg(long)]
    pub records: Option<PathBuf>,
}

const CSA_CLIENT_EXAMPLES: &str = "\
Examples:
  shogi csa-client --server 127.0.0.1:4081 --id mybot --password test-600-10,<token> --games 20
  shogi csa-client --server 127.0.0.1:4081 --id yane --password test-600-10,<token> \\
      --engine ./YaneuraOu-material-lv1 --option Threads=1 --option USI_Hash=256

Each game: LOGIN, wait for an opponent, AGREE, play, LOGOUT, and one line:
  game 3/20 <game id>: <Sente> vs <Gote>: #WIN #RESIGN, 87 moves, as Sente
then `summary: N games, W wins, L losses, D draws, U unfinished; time losses: X ours, Y theirs`.
A connection, login or engine failure is one line on stderr and exit status 2.";

/// Arguments of `shogi csa-client`.
#[derive(Args, Debug)]
pub struct CsaClientArgs {
    /// The CSA server, HOST:PORT (the protocol's port is 4081).
    #[arg(long, value_name = "HOST:PORT")]
    pub server: String,
    /// The program's account name, LOGIN's id.
    #[arg(long, value_name = "NAME")]
    pub id: String,
    /// LOGIN's password: the game name and the account's token (on our
    /// server the CSA token of `shogi user add NAME --bot`; on floodgate
    /// any trip), as GAME,TOKEN. Other users of this machine can see a
    /// process's arguments but not its environment: the environment
    /// variable SHOGI_CSA_PASSWORD keeps the token out of sight.
    #[arg(
        long,
        value_name = "GAME,TOKEN",
        env = "SHOGI_CSA_PASSWORD",
        hide_env_values = true
    )]
    pub password: String,
    /// The USI engine's program (default: this program's own engine, `shogi usi`).
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// An argument for --engine's program (repeatable).
    #[arg(
        long = "engine-arg",
        value_name = "ARG",
        requires = "engine",
        allow_hyphen_values = true
    )]
    pub engine_args: Vec<String>,
    /// A USI option for the engine, `Name=Value` (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Games to play, one after another (at least 1).
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub games: usize,
    /// Milliseconds of its time the engine is not told about, for the
    /// network: taken off the byoyomi (at most half of it), or off the main
    /// time under a Fischer or sudden-death clock.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub margin_ms: u64,
    /// Send an empty line (the protocol's keep-alive) after this many
    /// seconds without writing; 0: never.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    pub keep_alive: u64,
    /// Send floodgate's evaluation comment with each move (`+7776FU,'* 35
    /// -3334FU`: the engine's score from Sente's side and the rest of its
    /// variation); `--floodgate-comments false` sends bare moves.
    #[arg(long, value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true")]
    pub floodgate_comments: bool,
}

/// `--db`: a `postgres://` URL or an `SQLite` file's path.
#[allow(clippy::unnecessary_wraps)] // clap's value parsers return a Result
fn parse_db(text: &str) -> Result<shogi_server::Location, String> {
    Ok(shogi_server::Location::parse(text))
}

/// Arguments of `shogi serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// Port.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The database: an SQLite file (created if missing; the embedded
    /// default, nothing to set up), or a PostgreSQL database given as
    /// postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME (the database must
    /// exist; the tables are created in it).
    #[arg(long, default_value = "shogi.db", value_parser = parse_db, verbatim_doc_comment)]
    pub db: shogi_server::Location,
    /// Lift the per-address rate limits (registrations, logins, games, seeks,
    /// imports, mate searches): for load benchmarks on one machine only.
    #[arg(long)]
    pub no_rate_limits: bool,
    /// Mark session cookies Secure: the app is served over https (behind a
    /// proxy that terminates TLS). Requests with `X-Forwarded-Proto: https`
    /// get Secure cookies anyway.
    #[arg(long)]
    pub https_cookies: bool,
    /// Several app instances on one PostgreSQL database: the HOST:PORT the
    /// other instances reach this one at (a private address). Each game is
    /// played on one instance at a time, the holder of its lease; requests
    /// for it reaching another instance are forwarded to the holder, and a
    /// dead instance's games are taken over within seconds. Give every
    /// instance this option; leave it out when the app runs alone.
    #[arg(long, value_name = "HOST:PORT", value_parser = parse_advertise)]
    pub advertise: Option<String>,
    /// A reverse proxy's address range (repeatable), e.g. 127.0.0.1/32: a
    /// request whose TCP peer is in one takes the client's address from
    /// X-Forwarded-For (for the rate limits); any other request is from its
    /// peer. See docs/DEPLOY.md for nginx and Caddy.
    #[arg(long = "trusted-proxy", value_name = "CIDR", value_parser = parse_cidr)]
    pub trusted_proxies: Vec<shogi_server::IpNet>,
    /// For the crash tests (crates/cli/tests/crash_endings.rs) only: abort
    /// the process right after the Nth ending is stored, before any of its
    /// consequences. Hidden from --help.
    #[arg(long, value_name = "N", hide = true)]
    pub crash_after_ending: Option<u32>,
    /// Also listen for the CSA server protocol 1.2.1 on this port (4081 is
    /// the protocol's): programs logged in as program accounts (`shogi user
    /// add NAME --bot`) are paired by game name and play in the same rooms
    /// as everyone. Off unless given. See docs/CSA.md.
    #[arg(long, value_name = "PORT")]
    pub csa_port: Option<u16>,
    /// The address the CSA protocol listens on (default: --bind's).
    #[arg(long, value_name = "ADDR", requires = "csa_port")]
    pub csa_bind: Option<std::net::IpAddr>,
    /// How often programs waiting for a `floodgate-...` game are paired, in
    /// minutes, on the clock's multiples (30: at :00 and :30, floodgate's
    /// schedule). Other game names pair at once.
    #[arg(long, value_name = "MINUTES", default_value_t = 30, requires = "csa_port",
          value_parser = clap::value_parser!(u32).range(1..=1440))]
    pub csa_pairing_minutes: u32,
}

/// `--trusted-proxy`: a CIDR range, or one address (a /32 or /128).
fn parse_cidr(text: &str) -> Result<shogi_server::IpNet, String> {
    text.parse::<shogi_server::IpNet>()
        .or_else(|_| {
            text.parse::<std::net::IpAddr>()
                .map(shogi_server::IpNet::from)
        })
        .map_err(|_| format!("{text:?}: give an address range such as 10.0.0.0/8 or an address"))
}

/// `--advertise`: `host:port`, the port a number.
fn parse_advertise(text: &str) -> Result<String, String> {
    let (host, port) = text
        .rsplit_once(':')
        .ok_or_else(|| format!("{text:?}: give HOST:PORT"))?;
    let plain = |c: char| c.is_ascii_alphanumeric() || ".-[]:".contains(c);
    if host.is_empty() || !host.chars().all(plain) || port.parse::<u16>().is_err() {
        return Err(format!("{text:?}: give HOST:PORT (no scheme, no path)"));
    }
    Ok(text.to_owned())
}

/// The `shogi user` commands. The password is read from the first line of
/// standard input (with a prompt when that is a terminal), never from the
/// arguments.
#[derive(Subcommand, Debug)]
pub enum UserCommand {
    /// Create an account: `shogi user add NAME [--admin | --moderator] [--db FILE] < password`,
    /// or programs': `shogi user add NAME [NAME...] --bot` (prints each one's CSA token).
    Add(UserAddArgs),
    /// Set an account's role: `shogi user role NAME player|moderator|admin [--db FILE]`.
    Role(UserRoleArgs),
    /// Set an account's password and end its sessions: `shogi user passwd NAME [--db FILE] < password`.
    Passwd(UserArgs),
    /// Issue a program account a new CSA token, printed once (the old one
    /// stops working): `shogi user csa-token NAME [--db FILE]`.
    CsaToken(UserArgs),
}

/// An account in a database.
#[derive(Args, Debug)]
pub struct UserArgs {
    /// The account's name (2-24 letters, digits, _ or -).
    pub name: String,
    /// The web app's database, as `shogi serve --db`: an SQLite file (created
    /// if missing) or a postgres:// URL.
    #[arg(long, default_value = "shogi.db", value_parser = parse_db)]
    pub db: shogi_server::Location,
}

/// Arguments of `shogi user add`.
#[derive(Args, Debug)]
pub struct UserAddArgs {
    #[command(flatten)]
    pub user: UserArgs,
    /// Make the account an administrator.
    #[arg(long, conflicts_with = "moderator")]
    pub admin: bool,
    /// Make the account a moderator (the /admin page).
    #[arg(long)]
    pub moderator: bool,
    /// Make it a program's account for the CSA server protocol: no password
    /// is read (the web password is random); its CSA token is printed once
    /// (docs/CSA.md).
    #[arg(long, conflicts_with_all = ["admin", "moderator"])]
    pub bot: bool,
    /// More program accounts, made in the same run (with `--bot`: one
    /// opening of the database, the password hashes side by side).
    #[arg(value_name = "NAME", requires = "bot")]
    pub more: Vec<String>,
}

impl UserAddArgs {
    /// The role asked for.
    #[must_use]
    pub fn role(&self) -> shogi_server::accounts::Role {
        use shogi_server::accounts::Role;
        match (self.admin, self.moderator) {
            (true, _) => Role::Admin,
            (false, true) => Role::Moderator,
            (false, false) => Role::Player,
        }
    }
}

/// Arguments of `shogi user role`.
#[derive(Args, Debug)]
pub struct UserRoleArgs {
    #[command(flatten)]
    pub user: UserArgs,
    /// `player`, `moderator` or `admin`.
    #[arg(value_parser = parse_role)]
    pub role: shogi_server::accounts::Role,
}

fn parse_role(text: &str) -> Result<shogi_server::accounts::Role, String> {
    text.parse()
        .map_err(|e: shogi_server::accounts::role::UnknownRole| e.to_string())
}

impl Default for ServeArgs {
    /// The app on http://127.0.0.1:8080 with `./shogi.db`: what `shogi` with no
    /// subcommand (and so `cargo run --release`) runs.
    fn default() -> ServeArgs {
        ServeArgs {
            bind: std::net::IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            db: shogi_server::Location::parse("shogi.db"),
            no_rate_limits: false,
            https_cookies: false,
            advertise: None,
            trusted_proxies: Vec::new(),
            crash_after_ending: None,
            csa_port: None,
            csa_bind: None,
            csa_pairing_minutes: 30,
        }
    }
}

const CONVERT_EXAMPLES: &str = "\
Examples:
  shogi convert --to csa game.kif                  print game.kif as CSA
  shogi convert --to kif --encoding sjis game.csa -o game.kif
                                                   write a Shift_JIS KIF file
  cat game.ki2 | shogi convert --to jkf            read stdin, print JKF
  shogi convert --from csa --to usi - < game.csa   one line: `startpos moves 7g7f ...`
  shogi convert --to csa kifs/ more.kif -o out/    convert a folder and a file into out/";

const DIAGRAM_EXAMPLES: &str = "\
Examples:
  shogi diagram --sfen startpos -o start.svg
  shogi diagram --sfen startpos --moves 7g7f 3c3d 8h2b+ -o after.png
  shogi diagram --sfen 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1' \\
      --last-move 4d3e --pieces international --coords letters -o problem.png";

/// A record format on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// KIF (KIFU): numbered moves with their origin square.
    Kif,
    /// KI2: moves in Japanese notation, without numbers.
    Ki2,
    /// CSA V2.2.
    Csa,
    /// JSON Kifu Format.
    Jkf,
    /// USEN, the URL-safe short form.
    Usen,
    /// One USI line: `startpos moves ...` or `sfen SFEN moves ...` (main line only).
    Usi,
}

/// A text encoding for the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EncodingArg {
    /// UTF-8.
    Utf8,
    /// Shift_JIS (code page 932), as older Windows programs expect for .kif/.ki2/.csa.
    Sjis,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// Input format; found from the content when absent.
    #[arg(long, value_enum)]
    pub from: Option<FormatArg>,
    /// Output format.
    #[arg(long, value_enum)]
    pub to: FormatArg,
    /// Input files or folders; `-` or nothing reads stdin. With several inputs or a
    /// folder, -o names an output folder and each output is named after its input
    /// with the new extension.
    #[arg(value_name = "FILE|-")]
    pub inputs: Vec<PathBuf>,
    /// Output file (one input) or folder (several inputs, a folder, an existing
    /// folder or a name ending in `/` as -o; created if missing). Without it, one
    /// input is written to stdout.
    #[arg(short = 'o', long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Text encoding of KIF, KI2 and CSA output (JKF, USEN and USI are always UTF-8).
    #[arg(long, value_enum, default_value = "utf8")]
    pub encoding: EncodingArg,
}

/// How pieces are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PiecesArg {
    /// One kanji per piece, Gote's upside down.
    Kanji,
    /// Latin letters (P L N S G B R K, promoted with +) in a piece-shaped outline.
    International,
}

/// How ranks are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CoordsArg {
    /// Kanji numerals 一..九.
    Japanese,
    /// Letters a..i, as in USI.
    Letters,
}

#[derive(Args, Debug)]
pub struct DiagramArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Highlight this move's destination square (USI, e.g. `7g7f`); defaults to the
    /// last of --moves.
    #[arg(long, value_name = "MOVE")]
    pub last_move: Option<String>,
    /// Piece style.
    #[arg(long, value_enum, default_value = "kanji")]
    pub pieces: PiecesArg,
    /// Rank labels.
    #[arg(long, value_enum, default_value = "japanese")]
    pub coords: CoordsArg,
    /// Output file, `.svg` or `.png` (`-` writes SVG to stdout).
    #[arg(short = 'o', long, value_name = "OUT")]
    pub output: PathBuf,
    /// Width of a PNG in pixels (the height follows the board's proportions).
    #[arg(long, default_value_t = 800, value_parser = clap::value_parser!(u32).range(64..=8192))]
    pub width: u32,
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
    /// Depth in plies (0 to 20; depth 9 already takes hours).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=20))]
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
