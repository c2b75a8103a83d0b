//! The crosstable: a row a player in standings order, a cell a round; its
//! CSV, and the plain-text grid European federations rate from.
//!
//! In both texts an opponent is named by their **place**, the number of
//! their row (1 for the first row), as printed crosstables do; players
//! sharing a rank still have different places. Sente is written `b`
//! (black) and Gote `w` (white), as Western shogi notation and the rating
//! formats name the sides. docs/TIEBREAKS.md ("Exports") shows both texts.
//!
//! ```
//! use shogi_tournament::crosstable::{crosstable, to_csv, CellOutcome, PlayerInfo};
//! use shogi_tournament::*;
//!
//! let p = Player { rating: None, grade: None, club: None, from_round: 1, withdrawn_from: None };
//! let board = Board { sente: 0, gote: 1, colours: ColourChoice::Table, result: Some(GameResult::SenteWin) };
//! let event = Event {
//!     format: Format::Swiss, rounds: 1, seed: 0,
//!     players: vec![p.clone(), p],
//!     played: vec![Round { boards: vec![board], byes: vec![] }],
//! };
//! let table = crosstable(&event, &[]);
//! assert_eq!(table.rows[0].cells[0].outcome, CellOutcome::Win);
//! let info = [PlayerInfo::named("Ann"), PlayerInfo::named("Bob")];
//! let csv = to_csv(&table, &event, &info, &[]);
//! assert_eq!(csv.lines().nth(1), Some("1,1,Ann,,,,2b+,1"));
//! ```

use std::collections::HashMap;

use crate::score::bye_points;
use crate::standings::{entry, standings, Entry, Outcome, Standing, Tiebreak};
use crate::translit::latin;
use crate::{ByeKind, Event, Grade, PlayerId, Side};

/// What a round gave a player, as a crosstable cell shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellOutcome {
    /// Won over the board.
    Win,
    /// Lost over the board.
    Loss,
    /// Drew.
    Draw,
    /// Won because the opponent did not play.
    ForfeitWin,
    /// Lost by not playing.
    ForfeitLoss,
    /// Neither player played.
    DoubleForfeit,
    /// Had no game: a bye of this kind.
    Bye(ByeKind),
    /// The game has no result yet.
    Pending,
    /// Not in the event that round (not yet entered, or withdrawn).
    Absent,
}

/// One round of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// The opponent, if there was a board.
    pub opponent: Option<PlayerId>,
    /// The player's side, if there was a board.
    pub side: Option<Side>,
    /// How it went.
    pub outcome: CellOutcome,
}

/// A player's row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Rank, points and tie-breaks.
    pub standing: Standing,
    /// A cell per round paired so far, round 1 first.
    pub cells: Vec<Cell>,
}

/// The crosstable, best first (the order of [`standings`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Crosstable {
    /// A row per player.
    pub rows: Vec<Row>,
}

impl Crosstable {
    /// The place (1-based row number) of each player.
    fn places(&self) -> HashMap<PlayerId, usize> {
        self.rows
            .iter()
            .enumerate()
            .map(|(i, row)| (row.standing.player, i + 1))
            .collect()
    }
}

/// What the caller knows of a player beyond the event: for the exports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerInfo {
    /// The name as entered, surname first ("Иванов Иван").
    pub name: String,
    /// Rating, if any.
    pub rating: Option<i32>,
    /// Grade as written (`3k`, `1d`), if any.
    pub rank: Option<String>,
    /// Club, if any.
    pub club: Option<String>,
    /// Country code (`RU`, `UA`), if known; the report falls back to the
    /// event's.
    pub country: Option<String>,
}

impl PlayerInfo {
    /// A player known by name only.
    #[must_use]
    pub fn named(name: &str) -> PlayerInfo {
        PlayerInfo {
            name: name.to_owned(),
            ..PlayerInfo::default()
        }
    }
}

/// The cell of one entry.
fn cell(e: Entry) -> Cell {
    match e {
        Entry::Game {
            opponent,
            side,
            outcome,
        } => Cell {
            opponent: Some(opponent),
            side: Some(side),
            outcome: match outcome {
                Outcome::Win => CellOutcome::Win,
                Outcome::Loss => CellOutcome::Loss,
                Outcome::Draw => CellOutcome::Draw,
                Outcome::ForfeitWin => CellOutcome::ForfeitWin,
                Outcome::ForfeitLoss => CellOutcome::ForfeitLoss,
                Outcome::DoubleForfeit => CellOutcome::DoubleForfeit,
                Outcome::Pending => CellOutcome::Pending,
            },
        },
        Entry::Bye(kind) => Cell {
            opponent: None,
            side: None,
            outcome: CellOutcome::Bye(kind),
        },
        Entry::Absent => Cell {
            opponent: None,
            side: None,
            outcome: CellOutcome::Absent,
        },
    }
}

/// The crosstable of `event` with the tie-breaks of `order`.
#[must_use]
pub fn crosstable(event: &Event, order: &[Tiebreak]) -> Crosstable {
    let rows = standings(event, order)
        .into_iter()
        .map(|standing| {
            let cells = (0..event.played.len())
                .map(|r| cell(entry(event, standing.player, r)))
                .collect();
            Row { standing, cells }
        })
        .collect();
    Crosstable { rows }
}

/// `b` for Sente, `w` for Gote.
fn side_letter(side: Option<Side>) -> &'static str {
    match side {
        Some(Side::Sente) => "b",
        Some(Side::Gote) => "w",
        None => "",
    }
}

/// A CSV cell: `5b+` (beat the player in place 5 as Sente), `3w-`, `7b=`,
/// `4w+f` / `4b-f` (won / lost by forfeit), `2b-f` in a double forfeit,
/// `6w?` (no result yet); a bye `+`, `=` or `-` by the points it gave;
/// empty when absent.
fn csv_cell(c: &Cell, event: &Event, places: &HashMap<PlayerId, usize>) -> String {
    let place = c
        .opponent
        .and_then(|o| places.get(&o))
        .map_or_else(String::new, ToString::to_string);
    let side = side_letter(c.side);
    let mark = match c.outcome {
        CellOutcome::Win => "+",
        CellOutcome::Loss => "-",
        CellOutcome::Draw => "=",
        CellOutcome::ForfeitWin => "+f",
        CellOutcome::ForfeitLoss | CellOutcome::DoubleForfeit => "-f",
        CellOutcome::Pending => "?",
        CellOutcome::Bye(kind) => {
            return match bye_points(event.format, kind) {
                2 => "+",
                1 => "=",
                _ => "-",
            }
            .to_owned()
        }
        CellOutcome::Absent => return String::new(),
    };
    format!("{place}{side}{mark}")
}

/// A field quoted as RFC 4180 asks: in double quotes (inner quotes
/// doubled) when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// The crosstable as CSV (RFC 4180, CRLF line ends): a header line
/// `Rank,No,Name,Rating,Grade,Club,R1,…,Rn,Points,<tie-break keys>` and a
/// line per row. `No` is the player's number (entry order, from 1);
/// `info[p]` names player `p` (missing entries leave the fields empty).
/// A round's cell: `5b+` / `5w-` / `5b=` (won, lost, drew against place 5
/// as Sente `b` or Gote `w`), `5w+f` / `5b-f` (won / lost by forfeit; a
/// double forfeit is `-f` for both), `5b?` (no result yet), `+` / `=` / `-`
/// (a bye worth 1, ½, 0), empty (not in the event that round).
#[must_use]
pub fn to_csv(
    table: &Crosstable,
    event: &Event,
    info: &[PlayerInfo],
    order: &[Tiebreak],
) -> String {
    let places = table.places();
    let rounds = table.rows.first().map_or(0, |r| r.cells.len());
    let mut header: Vec<String> = ["Rank", "No", "Name", "Rating", "Grade", "Club"]
        .iter()
        .map(ToString::to_string)
        .collect();
    header.extend((1..=rounds).map(|r| format!("R{r}")));
    header.push("Points".to_owned());
    header.extend(order.iter().map(|t| t.key().to_owned()));
    let mut out = header.join(",");
    out.push_str("\r\n");
    for row in &table.rows {
        let p = row.standing.player;
        let who = info.get(p);
        let mut fields = vec![
            row.standing.rank.to_string(),
            (p + 1).to_string(),
            csv_field(who.map_or("", |i| &i.name)),
            who.and_then(|i| i.rating)
                .map_or_else(String::new, |r| r.to_string()),
            csv_field(who.and_then(|i| i.rank.as_deref()).unwrap_or("")),
            csv_field(who.and_then(|i| i.club.as_deref()).unwrap_or("")),
        ];
        fields.extend(row.cells.iter().map(|c| csv_cell(c, event, &places)));
        fields.push(row.standing.points.value().to_string());
        fields.extend(row.standing.tiebreaks.iter().map(ToString::to_string));
        out.push_str(&fields.join(","));
        out.push_str("\r\n");
    }
    out
}

/// The event as the rating report's header lines give it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReportHeader {
    /// The event's name (`EV`).
    pub name: String,
    /// The city (`PC`, after the country).
    pub city: String,
    /// The country code (`PC`), also for players without one.
    pub country: String,
    /// The first day, `YYYY-MM-DD` (`DT`).
    pub starts: String,
    /// The last day, `YYYY-MM-DD` (`DT`).
    pub ends: String,
    /// The rating class (`CL`: `A`, `B`, `C`, `D`), if known.
    pub class: Option<char>,
    /// The basic thinking time in minutes (`TM`), if known.
    pub minutes: Option<u32>,
}

/// A grade as the report writes it: `3k`, `1d`.
fn grade_text(grade: Grade) -> String {
    if grade >= 1 {
        format!("{grade}d")
    } else {
        format!("{}k", 1i64 - i64::from(grade))
    }
}

/// A field of the report: Latin letters, no blanks (they separate fields)
/// and no `;` (it starts a comment); `-` when empty.
fn report_field(s: &str) -> String {
    let s: String = latin(s)
        .trim()
        .chars()
        .map(|c| {
            if c.is_whitespace() || c == ';' {
                '_'
            } else {
                c
            }
        })
        .collect();
    if s.is_empty() {
        "-".to_owned()
    } else {
        s
    }
}

/// A header value: no line breaks, no `]`.
fn header_value(s: &str) -> String {
    latin(s)
        .chars()
        .map(|c| {
            if c == '\n' || c == '\r' || c == ']' {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// A round of the report: `12+/b` (beat place 12 as Sente), `3-/w`,
/// `5=/b`; a round without a game played over the board is `0+` (a free
/// win: forfeit win, full or Swiss pairing bye), `0=` (a half-point bye)
/// or `0-` (anything else, also a game still without a result).
fn report_cell(c: &Cell, event: &Event, places: &HashMap<PlayerId, usize>) -> String {
    let place = c.opponent.and_then(|o| places.get(&o));
    let played = match c.outcome {
        CellOutcome::Win => Some('+'),
        CellOutcome::Loss => Some('-'),
        CellOutcome::Draw => Some('='),
        _ => None,
    };
    if let (Some(place), Some(mark)) = (place, played) {
        return format!("{place}{mark}/{}", side_letter(c.side));
    }
    let free = match c.outcome {
        CellOutcome::ForfeitWin => 2,
        CellOutcome::Bye(kind) => bye_points(event.format, kind),
        _ => 0,
    };
    match free {
        2 => "0+",
        1 => "0=",
        _ => "0-",
    }
    .to_owned()
}

/// The crosstable in the plain-text grid the European Go Database accepts
/// and FESA's rating list reads the same way: `;` header lines (`EV`,
/// `PC`, `DT`, `CL`, `TM`, the rounds), then a line per player in place
/// order: place, surname, given name(s) (joined by `_`), grade, country,
/// club, and a field per round (see docs/TIEBREAKS.md, "Exports"). Names
/// and clubs are transliterated to Latin letters by [`latin`].
#[must_use]
pub fn federation_report(
    table: &Crosstable,
    event: &Event,
    info: &[PlayerInfo],
    header: &ReportHeader,
) -> String {
    let places = table.places();
    let rounds = table.rows.first().map_or(0, |r| r.cells.len());
    let mut out = String::new();
    out.push_str(&format!("; EV[{}]\n", header_value(&header.name)));
    out.push_str(&format!(
        "; PC[{},{}]\n",
        header_value(&header.country),
        header_value(&header.city)
    ));
    out.push_str(&format!(
        "; DT[{},{}]\n",
        header_value(&header.starts),
        header_value(&header.ends)
    ));
    if let Some(class) = header.class {
        out.push_str(&format!("; CL[{class}]\n"));
    }
    if let Some(minutes) = header.minutes {
        out.push_str(&format!("; TM[{minutes}]\n"));
    }
    out.push_str(&format!("; shogi, {rounds} rounds\n"));
    let lines: Vec<Vec<String>> = table
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let p = row.standing.player;
            let who = info.get(p);
            let name = latin(who.map_or("", |w| &w.name));
            let mut words = name.split_whitespace();
            let surname = report_field(words.next().unwrap_or(""));
            let given = report_field(&words.collect::<Vec<_>>().join("_"));
            let grade = who
                .and_then(|w| w.rank.clone())
                .or_else(|| event.players.get(p).and_then(|pl| pl.grade).map(grade_text))
                .unwrap_or_default();
            let country = who
                .and_then(|w| w.country.as_deref())
                .unwrap_or(&header.country);
            let club = who.and_then(|w| w.club.as_deref()).unwrap_or("");
            let mut fields = vec![
                (i + 1).to_string(),
                surname,
                given,
                report_field(&grade),
                report_field(country),
                report_field(club),
            ];
            fields.extend(row.cells.iter().map(|c| report_cell(c, event, &places)));
            fields
        })
        .collect();
    // Pad each column to its widest entry: blanks separate fields, so
    // padding only makes the grid readable.
    let columns = lines.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            lines
                .iter()
                .filter_map(|l| l.get(c))
                .map(|f| f.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for line in lines {
        let text: Vec<String> = line
            .iter()
            .zip(&widths)
            .map(|(f, &w)| format!("{f:<w$}"))
            .collect();
        out.push_str(text.join(" ").trim_end());
        out.push('\n');
    }
    out
}
