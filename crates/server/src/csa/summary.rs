//! The `Game_Summary` block sent to both programs of a game before they
//! agree to it.
//!
//! ```
//! use shogi_core::Color;
//! use shogi_server::csa::{GameName, Summary};
//! let game = GameName::parse("test-600-10")?;
//! let s = Summary {
//!     game_id: "g1".into(),
//!     sente: "alice".into(),
//!     gote: "bob".into(),
//!     game: &game,
//!     max_moves: 256,
//! };
//! let text = s.text(Color::Gote);
//! assert!(text.starts_with("BEGIN Game_Summary\nProtocol_Version:1.2\n"));
//! assert!(text.contains("Your_Turn:-\nRematch_On_Draw:NO\nTo_Move:+\n"));
//! assert!(text.contains("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"));
//! assert!(text.ends_with("END Position\nEND Game_Summary\n"));
//! # Ok::<_, shogi_server::csa::GameNameError>(())
//! ```

use std::fmt::Write as _;

use shogi_core::{Color, HandKind, Position, Square};

use super::GameName;

/// What a `Game_Summary` says.
#[derive(Clone, Debug)]
pub struct Summary<'a> {
    /// The game id (`START:` and `REJECT:` name it).
    pub game_id: String,
    /// Sente's program (`Name+`).
    pub sente: String,
    /// Gote's program (`Name-`).
    pub gote: String,
    /// The game name: the clock and the start.
    pub game: &'a GameName,
    /// The move limit (`Max_Moves`).
    pub max_moves: u32,
}

fn sign(c: Color) -> char {
    match c {
        Color::Sente => '+',
        Color::Gote => '-',
    }
}

/// The `P1`..`P9`, `P+`, `P-` lines and the side to move of `pos`,
/// appended to `out`, each ended by a line feed.
pub fn position_lines(out: &mut String, pos: &Position) {
    for rank in 1..=9u8 {
        let _ = write!(out, "P{rank}");
        for file in (1..=9u8).rev() {
            match Square::from_numbers(file, rank).and_then(|sq| pos.piece_at(sq)) {
                Some(p) => {
                    out.push(sign(p.color));
                    out.push_str(p.kind.csa());
                }
                None => out.push_str(" * "),
            }
        }
        out.push('\n');
    }
    for color in [Color::Sente, Color::Gote] {
        out.push('P');
        out.push(sign(color));
        let hand = pos.hand(color);
        for hk in HandKind::ALL.into_iter().rev() {
            for _ in 0..hand.count(hk) {
                let _ = write!(out, "00{}", hk.piece_kind().csa());
            }
        }
        out.push('\n');
    }
    out.push(sign(pos.side_to_move()));
    out.push('\n');
}

impl Summary<'_> {
    /// The block for the program playing `you`, each line ended by a line feed.
    #[must_use]
    pub fn text(&self, you: Color) -> String {
        let start = self.game.handicap.position();
        let mut out = String::with_capacity(640);
        out.push_str("BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\n");
        out.push_str("Format:Shogi 1.0\nDeclaration:Jishogi 1.1\n");
        let _ = writeln!(out, "Game_ID:{}", self.game_id);
        let _ = writeln!(out, "Name+:{}", self.sente);
        let _ = writeln!(out, "Name-:{}", self.gote);
        let _ = writeln!(out, "Your_Turn:{}", sign(you));
        out.push_str("Rematch_On_Draw:NO\n");
        let _ = writeln!(out, "To_Move:{}", sign(start.side_to_move()));
        let _ = writeln!(out, "Max_Moves:{}", self.max_moves);
        out.push_str("BEGIN Time\nTime_Unit:1sec\n");
        let _ = writeln!(out, "Total_Time:{}", self.game.total_secs);
        let _ = writeln!(out, "Byoyomi:{}", self.game.byoyomi_secs);
        if self.game.increment_secs > 0 {
            let _ = writeln!(out, "Increment:{}", self.game.increment_secs);
        }
        out.push_str("Least_Time_Per_Move:0\nEND Time\nBEGIN Position\n");
        position_lines(&mut out, &start);
        out.push_str("END Position\nEND Game_Summary\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(name: &str) -> String {
        let game = GameName::parse(name).unwrap();
        Summary {
            game_id: "id".into(),
            sente: "a".into(),
            gote: "b".into(),
            game: &game,
            max_moves: 256,
        }
        .text(Color::Sente)
    }

    #[test]
    fn the_even_start_and_its_time_block() {
        let text = summary("test-600-10");
        let expected = "BEGIN Position\n\
            P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n\
            P2 * -HI *  *  *  *  * -KA * \n\
            P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n\
            P4 *  *  *  *  *  *  *  *  * \n\
            P5 *  *  *  *  *  *  *  *  * \n\
            P6 *  *  *  *  *  *  *  *  * \n\
            P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n\
            P8 * +KA *  *  *  *  * +HI * \n\
            P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n\
            P+\nP-\n+\nEND Position\n";
        assert!(text.contains(expected), "{text}");
        assert!(text.contains(
            "BEGIN Time\nTime_Unit:1sec\nTotal_Time:600\nByoyomi:10\nLeast_Time_Per_Move:0\nEND Time\n"
        ));
        assert!(text.contains("Your_Turn:+\n"));
        assert!(text.contains("Max_Moves:256\n"));
    }

    #[test]
    fn fischer_sends_the_increment() {
        let text = summary("floodgate-600-10F");
        assert!(
            text.contains("Total_Time:600\nByoyomi:0\nIncrement:10\n"),
            "{text}"
        );
    }

    #[test]
    fn a_handicap_starts_without_the_givers_pieces_and_gote_to_move() {
        let text = summary("hcbishop_x-60-0");
        assert!(text.contains("P2 * -HI *  *  *  *  *  *  * \n"), "{text}");
        assert!(text.contains("To_Move:-\n"));
        assert!(text.contains("P+\nP-\n-\nEND Position\n"));
    }
}
