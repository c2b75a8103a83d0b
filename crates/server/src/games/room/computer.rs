//! The computer's turn: its search runs on a thread of the search pool
//! (after waiting for one, which the player sees), and its move comes back
//! to the room as a command, played like a player's.

use shogi_core::{Color, Move};

use super::{Action, Command, Room};
use crate::game::AiSeat;
use crate::games::opponent::Limits;
use crate::games::view::ComputerView;

impl Room {
    /// The side the computer plays, if it plays.
    pub(super) fn computer_side(&self) -> Option<Color> {
        self.settings.ai.map(|ai| Color::from(ai.side))
    }

    /// Starts the computer's search if it is to move: it waits for a
    /// thread of the search pool, and the player sees its place meanwhile.
    pub(super) fn maybe_start_computer(&mut self) {
        let Some(side) = self.computer_side() else {
            return;
        };
        if self.thinking || self.ending.is_some() || self.game.position().side_to_move() != side {
            return;
        }
        self.thinking = true;
        let position = self.game.position().clone();
        let limits = Limits {
            level: self.settings.ai.map_or(1, |ai: AiSeat| ai.level),
            time_available_ms: self.clocks.map(|c| c[side].time_available_ms()),
        };
        let ply = self.usi_moves.len();
        let tx = self.tx.clone();
        let opponent = self.deps.opponent.clone();
        // The search waits for a thread of the pool; the player sees its place.
        let ticket = self.deps.search.ticket();
        self.computer = Some(match ticket.ahead() {
            None => ComputerView::Thinking,
            Some(ahead) => ComputerView::Queued { ahead },
        });
        tokio::spawn(async move {
            let queued = ticket.ahead().is_some();
            let permit = ticket.wait().await;
            if queued {
                let _ = tx.send(Command::ComputerStarted { ply }).await;
            }
            let mv = tokio::task::spawn_blocking(move || {
                let mv = opponent.choose_move(&position, limits);
                drop(permit);
                mv
            })
            .await
            .ok()
            .flatten();
            let _ = tx.send(Command::Computer { ply, mv }).await;
        });
    }

    /// The computer's queued search got a thread.
    pub(super) fn computer_started(&mut self, ply: usize) {
        if ply == self.usi_moves.len() && self.computer.is_some() {
            self.computer = Some(ComputerView::Thinking);
            self.publish();
        }
    }

    /// The computer's move (`None`: it resigns), played like a player's
    /// unless the game moved on meanwhile.
    pub(super) async fn computer_moved(&mut self, ply: usize, mv: Option<Move>) {
        self.deps.activity.touch();
        self.thinking = false;
        self.computer = None;
        let Some(side) = self.computer_side() else {
            return;
        };
        if ply != self.usi_moves.len() || self.ending.is_some() {
            return;
        }
        let action = match mv {
            Some(mv) => Action::Move { mv },
            None => Action::Resign,
        };
        if let Err(e) = self.act(side.into(), action, None).await {
            tracing::warn!(game = %self.id, "the computer's move was refused: {e}");
        }
    }
}
