//! Review annotations: the comments and variations added on the review board,
//! saved with `PUT /api/games/{id}/annotations` and laid over the record
//! whenever it is read (the JSON, KIF, KI2, JKF and CSA downloads).
//!
//! An annotation gives, for each main-line move, its comments and its
//! variations (lines that replace it), plus the comments before the first
//! move. The main line of a game played here never changes (it is the game);
//! an imported record's may ([`MainLine::Free`]): a variation promoted to the
//! main line, or moves added after its end. Every move is checked against the
//! rules core before anything is stored.
//!
//! Who may save: a player of the game (either seat's token, as the game page
//! keeps it) once the game is over, or whoever imported the record (the token
//! `POST /api/import?save=1` answered with). See `docs/PROTOCOL.md`.

use std::str::FromStr;

use shogi_core::{IllegalMove, Move, Position, UsiMoveError};
use shogi_record::{Node, Record};

pub use super::annotated::{AnnotatedNode, Annotations};
use crate::db::Store;
use crate::error::{Error, Problem};
use crate::token;

/// The largest `PUT /api/games/{id}/annotations` body.
pub const MAX_ANNOTATIONS_BYTES: usize = 1024 * 1024;
/// The most variation moves in one record.
pub const MAX_VARIATION_MOVES: usize = 10_000;
/// The longest comment line, in characters.
pub const MAX_COMMENT_CHARS: usize = 2000;

/// What is wrong with an annotation, and where (`at`: `nodes[3].variations[0][2]`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnnotationError {
    /// The main line has a different length from the record's.
    #[error("nodes: the main line has {sent} moves, the record {record}")]
    MainLineLength {
        /// Moves sent.
        sent: usize,
        /// Moves in the record.
        record: usize,
    },
    /// A main-line move differs from the record's.
    #[error("{at}: the main line has {record} here, not {sent:?} (the main line cannot change)")]
    MainLineChanged {
        /// Where.
        at: String,
        /// The record's move.
        record: Move,
        /// The text sent.
        sent: String,
    },
    /// A comment with a line break.
    #[error("{at}: one line per entry")]
    LineBreak {
        /// Where.
        at: String,
    },
    /// A comment over [`MAX_COMMENT_CHARS`].
    #[error("{at}: longer than {MAX_COMMENT_CHARS} characters")]
    TooLong {
        /// Where.
        at: String,
    },
    /// A variation without moves.
    #[error("{at}: an empty variation")]
    EmptyVariation {
        /// Where.
        at: String,
    },
    /// A variation that starts with the move it replaces.
    #[error("{at}: repeats the move {mv} it replaces")]
    RepeatsMove {
        /// Where.
        at: String,
        /// The move.
        mv: Move,
    },
    /// Text that is not a USI move.
    #[error("{at}: bad move {text:?}: {error}")]
    Unreadable {
        /// Where.
        at: String,
        /// The text.
        text: String,
        /// Why it is not a move.
        error: UsiMoveError,
    },
    /// A move that is illegal where it is played.
    #[error("{at}: {mv} is not legal here: {reason}")]
    Illegal {
        /// Where.
        at: String,
        /// The move.
        mv: Move,
        /// The rule it breaks.
        reason: IllegalMove,
    },
    /// More than [`MAX_VARIATION_MOVES`] variation moves in all.
    #[error("more than {MAX_VARIATION_MOVES} variation moves")]
    TooManyMoves,
}

fn check_comments(comments: &[String], at: &str) -> Result<(), AnnotationError> {
    for (i, c) in comments.iter().enumerate() {
        let at = || format!("{at}.comments[{i}]");
        if c.contains(['\n', '\r']) {
            return Err(AnnotationError::LineBreak { at: at() });
        }
        if c.chars().count() > MAX_COMMENT_CHARS {
            return Err(AnnotationError::TooLong { at: at() });
        }
    }
    Ok(())
}

/// The variations of a node played from `pos`, checked move by move.
fn variations(
    pos: &Position,
    replaced: Move,
    lines: &[Vec<AnnotatedNode>],
    at: &str,
    budget: &mut usize,
) -> Result<Vec<Vec<Node>>, AnnotationError> {
    let mut out = Vec::with_capacity(lines.len());
    for (v, line_nodes) in lines.iter().enumerate() {
        let here = format!("{at}.variations[{v}]");
        let Some(first) = line_nodes.first() else {
            return Err(AnnotationError::EmptyVariation { at: here });
        };
        if first.usi == replaced.to_string() {
            return Err(AnnotationError::RepeatsMove {
                at: here,
                mv: replaced,
            });
        }
        out.push(line(pos, line_nodes, &here, budget)?);
    }
    Ok(out)
}

/// A line of moves from `pos`, each checked against the rules.
fn line(
    pos: &Position,
    nodes: &[AnnotatedNode],
    at: &str,
    budget: &mut usize,
) -> Result<Vec<Node>, AnnotationError> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(nodes.len());
    for (i, n) in nodes.iter().enumerate() {
        let here = format!("{at}[{i}]");
        *budget = budget.checked_sub(1).ok_or(AnnotationError::TooManyMoves)?;
        let mv = Move::from_str(&n.usi).map_err(|error| AnnotationError::Unreadable {
            at: here.clone(),
            text: n.usi.clone(),
            error,
        })?;
        pos.check_move(mv)
            .map_err(|reason| AnnotationError::Illegal {
                at: here.clone(),
                mv,
                reason,
            })?;
        check_comments(&n.comments, &here)?;
        let mut node = Node::new(mv);
        node.comments.clone_from(&n.comments);
        node.variations = variations(&pos, mv, &n.variations, &here, budget)?;
        pos.make_move(mv);
        out.push(node);
    }
    Ok(out)
}

/// Whether an annotation may change the record's main line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MainLine {
    /// The main line is the game played here: it must be sent unchanged.
    Fixed,
    /// An imported record: the main line sent replaces the file's (each
    /// move checked); a changed main line drops the file's ending.
    Free,
}

/// Whether `ann` keeps `rec`'s main line move for move.
#[must_use]
pub fn keeps_main_line(rec: &Record, ann: &Annotations) -> bool {
    ann.nodes.len() == rec.moves.len()
        && ann
            .nodes
            .iter()
            .zip(&rec.moves)
            .all(|(a, n)| a.usi == n.mv.to_string())
}

/// `rec` with the comments and variations of `ann` instead of its own (and,
/// with [`MainLine::Free`], its main line).
///
/// # Errors
/// What is wrong with `ann`, naming the place (`nodes[3].variations[0][2]`):
/// a main line that differs from the record's (with [`MainLine::Fixed`]), an
/// illegal or unreadable move, an empty variation, a comment with a line break.
pub fn apply(rec: &Record, ann: &Annotations, main: MainLine) -> Result<Record, AnnotationError> {
    if main == MainLine::Free && !keeps_main_line(rec, ann) {
        check_comments(&ann.start_comments, "start")?;
        let mut out = rec.clone();
        out.start_comments.clone_from(&ann.start_comments);
        let mut budget = MAX_VARIATION_MOVES.saturating_add(ann.nodes.len());
        out.moves = line(&rec.start, &ann.nodes, "nodes", &mut budget)?;
        // The file's ending (a resignation after its last move) no longer ends this line.
        out.ending = shogi_record::Ending::None;
        out.illegal_move = None;
        return Ok(out);
    }
    if ann.nodes.len() != rec.moves.len() {
        return Err(AnnotationError::MainLineLength {
            sent: ann.nodes.len(),
            record: rec.moves.len(),
        });
    }
    check_comments(&ann.start_comments, "start")?;
    let mut out = rec.clone();
    out.start_comments.clone_from(&ann.start_comments);
    let mut pos = rec.start.clone();
    let mut budget = MAX_VARIATION_MOVES;
    for (i, (node, a)) in out.moves.iter_mut().zip(&ann.nodes).enumerate() {
        let here = format!("nodes[{i}]");
        if a.usi != node.mv.to_string() {
            return Err(AnnotationError::MainLineChanged {
                at: here,
                record: node.mv,
                sent: a.usi.clone(),
            });
        }
        check_comments(&a.comments, &here)?;
        node.comments.clone_from(&a.comments);
        node.variations = variations(&pos, node.mv, &a.variations, &here, &mut budget)?;
        pos.make_move(node.mv);
    }
    Ok(out)
}

/// Whether `token` may annotate `id`: a seat token of a finished game, or
/// the owner token of an imported record.
///
/// # Errors
/// [`Error::NotFound`] for an unknown id; [`Error::Forbidden`] for a wrong
/// token; [`Error::Conflict`] for a game in progress.
pub async fn authorize(store: &Store, id: &str, token: &str) -> Result<(), Error> {
    let forbidden = |why: &str| Error::Forbidden(why.to_string());
    if let Some(game) = store.game_seats(id).await? {
        let seats = [&game.tokens.sente, &game.tokens.gote];
        if !seats
            .iter()
            .copied()
            .flatten()
            .any(|t| token::same(t, token))
        {
            return Err(forbidden("only the game's players may annotate it (token)"));
        }
        if !game.over {
            return Err(Problem::GameInProgress.into());
        }
        return Ok(());
    }
    match store.record_owner(id).await?.ok_or(Error::NotFound)? {
        Some(t) if token::same(&t, token) => Ok(()),
        Some(_) => Err(forbidden(
            "only whoever imported the record may annotate it (token)",
        )),
        None => Err(forbidden("this record was imported without an owner token")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(usi: &str) -> AnnotatedNode {
        AnnotatedNode {
            usi: usi.into(),
            ..AnnotatedNode::default()
        }
    }

    fn record() -> Record {
        shogi_record::usi::read("position startpos moves 7g7f 3c3d 2g2f").unwrap()
    }

    #[test]
    fn a_variation_and_a_comment_are_laid_over_the_main_line() {
        let mut second = node("3c3d");
        second.comments = vec!["a comment".into()];
        second.variations = vec![vec![node("8c8d"), node("2g2f")]];
        let ann = Annotations {
            start_comments: vec!["before".into()],
            nodes: vec![node("7g7f"), second, node("2g2f")],
        };
        let rec = apply(&record(), &ann, MainLine::Fixed).unwrap();
        assert_eq!(rec.start_comments, ["before"]);
        assert_eq!(rec.moves[1].comments, ["a comment"]);
        assert_eq!(rec.moves[1].variations[0].len(), 2);
        let kif = rec.to_kif();
        assert!(kif.contains("変化：2手"), "{kif}");
        assert!(kif.contains("*a comment"), "{kif}");
    }

    #[test]
    fn an_illegal_variation_move_is_named() {
        let mut second = node("3c3d");
        second.variations = vec![vec![node("8c8d"), node("2g2e")]];
        let ann = Annotations {
            start_comments: vec![],
            nodes: vec![node("7g7f"), second, node("2g2f")],
        };
        let e = apply(&record(), &ann, MainLine::Fixed).unwrap_err();
        assert!(
            matches!(&e, AnnotationError::Illegal { at, .. } if at == "nodes[1].variations[0][1]"),
            "{e:?}"
        );
        assert!(
            e.to_string().starts_with("nodes[1].variations[0][1]: 2g2e"),
            "{e}"
        );
    }

    #[test]
    fn the_main_line_cannot_change() {
        let ann = Annotations {
            start_comments: vec![],
            nodes: vec![node("7g7f"), node("8c8d"), node("2g2f")],
        };
        assert!(apply(&record(), &ann, MainLine::Fixed)
            .unwrap_err()
            .to_string()
            .contains("main line"));
        let short = Annotations {
            start_comments: vec![],
            nodes: vec![node("7g7f")],
        };
        assert!(apply(&record(), &short, MainLine::Fixed).is_err());
    }

    #[test]
    fn an_imported_records_main_line_may_be_promoted_or_extended() {
        // 3c3d's variation 8c8d 2g2f promoted: the old line becomes its variation.
        let mut second = node("8c8d");
        second.variations = vec![vec![node("3c3d"), node("2g2f")]];
        let ann = Annotations {
            start_comments: vec![],
            nodes: vec![node("7g7f"), second, node("2g2f"), node("3a3b")],
        };
        let mut rec = record();
        rec.ending = shogi_record::Ending::Game(shogi_core::Ending::Resignation {
            loser: shogi_core::Color::Sente,
        });
        assert!(apply(&rec, &ann, MainLine::Fixed).is_err());
        let out = apply(&rec, &ann, MainLine::Free).unwrap();
        let main: Vec<String> = out.moves.iter().map(|n| n.mv.to_string()).collect();
        assert_eq!(main, ["7g7f", "8c8d", "2g2f", "3a3b"]);
        assert_eq!(out.moves[1].variations[0].len(), 2);
        assert_eq!(out.ending, shogi_record::Ending::None);
        // An illegal main-line move is named like any other.
        let bad = Annotations {
            start_comments: vec![],
            nodes: vec![node("7g7f"), node("7g7f")],
        };
        let e = apply(&rec, &bad, MainLine::Free).unwrap_err();
        assert!(
            matches!(&e, AnnotationError::Illegal { at, .. } if at == "nodes[1]"),
            "{e:?}"
        );
        // The same main line keeps the file's ending.
        let same = Annotations {
            start_comments: vec![],
            nodes: vec![node("7g7f"), node("3c3d"), node("2g2f")],
        };
        assert_eq!(
            apply(&rec, &same, MainLine::Free).unwrap().ending,
            rec.ending
        );
    }

    #[test]
    fn comments_are_one_line_each() {
        let mut first = node("7g7f");
        first.comments = vec!["two\nlines".into()];
        let ann = Annotations {
            start_comments: vec![],
            nodes: vec![first, node("3c3d"), node("2g2f")],
        };
        assert_eq!(
            apply(&record(), &ann, MainLine::Fixed).unwrap_err(),
            AnnotationError::LineBreak {
                at: "nodes[0].comments[0]".into()
            }
        );
    }
}
