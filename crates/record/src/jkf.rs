//! JKF, the JSON Kifu Format (`header`, `initial`, `moves` with `move`,
//! `time`, `comments`, `special` and `forks`), read and written with serde.
//!
//! `initial.preset` may be any JKF preset (`HIRATE`, `KY`, `KY_R`, `KA`, `HI`,
//! `HIKY`, `2`, `3`, `4`, `5`, `5_L`, `6`, `7_L`, `7_R`, `8`, `10`) or `OTHER`
//! with `data` (`board[x-1][y-1]`, `hands`, `color`). `special` values are the
//! CSA words without `%` (`TORYO`, `CHUDAN`, `SENNICHITE`, ...).
//!
//! ```
//! let json = r#"{"header":{"先手":"A"},"initial":{"preset":"HIRATE"},"moves":[{},
//!   {"move":{"color":0,"piece":"FU","from":{"x":7,"y":7},"to":{"x":7,"y":6}}},{"special":"TORYO"}]}"#;
//! let rec = shogi_record::jkf::read(json)?;
//! assert_eq!(rec.headers.sente.as_deref(), Some("A"));
//! assert_eq!(rec.main_line(), ["7g7f".parse()?]);
//! assert!(matches!(rec.ending, shogi_record::Ending::Game(shogi_core::Ending::Resignation { .. })));
//! let again = shogi_record::jkf::read(&shogi_record::jkf::write(&rec))?;
//! assert_eq!(again.main_line(), rec.main_line());
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use shogi_core::{
    Color, HandKind, Handicap, Leniency, Move, Piece, PieceKind, Position, Setup, Square,
};

use crate::csa::{piece_kind, special_ending, special_word};
use crate::error::{ReadError, ReadErrorKind};
use crate::record::{Ending, Headers, IllegalMoveInfo, MoveProblem, Node, Record, TimeControl};

#[derive(Serialize, Deserialize, Default)]
struct Jkf {
    #[serde(default)]
    header: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    initial: Option<Initial>,
    #[serde(default)]
    moves: Vec<MoveFormat>,
}

#[derive(Serialize, Deserialize)]
struct Initial {
    preset: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    data: Option<State>,
}

#[derive(Serialize, Deserialize)]
struct State {
    color: u8,
    board: Vec<Vec<Cell>>,
    hands: Vec<BTreeMap<String, u8>>,
}

#[derive(Serialize, Deserialize, Default)]
struct Cell {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    color: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
}

#[derive(Serialize, Deserialize, Default)]
struct MoveFormat {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    comments: Option<Vec<String>>,
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    mv: Option<MoveMove>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    special: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forks: Option<Vec<Vec<MoveFormat>>>,
}

#[derive(Serialize, Deserialize)]
struct MoveMove {
    color: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from: Option<Pos>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    to: Option<Pos>,
    piece: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    same: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    promote: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    capture: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    relative: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Copy)]
struct Pos {
    x: u8,
    y: u8,
}

#[derive(Serialize, Deserialize, Default)]
struct Hms {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    h: Option<u32>,
    #[serde(default)]
    m: u32,
    #[serde(default)]
    s: u32,
}

#[derive(Serialize, Deserialize)]
struct Time {
    now: Hms,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    total: Option<Hms>,
}

const PRESETS: [(&str, Handicap); 16] = [
    ("HIRATE", Handicap::Even),
    ("KY", Handicap::Lance),
    ("KY_R", Handicap::RightLance),
    ("KA", Handicap::Bishop),
    ("HI", Handicap::Rook),
    ("HIKY", Handicap::RookLance),
    ("2", Handicap::TwoPieces),
    ("3", Handicap::ThreePieces),
    ("4", Handicap::FourPieces),
    ("5", Handicap::FivePieces),
    ("5_L", Handicap::LeftFivePieces),
    ("6", Handicap::SixPieces),
    ("7_L", Handicap::LeftSevenPieces),
    ("7_R", Handicap::RightSevenPieces),
    ("8", Handicap::EightPieces),
    ("10", Handicap::TenPieces),
];

fn json_err(msg: impl ToString) -> ReadError {
    ReadError::new(0, 0, "", ReadErrorKind::Json(msg.to_string()))
}

fn color_of(c: u8) -> Color {
    if c == 0 {
        Color::Sente
    } else {
        Color::Gote
    }
}

fn square(p: Pos) -> Option<Square> {
    Square::from_numbers(p.x, p.y)
}

fn start_position(initial: Option<&Initial>) -> Result<Position, ReadError> {
    let Some(init) = initial else {
        return Ok(Position::startpos());
    };
    if let Some((_, h)) = PRESETS.iter().find(|(n, _)| *n == init.preset) {
        return Ok(h.position());
    }
    let data = init
        .data
        .as_ref()
        .ok_or_else(|| json_err(format!("preset {} without data", init.preset)))?;
    let mut setup = Setup::empty();
    setup.side_to_move = color_of(data.color);
    for (x, col) in data.board.iter().enumerate().take(9) {
        for (y, cell) in col.iter().enumerate().take(9) {
            let (Some(c), Some(k)) = (cell.color, cell.kind.as_deref()) else {
                continue;
            };
            let kind = piece_kind(k).ok_or_else(|| json_err(format!("unknown piece {k}")))?;
            if let Some(sq) = Square::from_numbers(x as u8 + 1, y as u8 + 1) {
                setup.set(sq, Some(Piece::new(color_of(c), kind)));
            }
        }
    }
    for (i, hand) in data.hands.iter().enumerate().take(2) {
        let color = color_of(i as u8);
        for (k, &n) in hand {
            let hk = piece_kind(k)
                .and_then(PieceKind::hand_kind)
                .ok_or_else(|| json_err(format!("unknown hand piece {k}")))?;
            setup.hands[color].set(hk, n);
        }
    }
    Position::from_setup_with(
        setup,
        Leniency {
            allow_missing_kings: true,
        },
    )
    .map_err(|e| ReadError::new(0, 0, "initial", ReadErrorKind::Position(e.to_string())))
}

fn to_move(pos: &Position, last_to: Option<Square>, mm: &MoveMove) -> Result<Move, MoveProblem> {
    let to = match mm.to.and_then(square) {
        Some(t) => t,
        None if mm.same == Some(true) => last_to.ok_or(MoveProblem::NoPreviousMove)?,
        None => return Err(MoveProblem::NoMatch),
    };
    let kind = piece_kind(&mm.piece).ok_or(MoveProblem::NoMatch)?;
    let m = match mm.from {
        None => Move::Drop {
            kind: kind
                .hand_kind()
                .filter(|_| !kind.is_promoted())
                .ok_or(MoveProblem::NoMatch)?,
            to,
        },
        Some(p) => Move::Board {
            from: square(p).ok_or(MoveProblem::NoMatch)?,
            to,
            promote: mm.promote == Some(true),
        },
    };
    pos.check_move(m)?;
    Ok(m)
}

struct LineResult {
    nodes: Vec<Node>,
    ending: Ending,
    illegal: Option<IllegalMoveInfo>,
}

/// Reads a line; `moves[0]` is the first move of the line.
fn read_line(
    pos: &Position,
    last_to: Option<Square>,
    start_ply: usize,
    moves: &[MoveFormat],
) -> LineResult {
    let mut pos = pos.clone();
    let mut last_to = last_to;
    let mut out = LineResult {
        nodes: Vec::new(),
        ending: Ending::None,
        illegal: None,
    };
    for (i, mf) in moves.iter().enumerate() {
        if let Some(sp) = &mf.special {
            out.ending = special_ending(sp, pos.side_to_move()).unwrap_or(Ending::None);
            break;
        }
        let Some(mm) = &mf.mv else { continue };
        let before = pos.clone();
        match to_move(&pos, last_to, mm) {
            Ok(m) => {
                let mut node = Node::new(m);
                node.comments = mf.comments.clone().unwrap_or_default();
                node.time = mf
                    .time
                    .as_ref()
                    .map(|t| t.now.h.unwrap_or(0) * 3600 + t.now.m * 60 + t.now.s);
                for fork in mf.forks.iter().flatten() {
                    let sub = read_line(&before, last_to, start_ply + i, fork);
                    if !sub.nodes.is_empty() {
                        node.variations.push(sub.nodes);
                    }
                }
                pos.make_move(m);
                last_to = Some(m.to());
                out.nodes.push(node);
            }
            Err(problem) => {
                let text = serde_json::to_string(mm).unwrap_or_default();
                out.illegal = Some(IllegalMoveInfo {
                    ply: start_ply + i,
                    text,
                    problem,
                });
                break;
            }
        }
    }
    out
}

/// Reads JKF text.
///
/// # Errors
/// Malformed JSON (with its line and column), an unknown preset or piece, or an illegal start position.
pub fn read(text: &str) -> Result<Record, ReadError> {
    let jkf: Jkf = serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
        ReadError::new(e.line(), e.column(), "", ReadErrorKind::Json(e.to_string()))
    })?;
    let start = start_position(jkf.initial.as_ref())?;
    let mut rec = Record::new(start);
    let mut h = Headers::default();
    for (k, v) in jkf.header {
        let opt = (!v.is_empty()).then(|| v.clone());
        match k.as_str() {
            "先手" | "下手" => h.sente = opt,
            "後手" | "上手" => h.gote = opt,
            "棋戦" => h.event = opt,
            "場所" => h.site = opt,
            "開始日時" => h.start_time = opt,
            "終了日時" => h.end_time = opt,
            "持ち時間" if TimeControl::parse_plus(&v).is_some() => {
                h.time_control = TimeControl::parse_plus(&v);
            }
            "手合割" if Handicap::from_kif_name(&v).is_some() => {
                h.handicap = Handicap::from_kif_name(&v);
            }
            _ => h.other.push((k, v)),
        }
    }
    rec.headers = h;
    let (first, rest) = match jkf.moves.split_first() {
        Some((f, r)) if f.mv.is_none() => (Some(f), r),
        _ => (None, jkf.moves.as_slice()),
    };
    if let Some(f) = first {
        rec.start_comments = f.comments.clone().unwrap_or_default();
        if let Some(sp) = &f.special {
            rec.ending = special_ending(sp, rec.start.side_to_move()).unwrap_or(Ending::None);
        }
    }
    let line = read_line(&rec.start, None, 1, rest);
    rec.moves = line.nodes;
    if line.ending != Ending::None {
        rec.ending = line.ending;
    }
    rec.illegal_move = line.illegal;
    Ok(rec)
}

fn pos_of(sq: Square) -> Pos {
    Pos {
        x: sq.file().number(),
        y: sq.rank().number(),
    }
}

fn hms(secs: u32, with_hours: bool) -> Hms {
    if with_hours {
        Hms {
            h: Some(secs / 3600),
            m: secs / 60 % 60,
            s: secs % 60,
        }
    } else {
        Hms {
            h: None,
            m: secs / 60,
            s: secs % 60,
        }
    }
}

fn write_line(
    pos: &Position,
    last_to: Option<Square>,
    line: &[Node],
    totals: [u32; 2],
) -> (Vec<MoveFormat>, Position) {
    let mut pos = pos.clone();
    let mut last_to = last_to;
    let mut totals = totals;
    let mut out = Vec::new();
    for node in line {
        if pos.check_move(node.mv).is_err() {
            break;
        }
        let color = pos.side_to_move();
        let (from, kind, promote) = match node.mv {
            Move::Drop { kind, .. } => (None, kind.piece_kind(), None),
            Move::Board { from, promote, .. } => {
                let k = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
                let can = shogi_core::rules::can_promote(color, k, from, node.mv.to());
                (Some(pos_of(from)), k, can.then_some(promote))
            }
        };
        let to = node.mv.to();
        let capture = pos.piece_at(to).map(|p| p.kind.csa().to_string());
        let mm = MoveMove {
            color: color.index() as u8,
            from,
            to: Some(pos_of(to)),
            piece: kind.csa().to_string(),
            same: (last_to == Some(to)).then_some(true),
            promote,
            capture,
            relative: None,
        };
        let time = node.time.map(|t| {
            totals[color.index()] = totals[color.index()].saturating_add(t);
            Time {
                now: hms(t, false),
                total: Some(hms(totals[color.index()], true)),
            }
        });
        let forks: Vec<Vec<MoveFormat>> = node
            .variations
            .iter()
            .map(|v| write_line(&pos, last_to, v, totals).0)
            .collect();
        out.push(MoveFormat {
            comments: (!node.comments.is_empty()).then(|| node.comments.clone()),
            mv: Some(mm),
            time,
            special: None,
            forks: (!forks.is_empty()).then_some(forks),
        });
        pos.make_move(node.mv);
        last_to = Some(to);
    }
    (out, pos)
}

fn initial(start: &Position) -> Initial {
    if let Some((name, _)) = PRESETS
        .iter()
        .find(|(_, h)| Handicap::from_position(start) == Some(*h))
    {
        return Initial {
            preset: (*name).to_string(),
            data: None,
        };
    }
    let mut board = Vec::new();
    for x in 1..=9u8 {
        let mut col = Vec::new();
        for y in 1..=9u8 {
            let cell = match Square::from_numbers(x, y).and_then(|sq| start.piece_at(sq)) {
                Some(p) => Cell {
                    color: Some(p.color.index() as u8),
                    kind: Some(p.kind.csa().to_string()),
                },
                None => Cell::default(),
            };
            col.push(cell);
        }
        board.push(col);
    }
    let hands = [Color::Sente, Color::Gote]
        .iter()
        .map(|&c| {
            HandKind::ALL
                .iter()
                .map(|&hk| (hk.piece_kind().csa().to_string(), start.hand(c).count(hk)))
                .collect()
        })
        .collect();
    Initial {
        preset: "OTHER".to_string(),
        data: Some(State {
            color: start.side_to_move().index() as u8,
            board,
            hands,
        }),
    }
}

/// Writes `rec` as JKF text.
#[must_use]
pub fn write(rec: &Record) -> String {
    let mut header = BTreeMap::new();
    let h = &rec.headers;
    for (k, v) in [
        ("先手", &h.sente),
        ("後手", &h.gote),
        ("棋戦", &h.event),
        ("場所", &h.site),
        ("開始日時", &h.start_time),
        ("終了日時", &h.end_time),
    ] {
        if let Some(v) = v {
            header.insert(k.to_string(), v.clone());
        }
    }
    if let Some(tc) = h.time_control {
        header.insert("持ち時間".to_string(), tc.to_plus());
    }
    if let Some(hc) = h.handicap {
        header.insert("手合割".to_string(), hc.kif_name().to_string());
    }
    for (k, v) in &h.other {
        header.entry(k.clone()).or_insert_with(|| v.clone());
    }
    let first = MoveFormat {
        comments: (!rec.start_comments.is_empty()).then(|| rec.start_comments.clone()),
        ..MoveFormat::default()
    };
    let (line, end) = write_line(&rec.start, None, &rec.moves, [0, 0]);
    let mut moves = vec![first];
    moves.extend(line);
    if let Some(w) = special_word(rec.ending, end.side_to_move()) {
        moves.push(MoveFormat {
            special: Some(w.to_string()),
            ..MoveFormat::default()
        });
    }
    let jkf = Jkf {
        header,
        initial: Some(initial(&rec.start)),
        moves,
    };
    serde_json::to_string(&jkf).unwrap_or_default()
}
