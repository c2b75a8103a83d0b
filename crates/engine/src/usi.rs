//! The USI protocol loop.
//!
//! [`run_usi`] reads commands line by line from any [`BufRead`] and writes
//! answers to any [`Write`], so it runs on stdin/stdout as well as on strings
//! in tests. Searches run on their own thread while the loop keeps reading,
//! so `stop`, `ponderhit`, `isready` and `quit` are answered at any time;
//! every `go` gets exactly one `bestmove` (or one `checkmate` for `go mate`),
//! also when it is stopped or the engine quits. Only protocol lines are
//! written; problems are reported as `info string`.
//!
//! ```
//! use std::io::Cursor;
//! let input = Cursor::new("usi\nisready\nposition startpos moves 7g7f\ngo depth 2\nquit\n");
//! let mut out = Vec::new();
//! shogi_engine::usi::run_usi_to(input, &mut out);
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("usiok") && text.contains("readyok"));
//! assert_eq!(text.lines().filter(|l| l.starts_with("bestmove")).count(), 1);
//! ```

use std::io::{BufRead, Write};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use shogi_core::usi::PositionCommand;
use shogi_core::{
    impasse, ByColor, Game, GameRules, ImpasseRule, ImpasseVerdict, Leniency, Position,
};

use crate::checks::gives_check;
use crate::dfpn::{solve_mate, MateLimit};
use crate::eval::{Evaluator, LinearEval};
use crate::limits::{GoCommand, MateTime, SearchLimit};
use crate::params::EvalParams;
use crate::search::{search, PastPosition, SearchControl, SearchOptions, MATE_IN_MAX_PLY};
use crate::search_params::{index_of, SearchParams, TUNABLES};
use crate::tt::TranspositionTable;

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = concat!("shogi-engine ", env!("CARGO_PKG_VERSION"));
/// The author in `id author`.
pub const ENGINE_AUTHOR: &str = "the shogi project";

/// The `EnteringKingRule` option values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnteringKingRule {
    /// No impasse rule.
    NoEnteringKing,
    /// 24-point declaration.
    CsaRule24,
    /// 24-point declaration, handicap pieces credited.
    CsaRule24H,
    /// 27-point declaration.
    CsaRule27,
    /// 27-point declaration, handicap pieces credited.
    CsaRule27H,
    /// The try rule.
    TryRule,
}

/// An `EnteringKingRule` value that is not one of the combo's names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown EnteringKingRule {0:?}")]
pub struct UnknownEnteringKingRule(pub String);

impl FromStr for EnteringKingRule {
    type Err = UnknownEnteringKingRule;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "noenteringking" => EnteringKingRule::NoEnteringKing,
            "csarule24" => EnteringKingRule::CsaRule24,
            "csarule24h" => EnteringKingRule::CsaRule24H,
            "csarule27" => EnteringKingRule::CsaRule27,
            "csarule27h" => EnteringKingRule::CsaRule27H,
            "tryrule" => EnteringKingRule::TryRule,
            _ => return Err(UnknownEnteringKingRule(s.to_string())),
        })
    }
}

impl EnteringKingRule {
    /// The core rule and whether handicap pieces are credited.
    #[must_use]
    pub fn rule(self) -> (ImpasseRule, bool) {
        match self {
            EnteringKingRule::NoEnteringKing => (ImpasseRule::None, false),
            EnteringKingRule::CsaRule24 => (ImpasseRule::Jsa24, false),
            EnteringKingRule::CsaRule24H => (ImpasseRule::Jsa24, true),
            EnteringKingRule::CsaRule27 => (ImpasseRule::Csa27, false),
            EnteringKingRule::CsaRule27H => (ImpasseRule::Csa27, true),
            EnteringKingRule::TryRule => (ImpasseRule::Try, false),
        }
    }
}

/// The engine's option settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// `USI_Hash`, MiB.
    pub hash_mb: usize,
    /// `Threads`.
    pub threads: usize,
    /// `USI_Ponder`.
    pub ponder: bool,
    /// `MultiPV`.
    pub multipv: usize,
    /// `EnteringKingRule`.
    pub entering_king: EnteringKingRule,
    /// `MaxMovesToDraw` (0: none).
    pub max_moves_to_draw: u32,
    /// `NetworkDelay`, milliseconds.
    pub network_delay: u64,
    /// `SkillLevel`, 0-20 (20 is full strength; [`crate::skill`] says what lower levels do).
    pub skill_level: u32,
    /// `EvalFile`: a parameters file for the evaluation; empty or `<internal>` is the built-in one.
    pub eval_file: String,
    /// The search's tunable constants, one spin option each
    /// ([`crate::search_params::TUNABLES`]).
    pub params: SearchParams,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 64,
            threads: 1,
            ponder: false,
            multipv: 1,
            entering_king: EnteringKingRule::CsaRule27,
            max_moves_to_draw: 0,
            network_delay: 0,
            skill_level: 20,
            eval_file: INTERNAL_EVAL.to_string(),
            params: SearchParams::default(),
        }
    }
}

/// The `EvalFile` value that names the compiled-in weights.
pub const INTERNAL_EVAL: &str = "<internal>";

/// The options `usi` lists, before the search's tunable constants
/// ([`TUNABLES`]). `EvalFile` loads evaluation weights (see
/// `crates/engine/params/`).
const OPTION_LINES: [&str; 9] = [
    "option name USI_Hash type spin default 64 min 1 max 65536",
    "option name Threads type spin default 1 min 1 max 256",
    "option name USI_Ponder type check default false",
    "option name MultiPV type spin default 1 min 1 max 600",
    "option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule24 var CSARule24H var CSARule27 var CSARule27H var TryRule",
    "option name MaxMovesToDraw type spin default 0 min 0 max 100000",
    "option name NetworkDelay type spin default 0 min 0 max 10000",
    "option name SkillLevel type spin default 20 min 0 max 20",
    "option name EvalFile type string default <internal>",
];

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetOptionError {
    /// No `name`.
    #[error("setoption: expected `setoption name <id> [value <x>]`")]
    Syntax,
    /// An option the engine does not have.
    #[error("setoption: unknown option {0:?}")]
    UnknownOption(String),
    /// A value out of range or of the wrong type.
    #[error("setoption: bad value {value:?} for {name}")]
    BadValue {
        /// The option.
        name: String,
        /// The value.
        value: String,
    },
}

impl EngineOptions {
    /// Applies one `setoption` command.
    ///
    /// # Errors
    /// If the command is malformed, the option unknown or the value invalid.
    pub fn apply(&mut self, line: &str) -> Result<(), SetOptionError> {
        let rest = line.trim().strip_prefix("setoption").unwrap_or(line).trim();
        let rest = rest
            .strip_prefix("name")
            .ok_or(SetOptionError::Syntax)?
            .trim();
        let (name, value) = match rest.find(" value") {
            Some(i) => (rest[..i].trim(), rest[i + 6..].trim()),
            None => (rest, ""),
        };
        if name.is_empty() {
            return Err(SetOptionError::Syntax);
        }
        let bad = || SetOptionError::BadValue {
            name: name.to_string(),
            value: value.to_string(),
        };
        let spin = |lo: u64, hi: u64| -> Result<u64, SetOptionError> {
            value
                .parse::<u64>()
                .ok()
                .filter(|v| (lo..=hi).contains(v))
                .ok_or_else(bad)
        };
        let check = || match value.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(bad()),
        };
        match name.to_ascii_lowercase().as_str() {
            "usi_hash" | "hash" => self.hash_mb = spin(1, 65536)? as usize,
            "threads" => self.threads = spin(1, 256)? as usize,
            "usi_ponder" => self.ponder = check()?,
            "evalfile" => {
                self.eval_file = if value.is_empty() {
                    INTERNAL_EVAL.to_string()
                } else {
                    value.to_string()
                }
            }
            "multipv" => self.multipv = spin(1, 600)? as usize,
            "enteringkingrule" => self.entering_king = value.parse().map_err(|_| bad())?,
            "maxmovestodraw" => self.max_moves_to_draw = spin(0, 100_000)? as u32,
            "networkdelay" => self.network_delay = spin(0, 10_000)?,
            "skilllevel" => self.skill_level = spin(0, 20)? as u32,
            _ if index_of(name).is_some() => {
                let v = value.parse::<i64>().map_err(|_| bad())?;
                self.params.set(name, v).map_err(|_| bad())?;
            }
            _ => return Err(SetOptionError::UnknownOption(name.to_string())),
        }
        Ok(())
    }
}

type SharedOut<W> = Arc<Mutex<W>>;

fn send<W: Write>(out: &SharedOut<W>, line: &str) {
    let mut w = match out.lock() {
        Ok(w) => w,
        Err(poisoned) => poisoned.into_inner(),
    };
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

struct Running {
    control: Arc<SearchControl>,
    mate_stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

struct Engine<W: Write + Send + 'static> {
    out: SharedOut<W>,
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    tt_mb: usize,
    /// A search has written to the table since it was last emptied.
    tt_dirty: bool,
    position: Position,
    past: Vec<PastPosition>,
    /// Why the last `position` command was refused: until a good one comes,
    /// `go` answers `bestmove resign` instead of searching an old position.
    position_error: Option<String>,
    credit: ByColor<u32>,
    start: Position,
    running: Option<Running>,
    evaluator: Arc<dyn Evaluator>,
}

/// Runs the USI loop until `quit` or the end of `input`, answering on `output`.
pub fn run_usi<R: BufRead + Send + 'static, W: Write + Send + 'static>(input: R, output: W) {
    run_loop(input, output);
}

/// Like [`run_usi`], for inputs and outputs that are not `'static`: the
/// output is written through a buffer and copied at the end.
pub fn run_usi_to<R: BufRead, W: Write>(input: R, output: &mut W) {
    let buf = Arc::new(Mutex::new(Vec::new()));
    run_loop(input, SharedWriter(Arc::clone(&buf)));
    let data = match buf.lock() {
        Ok(b) => b.clone(),
        Err(p) => p.into_inner().clone(),
    };
    let _ = output.write_all(&data);
    let _ = output.flush();
}

/// A [`Write`] that appends to a shared byte buffer (for driving the loop in tests).
#[derive(Clone, Debug, Default)]
pub struct SharedWriter(pub Arc<Mutex<Vec<u8>>>);

impl Write for SharedWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        match self.0.lock() {
            Ok(mut b) => b.extend_from_slice(data),
            Err(p) => p.into_inner().extend_from_slice(data),
        }
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn run_loop<R: BufRead, W: Write + Send + 'static>(input: R, output: W) {
    let mut engine = Engine {
        out: Arc::new(Mutex::new(output)),
        options: EngineOptions::default(),
        tt: Arc::new(TranspositionTable::new(1)),
        tt_mb: 0,
        tt_dirty: false,
        position: Position::startpos(),
        past: Vec::new(),
        position_error: None,
        credit: ByColor::default(),
        start: Position::startpos(),
        running: None,
        evaluator: Arc::new(LinearEval::default()),
    };
    let mut input = input;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        // Bytes that are not UTF-8 become U+FFFD and make an unknown command.
        let line = String::from_utf8_lossy(&buf);
        if !engine.command(line.trim()) {
            break;
        }
    }
    engine.finish_search();
}

impl<W: Write + Send + 'static> Engine<W> {
    fn info_string(&self, text: &str) {
        send(&self.out, &format!("info string {}", printable(text)));
    }

    /// Handles one line; `false` on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return true };
        match cmd {
            "usi" => {
                send(&self.out, &format!("id name {ENGINE_NAME}"));
                send(&self.out, &format!("id author {ENGINE_AUTHOR}"));
                for l in OPTION_LINES {
                    send(&self.out, l);
                }
                for t in TUNABLES {
                    send(&self.out, &t.option_line());
                }
                send(&self.out, "usiok");
            }
            "isready" => {
                // GUIs send `isready` before `usinewgame`, and wait: the table is
                // emptied here so that the first move's clock does not pay for it.
                if self.running.is_none() {
                    self.ensure_table();
                    self.clear_table();
                }
                send(&self.out, "readyok");
            }
            "setoption" => {
                let file = self.options.eval_file.clone();
                if let Err(e) = self.options.apply(line) {
                    self.info_string(&e.to_string());
                } else if self.options.eval_file != file {
                    self.load_eval(file);
                }
            }
            "usinewgame" => {
                self.finish_search();
                self.ensure_table();
                // Already empty after an `isready`; otherwise emptied now.
                self.clear_table();
            }
            "position" => self.set_position(line),
            "go" => self.go(line),
            "stop" => self.finish_search(),
            "ponderhit" => {
                if let Some(r) = &self.running {
                    r.control.ponderhit();
                }
            }
            "gameover" => self.finish_search(),
            "quit" => {
                self.finish_search();
                return false;
            }
            _ => self.info_string(&format!("unknown command: {line}")),
        }
        true
    }

    /// Loads the `EvalFile` just set; on failure keeps `previous` and says why.
    fn load_eval(&mut self, previous: String) {
        let name = self.options.eval_file.clone();
        if name == INTERNAL_EVAL {
            self.evaluator = Arc::new(LinearEval::default());
            return;
        }
        let loaded = std::fs::read_to_string(&name)
            .map_err(|e| e.to_string())
            .and_then(|text| EvalParams::parse(&text).map_err(|e| e.to_string()));
        match loaded {
            Ok(params) => {
                self.evaluator = Arc::new(LinearEval::new(Arc::new(params)));
                self.info_string(&format!("EvalFile {name}: loaded"));
            }
            Err(e) => {
                self.info_string(&format!(
                    "EvalFile {name}: {e}; keeping the evaluation of {previous}"
                ));
                self.options.eval_file = previous;
            }
        }
    }

    fn clear_table(&mut self) {
        if self.tt_dirty {
            self.tt.clear();
            self.tt_dirty = false;
        }
    }

    fn ensure_table(&mut self) {
        if self.tt_mb == self.options.hash_mb {
            return;
        }
        self.tt = Arc::new(TranspositionTable::new(1));
        let mut mb = self.options.hash_mb;
        while mb > 1 {
            if let Some(tt) = TranspositionTable::try_new(mb) {
                self.tt = Arc::new(tt);
                break;
            }
            mb /= 2;
        }
        if mb != self.options.hash_mb {
            self.info_string(&format!(
                "USI_Hash {} MiB not available; using {mb} MiB",
                self.options.hash_mb
            ));
        }
        self.tt_mb = self.options.hash_mb;
        self.tt_dirty = false;
    }

    /// Stops any running search and waits for its bestmove.
    fn finish_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop();
            r.mate_stop.store(true, Ordering::SeqCst);
            let _ = r.handle.join();
        }
    }

    fn game_rules(&self) -> GameRules {
        let (impasse, handicap_credit) = self.options.entering_king.rule();
        GameRules {
            impasse,
            handicap_credit,
            ..GameRules::default()
        }
    }

    fn set_position(&mut self, line: &str) {
        let cmd = match PositionCommand::parse_with(
            line,
            Leniency {
                allow_missing_kings: true,
            },
        ) {
            Ok(c) => c,
            Err(e) => {
                let why = format!("bad position: {e}");
                self.info_string(&why);
                self.position_error = Some(why);
                return;
            }
        };
        self.position_error = None;
        let mut pos = cmd.start.clone();
        let mut past = Vec::with_capacity(cmd.moves.len());
        for (i, &m) in cmd.moves.iter().enumerate() {
            if let Err(e) = pos.check_move(m) {
                let why = format!("illegal move {} ({m}): {e}", i + 1);
                self.info_string(&format!("{why}; position kept up to it, go answers resign"));
                self.position_error = Some(why);
                break;
            }
            past.push(PastPosition {
                key: pos.hash(),
                gave_check: gives_check(&pos, m),
            });
            pos.make_move(m);
        }
        self.start = cmd.start;
        self.position = pos;
        self.past = past;
    }

    fn search_options(&self) -> SearchOptions {
        let (impasse, _) = self.options.entering_king.rule();
        SearchOptions {
            threads: self.options.threads,
            multipv: self.options.multipv,
            impasse,
            impasse_credit: self.credit,
            max_moves_to_draw: self.options.max_moves_to_draw,
            network_delay: self.options.network_delay,
            skill_level: self.options.skill_level,
            evaluator: Arc::clone(&self.evaluator),
            params: self.options.params,
        }
    }

    fn go(&mut self, line: &str) {
        self.finish_search();
        if let Some(why) = &self.position_error {
            // Searching the previous (or a truncated) position would answer a
            // move for a position the GUI does not have on its board.
            self.info_string(&format!(
                "not searching: the last position command failed ({why})"
            ));
            let mate = line.split_whitespace().nth(1) == Some("mate");
            send(
                &self.out,
                if mate {
                    "checkmate nomate"
                } else {
                    "bestmove resign"
                },
            );
            return;
        }
        self.ensure_table();
        self.tt_dirty = true;
        let (go, errors) = GoCommand::parse_lenient(line);
        let malformed = !errors.is_empty();
        for e in errors {
            self.info_string(&e.to_string());
        }
        self.credit = Game::with_rules(self.start.clone(), self.game_rules()).impasse_credit();
        let control = Arc::new(SearchControl::new(go.ponder));
        let mate_stop = Arc::new(AtomicBool::new(false));
        let out = Arc::clone(&self.out);
        let pos = self.position.clone();
        let spawned = if let Some(mate) = go.mate {
            let stop = Arc::clone(&mate_stop);
            std::thread::Builder::new()
                .name("mate".into())
                .spawn(move || {
                    let limit = match mate {
                        MateTime::Millis(ms) => MateLimit {
                            time: Some(Duration::from_millis(ms)),
                            stop: Some(stop),
                            ..MateLimit::default()
                        },
                        MateTime::Infinite => MateLimit::infinite(Some(stop)),
                    };
                    let answer = solve_mate(&pos, limit).to_usi();
                    send(&out, &answer);
                })
        } else {
            let (rule, _) = self.options.entering_king.rule();
            let declare = matches!(rule, ImpasseRule::Csa27 | ImpasseRule::Jsa24)
                && impasse::judge(&pos, rule, self.credit) == Some(ImpasseVerdict::Win);
            let past = self.past.clone();
            let mut limit = go.limit();
            if malformed && limit.is_infinite() && !go.infinite && !go.ponder {
                // Never wait for a `stop` the GUI does not know it must send.
                self.info_string("go: no usable limit; searching for 1 second");
                limit = SearchLimit::MoveTime(1000);
            }
            let options = self.search_options();
            let ponder_option = self.options.ponder;
            let tt = Arc::clone(&self.tt);
            let ctl = Arc::clone(&control);
            let wait = go.infinite || go.ponder;
            std::thread::Builder::new()
                .name("search".into())
                .spawn(move || {
                    let answer = if declare {
                        "bestmove win".to_string()
                    } else {
                        let mut info = |l: &str| send(&out, l);
                        let r = search(&pos, &past, &limit, &options, &tt, &ctl, &mut info);
                        match r.best_move {
                            None => "bestmove resign".to_string(),
                            Some(_) if r.depth > 0 && r.score <= -MATE_IN_MAX_PLY => {
                                "bestmove resign".to_string()
                            }
                            Some(m) => match r.ponder_move.filter(|_| ponder_option) {
                                Some(p) => format!("bestmove {m} ponder {p}"),
                                None => format!("bestmove {m}"),
                            },
                        }
                    };
                    // `go infinite` and pondering answer only after stop (or ponderhit).
                    while wait && !ctl.stopped() && (go.infinite || ctl.pondering()) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    send(&out, &answer);
                })
        };
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    control,
                    mate_stop,
                    handle,
                });
            }
            Err(e) => {
                self.info_string(&format!("cannot start the search thread: {e}"));
                send(
                    &self.out,
                    if go.mate.is_some() {
                        "checkmate timeout"
                    } else {
                        "bestmove resign"
                    },
                );
            }
        }
    }
}

/// `text` with every control character (a raw newline, escape or NUL echoed
/// from the input) written as a `\u{..}` escape, so one `info string` stays
/// one printable line.
fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}
