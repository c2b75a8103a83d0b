//! Russian-style move text with squares as in USI (file digit, rank letter a-i):
//! `7g-7f`, `С8hx2b+`, `П*5e`, `Ср4i-4h=`.
//!
//! Every board move names its origin, so no disambiguation is needed. A pawn
//! moving on the board has no letter (as in Russian chess notation); every
//! other piece, and every drop, is named. A promoted piece is the base
//! letters with `+` before them (`+Л` for a dragon, `+П` for a tokin).
//! After the move, `+` marks a promotion and `=` a declined one.
//!
//! Every letter stays readable next to the digits of the squares: the gold,
//! whose one letter `З` reads as the digit 3 (`З6i-7h` looks like
//! `36i-7h`), is `Зл`, two letters like the silver (`Ср`), knight (`Кн`),
//! lance and king. The names are those of the Russian and Ukrainian rules
//! pages (золото, серебро, ...); the abbreviations are ours, chosen so that
//! no two pieces share one and none can be read as a digit.
//!
//! | piece | Russian | abbr. | Ukrainian | abbr. |
//! |---|---|---|---|---|
//! | king | король | Кр | король | Кр |
//! | rook | ладья | Л | тура | Т |
//! | bishop | слон | С | слон | С |
//! | gold | золото | Зл | золото | Зл |
//! | silver | серебро | Ср | срібло | Ср |
//! | knight | конь | Кн | кінь | Кн |
//! | lance | копьё | Кп | спис | Сп |
//! | pawn | пешка | П | пішак | П |
//!
//! ```
//! use shogi_core::Position;
//! use shogi_record::notation::russian::{write, Language};
//! let pos = Position::startpos();
//! assert_eq!(write(&pos, "7g7f".parse()?, Language::Russian), "7g-7f");
//! assert_eq!(write(&pos, "9i9h".parse()?, Language::Russian), "Кп9i-9h");
//! assert_eq!(write(&pos, "9i9h".parse()?, Language::Ukrainian), "Сп9i-9h");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use shogi_core::{rules, Move, PieceKind, Position};

/// The language of the piece abbreviations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// Russian.
    Russian,
    /// Ukrainian.
    Ukrainian,
}

/// The abbreviation of `kind` (`Кр`, `+Л`, ...).
#[must_use]
pub fn piece_abbr(kind: PieceKind, lang: Language) -> String {
    let base = match (kind.unpromote(), lang) {
        (PieceKind::King, _) => "Кр",
        (PieceKind::Rook, Language::Russian) => "Л",
        (PieceKind::Rook, Language::Ukrainian) => "Т",
        (PieceKind::Bishop, _) => "С",
        (PieceKind::Gold, _) => "Зл",
        (PieceKind::Silver, _) => "Ср",
        (PieceKind::Knight, _) => "Кн",
        (PieceKind::Lance, Language::Russian) => "Кп",
        (PieceKind::Lance, Language::Ukrainian) => "Сп",
        _ => "П",
    };
    if kind.is_promoted() {
        format!("+{base}")
    } else {
        base.to_string()
    }
}

/// The text of legal move `mv` in `pos`.
#[must_use]
pub fn write(pos: &Position, mv: Move, lang: Language) -> String {
    match mv {
        Move::Drop { kind, to } => format!("{}*{to}", piece_abbr(kind.piece_kind(), lang)),
        Move::Board { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            let mut s = if kind == PieceKind::Pawn {
                String::new()
            } else {
                piece_abbr(kind, lang)
            };
            s.push_str(&from.to_string());
            s.push(if pos.piece_at(to).is_some() { 'x' } else { '-' });
            s.push_str(&to.to_string());
            if promote {
                s.push('+');
            } else if rules::can_promote(pos.side_to_move(), kind, from, to) {
                s.push('=');
            }
            s
        }
    }
}
