//! Text diagrams of a position.

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

const KANJI_NUM: [&str; 19] = [
    "", "", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四",
    "十五", "十六", "十七", "十八",
];
const ZEN_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANK_KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn bod_hand(pos: &Position, c: Color) -> String {
    let h = pos.hand(c);
    if h.is_empty() {
        return "なし".into();
    }
    HandKind::SFEN_ORDER
        .iter()
        .filter(|&&k| h.count(k) > 0)
        .map(|&k| {
            format!(
                "{}{}",
                k.piece_kind().kanji(),
                KANJI_NUM[usize::from(h.count(k))]
            )
        })
        .collect::<Vec<_>>()
        .join("　")
}

/// The KIF board diagram (BOD).
pub fn bod(pos: &Position) -> String {
    let mut s = String::new();
    s.push_str(&format!("後手の持駒：{}\n", bod_hand(pos, Color::Gote)));
    let header: Vec<String> = (0..9).rev().map(|f| ZEN_DIGITS[f].to_string()).collect();
    s.push_str(&format!("  {}\n", header.join(" ")));
    s.push_str("+---------------------------+\n");
    for r in 1..=9u8 {
        s.push('|');
        for f in (1..=9u8).rev() {
            let sq = Square::from_numbers(f, r).expect("on board");
            match pos.piece_at(sq) {
                Some(p) => {
                    s.push(if p.color == Color::Gote { 'v' } else { ' ' });
                    s.push(p.kind.kanji());
                }
                None => s.push_str(" ・"),
            }
        }
        s.push('|');
        s.push(RANK_KANJI[usize::from(r - 1)]);
        s.push('\n');
    }
    s.push_str("+---------------------------+\n");
    s.push_str(&format!("先手の持駒：{}\n", bod_hand(pos, Color::Sente)));
    if pos.side_to_move() == Color::Gote {
        s.push_str("後手番\n");
    }
    s
}
