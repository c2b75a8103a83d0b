//! The crosstable, its CSV and the rating report, on the Swiss example of
//! docs/TIEBREAKS.md (places: B 1, A 2, F 3, E 4, D 5, C 6 by SOS).

mod common;

use common::{board, event, round, swiss_example};
use shogi_tournament::crosstable::{
    crosstable, federation_report, to_csv, Cell, CellOutcome, CsvLanguage, PlayerInfo, ReportHeader,
};
use shogi_tournament::standings::Tiebreak;
use shogi_tournament::{ByeKind, Format, GameResult, Side};

const ORDER: [Tiebreak; 2] = [Tiebreak::Sos, Tiebreak::Sosos];

fn info() -> Vec<PlayerInfo> {
    vec![
        PlayerInfo {
            name: "Иванов Иван".into(),
            rating: Some(1650),
            rank: Some("1d".into()),
            club: Some("SPb".into()),
            country: None,
        },
        PlayerInfo {
            name: "Петренко Олег Ігорович".into(),
            rating: None,
            rank: Some("2k".into()),
            club: Some("Київ".into()),
            country: Some("UA".into()),
        },
        PlayerInfo::named("羽生 善治"),
        PlayerInfo {
            name: "Smith, John".into(),
            rating: Some(1200),
            rank: None,
            club: Some("Go; Shogi club".into()),
            country: Some("GB".into()),
        },
        PlayerInfo::named("Doe \"JD\" Jane"),
        // Player F (5) has no info.
    ]
}

#[test]
fn rows_follow_the_standings_and_cells_the_rounds() {
    let table = crosstable(&swiss_example(), &ORDER);
    let players: Vec<usize> = table.rows.iter().map(|r| r.standing.player).collect();
    assert_eq!(players, [1, 0, 5, 4, 3, 2]);
    let d = &table.rows[4];
    assert_eq!(
        d.cells,
        [
            Cell {
                opponent: Some(0),
                side: Some(Side::Gote),
                outcome: CellOutcome::Loss
            },
            Cell {
                opponent: Some(1),
                side: Some(Side::Sente),
                outcome: CellOutcome::ForfeitLoss
            },
            Cell {
                opponent: Some(2),
                side: Some(Side::Gote),
                outcome: CellOutcome::Loss
            },
            Cell {
                opponent: None,
                side: None,
                outcome: CellOutcome::Bye(ByeKind::Pairing)
            },
            Cell {
                opponent: Some(4),
                side: Some(Side::Sente),
                outcome: CellOutcome::Win
            },
        ]
    );
}

#[test]
fn pending_and_absent_cells() {
    let mut e = event(
        Format::Swiss,
        3,
        vec![round(vec![board(0, 1, GameResult::Draw)], vec![])],
    );
    e.played[0].boards[0].result = None;
    let table = crosstable(&e, &[]);
    let by_player = |p: usize| {
        table
            .rows
            .iter()
            .find(|r| r.standing.player == p)
            .unwrap()
            .cells[0]
    };
    assert_eq!(by_player(1).outcome, CellOutcome::Pending);
    assert_eq!(by_player(2).outcome, CellOutcome::Absent);
}

#[test]
fn csv_header_and_rows() {
    let e = swiss_example();
    let table = crosstable(&e, &ORDER);
    let csv = to_csv(&table, &e, &info(), &ORDER, CsvLanguage::English);
    let lines: Vec<&str> = csv.split("\r\n").collect();
    assert_eq!(
        lines[0],
        "\u{feff}Place,No,Name,Rating,Rank,Club,Round 1,Round 2,Round 3,Round 4,Round 5,Points,Buchholz,sosos"
    );
    // Rows in standings order: B (No 2), A (1), F (6), E (5), D (4), C (3).
    // B: drew E (No 5) as Sente, won by forfeit against D (No 4) as Gote,
    // drew A, beat C, drew F.
    assert_eq!(
        lines[1],
        "1,2,Петренко Олег Ігорович,,2k,Київ,5☗=,4☖+*,1☖=,3☗+,6☗=,3.5,13.5,66.5"
    );
    assert_eq!(
        lines[2],
        "2,1,Иванов Иван,1650,1d,SPb,4☗+,6☖+,2☗=,5☖-,3☗+,3.5,12,65.5"
    );
    // F: no info; the half-point bye in round 4.
    assert_eq!(lines[3], "3,6,,,,,3☖+,1☗-,5☗+,bye ½,2☖=,3,13.5,66.5");
    // D: quoted name (RFC 4180), forfeit loss, pairing bye (a point in Swiss).
    assert_eq!(
        lines[5],
        "5,4,\"Smith, John\",1200,,Go; Shogi club,1☖-,2☗-*,3☖-,bye 1,5☗+,2,11,61.5"
    );
    assert_eq!(
        lines[4],
        "4,5,\"Doe \"\"JD\"\" Jane\",,,,2☖=,3☗+,6☖-,1☗+,4☖-,2.5,13,64.5"
    );
    assert_eq!(lines.len(), 8); // header, 6 rows, the empty rest after the last CRLF
    assert_eq!(lines[7], "");
}

#[test]
fn csv_in_russian_splits_at_semicolons_with_decimal_commas() {
    let e = swiss_example();
    let table = crosstable(&e, &ORDER);
    let csv = to_csv(&table, &e, &info(), &ORDER, CsvLanguage::Russian);
    assert!(
        csv.as_bytes().starts_with(&[0xEF, 0xBB, 0xBF]),
        "the UTF-8 byte-order mark"
    );
    let lines: Vec<&str> = csv.split("\r\n").collect();
    assert_eq!(
        lines[0],
        "\u{feff}Место;№;Имя;Рейтинг;Разряд;Клуб;Тур 1;Тур 2;Тур 3;Тур 4;Тур 5;Очки;Бух.;ББ"
    );
    assert_eq!(
        lines[1],
        "1;2;Петренко Олег Ігорович;;2k;Київ;5☗=;4☖+*;1☖=;3☗+;6☗=;3,5;13,5;66,5"
    );
    // A comma is no separator here; a semicolon in a club is quoted.
    assert_eq!(
        lines[5],
        "5;4;Smith, John;1200;;\"Go; Shogi club\";1☖-;2☗-*;3☖-;пропуск 1;5☗+;2;11;61,5"
    );
    assert_eq!(CsvLanguage::from_code("uk"), Some(CsvLanguage::Ukrainian));
    assert_eq!(CsvLanguage::from_code("de"), None);
}

#[test]
fn csv_text_typed_by_people_is_never_a_formula() {
    let e = event(
        Format::RoundRobin { double: false },
        4,
        vec![round(
            vec![
                board(0, 1, GameResult::SenteWin),
                board(2, 3, GameResult::Draw),
            ],
            vec![],
        )],
    );
    let table = crosstable(&e, &[]);
    let typed = [
        "=HYPERLINK(\"http://x\")",
        "@SUM(A1)",
        "+7 club",
        "-1",
        "\tTab",
    ];
    let info: Vec<PlayerInfo> = (0..4)
        .map(|i| PlayerInfo {
            name: typed[i].into(),
            club: Some(typed[4 - i].into()),
            ..PlayerInfo::default()
        })
        .collect();
    let csv = to_csv(&table, &e, &info, &[], CsvLanguage::English);
    for line in csv.split("\r\n").skip(1).filter(|l| !l.is_empty()) {
        let name = line
            .split(',')
            .nth(2)
            .unwrap_or_default()
            .trim_start_matches('"');
        assert!(name.starts_with('\''), "neutralised name: {line}");
        assert!(
            !line.contains(",=")
                && !line.contains(",@")
                && !line.contains(",+")
                && !line.contains(",-")
        );
    }
}

#[test]
fn federation_report_grid() {
    let e = swiss_example();
    let table = crosstable(&e, &ORDER);
    let header = ReportHeader {
        name: "Рождественский турнир".into(),
        city: "Санкт-Петербург".into(),
        country: "RU".into(),
        starts: "2026-12-25".into(),
        ends: "2026-12-26".into(),
        class: Some('C'),
        minutes: Some(30),
    };
    let report = federation_report(&table, &e, &info(), &header);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines[0], "; EV[Rozhdestvenskii turnir]");
    assert_eq!(lines[1], "; PC[RU,Sankt-Peterburg]");
    assert_eq!(lines[2], "; DT[2026-12-25,2026-12-26]");
    assert_eq!(lines[3], "; CL[C]");
    assert_eq!(lines[4], "; TM[30]");
    assert_eq!(lines[5], "; shogi, 5 rounds");
    let fields: Vec<Vec<&str>> = lines[6..]
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(fields.len(), 6);
    assert_eq!(
        fields[0],
        [
            "1",
            "Petrenko",
            "Oleh_Ihorovych",
            "2k",
            "UA",
            "Kyiv",
            "4=/b",
            "0+",
            "2=/w",
            "6+/b",
            "3=/b"
        ]
    );
    assert_eq!(
        fields[1],
        ["2", "Ivanov", "Ivan", "1d", "RU", "SPb", "5+/b", "3+/w", "1=/b", "4-/w", "6+/b"]
    );
    assert_eq!(
        fields[2],
        ["3", "-", "-", "-", "RU", "-", "6+/w", "2-/b", "4+/b", "0=", "1=/w"]
    );
    assert_eq!(
        fields[4],
        [
            "5",
            "Smith,",
            "John",
            "-",
            "GB",
            "Go__Shogi_club",
            "2-/w",
            "0-",
            "6-/w",
            "0+",
            "4+/b"
        ]
    );
    assert_eq!(
        fields[5],
        ["6", "羽生", "善治", "-", "RU", "-", "3-/b", "4-/w", "5+/b", "1-/w", "2-/w"]
    );
}

#[test]
fn report_grade_falls_back_to_the_event_grade() {
    let mut e = event(
        Format::Swiss,
        2,
        vec![round(vec![board(0, 1, GameResult::GoteWin)], vec![])],
    );
    e.players[0].grade = Some(-2);
    e.players[1].grade = Some(3);
    let table = crosstable(&e, &[]);
    let report = federation_report(&table, &e, &[], &ReportHeader::default());
    let grades: Vec<&str> = report
        .lines()
        .filter(|l| !l.starts_with(';'))
        .map(|l| l.split_whitespace().nth(3).unwrap())
        .collect();
    assert_eq!(grades, ["3d", "3k"]);
}

proptest::proptest! {
    #[test]
    fn the_two_cells_of_a_game_agree(e in common::arb_event()) {
        let table = crosstable(&e, &[Tiebreak::Sos]);
        let row = |p: usize| table.rows.iter().find(|r| r.standing.player == p).unwrap();
        for r in &table.rows {
            for (i, c) in r.cells.iter().enumerate() {
                let Some(q) = c.opponent else { continue };
                let other = row(q).cells[i];
                proptest::prop_assert_eq!(other.opponent, Some(r.standing.player));
                proptest::prop_assert_eq!(other.side, c.side.map(Side::opponent));
                let mirror = match c.outcome {
                    CellOutcome::Win => CellOutcome::Loss,
                    CellOutcome::Loss => CellOutcome::Win,
                    CellOutcome::ForfeitWin => CellOutcome::ForfeitLoss,
                    CellOutcome::ForfeitLoss => CellOutcome::ForfeitWin,
                    o => o,
                };
                proptest::prop_assert_eq!(other.outcome, mirror);
            }
        }
        // Every row has a cell per round, and the CSV a line per row.
        proptest::prop_assert!(table.rows.iter().all(|r| r.cells.len() == e.played.len()));
        let csv = to_csv(&table, &e, &[], &[Tiebreak::Sos], CsvLanguage::Ukrainian);
        proptest::prop_assert_eq!(csv.split("\r\n").count(), table.rows.len() + 2);
    }
}
