//! Legal move generation.
//!
//! One generator, generic over a [`MoveSink`], serves both the move list and
//! the move count used for bulk counting in perft: the count sink adds up the
//! legal moves of a piece with popcounts instead of listing them, so the two
//! can never disagree about what is legal.
//!
//! Legality is decided while generating, without trying moves: pinned pieces
//! move only along their pin line; in check, other pieces only capture the
//! checker or block, and drops only block; in double check only the king
//! moves; the king never steps onto an attacked square (judged without the
//! king on the board, so it cannot hide behind itself). Drops obey nifu, the
//! dead ranks and uchifuzume.
//!
//! ```
//! use shogi_core::Position;
//! let pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 30);
//! assert_eq!(pos.count_legal_moves(), 30);
//! ```

use crate::attacks;
use crate::{Bitboard, Color, HandKind, Move, MoveList, PieceKind, Position, Square};

/// Receives legal moves in groups: one piece's destinations, the pawns'
/// destinations, or one kind's drop squares.
pub(crate) trait MoveSink {
    /// Moves of the piece of `kind` on `from` to each square of `targets`,
    /// with promotion choices by the rules.
    fn piece(&mut self, us: Color, kind: PieceKind, from: Square, targets: Bitboard);
    /// Pawn moves one step forward to each square of `targets`.
    fn pawns(&mut self, us: Color, targets: Bitboard);
    /// Drops of `kind` on each square of `targets`.
    fn drops(&mut self, kind: HandKind, targets: Bitboard);
}

/// [`Position::generate_to`]'s move sets.
const ALL: u8 = 0;
const CAPTURES: u8 = 1;
const QUIETS: u8 = 2;

struct ListSink<'a>(&'a mut MoveList);

impl MoveSink for ListSink<'_> {
    #[inline(always)]
    fn piece(&mut self, us: Color, kind: PieceKind, from: Square, targets: Bitboard) {
        let zone = Bitboard::zone(us);
        match kind {
            PieceKind::Pawn | PieceKind::Lance | PieceKind::Knight => {
                let dead = if kind == PieceKind::Knight { 2 } else { 1 };
                let live = !Bitboard::far_ranks(us, dead);
                for to in targets {
                    if zone.contains(to) {
                        self.0.push(Move::Board {
                            from,
                            to,
                            promote: true,
                        });
                    }
                    if live.contains(to) {
                        self.0.push(Move::Board {
                            from,
                            to,
                            promote: false,
                        });
                    }
                }
            }
            PieceKind::Silver | PieceKind::Bishop | PieceKind::Rook => {
                let promotable = if zone.contains(from) {
                    targets
                } else {
                    targets & zone
                };
                for to in targets {
                    if promotable.contains(to) {
                        self.0.push(Move::Board {
                            from,
                            to,
                            promote: true,
                        });
                    }
                    self.0.push(Move::Board {
                        from,
                        to,
                        promote: false,
                    });
                }
            }
            _ => {
                for to in targets {
                    self.0.push(Move::Board {
                        from,
                        to,
                        promote: false,
                    });
                }
            }
        }
    }

    #[inline(always)]
    fn pawns(&mut self, us: Color, targets: Bitboard) {
        let zone = Bitboard::zone(us);
        let live = !Bitboard::far_ranks(us, 1);
        for to in targets {
            let from = match us {
                Color::Sente => to.offset(0, 1),
                Color::Gote => to.offset(0, -1),
            };
            let Some(from) = from else { continue };
            if zone.contains(to) {
                self.0.push(Move::Board {
                    from,
                    to,
                    promote: true,
                });
            }
            if live.contains(to) {
                self.0.push(Move::Board {
                    from,
                    to,
                    promote: false,
                });
            }
        }
    }

    #[inline(always)]
    fn drops(&mut self, kind: HandKind, targets: Bitboard) {
        for to in targets {
            self.0.push(Move::Drop { kind, to });
        }
    }
}

struct CountSink(u64);

impl MoveSink for CountSink {
    #[inline(always)]
    fn piece(&mut self, us: Color, kind: PieceKind, from: Square, targets: Bitboard) {
        let zone = Bitboard::zone(us);
        let n = match kind {
            PieceKind::Pawn | PieceKind::Lance => {
                (targets & zone).count() + (targets & !Bitboard::far_ranks(us, 1)).count()
            }
            PieceKind::Knight => {
                (targets & zone).count() + (targets & !Bitboard::far_ranks(us, 2)).count()
            }
            PieceKind::Silver | PieceKind::Bishop | PieceKind::Rook => {
                if zone.contains(from) {
                    2 * targets.count()
                } else {
                    targets.count() + (targets & zone).count()
                }
            }
            _ => targets.count(),
        };
        self.0 += u64::from(n);
    }

    #[inline(always)]
    fn pawns(&mut self, us: Color, targets: Bitboard) {
        let zone = Bitboard::zone(us);
        let n = (targets & zone).count() + (targets & !Bitboard::far_ranks(us, 1)).count();
        self.0 += u64::from(n);
    }

    #[inline(always)]
    fn drops(&mut self, _kind: HandKind, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }
}

impl Position {
    /// Every legal move.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut ListSink(&mut list));
        list
    }

    /// Appends every legal move to `list` (which must have room).
    #[inline(always)]
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        self.generate(&mut ListSink(list));
    }

    /// The number of legal moves, counted without listing them.
    #[inline(always)]
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        let mut sink = CountSink(0);
        self.generate(&mut sink);
        sink.0
    }

    /// Every legal capture: board moves onto an enemy piece, each with the
    /// promotion choices the rules give (no drops, no quiet moves).
    ///
    /// ```
    /// let pos = shogi_core::sfen::parse_position("4k4/9/4p4/9/4R4/9/9/9/4K4 b - 1")?;
    /// let captures: Vec<String> = pos.legal_captures().iter().map(|m| m.to_string()).collect();
    /// assert_eq!(captures, ["5e5c+", "5e5c"]);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_captures(&mut ListSink(&mut list));
        list
    }

    /// Appends every legal capture (see [`Position::legal_captures`]) to `list`.
    #[inline(always)]
    pub fn legal_captures_into(&self, list: &mut MoveList) {
        self.generate_captures(&mut ListSink(list));
    }

    /// Every legal move that captures nothing: board moves onto empty
    /// squares (promotions included) and drops. With
    /// [`Position::legal_captures`] it makes [`Position::legal_moves`],
    /// for a search that looks at the captures first and generates the
    /// rest only when they are needed.
    ///
    /// ```
    /// let pos = shogi_core::sfen::parse_position("4k4/9/4p4/9/4R4/9/9/9/4K4 b - 1")?;
    /// let quiets = pos.legal_quiets().len();
    /// let captures = pos.legal_captures().len();
    /// assert_eq!(quiets + captures, pos.legal_moves().len());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn legal_quiets(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_quiets_into(&mut list);
        list
    }

    /// Appends every legal non-capture (see [`Position::legal_quiets`]) to `list`.
    #[inline(always)]
    pub fn legal_quiets_into(&self, list: &mut MoveList) {
        self.generate_to::<_, QUIETS>(&mut ListSink(list));
    }

    /// Every legal move that captures nothing and checks the opponent's
    /// king, directly or by uncovering a slider: the quiet moves a
    /// quiescence search tries for mates at the horizon. Empty when the
    /// opponent has no king.
    ///
    /// ```
    /// let pos = shogi_core::sfen::parse_position("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")?;
    /// let mut checks: Vec<String> = pos.legal_quiet_checks().iter().map(|m| m.to_string()).collect();
    /// checks.sort();
    /// assert_eq!(checks, ["5c5b", "5c5b+", "G*4a", "G*4b", "G*5b", "G*6a", "G*6b"]);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn legal_quiet_checks(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_quiet_checks_into(&mut list);
        list
    }

    /// Appends every legal quiet check (see [`Position::legal_quiet_checks`])
    /// to `list`.
    ///
    /// Out of check, only the pieces that could check are looked at: those
    /// that can reach a square from which they (or their promoted kind)
    /// attack the king, those that uncover a slider, and the drops on the
    /// squares a piece of the dropped kind attacks the king from. That set
    /// is a little larger than the checks (a piece that reaches a checking
    /// square only once promoted, say), so each move is confirmed with
    /// [`Position::gives_check`]. In check, the quiet evasions that check.
    pub fn legal_quiet_checks_into(&self, list: &mut MoveList) {
        let start = list.len();
        let us = self.side_to_move();
        let them = us.opponent();
        let Some(their_king) = self.king(them) else {
            return;
        };
        if self.in_check() {
            self.legal_quiets_into(list);
        } else {
            let occ = self.occupancy();
            let empty = !occ.bitboard();
            let king = self.king(us);
            let pinned = self.pinned(us);
            let uncover = self.king_blockers(them) & self.color_bb(us);
            let mut sink = ListSink(list);
            for from in self.color_bb(us) {
                let Some(piece) = self.piece_at(from) else {
                    continue;
                };
                let kind = piece.kind;
                if kind == PieceKind::King {
                    // A king checks only by uncovering a slider.
                    if uncover.contains(from) {
                        self.king_moves(&mut sink, us, from, empty);
                    }
                    continue;
                }
                let mut targets = attacks::piece(us, kind, from, occ) & empty;
                if let (Some(k), true) = (king, pinned.contains(from)) {
                    targets &= attacks::line(k, from);
                }
                if !uncover.contains(from) {
                    // From where this piece, or its promoted kind, attacks
                    // the king (seen from the king, with `from` vacated).
                    let vacated = occ.with_toggled(from);
                    let mut checking = attacks::piece(them, kind, their_king, &vacated);
                    if let Some(p) = kind.promote() {
                        checking |= attacks::piece(them, p, their_king, &vacated);
                    }
                    targets &= checking;
                }
                if targets.any() {
                    sink.piece(us, kind, from, targets);
                }
            }
            let hand = self.hand(us);
            for kind in hand.kinds() {
                let t = attacks::piece(them, kind.piece_kind(), their_king, occ) & empty;
                sink.drops(kind, self.drop_squares(kind, t));
            }
        }
        let mut i = start;
        while i < list.len() {
            if self.gives_check(list[i]) {
                i += 1;
            } else {
                list.swap_remove(i);
            }
        }
    }

    /// Whether the side to move has at least one legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        // Counting is cheap; a dedicated early exit is not worth its code.
        self.count_legal_moves() > 0
    }

    /// Whether the side to move is checkmated (in check with no legal move).
    #[must_use]
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    #[inline(always)]
    fn generate<S: MoveSink>(&self, sink: &mut S) {
        self.generate_to::<S, ALL>(sink);
    }

    #[inline(always)]
    fn generate_captures<S: MoveSink>(&self, sink: &mut S) {
        self.generate_to::<S, CAPTURES>(sink);
    }

    /// The legal moves of `SET`: [`ALL`], only those onto enemy pieces
    /// ([`CAPTURES`]), or all the others ([`QUIETS`]).
    // One piece (about 125 lines) on purpose: it is the move generator's hot loop, inlined
    // into every caller, and the order it emits moves in is the order the engine searches
    // them (the `Bench:` node counts depend on it); the check, pin and drop masks computed
    // at its top are shared by every piece kind below, so splitting it would mean passing
    // them all around for no gain in clarity.
    #[inline(always)]
    fn generate_to<S: MoveSink, const SET: u8>(&self, sink: &mut S) {
        let us = self.side_to_move();
        let ours = self.color_bb(us);
        let occ = self.occupancy();
        let checkers = self.checkers();
        let king = self.king(us);
        let theirs = self.color_bb(us.opponent());

        if let Some(k) = king {
            let allowed = match SET {
                CAPTURES => theirs,
                QUIETS => !occ.bitboard(),
                _ => !ours,
            };
            self.king_moves(sink, us, k, allowed);
            if checkers.more_than_one() {
                return;
            }
        }
        let (mut target, drop_target) = match checkers.first() {
            Some(c) => {
                let k = king.unwrap_or(c);
                let between = attacks::between(k, c);
                (between | checkers, between)
            }
            None => (!ours, !occ.bitboard()),
        };
        match SET {
            CAPTURES => target &= theirs,
            QUIETS => target &= !theirs,
            _ => {}
        }
        let pinned = self.pinned(us);
        let free = ours & !pinned;

        // Pawns all at once.
        let pawns = self.pieces(us, PieceKind::Pawn);
        sink.pawns(us, (pawns & free).shift_forward(us) & target);

        for from in self.pieces(us, PieceKind::Lance) & free {
            sink.piece(
                us,
                PieceKind::Lance,
                from,
                attacks::lance(us, from, occ) & target,
            );
        }
        for from in self.pieces(us, PieceKind::Knight) & free {
            sink.piece(
                us,
                PieceKind::Knight,
                from,
                attacks::knight(us, from) & target,
            );
        }
        for from in self.pieces(us, PieceKind::Silver) & free {
            sink.piece(
                us,
                PieceKind::Silver,
                from,
                attacks::silver(us, from) & target,
            );
        }
        for from in self.gold_movers() & free {
            sink.piece(us, PieceKind::Gold, from, attacks::gold(us, from) & target);
        }
        for from in self.pieces(us, PieceKind::Bishop) & free {
            sink.piece(
                us,
                PieceKind::Bishop,
                from,
                attacks::bishop(from, occ) & target,
            );
        }
        for from in self.pieces(us, PieceKind::Rook) & free {
            sink.piece(us, PieceKind::Rook, from, attacks::rook(from, occ) & target);
        }
        for from in self.pieces(us, PieceKind::Horse) & free {
            sink.piece(
                us,
                PieceKind::Horse,
                from,
                attacks::horse(from, occ) & target,
            );
        }
        for from in self.pieces(us, PieceKind::Dragon) & free {
            sink.piece(
                us,
                PieceKind::Dragon,
                from,
                attacks::dragon(from, occ) & target,
            );
        }
        if let (Some(k), true) = (king, pinned.any()) {
            for from in pinned {
                let Some(p) = self.piece_at(from) else {
                    continue;
                };
                let t = attacks::piece(us, p.kind, from, occ) & target & attacks::line(k, from);
                if p.kind == PieceKind::Pawn {
                    sink.pawns(us, t);
                } else {
                    sink.piece(us, p.kind, from, t);
                }
            }
        }

        let hand = self.hand(us);
        if SET == CAPTURES || hand.is_empty() || drop_target.is_empty() {
            return;
        }
        for kind in hand.kinds() {
            sink.drops(kind, self.drop_squares(kind, drop_target));
        }
    }

    /// The squares of `candidates` (empty squares) where the side to move
    /// may drop a `kind`: not on the ranks where it could never move, and a
    /// pawn not on a file with another of its pawns nor as a mating drop.
    #[inline(always)]
    fn drop_squares(&self, kind: HandKind, candidates: Bitboard) -> Bitboard {
        let us = self.side_to_move();
        let mut t = candidates;
        match kind {
            HandKind::Pawn => {
                t &= !Bitboard::far_ranks(us, 1) & !self.pieces(us, PieceKind::Pawn).fill_files();
                if let Some(their_king) = self.king(us.opponent()) {
                    let front = attacks::pawn(us.opponent(), their_king);
                    if let Some(sq) = (t & front).first() {
                        if self.is_pawn_drop_mate(sq) {
                            t.remove(sq);
                        }
                    }
                }
            }
            HandKind::Lance => t &= !Bitboard::far_ranks(us, 1),
            HandKind::Knight => t &= !Bitboard::far_ranks(us, 2),
            _ => {}
        }
        t
    }

    #[inline(always)]
    fn king_moves<S: MoveSink>(&self, sink: &mut S, us: Color, k: Square, allowed: Bitboard) {
        let them = us.opponent();
        let candidates = attacks::king(k) & allowed;
        if candidates.is_empty() {
            return;
        }
        // Judge with the king lifted off the board so that a slider checking
        // along a line also covers the square behind the king.
        let lifted;
        let occ = if self.in_check() {
            lifted = self.occupancy().with_toggled(k);
            &lifted
        } else {
            self.occupancy()
        };
        let mut safe = Bitboard::EMPTY;
        for to in candidates {
            if !self.is_attacked(to, them, occ) {
                safe.insert(to);
            }
        }
        sink.piece(us, PieceKind::King, k, safe);
    }
}
