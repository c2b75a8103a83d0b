//! Builds a [`Record`] move by move while a reader walks its text: keeps the
//! position of the line being read, checks legality, and grows variations.

use shogi_core::{HandKind, Leniency, Move, Piece, Position, PositionError, Setup, Square};

use crate::record::{Ending, IllegalMoveInfo, MoveProblem, Node, Record};

/// Whether `setup` is the even start (`*setup == Setup::startpos()`), which
/// most records spell out.
fn is_even_start(setup: &Setup) -> bool {
    static START: std::sync::OnceLock<(Setup, [u8; 81])> = std::sync::OnceLock::new();
    let (start, codes) = START.get_or_init(|| {
        let start = Setup::startpos();
        let codes = start.board.map(code);
        (start, codes)
    });
    // The board compared as small numbers without stopping at the first
    // difference (the derived comparison, square by square, cost over a
    // thousand instructions). Every field is named: a new one would have to
    // be compared here too.
    let Setup {
        board,
        hands,
        side_to_move,
        move_number,
    } = setup;
    let differences = board
        .iter()
        .zip(codes)
        .fold(0, |acc, (&p, &c)| acc | (code(p) ^ c));
    differences == 0
        && *hands == start.hands
        && *side_to_move == start.side_to_move
        && *move_number == start.move_number
}

/// The start a setup read from a record gives, validated leniently (a side
/// may lack its king, as in tsume problems): `None` for the even start,
/// where a [`Builder`] starts already. Validating the even start again was
/// a tenth of reading the CSA records, and copying it into the builder
/// again one more percent.
pub(crate) fn lenient_start(setup: Setup) -> Result<Option<Position>, PositionError> {
    if is_even_start(&setup) {
        return Ok(None);
    }
    Position::from_setup_with(
        setup,
        Leniency {
            allow_missing_kings: true,
        },
    )
    .map(Some)
}

/// A number for what stands on a square, different for each piece.
fn code(p: Option<Piece>) -> u8 {
    p.map_or(0, |p| 1 + 16 * p.color.index() as u8 + p.kind as u8)
}

/// The most main-line moves [`Builder::reserve_main_line`] makes room for.
const MAX_RESERVE: usize = 1024;

/// How deeply variations may nest (deeper ones are refused, which keeps the recursive
/// walks over the tree shallow whatever the input).
const MAX_DEPTH: usize = 64;

struct Cursor {
    /// (node index in the parent line, variation index) from the main line down.
    path: Vec<(usize, usize)>,
    /// Ply number of this line's first node (1-based from the start position).
    start_ply: usize,
    /// Position after the line's last node.
    pos: Position,
    /// Where the last move landed.
    last_to: Option<Square>,
    /// An unplayable move was met: the rest of the line is skipped.
    dead: bool,
}

/// A place in the current line that [`Builder::rewind`] returns to.
pub(crate) struct Mark {
    pos: Position,
    last_to: Option<Square>,
    len: usize,
}

pub(crate) struct Builder {
    pub rec: Record,
    /// The main line's cursor, kept in the builder itself: the position of
    /// nearly every move read is at a fixed place, not behind a vector's
    /// pointer loaded first.
    main: Cursor,
    /// The variations being read, innermost last (none in the main line).
    variations: Vec<Cursor>,
    /// Whether a variation was begun (only then may an empty one be left).
    branched: bool,
}

fn line_at<'a>(moves: &'a [Node], path: &[(usize, usize)]) -> Option<&'a [Node]> {
    let mut line = moves;
    for &(i, v) in path {
        line = line.get(i)?.variations.get(v)?;
    }
    Some(line)
}

fn line_at_mut<'a>(moves: &'a mut Vec<Node>, path: &[(usize, usize)]) -> Option<&'a mut Vec<Node>> {
    let mut line = moves;
    for &(i, v) in path {
        line = line.get_mut(i)?.variations.get_mut(v)?;
    }
    Some(line)
}

/// The cursor of the line being read, from the builder's two cursor fields
/// (so that the record's lines may be borrowed beside it).
fn innermost<'a>(main: &'a mut Cursor, variations: &'a mut [Cursor]) -> &'a mut Cursor {
    match variations.last_mut() {
        Some(c) => c,
        None => main,
    }
}

impl Builder {
    pub fn new(start: Position) -> Builder {
        Builder {
            rec: Record::new(start.clone()),
            main: Cursor {
                path: Vec::new(),
                start_ply: 1,
                pos: start,
                last_to: None,
                dead: false,
            },
            variations: Vec::new(),
            branched: false,
        }
    }

    /// Makes room for about `moves` main-line moves at once (at most
    /// [`MAX_RESERVE`]), rather than growing the line move by move; much
    /// room left over is given back by [`Builder::finish`].
    pub fn reserve_main_line(&mut self, moves: usize) {
        let moves = moves.min(MAX_RESERVE);
        if self.rec.moves.capacity() == 0 {
            // Allocated at once, not through the vector's growth path.
            self.rec.moves = Vec::with_capacity(moves);
        } else {
            self.rec.moves.reserve(moves);
        }
    }

    /// Replaces the start position (only meaningful before any move).
    pub fn set_start(&mut self, start: Position) {
        self.rec.start = start.clone();
        self.rec.moves.clear();
        self.variations.clear();
        let c = &mut self.main;
        c.pos = start;
        c.last_to = None;
        c.dead = false;
    }

    /// The cursor of the line being read: the innermost variation, or the
    /// main line.
    fn top(&self) -> &Cursor {
        self.variations.last().unwrap_or(&self.main)
    }

    fn top_mut(&mut self) -> &mut Cursor {
        innermost(&mut self.main, &mut self.variations)
    }

    /// Whether the main line has a move.
    pub fn has_moves(&self) -> bool {
        !self.rec.moves.is_empty()
    }

    pub fn in_main_line(&self) -> bool {
        self.variations.is_empty()
    }

    pub fn position(&self) -> &Position {
        &self.top().pos
    }

    pub fn last_to(&self) -> Option<Square> {
        self.top().last_to
    }

    pub fn is_dead(&self) -> bool {
        self.top().dead
    }

    fn current_line_mut(&mut self) -> Option<&mut Vec<Node>> {
        // The path is borrowed, not cloned (a clone allocated for every move
        // of a variation).
        let path = &self.variations.last().unwrap_or(&self.main).path;
        line_at_mut(&mut self.rec.moves, path)
    }

    fn current_len(&self) -> usize {
        line_at(&self.rec.moves, &self.top().path).map_or(0, <[Node]>::len)
    }

    /// The ply number the next move of the current line will have.
    pub fn next_ply(&self) -> usize {
        self.top().start_ply + self.current_len()
    }

    /// The destination squares of the moves from the start to the end of the current line.
    pub fn history(&self) -> Vec<Square> {
        let mut out = Vec::new();
        let mut line: &[Node] = &self.rec.moves;
        for &(i, v) in &self.top().path {
            out.extend(line.iter().take(i).map(|n| n.mv.to()));
            match line.get(i).and_then(|n| n.variations.get(v)) {
                Some(l) => line = l,
                None => return out,
            }
        }
        out.extend(line.iter().map(|n| n.mv.to()));
        out
    }

    /// Plays a resolved move (or records why it could not be resolved).
    pub fn push(&mut self, mv: Result<Move, MoveProblem>, text: &str) {
        match mv {
            Ok(m) => self.push_move(m, text),
            Err(problem) => self.push_legal(Err(problem), text),
        }
    }

    /// [`Builder::push`] of a resolved move, taken by value: a reader that
    /// has its move in registers passes it so (built into a `Result` on the
    /// stack byte by byte and read back whole, it stalled the store
    /// forwarding of every CSA move).
    #[inline(always)]
    pub fn push_move(&mut self, m: Move, text: &str) {
        let c = self.top_mut();
        if c.dead {
            return;
        }
        // A legal move (nearly every one) is made once it is checked, its
        // problem asked for only when it has one.
        if c.pos.is_legal(m) {
            self.play(m);
            return;
        }
        self.push_illegal(m, text);
    }

    /// [`Builder::push_move`] of a drop, kept out of line: a reader that
    /// inlines `push_move` for its board moves (most moves) need not hold a
    /// second copy of making a move for its drops.
    #[inline(never)]
    pub fn push_drop(&mut self, kind: HandKind, to: Square, text: &str) {
        self.push_move(Move::Drop { kind, to }, text);
    }

    /// Records why `m`, found illegal, cannot be played.
    #[cold]
    #[inline(never)]
    fn push_illegal(&mut self, m: Move, text: &str) {
        let checked = self.top().pos.check_move(m).map(|()| m);
        self.push_legal(checked.map_err(MoveProblem::from), text);
    }

    /// [`Builder::push_legal`] of a legal move, taken by value (see
    /// [`Builder::push_move`]).
    #[inline(never)]
    pub fn push_legal_move(&mut self, m: Move) {
        if self.top().dead {
            return;
        }
        debug_assert!(
            self.top().pos.is_legal(m),
            "push_legal given an illegal move"
        );
        self.play(m);
    }

    /// [`Builder::push`] for a move already found legal in [`Builder::position`]
    /// (as [`crate::notation::japanese::resolve`] gives them), not checked again.
    pub fn push_legal(&mut self, checked: Result<Move, MoveProblem>, text: &str) {
        if self.top().dead {
            return;
        }
        debug_assert!(
            checked
                .as_ref()
                .map_or(true, |&m| self.top().pos.is_legal(m)),
            "push_legal given an illegal move"
        );
        match checked {
            Ok(m) => self.play(m),
            Err(problem) => {
                let ply = self.next_ply();
                if self.in_main_line() && self.rec.illegal_move.is_none() {
                    self.rec.illegal_move = Some(IllegalMoveInfo {
                        ply,
                        text: text.trim().to_string(),
                        problem,
                    });
                }
                self.top_mut().dead = true;
            }
        }
    }

    /// Makes `m`, a legal move, on the current line.
    #[inline(always)]
    fn play(&mut self, m: Move) {
        // The cursor and the line are borrowed field by field (the methods
        // would borrow the whole builder twice).
        let c = innermost(&mut self.main, &mut self.variations);
        c.pos.make_move(m);
        c.last_to = Some(m.to());
        if let Some(line) = line_at_mut(&mut self.rec.moves, &c.path) {
            line.push(Node::new(m));
        }
    }

    /// Where the current line stands, for [`Builder::rewind`].
    pub fn mark(&self) -> Mark {
        let c = self.top();
        Mark {
            pos: c.pos.clone(),
            last_to: c.last_to,
            len: self.current_len(),
        }
    }

    /// Takes back the moves made on the current line since `mark` was
    /// taken, when nothing but legal moves ([`Builder::push_legal`] with a
    /// move) was added to it since.
    pub fn rewind(&mut self, mark: Mark) {
        if let Some(line) = self.current_line_mut() {
            line.truncate(mark.len);
        }
        let c = self.top_mut();
        c.pos = mark.pos;
        c.last_to = mark.last_to;
    }

    /// Adds a comment to the last move of the current line (or to the start, before any move).
    pub fn comment(&mut self, text: &str) {
        if self.top().dead {
            return;
        }
        let main = self.in_main_line();
        let Some(line) = self.current_line_mut() else {
            return;
        };
        match line.last_mut() {
            Some(n) => n.comments.push(text.to_string()),
            None if main => self.rec.start_comments.push(text.to_string()),
            None => {}
        }
    }

    /// Sets the time of the last move of the current line.
    pub fn time(&mut self, secs: u32) {
        if self.top().dead {
            return;
        }
        if let Some(n) = self.current_line_mut().and_then(|l| l.last_mut()) {
            n.time = Some(secs);
        }
    }

    /// Sets the ending if the current line is the main line.
    pub fn ending(&mut self, ending: Ending) {
        if self.in_main_line() && self.rec.ending == Ending::None {
            self.rec.ending = ending;
        }
    }

    /// The ending read so far.
    pub fn current_ending(&self) -> Ending {
        self.rec.ending
    }

    /// Replaces the ending if the current line is the main line.
    pub fn set_ending(&mut self, ending: Ending) {
        if self.in_main_line() {
            self.rec.ending = ending;
        }
    }

    /// Starts a line whose moves are all skipped (a variation that points nowhere).
    pub fn skip_variation(&mut self) {
        let pos = self.top().pos.clone();
        self.variations.push(Cursor {
            path: vec![(usize::MAX, 0)],
            start_ply: usize::MAX,
            pos,
            last_to: None,
            dead: true,
        });
    }

    /// Starts an alternative to ply `ply` of the main line.
    pub fn begin_main_variation(&mut self, ply: usize) -> bool {
        self.variations.clear();
        self.begin_variation(ply)
    }

    /// Starts an alternative to ply `ply` of the most recent line that has such a ply.
    /// Returns false when no line has it.
    pub fn begin_variation(&mut self, ply: usize) -> bool {
        loop {
            let top = self.top();
            let len = self.current_len();
            let main = self.variations.is_empty();
            let contains = (top.start_ply < ply || (main && top.start_ply <= ply))
                && ply < top.start_ply + len;
            if contains {
                break;
            }
            if main {
                return false;
            }
            self.variations.pop();
        }
        if self.variations.len() + 1 >= MAX_DEPTH {
            return false;
        }
        let (path, start_ply) = {
            let top = self.top();
            (top.path.clone(), top.start_ply)
        };
        let k = ply - start_ply;
        // Replay to the position before node k of this line.
        let mut pos = self.rec.start.clone();
        let mut last_to = None;
        let mut line: &[Node] = &self.rec.moves;
        for &(i, v) in &path {
            for n in line.iter().take(i) {
                pos.make_move(n.mv);
                last_to = Some(n.mv.to());
            }
            match line.get(i).and_then(|n| n.variations.get(v)) {
                Some(l) => line = l,
                None => return false,
            }
        }
        for n in line.iter().take(k) {
            pos.make_move(n.mv);
            last_to = Some(n.mv.to());
        }
        let Some(node) = line_at_mut(&mut self.rec.moves, &path).and_then(|l| l.get_mut(k)) else {
            return false;
        };
        node.variations.push(Vec::new());
        self.branched = true;
        let v = node.variations.len() - 1;
        let mut new_path = path;
        new_path.push((k, v));
        self.variations.push(Cursor {
            path: new_path,
            start_ply: ply,
            pos,
            last_to,
            dead: false,
        });
        true
    }

    /// Drops empty variations and returns the record.
    pub fn finish(mut self) -> Record {
        fn prune(line: &mut [Node]) {
            for n in line {
                n.variations.retain(|v| !v.is_empty());
                for v in &mut n.variations {
                    prune(v);
                }
            }
        }
        if self.branched {
            prune(&mut self.rec.moves);
        }
        // Room over twice what the line needs (a reader reserves for the
        // moves its text could hold at most) is given back; less is kept
        // rather than copied again.
        let moves = &mut self.rec.moves;
        if moves.capacity() > 2 * moves.len() + 16 {
            moves.shrink_to_fit();
        }
        self.rec
    }
}

#[cfg(test)]
mod tests {
    use shogi_core::{Color, HandKind, Leniency, Position, Setup};

    use super::lenient_start;

    fn validated(setup: Setup) -> Result<Position, shogi_core::PositionError> {
        Position::from_setup_with(
            setup,
            Leniency {
                allow_missing_kings: true,
            },
        )
    }

    /// The even start is left to the builder, and only the even start: a
    /// setup that differs in one square, a hand, the side to move or the
    /// move number is validated as it is (and may be refused).
    #[test]
    fn only_the_even_start_is_taken_ready_made() {
        let start = Setup::startpos();
        assert_eq!(lenient_start(start.clone()), Ok(None));
        let mut variants = Vec::new();
        for (i, &p) in start.board.iter().enumerate() {
            let mut s = start.clone();
            match p {
                Some(piece) if piece.kind != shogi_core::PieceKind::King => {
                    s.board[i] = None;
                    variants.push(s.clone());
                    s.board[i] = Some(shogi_core::Piece::new(piece.color.opponent(), piece.kind));
                    variants.push(s);
                }
                _ => {}
            }
        }
        let mut s = start.clone();
        s.hands.sente.add(HandKind::Pawn);
        variants.push(s);
        let mut s = start.clone();
        s.side_to_move = Color::Gote;
        variants.push(s);
        let mut s = start.clone();
        s.move_number = 2;
        variants.push(s);
        for s in variants {
            let got = lenient_start(s.clone());
            assert_ne!(got, Ok(None), "{s:?}");
            assert_ne!(got, Ok(Some(Position::startpos())), "{s:?}");
            assert_eq!(got, validated(s).map(Some));
        }
    }
}
