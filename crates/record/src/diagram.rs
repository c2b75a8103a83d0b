//! Board diagrams as SVG.
//!
//! A 9×9 board with file numbers across the top (9..1) and rank labels down
//! the right side (一..九 or a..i), the pieces as kanji (Gote's upside down)
//! or as Latin letters in a piece-shaped outline, both hands with counts
//! (Gote's at the top left, Sente's at the bottom right), the last move's
//! squares highlighted and the side to move's hand heading marked.
//!
//! The text is plain SVG 1.1 with `<text>` elements: a viewer needs a font
//! with kanji for [`PieceStyle::Kanji`] and [`Coords::Japanese`]; the
//! [`PieceStyle::International`] style with [`Coords::Letters`] needs only
//! Latin letters and digits.
//!
//! ```
//! use shogi_record::diagram::{svg, Options};
//! let pos = shogi_core::Position::startpos();
//! let text = svg(&pos, &Options::default());
//! assert!(text.starts_with("<svg"));
//! assert_eq!(text.matches("<text class=\"piece").count(), 40);
//! ```

use std::fmt::Write;

use shogi_core::{Color, HandKind, Move, PieceKind, Position, Square};

/// How pieces are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PieceStyle {
    /// One kanji per piece (歩, と, 龍 ...); promoted pieces in red.
    #[default]
    Kanji,
    /// A piece-shaped outline with a Latin letter (P L N S G B R K); promoted
    /// pieces as `+P` ... in red on a pink piece.
    International,
}

/// How ranks are labelled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Coords {
    /// Kanji numerals 一..九 (the hand headings read 先手 and 後手).
    #[default]
    Japanese,
    /// Letters a..i as in USI (the hand headings read Sente and Gote).
    Letters,
}

/// What to draw besides the position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Piece style.
    pub pieces: PieceStyle,
    /// Rank labels.
    pub coords: Coords,
    /// The move that led to the position: its destination square is
    /// highlighted, its origin (if not a drop) more lightly.
    pub last_move: Option<Move>,
}

/// Font families for kanji, most wanted first.
pub const KANJI_FONTS: &str = "'Noto Serif CJK JP', 'Noto Sans CJK JP', 'IPAexMincho', \
'IPAMincho', 'IPAexGothic', 'IPAGothic', 'Hiragino Mincho ProN', 'Yu Mincho', 'MS Mincho', serif";
/// Font families for Latin letters and digits.
pub const LATIN_FONTS: &str = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif";

const CELL: f64 = 60.0;
const MARGIN: f64 = 12.0;
const HAND_W: f64 = 84.0;
const LABEL_H: f64 = 32.0;
const RANK_W: f64 = 36.0;
const BOARD_X: f64 = MARGIN + HAND_W + 12.0;
const BOARD_Y: f64 = MARGIN + LABEL_H;
const BOARD: f64 = 9.0 * CELL;
const RIGHT_HAND_X: f64 = BOARD_X + BOARD + RANK_W + 8.0;
const HEADING_H: f64 = 40.0;
const HAND_ROW: f64 = 48.0;

/// Width of every diagram, in SVG user units (pixels at scale 1).
pub const WIDTH: f64 = RIGHT_HAND_X + HAND_W + MARGIN;
/// Height of every diagram, in SVG user units (pixels at scale 1).
pub const HEIGHT: f64 = BOARD_Y + BOARD + MARGIN + 4.0;

const RANK_KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The top-left corner of a square.
fn corner(sq: Square) -> (f64, f64) {
    let file = f64::from(sq.file().number());
    let rank = f64::from(sq.rank().number());
    (BOARD_X + (9.0 - file) * CELL, BOARD_Y + (rank - 1.0) * CELL)
}

/// Writes `pos` as an SVG document.
#[must_use]
pub fn svg(pos: &Position, opts: &Options) -> String {
    let mut s = String::with_capacity(16 * 1024);
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\">"
    );
    let _ = writeln!(s, "<title>{}</title>", pos.to_sfen());
    let _ = writeln!(
        s,
        "<rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#ffffff\"/>"
    );
    board(&mut s, opts);
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            let (x, y) = corner(sq);
            piece(
                &mut s,
                p.kind,
                p.color,
                x + CELL / 2.0,
                y + CELL / 2.0,
                1.0,
                opts.pieces,
            );
        }
    }
    hand(&mut s, pos, Color::Gote, opts);
    hand(&mut s, pos, Color::Sente, opts);
    s.push_str("</svg>\n");
    s
}

fn board(s: &mut String, opts: &Options) {
    let _ = writeln!(
        s,
        "<rect x=\"{BOARD_X}\" y=\"{BOARD_Y}\" width=\"{BOARD}\" height=\"{BOARD}\" fill=\"#f2d28c\"/>"
    );
    if let Some(m) = opts.last_move {
        if let Some(from) = m.from() {
            let (x, y) = corner(from);
            let _ = writeln!(
                s,
                "<rect class=\"last-from\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"#f8e7b0\"/>"
            );
        }
        let (x, y) = corner(m.to());
        let _ = writeln!(
            s,
            "<rect class=\"last-move\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"#f6bf6e\"/>"
        );
    }
    s.push_str("<g stroke=\"#3a2a10\" stroke-width=\"1\">\n");
    for i in 1..9 {
        let d = f64::from(i) * CELL;
        let _ = writeln!(
            s,
            "<line x1=\"{}\" y1=\"{BOARD_Y}\" x2=\"{}\" y2=\"{}\"/>",
            BOARD_X + d,
            BOARD_X + d,
            BOARD_Y + BOARD
        );
        let _ = writeln!(
            s,
            "<line x1=\"{BOARD_X}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
            BOARD_Y + d,
            BOARD_X + BOARD,
            BOARD_Y + d
        );
    }
    s.push_str("</g>\n");
    let _ = writeln!(
        s,
        "<rect x=\"{BOARD_X}\" y=\"{BOARD_Y}\" width=\"{BOARD}\" height=\"{BOARD}\" fill=\"none\" stroke=\"#3a2a10\" stroke-width=\"2.5\"/>"
    );
    for (fx, fy) in [(3.0, 3.0), (6.0, 3.0), (3.0, 6.0), (6.0, 6.0)] {
        let _ = writeln!(
            s,
            "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"#3a2a10\"/>",
            BOARD_X + fx * CELL,
            BOARD_Y + fy * CELL
        );
    }
    // File numbers 9..1 across the top.
    for f in 1..=9u8 {
        let x = BOARD_X + f64::from(9 - f) * CELL + CELL / 2.0;
        let _ = writeln!(
            s,
            "<text class=\"file\" x=\"{x}\" y=\"{}\" font-family=\"{LATIN_FONTS}\" font-size=\"20\" text-anchor=\"middle\" fill=\"#222222\">{f}</text>",
            BOARD_Y - 9.0
        );
    }
    // Rank labels down the right side.
    for r in 0..9u8 {
        let y = BOARD_Y + f64::from(r) * CELL + CELL / 2.0 + 7.0;
        let x = BOARD_X + BOARD + RANK_W / 2.0;
        let (label, fonts) = match opts.coords {
            Coords::Japanese => (RANK_KANJI[usize::from(r)], KANJI_FONTS),
            Coords::Letters => (char::from(b'a' + r), LATIN_FONTS),
        };
        let _ = writeln!(
            s,
            "<text class=\"rank\" x=\"{x}\" y=\"{y}\" font-family=\"{fonts}\" font-size=\"20\" text-anchor=\"middle\" fill=\"#222222\">{label}</text>"
        );
    }
}

/// The kanji of a piece as drawn: Gote's king is 王, Sente's 玉.
fn kanji(kind: PieceKind, color: Color) -> char {
    if kind == PieceKind::King && color == Color::Gote {
        '王'
    } else {
        kind.kanji()
    }
}

/// Draws one piece centred on (`cx`, `cy`), scaled by `k`, pointing at the opponent.
fn piece(
    s: &mut String,
    kind: PieceKind,
    color: Color,
    cx: f64,
    cy: f64,
    k: f64,
    style: PieceStyle,
) {
    let side = match color {
        Color::Sente => "sente",
        Color::Gote => "gote",
    };
    let turn = match color {
        Color::Sente => String::new(),
        Color::Gote => format!(" transform=\"rotate(180 {cx} {cy})\""),
    };
    let promoted = kind.is_promoted();
    let ink = if promoted { "#c8102e" } else { "#111111" };
    match style {
        PieceStyle::Kanji => {
            let size = 40.0 * k;
            let _ = writeln!(
                s,
                "<text class=\"piece {side}\" x=\"{cx}\" y=\"{}\" font-family=\"{KANJI_FONTS}\" font-size=\"{size}\" text-anchor=\"middle\" fill=\"{ink}\"{turn}>{}</text>",
                cy + size * 0.36,
                kanji(kind, color)
            );
        }
        PieceStyle::International => {
            let fill = if promoted { "#f7c9c4" } else { "#fbe7bd" };
            let p = |dx: f64, dy: f64| format!("{:.1},{:.1}", cx + dx * k, cy + dy * k);
            let _ = writeln!(
                s,
                "<g class=\"{side}\"{turn}><polygon points=\"{} {} {} {} {}\" fill=\"{fill}\" stroke=\"#5a4020\" stroke-width=\"1.5\"/>",
                p(0.0, -26.0),
                p(18.0, -18.0),
                p(23.0, 25.0),
                p(-23.0, 25.0),
                p(-18.0, -18.0)
            );
            let letter = kind.sfen();
            let size = if promoted { 22.0 * k } else { 27.0 * k };
            let _ = writeln!(
                s,
                "<text class=\"piece {side}\" x=\"{cx}\" y=\"{}\" font-family=\"{LATIN_FONTS}\" font-weight=\"bold\" font-size=\"{size}\" text-anchor=\"middle\" fill=\"{ink}\">{letter}</text></g>",
                cy + 3.0 * k + size * 0.36
            );
        }
    }
}

/// Draws `color`'s hand: Gote's in a column at the top left, Sente's at the bottom right.
fn hand(s: &mut String, pos: &Position, color: Color, opts: &Options) {
    let h = pos.hand(color);
    let kinds: Vec<HandKind> = HandKind::SFEN_ORDER
        .into_iter()
        .filter(|&k| h.count(k) > 0)
        .collect();
    let rows = kinds.len().max(1) as f64;
    let block = HEADING_H + rows * HAND_ROW;
    let (x, y) = match color {
        Color::Gote => (MARGIN, BOARD_Y),
        Color::Sente => (RIGHT_HAND_X, BOARD_Y + BOARD - block),
    };
    let to_move = pos.side_to_move() == color;
    let (side, fill) = match color {
        Color::Sente => ("sente", "#111111"),
        Color::Gote => ("gote", "#ffffff"),
    };
    // The heading: a piece-shaped mark (black for Sente, white for Gote) and the side's
    // name, on a gold ground with a border when it is that side's turn.
    let _ = writeln!(s, "<g class=\"hand {side}\">");
    let _ = writeln!(
        s,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{HAND_W}\" height=\"{block}\" rx=\"6\" fill=\"#faf3e0\" stroke=\"#c9b68a\" stroke-width=\"1\"/>"
    );
    if to_move {
        let _ = writeln!(
            s,
            "<rect class=\"to-move\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"5\" fill=\"#ffd54f\" stroke=\"#c8102e\" stroke-width=\"2\"/>",
            x + 2.0,
            y + 2.0,
            HAND_W - 4.0,
            HEADING_H - 4.0
        );
    }
    let (mx, my) = (x + 16.0, y + HEADING_H / 2.0);
    let _ = writeln!(
        s,
        "<polygon points=\"{mx},{} {},{} {},{} {},{} {},{}\" fill=\"{fill}\" stroke=\"#111111\" stroke-width=\"1.2\"/>",
        my - 11.0,
        mx + 8.0,
        my - 7.0,
        mx + 9.0,
        my + 10.0,
        mx - 9.0,
        my + 10.0,
        mx - 8.0,
        my - 7.0
    );
    let (name, fonts, size) = match (opts.coords, color) {
        (Coords::Japanese, Color::Sente) => ("先手", KANJI_FONTS, 20),
        (Coords::Japanese, Color::Gote) => ("後手", KANJI_FONTS, 20),
        (Coords::Letters, Color::Sente) => ("Sente", LATIN_FONTS, 15),
        (Coords::Letters, Color::Gote) => ("Gote", LATIN_FONTS, 15),
    };
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" font-family=\"{fonts}\" font-size=\"{size}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#111111\">{name}</text>",
        x + 54.0,
        my + 6.0
    );
    if kinds.is_empty() {
        let _ = writeln!(
            s,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#9a8a6a\" stroke-width=\"2\"/>",
            x + 30.0,
            y + HEADING_H + HAND_ROW / 2.0,
            x + HAND_W - 30.0,
            y + HEADING_H + HAND_ROW / 2.0
        );
    }
    for (i, &k) in kinds.iter().enumerate() {
        let cy = y + HEADING_H + (i as f64 + 0.5) * HAND_ROW;
        piece(s, k.piece_kind(), color, x + 30.0, cy, 0.8, opts.pieces);
        let n = h.count(k);
        if n > 1 {
            let _ = writeln!(
                s,
                "<text class=\"count\" x=\"{}\" y=\"{}\" font-family=\"{LATIN_FONTS}\" font-size=\"20\" text-anchor=\"middle\" fill=\"#111111\">{n}</text>",
                x + 66.0,
                cy + 7.0
            );
        }
    }
    s.push_str("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_and_hand_is_drawn() {
        let pos = shogi_core::sfen::parse_position(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        )
        .unwrap();
        let s = svg(&pos, &Options::default());
        let board_pieces = Square::all().filter(|&q| pos.piece_at(q).is_some()).count();
        // Hands: R G (Sente), g s n p (Gote).
        assert_eq!(s.matches("<text class=\"piece").count(), board_pieces + 6);
        assert!(s.contains(">と</text>"));
        assert!(s.contains(">5</text>"));
        // Gote to move: one heading marked.
        assert_eq!(s.matches("class=\"to-move\"").count(), 1);
        let intl = svg(
            &pos,
            &Options {
                pieces: PieceStyle::International,
                coords: Coords::Letters,
                last_move: Some("4d3e".parse().unwrap()),
            },
        );
        assert!(intl.contains(">+P</text>"));
        assert!(intl.contains(">i</text>"));
        assert!(intl.contains("class=\"last-move\""));
        assert!(intl.contains("class=\"last-from\""));
        assert!(intl.is_ascii());
    }
}
