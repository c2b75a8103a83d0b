//! What `shogi csa-client` prints: one line per game and a summary line,
//! each in a fixed form that scripts can read (docs/CSA.md).
//!
//! ```text
//! game 3/20 20261206-8f3a: bot-a vs bot-b: #WIN #RESIGN, 87 moves, as Sente
//! game 4/20 20261206-91c2: bot-b vs bot-a: #LOSE checkmate, 64 moves, as Gote
//! game 5/20 20261206-9a07: bot-a vs bot-b: - #CHUDAN, 12 moves, as Sente
//! game 6/20 20261206-9b11: bot-b vs bot-a: - REJECT, 0 moves, as Gote
//! summary: 20 games, 11 wins, 8 losses, 1 draws, 0 unfinished; time losses: 0 ours, 1 theirs
//! ```
//!
//! After `SENTE vs GOTE:` come two words: the outcome (`#WIN`, `#LOSE`,
//! `#DRAW`, `#CENSORED`, or `-` for none), and the reason (the server's
//! `#WORD`; `checkmate` when the server sent the outcome alone and the
//! loser is mated, as ours does; `-` when it sent none; `REJECT` for a game
//! refused at its summary). Draws count `#DRAW` and `#CENSORED` (the move
//! limit); unfinished games are `#CHUDAN`, rejected ones and any without an
//! outcome.

use shogi_core::{ByColor, Color};

use super::protocol::{Outcome, Reason};

/// How one game ended for this client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Played (started), to the lines the server sent.
    Played {
        /// The outcome line, if any.
        outcome: Option<Outcome>,
        /// The reason line, if any.
        reason: Option<Reason>,
        /// Whether the side to move is checkmated in the final position.
        mated: bool,
    },
    /// Rejected before it started, by the program named.
    Rejected(String),
}

/// One game, for its line and the tally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    /// The server's game id.
    pub game_id: String,
    /// Sente's and Gote's names.
    pub names: ByColor<String>,
    /// The colour this client played.
    pub you: Color,
    /// Moves played (those of the summary's position included).
    pub moves: usize,
    /// How it ended.
    pub end: End,
}

impl GameReport {
    /// Its line, as game `index` (1-based) of `total`.
    #[must_use]
    pub fn line(&self, index: usize, total: usize) -> String {
        let name = |c: Color| {
            let n = &self.names[c];
            if n.is_empty() {
                "?".to_owned()
            } else {
                n.clone()
            }
        };
        let (outcome, reason) = match &self.end {
            End::Played {
                outcome,
                reason,
                mated,
            } => (
                outcome.map_or("-", Outcome::word),
                match (reason, mated) {
                    (Some(r), _) => r.word(),
                    (None, true) => "checkmate",
                    (None, false) => "-",
                },
            ),
            End::Rejected(_) => ("-", "REJECT"),
        };
        let side = match self.you {
            Color::Sente => "Sente",
            Color::Gote => "Gote",
        };
        format!(
            "game {index}/{total} {}: {} vs {}: {outcome} {reason}, {} moves, as {side}",
            self.game_id,
            name(Color::Sente),
            name(Color::Gote),
            self.moves
        )
    }
}

/// The games so far, from this client's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games counted.
    pub games: u32,
    /// `#WIN`.
    pub wins: u32,
    /// `#LOSE`.
    pub losses: u32,
    /// `#DRAW` and `#CENSORED`.
    pub draws: u32,
    /// No outcome: `#CHUDAN`, rejected.
    pub unfinished: u32,
    /// `#TIME_UP` `#LOSE`: this client's engine lost on time.
    pub time_losses: u32,
    /// `#TIME_UP` `#WIN`: the opponent lost on time.
    pub opponent_time_losses: u32,
}

impl Tally {
    /// Counts `report`.
    pub fn add(&mut self, report: &GameReport) {
        self.games += 1;
        let (outcome, reason) = match &report.end {
            End::Played {
                outcome, reason, ..
            } => (*outcome, *reason),
            End::Rejected(_) => (None, None),
        };
        match outcome {
            Some(Outcome::Win) => self.wins += 1,
            Some(Outcome::Lose) => self.losses += 1,
            Some(Outcome::Draw | Outcome::Censored) => self.draws += 1,
            None => self.unfinished += 1,
        }
        match (reason, outcome) {
            (Some(Reason::TimeUp), Some(Outcome::Lose)) => self.time_losses += 1,
            (Some(Reason::TimeUp), Some(Outcome::Win)) => self.opponent_time_losses += 1,
            _ => {}
        }
    }

    /// The summary line.
    #[must_use]
    pub fn line(&self) -> String {
        format!(
            "summary: {} games, {} wins, {} losses, {} draws, {} unfinished; \
             time losses: {} ours, {} theirs",
            self.games,
            self.wins,
            self.losses,
            self.draws,
            self.unfinished,
            self.time_losses,
            self.opponent_time_losses
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(end: End, you: Color) -> GameReport {
        GameReport {
            game_id: "g1".into(),
            names: ByColor::new("bot-a".into(), "bot-b".into()),
            you,
            moves: 87,
            end,
        }
    }

    fn played(outcome: Option<Outcome>, reason: Option<Reason>, mated: bool) -> End {
        End::Played {
            outcome,
            reason,
            mated,
        }
    }

    #[test]
    fn one_line_per_game_in_a_fixed_form() {
        let r = report(
            played(Some(Outcome::Win), Some(Reason::Resign), false),
            Color::Sente,
        );
        assert_eq!(
            r.line(3, 20),
            "game 3/20 g1: bot-a vs bot-b: #WIN #RESIGN, 87 moves, as Sente"
        );
        let r = report(played(Some(Outcome::Lose), None, true), Color::Gote);
        assert_eq!(
            r.line(1, 1),
            "game 1/1 g1: bot-a vs bot-b: #LOSE checkmate, 87 moves, as Gote"
        );
        let r = report(played(None, Some(Reason::Chudan), false), Color::Gote);
        assert!(r.line(1, 1).ends_with(": - #CHUDAN, 87 moves, as Gote"));
        let r = report(played(Some(Outcome::Draw), None, false), Color::Gote);
        assert!(r.line(1, 1).contains(": #DRAW -, "));
        let mut r = report(End::Rejected("bot-b".into()), Color::Sente);
        r.moves = 0;
        r.names[Color::Gote] = String::new();
        assert_eq!(
            r.line(2, 2),
            "game 2/2 g1: bot-a vs ?: - REJECT, 0 moves, as Sente"
        );
    }

    #[test]
    fn the_tally_counts_results_and_time_losses_on_both_sides() {
        let mut t = Tally::default();
        for end in [
            played(Some(Outcome::Win), Some(Reason::Resign), false),
            played(Some(Outcome::Win), Some(Reason::TimeUp), false),
            played(Some(Outcome::Lose), Some(Reason::TimeUp), false),
            played(Some(Outcome::Lose), None, true),
            played(Some(Outcome::Draw), Some(Reason::Sennichite), false),
            played(Some(Outcome::Censored), Some(Reason::MaxMoves), false),
            played(None, Some(Reason::Chudan), false),
            End::Rejected("x".into()),
        ] {
            t.add(&report(end, Color::Sente));
        }
        assert_eq!(
            t.line(),
            "summary: 8 games, 2 wins, 2 losses, 2 draws, 2 unfinished; time losses: 1 ours, 1 theirs"
        );
    }
}
