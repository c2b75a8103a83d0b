//! The `Game_Summary` block, fed line by line to a [`SummaryReader`], read
//! as a [`GameSummary`]: its general fields, the `Time` blocks as one
//! [`TimeRule`] per side (`Time`, with `Time+` / `Time-` over it), and the
//! `Position` block, read by `shogi_record::csa`: `PI` with removed pieces
//! (`PI82HI22KA`), the `P1`..`P9` board lines, `P+`/`P-` hands (`P-00AL`),
//! the side to move (`To_Move` when the block has none) and the moves
//! already played, each with its `T`.
//!
//! Fields this client has no use for (`Protocol_Version`, `Format`,
//! `Declaration`, `Rematch_On_Draw`, `Least_Time_Per_Move`, ...) are
//! passed over; so are unknown ones.

use shogi_core::{ByColor, Color, Move, Position};
use shogi_record::ReadError;

/// The most lines a `Game_Summary` may have (ours has 34; a resumed game
/// lists its moves in it, at most a few hundred).
pub const MAX_SUMMARY_LINES: usize = 2048;

/// Why a `Game_Summary` cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum SummaryError {
    /// A field with a value of the wrong kind.
    #[error("Game_Summary line {line} {text:?}: expected {expected}")]
    BadValue {
        /// Its line number, `BEGIN Game_Summary` being line 1.
        line: usize,
        /// The line.
        text: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A field this client needs is missing.
    #[error("Game_Summary without {0}")]
    Missing(&'static str),
    /// The `Position` block cannot be read.
    #[error("Game_Summary's Position block: {0}")]
    Position(#[from] ReadError),
    /// The `Position` block's moves include one that cannot be played.
    #[error("Game_Summary's Position block: move {ply} {text}: {problem}")]
    PositionMove {
        /// Its ply.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        problem: shogi_record::MoveProblem,
    },
    /// More than [`MAX_SUMMARY_LINES`] lines before `END Game_Summary`.
    #[error("Game_Summary longer than {MAX_SUMMARY_LINES} lines")]
    TooLong,
}
/// One side's clock, as a `Time` block says (in milliseconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeRule {
    /// `Time_Unit`: what a `T` of 1 (and every field below, as written) is.
    pub unit_ms: u64,
    /// `Total_Time`: the main time.
    pub total_ms: u64,
    /// `Byoyomi`: the time per move once the main time is spent.
    pub byoyomi_ms: u64,
    /// `Increment`: added after each move (Fischer).
    pub increment_ms: u64,
}

/// The fields of one `Time` block, as written (in its units).
#[derive(Clone, Copy, Debug, Default)]
struct TimeFields {
    unit_ms: Option<u64>,
    total: Option<u64>,
    byoyomi: Option<u64>,
    increment: Option<u64>,
}

impl TimeFields {
    /// These fields over `base`'s (a `Time+` block over the `Time` block).
    fn over(self, base: TimeFields) -> TimeFields {
        TimeFields {
            unit_ms: self.unit_ms.or(base.unit_ms),
            total: self.total.or(base.total),
            byoyomi: self.byoyomi.or(base.byoyomi),
            increment: self.increment.or(base.increment),
        }
    }

    fn rule(self) -> Result<TimeRule, SummaryError> {
        let unit = self.unit_ms.unwrap_or(1000);
        let total = self.total.ok_or(SummaryError::Missing("Total_Time"))?;
        let ms = |n: u64| n.saturating_mul(unit);
        Ok(TimeRule {
            unit_ms: unit,
            total_ms: ms(total),
            byoyomi_ms: ms(self.byoyomi.unwrap_or(0)),
            increment_ms: ms(self.increment.unwrap_or(0)),
        })
    }
}

/// `Time_Unit`'s value in milliseconds: a number (1 when absent, decimals
/// allowed) and `msec`, `sec` or `min`: `1sec`, `1min`, `0.1sec`, `sec`.
fn time_unit_ms(text: &str) -> Option<u64> {
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let per = match unit {
        "msec" => 1.0,
        "sec" => 1000.0,
        "min" => 60_000.0,
        _ => return None,
    };
    let n: f64 = if number.is_empty() {
        1.0
    } else {
        number.parse().ok()?
    };
    let ms = (n * per).round();
    (1.0..=86_400_000.0).contains(&ms).then_some(ms as u64)
}

/// What a `Game_Summary` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// `Game_ID`.
    pub game_id: String,
    /// `Name+` and `Name-` (empty when absent).
    pub names: ByColor<String>,
    /// `Your_Turn`: the colour this client plays.
    pub you: Color,
    /// `Max_Moves`, when given.
    pub max_moves: Option<u32>,
    /// Each side's clock: the `Time` block, with `Time+` / `Time-` over it.
    pub time: ByColor<TimeRule>,
    /// The start position of the `Position` block.
    pub start: Position,
    /// The moves the `Position` block lists (a resumed game), each with its
    /// `T` in time units (0 when absent).
    pub moves: Vec<(Move, u64)>,
}

#[cfg(test)]
impl GameSummary {
    /// Reads a whole block, from `BEGIN Game_Summary` (which may be left
    /// out) to `END Game_Summary` (the tests' way in; the bridge reads a
    /// line at a time).
    ///
    /// # Errors
    /// As [`SummaryReader::push`]; [`SummaryError::Missing`] when the text
    /// ends before `END Game_Summary`.
    pub fn parse(text: &str) -> Result<GameSummary, SummaryError> {
        let mut reader = SummaryReader::default();
        for line in text.lines() {
            if line == "BEGIN Game_Summary" {
                continue;
            }
            if let Some(summary) = reader.push(line)? {
                return Ok(summary);
            }
        }
        Err(SummaryError::Missing("END Game_Summary"))
    }
}

/// Where in the block a [`SummaryReader`] is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Section {
    #[default]
    General,
    /// `BEGIN Time` (`None`), `BEGIN Time+` or `BEGIN Time-`.
    Time(Option<Color>),
    Position,
}

/// Reads a `Game_Summary` block one line at a time, after its
/// `BEGIN Game_Summary` line.
#[derive(Debug, Default)]
pub struct SummaryReader {
    section: Section,
    /// Lines read, `BEGIN Game_Summary` being line 1.
    line: usize,
    game_id: Option<String>,
    sente: Option<String>,
    gote: Option<String>,
    you: Option<Color>,
    to_move: Option<Color>,
    max_moves: Option<u32>,
    time: TimeFields,
    time_sente: TimeFields,
    time_gote: TimeFields,
    position: String,
    side_line: bool,
}

/// `+` or `-` as a colour.
fn color(text: &str) -> Option<Color> {
    match text {
        "+" => Some(Color::Sente),
        "-" => Some(Color::Gote),
        _ => None,
    }
}

impl SummaryReader {
    /// Reads the next line; the summary once `END Game_Summary` is read.
    ///
    /// # Errors
    /// A field this client reads with a value of the wrong kind, a missing
    /// `Game_ID`, `Your_Turn` or `Total_Time`, a `Position` block that
    /// cannot be read, a block of more than [`MAX_SUMMARY_LINES`] lines.
    pub fn push(&mut self, line: &str) -> Result<Option<GameSummary>, SummaryError> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        self.line += 1;
        if self.line > MAX_SUMMARY_LINES {
            return Err(SummaryError::TooLong);
        }
        match (self.section, line) {
            (Section::Position, "END Position") => self.section = Section::General,
            (Section::Position, _) => {
                if color(line).is_some() {
                    self.side_line = true;
                }
                self.position.push_str(line);
                self.position.push('\n');
            }
            (Section::Time(_), "END Time" | "END Time+" | "END Time-") => {
                self.section = Section::General;
            }
            (Section::Time(side), _) => self.time_field(side, line)?,
            (Section::General, "BEGIN Time") => self.section = Section::Time(None),
            (Section::General, "BEGIN Time+") => self.section = Section::Time(Some(Color::Sente)),
            (Section::General, "BEGIN Time-") => self.section = Section::Time(Some(Color::Gote)),
            (Section::General, "BEGIN Position") => self.section = Section::Position,
            (Section::General, "END Game_Summary") => return self.finish().map(Some),
            (Section::General, _) => self.general_field(line)?,
        }
        Ok(None)
    }

    fn bad(&self, text: &str, expected: &'static str) -> SummaryError {
        SummaryError::BadValue {
            line: self.line + 1,
            text: head(text),
            expected,
        }
    }

    fn general_field(&mut self, line: &str) -> Result<(), SummaryError> {
        let Some((key, value)) = line.split_once(':') else {
            return Ok(());
        };
        match key {
            "Game_ID" => self.game_id = Some(value.to_owned()),
            "Name+" => self.sente = Some(value.to_owned()),
            "Name-" => self.gote = Some(value.to_owned()),
            "Your_Turn" => self.you = Some(color(value).ok_or_else(|| self.bad(line, "+ or -"))?),
            "To_Move" => {
                self.to_move = Some(color(value).ok_or_else(|| self.bad(line, "+ or -"))?);
            }
            "Max_Moves" => {
                let n = value
                    .parse()
                    .map_err(|_| self.bad(line, "a whole number"))?;
                self.max_moves = Some(n);
            }
            // Protocol_Version, Protocol_Mode, Format, Declaration,
            // Rematch_On_Draw and anything newer: nothing to do with them.
            _ => {}
        }
        Ok(())
    }

    fn time_field(&mut self, side: Option<Color>, line: &str) -> Result<(), SummaryError> {
        let Some((key, value)) = line.split_once(':') else {
            return Ok(());
        };
        let number = || -> Result<u64, SummaryError> {
            value.parse().map_err(|_| self.bad(line, "a whole number"))
        };
        let mut fields = match side {
            None => self.time,
            Some(Color::Sente) => self.time_sente,
            Some(Color::Gote) => self.time_gote,
        };
        match key {
            "Time_Unit" => {
                let ms = time_unit_ms(value)
                    .ok_or_else(|| self.bad(line, "a unit such as 1sec, 1min or 1msec"))?;
                fields.unit_ms = Some(ms);
            }
            "Total_Time" => fields.total = Some(number()?),
            "Byoyomi" => fields.byoyomi = Some(number()?),
            "Increment" => fields.increment = Some(number()?),
            // Least_Time_Per_Move, Time_Roundup, Delay: the server's
            // charge, told back in each move's T.
            _ => {}
        }
        match side {
            None => self.time = fields,
            Some(Color::Sente) => self.time_sente = fields,
            Some(Color::Gote) => self.time_gote = fields,
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<GameSummary, SummaryError> {
        let game_id = self
            .game_id
            .take()
            .ok_or(SummaryError::Missing("Game_ID"))?;
        let you = self.you.ok_or(SummaryError::Missing("Your_Turn"))?;
        let time = ByColor::new(
            self.time_sente.over(self.time).rule()?,
            self.time_gote.over(self.time).rule()?,
        );
        let mut text = std::mem::take(&mut self.position);
        if text.trim().is_empty() {
            return Err(SummaryError::Missing("a Position block"));
        }
        if !self.side_line {
            // No side line: To_Move says who starts.
            let side = if self.to_move == Some(Color::Gote) {
                "-"
            } else {
                "+"
            };
            text = insert_side_line(&text, side);
        }
        let record = shogi_record::csa::read(&text)?;
        if let Some(bad) = record.illegal_move {
            return Err(SummaryError::PositionMove {
                ply: bad.ply,
                text: bad.text,
                problem: bad.problem,
            });
        }
        let moves = record
            .moves
            .iter()
            .map(|n| (n.mv, u64::from(n.time.unwrap_or(0))))
            .collect();
        Ok(GameSummary {
            game_id,
            names: ByColor::new(
                self.sente.take().unwrap_or_default(),
                self.gote.take().unwrap_or_default(),
            ),
            you,
            max_moves: self.max_moves,
            time,
            start: record.start,
            moves,
        })
    }
}

/// `text` (position lines) with the side line `side` after its board and
/// hand lines, before any move.
fn insert_side_line(text: &str, side: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    let mut placed = false;
    for line in text.lines() {
        if !placed && line.starts_with(['+', '-']) {
            out.push_str(side);
            out.push('\n');
            placed = true;
        }
        out.push_str(line);
        out.push('\n');
    }
    if !placed {
        out.push_str(side);
        out.push('\n');
    }
    out
}

/// At most the first 80 characters of a line, for an error message.
fn head(line: &str) -> String {
    line.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After the example `Game_Summary` of the CSA server protocol 1.2.1
    /// (section 3.2): the even start, 600 s and 10 s byoyomi, at least one
    /// second a move.
    const SPEC_SUMMARY: &str = "\
BEGIN Game_Summary
Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:20150505-CSA25-3-5-7
Name+:TANUKI
Name-:KITSUNE
Your_Turn:+
Rematch_On_Draw:NO
To_Move:+
Max_Moves:256
BEGIN Time
Time_Unit:1sec
Total_Time:600
Byoyomi:10
Least_Time_Per_Move:1
END Time
BEGIN Position
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
P+
P-
+
END Position
END Game_Summary
";

    /// `text` with the `BEGIN Time` ... `END Time` part replaced by `time`.
    fn with_time(time: &str) -> String {
        let start = SPEC_SUMMARY.find("BEGIN Time\n").unwrap();
        let end = SPEC_SUMMARY.find("END Time\n").unwrap() + "END Time\n".len();
        format!("{}{time}{}", &SPEC_SUMMARY[..start], &SPEC_SUMMARY[end..])
    }

    /// `text` with the `Position` block's content replaced by `position`.
    fn with_position(position: &str) -> String {
        let start = SPEC_SUMMARY.find("BEGIN Position\n").unwrap() + "BEGIN Position\n".len();
        let end = SPEC_SUMMARY.find("END Position\n").unwrap();
        format!(
            "{}{position}{}",
            &SPEC_SUMMARY[..start],
            &SPEC_SUMMARY[end..]
        )
    }

    #[test]
    fn the_specs_summary_gives_names_side_clock_and_the_even_start() {
        let s = GameSummary::parse(SPEC_SUMMARY).unwrap();
        assert_eq!(s.game_id, "20150505-CSA25-3-5-7");
        assert_eq!(s.names[Color::Sente], "TANUKI");
        assert_eq!(s.names[Color::Gote], "KITSUNE");
        assert_eq!(s.you, Color::Sente);
        assert_eq!(s.max_moves, Some(256));
        let rule = TimeRule {
            unit_ms: 1000,
            total_ms: 600_000,
            byoyomi_ms: 10_000,
            increment_ms: 0,
        };
        assert_eq!(s.time, ByColor::new(rule, rule));
        assert_eq!(s.start, Position::startpos());
        assert!(s.moves.is_empty());
    }

    #[test]
    fn a_fischer_clock_has_an_increment_and_no_byoyomi() {
        let text = with_time(
            "BEGIN Time\nTime_Unit:1sec\nTotal_Time:300\nIncrement:10\nLeast_Time_Per_Move:0\nEND Time\n",
        );
        let t = GameSummary::parse(&text).unwrap().time[Color::Gote];
        assert_eq!(
            (t.total_ms, t.byoyomi_ms, t.increment_ms),
            (300_000, 0, 10_000)
        );
    }

    #[test]
    fn time_units_and_per_side_blocks_are_read() {
        let text = with_time(
            "BEGIN Time\nTime_Unit:1min\nTotal_Time:15\nByoyomi:0\nEND Time\n\
             BEGIN Time-\nTotal_Time:10\nEND Time-\n",
        );
        let s = GameSummary::parse(&text).unwrap();
        assert_eq!(s.time[Color::Sente].total_ms, 900_000);
        assert_eq!(s.time[Color::Gote].total_ms, 600_000);
        assert_eq!(s.time[Color::Gote].unit_ms, 60_000);
        assert_eq!(time_unit_ms("1msec"), Some(1));
        assert_eq!(time_unit_ms("0.1sec"), Some(100));
        assert_eq!(time_unit_ms("sec"), Some(1000));
        for bad in ["1hour", "", "-1sec", "0sec", "1e400sec", "12"] {
            assert_eq!(time_unit_ms(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_handicap_start_by_pi_with_removed_pieces_and_gote_to_move() {
        // The bishop handicap: the giver (Gote) without its bishop, to move.
        let text = with_position("PI22KA\n-\n").replace("To_Move:+", "To_Move:-");
        let s = GameSummary::parse(&text).unwrap();
        assert_eq!(s.start.side_to_move(), Color::Gote);
        assert_eq!(
            s.start.to_sfen(),
            "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        // Two pieces (rook and bishop) removed.
        let s = GameSummary::parse(&with_position("PI82HI22KA\n-\n")).unwrap();
        assert!(s.start.to_sfen().starts_with("lnsgkgsnl/9/ppppppppp/"));
    }

    #[test]
    fn a_handicap_start_as_board_lines_as_our_server_sends_it() {
        // The bishop handicap as `P1`..`P9`: Gote's bishop gone, Gote to move.
        let text = SPEC_SUMMARY
            .replace(
                "P2 * -HI *  *  *  *  * -KA * ",
                "P2 * -HI *  *  *  *  *  *  * ",
            )
            .replace("P-\n+\n", "P-\n-\n");
        let s = GameSummary::parse(&text).unwrap();
        assert_eq!(s.start.side_to_move(), Color::Gote);
        assert!(s.start.to_sfen().starts_with("lnsgkgsnl/1r7/"));
    }

    #[test]
    fn hands_and_moves_already_played_are_read_with_their_times() {
        // Pieces placed one by one, two golds in Sente's hand, the rest of
        // the pieces in Gote's (`00AL`), then a resumed game's move.
        let board = "P-11OU21KE\nP+99OU00KI00KI\nP-00AL\n+\n+0012KI,T12\n";
        let s = GameSummary::parse(&with_position(board)).unwrap();
        assert_eq!(
            s.start.hand(Color::Sente).count(shogi_core::HandKind::Gold),
            2
        );
        assert_eq!(s.moves.len(), 1);
        assert_eq!(s.moves[0].0.to_string(), "G*1b");
        assert_eq!(s.moves[0].1, 12);
    }

    #[test]
    fn to_move_stands_in_for_a_missing_side_line() {
        let text = with_position("PI\n").replace("To_Move:+", "To_Move:-");
        assert_eq!(
            GameSummary::parse(&text).unwrap().start.side_to_move(),
            Color::Gote
        );
    }

    #[test]
    fn bad_summaries_are_errors_that_name_the_line() {
        let e = GameSummary::parse(&SPEC_SUMMARY.replace("Total_Time:600", "Total_Time:ten"))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "Game_Summary line 15 \"Total_Time:ten\": expected a whole number"
        );
        let e = GameSummary::parse(&SPEC_SUMMARY.replace("Your_Turn:+\n", "")).unwrap_err();
        assert!(matches!(e, SummaryError::Missing("Your_Turn")), "{e}");
        let e = GameSummary::parse(&SPEC_SUMMARY.replace("Total_Time:600\n", "")).unwrap_err();
        assert!(matches!(e, SummaryError::Missing("Total_Time")), "{e}");
        let e = GameSummary::parse(&SPEC_SUMMARY.replace("P5 *  *", "P5 * XX")).unwrap_err();
        assert!(matches!(e, SummaryError::Position(_)), "{e}");
        let e = GameSummary::parse(&with_position("PI\n+\n+5556FU\n")).unwrap_err();
        assert!(
            matches!(e, SummaryError::PositionMove { ply: 1, .. }),
            "{e}"
        );
        let e = GameSummary::parse(&with_position("")).unwrap_err();
        assert!(e.to_string().contains("Position"), "{e}");
        let long = format!("{}\n", "Foo:bar\n".repeat(MAX_SUMMARY_LINES + 1));
        assert!(matches!(
            GameSummary::parse(&long),
            Err(SummaryError::TooLong)
        ));
        assert!(matches!(
            GameSummary::parse("Game_ID:x\n"),
            Err(SummaryError::Missing("END Game_Summary"))
        ));
    }
}
