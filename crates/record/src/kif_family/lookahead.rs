//! The KI2 reading lookahead: a block of moves written without relative
//! markers (some programs omit them) is read as the longest sequence of legal
//! moves, trying the readings of an ambiguous move in a fixed order.

use shogi_core::{Move, Position, Square};

use crate::notation::japanese;

/// One token of a KI2 move line: a move (parsed, with its text) or a terminal word.
pub(crate) enum Ki2Token<'a> {
    Move(japanese::JapaneseMove, &'a str),
    End(&'a str),
}

/// How many alternatives the KI2 lookahead may try in one block of moves.
pub(crate) const LOOKAHEAD_BUDGET: u32 = 64;

/// Puts the readings of an ambiguous move in the order they are tried:
/// orthogonal steps before diagonal ones, then pieces that moved more
/// recently (later in `history`) first.
fn order(cands: &mut [Move], history: &[Square]) {
    cands.sort_by_key(|m| {
        let diagonal = m
            .from()
            .is_some_and(|f| f.file() != m.to().file() && f.rank() != m.to().rank());
        (
            diagonal,
            std::cmp::Reverse(m.from().and_then(|f| history.iter().rposition(|&s| s == f))),
        )
    });
}

/// The reading of `jm` that [`best_reading`] tries first (`None` when it
/// has none): if every move after it in its block has a reading, the
/// readings tried first included, [`best_reading`] keeps these first
/// readings (it stops at the first line that reads to the block's end).
pub(crate) fn first_reading(
    pos: &Position,
    last_to: Option<Square>,
    jm: &japanese::JapaneseMove,
    history: &[Square],
) -> Option<Move> {
    let mut cands = japanese::candidates_few(pos, last_to, jm).ok()?;
    order(cands.as_mut_slice(), history);
    cands.as_slice().first().copied()
}

/// The longest prefix of `toks` that can be read as legal moves from `pos`.
/// Among ambiguous readings, orthogonal steps are tried before diagonal ones, then pieces that
/// moved more recently (later in `history`) first; the first reading under which every
/// following move of the block is legal wins.
pub(crate) fn best_reading(
    pos: &mut Position,
    last_to: Option<Square>,
    toks: &[Ki2Token<'_>],
    budget: &mut u32,
    history: &mut Vec<Square>,
) -> Vec<Move> {
    let base = history.len();
    let mut chosen = Vec::new();
    let mut last_to = last_to;
    let mut undo = Vec::new();
    let mut i = 0;
    let result = loop {
        let Some(Ki2Token::Move(jm, _)) = toks.get(i) else {
            break std::mem::take(&mut chosen);
        };
        let Ok(mut cands) = japanese::candidates_few(pos, last_to, jm) else {
            break std::mem::take(&mut chosen);
        };
        order(cands.as_mut_slice(), history);
        let Some(&first) = cands.as_slice().first() else {
            break std::mem::take(&mut chosen);
        };
        if cands.len() == 1 || *budget == 0 {
            let m = first;
            undo.push((m, pos.make_move(m)));
            history.push(m.to());
            chosen.push(m);
            last_to = Some(m.to());
            i += 1;
            continue;
        }
        let moves_left = toks[i..]
            .iter()
            .take_while(|t| matches!(t, Ki2Token::Move(..)))
            .count();
        let mut best: Vec<Move> = Vec::new();
        for &m in cands.as_slice() {
            *budget = budget.saturating_sub(1);
            let u = pos.make_move(m);
            history.push(m.to());
            let mut line = vec![m];
            line.extend(best_reading(
                pos,
                Some(m.to()),
                &toks[i + 1..],
                budget,
                history,
            ));
            history.pop();
            pos.unmake_move(m, u);
            let complete = line.len() == moves_left;
            if line.len() > best.len() {
                best = line;
            }
            if complete || *budget == 0 {
                break;
            }
        }
        chosen.extend(best);
        break std::mem::take(&mut chosen);
    };
    while let Some((m, u)) = undo.pop() {
        pos.unmake_move(m, u);
    }
    history.truncate(base);
    result
}
