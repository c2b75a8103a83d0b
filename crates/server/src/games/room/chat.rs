//! The chat between the two players: numbered messages, the last
//! [`CHAT_HISTORY`] kept in memory (and sent to a player who connects), at
//! most [`CHAT_BURST`](super::CHAT_BURST) at once and one more a second; a
//! moderator may hide one (docs/PROTOCOL.md, `chat` and `chat_hidden`).

use std::sync::Arc;

use shogi_core::Color;

use super::{Room, RoomError, CHAT_HISTORY, MAX_CHAT_CHARS};
use crate::game::{Seat, Side};
use crate::time::unix_ms;

/// A message kept in the room.
#[derive(Clone, Debug)]
pub(super) struct ChatLine {
    /// Its number in the game, from 1.
    n: u32,
    /// Whose.
    from: Color,
    /// The writer's name, if the seat has one.
    name: Option<String>,
    /// What was written (empty once hidden).
    text: String,
    /// The message as sent to the players.
    pub(super) json: Arc<str>,
}

/// Who a chat message from `seat` is from, and its text trimmed: chat is
/// between the two players, 1 to [`MAX_CHAT_CHARS`] characters.
fn chat_line(seat: Seat, text: &str) -> Result<(Color, &str), RoomError> {
    let from = match seat {
        Seat::Sente => Color::Sente,
        Seat::Gote => Color::Gote,
        Seat::Both => return Err(RoomError::NoChat),
    };
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_CHAT_CHARS {
        return Err(RoomError::ChatLength);
    }
    Ok((from, text))
}

impl Room {
    /// A chat message from `seat` to both players.
    pub(super) fn chat(&mut self, seat: Seat, text: &str) -> Result<(), RoomError> {
        let (from, text) = chat_line(seat, text)?;
        if !self.settings.chat() {
            return Err(RoomError::NoChat);
        }
        let now = self.deps.time.now_ms();
        if !self.chat_allowance[from].allow(now) {
            return Err(RoomError::ChatTooFast);
        }
        self.chat_count = self.chat_count.saturating_add(1);
        let n = self.chat_count;
        let name = self.players[from].as_ref().map(|p| p.name.clone());
        let json: Arc<str> = Arc::from(
            serde_json::json!({
                "type": "chat", "n": n, "from": Side::from(from), "name": name,
                "text": text, "at_ms": unix_ms(),
            })
            .to_string(),
        );
        if self.chat.len() == CHAT_HISTORY {
            self.chat.pop_front();
        }
        self.chat.push_back(ChatLine {
            n,
            from,
            name,
            text: text.to_string(),
            json: Arc::clone(&json),
        });
        // No player connected is not an error.
        let _ = self.chat_updates.send(json);
        Ok(())
    }

    /// Message `n`, if the room still keeps it and it is not hidden: its
    /// writer's name and its text (what a report copies).
    pub(super) fn chat_message(&self, n: u32) -> Option<(String, String)> {
        self.chat
            .iter()
            .find(|l| l.n == n && !l.text.is_empty())
            .map(|l| (l.name.clone().unwrap_or_default(), l.text.clone()))
    }

    /// Hides message `n` (a moderator's action): its text is dropped, a
    /// player who connects later gets it marked hidden, and the connected
    /// players are told to hide it. Whether the room kept it.
    pub(super) fn hide_chat(&mut self, n: u32) -> bool {
        let Some(line) = self.chat.iter_mut().find(|l| l.n == n) else {
            return false;
        };
        line.text.clear();
        line.json = Arc::from(
            serde_json::json!({
                "type": "chat", "n": n, "from": Side::from(line.from), "name": line.name,
                "hidden": true,
            })
            .to_string(),
        );
        let _ = self.chat_updates.send(Arc::from(
            serde_json::json!({"type": "chat_hidden", "n": n}).to_string(),
        ));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_is_between_the_two_players_and_has_1_to_200_characters() {
        assert_eq!(chat_line(Seat::Gote, "  hi "), Ok((Color::Gote, "hi")));
        assert_eq!(chat_line(Seat::Both, "hi"), Err(RoomError::NoChat));
        assert_eq!(chat_line(Seat::Sente, "   "), Err(RoomError::ChatLength));
        let long = "a".repeat(MAX_CHAT_CHARS + 1);
        assert_eq!(chat_line(Seat::Sente, &long), Err(RoomError::ChatLength));
    }
}
