//! `shogi tune gen|fit|openings`: thin calls into `shogi_engine::tune`.

use std::fmt::Write as _;
use std::io::{BufWriter, IsTerminal};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use shogi_engine::params::EvalParams;
use shogi_engine::tune::{self, FitConfig, GenConfig, OpeningConfig};

use crate::args::{TuneCommand, TuneFitArgs, TuneGenArgs, TuneOpeningsArgs};
use crate::CliError;

/// Runs one tuning step.
pub fn run(command: &TuneCommand) -> Result<(), CliError> {
    match command {
        TuneCommand::Gen(a) => gen(a),
        TuneCommand::Fit(a) => fit(a),
        TuneCommand::Openings(a) => openings(a),
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
    let config = FitConfig {
        epochs: a.epochs,
        lambda: a.lambda,
        learning_rate: a.learning_rate,
        seed: a.seed,
        l2: a.l2,
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
