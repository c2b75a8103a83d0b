//! Takebacks: a player proposes taking back moves to its last turn, the
//! opponent accepts or declines; at one device or against the computer the
//! moves go back at once. Never in rated games.

use shogi_core::{Color, Game};

use super::{Answer, Room, RoomError};
use crate::game::Seat;
use crate::games::view::Change;

/// The moves to take back, in a game of `moves` moves with `to_move` to
/// move, so that it is `side`'s turn again before its last move (`None`:
/// `side` has not moved).
fn plies_back(moves: usize, to_move: Color, side: Color) -> Option<usize> {
    // The last move was by the side not to move.
    let back = if to_move == side { 2 } else { 1 };
    (moves >= back).then_some(back)
}

impl Room {
    fn plies_back_to(&self, side: Color) -> Option<usize> {
        plies_back(
            self.usi_moves.len(),
            self.game.position().side_to_move(),
            side,
        )
    }

    /// A takeback proposed by `acting`: granted at once at one device or
    /// against the computer, otherwise standing until the opponent answers.
    pub(super) async fn propose_takeback(
        &mut self,
        seat: Seat,
        acting: Color,
        now: u64,
    ) -> Result<(), RoomError> {
        if self.rated {
            return Err(RoomError::RatedTakeback);
        }
        if !self.settings.takebacks() {
            return Err(RoomError::NoTakebacks);
        }
        if seat == Seat::Both {
            // Two people at one device: the last move goes back at once.
            if self.usi_moves.is_empty() {
                return Err(RoomError::NothingToTakeBack);
            }
            return self.take_back(1, now).await;
        }
        let back = self
            .plies_back_to(acting)
            .ok_or(RoomError::NothingToTakeBack)?;
        if self.computer_side() == Some(acting.opponent()) {
            // The computer grants it at once.
            return self.take_back(back, now).await;
        }
        if self.takeback_by.is_some() {
            return Err(RoomError::TakebackAlreadyProposed);
        }
        self.takeback_by = Some(acting);
        self.publish();
        Ok(())
    }

    /// The opponent's answer to the standing takeback proposal.
    pub(super) async fn answer_takeback(
        &mut self,
        acting: Color,
        answer: Answer,
        now: u64,
    ) -> Result<(), RoomError> {
        let Some(proposer) = self.takeback_by else {
            return Err(RoomError::NoTakebackProposed);
        };
        if acting == proposer {
            return Err(RoomError::OwnProposal);
        }
        self.takeback_by = None;
        if answer == Answer::Decline {
            self.publish();
            return Ok(());
        }
        self.take_back_to(proposer, now).await
    }

    async fn take_back_to(&mut self, proposer: Color, now: u64) -> Result<(), RoomError> {
        let back = self
            .plies_back_to(proposer)
            .ok_or(RoomError::NothingToTakeBack)?;
        self.take_back(back, now).await
    }

    /// Takes back the last `plies` moves; each clock keeps the time it shows.
    async fn take_back(&mut self, plies: usize, now: u64) -> Result<(), RoomError> {
        let keep = self.usi_moves.len().saturating_sub(plies);
        let clocks = self.stopped_clocks(now);
        let mut game = Game::with_rules(self.game.start().clone(), *self.game.rules());
        for &m in &self.game.moves()[..keep] {
            // Every kept move was played on this board before.
            let _ = game.play(m);
        }
        if let Err(e) = self
            .deps
            .store
            .take_back(
                &self.id,
                u32::try_from(keep).unwrap_or(u32::MAX),
                clocks,
                self.fence.as_ref(),
            )
            .await
        {
            tracing::error!(game = %self.id, "storing a takeback: {e}");
            self.check_lease().await;
            return Err(RoomError::MoveNotStored);
        }
        self.game = game;
        self.usi_moves.truncate(keep);
        self.notes
            .retain(|n| usize::try_from(n.ply).is_ok_and(|ply| ply <= keep));
        self.clocks = clocks;
        self.turn_start_ms = now;
        self.turn_base_ms = 0;
        self.count_proposed_by = None;
        self.takeback_by = None;
        if self.is_live() {
            self.deps.lobby.game_moved(&self.id, keep);
        }
        self.maybe_start_computer();
        self.publish_after(Change::Full);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_takeback_goes_back_to_the_proposers_last_turn() {
        // Sente moved last: one move back for Sente, two for Gote.
        assert_eq!(plies_back(3, Color::Gote, Color::Sente), Some(1));
        assert_eq!(plies_back(3, Color::Gote, Color::Gote), Some(2));
        // Gote has not moved yet.
        assert_eq!(plies_back(1, Color::Gote, Color::Gote), None);
        assert_eq!(plies_back(0, Color::Sente, Color::Sente), None);
    }
}
