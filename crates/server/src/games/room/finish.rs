//! Abort, resignation and what follows every ending: the ending is stored
//! first (with the record that its consequences are due), then the lobby
//! is told, the tournaments hear of it and a rated game is rated.

use shogi_core::{ByColor, Color, Ending, Foul};

use super::{GameEnd, Room, RoomError};
use crate::db::GameWrite;
use crate::game::Seat;
use crate::games::players;
use crate::time::unix_ms;

/// Whether a game of `moves` moves may still be aborted (before each side
/// has moved).
fn may_abort(moves: usize) -> bool {
    moves < 2
}

impl Room {
    /// A resignation: either player may resign at any time; the resigner
    /// loses, whoever is to move.
    pub(super) async fn resign(&mut self, acting: Color) -> Result<(), RoomError> {
        self.end(Ending::Resignation { loser: acting }).await
    }

    /// An abort: the game ends without a result, only before each side has
    /// made a move.
    pub(super) async fn abort(&mut self) -> Result<(), RoomError> {
        if !may_abort(self.usi_moves.len()) {
            return Err(RoomError::TooLateToAbort);
        }
        self.end(Ending::Abort).await
    }

    /// Stops the game without a result at a player's request, at any move:
    /// a CSA program's `%CHUDAN` (the protocol's suspension, told as
    /// `#CHUDAN`). Stored as aborted, so it counts for no one's rating.
    pub(super) async fn suspend(&mut self) -> Result<(), RoomError> {
        self.ensure_on(self.deps.time.now_ms()).await?;
        self.end(Ending::Abort).await
    }

    /// A foul by `seat`, which must be to move: a move it sent that cannot
    /// be read in the position. It loses.
    pub(super) async fn forfeit(&mut self, seat: Seat) -> Result<(), RoomError> {
        self.ensure_on(self.deps.time.now_ms()).await?;
        let to_move = self.game.position().side_to_move();
        if !super::seats::sides_of(seat).contains(&to_move) {
            return Err(RoomError::NotYourTurn);
        }
        self.end(Ending::Foul {
            loser: to_move,
            foul: Foul::UnreadableMove,
        })
        .await
    }

    /// Ends the game for a reason no move caused; stored first.
    pub(super) async fn end(&mut self, ending: Ending) -> Result<(), RoomError> {
        // The running clock stops where it stands.
        let clocks = self.stopped_clocks(self.deps.time.now_ms());
        let write = GameWrite::Finish {
            ending,
            plies: self.plies(),
            clocks,
        };
        if let Err(e) = self.store(write).await {
            tracing::error!(game = %self.id, "storing the ending: {e}");
            return Err(RoomError::EndingNotStored);
        }
        self.clocks = clocks;
        self.ending = Some(ending);
        self.finished().await;
        self.publish();
        Ok(())
    }

    /// Whether each player opened the game or has a move in it (a game
    /// restored after a restart knows only the moves of before).
    fn opened_or_moved(&self) -> ByColor<bool> {
        let first = self.game.position().side_to_move();
        // The side to move now has made as many moves as the other when
        // the count is even; the first mover one more when it is odd.
        let first = if self.usi_moves.len().is_multiple_of(2) {
            first
        } else {
            first.opponent()
        };
        let moved = |c: Color| {
            let n = self.usi_moves.len();
            if c == first {
                n >= 1
            } else {
                n >= 2
            }
        };
        ByColor::new(
            self.opened[Color::Sente] || moved(Color::Sente),
            self.opened[Color::Gote] || moved(Color::Gote),
        )
    }

    /// What follows every ending, once it is stored: the lobby is told, the
    /// tournaments hear of it, a rated game is rated (and the rating
    /// changes kept for the state that tells the ending). The ending's
    /// transaction recorded the last two as due (the outbox): each marks
    /// itself carried out, and a start after a crash carries out what is
    /// left.
    pub(super) async fn finished(&mut self) {
        self.deps.crash.ending_stored();
        self.deps.lobby.game_ended(&self.id);
        let Some(ending) = self.ending else {
            return;
        };
        self.deps.ended.send(GameEnd {
            id: self.id.clone(),
            ending,
            clocks: self.clocks,
            opened: self.opened_or_moved(),
        });
        if !self.rated {
            return;
        }
        let users = ByColor::new(
            self.players[Color::Sente].as_ref().and_then(|p| p.user),
            self.players[Color::Gote].as_ref().and_then(|p| p.user),
        );
        // History points are dated in Unix time, like the games (the room's
        // clock measures turns from the server's start).
        let game = players::Finished {
            game_id: &self.id,
            class: self.time_class(),
            users,
            ending,
            plies: self.usi_moves.len(),
        };
        match players::settle(&self.deps.store, game, unix_ms()).await {
            // Published with the ending, which follows.
            Ok(change) => self.rating_change = change.map(players::change_view),
            Err(e) => {
                tracing::error!(game = %self.id, "rating the game (due at the next start): {e}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_can_be_aborted_only_before_each_side_has_moved() {
        assert!(may_abort(0));
        assert!(may_abort(1));
        assert!(!may_abort(2));
    }
}
