//! The search on many positions: random playouts and a short self-play game.

use shogi_core::{Game, GameRules, GameStatus, ImpasseRule, Position};
use shogi_engine::limits::SearchLimit;
use shogi_engine::search::{search_position, SearchOptions};

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

#[test]
fn best_moves_are_legal_after_random_playouts() {
    let mut rng = Lcg(7);
    for game in 0..20 {
        let mut pos = Position::startpos();
        let plies = 20 + game * 7;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next() as usize) % moves.len()];
            pos.make_move(m);
        }
        let r = search_position(&pos, &SearchLimit::Depth(3), &SearchOptions::default());
        match r.best_move {
            Some(m) => assert!(pos.is_legal(m), "{m} illegal in {}", pos.to_sfen()),
            None => assert_eq!(pos.count_legal_moves(), 0),
        }
        let mut p = pos.clone();
        for m in &r.pv {
            assert!(
                p.play(*m).is_ok(),
                "pv {:?} illegal in {}",
                r.pv,
                pos.to_sfen()
            );
        }
    }
}

#[test]
fn self_play_game_stays_legal() {
    let rules = GameRules {
        impasse: ImpasseRule::Csa27,
        ..GameRules::default()
    };
    let mut game = Game::with_rules(Position::startpos(), rules);
    let options = SearchOptions {
        impasse: ImpasseRule::Csa27,
        ..SearchOptions::default()
    };
    for _ in 0..60 {
        if game.status() != GameStatus::Ongoing {
            break;
        }
        let r = search_position(game.position(), &SearchLimit::Nodes(3000), &options);
        let Some(m) = r.best_move else { break };
        game.play(m).expect("engine move is legal");
    }
    assert!(!game.moves().is_empty());
}
