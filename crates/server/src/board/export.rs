//! The analysis board's export: a start position, a main line and
//! variations off it (one level deep, as USEN and the share link hold them)
//! checked move by move and written as a record (KIF, KI2, CSA, the USI
//! `position` line or USEN) by `shogi-record`'s writers.
//!
//! ```
//! use shogi_server::board::export::{record, Variation};
//! use shogi_record::Format;
//! let start = shogi_core::Position::startpos();
//! let main = ["7g7f", "3c3d"].map(|m| m.parse().unwrap());
//! let var = Variation { at: 1, moves: vec!["8c8d".parse().unwrap()] };
//! let rec = record(start, &main, &[var])?;
//! assert_eq!(shogi_record::write(&rec, Format::Usi), "position startpos moves 7g7f 3c3d");
//! assert_eq!(shogi_record::write(&rec, Format::Usen), "~0.7ku2jm.~1.36e.");
//! # Ok::<_, shogi_server::board::export::ExportError>(())
//! ```

use shogi_core::{Move, Position};
use shogi_record::{Format, Node, Record};

/// The most moves of an export, the main line and the variations together.
pub const MAX_MOVES: usize = 2000;
/// The most variations of an export.
pub const MAX_VARIATIONS: usize = 100;

/// A line replacing a move of the main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// How many main-line moves come before it (its first move replaces move `at + 1`).
    pub at: usize,
    /// The moves.
    pub moves: Vec<Move>,
}

/// Why a line cannot be exported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// More than [`MAX_MOVES`] moves or [`MAX_VARIATIONS`] variations.
    #[error("too long: at most {MAX_MOVES} moves and {MAX_VARIATIONS} variations")]
    TooLong,
    /// A move that is not legal where it is played.
    #[error("{line}[{index}]: {mv} is not legal")]
    Illegal {
        /// `moves`, or `variations[i]`.
        line: String,
        /// Its index in the line (0-based).
        index: usize,
        /// The move.
        mv: Move,
    },
    /// A variation that does not replace a main-line move.
    #[error("variations[{0}]: at is past the main line's end")]
    BadOffset(usize),
}

/// The nodes of `moves` played from `pos`, each checked.
fn nodes(mut pos: Position, moves: &[Move], line: &str) -> Result<Vec<Node>, ExportError> {
    let mut out = Vec::with_capacity(moves.len());
    for (index, &mv) in moves.iter().enumerate() {
        if !pos.is_legal(mv) {
            return Err(ExportError::Illegal {
                line: line.to_string(),
                index,
                mv,
            });
        }
        pos.make_move(mv);
        out.push(Node::new(mv));
    }
    Ok(out)
}

/// The record of `main` from `start` with `variations` off its moves.
///
/// # Errors
/// [`ExportError`]: too long, an illegal move, a variation off the end.
pub fn record(
    start: Position,
    main: &[Move],
    variations: &[Variation],
) -> Result<Record, ExportError> {
    let total = main.len() + variations.iter().map(|v| v.moves.len()).sum::<usize>();
    if total > MAX_MOVES || variations.len() > MAX_VARIATIONS {
        return Err(ExportError::TooLong);
    }
    let mut rec = Record::new(start.clone());
    rec.moves = nodes(start.clone(), main, "moves")?;
    for (i, v) in variations.iter().enumerate() {
        if v.at >= main.len() || v.moves.is_empty() {
            return Err(ExportError::BadOffset(i));
        }
        let mut pos = start.clone();
        for &mv in &main[..v.at] {
            pos.make_move(mv);
        }
        let line = nodes(pos, &v.moves, &format!("variations[{i}]"))?;
        rec.moves[v.at].variations.push(line);
    }
    Ok(rec)
}

/// The format a name asks for: `kif`, `ki2`, `csa`, `sfen` (the USI
/// `position` line) or `usen`; with its file extension.
#[must_use]
pub fn format(name: &str) -> Option<(Format, &'static str)> {
    Some(match name {
        "kif" => (Format::Kif, "kif"),
        "ki2" => (Format::Ki2, "ki2"),
        "csa" => (Format::Csa, "csa"),
        "sfen" | "usi" => (Format::Usi, "usi"),
        "usen" => (Format::Usen, "usen"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn a_variation_is_written_in_kif_after_the_main_line() {
        let main = [mv("7g7f"), mv("3c3d"), mv("2g2f")];
        let var = Variation {
            at: 1,
            moves: vec![mv("8c8d"), mv("2g2f")],
        };
        let rec = record(Position::startpos(), &main, &[var]).unwrap();
        let kif = shogi_record::write(&rec, Format::Kif);
        assert!(kif.contains("変化：2手"), "{kif}");
        // Read back, the record has the same lines.
        let back = shogi_record::read_str_as(&kif, Format::Kif).unwrap();
        assert_eq!(back.main_line(), main.to_vec());
        assert_eq!(back.moves[1].variations[0].len(), 2);
    }

    #[test]
    fn an_illegal_move_is_named_with_its_line_and_index() {
        let e = record(Position::startpos(), &[mv("7g7f"), mv("7f7e")], &[]).unwrap_err();
        assert_eq!(e.to_string(), "moves[1]: 7f7e is not legal");
        let var = Variation {
            at: 0,
            moves: vec![mv("2g2f"), mv("2f2e")],
        };
        let e = record(Position::startpos(), &[mv("7g7f")], &[var]).unwrap_err();
        assert_eq!(e.to_string(), "variations[0][1]: 2f2e is not legal");
    }

    #[test]
    fn a_variation_past_the_end_is_refused() {
        let var = Variation {
            at: 1,
            moves: vec![mv("3c3d")],
        };
        assert_eq!(
            record(Position::startpos(), &[mv("7g7f")], &[var]),
            Err(ExportError::BadOffset(0))
        );
    }

    #[test]
    fn csa_of_a_position_keeps_its_hands() {
        let start = shogi_core::sfen::parse_position("4k4/9/9/9/9/9/9/9/4K4 b 2Gp 1").unwrap();
        let rec = record(start, &[mv("G*5b")], &[]).unwrap();
        let csa = shogi_record::write(&rec, Format::Csa);
        assert!(csa.contains("P+00KI00KI"), "{csa}");
        assert!(csa.contains("+0052KI"), "{csa}");
    }
}

/// The strings of these tests are pasted into the client's USEN unit test
/// (`web/tests/unit-analysis.ts`), so both codecs agree on them.
#[cfg(test)]
mod usen_vectors {
    use super::*;

    fn usen(sfen: &str, main: &[&str], vars: &[(usize, &[&str])]) -> String {
        let pos = shogi_core::sfen::parse_position(sfen).unwrap();
        let main: Vec<Move> = main.iter().map(|m| m.parse().unwrap()).collect();
        let vars: Vec<Variation> = vars
            .iter()
            .map(|(at, ms)| Variation {
                at: *at,
                moves: ms.iter().map(|m| m.parse().unwrap()).collect(),
            })
            .collect();
        let s = shogi_record::write(&record(pos, &main, &vars).unwrap(), Format::Usen);
        // And the Rust reader gives the same lines back.
        let back = shogi_record::usen::read(&s).unwrap();
        assert_eq!(back.main_line(), main);
        s
    }

    #[test]
    fn vectors_for_the_client() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        assert_eq!(
            usen(
                start,
                &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"],
                &[(1, &["8c8d", "2g2f"]), (3, &["8b2b"])]
            ),
            "~0.7ku2jm8rl09kbxo.~1.36e6y2.~3.20k."
        );
        assert_eq!(
            usen(
                "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                &["3c3d", "7g7f"],
                &[]
            ),
            "lnsgkgsnl_7b1_ppppppppp_9_9_9_PPPPPPPPP_1B5R1_LNSGKGSNL.w.-~0.2jm7ku."
        );
        assert_eq!(
            usen(
                "4k4/9/9/9/9/9/9/9/4K4 b 2Gp 1",
                &["G*5b", "5a5b", "G*5c"],
                &[(0, &["G*6b"])]
            ),
            "4k4_9_9_9_9_9_9_9_4K4.b.2Gp~0.b9q0iqba8.~0.b9s."
        );
    }
}
