//! Seats: which seat a token or an account holds, joining with an invite,
//! who is connected, and the players as shown and announced to the lobby.

use std::sync::Arc;

use shogi_core::Color;

use super::{ChatFeed, Room, Subscription};
use crate::error::{Error, Problem};
use crate::game::{Mode, Seat};
use crate::games::players::{self, Identity, SeatPlayer};
use crate::games::view::{Change, Joined, PlayerView, StateText};
use crate::lobby::{LiveGame, LivePlayers, Terms};
use crate::ratings::TimeClass;
use crate::token;

/// The seat of whoever holds Sente's seat (`sente`), Gote's or both.
fn seat_holding(sente: bool, gote: bool) -> Option<Seat> {
    match (sente, gote) {
        (true, true) => Some(Seat::Both),
        (true, false) => Some(Seat::Sente),
        (false, true) => Some(Seat::Gote),
        (false, false) => None,
    }
}

/// The sides a seat plays.
pub(super) fn sides_of(seat: Seat) -> &'static [Color] {
    match seat {
        Seat::Both => &[Color::Sente, Color::Gote],
        Seat::Sente => &[Color::Sente],
        Seat::Gote => &[Color::Gote],
    }
}

impl Room {
    /// The seat `token` holds, if any.
    pub(super) fn seat_of(&self, token: &str) -> Option<Seat> {
        let holds = |c: Color| {
            self.tokens[c]
                .as_deref()
                .is_some_and(|t| token::same(t, token))
        };
        seat_holding(holds(Color::Sente), holds(Color::Gote))
    }

    /// The seat account `user` holds, if any.
    pub(super) fn seat_of_user(&self, user: i64) -> Option<Seat> {
        let holds = |c: Color| {
            self.players[c]
                .as_ref()
                .is_some_and(|p| p.user == Some(user))
        };
        seat_holding(holds(Color::Sente), holds(Color::Gote))
    }

    /// The updates from now on and the state now for a connection of
    /// `seat`, which counts as connected until it leaves.
    pub(super) fn subscribe(&mut self, seat: Option<Seat>) -> Subscription {
        let chat = seat.map(|_| ChatFeed {
            updates: self.chat_updates.subscribe(),
            history: self.chat.iter().map(|l| Arc::clone(&l.json)).collect(),
        });
        if let Some(seat) = seat {
            self.connect(seat, true);
        }
        Subscription {
            updates: self.updates.subscribe(),
            now: Arc::new(StateText::new(self.view())),
            chat,
        }
    }

    /// Counts a seated connection in (`true`) or out; the state is sent
    /// when a side's presence changes.
    pub(super) fn connect(&mut self, seat: Seat, open: bool) {
        let mut changed = false;
        for &c in sides_of(seat) {
            let before = self.connected[c] > 0;
            self.opened[c] |= open;
            self.connected[c] = if open {
                self.connected[c].saturating_add(1)
            } else {
                self.connected[c].saturating_sub(1)
            };
            changed |= before != (self.connected[c] > 0);
        }
        if changed {
            self.publish();
        }
    }

    /// Takes the free seat with `invite`, as `who`; the clock starts.
    pub(super) async fn join(&mut self, invite: &str, who: &Identity) -> Result<Joined, Error> {
        let Some(code) = self.invite.as_deref() else {
            return Err(Problem::SeatTaken.into());
        };
        if !token::same(code, invite) {
            return Err(Problem::WrongInvite.into());
        }
        let side = if self.tokens[Color::Sente].is_none() {
            Color::Sente
        } else {
            Color::Gote
        };
        let new_token = token::new_token();
        let player = SeatPlayer::of(&self.deps.store, who, self.time_class()).await?;
        if let Err(e) = self
            .deps
            .store
            .join(&self.id, side, &new_token, self.fence.as_ref())
            .await
        {
            self.check_lease().await;
            return Err(e.into());
        }
        if let Some(p) = &player {
            self.deps.store.set_game_player(&self.id, side, p).await?;
        }
        self.players[side] = player;
        self.tokens[side] = Some(new_token.clone());
        self.invite = None;
        self.clock_started = true;
        self.turn_start_ms = self.deps.time.now_ms();
        self.turn_base_ms = 0;
        self.announce_if_live();
        self.publish_after(Change::Full);
        Ok(Joined {
            token: new_token,
            side: side.into(),
        })
    }

    /// Whether this is a game between two people in progress (listed in the lobby).
    pub(super) fn is_live(&self) -> bool {
        self.mode == Mode::Friend && self.ending.is_none() && self.seats_full()
    }

    pub(super) fn time_class(&self) -> Option<TimeClass> {
        self.settings.time.as_ref().map(TimeClass::of_control)
    }

    pub(super) fn player_view(&self, c: Color) -> Option<PlayerView> {
        if self.computer_side() == Some(c) {
            return self.settings.ai.map(|ai| players::computer_view(ai.level));
        }
        self.players[c].as_ref().map(players::view)
    }

    pub(super) fn announce_if_live(&self) {
        if !self.is_live() {
            return;
        }
        self.deps.lobby.game_started(LiveGame {
            id: self.id.clone(),
            players: LivePlayers {
                sente: self.player_view(Color::Sente),
                gote: self.player_view(Color::Gote),
            },
            terms: Terms::new(
                self.settings.time,
                self.rated,
                self.settings.handicap.to_string(),
            ),
            moves: self.usi_moves.len(),
        });
    }

    pub(super) fn seat_taken(&self, c: Color) -> bool {
        self.tokens[c].is_some() || self.computer_side() == Some(c)
    }

    pub(super) fn seats_full(&self) -> bool {
        self.seat_taken(Color::Sente) && self.seat_taken(Color::Gote)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_holding_both_seats_plays_both_sides() {
        assert_eq!(seat_holding(true, true), Some(Seat::Both));
        assert_eq!(seat_holding(false, true), Some(Seat::Gote));
        assert_eq!(seat_holding(false, false), None);
        assert_eq!(sides_of(Seat::Both), &[Color::Sente, Color::Gote]);
    }
}
