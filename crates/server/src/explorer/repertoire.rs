//! A player's repertoire: the positions their games here reached most
//! often with them to move, as Sente and as Gote, in the first
//! [`MAX_PLY`] moves, and the moves they chose there with their results.

use std::collections::HashMap;

use serde::Serialize;
use shogi_core::{Color, Move};

use crate::db::Store;
use crate::error::Error;

/// The deepest position counted.
pub const MAX_PLY: usize = 24;

/// How many of the player's last games are read.
pub const GAMES_READ: i64 = 300;

/// Positions shown per side.
pub const POSITIONS: usize = 8;

/// The player's results with one move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MoveResults {
    /// The move (USI).
    pub usi: String,
    /// Games.
    pub games: u64,
    /// Won by the player.
    pub wins: u64,
    /// Lost.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
}

/// A position the player reached often.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Reached {
    /// The position (SFEN, move number 1).
    pub sfen: String,
    /// The games that reached it with the player to move.
    pub games: u64,
    /// The player's moves from it, the most played first.
    pub moves: Vec<MoveResults>,
}

/// A repertoire: as Sente and as Gote.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Repertoire {
    /// As Sente.
    pub sente: Vec<Reached>,
    /// As Gote.
    pub gote: Vec<Reached>,
}

#[derive(Default)]
struct Tally {
    sfen: String,
    games: u64,
    first_ply: usize,
    moves: HashMap<Move, MoveResults>,
}

/// The repertoire of account `user` from its last [`GAMES_READ`] finished games.
///
/// # Errors
/// Database errors.
pub async fn of_account(store: &Store, user: i64) -> Result<Repertoire, Error> {
    let games = store.recent_games_of(user, GAMES_READ).await?;
    let mut sides: [HashMap<u64, Tally>; 2] = [HashMap::new(), HashMap::new()];
    for (id, as_sente) in games {
        let Some(g) = store.load(&id).await? else {
            continue;
        };
        let me = if as_sente { Color::Sente } else { Color::Gote };
        let winner = g.ending.map(shogi_core::Ending::winner);
        let (win, loss) = match winner {
            Some(Some(w)) if w == me => (1, 0),
            Some(Some(_)) => (0, 1),
            _ => (0, 0),
        };
        let draw = u64::from(matches!(winner, Some(None)));
        let tally = &mut sides[usize::from(!as_sente)];
        let mut pos = g.start.clone();
        let mut seen = std::collections::HashSet::new();
        for (ply, &m) in g.moves.iter().enumerate().take(MAX_PLY) {
            if !pos.is_legal(m) {
                break;
            }
            if pos.side_to_move() == me && seen.insert(pos.hash()) {
                let t = tally.entry(pos.hash()).or_insert_with(|| Tally {
                    sfen: pos.to_sfen(),
                    first_ply: ply,
                    ..Tally::default()
                });
                t.games += 1;
                let r = t.moves.entry(m).or_insert_with(|| MoveResults {
                    usi: m.to_string(),
                    ..MoveResults::default()
                });
                r.games += 1;
                r.wins += win;
                r.losses += loss;
                r.draws += draw;
            }
            pos.make_move(m);
        }
    }
    let [sente, gote] = sides.map(|side| {
        let mut list: Vec<Tally> = side.into_values().collect();
        list.sort_by(|a, b| b.games.cmp(&a.games).then(a.first_ply.cmp(&b.first_ply)));
        list.truncate(POSITIONS);
        list.into_iter()
            .map(|t| {
                let mut moves: Vec<MoveResults> = t.moves.into_values().collect();
                moves.sort_by(|a, b| b.games.cmp(&a.games).then(a.usi.cmp(&b.usi)));
                Reached {
                    sfen: t.sfen,
                    games: t.games,
                    moves,
                }
            })
            .collect()
    });
    Ok(Repertoire { sente, gote })
}
