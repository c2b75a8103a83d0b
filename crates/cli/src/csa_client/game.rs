//! One game from its `Game_Summary` to its result, without I/O: the
//! position after the moves the server echoed (ours and the opponent's),
//! both clocks, whose turn it is, the line that answers the engine's
//! `bestmove`, and how the game ended.
//!
//! The server is the referee: a move it echoes is played here as it says
//! (one that does not fit the position means the two disagree, an error),
//! and the game is over at the outcome line (`#WIN`, `#LOSE`, `#DRAW`,
//! `#CENSORED`) or at `#CHUDAN`, which has none.

use std::time::Duration;

use shogi_core::usi::PositionCommand;
use shogi_core::{Move, Position};
use shogi_record::csa::CsaMove;

use super::clock::Clocks;
use super::comment;
use super::protocol::{Outcome, Reason, ServerLine};
use super::report::{End, GameReport};
use super::summary::GameSummary;
use super::usi::{Bestmove, GameOver, Thought};

/// The server and this client disagree about the game.
#[derive(Debug, thiserror::Error)]
#[error("the server played {text} as move {ply}, which does not fit our position: {why}")]
pub struct Desync {
    /// The move's ply.
    pub ply: usize,
    /// The move as the server wrote it.
    pub text: String,
    /// Why it does not fit.
    pub why: String,
}

/// A game in play.
#[derive(Clone, Debug)]
pub struct Game {
    summary: GameSummary,
    position: Position,
    moves: Vec<Move>,
    clocks: Clocks,
    /// How many moves were played when this client last sent its answer.
    answered: Option<usize>,
    outcome: Option<Outcome>,
    reason: Option<Reason>,
    over: bool,
}

impl Game {
    /// The game the summary describes, after the moves its position lists.
    ///
    /// # Errors
    /// A listed move that cannot be played.
    pub fn new(summary: GameSummary) -> Result<Game, Desync> {
        let mut game = Game {
            position: summary.start.clone(),
            moves: Vec::with_capacity(256),
            clocks: Clocks::new(summary.time),
            summary,
            answered: None,
            outcome: None,
            reason: None,
            over: false,
        };
        for (m, time) in game.summary.moves.clone() {
            let written = CsaMove::of(&game.position, m);
            game.play(written, time)?;
        }
        Ok(game)
    }

    /// What the summary said.
    #[must_use]
    pub fn summary(&self) -> &GameSummary {
        &self.summary
    }

    /// Plays `written`, charged `time` units.
    fn play(&mut self, written: CsaMove, time: u64) -> Result<(), Desync> {
        let desync = |why: String| Desync {
            ply: self.moves.len() + 1,
            text: written.to_string(),
            why,
        };
        let m = written
            .to_move(&self.position)
            .map_err(|e| desync(e.to_string()))?;
        self.position.play(m).map_err(|e| desync(e.to_string()))?;
        self.clocks.charge(written.color, time);
        self.moves.push(m);
        Ok(())
    }

    /// Reads one line the server sent during the game.
    ///
    /// # Errors
    /// An echoed move that does not fit the position.
    pub fn read(&mut self, line: &ServerLine) -> Result<(), Desync> {
        if self.over {
            return Ok(());
        }
        match line {
            ServerLine::Move { mv, time } => self.play(*mv, *time)?,
            ServerLine::Reason(r) => {
                self.reason = Some(*r);
                self.over = *r == Reason::Chudan;
            }
            ServerLine::Outcome(o) => {
                self.outcome = Some(*o);
                self.over = true;
            }
            _ => {}
        }
        Ok(())
    }

    /// Whether the game has ended.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Whether the engine is to think now: the game goes on, it is this
    /// client's turn and no answer has been sent for it.
    #[must_use]
    pub fn our_turn(&self) -> bool {
        !self.over
            && self.position.side_to_move() == self.summary.you
            && self.answered != Some(self.moves.len())
    }

    /// The USI `position` command of the game so far.
    #[must_use]
    pub fn position_command(&self) -> String {
        let command = PositionCommand {
            start: self.summary.start.clone(),
            moves: self.moves.clone(),
        };
        format!("position {}", command.to_usi())
    }

    /// The USI `go` command for this client's turn (see `clock`).
    #[must_use]
    pub fn go_command(&self, margin_ms: u64) -> String {
        self.clocks.go_command(self.summary.you, margin_ms)
    }

    /// The longest this client's move may take on the server's clock.
    #[must_use]
    pub fn allowance(&self) -> Duration {
        Duration::from_millis(self.clocks.allowance_ms(self.summary.you))
    }

    /// The line that answers `thought`: the move (with floodgate's comment
    /// when `comments` and the engine gave a score), `%TORYO` for `resign`
    /// or an unreadable answer, `%KACHI` for `win`.
    pub fn answer(&mut self, thought: &Thought, comments: bool) -> String {
        self.answered = Some(self.moves.len());
        match &thought.bestmove {
            Bestmove::Move(m) => {
                let mut line = CsaMove::of(&self.position, *m).to_string();
                if let (true, Some(score)) = (comments, thought.score) {
                    line.push_str(",'");
                    line.push_str(&comment::floodgate(&self.position, *m, score, &thought.pv));
                }
                line
            }
            Bestmove::Resign | Bestmove::Unreadable(_) => "%TORYO".to_owned(),
            Bestmove::Win => "%KACHI".to_owned(),
        }
    }

    /// The result for the engine's `gameover` (no outcome, `#CENSORED`: a
    /// draw).
    #[must_use]
    pub fn game_over(&self) -> GameOver {
        match self.outcome {
            Some(Outcome::Win) => GameOver::Win,
            Some(Outcome::Lose) => GameOver::Lose,
            _ => GameOver::Draw,
        }
    }

    /// The game's report.
    #[must_use]
    pub fn report(&self) -> GameReport {
        let mated = self.position.in_check() && self.position.legal_moves().is_empty();
        self.report_with(End::Played {
            outcome: self.outcome,
            reason: self.reason,
            mated,
        })
    }

    /// The report of the game rejected by `by` before it started.
    #[must_use]
    pub fn rejected(&self, by: &str) -> GameReport {
        self.report_with(End::Rejected(by.to_owned()))
    }

    fn report_with(&self, end: End) -> GameReport {
        GameReport {
            game_id: self.summary.game_id.clone(),
            names: self.summary.names.clone(),
            you: self.summary.you,
            moves: self.moves.len(),
            end,
        }
    }
}

#[cfg(test)]
mod tests {
    use shogi_core::Color;

    use super::super::usi::Score;
    use super::*;

    fn summary(you: &str, position: &str) -> GameSummary {
        GameSummary::parse(&format!(
            "Game_ID:g1\nName+:a\nName-:b\nYour_Turn:{you}\nTo_Move:+\n\
             BEGIN Time\nTime_Unit:1sec\nTotal_Time:60\nByoyomi:10\nEND Time\n\
             BEGIN Position\n{position}END Position\nEND Game_Summary\n"
        ))
        .unwrap()
    }

    fn read(game: &mut Game, lines: &str) {
        for l in lines.lines() {
            game.read(&ServerLine::parse(l).unwrap()).unwrap();
        }
    }

    fn thought(bestmove: &str, score: Option<Score>, pv: &str) -> Thought {
        Thought {
            bestmove: match bestmove {
                "resign" => Bestmove::Resign,
                "win" => Bestmove::Win,
                m => Bestmove::Move(m.parse().unwrap()),
            },
            score,
            pv: pv.split_whitespace().map(str::to_owned).collect(),
        }
    }

    #[test]
    fn sente_thinks_answers_once_and_thinks_again_after_the_reply() {
        let mut g = Game::new(summary("+", "PI\n+\n")).unwrap();
        assert!(g.our_turn());
        assert_eq!(g.position_command(), "position startpos");
        assert_eq!(
            g.go_command(1000),
            "go btime 60000 wtime 60000 byoyomi 9000"
        );
        let line = g.answer(&thought("7g7f", Some(Score::Cp(30)), "7g7f 3c3d"), true);
        assert_eq!(line, "+7776FU,'* 30 -3334FU");
        assert!(!g.our_turn(), "one answer per turn");
        read(&mut g, "+7776FU,T2\n-3334FU,T61");
        assert!(g.our_turn());
        assert_eq!(g.position_command(), "position startpos moves 7g7f 3c3d");
        assert_eq!(g.go_command(1000), "go btime 58000 wtime 0 byoyomi 9000");
        assert_eq!(
            g.answer(&thought("2g2f", Some(Score::Cp(30)), "2g2f"), false),
            "+2726FU"
        );
    }

    #[test]
    fn gote_waits_for_sentes_move() {
        let mut g = Game::new(summary("-", "PI\n+\n")).unwrap();
        assert!(!g.our_turn());
        read(&mut g, "+7776FU,T0");
        assert!(g.our_turn());
        assert_eq!(g.answer(&thought("resign", None, ""), true), "%TORYO");
        assert_eq!(g.answer(&thought("win", None, ""), true), "%KACHI");
    }

    #[test]
    fn a_resignation_ends_with_the_outcome_line() {
        let mut g = Game::new(summary("-", "PI\n+\n")).unwrap();
        read(&mut g, "+7776FU,T0\n-3334FU,T1\n%TORYO,T3\n#RESIGN");
        assert!(!g.is_over());
        read(&mut g, "#WIN\n+2726FU,T1");
        assert!(g.is_over() && !g.our_turn());
        let r = g.report();
        assert_eq!(
            r.line(1, 1),
            "game 1/1 g1: a vs b: #WIN #RESIGN, 2 moves, as Gote"
        );
        assert_eq!(g.game_over(), GameOver::Win);
    }

    #[test]
    fn checkmate_is_told_by_the_outcome_alone() {
        // A gold dropped in front of the king, guarded by a pawn: mate.
        // Pieces placed one by one (`P-11OU`) on an empty board.
        let start = "P-11OU\nP+13FU99OU00KI\n+\n";
        let mut g = Game::new(summary("-", start)).unwrap();
        read(&mut g, "+0012KI,T0\n#LOSE");
        assert!(g.is_over());
        assert_eq!(g.game_over(), GameOver::Lose);
        assert!(g.report().line(1, 1).contains(": #LOSE checkmate, 1 moves"));
    }

    #[test]
    fn chudan_ends_the_game_without_an_outcome() {
        let mut g = Game::new(summary("+", "PI\n+\n")).unwrap();
        read(&mut g, "+7776FU,T0\n#CHUDAN");
        assert!(g.is_over());
        assert_eq!(g.game_over(), GameOver::Draw);
        assert!(g.report().line(1, 1).contains(": - #CHUDAN, 1 moves"));
    }

    #[test]
    fn moves_of_the_summary_count_and_charge_the_clocks() {
        let g = Game::new(summary("+", "PI\n+\n+7776FU,T10\n-3334FU,T20\n")).unwrap();
        assert!(g.our_turn());
        assert_eq!(g.report().moves, 2);
        assert_eq!(g.go_command(0), "go btime 50000 wtime 40000 byoyomi 10000");
        assert_eq!(g.allowance(), Duration::from_secs(60));
        assert_eq!(g.summary().you, Color::Sente);
    }

    #[test]
    fn a_move_that_does_not_fit_is_a_desync_error() {
        let mut g = Game::new(summary("-", "PI\n+\n")).unwrap();
        for bad in ["-3334FU", "+5554FU", "+7775FU"] {
            let e = g.read(&ServerLine::parse(bad).unwrap()).unwrap_err();
            assert_eq!(e.ply, 1, "{bad}");
        }
        assert!(!g.our_turn());
    }
}
