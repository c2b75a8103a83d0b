//! KIF board diagrams (BOD): Gote's hand, the board with `v` before Gote's
//! pieces and `・` on empty squares, Sente's hand, and `後手番` when Gote moves.
//! [`crate::kif`] reads them as part of a record; this module writes them.
//!
//! ```
//! let bod = shogi_record::bod::write(&shogi_core::Position::startpos());
//! assert!(bod.contains("|v香v桂v銀v金v玉v金v銀v桂v香|一"));
//! assert!(bod.starts_with("後手の持駒：なし"));
//! ```

use std::fmt::Write as _;

use shogi_core::{Color, HandKind, Position, Square};

fn write_hand(out: &mut String, label: &str, pos: &Position, color: Color) {
    let hand = pos.hand(color);
    let mut parts = Vec::new();
    for hk in [
        HandKind::Rook,
        HandKind::Bishop,
        HandKind::Gold,
        HandKind::Silver,
        HandKind::Knight,
        HandKind::Lance,
        HandKind::Pawn,
    ] {
        let n = hand.count(hk);
        if n > 0 {
            let mut s = hk.piece_kind().kanji().to_string();
            if n > 1 {
                s.push_str(&kanji_number(n));
            }
            parts.push(s);
        }
    }
    let value = if parts.is_empty() {
        "なし".to_string()
    } else {
        parts.join("　") + "　"
    };
    let _ = writeln!(out, "{label}：{value}");
}

fn kanji_number(n: u8) -> String {
    const D: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    let tens = usize::from(n / 10);
    let ones = usize::from(n % 10);
    match tens {
        0 => D[ones].to_string(),
        1 => format!("十{}", D[ones]),
        _ => format!("{}十{}", D[tens.min(9)], D[ones]),
    }
}

/// Writes a KIF board diagram (BOD) of `pos`.
#[must_use]
pub fn write(pos: &Position) -> String {
    let mut out = String::new();
    write_hand(&mut out, "後手の持駒", pos, Color::Gote);
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            match Square::from_numbers(file, rank).and_then(|sq| pos.piece_at(sq)) {
                Some(p) => {
                    out.push(if p.color == Color::Gote { 'v' } else { ' ' });
                    out.push(p.kind.kanji());
                }
                None => out.push_str(" ・"),
            }
        }
        let _ = writeln!(
            out,
            "|{}",
            ['一', '二', '三', '四', '五', '六', '七', '八', '九'][usize::from(rank - 1)]
        );
    }
    out.push_str("+---------------------------+\n");
    write_hand(&mut out, "先手の持駒", pos, Color::Sente);
    if pos.side_to_move() == Color::Gote {
        out.push_str("後手番\n");
    }
    out
}
