//! What a CSA server says, one line at a time, read as a [`ServerLine`]
//! (the `Game_Summary` block between `BEGIN Game_Summary` and its end is
//! `summary`'s): logins, `START`, `REJECT`, the moves echoed with their
//! `T`, `%TORYO`/`%KACHI`, and the result lines ([`Reason`], [`Outcome`]).
//!
//! Syntax only: an echoed move is resolved against the game's position by
//! `game`. Nothing here panics on what a server sends; a line this client
//! has no use for is [`ServerLine::Other`].
//!
//! ```text
//! +7776FU,T3     ServerLine::Move { mv: +7776FU, time: 3 }
//! %TORYO,T5      ServerLine::Special { word: "TORYO", time: 5 }
//! #RESIGN        ServerLine::Reason(Reason::Resign)
//! #LOSE          ServerLine::Outcome(Outcome::Lose)
//! ```

use shogi_record::csa::CsaMove;

/// Why a line the server sent cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    /// A `+`/`-` line that is not a CSA move.
    #[error("the server sent {0:?}: expected a move such as +7776FU,T3")]
    BadMove(String),
    /// A `,T` that is not a whole number.
    #[error("the server sent {0:?}: expected a time such as T3 after the comma")]
    BadTime(String),
}

/// Why a game ended, as the server's reason line says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// `#RESIGN`.
    Resign,
    /// `#TIME_UP`.
    TimeUp,
    /// `#ILLEGAL_MOVE` (also a false `%KACHI`).
    IllegalMove,
    /// `#SENNICHITE`: fourfold repetition.
    Sennichite,
    /// `#OUTE_SENNICHITE`: perpetual check.
    OuteSennichite,
    /// `#JISHOGI`: a declaration (`%KACHI`) judged.
    Jishogi,
    /// `#MAX_MOVES`: the move limit.
    MaxMoves,
    /// `#CHUDAN`: the game was suspended; no outcome follows.
    Chudan,
}

impl Reason {
    const WORDS: [(Reason, &'static str); 8] = [
        (Reason::Resign, "#RESIGN"),
        (Reason::TimeUp, "#TIME_UP"),
        (Reason::IllegalMove, "#ILLEGAL_MOVE"),
        (Reason::Sennichite, "#SENNICHITE"),
        (Reason::OuteSennichite, "#OUTE_SENNICHITE"),
        (Reason::Jishogi, "#JISHOGI"),
        (Reason::MaxMoves, "#MAX_MOVES"),
        (Reason::Chudan, "#CHUDAN"),
    ];

    /// The reason a `#WORD` line names.
    #[must_use]
    pub fn parse(line: &str) -> Option<Reason> {
        named(&Reason::WORDS, line)
    }

    /// Its `#WORD`.
    #[must_use]
    pub fn word(self) -> &'static str {
        name_of(&Reason::WORDS, self)
    }
}

/// The result for the program that reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `#WIN`.
    Win,
    /// `#LOSE`.
    Lose,
    /// `#DRAW`.
    Draw,
    /// `#CENSORED`: the move limit was reached (a draw for the tally).
    Censored,
}

impl Outcome {
    const WORDS: [(Outcome, &'static str); 4] = [
        (Outcome::Win, "#WIN"),
        (Outcome::Lose, "#LOSE"),
        (Outcome::Draw, "#DRAW"),
        (Outcome::Censored, "#CENSORED"),
    ];

    /// The outcome a `#WORD` line names.
    #[must_use]
    pub fn parse(line: &str) -> Option<Outcome> {
        named(&Outcome::WORDS, line)
    }

    /// Its `#WORD`.
    #[must_use]
    pub fn word(self) -> &'static str {
        name_of(&Outcome::WORDS, self)
    }
}

/// The value a table of `(value, word)` rows gives `word`.
fn named<T: Copy>(table: &[(T, &'static str)], word: &str) -> Option<T> {
    table.iter().find(|(_, w)| *w == word).map(|(t, _)| *t)
}

/// The word a table of `(value, word)` rows gives `value`.
fn name_of<T: Copy + PartialEq>(table: &[(T, &'static str)], value: T) -> &'static str {
    table
        .iter()
        .find(|(t, _)| *t == value)
        .map_or("#?", |(_, w)| w)
}

/// One line from the server, outside the `Game_Summary` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerLine {
    /// An empty line (the answer to ours, or the server's own keep-alive).
    KeepAlive,
    /// `LOGIN:<id> OK`.
    LoginOk,
    /// `LOGIN:incorrect`.
    LoginIncorrect,
    /// `LOGOUT:completed`.
    LogoutCompleted,
    /// `BEGIN Game_Summary`: the block follows.
    SummaryBegin,
    /// `START:<game id>`: both agreed.
    Start(String),
    /// `REJECT:<game id> by <name>`.
    Reject {
        /// The game.
        game_id: String,
        /// Who rejected it.
        by: String,
    },
    /// A move played (either side's), with the time charged for it.
    Move {
        /// The move as written.
        mv: CsaMove,
        /// Its `T`, in the game's time units (0 when absent).
        time: u64,
    },
    /// `%TORYO,T5`, `%KACHI`: a special move echoed (the result lines follow).
    Special {
        /// The word after `%`.
        word: String,
        /// Its `T`, 0 when absent.
        time: u64,
    },
    /// `#RESIGN`, `#TIME_UP`, ...: why the game ended.
    Reason(Reason),
    /// `#WIN`, `#LOSE`, `#DRAW`, `#CENSORED`: the result; the game is over.
    Outcome(Outcome),
    /// Anything else (x1 replies `##[...]`, unknown words).
    Other,
}

impl ServerLine {
    /// Reads one line (without its line feed; a carriage return is dropped).
    ///
    /// # Errors
    /// A `+`/`-` line that is not a move ([`ProtocolError::BadMove`]), a
    /// `T` that is not a whole number ([`ProtocolError::BadTime`]).
    pub fn parse(line: &str) -> Result<ServerLine, ProtocolError> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            return Ok(ServerLine::KeepAlive);
        }
        if let Some(rest) = line.strip_prefix("LOGIN:") {
            return Ok(match rest {
                "incorrect" => ServerLine::LoginIncorrect,
                r if r.ends_with(" OK") => ServerLine::LoginOk,
                _ => ServerLine::Other,
            });
        }
        match line {
            "LOGOUT:completed" => return Ok(ServerLine::LogoutCompleted),
            "BEGIN Game_Summary" => return Ok(ServerLine::SummaryBegin),
            _ => {}
        }
        if let Some(id) = line.strip_prefix("START:") {
            return Ok(ServerLine::Start(id.to_owned()));
        }
        if let Some(rest) = line.strip_prefix("REJECT:") {
            let (id, by) = rest.split_once(" by ").unwrap_or((rest, ""));
            return Ok(ServerLine::Reject {
                game_id: id.to_owned(),
                by: by.to_owned(),
            });
        }
        if line.starts_with(['+', '-']) {
            let (text, rest) = line.split_once(',').unwrap_or((line, ""));
            let mv = CsaMove::parse(text).ok_or_else(|| ProtocolError::BadMove(head(line)))?;
            let time = time_of(rest).ok_or_else(|| ProtocolError::BadTime(head(line)))?;
            return Ok(ServerLine::Move { mv, time });
        }
        if let Some(rest) = line.strip_prefix('%') {
            let (word, rest) = rest.split_once(',').unwrap_or((rest, ""));
            let time = time_of(rest).ok_or_else(|| ProtocolError::BadTime(head(line)))?;
            return Ok(ServerLine::Special {
                word: word.to_owned(),
                time,
            });
        }
        if let Some(r) = Reason::parse(line) {
            return Ok(ServerLine::Reason(r));
        }
        if let Some(o) = Outcome::parse(line) {
            return Ok(ServerLine::Outcome(o));
        }
        Ok(ServerLine::Other)
    }
}

/// The `T` among the statements after a move's first comma (`T3`,
/// `T3,'* 30`): `Some(0)` without one, `None` for a `T` that is not a
/// whole number.
fn time_of(statements: &str) -> Option<u64> {
    for s in statements.split(',') {
        if s.starts_with('\'') {
            break;
        }
        if let Some(t) = s.strip_prefix('T') {
            return t.parse().ok();
        }
    }
    Some(0)
}

/// At most the first 80 characters of a line, for an error message.
fn head(line: &str) -> String {
    line.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_lines_of_a_game() {
        let parse = |l: &str| ServerLine::parse(l).unwrap();
        assert_eq!(parse("LOGIN:bot OK"), ServerLine::LoginOk);
        assert_eq!(parse("LOGIN:incorrect"), ServerLine::LoginIncorrect);
        assert_eq!(parse("LOGOUT:completed"), ServerLine::LogoutCompleted);
        assert_eq!(parse("BEGIN Game_Summary\r"), ServerLine::SummaryBegin);
        assert_eq!(parse("START:g1"), ServerLine::Start("g1".into()));
        assert_eq!(
            parse("REJECT:g1 by bob"),
            ServerLine::Reject {
                game_id: "g1".into(),
                by: "bob".into()
            }
        );
        let ServerLine::Move { mv, time } = parse("+7776FU,T3") else {
            panic!("a move");
        };
        assert_eq!((mv.to_string(), time), ("+7776FU".into(), 3));
        assert!(matches!(parse("-3334FU"), ServerLine::Move { time: 0, .. }));
        assert!(matches!(
            parse("-3334FU,T12,'* 30 +2726FU"),
            ServerLine::Move { time: 12, .. }
        ));
        assert_eq!(
            parse("%TORYO,T5"),
            ServerLine::Special {
                word: "TORYO".into(),
                time: 5
            }
        );
        assert_eq!(
            parse("%KACHI"),
            ServerLine::Special {
                word: "KACHI".into(),
                time: 0
            }
        );
        assert_eq!(parse(""), ServerLine::KeepAlive);
        assert_eq!(parse("##[LIST] +OK"), ServerLine::Other);
        assert_eq!(parse("#WHATEVER"), ServerLine::Other);
    }

    #[test]
    fn every_result_word() {
        for (line, reason) in [
            ("#RESIGN", Reason::Resign),
            ("#TIME_UP", Reason::TimeUp),
            ("#ILLEGAL_MOVE", Reason::IllegalMove),
            ("#SENNICHITE", Reason::Sennichite),
            ("#OUTE_SENNICHITE", Reason::OuteSennichite),
            ("#JISHOGI", Reason::Jishogi),
            ("#MAX_MOVES", Reason::MaxMoves),
            ("#CHUDAN", Reason::Chudan),
        ] {
            assert_eq!(ServerLine::parse(line).unwrap(), ServerLine::Reason(reason));
            assert_eq!(reason.word(), line);
        }
        for (line, outcome) in [
            ("#WIN", Outcome::Win),
            ("#LOSE", Outcome::Lose),
            ("#DRAW", Outcome::Draw),
            ("#CENSORED", Outcome::Censored),
        ] {
            assert_eq!(
                ServerLine::parse(line).unwrap(),
                ServerLine::Outcome(outcome)
            );
            assert_eq!(outcome.word(), line);
        }
    }

    #[test]
    fn garbled_moves_and_times_are_errors_never_panics() {
        for bad in ["+7776", "+7776XX,T1", "-", "+0000FU"] {
            assert!(
                matches!(ServerLine::parse(bad), Err(ProtocolError::BadMove(_))),
                "{bad}"
            );
        }
        for bad in ["+7776FU,Tx", "+7776FU,T-1", "%TORYO,T1.5"] {
            assert!(
                matches!(ServerLine::parse(bad), Err(ProtocolError::BadTime(_))),
                "{bad}"
            );
        }
        let long = format!("+{}", "9".repeat(10_000));
        assert!(ServerLine::parse(&long).is_err());
        assert_eq!(ServerLine::parse("\u{e9}\u{0}").unwrap(), ServerLine::Other);
    }
}
