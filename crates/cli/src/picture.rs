//! `shogi diagram`: an SVG board picture from `shogi_record::diagram`, or a PNG of it
//! rendered by `shogi_server::review::picture` (resvg and the system's fonts).

use std::io::Write;
use std::path::Path;

use shogi_core::{GameRules, Move};
use shogi_record::diagram::{self, Coords, Options, PieceStyle};

use crate::args::{CoordsArg, DiagramArgs, PiecesArg};
use crate::CliError;

/// Runs `shogi diagram`.
pub fn run(a: &DiagramArgs) -> Result<(), CliError> {
    let cmd = crate::read_position(&a.position)?;
    let (game, err) = crate::replay(&cmd, GameRules::default());
    if let Some((i, e)) = err {
        return Err(CliError(format!("move {i}: {e}")));
    }
    let last_move = match &a.last_move {
        Some(text) => Some(
            text.trim()
                .parse::<Move>()
                .map_err(|e: shogi_core::UsiMoveError| CliError(format!("--last-move: {e}")))?,
        ),
        None => cmd.moves.last().copied(),
    };
    let opts = Options {
        pieces: match a.pieces {
            PiecesArg::Kanji => PieceStyle::Kanji,
            PiecesArg::International => PieceStyle::International,
        },
        coords: match a.coords {
            CoordsArg::Japanese => Coords::Japanese,
            CoordsArg::Letters => Coords::Letters,
        },
        last_move,
    };
    let out = &a.output;
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        _ if out.as_os_str() == "-" => {
            let svg = diagram::svg(game.position(), &opts);
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(svg.as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|e| CliError(format!("stdout: {e}")))
        }
        Some("svg") => write_file(out, diagram::svg(game.position(), &opts).as_bytes()),
        Some("png") => {
            let r = shogi_server::review::picture::render(game.position(), &opts, a.width)
                .map_err(CliError)?;
            if r.without_kanji {
                eprintln!(
                    "shogi: warning: no font with kanji found (install e.g. fonts-noto-cjk); drawing international pieces and letter coordinates"
                );
            }
            write_file(out, &r.png)
        }
        _ => Err(CliError(format!(
            "{}: the output name must end in .svg or .png",
            out.display()
        ))),
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    std::fs::write(path, bytes).map_err(|e| CliError(format!("{}: {e}", path.display())))
}
