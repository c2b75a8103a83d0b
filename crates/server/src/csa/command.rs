//! A client's line as a typed command.
//!
//! Lines are ASCII, at most [`MAX_LINE`] bytes, without their line feed
//! (a carriage return before it is dropped). An empty line is the
//! keep-alive, answered with an empty line.
//!
//! ```
//! use shogi_server::csa::Command;
//! assert!(matches!(Command::parse("LOGIN bot floodgate-600-10F,tok"), Ok(Command::Login { .. })));
//! assert!(matches!(Command::parse("+7776FU,'* 30 -3334FU"), Ok(Command::Move { .. })));
//! assert_eq!(Command::parse(""), Ok(Command::KeepAlive));
//! # Ok::<_, shogi_server::csa::CommandError>(())
//! ```

use shogi_record::csa::CsaMove;

/// The longest line a client may send, in bytes.
pub const MAX_LINE: usize = 4096;
/// The longest password (`gamename,token`).
pub const MAX_PASSWORD: usize = 160;
/// The longest move comment kept in the stored game, in bytes.
pub const MAX_COMMENT: usize = 1024;

/// The part of a move's comment (the text after `,'`) kept with the move
/// in the stored game: a floodgate evaluation `'* 123 -3334FU` is kept as
/// the text after its `*` (the CSA record writes it back as `'*` and the
/// text), without control characters and cut to [`MAX_COMMENT`] bytes.
/// Other comments, and empty ones, are not kept.
///
/// ```
/// use shogi_server::csa::command::kept_comment;
/// assert_eq!(kept_comment("* 35 -8384FU").as_deref(), Some(" 35 -8384FU"));
/// assert_eq!(kept_comment("hello"), None);
/// ```
#[must_use]
pub fn kept_comment(comment: &str) -> Option<String> {
    let text = comment.strip_prefix('*')?;
    let mut kept = String::with_capacity(text.len().min(MAX_COMMENT));
    for c in text.chars().filter(|c| !c.is_control()) {
        if kept.len() + c.len_utf8() > MAX_COMMENT {
            break;
        }
        kept.push(c);
    }
    (!kept.trim().is_empty()).then_some(kept)
}

/// What a client asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty line: keep the connection alive.
    KeepAlive,
    /// `LOGIN id password [x1]`.
    Login {
        /// The account's name.
        id: String,
        /// `gamename,token` or `gamename`.
        password: String,
        /// Whether the client asked for the x1 extension.
        x1: bool,
    },
    /// `LOGOUT`.
    Logout,
    /// `AGREE [game id]`.
    Agree(Option<String>),
    /// `REJECT [game id]`.
    Reject(Option<String>),
    /// A move, with floodgate's `'*` evaluation comment if any.
    Move {
        /// The move as written.
        mv: CsaMove,
        /// The comment after `,'`.
        comment: Option<String>,
    },
    /// `%TORYO`: resign.
    Resign,
    /// `%KACHI`: declare a win by impasse.
    Declare,
    /// `%CHUDAN`: ask to suspend the game.
    Chudan,
    /// An x1 command (`%%WHO`, `%%LIST`, ...): its word and the rest.
    Extension {
        /// The word after `%%` (`WHO`, `LIST`, `VERSION`, ...).
        word: String,
        /// The rest of the line.
        args: String,
    },
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Longer than [`MAX_LINE`].
    #[error("line longer than {MAX_LINE} bytes")]
    TooLong,
    /// A byte outside printable ASCII and space.
    #[error("line has a byte outside printable ASCII")]
    NotAscii,
    /// `LOGIN` without an id and a password, or with bad ones.
    #[error("LOGIN needs an id of letters, digits, _ and - and a password")]
    BadLogin,
    /// A `+`/`-` line that is not a move.
    #[error("not a move: {0:?}")]
    BadMove(String),
    /// Anything else.
    #[error("unknown command: {0:?}")]
    Unknown(String),
}

fn user_name_ok(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= super::gamename::MAX_USER_NAME
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The first characters of a line, for an error message.
fn head(line: &str) -> String {
    line.chars().take(40).collect()
}

impl Command {
    /// Reads one line (without its line feed).
    ///
    /// # Errors
    /// Why the line is not a command ([`CommandError`]).
    pub fn parse(line: &str) -> Result<Command, CommandError> {
        if line.len() > MAX_LINE {
            return Err(CommandError::TooLong);
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        if !line.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return Err(CommandError::NotAscii);
        }
        if line.is_empty() {
            return Ok(Command::KeepAlive);
        }
        if let Some(rest) = line.strip_prefix("%%") {
            let (word, args) = rest.split_once(' ').unwrap_or((rest, ""));
            return Ok(Command::Extension {
                word: word.to_owned(),
                args: args.to_owned(),
            });
        }
        if line.starts_with('+') || line.starts_with('-') {
            return Command::parse_move(line);
        }
        let mut words = line.split(' ');
        let first = words.next().unwrap_or("");
        let second = words.next().map(str::to_owned);
        Ok(match first {
            "LOGIN" => {
                let (Some(id), Some(password)) = (second, words.next()) else {
                    return Err(CommandError::BadLogin);
                };
                let x1 = match words.next() {
                    None => false,
                    Some("x1") => true,
                    Some(_) => return Err(CommandError::BadLogin),
                };
                if !user_name_ok(&id) || password.is_empty() || password.len() > MAX_PASSWORD {
                    return Err(CommandError::BadLogin);
                }
                Command::Login {
                    id,
                    password: password.to_owned(),
                    x1,
                }
            }
            "LOGOUT" => Command::Logout,
            "AGREE" => Command::Agree(second),
            "REJECT" => Command::Reject(second),
            "%TORYO" => Command::Resign,
            "%KACHI" => Command::Declare,
            "%CHUDAN" => Command::Chudan,
            _ => return Err(CommandError::Unknown(head(line))),
        })
    }

    fn parse_move(line: &str) -> Result<Command, CommandError> {
        let (text, comment) = match line.split_once(',') {
            Some((m, rest)) => match rest.strip_prefix('\'') {
                Some(c) => (m, Some(c.to_owned())),
                None => return Err(CommandError::BadMove(head(line))),
            },
            None => (line, None),
        };
        let mv = CsaMove::parse(text).ok_or_else(|| CommandError::BadMove(head(line)))?;
        Ok(Command::Move { mv, comment })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn login_with_and_without_x1() {
        assert_eq!(
            Command::parse("LOGIN bot test-60-0,tok"),
            Ok(Command::Login {
                id: "bot".into(),
                password: "test-60-0,tok".into(),
                x1: false
            })
        );
        assert!(matches!(
            Command::parse("LOGIN bot p x1"),
            Ok(Command::Login { x1: true, .. })
        ));
        for bad in [
            "LOGIN",
            "LOGIN bot",
            "LOGIN bot p x2",
            "LOGIN b@d p",
            &format!("LOGIN {} p", "a".repeat(33)),
        ] {
            assert_eq!(Command::parse(bad), Err(CommandError::BadLogin), "{bad}");
        }
    }

    #[test]
    fn moves_and_their_comments() {
        let Ok(Command::Move { mv, comment }) = Command::parse("-3334FU,'* 120 +2726FU") else {
            panic!("a move");
        };
        assert_eq!(mv.to_string(), "-3334FU");
        assert_eq!(comment.as_deref(), Some("* 120 +2726FU"));
        assert!(matches!(
            Command::parse("+7776FU\r"),
            Ok(Command::Move { comment: None, .. })
        ));
        for bad in ["+7776", "+7776XX", "+0076", "+7776FU,T3", "-"] {
            assert!(
                matches!(Command::parse(bad), Err(CommandError::BadMove(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn kept_comments_are_evaluations_bounded_and_clean() {
        assert_eq!(kept_comment("*120").as_deref(), Some("120"));
        assert_eq!(kept_comment("* a\u{7}b\tc").as_deref(), Some(" abc"));
        assert_eq!(kept_comment("*"), None);
        assert_eq!(kept_comment("*   "), None);
        assert_eq!(kept_comment("no star"), None);
        let long = format!("*{}", "9".repeat(MAX_COMMENT * 2));
        assert_eq!(kept_comment(&long).map(|c| c.len()), Some(MAX_COMMENT));
        let wide = format!("*{}", "\u{e9}".repeat(MAX_COMMENT));
        let kept = kept_comment(&wide).unwrap();
        assert!(kept.len() <= MAX_COMMENT && kept.len() >= MAX_COMMENT - 1);
    }

    #[test]
    fn words_and_extensions() {
        assert_eq!(Command::parse("AGREE"), Ok(Command::Agree(None)));
        assert_eq!(
            Command::parse("REJECT g1"),
            Ok(Command::Reject(Some("g1".into())))
        );
        assert_eq!(Command::parse("%TORYO"), Ok(Command::Resign));
        assert_eq!(Command::parse("%KACHI"), Ok(Command::Declare));
        assert_eq!(Command::parse("%CHUDAN"), Ok(Command::Chudan));
        assert_eq!(Command::parse("LOGOUT"), Ok(Command::Logout));
        assert_eq!(
            Command::parse("%%CHAT hello there"),
            Ok(Command::Extension {
                word: "CHAT".into(),
                args: "hello there".into()
            })
        );
    }

    #[test]
    fn garbage_is_an_error_never_a_panic() {
        assert_eq!(Command::parse("\u{e9}"), Err(CommandError::NotAscii));
        assert_eq!(Command::parse("a\tb"), Err(CommandError::NotAscii));
        assert_eq!(
            Command::parse(&"x".repeat(MAX_LINE + 1)),
            Err(CommandError::TooLong)
        );
        assert!(matches!(
            Command::parse("HELLO"),
            Err(CommandError::Unknown(_))
        ));
        assert_eq!(Command::parse("\r"), Ok(Command::KeepAlive));
    }
}
