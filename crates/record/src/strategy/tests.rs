//! Labelled games: a standard move order per opening, line and castle,
//! written out by hand, read with the crate's USI reader (so each is legal)
//! and tagged.

use shogi_core::Handicap;

use super::*;

/// Reads `moves` (USI, from the start position) and checks every move is legal.
fn game(moves: &str) -> Record {
    let rec = crate::usi::read(&format!("position startpos moves {moves}")).expect("usi reads");
    assert_eq!(rec.illegal_move, None, "{moves}");
    assert_eq!(rec.moves.len(), moves.split_whitespace().count());
    rec
}

/// Sente's moves, each answered by Gote's next one while there is one.
fn both(sente: &str, gote: &str) -> String {
    let (s, g): (Vec<&str>, Vec<&str>) = (
        sente.split_whitespace().collect(),
        gote.split_whitespace().collect(),
    );
    assert!(g.len() + 1 >= s.len(), "too few Gote moves");
    let mut out = Vec::new();
    for (i, m) in s.iter().enumerate() {
        out.push(*m);
        if let Some(r) = g.get(i) {
            out.push(*r);
        }
    }
    out.join(" ")
}

/// Gote moves that build nothing: pawns and a silver.
const GOTE_QUIET: &str = "3c3d 8c8d 7a6b 8d8e 5c5d 6b5c 4a3b 1c1d 9c9d 1d1e 9d9e 6c6d 7c7d";

#[test]
fn static_against_fourth_file_with_boat_and_mino() {
    // ▲7六歩 △3四歩 ▲2六歩 △4四歩 ▲4八銀 △4二飛 ▲6八玉 △6二玉 ▲7八玉 △7二玉
    // ▲5八金右 △8二玉 ▲5六歩 △7二銀 ▲2五歩 △3三角 ▲9六歩 △9四歩 ▲5七銀 △5二金左
    let s = game(
        "7g7f 3c3d 2g2f 4c4d 3i4h 8b4b 5i6h 5a6b 6h7h 6b7b \
         4i5h 7b8b 5g5f 7a7b 2f2e 2b3c 9g9f 9c9d 4h5g 4a5b",
    )
    .strategy();
    assert_eq!(s.sente().opening, Some(Opening::StaticRook));
    assert_eq!(s.gote().opening, Some(Opening::FourthFileRook));
    assert_eq!(s.sente().castles, [Castle::Funagakoi]);
    assert_eq!(s.gote().castles, [Castle::KataMino, Castle::Mino]);
    assert_eq!(s.line, Some(Line::StaticVsRanging));
}

#[test]
fn gote_central_rook() {
    // ゴキゲン中飛車: ▲7六歩 △3四歩 ▲2六歩 △5四歩 ▲2五歩 △5二飛
    let s = game("7g7f 3c3d 2g2f 5c5d 2f2e 8b5b").strategy();
    assert_eq!(s.gote().opening, Some(Opening::CentralRook));
    assert_eq!(s.gote().family(), Some(Family::RangingRook));
}

#[test]
fn sente_central_rook() {
    // ▲5六歩 △3四歩 ▲5八飛
    let s = game("5g5f 3c3d 2h5h").strategy();
    assert_eq!(s.sente().opening, Some(Opening::CentralRook));
}

#[test]
fn quick_ishida_is_third_file_rook() {
    // 早石田: ▲7六歩 △3四歩 ▲7五歩 △8四歩 ▲7八飛
    let s = game("7g7f 3c3d 7f7e 8c8d 2h7h").strategy();
    assert_eq!(s.sente().opening, Some(Opening::ThirdFileRook));
    assert_eq!(s.line, Some(Line::StaticVsRanging));
}

#[test]
fn gote_opposing_rook() {
    // ▲7六歩 △3四歩 ▲2六歩 △4四歩 ▲2五歩 △3三角 ▲4八銀 △2二飛
    let s = game("7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b2b").strategy();
    assert_eq!(s.gote().opening, Some(Opening::OpposingRook));
}

#[test]
fn fourth_then_third_file_keeps_both() {
    // ４→３戦法: △4二飛 then △3二飛.
    let s = game("7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b 5i6h 4b3b").strategy();
    assert_eq!(s.gote().opening, Some(Opening::FourthFileRook));
    assert_eq!(s.gote().later_opening, Some(Opening::ThirdFileRook));
}

#[test]
fn both_ranging_is_double_ranging_rook() {
    // ▲7六歩 △3四歩 ▲7五歩 △4四歩 ▲7八飛 △4二飛
    let s = game("7g7f 3c3d 7f7e 4c4d 2h7h 8b4b").strategy();
    assert_eq!(s.line, Some(Line::DoubleRangingRook));
}

#[test]
fn right_fourth_file_and_sleeve_rook_are_static() {
    // ▲7六歩 △3四歩 ▲4六歩 △8四歩 ▲4八飛
    let s = game("7g7f 3c3d 4g4f 8c8d 2h4h").strategy();
    assert_eq!(s.sente().opening, Some(Opening::RightFourthFileRook));
    assert_eq!(s.line, Some(Line::DoubleStaticRook));
    // ▲7六歩 △3四歩 ▲3八飛
    let s = game("7g7f 3c3d 2h3h").strategy();
    assert_eq!(s.sente().opening, Some(Opening::SleeveRook));
    assert_eq!(s.sente().family(), Some(Family::StaticRook));
}

#[test]
fn gold_yagura_on_both_sides_is_yagura() {
    // ▲7六歩 ▲6八銀 ▲6六歩 ▲5六歩 ▲4八銀 ▲5八金右 ▲6七金 ▲7七銀 ▲7八金
    // ▲7九角 ▲6九玉 ▲6八角 ▲7九玉 ▲8八玉, and Gote the same turned around.
    let sente = "7g7f 7i6h 6g6f 5g5f 3i4h 4i5h 5h6g 6h7g 6i7h 8h7i 5i6i 7i6h 6i7i 7i8h";
    let gote = "3c3d 3a4b 4c4d 5c5d 7a6b 6a5b 5b4c 4b3c 4a3b 2b3a 5a4a 3a4b 4a3a 3a2b";
    let s = game(&both(sente, gote)).strategy();
    assert_eq!(s.sente().castles, [Castle::Yagura]);
    assert_eq!(s.gote().castles, [Castle::Yagura]);
    assert_eq!(s.line, Some(Line::Yagura));
}

#[test]
fn quick_yagura_then_half_yagura() {
    // ▲7六歩 ▲6八銀 ▲6六歩 ▲7七銀 ▲5八金右 ▲6七金 ▲6八玉 ▲7八玉 ▲6八金
    let sente = "7g7f 7i6h 6g6f 6h7g 4i5h 5h6g 5i6h 6h7h 6i6h";
    let s = game(&both(sente, GOTE_QUIET)).strategy();
    assert_eq!(s.sente().castles, [Castle::QuickYagura, Castle::KataYagura]);
    assert_eq!(s.line, Some(Line::Yagura));
}

#[test]
fn bishops_exchanged_early_is_kakugawari() {
    // ▲7六歩 △8四歩 ▲2六歩 △3二金 ▲7八金 △8五歩 ▲7七角 △3四歩 ▲8八銀 △7七角成 ▲同銀
    let s = game("7g7f 8c8d 2g2f 4a3b 6i7h 8d8e 8h7g 3c3d 7i8h 2b7g+ 8h7g").strategy();
    assert_eq!(s.line, Some(Line::Kakugawari));
}

#[test]
fn bishop_exchange_after_double_wing_start_is_still_kakugawari() {
    // ▲2六歩 △8四歩 ▲2五歩 △8五歩 ▲7六歩 △3二金 ▲7七角 △3四歩 ▲6八銀 △7七角成 ▲同銀
    let s = game("2g2f 8c8d 2f2e 8d8e 7g7f 4a3b 8h7g 3c3d 7i6h 2b7g+ 6h7g").strategy();
    assert_eq!(s.line, Some(Line::Kakugawari));
}

#[test]
fn rook_taking_the_side_pawn_is_yokofudori() {
    // ▲7六歩 △3四歩 ▲2六歩 △8四歩 ▲2五歩 △8五歩 ▲7八金 △3二金 ▲2四歩 △同歩
    // ▲同飛 △8六歩 ▲同歩 △同飛 ▲3四飛
    let s = game(
        "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d \
         2h2d 8e8f 8g8f 8b8f 2d3d",
    )
    .strategy();
    assert_eq!(s.line, Some(Line::Yokofudori));
}

#[test]
fn rook_pawns_forward_with_bishops_closed_is_aigakari() {
    // ▲2六歩 △8四歩 ▲2五歩 △8五歩 ▲7八金 △3二金 ▲2四歩 △同歩 ▲同飛 △2三歩打 ▲2六飛
    let s = game("2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d P*2c 2d2f").strategy();
    assert_eq!(s.line, Some(Line::Aigakari));
}

#[test]
fn two_silvers_abreast_is_gangi() {
    // ▲7六歩 ▲6六歩 ▲5六歩 ▲6八銀 ▲6七銀 ▲4八銀 ▲5七銀 ▲7八金 ▲5八金 ▲6九玉
    let sente = "7g7f 6g6f 5g5f 7i6h 6h6g 3i4h 4h5g 6i7h 4i5h 5i6i";
    let gote = "8c8d 8d8e 3c3d 7a6b 4a3b 5c5d 6b5c 1c1d 9c9d 1d1e";
    let s = game(&both(sente, gote)).strategy();
    assert_eq!(s.sente().castles, [Castle::Gangi]);
    assert_eq!(s.line, Some(Line::Gangi));
}

#[test]
fn mino_grows_into_high_mino_and_silver_crown() {
    // ▲7六歩 ▲6六歩 ▲6八飛 ▲4八玉 ▲3八玉 ▲2八玉 ▲3八銀 ▲5八金左 ▲4六歩 ▲4七金
    // ▲2六歩 ▲2七銀 ▲3八金
    let sente = "7g7f 6g6f 2h6h 5i4h 4h3h 3h2h 3i3h 6i5h 4g4f 5h4g 2g2f 3h2g 4i3h";
    let s = game(&both(sente, GOTE_QUIET)).strategy();
    assert_eq!(s.sente().opening, Some(Opening::FourthFileRook));
    assert_eq!(
        s.sente().castles,
        [
            Castle::KataMino,
            Castle::Mino,
            Castle::Takamino,
            Castle::Ginkanmuri
        ]
    );
}

#[test]
fn gold_over_silver_is_kimura_mino() {
    // ▲7六歩 ▲6六歩 ▲6八飛 ▲4八玉 ▲3八玉 ▲2八玉 ▲3八銀 ▲4六歩 ▲4七銀 ▲3八金
    let sente = "7g7f 6g6f 2h6h 5i4h 4h3h 3h2h 3i3h 4g4f 3h4g 4i3h";
    let s = game(&both(sente, GOTE_QUIET)).strategy();
    assert_eq!(s.sente().castles, [Castle::KataMino, Castle::KimuraMino]);
}

#[test]
fn golds_side_by_side_is_kin_muso() {
    // ▲7六歩 ▲7八飛 ▲4八玉 ▲3八玉 ▲4八金 ▲5八金
    let sente = "7g7f 2h7h 5i4h 4h3h 4i4h 6i5h";
    let s = game(&both(sente, GOTE_QUIET)).strategy();
    assert_eq!(s.sente().castles, [Castle::KinMuso]);
}

#[test]
fn king_in_the_right_corner_is_ranging_anaguma() {
    // ▲7六歩 ▲6六歩 ▲6八飛 ▲4八玉 ▲3八玉 ▲2八玉 ▲1八香 ▲1九玉 ▲2八銀
    let sente = "7g7f 6g6f 2h6h 5i4h 4h3h 3h2h 1i1h 2h1i 3i2h";
    let s = game(&both(sente, GOTE_QUIET)).strategy();
    assert_eq!(s.sente().castles, [Castle::RangingAnaguma]);
}

#[test]
fn king_in_the_left_corner_is_static_anaguma() {
    // ▲7六歩 ▲7七角 ▲9八香 ▲6八玉 ▲7八玉 ▲8八玉 ▲9九玉 ▲8八銀
    let sente = "7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 7i8h";
    let s = game(&both(sente, GOTE_QUIET)).strategy();
    assert_eq!(s.sente().opening, Some(Opening::StaticRook));
    assert_eq!(s.sente().castles, [Castle::StaticAnaguma]);
}

#[test]
fn gold_under_the_king_is_elmo() {
    // ▲7六歩 ▲2六歩 ▲4八銀 ▲5六歩 ▲6八玉 ▲7八玉 ▲2五歩 ▲5七銀 ▲9六歩 ▲6八銀上
    // ▲7九金 ▲5九金 (the JSA's order)
    let sente = "7g7f 2g2f 3i4h 5g5f 5i6h 6h7h 2f2e 4h5g 9g9f 7i6h 6i7i 4i5i";
    let s = game(&both(sente, GOTE_QUIET)).strategy();
    assert_eq!(s.sente().castles, [Castle::Elmo]);
}

#[test]
fn handicap_giver_without_rook_has_no_opening_and_no_line() {
    let mut rec = Record::new(Handicap::Rook.position());
    for m in ["5c5d", "7g7f", "5a4b", "2g2f"] {
        rec.push(m.parse().expect("usi"));
    }
    let s = rec.strategy();
    assert_eq!(s.gote().opening, None);
    assert_eq!(s.sente().opening, Some(Opening::StaticRook));
    assert_eq!(s.line, None);
}

#[test]
fn position_that_is_no_standard_start_is_not_tagged() {
    let rec = crate::usi::read(
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2 moves 8b4b",
    )
    .expect("usi reads");
    assert_eq!(rec.strategy(), Strategy::default());
}

#[test]
fn illegal_move_stops_the_watch() {
    let moves: Vec<Move> = ["7g7f", "3c3d", "2h2a", "8b4b"]
        .iter()
        .map(|m| m.parse().expect("usi"))
        .collect();
    let s = classify(&Position::startpos(), moves);
    assert_eq!(s.gote().opening, Some(Opening::StaticRook));
}
