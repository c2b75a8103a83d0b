//! The view: the state of a game as every viewer sees it (the `state`
//! message of docs/PROTOCOL.md, less the connection's seat), built after
//! every change and sent once to all the connections.

use std::sync::Arc;

use shogi_core::impasse::{declaration, total_points};
use shogi_core::{Color, ImpasseRule};

use super::Room;
use crate::board::legal::LegalMoves;
use crate::game::Side;
use crate::games::view::{
    Change, ClockView, ClocksView, ConnectedView, GameView, ImpasseView, PlayersView, SeatsView,
    StateText, StatusView, TakebackView,
};
use crate::time::unix_ms;

impl Room {
    /// Sends the state after a change that a `diff` can tell (an ending
    /// without a move, the clocks, a proposal, who is connected, the
    /// computer's search).
    pub(super) fn publish(&self) {
        self.publish_after(Change::Diff);
    }

    /// Sends the state after `change`. Serialised by the first connection
    /// that needs it, once, not by each connection; with no subscriber,
    /// not built at all.
    pub(super) fn publish_after(&self, change: Change) {
        if self.updates.receiver_count() > 0 {
            let _ = self
                .updates
                .send(Arc::new(StateText::after(self.view(), change)));
        }
    }

    /// The state of the game, the same for every viewer.
    pub(super) fn view(&self) -> GameView {
        let pos = self.game.position();
        let to_move = pos.side_to_move();
        let playing = self.ending.is_none() && self.seats_full();
        let legal = if playing {
            LegalMoves::of(pos)
        } else {
            LegalMoves::default()
        };
        let clocks = self.clocks_view(to_move);
        let impasse = self.impasse_view(playing);
        GameView {
            id: self.id.clone(),
            mode: self.mode,
            sfen: pos.to_sfen(),
            start_sfen: self.start_sfen.clone(),
            moves: self.usi_moves.clone(),
            last_move: self.usi_moves.last().copied(),
            side_to_move: to_move.into(),
            in_check: pos.in_check(),
            dests: legal.dests,
            drops: legal.drops,
            promotions: legal.promotions,
            seats: SeatsView {
                sente: self.seat_taken(Color::Sente),
                gote: self.seat_taken(Color::Gote),
            },
            clocks,
            status: StatusView::of(self.ending),
            impasse,
            rules: self.settings.rules.clone(),
            players: PlayersView {
                sente: self.player_view(Color::Sente),
                gote: self.player_view(Color::Gote),
            },
            rated: self.rated,
            rating_change: self.rating_change,
            event: self.settings.event.clone(),
            connected: ConnectedView {
                sente: self.connected[Color::Sente] > 0
                    || self.computer_side() == Some(Color::Sente),
                gote: self.connected[Color::Gote] > 0 || self.computer_side() == Some(Color::Gote),
            },
            takeback: TakebackView {
                proposed_by: self.takeback_by.map(Side::from),
            },
            computer: self.computer.filter(|_| self.ending.is_none()),
            notes: self.notes.clone(),
            ending: self.ending,
            last_move_ms: self.last_move_ms,
        }
    }

    /// The clocks as they read now: the running one with the turn so far
    /// taken off.
    fn clocks_view(&self, to_move: Color) -> Option<ClocksView> {
        let running = self.flag_deadline().map(|_| to_move);
        self.clocks.map(|c| {
            let used = self.turn_used(self.deps.time.now_ms());
            let read = |side: Color| {
                let (main_ms, byoyomi_ms, periods_left) =
                    c[side].reading(if running == Some(side) { used } else { 0 });
                ClockView {
                    main_ms,
                    byoyomi_ms,
                    periods_left,
                }
            };
            ClocksView {
                sente: read(Color::Sente),
                gote: read(Color::Gote),
                running: running.map(Side::from),
                server_time_ms: unix_ms(),
            }
        })
    }

    /// The impasse facts: the points under the game's rule and whether a
    /// declaration or a count can be made now (`playing`: the game is on).
    fn impasse_view(&self, playing: bool) -> ImpasseView {
        let pos = self.game.position();
        let to_move = pos.side_to_move();
        let rule = self.impasse_rule();
        let points = |c: Color| match rule {
            ImpasseRule::Csa27 | ImpasseRule::Jsa24 => declaration(pos, c, 0).points,
            _ => total_points(pos, c),
        };
        ImpasseView {
            rule,
            sente_points: points(Color::Sente),
            gote_points: points(Color::Gote),
            can_declare: playing
                && matches!(rule, ImpasseRule::Csa27 | ImpasseRule::Jsa24)
                && declaration(pos, to_move, 0).conditions_met(),
            can_propose_count: playing && rule == ImpasseRule::Count24 && self.count_possible(),
            count_proposed_by: self.count_proposed_by.map(Side::from),
        }
    }
}
