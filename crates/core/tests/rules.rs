//! The rules of shogi, one test per rule, on positions built for the purpose.

use shogi_core::{
    sfen, ByColor, Game, GameRules, GameStatus, HandKind, Handicap, IllegalMove, ImpasseRule,
    ImpasseVerdict, Move, PieceKind, Position, Square,
};

fn pos(s: &str) -> Position {
    sfen::parse_position(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn check(p: &Position, m: &str) -> Result<(), IllegalMove> {
    let m = mv(m);
    let result = p.check_move(m);
    // Whatever check_move says, the generator must agree.
    assert_eq!(
        result.is_ok(),
        p.legal_moves().contains(&m),
        "generator disagrees on {m}"
    );
    result
}

/// The game after `moves` from `start`, judged at its end only.
fn game(start: &str, moves: &str, impasse: ImpasseRule) -> Game {
    let rules = GameRules {
        impasse,
        ..GameRules::default()
    };
    let mut game = Game::with_rules(pos(start), rules);
    for m in moves.split_whitespace() {
        game.play_ignoring_endings(mv(m))
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    game
}

fn status(start: &str, moves: &str, impasse: ImpasseRule) -> GameStatus {
    game(start, moves, impasse).status()
}

// --- Drops -----------------------------------------------------------------

#[test]
fn nifu_blocks_a_second_unpromoted_pawn_on_a_file() {
    let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert_eq!(check(&p, "P*5e"), Err(IllegalMove::Nifu(sq("5e").file())));
    assert_eq!(check(&p, "P*4e"), Ok(()));
}

#[test]
fn nifu_ignores_a_promoted_pawn_and_the_opponents_pawns() {
    let p = pos("4k4/9/9/4+P4/9/4p4/9/9/4K4 b P 1");
    assert_eq!(check(&p, "P*5e"), Ok(()));
}

#[test]
fn dead_drops_are_refused() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b PLN 1");
    for m in ["P*3a", "L*3a", "N*3a", "N*3b"] {
        assert!(
            matches!(check(&p, m), Err(IllegalMove::DeadDrop { .. })),
            "{m}"
        );
    }
    for m in ["P*3b", "L*3b", "N*3c"] {
        assert_eq!(check(&p, m), Ok(()), "{m}");
    }
    let g = pos("4k4/9/9/9/9/9/9/9/4K4 w pln 1");
    for m in ["P*3i", "L*3i", "N*3i", "N*3h"] {
        assert!(
            matches!(check(&g, m), Err(IllegalMove::DeadDrop { .. })),
            "{m}"
        );
    }
    assert_eq!(check(&g, "N*3g"), Ok(()));
}

#[test]
fn drops_need_the_piece_in_hand_and_an_empty_square() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b G 1");
    assert_eq!(
        check(&p, "S*5e"),
        Err(IllegalMove::NotInHand(HandKind::Silver))
    );
    assert_eq!(
        check(&p, "G*5a"),
        Err(IllegalMove::DropOnOccupied(sq("5a")))
    );
}

#[test]
fn a_dropped_piece_is_never_promoted() {
    let mut p = pos("4k4/9/9/9/9/9/9/9/4K4 b B 1");
    p.play(mv("B*2b")).unwrap();
    assert_eq!(
        p.piece_at(sq("2b")).map(|p| p.kind),
        Some(PieceKind::Bishop)
    );
    assert!("B*2b+".parse::<Move>().is_err());
}

#[test]
fn uchifuzume_pawn_drop_mate_is_illegal() {
    // Gote king 1a; the gold on 2c guards 1b and 2b, the knight on 3c guards 2a.
    let p = pos("8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    assert_eq!(check(&p, "P*1b"), Err(IllegalMove::PawnDropMate));
}

#[test]
fn uchifuzume_with_a_pinned_capturer_is_still_mate() {
    // The silver on 2a could take the pawn on 1b, but the rook on 4a pins it.
    let p = pos("5R1sk/9/7G1/9/9/9/9/9/4K4 b P 1");
    assert_eq!(check(&p, "P*1b"), Err(IllegalMove::PawnDropMate));
    // Without the pin, the silver takes and the drop is fine.
    let free = pos("7sk/9/7G1/9/9/9/9/9/4K4 b P 1");
    assert_eq!(check(&free, "P*1b"), Ok(()));
}

#[test]
fn uchifuzume_not_when_the_king_can_take_the_pawn() {
    // Nothing guards 1b: the king takes the pawn.
    let p = pos("8k/9/6N2/9/9/9/9/9/4K4 b P 1");
    assert_eq!(check(&p, "P*1b"), Ok(()));
}

#[test]
fn a_pawn_move_that_mates_is_legal() {
    let mut g = Game::new(pos("8k/9/6NGP/9/9/9/9/9/4K4 b - 1"));
    g.play(mv("1c1b")).unwrap();
    assert_eq!(g.status(), GameStatus::Checkmate);
}

#[test]
fn another_piece_dropped_to_mate_is_legal() {
    let mut g = Game::new(pos("8k/9/6NG1/9/9/9/9/9/4K4 b G 1"));
    g.play(mv("G*1b")).unwrap();
    assert_eq!(g.status(), GameStatus::Checkmate);
}

// --- Promotion -------------------------------------------------------------

#[test]
fn forced_promotion_on_the_last_ranks() {
    let p = pos("k8/4P4/6N2/2L6/3N5/9/9/9/4K4 b - 1");
    assert_eq!(check(&p, "5b5a"), Err(IllegalMove::MustPromote(sq("5a"))));
    assert_eq!(check(&p, "5b5a+"), Ok(()));
    assert_eq!(check(&p, "3c2a"), Err(IllegalMove::MustPromote(sq("2a"))));
    assert_eq!(check(&p, "3c2a+"), Ok(()));
    assert_eq!(check(&p, "6e7c"), Ok(()));
    assert_eq!(check(&p, "6e7c+"), Ok(()));
    assert_eq!(check(&p, "7d7a"), Err(IllegalMove::MustPromote(sq("7a"))));
    assert_eq!(check(&p, "7d7b"), Ok(()));
    assert_eq!(check(&p, "7d7b+"), Ok(()));
}

#[test]
fn knight_must_promote_on_the_second_rank() {
    let p = pos("k8/9/9/4N4/9/9/9/9/4K4 b - 1");
    assert_eq!(check(&p, "5d4b"), Err(IllegalMove::MustPromote(sq("4b"))));
    assert_eq!(check(&p, "5d4b+"), Ok(()));
}

#[test]
fn promotion_is_optional_entering_inside_and_leaving_the_zone() {
    let p = pos("k8/9/4S4/9/9/9/9/1B7/4K2R1 b - 1");
    // Leaving the zone: silver 5c -> 4d.
    assert_eq!(check(&p, "5c4d+"), Ok(()));
    assert_eq!(check(&p, "5c4d"), Ok(()));
    // Moving inside the zone.
    assert_eq!(check(&p, "5c5b+"), Ok(()));
    // Entering the zone.
    assert_eq!(check(&p, "8h3c+"), Ok(()));
    assert_eq!(check(&p, "8h3c"), Ok(()));
    assert_eq!(check(&p, "2i2c+"), Ok(()));
}

#[test]
fn no_promotion_outside_the_zone_or_for_gold_king_and_promoted_pieces() {
    let p = pos("k8/9/9/9/9/4S4/3G5/4+P4/4K4 b - 1");
    assert_eq!(check(&p, "5f5e+"), Err(IllegalMove::CannotPromote));
    assert_eq!(check(&p, "6g6f+"), Err(IllegalMove::CannotPromote));
    assert_eq!(check(&p, "5h4h+"), Err(IllegalMove::CannotPromote));
    assert_eq!(check(&p, "5i4i+"), Err(IllegalMove::CannotPromote));
    let z = pos("k8/4G4/3+P5/9/9/9/9/9/4K4 b - 1");
    assert_eq!(check(&z, "5b5a+"), Err(IllegalMove::CannotPromote));
    assert_eq!(check(&z, "6c6b+"), Err(IllegalMove::CannotPromote));
}

#[test]
fn gote_promotes_in_ranks_g_to_i() {
    let p = pos("4k4/9/9/9/9/9/9/4p4/K8 w - 1");
    assert_eq!(check(&p, "5h5i"), Err(IllegalMove::MustPromote(sq("5i"))));
    assert_eq!(check(&p, "5h5i+"), Ok(()));
}

// --- Checks, pins, evasions -----------------------------------------------

#[test]
fn no_move_may_leave_the_king_attacked() {
    // The gold on 5f is pinned by the rook on 5a.
    let p = pos("4r4/9/9/9/9/4G4/9/9/4K3k b - 1");
    assert_eq!(check(&p, "5f4f"), Err(IllegalMove::LeavesKingInCheck));
    assert_eq!(check(&p, "5f5e"), Ok(()));
    assert_eq!(check(&p, "5i4h"), Ok(()));
}

#[test]
fn the_king_cannot_step_back_along_the_checking_line() {
    let p = pos("4r4/9/9/9/4K4/9/9/9/k8 b - 1");
    assert!(p.in_check());
    let mut moves: Vec<String> = p.legal_moves().iter().map(ToString::to_string).collect();
    moves.sort();
    assert_eq!(moves, ["5e4d", "5e4e", "5e4f", "5e6d", "5e6e", "5e6f"]);
}

#[test]
fn in_double_check_only_the_king_moves() {
    // The rook on 5a and the bishop on 7g both check the king on 5e.
    let p = pos("4r4/9/9/9/4K4/9/2b6/9/k7G b RG 1");
    assert_eq!(p.checkers().count(), 2);
    assert!(p.legal_moves().iter().all(|m| m.from() == Some(sq("5e"))));
}

#[test]
fn a_single_check_is_met_by_capture_block_or_king_move() {
    let p = pos("4r4/9/9/9/9/9/9/2G6/4K3k b S 1");
    let moves = p.legal_moves();
    // Drops only between the rook and the king.
    for m in moves.iter().filter(|m| m.is_drop()) {
        assert_eq!(m.to().file().number(), 5, "{m}");
    }
    assert!(moves.contains(&mv("S*5e")));
    assert!(!moves.contains(&mv("7h7g")));
}

#[test]
fn a_player_with_no_legal_move_loses() {
    // Gote's king on 1a, boxed in but not in check: stalemate is a loss in shogi.
    let p = pos("8k/6G2/7G1/9/9/9/9/9/K8 w - 1");
    assert!(!p.in_check());
    let g = Game::new(p);
    assert_eq!(g.status(), GameStatus::NoLegalMoves);
    assert_eq!(
        g.status().outcome(shogi_core::Color::Gote).unwrap().winner,
        Some(shogi_core::Color::Sente)
    );
}

// --- Repetition ------------------------------------------------------------

#[test]
fn fourfold_repetition_is_a_draw() {
    let cycle = "2h3h 8b7b 3h2h 7b8b ";
    let s = status(sfen::STARTPOS, &cycle.repeat(3), ImpasseRule::None);
    assert_eq!(s, GameStatus::RepetitionDraw);
    let s = status(sfen::STARTPOS, &cycle.repeat(2), ImpasseRule::None);
    assert_eq!(s, GameStatus::Ongoing);
}

#[test]
fn perpetual_check_by_sente_loses_for_sente() {
    let start = "4k4/9/9/9/9/9/9/5R3/4K4 b - 1";
    let cycle = "4h5h 5a4a 5h4h 4a5a ";
    assert_eq!(
        status(start, &cycle.repeat(3), ImpasseRule::None),
        GameStatus::PerpetualCheckLoss
    );
    // One move further the fourth occurrence comes after Sente's check: Gote to move wins.
    let longer = format!("{} 4h5h 5a4a 5h4h 4a5a 4h5h", cycle.repeat(2));
    assert_eq!(
        status(start, &longer, ImpasseRule::None),
        GameStatus::PerpetualCheckWin
    );
}

#[test]
fn perpetual_check_by_gote_loses_for_gote() {
    let start = "4k4/5r3/9/9/9/9/9/9/4K4 w - 1";
    let cycle = "4b5b 5i4i 5b4b 4i5i ";
    assert_eq!(
        status(start, &cycle.repeat(3), ImpasseRule::None),
        GameStatus::PerpetualCheckLoss
    );
}

#[test]
fn repetition_with_checks_by_only_some_moves_is_a_draw() {
    // The rook checks from 5h but not on its way back to 4h (the king is on 6a then).
    let start = "4k4/9/9/9/9/9/9/5R3/4K4 b - 1";
    let cycle = "4h5h 5a6a 5h4h 6a5a ";
    assert_eq!(
        status(start, &cycle.repeat(3), ImpasseRule::None),
        GameStatus::RepetitionDraw
    );
}

// --- Impasse ---------------------------------------------------------------

/// Sente's king on 5a with ten pieces in the camp (4 golds, 4 silvers, rook, bishop: 18 points).
const ENTERED: &str = "GGGGKSSSS/RB7/9/9/9/9/9/9/4k4 b";

#[test]
fn impasse_27_point_declaration() {
    assert_eq!(
        status(&format!("{ENTERED} RB 1"), "", ImpasseRule::Csa27),
        GameStatus::Impasse(ImpasseVerdict::Win)
    );
    // 27 points are not enough for Sente (28 needed).
    assert_eq!(
        status(&format!("{ENTERED} R4P 1"), "", ImpasseRule::Csa27),
        GameStatus::Ongoing
    );
    // Nine pieces in the camp are not enough.
    assert_eq!(
        status(
            "GGGGK1SSS/RB7/9/9/9/9/9/9/4k4 b RBS 1",
            "",
            ImpasseRule::Csa27
        ),
        GameStatus::Ongoing
    );
    // Gote needs 27.
    let gote = "4K4/9/9/9/9/9/9/7br/ssssk1ggg w rb3p 1";
    assert_eq!(status(gote, "", ImpasseRule::Csa27), GameStatus::Ongoing);
    let gote = "4K4/9/9/9/9/9/9/6gbr/ssssk1ggg w rb3p 1";
    assert_eq!(
        status(gote, "", ImpasseRule::Csa27),
        GameStatus::Impasse(ImpasseVerdict::Win)
    );
}

#[test]
fn impasse_declaration_needs_the_declarer_out_of_check() {
    // Enough points and pieces, but a gote rook on 5e checks the king on 5a.
    let p = "GGGGKSSSS/RB7/9/9/4r4/9/9/9/4k4 b B10P 1";
    assert_eq!(status(p, "", ImpasseRule::Csa27), GameStatus::Ongoing);
}

#[test]
fn impasse_24_point_declaration() {
    assert_eq!(
        status(&format!("{ENTERED} RB3P 1"), "", ImpasseRule::Jsa24),
        GameStatus::Impasse(ImpasseVerdict::Win)
    );
    assert_eq!(
        status(&format!("{ENTERED} RB 1"), "", ImpasseRule::Jsa24),
        GameStatus::Impasse(ImpasseVerdict::Draw)
    );
    assert_eq!(
        status(&format!("{ENTERED} 5P 1"), "", ImpasseRule::Jsa24),
        GameStatus::Impasse(ImpasseVerdict::Loss)
    );
}

#[test]
fn impasse_count24_when_both_kings_have_entered() {
    let both_in = "9/4K4/9/9/9/9/9/4k4/9 b";
    // Sente 24 (R B 14P), Gote 26: a draw.
    assert_eq!(
        status(
            &format!("{both_in} RB14Prb4g4s4n4p 1"),
            "",
            ImpasseRule::Count24
        ),
        GameStatus::Impasse(ImpasseVerdict::Draw)
    );
    // Sente 23: Sente loses.
    assert_eq!(
        status(
            &format!("{both_in} RB13Prb4g4s4n5p 1"),
            "",
            ImpasseRule::Count24
        ),
        GameStatus::Impasse(ImpasseVerdict::Loss)
    );
    // Gote below 24: Sente wins.
    assert_eq!(
        status(
            &format!("{both_in} RB4G4S4N4L10Prb8p 1"),
            "",
            ImpasseRule::Count24
        ),
        GameStatus::Impasse(ImpasseVerdict::Win)
    );
    // Only one king in: no count yet.
    assert_eq!(
        status(
            "9/4K4/9/9/9/4k4/9/9/9 b RB4G4S4N4L10Prb8p 1",
            "",
            ImpasseRule::Count24
        ),
        GameStatus::Ongoing
    );
}

#[test]
fn try_rule_king_on_the_enemy_kings_start_square_wins() {
    let p = "4K4/9/9/9/9/9/9/4k4/9 w - 1";
    assert_eq!(status(p, "", ImpasseRule::Try), GameStatus::TryLoss);
    assert_eq!(status(p, "", ImpasseRule::Csa27), GameStatus::Ongoing);
    // Reached by a move.
    assert_eq!(
        status("9/4K4/9/9/9/9/9/4k4/9 b - 1", "5b5a", ImpasseRule::Try),
        GameStatus::TryLoss
    );
}

#[test]
fn handicap_credit_counts_the_removed_pieces_for_the_giver() {
    let rules = GameRules {
        handicap_credit: true,
        ..GameRules::default()
    };
    let g = Game::with_rules(Handicap::TenPieces.position(), rules);
    // Rook and bishop (10) + 2 golds, 2 silvers, 2 knights, 2 lances (8).
    assert_eq!(g.impasse_credit(), ByColor::new(0, 18));
    let g = Game::with_rules(Handicap::Even.position(), rules);
    assert_eq!(g.impasse_credit(), ByColor::new(0, 0));
}

#[test]
fn maximum_moves_draw() {
    let rules = GameRules {
        max_moves: Some(4),
        ..GameRules::default()
    };
    let mut g = Game::with_rules(Position::startpos(), rules);
    for m in ["7g7f", "3c3d", "2g2f"] {
        g.play(mv(m)).unwrap();
    }
    assert_eq!(g.status(), GameStatus::Ongoing);
    g.play(mv("4c4d")).unwrap();
    assert_eq!(g.status(), GameStatus::MaxMovesDraw);
    assert!(g.play(mv("2f2e")).is_err());
}

#[test]
fn illegal_move_loses_when_the_game_says_so() {
    let rules = GameRules {
        illegal_move_loses: true,
        ..GameRules::default()
    };
    let mut g = Game::with_rules(Position::startpos(), rules);
    assert!(g.play(mv("7g7e")).is_err());
    assert!(matches!(
        g.status(),
        GameStatus::IllegalMove {
            loser: shogi_core::Color::Sente,
            ..
        }
    ));
    assert_eq!(
        g.ending(),
        Some(shogi_core::Ending::Foul {
            loser: shogi_core::Color::Sente,
            foul: shogi_core::Foul::Move {
                mv: mv("7g7e"),
                reason: IllegalMove::BadDirection {
                    kind: PieceKind::Pawn,
                    from: "7g".parse().unwrap(),
                    to: "7e".parse().unwrap(),
                },
            },
        })
    );
    // Without the option the move is simply refused.
    let mut g = Game::new(Position::startpos());
    assert!(g.play(mv("7g7e")).is_err());
    assert_eq!(g.status(), GameStatus::Ongoing);
}

/// `check_move` tells a slider's blocked path from a square its piece
/// never reaches, whichever way it judges the two (a move that does reach
/// its square is the common case and is judged first).
#[test]
fn a_blocked_path_is_told_from_a_wrong_direction() {
    let pos = Position::startpos();
    let sq = |s: &str| s.parse().unwrap();
    // The rook's file is blocked by its own pawn; the lance's too.
    assert_eq!(
        pos.check_move(mv("2h2c")),
        Err(IllegalMove::PathBlocked {
            from: sq("2h"),
            to: sq("2c")
        })
    );
    assert_eq!(
        pos.check_move(mv("1i1e")),
        Err(IllegalMove::PathBlocked {
            from: sq("1i"),
            to: sq("1e")
        })
    );
    // The bishop's diagonal through 7g (its own pawn) is blocked; sideways
    // it never goes; nor a rook diagonally, nor a lance backwards.
    assert_eq!(
        pos.check_move(mv("8h6f")),
        Err(IllegalMove::PathBlocked {
            from: sq("8h"),
            to: sq("6f")
        })
    );
    for (m, kind, from, to) in [
        ("8h6h", PieceKind::Bishop, "8h", "6h"),
        ("2h3f", PieceKind::Rook, "2h", "3f"),
        ("2g2e", PieceKind::Pawn, "2g", "2e"),
    ] {
        assert_eq!(
            pos.check_move(mv(m)),
            Err(IllegalMove::BadDirection {
                kind,
                from: sq(from),
                to: sq(to)
            }),
            "{m}"
        );
    }
    // The rook's rank runs into its own bishop on the way to 9h.
    assert_eq!(
        pos.check_move(mv("2h9h")),
        Err(IllegalMove::PathBlocked {
            from: sq("2h"),
            to: sq("9h")
        })
    );
}

// --- Handicaps -------------------------------------------------------------

#[test]
fn handicap_starts_have_gote_to_move_and_the_right_pieces() {
    let removed = [
        (Handicap::Lance, 1),
        (Handicap::RightLance, 1),
        (Handicap::Bishop, 1),
        (Handicap::Rook, 1),
        (Handicap::RookLance, 2),
        (Handicap::TwoPieces, 2),
        (Handicap::ThreePieces, 3),
        (Handicap::FourPieces, 4),
        (Handicap::FivePieces, 5),
        (Handicap::LeftFivePieces, 5),
        (Handicap::SixPieces, 6),
        (Handicap::LeftSevenPieces, 7),
        (Handicap::RightSevenPieces, 7),
        (Handicap::EightPieces, 8),
        (Handicap::TenPieces, 10),
    ];
    for (h, n) in removed {
        let p = h.position();
        assert_eq!(p.side_to_move(), shogi_core::Color::Gote, "{h}");
        assert_eq!(p.color_bb(shogi_core::Color::Gote).count(), 20 - n, "{h}");
        assert_eq!(p.color_bb(shogi_core::Color::Sente).count(), 20, "{h}");
        assert_eq!(Handicap::from_kif_name(h.kif_name()), Some(h));
        assert_eq!(Handicap::from_position(&p), Some(h));
        assert_eq!(h.name().parse::<Handicap>(), Ok(h));
    }
    // The lance handicap removes the giver's left lance (1a), the right lance 9a.
    assert_eq!(Handicap::Lance.position().piece_at(sq("1a")), None);
    assert_eq!(Handicap::RightLance.position().piece_at(sq("9a")), None);
    assert_eq!(
        Handicap::Even.position().side_to_move(),
        shogi_core::Color::Sente
    );
    // Gote moves first: a Sente move is refused.
    let p = Handicap::Rook.position();
    assert_eq!(check(&p, "7g7f"), Err(IllegalMove::NotYourPiece(sq("7g"))));
}

// --- Endings: the rules' verdicts told as who won and why ------------------

fn ending(start: &str, moves: &str, impasse: ImpasseRule) -> Option<shogi_core::Ending> {
    game(start, moves, impasse).ending()
}

#[test]
fn endings_name_the_loser_whoever_is_to_move() {
    use shogi_core::{Color, Ending};
    // Perpetual check by Sente ends with either side to move; Sente loses both times.
    let start = "4k4/9/9/9/9/9/9/5R3/4K4 b - 1";
    let cycle = "4h5h 5a4a 5h4h 4a5a ";
    let sente_checked = Some(Ending::PerpetualCheck {
        loser: Color::Sente,
    });
    assert_eq!(
        ending(start, &cycle.repeat(3), ImpasseRule::None),
        sente_checked
    );
    let longer = format!("{} 4h5h 5a4a 5h4h 4a5a 4h5h", cycle.repeat(2));
    assert_eq!(ending(start, &longer, ImpasseRule::None), sente_checked);
    // Gote's perpetual check: Gote loses.
    assert_eq!(
        ending(
            "4k4/5r3/9/9/9/9/9/9/4K4 w - 1",
            &"4b5b 5i4i 5b4b 4i5i ".repeat(3),
            ImpasseRule::None
        ),
        Some(Ending::PerpetualCheck { loser: Color::Gote })
    );
    // The try: Sente's king reaches 5a, Gote is to move and has lost.
    let tried = ending("9/4K4/9/9/9/9/9/4k4/9 b - 1", "5b5a", ImpasseRule::Try);
    assert_eq!(
        tried,
        Some(Ending::Try {
            winner: Color::Sente
        })
    );
    assert_eq!(tried.unwrap().winner(), Some(Color::Sente));
    assert_eq!(tried.unwrap().reason_word(), "try");
    // A plain repetition is a draw, with no winner.
    let draw = ending(
        sfen::STARTPOS,
        &"2h3h 8b7b 3h2h 7b8b ".repeat(3),
        ImpasseRule::None,
    );
    assert_eq!(draw, Some(Ending::Repetition));
    assert_eq!(draw.unwrap().outcome().unwrap().winner, None);
    // Mate: the side to move is the loser.
    assert_eq!(
        ending("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", "", ImpasseRule::None),
        Some(Ending::Checkmate { loser: Color::Gote })
    );
    assert_eq!(ending(sfen::STARTPOS, "7g7f", ImpasseRule::None), None);
}

#[test]
fn an_abort_has_no_outcome_and_a_resignation_names_its_loser() {
    use shogi_core::{Color, Ending};
    assert_eq!(Ending::Abort.outcome(), None);
    let r = Ending::Resignation {
        loser: Color::Sente,
    };
    assert_eq!(r.winner(), Some(Color::Gote));
    assert_eq!(r.loser(), Some(Color::Sente));
    assert_eq!(r.to_string(), "resign, Gote wins");
}
