//! A move and the clock: a move is checked, charged to the mover's clock,
//! played, stored through the committer and only then answered and
//! broadcast; the flag falls when the side to move runs out of time.

use std::sync::Arc;

use shogi_core::{ByColor, Color, Ending, Move, PlayError, Position};

use super::{Room, RoomError};
use crate::db::{GameWrite, MoveRecord};
use crate::game::clock::Clock;
use crate::games::view::{Change, NoteView};

/// Refuses a move no one could make on a real board (no piece of the
/// mover's on its origin, a drop of a piece not in hand), even where
/// illegal moves lose.
fn on_the_board(pos: &Position, m: Move) -> Result<(), RoomError> {
    let mover = pos.side_to_move();
    match m {
        Move::Board { from, .. } => {
            if pos.piece_at(from).is_none_or(|p| p.color != mover) {
                return Err(RoomError::NoPieceOfYours { mv: m, from });
            }
        }
        Move::Drop { kind, .. } => {
            if pos.hand(mover).count(kind) == 0 {
                return Err(RoomError::NotInHand { mv: m, kind });
            }
        }
    }
    Ok(())
}

impl Room {
    /// Plays `m` for `acting`, stored (with `comment`, if any) before it
    /// is answered or broadcast; a comment that is a program's evaluation
    /// becomes the move's note in the state sent.
    pub(super) async fn play(
        &mut self,
        acting: Color,
        m: Move,
        now: u64,
        comment: Option<String>,
    ) -> Result<(), RoomError> {
        let mover = self.game.position().side_to_move();
        if acting != mover {
            return Err(RoomError::NotYourTurn);
        }
        on_the_board(self.game.position(), m)?;
        let ply = self.plies().saturating_add(1);
        let note = comment
            .as_deref()
            .and_then(|c| NoteView::read(ply, c, self.game.position(), m));
        let used = self.turn_used(now);
        // Whole seconds: the fraction is free (the clock, whole seconds
        // too, then flags exactly when the used time reaches it).
        let used = if self.settings.whole_seconds {
            used - used % 1000
        } else {
            used
        };
        let mut clocks = self.clocks;
        // The flag was checked before; a move at the very limit still loses in `charge`.
        let in_time = match (clocks.as_mut(), self.clock_started) {
            (Some(c), true) => c[mover].charge(used).is_ok(),
            _ => true,
        };
        // `act` refused it if the game were over (`self.ending` is the
        // game's ending after every move), so the rules are not judged again
        // before the move, only after it. The move is played on the game
        // itself (a refused move leaves it unchanged) and taken back if it
        // cannot stand, which is rare, rather than played on a copy.
        match self.game.play_ignoring_endings(m) {
            Ok(()) => {}
            Err(PlayError::Illegal { .. }) if self.game.illegal_move().is_some() => {}
            Err(e) => return Err(RoomError::Illegal(e)),
        }
        if !in_time {
            self.game.undo();
            self.flag_if_out_of_time(now).await;
            return Err(RoomError::Over("timeout"));
        }
        let ending = self.game.ending();
        let record = MoveRecord {
            ply,
            mv: m,
            used_ms: used,
            mover,
            clocks,
            ending,
            comment,
        };
        if let Err(e) = self.store(GameWrite::Move(record)).await {
            tracing::error!(game = %self.id, "storing move {m}: {e}");
            self.game.undo();
            return Err(RoomError::MoveNotStored);
        }
        self.usi_moves.push(m);
        self.notes.extend(note.map(Arc::new));
        self.last_move_ms = Some(used);
        self.clocks = clocks;
        self.turn_start_ms = now;
        self.turn_base_ms = 0;
        self.ending = ending;
        self.count_proposed_by = None;
        self.takeback_by = None;
        if self.ending.is_some() {
            self.finished().await;
        } else if self.is_live() {
            self.deps.lobby.game_moved(&self.id, self.usi_moves.len());
        }
        // The computer's queue place is part of the state sent.
        self.maybe_start_computer();
        self.publish_after(Change::Move);
        Ok(())
    }

    pub(super) fn turn_used(&self, now: u64) -> u64 {
        self.turn_base_ms + now.saturating_sub(self.turn_start_ms)
    }

    /// When the side to move runs out of time, if its clock runs.
    pub(super) fn flag_deadline(&self) -> Option<u64> {
        if self.ending.is_some() || !self.clock_started {
            return None;
        }
        let clock = self.clocks?[self.game.position().side_to_move()];
        Some((self.turn_start_ms + clock.time_available_ms()).saturating_sub(self.turn_base_ms))
    }

    /// Ends the game on time if the side to move is out of it; says whether it did.
    pub(super) async fn flag_if_out_of_time(&mut self, now: u64) -> bool {
        match self.flag_deadline() {
            Some(deadline) if now >= deadline => {}
            _ => return false,
        }
        let loser = self.game.position().side_to_move();
        if let Some(clocks) = self.clocks.as_mut() {
            clocks[loser].main_ms = 0;
            clocks[loser].periods_left = 0;
        }
        let ending = Ending::Timeout { loser };
        // The flag fell whatever the database says; a failed write is logged.
        let write = GameWrite::Finish {
            ending,
            plies: self.plies(),
            clocks: self.clocks,
        };
        if let Err(e) = self.store(write).await {
            tracing::error!(game = %self.id, "storing a timeout: {e}");
            if self.lost {
                return true;
            }
        }
        self.ending = Some(ending);
        self.finished().await;
        self.publish();
        true
    }

    /// Saves the time used on the turn in progress (at shutdown), so that a
    /// restored game charges it.
    pub(super) async fn save_turn_used(&self) {
        if self.flag_deadline().is_some() {
            let used = self.turn_used(self.deps.time.now_ms());
            if let Err(e) = self
                .deps
                .store
                .save_turn_used(&self.id, self.plies(), used)
                .await
            {
                tracing::error!(game = %self.id, "saving the clock at shutdown: {e}");
            }
        }
    }

    /// The clocks with the running side's time used so far taken off.
    pub(super) fn stopped_clocks(&self, now: u64) -> Option<ByColor<Clock>> {
        let mut clocks = self.clocks;
        if let (Some(c), Some(_)) = (clocks.as_mut(), self.flag_deadline()) {
            let side = self.game.position().side_to_move();
            let (main, _, periods) = c[side].reading(self.turn_used(now));
            c[side].main_ms = main;
            c[side].periods_left = periods;
        }
        clocks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_from_an_empty_square_or_of_a_piece_not_in_hand_is_refused() {
        let start = Position::startpos();
        assert!(on_the_board(&start, "7g7f".parse().unwrap()).is_ok());
        assert_eq!(
            on_the_board(&start, "5e5d".parse().unwrap()),
            Err(RoomError::NoPieceOfYours {
                mv: "5e5d".parse().unwrap(),
                from: "5e".parse().unwrap()
            })
        );
        // Gote's pawn is not the mover's.
        assert!(on_the_board(&start, "3c3d".parse().unwrap()).is_err());
        assert!(matches!(
            on_the_board(&start, "P*5e".parse().unwrap()),
            Err(RoomError::NotInHand { .. })
        ));
    }
}
