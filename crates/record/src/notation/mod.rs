//! Move text for display, one module per style.
//!
//! | module | example |
//! |---|---|
//! | [`japanese`] | `▲７六歩`, `△同　銀`, `▲５五角打`, `▲５八金右` |
//! | [`kif`] | `７六歩(77)`, `５五角打` |
//! | [`western`] | `P-7f`, `Bx2b+`, `P*5e`, `S-4h=`; numeric `P-76` |
//! | [`russian`] | `7g-7f`, `С8hx2b+`, `П*5e` (Russian and Ukrainian piece letters) |
//!
//! ```
//! use shogi_core::Position;
//! use shogi_record::notation::{self, Style};
//! let pos = Position::startpos();
//! let m = "7g7f".parse()?;
//! assert_eq!(notation::write(Style::Japanese, &pos, m, None), "▲７六歩");
//! assert_eq!(notation::write(Style::Western, &pos, m, None), "P-7f");
//! assert_eq!(notation::write(Style::WesternNumeric, &pos, m, None), "P-76");
//! assert_eq!(notation::write(Style::Russian, &pos, m, None), "7g-7f");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

pub mod japanese;
pub mod kif;
pub mod russian;
pub mod western;

use shogi_core::{Move, Position, Square};

/// A display style for single moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// `▲７六歩`.
    Japanese,
    /// `７六歩(77)`.
    Kif,
    /// `P-7f`.
    Western,
    /// `P-76`.
    WesternNumeric,
    /// `7g-7f` with Russian piece letters.
    Russian,
    /// `7g-7f` with Ukrainian piece letters.
    Ukrainian,
    /// USI: `7g7f`.
    Usi,
}

/// The text of legal move `mv` in `pos` in `style`; `last_to` is where the previous move landed.
#[must_use]
pub fn write(style: Style, pos: &Position, mv: Move, last_to: Option<Square>) -> String {
    match style {
        Style::Japanese => japanese::write(pos, mv, last_to),
        Style::Kif => kif::write(pos, mv, last_to),
        Style::Western => western::write(pos, mv, western::Squares::Letters),
        Style::WesternNumeric => western::write(pos, mv, western::Squares::Numbers),
        Style::Russian => russian::write(pos, mv, russian::Language::Russian),
        Style::Ukrainian => russian::write(pos, mv, russian::Language::Ukrainian),
        Style::Usi => mv.to_string(),
    }
}
