//! A program's note on its own move: floodgate's `'*` evaluation comment
//! (`+7776FU,'* 123 -3334FU +2726FU`) read as the program's evaluation and
//! the line it expects, checked move by move against the position after
//! the move.
//!
//! The text is what [`super::command::kept_comment`] keeps (the text after
//! the `*`). Its syntax ([`NoteText::parse`]: a number, then CSA moves) is
//! read apart from its legality ([`NoteText::resolve`]: the moves that can
//! be played one after the other from the position after the move).
//!
//! **Whose point of view.** The number is centipawns from **Sente's**
//! point of view, whoever moved: that is what the clients that write it
//! send (ShogiHome multiplies the engine's score by −1 when Gote is to
//! move before sending it; shogi-server's own `usiToCsa` bridge does the
//! same; docs/CSA.md, "Evaluations"). Floodgate's comment has no word for a
//! mate: ShogiHome writes ±30000 for any mate, so a value of at least
//! [`MATE_VALUE`] is read as a mate of unknown length; GPS's bridge writes
//! `30000 − N` for a mate in `N` plies, so a value within
//! [`MATE_PLIES_MAX`] below it is read as a mate in that many plies.
//!
//! **The line** starts after the move. A line that starts with the move
//! itself (as GPS's bridge writes it) has that first move dropped, as
//! shogi-server's bridge does. The line stops at the first word that is not
//! a CSA move or is not legal where it stands, and at [`MAX_PV`] moves.
//!
//! ```
//! use shogi_core::{Move, Position};
//! use shogi_server::csa::note::{Note, Score};
//! let start = Position::startpos();
//! let note = Note::read(" 35 -3334FU +2726FU -8384FU", &start, "7g7f".parse::<Move>()?)?;
//! assert_eq!(note.score, Score::Centipawns(35));
//! let pv: Vec<String> = note.pv.iter().map(ToString::to_string).collect();
//! assert_eq!(pv, ["3c3d", "2g2f", "8c8d"]);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use shogi_core::{Color, Move, Position};
use shogi_record::csa::CsaMove;

/// The most moves of a line kept (a kept comment may hold about 140).
pub const MAX_PV: usize = 32;
/// A value at least this large (either sign) is a mate whose length the
/// comment does not say (ShogiHome writes ±30000 for any mate).
pub const MATE_VALUE: i32 = 30_000;
/// A value this close below [`MATE_VALUE`] is GPS's `30000 − N`: a mate in
/// `N` plies.
pub const MATE_PLIES_MAX: i32 = 1_000;
/// The longest number read as a score, in bytes (a sign and nine digits).
const MAX_SCORE_LEN: usize = 10;

/// A program's evaluation, from Sente's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns: positive when Sente stands better.
    Centipawns(i32),
    /// A mate the program sees.
    Mate {
        /// The side that mates.
        winner: Color,
        /// In how many plies, when the comment says.
        plies: Option<u32>,
    },
}

impl Score {
    /// The score a comment's number stands for (see the module's docs).
    ///
    /// ```
    /// use shogi_core::Color;
    /// use shogi_server::csa::note::Score;
    /// assert_eq!(Score::of_value(-120), Score::Centipawns(-120));
    /// assert_eq!(Score::of_value(-30_000), Score::Mate { winner: Color::Gote, plies: None });
    /// assert_eq!(Score::of_value(29_993), Score::Mate { winner: Color::Sente, plies: Some(7) });
    /// ```
    #[must_use]
    pub fn of_value(value: i64) -> Score {
        let winner = if value > 0 { Color::Sente } else { Color::Gote };
        let size = value.unsigned_abs();
        match u32::try_from(size) {
            Ok(s) if s <= (MATE_VALUE - MATE_PLIES_MAX).unsigned_abs() => {
                // Below the mate range: fits an i32 with its sign.
                Score::Centipawns(i32::try_from(value).unwrap_or_default())
            }
            Ok(s) if s < MATE_VALUE.unsigned_abs() => Score::Mate {
                winner,
                plies: Some(MATE_VALUE.unsigned_abs() - s),
            },
            _ => Score::Mate {
                winner,
                plies: None,
            },
        }
    }
}

/// Why a kept comment is not a note.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoteError {
    /// Nothing but spaces.
    #[error("an evaluation comment needs a number")]
    Empty,
    /// The first word is not a whole number.
    #[error("an evaluation comment starts with a whole number (centipawns), not {0:?}")]
    BadScore(String),
}

/// A comment as written: the score and the words that read as CSA moves,
/// up to the first that does not (legality not judged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteText {
    /// The evaluation.
    pub score: Score,
    /// The line as written, at most [`MAX_PV`] + 1 moves (a copy of the
    /// move itself may lead it).
    pub pv: Vec<CsaMove>,
}

/// Reads a score word: an optional sign and digits.
fn score_word(word: &str) -> Result<Score, NoteError> {
    let bad = || NoteError::BadScore(word.chars().take(16).collect());
    let digits = word.strip_prefix(['+', '-']).unwrap_or(word);
    if word.len() > MAX_SCORE_LEN
        || digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let value: i64 = word.parse().map_err(|_| bad())?;
    Ok(Score::of_value(value))
}

impl NoteText {
    /// Reads a kept comment (the text after `'*`, such as
    /// `" 123 -3334FU +2726FU"`).
    ///
    /// # Errors
    /// [`NoteError::Empty`] for a blank text, [`NoteError::BadScore`] when
    /// the first word is not a whole number.
    pub fn parse(text: &str) -> Result<NoteText, NoteError> {
        let mut words = text.split_ascii_whitespace();
        let score = score_word(words.next().ok_or(NoteError::Empty)?)?;
        let pv = words.map_while(CsaMove::parse).take(MAX_PV + 1).collect();
        Ok(NoteText { score, pv })
    }

    /// The note on `played` (as written in the position it was played in):
    /// the score and the line's moves that are legal one after the other
    /// from `after`, the position after it.
    #[must_use]
    pub fn resolve(&self, played: CsaMove, after: &Position) -> Note {
        let skip = usize::from(self.pv.first() == Some(&played));
        let mut pos = after.clone();
        let mut pv = Vec::new();
        for written in self.pv.iter().skip(skip).take(MAX_PV) {
            let Ok(m) = written.to_move(&pos) else { break };
            if pos.play(m).is_err() {
                break;
            }
            pv.push(m);
        }
        Note {
            score: self.score,
            pv,
        }
    }
}

/// A program's evaluation of its move and the line it expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The evaluation, from Sente's point of view.
    pub score: Score,
    /// The expected line from the position after the move, every move
    /// legal where it stands (possibly empty).
    pub pv: Vec<Move>,
}

impl Note {
    /// The note a kept comment makes on `mv` played in `before`. A move
    /// that is not legal there (one that lost the game) gets no line.
    ///
    /// # Errors
    /// Why the comment is not a note ([`NoteText::parse`]).
    pub fn read(comment: &str, before: &Position, mv: Move) -> Result<Note, NoteError> {
        let text = NoteText::parse(comment)?;
        let mut after = before.clone();
        if after.play(mv).is_err() {
            return Ok(Note {
                score: text.score,
                pv: Vec::new(),
            });
        }
        Ok(text.resolve(CsaMove::of(before, mv), &after))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn after(moves: &[&str]) -> Position {
        let mut pos = Position::startpos();
        for m in moves {
            pos.play(m.parse().unwrap()).unwrap();
        }
        pos
    }

    fn usi(note: &Note) -> Vec<String> {
        note.pv.iter().map(ToString::to_string).collect()
    }

    fn read(comment: &str, before: &[&str], mv: &str) -> Result<Note, NoteError> {
        Note::read(comment, &after(before), mv.parse().unwrap())
    }

    #[test]
    fn the_number_is_centipawns_from_sentes_side_whoever_moved() {
        let sente = read(" 35 -3334FU", &[], "7g7f").unwrap();
        assert_eq!(sente.score, Score::Centipawns(35));
        // Gote's move, Gote better: a negative number, as Gote's programs write it.
        let gote = read("-120 +2726FU", &["7g7f"], "3c3d").unwrap();
        assert_eq!(gote.score, Score::Centipawns(-120));
        assert_eq!(usi(&gote), ["2g2f"]);
        assert_eq!(read("+0", &[], "7g7f").unwrap().score, Score::Centipawns(0));
    }

    #[test]
    fn mates_are_shogihomes_30000_and_gps_30000_less_the_plies() {
        assert_eq!(
            Score::of_value(30_000),
            Score::Mate {
                winner: Color::Sente,
                plies: None
            }
        );
        assert_eq!(
            Score::of_value(-32_000),
            Score::Mate {
                winner: Color::Gote,
                plies: None
            }
        );
        assert_eq!(
            Score::of_value(-29_995),
            Score::Mate {
                winner: Color::Gote,
                plies: Some(5)
            }
        );
        assert_eq!(
            Score::of_value(29_001),
            Score::Mate {
                winner: Color::Sente,
                plies: Some(999)
            }
        );
        assert_eq!(Score::of_value(29_000), Score::Centipawns(29_000));
        assert_eq!(Score::of_value(-28_999), Score::Centipawns(-28_999));
        assert!(matches!(
            Score::of_value(i64::MIN),
            Score::Mate { plies: None, .. }
        ));
    }

    #[test]
    fn the_line_starts_after_the_move_and_drops_a_copy_of_it() {
        let plain = read(" 35 -3334FU +2726FU", &[], "7g7f").unwrap();
        assert_eq!(usi(&plain), ["3c3d", "2g2f"]);
        // GPS's bridge writes the move itself first.
        let led = read(" 35 +7776FU -3334FU +2726FU", &[], "7g7f").unwrap();
        assert_eq!(usi(&led), ["3c3d", "2g2f"]);
        // After a promotion, a capture and a drop, as the position has them.
        let takes = read("-80 -3122GI +0055KA", &["7g7f", "3c3d"], "8h2b+").unwrap();
        assert_eq!(usi(&takes), ["3a2b", "B*5e"]);
    }

    #[test]
    fn the_line_stops_at_the_first_unreadable_or_illegal_move() {
        let unreadable = read(" 35 -3334FU +2726XX -8384FU", &[], "7g7f").unwrap();
        assert_eq!(usi(&unreadable), ["3c3d"]);
        let wrong_side = read(" 35 -3334FU -8384FU +2726FU", &[], "7g7f").unwrap();
        assert_eq!(usi(&wrong_side), ["3c3d"]);
        let blocked = read(" 35 -3334FU +2824HI", &[], "7g7f").unwrap();
        assert_eq!(usi(&blocked), ["3c3d"]);
        // ShogiHome's CSA-3 comment ends with the node count.
        let counted = read(" 35 -3334FU #123456", &[], "7g7f").unwrap();
        assert_eq!(usi(&counted), ["3c3d"]);
        // Without a line at all.
        assert!(read("77", &[], "7g7f").unwrap().pv.is_empty());
    }

    #[test]
    fn the_line_is_cut_to_max_pv_moves() {
        // Rooks and golds shuffling: always legal, never a repetition foul in a line.
        let shuffle = ["+2838HI", "-8272HI", "+3828HI", "-7282HI"];
        let text = std::iter::once("10".to_string())
            .chain((0..100).map(|i| shuffle[i % 4].to_string()))
            .collect::<Vec<_>>()
            .join(" ");
        let note = read(&text, &["7g7f"], "3c3d").unwrap();
        assert_eq!(note.pv.len(), MAX_PV);
    }

    #[test]
    fn comments_without_a_number_are_not_notes() {
        assert_eq!(read("", &[], "7g7f"), Err(NoteError::Empty));
        assert_eq!(read("   ", &[], "7g7f"), Err(NoteError::Empty));
        for bad in [
            "abc -3334FU",
            "1.5",
            "+",
            "-",
            "12a",
            "99999999999",
            "3334FU",
        ] {
            assert!(
                matches!(read(bad, &[], "7g7f"), Err(NoteError::BadScore(_))),
                "{bad}"
            );
        }
        // floodgate's records write `'**`; a client copying one sends `'** 30`.
        assert!(matches!(
            read("* 30 -3334FU", &[], "7g7f"),
            Err(NoteError::BadScore(_))
        ));
    }

    #[test]
    fn an_illegal_move_gets_its_score_and_no_line() {
        let note = read(" 10 -3334FU", &[], "5e5d").unwrap();
        assert_eq!(note.score, Score::Centipawns(10));
        assert!(note.pv.is_empty());
    }

    proptest! {
        #[test]
        fn any_text_is_a_note_or_an_error_never_a_panic(text in any::<String>()) {
            let _ = read(&text, &["7g7f"], "3c3d");
        }

        #[test]
        fn any_line_of_csa_looking_words_keeps_only_legal_moves(
            score in -999_999_999_i64..=999_999_999,
            words in proptest::collection::vec("[+-][0-9]{4}(FU|KY|KE|GI|KI|KA|HI|OU|TO|NY|NK|NG|UM|RY)", 0..40),
        ) {
            let text = format!("{score} {}", words.join(" "));
            let before = after(&["7g7f", "3c3d"]);
            let note = Note::read(&text, &before, "2g2f".parse().unwrap()).unwrap();
            prop_assert!(note.pv.len() <= MAX_PV);
            let mut pos = after(&["7g7f", "3c3d", "2g2f"]);
            for m in &note.pv {
                prop_assert!(pos.play(*m).is_ok());
            }
        }
    }
}
