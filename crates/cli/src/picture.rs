//! `shogi diagram`: an SVG board picture from `shogi_record::diagram`, or a PNG of it
//! rendered with resvg and the system's fonts.

use std::io::Write;
use std::path::Path;

use resvg::usvg::fontdb;
use resvg::{tiny_skia, usvg};
use shogi_core::{GameRules, Move};
use shogi_record::diagram::{self, Coords, Options, PieceStyle};

use crate::args::{CoordsArg, DiagramArgs, PiecesArg};
use crate::CliError;

/// Kanji font families looked for before drawing kanji into a PNG (the SVG names them too).
const KANJI_FAMILIES: [&str; 10] = [
    "Noto Serif CJK JP",
    "Noto Sans CJK JP",
    "IPAexMincho",
    "IPAMincho",
    "IPAexGothic",
    "IPAGothic",
    "Hiragino Mincho ProN",
    "Yu Mincho",
    "MS Mincho",
    "Source Han Serif",
];

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
    let mut opts = Options {
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
            let fonts = system_fonts();
            let needs_kanji = opts.pieces == PieceStyle::Kanji || opts.coords == Coords::Japanese;
            if needs_kanji && !has_kanji_font(&fonts) {
                eprintln!(
                    "shogi: warning: no font with kanji found (install e.g. fonts-noto-cjk); drawing international pieces and letter coordinates"
                );
                opts.pieces = PieceStyle::International;
                opts.coords = Coords::Letters;
            }
            let svg = diagram::svg(game.position(), &opts);
            let png = render_png(&svg, fonts, a.width)?;
            write_file(out, &png)
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

/// The system's fonts, with generic families pointed at fonts that are likely present.
/// `SHOGI_DIAGRAM_NO_SYSTEM_FONTS` (set to anything) loads none, as on a machine without
/// fonts: the tests use it to check that a PNG is still made.
fn system_fonts() -> fontdb::Database {
    let mut db = fontdb::Database::new();
    if std::env::var_os("SHOGI_DIAGRAM_NO_SYSTEM_FONTS").is_none() {
        db.load_system_fonts();
    }
    let has = |db: &fontdb::Database, family: &str| {
        db.faces()
            .any(|f| f.families.iter().any(|(name, _)| name == family))
    };
    if let Some(f) = ["DejaVu Sans", "Liberation Sans", "Noto Sans"]
        .into_iter()
        .find(|f| has(&db, f))
    {
        db.set_sans_serif_family(f);
    }
    if let Some(f) = KANJI_FAMILIES
        .into_iter()
        .chain(["DejaVu Serif", "Liberation Serif"])
        .find(|f| has(&db, f))
    {
        db.set_serif_family(f);
    }
    db
}

/// Whether some font is likely to hold kanji: one of the named families, or a face that
/// names itself in Japanese.
fn has_kanji_font(db: &fontdb::Database) -> bool {
    db.faces().any(|f| {
        f.families.iter().any(|(name, lang)| {
            KANJI_FAMILIES.contains(&name.as_str())
                || *lang == fontdb::Language::Japanese_Japan
                || name.contains("CJK")
        })
    })
}

/// Renders SVG text to PNG bytes `width` pixels wide.
fn render_png(svg: &str, fonts: fontdb::Database, width: u32) -> Result<Vec<u8>, CliError> {
    let mut opt = usvg::Options::default();
    *opt.fontdb_mut() = fonts;
    let tree = usvg::Tree::from_str(svg, &opt)
        .map_err(|e| CliError(format!("internal SVG error: {e}")))?;
    let size = tree.size();
    let scale = width as f32 / size.width();
    let height = (size.height() * scale).round().max(1.0) as u32;
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| CliError(format!("cannot make a {width}x{height} picture")))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| CliError(format!("PNG encoding: {e}")))
}
