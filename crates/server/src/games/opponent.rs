//! The computer's seat: the [`Opponent`] seam, the engine behind it
//! ([`EngineOpponent`], crate `shogi-engine`) and a simple stand-in
//! ([`Greedy`]) for tests that need an instant, predictable reply.
//!
//! Choosing a move is CPU work, so [`Opponent::choose_move`] is an ordinary
//! blocking function; the room runs it on tokio's blocking pool and keeps
//! serving the game meanwhile.

use shogi_core::{Move, PieceKind, Position};

/// What the room grants the computer for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The level chosen at creation, 1..=10.
    pub level: u8,
    /// The time the computer has for this move before it loses on time, if clocked.
    pub time_available_ms: Option<u64>,
}

/// Something that chooses moves for the computer's seat.
pub trait Opponent: Send + Sync + 'static {
    /// A legal move in `position`, or `None` to resign.
    fn choose_move(&self, position: &Position, limits: Limits) -> Option<Move>;
}

/// A stand-in: mates in one when it can, otherwise takes the most valuable
/// piece it can, otherwise plays a random legal move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

fn value(kind: PieceKind) -> u32 {
    match kind.unpromote() {
        PieceKind::Pawn => 1,
        PieceKind::Lance | PieceKind::Knight => 3,
        PieceKind::Silver | PieceKind::Gold => 5,
        PieceKind::Bishop | PieceKind::Rook => 8,
        _ => 0,
    }
}

impl Opponent for Greedy {
    fn choose_move(&self, position: &Position, _limits: Limits) -> Option<Move> {
        let moves = position.legal_moves();
        let mut best: Vec<Move> = Vec::new();
        let mut best_score = 0u32;
        for &m in &moves {
            let mut after = position.clone();
            after.make_move(m);
            let score = if after.in_check() && !after.has_legal_move() {
                1000
            } else {
                let capture = position.piece_at(m.to()).map_or(0, |p| value(p.kind));
                capture * 10 + u32::from(m.is_promotion())
            };
            if score > best_score || best.is_empty() {
                best.clear();
                best_score = score;
            }
            if score == best_score {
                best.push(m);
            }
        }
        if best.is_empty() {
            return None;
        }
        let mut buf = [0u8; 8];
        getrandom::fill(&mut buf).ok()?;
        let r = usize::try_from(u64::from_le_bytes(buf) % best.len() as u64).unwrap_or(0);
        Some(best[r])
    }
}

/// The real engine at ten levels. Level 10 searches at full strength for up
/// to 3 s a move; levels 1-9 are the engine's `SkillLevel` 0, 2, ..., 16
/// ([`skill_level`]): a node cap from 500 to 128,000 nodes, a choice among
/// near-best moves and, below level 6, an occasional random move
/// (`shogi_engine::skill`). Their thinking time is only a ceiling that the
/// node cap reaches first on any but a badly overloaded machine. Never more
/// than the clock allows, keeping 300 ms in hand.
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineOpponent;

/// Thinking time per level, in ms, before the clock's own limit.
const LEVEL_TIME_MS: [u64; 10] = [100, 150, 200, 300, 400, 600, 900, 1400, 2000, 3000];
/// The computer's hash table size in MiB.
const TT_MB: usize = 16;
/// Time kept in hand under a clock.
const CLOCK_MARGIN_MS: u64 = 300;

use shogi_engine::tt::TranspositionTable;

/// The engine's `SkillLevel` (0-20) for web level `level` (1-10, clamped):
/// two skill steps a level from 0 at level 1 to 16 at level 9, and 20 (full
/// strength) at level 10. Each level is measured against the next in
/// docs/TUNING.md.
#[must_use]
pub fn skill_level(level: u8) -> u32 {
    match level.clamp(1, 10) {
        10 => 20,
        l => 2 * u32::from(l - 1),
    }
}

impl Opponent for EngineOpponent {
    fn choose_move(&self, position: &Position, limits: Limits) -> Option<Move> {
        use shogi_engine::limits::SearchLimit;
        use shogi_engine::search::{search, SearchControl, SearchOptions};
        let level = limits.level.clamp(1, 10);
        let mut time = LEVEL_TIME_MS[usize::from(level - 1)];
        if let Some(available) = limits.time_available_ms {
            time = time.min(available.saturating_sub(CLOCK_MARGIN_MS).max(50));
        }
        let options = SearchOptions {
            skill_level: skill_level(level),
            ..SearchOptions::default()
        };
        // One table per blocking-pool thread, kept between moves: a fresh
        // 16 MiB table per move meant page faults and an unmap (with its TLB
        // shootdown across the server's threads) on every computer move.
        thread_local! {
            static TT: TranspositionTable = TranspositionTable::new(TT_MB);
        }
        TT.with(|tt| {
            search(
                position,
                &[],
                &SearchLimit::MoveTime(time),
                &options,
                tt,
                &SearchControl::new(false),
                &mut |_: &str| {},
            )
            .best_move
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn web_levels_are_every_other_skill_then_full_strength() {
        let skills: Vec<u32> = (1..=10).map(skill_level).collect();
        assert_eq!(skills, [0, 2, 4, 6, 8, 10, 12, 14, 16, 20]);
        assert_eq!(skill_level(0), 0);
        assert_eq!(skill_level(11), 20);
    }

    #[test]
    fn greedy_takes_the_free_bishop() {
        // After 7g7f 3c3d, Sente's bishop can take Gote's on 2b.
        let mut pos = Position::startpos();
        for m in ["7g7f", "3c3d"] {
            pos.make_move(m.parse().unwrap());
        }
        let limits = Limits {
            level: 1,
            time_available_ms: None,
        };
        let m = Greedy.choose_move(&pos, limits).unwrap();
        assert_eq!(m.to().to_string(), "2b");
    }

    #[test]
    fn the_engine_finds_a_mate_in_one_at_every_level() {
        let pos: Position = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1".parse().unwrap();
        for level in [1, 5, 10] {
            let limits = Limits {
                level,
                time_available_ms: Some(1000),
            };
            let m = EngineOpponent.choose_move(&pos, limits).unwrap();
            assert_eq!(m.to_string(), "G*5b", "level {level}");
        }
    }
}
