//! PNG board pictures: the SVG of [`shogi_record::diagram::svg`] rendered with
//! resvg and the system's fonts (loaded once per process).
//!
//! Without a font that has kanji the picture is drawn with international
//! pieces and letter coordinates instead of tofu boxes. The environment
//! variable `SHOGI_DIAGRAM_NO_SYSTEM_FONTS` (set to anything) loads no system
//! font, as on a bare machine: the tests use it to check that a PNG is still made.
//! `shogi diagram` uses this module too.

use std::sync::{Arc, OnceLock};

use resvg::usvg::fontdb;
use resvg::{tiny_skia, usvg};
use shogi_core::Position;
use shogi_record::diagram::{self, Coords, Options, PieceStyle};

/// The default picture width in pixels.
pub const DEFAULT_WIDTH: u32 = 600;
/// The widest picture served (its cost grows with the area: 2000 pixels
/// took 0.74 s of CPU, 1200 about a third of that).
pub const MAX_WIDTH: u32 = 1200;

/// Kanji font families looked for before drawing kanji (the SVG names them too).
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

struct Fonts {
    db: Arc<fontdb::Database>,
    kanji: bool,
}

/// The system's fonts with generic families pointed at fonts likely present.
fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| {
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
        let kanji = db.faces().any(|f| {
            f.families.iter().any(|(name, lang)| {
                KANJI_FAMILIES.contains(&name.as_str())
                    || *lang == fontdb::Language::Japanese_Japan
                    || name.contains("CJK")
            })
        });
        Fonts {
            db: Arc::new(db),
            kanji,
        }
    })
}

/// The PNG of `pos` drawn with `opts`, `width` pixels wide (kanji replaced by
/// international pieces and letter coordinates when no font has them).
///
/// # Errors
/// The picture cannot be made (a size too large, an encoder failure).
pub fn png(pos: &Position, opts: &Options, width: u32) -> Result<Vec<u8>, String> {
    render(pos, opts, width).map(|r| r.png)
}

/// A rendered picture.
#[derive(Debug)]
pub struct Rendered {
    /// The PNG bytes.
    pub png: Vec<u8>,
    /// Kanji were asked for but no font has them: drawn with international
    /// pieces and letter coordinates instead.
    pub without_kanji: bool,
}

/// Like [`png`], and also says whether the kanji had to be replaced.
///
/// # Errors
/// The picture cannot be made (a size too large, an encoder failure).
pub fn render(pos: &Position, opts: &Options, width: u32) -> Result<Rendered, String> {
    let fonts = fonts();
    let mut opts = *opts;
    let needs_kanji = opts.pieces == PieceStyle::Kanji || opts.coords == Coords::Japanese;
    let without_kanji = needs_kanji && !fonts.kanji;
    if without_kanji {
        opts.pieces = PieceStyle::International;
        opts.coords = Coords::Letters;
    }
    let svg = diagram::svg(pos, &opts);
    let usvg_opts = usvg::Options {
        fontdb: fonts.db.clone(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(&svg, &usvg_opts).map_err(|e| format!("SVG: {e}"))?;
    let size = tree.size();
    let scale = width as f32 / size.width();
    let height = (size.height() * scale).round().max(1.0) as u32;
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| format!("cannot make a {width}x{height} picture"))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let png = pixmap
        .encode_png()
        .map_err(|e| format!("PNG encoding: {e}"))?;
    Ok(Rendered { png, without_kanji })
}
