//! `shogi tune gen|fit|openings|spsa`: thin calls into `shogi_engine::tune`
//! and `shogi_engine::spsa`.

use std::fmt::Write as _;
use std::io::{BufWriter, IsTerminal};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use shogi_engine::arena::{self, TimeControl};
use shogi_engine::params::EvalParams;
use shogi_engine::search_params::{index_of, Tunable, TUNABLES};
use shogi_engine::spsa::{self, SpsaConfig, SpsaRun};
use shogi_engine::tune::{self, FitConfig, GenConfig, OpeningConfig};

use crate::args::{TuneCommand, TuneFitArgs, TuneGenArgs, TuneOpeningsArgs, TuneSpsaArgs};
use crate::engine::engine_command;
use crate::CliError;

/// Runs one tuning step.
pub fn run(command: &TuneCommand) -> Result<(), CliError> {
    match command {
        TuneCommand::Gen(a) => gen(a),
        TuneCommand::Fit(a) => fit(a),
        TuneCommand::Openings(a) => openings(a),
        TuneCommand::Spsa(a) => spsa(a),
    }
}

fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|e| CliError(format!("{}: {e}", path.display())))
}

fn load_params(path: Option<&Path>) -> Result<Arc<EvalParams>, CliError> {
    match path {
        None => Ok(EvalParams::builtin()),
        Some(p) => EvalParams::parse(&read(p)?)
            .map(Arc::new)
            .map_err(|e| CliError(format!("{}: {e}", p.display()))),
    }
}

fn command_line() -> String {
    std::env::args().skip(1).collect::<Vec<_>>().join(" ")
}

fn gen(a: &TuneGenArgs) -> Result<(), CliError> {
    use std::io::Write;
    let config = GenConfig {
        games: a.games,
        nodes: a.nodes,
        random_plies: a.random_plies,
        seed: a.seed,
        max_plies: a.max_plies,
        quiet_margin: a.quiet_margin,
        params: load_params(a.params.as_deref())?,
        ..GenConfig::default()
    };
    let file =
        std::fs::File::create(&a.out).map_err(|e| CliError(format!("{}: {e}", a.out.display())))?;
    let mut out = BufWriter::new(file);
    let io = |e: std::io::Error| CliError(format!("{}: {e}", a.out.display()));
    writeln!(out, "# shogi {}", command_line()).map_err(io)?;
    writeln!(
        out,
        "# SFEN;search score (Sente's view, cp);result (1 Sente won, 0.5 draw, 0 Gote won)"
    )
    .map_err(io)?;
    let start = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let stats = tune::generate(&config, &mut out, |s| {
        let line = format!(
            "games {}/{} positions {} (+{} -{} ={}) {:.0} s",
            s.games,
            a.games,
            s.positions,
            s.results[0],
            s.results[1],
            s.results[2],
            start.elapsed().as_secs_f64()
        );
        if tty {
            eprint!("\r\x1b[2K{line}");
        } else if s.games % 50 == 0 {
            eprintln!("{line}");
        }
    })
    .map_err(io)?;
    if tty {
        eprintln!();
    }
    out!(
        "{} games, {} positions written of {} searched, Sente {} Gote {} draws {}, {:.0} s",
        stats.games,
        stats.positions,
        stats.searched,
        stats.results[0],
        stats.results[1],
        stats.results[2],
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn fit(a: &TuneFitArgs) -> Result<(), CliError> {
    let start = Instant::now();
    let mut samples = Vec::new();
    for path in &a.data {
        let text = read(path)?;
        let more =
            tune::parse_samples(&text).map_err(|e| CliError(format!("{}:{e}", path.display())))?;
        samples.extend(more);
    }
    let initial = load_params(a.from.as_deref())?;
    let only = a
        .only
        .iter()
        .map(|name| {
            shogi_engine::params::all_groups()
                .find(|g| g.name == name)
                .ok_or_else(|| CliError(format!("--only: no parameter group {name:?}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let config = FitConfig {
        epochs: a.epochs,
        lambda: a.lambda,
        learning_rate: a.learning_rate,
        seed: a.seed,
        l2: a.l2,
        only,
    };
    let (params, r) = tune::fit(&samples, &initial, &config, |epoch, loss| {
        eprintln!("epoch {epoch}: training loss {loss:.6}");
    });
    let mut header = String::new();
    let _ = writeln!(header, "# Tuned by: shogi {}", command_line());
    let _ = writeln!(
        header,
        "# {} training + {} held-out positions, K = {:.1}, lambda = {}, l2 = {}",
        r.sizes.0, r.sizes.1, r.k, a.lambda, a.l2
    );
    let _ = writeln!(
        header,
        "# loss: training {:.6} -> {:.6}, held-out {:.6} -> {:.6}",
        r.train.0, r.train.1, r.held_out.0, r.held_out.1
    );
    let _ = writeln!(
        header,
        "# Format: see crates/engine/src/params.rs and docs/TUNING.md."
    );
    std::fs::write(&a.out, params.to_text(&header))
        .map_err(|e| CliError(format!("{}: {e}", a.out.display())))?;
    out!(
        "positions: {} training, {} held out; K = {:.1}",
        r.sizes.0,
        r.sizes.1,
        r.k
    );
    out!("training loss: {:.6} -> {:.6}", r.train.0, r.train.1);
    out!("held-out loss: {:.6} -> {:.6}", r.held_out.0, r.held_out.1);
    out!("{:.0} s", start.elapsed().as_secs_f64());
    Ok(())
}

fn openings(a: &TuneOpeningsArgs) -> Result<(), CliError> {
    let config = OpeningConfig {
        count: a.count,
        plies: a.plies,
        seed: a.seed,
        max_eval: a.max_eval,
        check_nodes: a.check_nodes,
        ..OpeningConfig::default()
    };
    let found = tune::generate_openings(&config);
    let mut text = String::new();
    let _ = writeln!(text, "# Generated by: shogi {}", command_line());
    for o in &found {
        let _ = writeln!(text, "{}", o.to_usi());
    }
    match &a.out {
        Some(p) => {
            std::fs::write(p, text).map_err(|e| CliError(format!("{}: {e}", p.display())))?;
        }
        None => crate::write_out(format_args!("{text}")),
    }
    if found.len() < a.count {
        eprintln!("shogi: only {} of {} openings found", found.len(), a.count);
    }
    Ok(())
}

fn tunable(name: &str) -> Result<Tunable, CliError> {
    index_of(name).map(|i| TUNABLES[i]).ok_or_else(|| {
        let names: Vec<&str> = TUNABLES.iter().map(|t| t.name).collect();
        CliError(format!(
            "no search constant {name:?}; they are: {}",
            names.join(" ")
        ))
    })
}

fn spsa(a: &TuneSpsaArgs) -> Result<(), CliError> {
    let tunables = if a.params.is_empty() {
        TUNABLES.to_vec()
    } else {
        a.params
            .iter()
            .map(|n| tunable(n))
            .collect::<Result<Vec<_>, _>>()?
    };
    let mut config = SpsaConfig::new(tunables, a.iterations, a.seed);
    if !(a.r_end > 0.0 && a.r_end.is_finite()) {
        return Err(CliError(format!(
            "--r-end must be above 0, not {}",
            a.r_end
        )));
    }
    config.r_end = a.r_end;
    for s in &a.start {
        let (name, value) = s
            .split_once('=')
            .ok_or_else(|| CliError(format!("bad --start {s:?}: expected Name=Value")))?;
        let t = tunable(name.trim())?;
        let v: i32 = value
            .trim()
            .parse()
            .map_err(|_| CliError(format!("bad --start {s:?}: {value:?} is not an integer")))?;
        if v < t.min || v > t.max {
            return Err(CliError(format!(
                "bad --start {s:?}: {} takes {} to {}",
                t.name, t.min, t.max
            )));
        }
        let i = config
            .tunables
            .iter()
            .position(|u| u.name == t.name)
            .ok_or_else(|| CliError(format!("--start {} is not among the --param", t.name)))?;
        config.start[i] = f64::from(v);
    }
    let openings = match &a.openings {
        Some(path) => arena::parse_openings(&read(path)?)
            .map_err(|(line, e)| CliError(format!("{}:{line}: {e}", path.display())))?,
        None => Vec::new(),
    };
    let run = SpsaRun {
        spsa: config.clone(),
        engine: engine_command(a.engine.as_ref(), &a.option)?,
        pairs: a.pairs,
        concurrency: a.concurrency,
        time: match a.byoyomi {
            Some(ms) => TimeControl::Byoyomi {
                main_ms: 0,
                byoyomi_ms: ms,
            },
            None => TimeControl::Nodes(a.nodes.max(1)),
        },
        openings,
    };
    let names: Vec<&str> = config.tunables.iter().map(|t| t.name).collect();
    let show = |theta: &[f64]| -> String {
        names
            .iter()
            .zip(theta)
            .map(|(n, v)| format!("{n}={v:.1}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    out!("# shogi {}", command_line());
    out!("start: {}", show(&config.start));
    let start = Instant::now();
    let mut tally = [0u32; 3];
    let done = spsa::run(&run, |it| {
        tally[0] += it.wins;
        tally[1] += it.losses;
        tally[2] += it.draws;
        let k = it.perturbation.k;
        if k % a.report == 0 || k == a.iterations {
            out!(
                "{k}/{} ({:.0} s, plus side +{} -{} ={}): {}",
                a.iterations,
                start.elapsed().as_secs_f64(),
                tally[0],
                tally[1],
                tally[2],
                show(it.theta)
            );
        }
    })
    .map_err(|e| CliError(e.to_string()))?;
    let options: Vec<String> = names
        .iter()
        .zip(done.rounded())
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    out!("result: {}", options.join(" "));
    out!(
        "to test it: shogi match {} {} --sprt 0,10 ...",
        options
            .iter()
            .map(|o| format!("--option1 {o}"))
            .collect::<Vec<_>>()
            .join(" "),
        match a.byoyomi {
            Some(ms) => format!("--byoyomi {ms}"),
            None => format!("--nodes {}", a.nodes),
        }
    );
    Ok(())
}
