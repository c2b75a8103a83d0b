//! The one error type of the server's requests: the client's mistakes (a
//! bad request, an unknown game, a wrong token, a conflict) apart from the
//! server's own failures. How each becomes an HTTP response is decided in
//! one place, `api` (4xx with a message; 500, logged).
//!
//! Every error answer carries a `code` beside the English `error` message
//! (`docs/PROTOCOL.md`, "Errors"): the refusals a player meets in the app are
//! [`Problem`]s, with their parameters as fields, so the client can word them
//! in its language; the other errors carry the code of their kind
//! (`bad_request`, `forbidden`, ...).

use serde::Serialize;

/// An error answering a request.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request is malformed or asks for something impossible.
    #[error("{0}")]
    BadRequest(String),
    /// No such game.
    #[error("no such game")]
    NotFound,
    /// No such thing (a player, a challenge): `no such <what>`.
    #[error("no such {0}")]
    NoSuch(&'static str),
    /// The request needs a logged-in player, or the name or password is wrong.
    #[error("{0}")]
    Unauthorized(String),
    /// The client has made too many requests of this kind; it may try again
    /// after `retry_after_s` seconds.
    #[error("{message}")]
    TooManyRequests {
        /// What was refused, in words.
        message: String,
        /// Seconds until a request of this kind is accepted again.
        retry_after_s: u64,
    },
    /// The token or invite code is not the right one.
    #[error("{0}")]
    Forbidden(String),
    /// The request came too late (the seat is taken).
    #[error("{0}")]
    Conflict(String),
    /// The server is too busy to take the request now.
    #[error("{0}")]
    Unavailable(String),
    /// The request's body is over the route's limit.
    #[error("{0}")]
    TooLarge(String),
    /// A refusal with a code and parameters of its own.
    #[error(transparent)]
    Problem(#[from] Problem),
    /// The server failed.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// The code of the answer's `code` field for an error that is not a
    /// [`Problem`] (which carries its own).
    #[must_use]
    pub fn kind_code(&self) -> &'static str {
        match self {
            Error::BadRequest(_) => "bad_request",
            Error::NotFound => "no_such_game",
            Error::NoSuch(_) => "no_such",
            Error::Unauthorized(_) => "unauthorized",
            Error::TooManyRequests { .. } => "too_many_requests",
            Error::Forbidden(_) => "forbidden",
            Error::Conflict(_) => "conflict",
            Error::Unavailable(_) => "unavailable",
            Error::TooLarge(_) => "too_large",
            Error::Problem(p) => p.kind().code(),
            Error::Internal(_) => "internal",
        }
    }
}

/// The HTTP kind of a [`Problem`]: which status answers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `400`.
    BadRequest,
    /// `401`.
    Unauthorized,
    /// `403`.
    Forbidden,
    /// `409`.
    Conflict,
    /// `503`.
    Unavailable,
}

impl Kind {
    /// The code a refusal of this kind without a code of its own would have.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Kind::BadRequest => "bad_request",
            Kind::Unauthorized => "unauthorized",
            Kind::Forbidden => "forbidden",
            Kind::Conflict => "conflict",
            Kind::Unavailable => "unavailable",
        }
    }
}

/// A refusal a player meets in the app, as a stable `code` (the variant's
/// name in snake case) and its parameters, which the JSON answer carries as
/// fields beside `code`; the English words are the `error` message.
///
/// ```
/// use shogi_server::Problem;
/// let p = Problem::AlreadyEntered { name: "Ivan".into() };
/// assert_eq!(p.to_string(), "Ivan has entered already");
/// assert_eq!(
///     serde_json::to_value(&p).unwrap(),
///     serde_json::json!({"code": "already_entered", "name": "Ivan"})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Problem {
    /// Both seats of the game are taken.
    #[error("this game has no free seat")]
    SeatTaken,
    /// The invite code is not the game's.
    #[error("wrong invite code")]
    WrongInvite,
    /// A token that holds no seat in the game.
    #[error("this token holds no seat in this game")]
    NotASeat,
    /// The request needs a logged-in player.
    #[error("not logged in")]
    NotLoggedIn,
    /// A login with a wrong name or password (the same for both).
    #[error("wrong name or password")]
    WrongLogin,
    /// The current password given to change it is wrong.
    #[error("wrong password")]
    WrongPassword,
    /// The account name is used already (in any case).
    #[error("name taken")]
    NameTaken,
    /// A name or password of the wrong length.
    #[error("a {what} has {min}-{max} characters, not {len}")]
    BadLength {
        /// `name`, `guest name` or `password`.
        what: &'static str,
        /// The fewest allowed.
        min: usize,
        /// The most allowed.
        max: usize,
        /// How many it has.
        len: usize,
    },
    /// A name with a character names may not have.
    #[error("a {what} has only letters, digits, _ and -, not {bad:?}")]
    BadCharacter {
        /// `name` or `guest name`.
        what: &'static str,
        /// The first character refused.
        bad: char,
    },
    /// A name mixing scripts that readers cannot tell apart.
    #[error("a {what} mixes the letters of different scripts")]
    MixedScripts {
        /// `name` or `guest name`.
        what: &'static str,
    },
    /// A new account's name that looks like an existing one (the same
    /// UTS #39 confusable skeleton).
    #[error("this name looks like the name {name}")]
    NameTooLike {
        /// The existing name it looks like.
        name: String,
    },
    /// A puzzle's solution asked by an account before its attempt is over.
    #[error("the solution is shown after an attempt: give up first")]
    SolutionAfterAttempt,
    /// A change asked from another site.
    #[error("cross-origin request refused")]
    CrossOrigin,
    /// An import with nothing in it.
    #[error("empty record")]
    EmptyRecord,
    /// A record that cannot be read: where, the text there, and what is wrong
    /// (`reason`: the reader's code, e.g. `bad_move`, `unrecognised_format`).
    #[error("{message}")]
    UnreadableRecord {
        /// 1-based line (0: not tied to a line).
        line: usize,
        /// 1-based column in characters (0: not tied to a column).
        column: usize,
        /// The offending text.
        token: String,
        /// What is wrong, as a code.
        reason: &'static str,
        /// The reader's words.
        #[serde(skip)]
        message: String,
    },
    /// A move of a submitted line that is not legal where it stands.
    #[error("{at}: {mv} is not legal here: {why}")]
    NotLegalHere {
        /// Where in the submission (`moves[3]`, `nodes[1].variations[0][1]`).
        at: String,
        /// The move as written.
        #[serde(rename = "move")]
        mv: String,
        /// The rule it breaks (the refused-move codes), when it is a move at all.
        #[serde(skip_serializing_if = "Option::is_none")]
        rule: Option<&'static str>,
        /// Why, in English.
        #[serde(skip)]
        why: String,
    },
    /// An SFEN that cannot be read or is not a legal position.
    #[error("sfen: {detail}")]
    BadSfen {
        /// The reader's words.
        detail: String,
    },
    /// A record's annotations sent while its game is still being played.
    #[error("the game is still in progress")]
    GameInProgress,
    /// The analysis queue is full.
    #[error("too many analyses waiting; try again later")]
    AnalysisBusy,
    /// The lobby: accepting one's own challenge.
    #[error("this is your own challenge")]
    OwnChallenge,
    /// The lobby: withdrawing someone else's challenge.
    #[error("not your challenge")]
    NotYourChallenge,
    /// The lobby: a program whose challenge was accepted did not agree
    /// to the game (it answered `REJECT`, left, or did not answer in time).
    #[error("the program {name} did not agree to the game")]
    ProgramDeclined {
        /// The program's name.
        name: String,
    },
    /// A tournament change by someone who is not an organiser.
    #[error("organisers only")]
    OrganisersOnly,
    /// Joining an event whose registration is closed.
    #[error("registration is closed")]
    RegistrationClosed,
    /// A player entering an event twice.
    #[error("{name} has entered already")]
    AlreadyEntered {
        /// The player's name.
        name: String,
    },
    /// An event that has its most players.
    #[error("at most {max} players")]
    EventFull {
        /// The most players of an event.
        max: usize,
    },
    /// A board whose result is in already.
    #[error("the board has a result")]
    BoardHasResult,
    /// Logging in to an account a moderator disabled.
    #[error("this account is disabled")]
    AccountDisabled,
    /// The moderator's tools asked by someone who is not a moderator.
    #[error("moderators only")]
    ModeratorsOnly,
    /// Setting a role, asked by someone who is not an administrator.
    #[error("administrators only")]
    AdminsOnly,
    /// Annulling the rating effect of a game that changed no rating.
    #[error("this game changed no rating")]
    NotRated,
    /// An organiser inviting an account to an event twice.
    #[error("{name} is invited already")]
    AlreadyInvited {
        /// The account's name.
        name: String,
    },
    /// A rank that cannot be read or is out of range (15 kyu to 8 dan).
    #[error("{message}")]
    BadRank {
        /// The text as typed.
        rank: String,
        /// The parser's words.
        #[serde(skip)]
        message: String,
    },
    /// An uploaded record over the size limit.
    #[error("a record has at most {max_kib} KiB")]
    RecordTooLarge {
        /// The limit in KiB.
        max_kib: usize,
    },
    /// An uploaded record with an illegal move: its number and text.
    #[error("move {ply} ({mv}) is illegal: {why}")]
    IllegalRecordMove {
        /// The move's number (1 = the first move).
        ply: usize,
        /// The move as written.
        #[serde(rename = "move")]
        mv: String,
        /// The rule it breaks (the refused-move codes), when it is a move
        /// the reader understood.
        #[serde(skip_serializing_if = "Option::is_none")]
        rule: Option<&'static str>,
        /// Why, in English.
        #[serde(skip)]
        why: String,
    },
    /// An uploaded record that does not start from its board's position.
    #[error("the record does not start from the board's position ({handicap})")]
    WrongStart {
        /// The board's handicap (`even`, `lance`...).
        handicap: String,
    },
}

impl From<crate::ratings::RankError> for Problem {
    fn from(e: crate::ratings::RankError) -> Problem {
        Problem::BadRank {
            rank: e.input().to_owned(),
            message: e.to_string(),
        }
    }
}

impl From<crate::ratings::RankError> for Error {
    fn from(e: crate::ratings::RankError) -> Error {
        Error::Problem(e.into())
    }
}

impl Problem {
    /// Which status answers it.
    #[must_use]
    pub fn kind(&self) -> Kind {
        match self {
            Problem::BadLength { .. }
            | Problem::BadCharacter { .. }
            | Problem::MixedScripts { .. }
            | Problem::EmptyRecord
            | Problem::UnreadableRecord { .. }
            | Problem::NotLegalHere { .. }
            | Problem::BadSfen { .. }
            | Problem::BadRank { .. }
            | Problem::RecordTooLarge { .. }
            | Problem::IllegalRecordMove { .. }
            | Problem::WrongStart { .. } => Kind::BadRequest,
            Problem::NotLoggedIn | Problem::WrongLogin | Problem::WrongPassword => {
                Kind::Unauthorized
            }
            Problem::WrongInvite
            | Problem::NotASeat
            | Problem::CrossOrigin
            | Problem::NotYourChallenge
            | Problem::SolutionAfterAttempt
            | Problem::OrganisersOnly
            | Problem::RegistrationClosed
            | Problem::AccountDisabled
            | Problem::ModeratorsOnly
            | Problem::AdminsOnly => Kind::Forbidden,
            Problem::SeatTaken
            | Problem::NameTaken
            | Problem::NameTooLike { .. }
            | Problem::GameInProgress
            | Problem::OwnChallenge
            | Problem::ProgramDeclined { .. }
            | Problem::AlreadyEntered { .. }
            | Problem::EventFull { .. }
            | Problem::BoardHasResult
            | Problem::AlreadyInvited { .. }
            | Problem::NotRated => Kind::Conflict,
            Problem::AnalysisBusy => Kind::Unavailable,
        }
    }

    /// An unreadable record, from the record reader's error.
    #[must_use]
    pub fn unreadable(e: &shogi_record::ReadError) -> Problem {
        Problem::UnreadableRecord {
            line: e.line,
            column: e.column,
            token: e.token.clone(),
            reason: e.kind.code(),
            message: e.to_string(),
        }
    }
}

impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Error {
        Error::Internal(format!("database: {e}"))
    }
}

impl From<sqlx::migrate::MigrateError> for Error {
    fn from(e: sqlx::migrate::MigrateError) -> Error {
        Error::Internal(format!("database migration: {e}"))
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Internal(format!("i/o: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of each problem; `index` makes the list exhaustive (a new variant
    /// breaks its match until it is added here).
    fn every_problem() -> Vec<Problem> {
        fn index(p: &Problem) -> usize {
            match p {
                Problem::SeatTaken => 0,
                Problem::WrongInvite => 1,
                Problem::NotASeat => 2,
                Problem::NotLoggedIn => 3,
                Problem::WrongLogin => 4,
                Problem::WrongPassword => 5,
                Problem::NameTaken => 6,
                Problem::BadLength { .. } => 7,
                Problem::BadCharacter { .. } => 8,
                Problem::CrossOrigin => 9,
                Problem::EmptyRecord => 10,
                Problem::UnreadableRecord { .. } => 11,
                Problem::NotLegalHere { .. } => 12,
                Problem::BadSfen { .. } => 13,
                Problem::GameInProgress => 14,
                Problem::AnalysisBusy => 15,
                Problem::OwnChallenge => 16,
                Problem::NotYourChallenge => 17,
                Problem::OrganisersOnly => 18,
                Problem::RegistrationClosed => 19,
                Problem::AlreadyEntered { .. } => 20,
                Problem::EventFull { .. } => 21,
                Problem::BoardHasResult => 22,
                Problem::MixedScripts { .. } => 23,
                Problem::NameTooLike { .. } => 24,
                Problem::SolutionAfterAttempt => 25,
                Problem::AccountDisabled => 26,
                Problem::ModeratorsOnly => 27,
                Problem::AdminsOnly => 28,
                Problem::NotRated => 29,
                Problem::AlreadyInvited { .. } => 30,
                Problem::BadRank { .. } => 31,
                Problem::RecordTooLarge { .. } => 32,
                Problem::IllegalRecordMove { .. } => 33,
                Problem::WrongStart { .. } => 34,
                Problem::ProgramDeclined { .. } => 35,
            }
        }
        let all = vec![
            Problem::SeatTaken,
            Problem::WrongInvite,
            Problem::NotASeat,
            Problem::NotLoggedIn,
            Problem::WrongLogin,
            Problem::WrongPassword,
            Problem::NameTaken,
            Problem::BadLength {
                what: "password",
                min: 8,
                max: 256,
                len: 5,
            },
            Problem::BadCharacter {
                what: "name",
                bad: '<',
            },
            Problem::CrossOrigin,
            Problem::EmptyRecord,
            Problem::unreadable(&shogi_record::csa::read("V2.2\nPI\n+\n+7776XX\n").unwrap_err()),
            Problem::NotLegalHere {
                at: "moves[0]".into(),
                mv: "5e5d".into(),
                rule: Some("no_piece"),
                why: "no piece on 5e".into(),
            },
            Problem::BadSfen {
                detail: "bad board".into(),
            },
            Problem::GameInProgress,
            Problem::AnalysisBusy,
            Problem::OwnChallenge,
            Problem::NotYourChallenge,
            Problem::OrganisersOnly,
            Problem::RegistrationClosed,
            Problem::AlreadyEntered {
                name: "Ivan".into(),
            },
            Problem::EventFull { max: 1000 },
            Problem::BoardHasResult,
            Problem::MixedScripts { what: "name" },
            Problem::NameTooLike {
                name: "alice".into(),
            },
            Problem::SolutionAfterAttempt,
            Problem::AccountDisabled,
            Problem::ModeratorsOnly,
            Problem::AdminsOnly,
            Problem::NotRated,
            Problem::AlreadyInvited {
                name: "Ivan".into(),
            },
            "2 дана".parse::<crate::ratings::Rank>().unwrap_err().into(),
            Problem::RecordTooLarge { max_kib: 256 },
            Problem::IllegalRecordMove {
                ply: 3,
                mv: "▲5五角".into(),
                rule: None,
                why: "no piece can move there".into(),
            },
            Problem::WrongStart {
                handicap: "lance".into(),
            },
            Problem::ProgramDeclined { name: "bot".into() },
        ];
        let seen: Vec<usize> = all.iter().map(index).collect();
        assert_eq!(seen, (0..all.len()).collect::<Vec<_>>());
        all
    }

    #[test]
    fn a_problem_is_its_code_and_parameters() {
        let p = &every_problem()[11];
        assert_eq!(
            serde_json::to_value(p).unwrap(),
            serde_json::json!({"code": "unreadable_record", "line": 4, "column": 1,
                "token": "+7776XX", "reason": "bad_move"})
        );
        assert_eq!(p.to_string(), "line 4, column 1: bad move at \"+7776XX\"");
        let e = Error::from(Problem::SeatTaken);
        assert_eq!(e.kind_code(), "conflict");
        assert_eq!(Error::NotFound.kind_code(), "no_such_game");
    }

    #[test]
    fn every_code_is_documented() {
        let doc = include_str!("../../../docs/PROTOCOL.md");
        let mut codes: Vec<String> = every_problem()
            .iter()
            .map(|p| {
                serde_json::to_value(p).unwrap()["code"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        for e in [
            Error::BadRequest(String::new()),
            Error::NotFound,
            Error::NoSuch("player"),
            Error::Unauthorized(String::new()),
            Error::TooManyRequests {
                message: String::new(),
                retry_after_s: 1,
            },
            Error::Forbidden(String::new()),
            Error::Conflict(String::new()),
            Error::Unavailable(String::new()),
            Error::TooLarge(String::new()),
            Error::Internal(String::new()),
        ] {
            codes.push(e.kind_code().to_string());
        }
        for code in codes {
            assert!(
                doc.contains(&format!("`{code}`")),
                "{code} is not in PROTOCOL.md"
            );
        }
    }
}
