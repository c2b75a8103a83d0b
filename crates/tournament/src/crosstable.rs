//! The crosstable: a row a player in standings order, a cell a round; its
//! CSV, and the plain-text grid European federations rate from.
//!
//! The CSV names an opponent by their entry number, as the printed
//! crosstable does, in the reader's language ([`CsvLanguage`]); the rating
//! report names them by their **place**, the number of their row (1 for
//! the first row), with Sente written `b` (black) and Gote `w` (white), as
//! the federations' format asks. docs/TIEBREAKS.md ("Exports") shows both
//! texts.
//!
//! ```
//! use shogi_tournament::crosstable::{crosstable, to_csv, CellOutcome, CsvLanguage, PlayerInfo};
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
//! let csv = to_csv(&table, &event, &info, &[], CsvLanguage::Russian);
//! assert!(csv.starts_with("\u{feff}Место;№;Имя;"));
//! assert_eq!(csv.lines().nth(1), Some("1;1;Ann;;;;2☗+;1"));
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

/// The language a crosstable CSV is written in: its headers, the words of
/// its byes, its decimal mark and its separator. A spreadsheet set to
/// Russian or Ukrainian reads a decimal comma and splits a CSV at
/// semicolons; one set to English or Japanese, a decimal point and commas.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CsvLanguage {
    /// English (`,` and `.`).
    #[default]
    English,
    /// Russian (`;` and `,`).
    Russian,
    /// Ukrainian (`;` and `,`).
    Ukrainian,
    /// Japanese (`,` and `.`).
    Japanese,
}

/// The words of a CSV's header and byes in one language.
struct CsvWords {
    columns: [&'static str; 6],
    round: &'static str,
    points: &'static str,
    bye: &'static str,
}

impl CsvLanguage {
    /// The language of a code (`en`, `ru`, `uk`, `ja`), if it is one of them.
    #[must_use]
    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "en" => Some(Self::English),
            "ru" => Some(Self::Russian),
            "uk" => Some(Self::Ukrainian),
            "ja" => Some(Self::Japanese),
            _ => None,
        }
    }

    fn separator(self) -> char {
        match self {
            Self::Russian | Self::Ukrainian => ';',
            Self::English | Self::Japanese => ',',
        }
    }

    /// A number with this language's decimal mark (`3.5`, `3,5`).
    fn number(self, v: f64) -> String {
        let text = ((v * 100.0).round() / 100.0).to_string();
        match self {
            Self::Russian | Self::Ukrainian => text.replace('.', ","),
            Self::English | Self::Japanese => text,
        }
    }

    fn words(self) -> CsvWords {
        match self {
            Self::English => CsvWords {
                columns: ["Place", "No", "Name", "Rating", "Rank", "Club"],
                round: "Round ",
                points: "Points",
                bye: "bye",
            },
            Self::Russian => CsvWords {
                columns: ["Место", "№", "Имя", "Рейтинг", "Разряд", "Клуб"],
                round: "Тур ",
                points: "Очки",
                bye: "пропуск",
            },
            Self::Ukrainian => CsvWords {
                columns: ["Місце", "№", "Ім’я", "Рейтинг", "Розряд", "Клуб"],
                round: "Тур ",
                points: "Очки",
                bye: "пропуск",
            },
            Self::Japanese => CsvWords {
                columns: ["順位", "番号", "氏名", "レーティング", "段級", "所属"],
                round: "第",
                points: "勝点",
                bye: "不戦",
            },
        }
    }

    /// A tie-break's short name, as the printed crosstable heads its column.
    fn tiebreak(self, t: Tiebreak) -> &'static str {
        use Tiebreak as T;
        match (self, t) {
            (Self::Russian, T::SonnebornBerger) => "Берг.",
            (Self::Ukrainian, T::SonnebornBerger) => "Берг.",
            (Self::Japanese | Self::English, T::SonnebornBerger) => "SB",
            (Self::Russian, T::Sos) => "Бух.",
            (Self::Ukrainian, T::Sos) => "Бух.",
            (Self::Japanese | Self::English, T::Sos) => "Buchholz",
            (Self::Russian, T::Median) => "Мед.",
            (Self::Ukrainian, T::Median) => "Мед.",
            (Self::Russian, T::DirectEncounter) => "Личн.",
            (Self::Ukrainian, T::DirectEncounter) => "Особ.",
            (Self::Russian, T::Wins) => "Поб.",
            (Self::Ukrainian, T::Wins) => "Пер.",
            (Self::Russian, T::Cumulative) => "Прогр.",
            (Self::Ukrainian, T::Cumulative) => "Прогр.",
            (Self::Russian | Self::Ukrainian, T::Sosos) => "ББ",
            (_, t) => t.key(),
        }
    }
}

/// A half point as the printed tables write it: `½`, `1`.
fn half_points(halves: i32) -> &'static str {
    match halves {
        2 => "1",
        1 => "½",
        _ => "0",
    }
}

/// A CSV cell, as the printed crosstable writes it: the opponent's entry
/// number, `☗` (played Sente) or `☖` (Gote), and `+` won, `-` lost, `=`
/// drew, with `*` after a result by forfeit (`5☗+`, `3☖-*`); no result mark
/// while the game is unfinished; a bye as the word and its points (`bye ½`);
/// empty when absent.
fn csv_cell(c: &Cell, event: &Event, lang: CsvLanguage) -> String {
    let opponent = c.opponent.map_or_else(String::new, |o| (o + 1).to_string());
    let side = match c.side {
        Some(Side::Sente) => "☗",
        Some(Side::Gote) => "☖",
        None => "",
    };
    let mark = match c.outcome {
        CellOutcome::Win => "+",
        CellOutcome::Loss => "-",
        CellOutcome::Draw => "=",
        CellOutcome::ForfeitWin => "+*",
        CellOutcome::ForfeitLoss | CellOutcome::DoubleForfeit => "-*",
        CellOutcome::Pending => "",
        CellOutcome::Bye(kind) => {
            return format!(
                "{} {}",
                lang.words().bye,
                half_points(bye_points(event.format, kind))
            )
        }
        CellOutcome::Absent => return String::new(),
    };
    format!("{opponent}{side}{mark}")
}

/// A field of text someone typed (a name, a club): quoted as RFC 4180 asks
/// when it holds the separator, a quote or a line break, and with a `'`
/// before it when it begins with `=`, `+`, `-`, `@`, a tab or a carriage
/// return, so that no spreadsheet reads it as a formula (OWASP's advice
/// against CSV injection).
fn csv_field(s: &str, separator: char) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_owned()
    };
    if s.contains([separator, '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// The crosstable as CSV for a spreadsheet in `lang`: a UTF-8 byte-order
/// mark (so that a spreadsheet reads the names as UTF-8), a header line
/// (`Место;№;Имя;Рейтинг;Разряд;Клуб;Тур 1;…;Очки;<tie-breaks>` in
/// Russian) and a line per row, fields split by `lang`'s separator, CRLF
/// line ends (RFC 4180). `№` is the player's entry number (from 1), the
/// number the printed crosstable shows, and a round's cell names the
/// opponent by it: `5☗+` / `5☖-` / `5☗=` (won, lost, drew against number
/// 5 as Sente ☗ or Gote ☖), `*` after a result by forfeit (a double forfeit
/// is `-*` for both), `5☗` (no result yet), `пропуск 1` / `bye ½` (a bye
/// and its points), empty (not in the event that round). Points and
/// tie-breaks use `lang`'s decimal mark. `info[p]` names player `p`
/// (missing entries leave the fields empty).
#[must_use]
pub fn to_csv(
    table: &Crosstable,
    event: &Event,
    info: &[PlayerInfo],
    order: &[Tiebreak],
    lang: CsvLanguage,
) -> String {
    let sep = lang.separator();
    let words = lang.words();
    let rounds = table.rows.first().map_or(0, |r| r.cells.len());
    let mut header: Vec<String> = words.columns.iter().map(ToString::to_string).collect();
    header.extend((1..=rounds).map(|r| match lang {
        CsvLanguage::Japanese => format!("{}{r}回戦", words.round),
        _ => format!("{}{r}", words.round),
    }));
    header.push(words.points.to_owned());
    header.extend(order.iter().map(|&t| lang.tiebreak(t).to_owned()));
    let mut out = String::from("\u{feff}");
    out.push_str(&header.join(&sep.to_string()));
    out.push_str("\r\n");
    for row in &table.rows {
        let p = row.standing.player;
        let who = info.get(p);
        let mut fields = vec![
            row.standing.rank.to_string(),
            (p + 1).to_string(),
            csv_field(who.map_or("", |i| &i.name), sep),
            who.and_then(|i| i.rating)
                .map_or_else(String::new, |r| r.to_string()),
            csv_field(who.and_then(|i| i.rank.as_deref()).unwrap_or(""), sep),
            csv_field(who.and_then(|i| i.club.as_deref()).unwrap_or(""), sep),
        ];
        fields.extend(row.cells.iter().map(|c| csv_cell(c, event, lang)));
        fields.push(lang.number(row.standing.points.value()));
        fields.extend(row.standing.tiebreaks.iter().map(|&v| lang.number(v)));
        out.push_str(&fields.join(&sep.to_string()));
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
