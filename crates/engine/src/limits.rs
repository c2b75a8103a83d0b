//! What bounds a search: [`SearchLimit`], and the USI `go` command that produces one.
//!
//! ```
//! use shogi_engine::limits::{GoCommand, SearchLimit};
//! let go: GoCommand = "go btime 60000 wtime 50000 byoyomi 10000".parse()?;
//! assert_eq!(go.byoyomi, Some(10000));
//! assert!(matches!(go.limit(), SearchLimit::Clock(_)));
//! let go: GoCommand = "go depth 3".parse()?;
//! assert_eq!(go.limit().max_depth(), Some(3));
//! # Ok::<_, shogi_engine::limits::GoParseError>(())
//! ```

use std::str::FromStr;

use shogi_core::Color;

/// Clock state for one `go`: remaining times, increments and byoyomi, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Sente's remaining main time.
    pub btime: u64,
    /// Gote's remaining main time.
    pub wtime: u64,
    /// Sente's increment per move.
    pub binc: u64,
    /// Gote's increment per move.
    pub winc: u64,
    /// Byoyomi per move (after the main time).
    pub byoyomi: u64,
}

impl Clock {
    /// The remaining main time of `color`.
    #[must_use]
    pub fn time(&self, color: Color) -> u64 {
        match color {
            Color::Sente => self.btime,
            Color::Gote => self.wtime,
        }
    }

    /// The increment of `color`.
    #[must_use]
    pub fn inc(&self, color: Color) -> u64 {
        match color {
            Color::Sente => self.binc,
            Color::Gote => self.winc,
        }
    }
}

/// When a search must stop (besides an explicit `stop`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// Until stopped.
    Infinite,
    /// To this nominal depth.
    Depth(u32),
    /// After about this many nodes.
    Nodes(u64),
    /// For this many milliseconds.
    MoveTime(u64),
    /// By the clock, with time management.
    Clock(Clock),
    /// Whichever of these limits comes first.
    All(Vec<SearchLimit>),
}

impl SearchLimit {
    /// The depth limit, if any.
    #[must_use]
    pub fn max_depth(&self) -> Option<u32> {
        match self {
            SearchLimit::Depth(d) => Some(*d),
            SearchLimit::All(v) => v.iter().filter_map(SearchLimit::max_depth).min(),
            _ => None,
        }
    }

    /// The node limit, if any.
    #[must_use]
    pub fn max_nodes(&self) -> Option<u64> {
        match self {
            SearchLimit::Nodes(n) => Some(*n),
            SearchLimit::All(v) => v.iter().filter_map(SearchLimit::max_nodes).min(),
            _ => None,
        }
    }

    /// The fixed move time, if any.
    #[must_use]
    pub fn move_time(&self) -> Option<u64> {
        match self {
            SearchLimit::MoveTime(t) => Some(*t),
            SearchLimit::All(v) => v.iter().filter_map(SearchLimit::move_time).min(),
            _ => None,
        }
    }

    /// The clock, if any.
    #[must_use]
    pub fn clock(&self) -> Option<Clock> {
        match self {
            SearchLimit::Clock(c) => Some(*c),
            SearchLimit::All(v) => v.iter().find_map(SearchLimit::clock),
            _ => None,
        }
    }

    /// Whether nothing but `stop` ends the search.
    #[must_use]
    pub fn is_infinite(&self) -> bool {
        match self {
            SearchLimit::Infinite => true,
            SearchLimit::All(v) => v.iter().all(SearchLimit::is_infinite),
            _ => false,
        }
    }
}

/// The time given to `go mate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateTime {
    /// This many milliseconds.
    Millis(u64),
    /// Until stopped.
    Infinite,
}

/// A parsed USI `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// `btime`.
    pub btime: Option<u64>,
    /// `wtime`.
    pub wtime: Option<u64>,
    /// `binc`.
    pub binc: Option<u64>,
    /// `winc`.
    pub winc: Option<u64>,
    /// `byoyomi`.
    pub byoyomi: Option<u64>,
    /// `movetime`.
    pub movetime: Option<u64>,
    /// `depth`.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `infinite`.
    pub infinite: bool,
    /// `ponder`.
    pub ponder: bool,
    /// `mate <ms>|infinite`: a mate search instead of a normal one.
    pub mate: Option<MateTime>,
}

/// Why a `go` command could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoParseError {
    /// A parameter needs a number that is missing or not a number.
    #[error("go: {0} needs a non-negative number")]
    BadNumber(String),
    /// An unknown parameter.
    #[error("go: unknown parameter {0:?}")]
    Unknown(String),
}

impl FromStr for GoCommand {
    type Err = GoParseError;
    fn from_str(s: &str) -> Result<GoCommand, GoParseError> {
        let (go, mut errors) = GoCommand::parse_lenient(s);
        if errors.is_empty() {
            Ok(go)
        } else {
            Err(errors.remove(0))
        }
    }
}

impl GoCommand {
    /// Reads a `go` command, skipping what it cannot understand; returns
    /// what was read and the problems found.
    #[must_use]
    pub fn parse_lenient(s: &str) -> (GoCommand, Vec<GoParseError>) {
        let mut go = GoCommand::default();
        let mut errors = Vec::new();
        let mut it = s.split_whitespace().peekable();
        if it.peek() == Some(&"go") {
            it.next();
        }
        while let Some(tok) = it.next() {
            let mut num = |name: &str| -> Option<u64> {
                // Some GUIs send negative clocks when a player is in byoyomi.
                if let Some(Ok(n)) = it.peek().map(|v| v.parse::<i64>()) {
                    it.next();
                    Some(n.max(0) as u64)
                } else {
                    errors.push(GoParseError::BadNumber(name.to_string()));
                    None
                }
            };
            match tok {
                "btime" => go.btime = num(tok).or(go.btime),
                "wtime" => go.wtime = num(tok).or(go.wtime),
                "binc" => go.binc = num(tok).or(go.binc),
                "winc" => go.winc = num(tok).or(go.winc),
                "byoyomi" => go.byoyomi = num(tok).or(go.byoyomi),
                "movetime" => go.movetime = num(tok).or(go.movetime),
                "depth" => {
                    go.depth = num(tok)
                        .map(|d| d.min(u64::from(u32::MAX)) as u32)
                        .or(go.depth);
                }
                "nodes" => go.nodes = num(tok).or(go.nodes),
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "mate" => {
                    go.mate = Some(match it.peek() {
                        Some(&"infinite") => {
                            it.next();
                            MateTime::Infinite
                        }
                        Some(v) => match v.parse::<u64>() {
                            Ok(n) => {
                                it.next();
                                MateTime::Millis(n)
                            }
                            Err(_) => MateTime::Infinite,
                        },
                        None => MateTime::Infinite,
                    });
                }
                other => errors.push(GoParseError::Unknown(other.to_string())),
            }
        }
        (go, errors)
    }

    /// The search limit this command asks for (ponder aside).
    #[must_use]
    pub fn limit(&self) -> SearchLimit {
        let mut v = Vec::new();
        if let Some(d) = self.depth {
            v.push(SearchLimit::Depth(d));
        }
        if let Some(n) = self.nodes {
            v.push(SearchLimit::Nodes(n));
        }
        if self.infinite {
            return match v.len() {
                0 => SearchLimit::Infinite,
                1 => v.remove(0),
                _ => SearchLimit::All(v),
            };
        }
        if let Some(t) = self.movetime {
            v.push(SearchLimit::MoveTime(t));
        }
        let clocked = self.btime.is_some()
            || self.wtime.is_some()
            || self.byoyomi.is_some()
            || self.binc.is_some()
            || self.winc.is_some();
        if clocked && self.movetime.is_none() {
            v.push(SearchLimit::Clock(Clock {
                btime: self.btime.unwrap_or(0),
                wtime: self.wtime.unwrap_or(0),
                binc: self.binc.unwrap_or(0),
                winc: self.winc.unwrap_or(0),
                byoyomi: self.byoyomi.unwrap_or(0),
            }));
        }
        match v.len() {
            0 => SearchLimit::Infinite,
            1 => v.remove(0),
            _ => SearchLimit::All(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses() {
        let g: GoCommand = "go byoyomi 1000".parse().unwrap();
        assert_eq!(
            g.limit(),
            SearchLimit::Clock(Clock {
                byoyomi: 1000,
                ..Clock::default()
            })
        );
        let g: GoCommand = "go mate 500".parse().unwrap();
        assert_eq!(g.mate, Some(MateTime::Millis(500)));
        let g: GoCommand = "go mate infinite".parse().unwrap();
        assert_eq!(g.mate, Some(MateTime::Infinite));
        let g: GoCommand = "go infinite".parse().unwrap();
        assert!(g.limit().is_infinite());
        let g: GoCommand = "go ponder btime 100 wtime 100 binc 5 winc 5"
            .parse()
            .unwrap();
        assert!(g.ponder);
        assert_eq!(g.limit().clock().map(|c| c.inc(Color::Gote)), Some(5));
        assert!("go depth x".parse::<GoCommand>().is_err());
        assert!("go fly".parse::<GoCommand>().is_err());
        let g: GoCommand = "go depth 4 nodes 100".parse().unwrap();
        assert_eq!(g.limit().max_depth(), Some(4));
        assert_eq!(g.limit().max_nodes(), Some(100));
    }
}
