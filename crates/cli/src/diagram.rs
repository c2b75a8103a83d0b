//! The plain text diagram of a position (the KIF board comes from `shogi_record::bod`).

use shogi_core::{Color, HandKind, Position, Square};

/// Files 9..1 across the top, ranks a..i down the right side, hands listed.
pub fn plain(pos: &Position) -> String {
    let mut s = String::new();
    s.push_str(&format!("Gote hand: {}\n", hand_text(pos, Color::Gote)));
    s.push_str("   9  8  7  6  5  4  3  2  1\n");
    for r in 1..=9u8 {
        s.push(' ');
        for f in (1..=9u8).rev() {
            let sq = Square::from_numbers(f, r).expect("on board");
            match pos.piece_at(sq) {
                Some(p) => s.push_str(&format!("{:>3}", p.to_sfen())),
                None => s.push_str("  ."),
            }
        }
        s.push_str(&format!("  {}\n", (b'a' + r - 1) as char));
    }
    s.push_str(&format!("Sente hand: {}\n", hand_text(pos, Color::Sente)));
    let side = match pos.side_to_move() {
        Color::Sente => "Sente (b)",
        Color::Gote => "Gote (w)",
    };
    s.push_str(&format!("To move: {side}\n"));
    s
}

fn hand_text(pos: &Position, c: Color) -> String {
    let h = pos.hand(c);
    if h.is_empty() {
        return "-".into();
    }
    HandKind::SFEN_ORDER
        .iter()
        .filter(|&&k| h.count(k) > 0)
        .map(|&k| {
            let n = h.count(k);
            if n > 1 {
                format!("{}{n}", k.sfen_letter())
            } else {
                k.sfen_letter().to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
