//! Whether a move gives check, decided without playing it.
//!
//! ```
//! use shogi_engine::checks::gives_check;
//! let pos = shogi_core::sfen::parse_position("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")?;
//! assert!(gives_check(&pos, "G*5b".parse()?));
//! assert!(!gives_check(&pos, "G*1b".parse()?));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use shogi_core::{Move, Position};

/// Whether the legal move `m` checks the opponent's king (directly or by
/// uncovering a slider). Always `false` when the opponent has no king.
/// The rules core decides: see [`Position::gives_check`].
#[must_use]
#[inline]
pub fn gives_check(pos: &Position, m: Move) -> bool {
    pos.gives_check(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_playing_the_move() {
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "4k4/9/4P4/9/9/9/9/9/4K4 b GSNLPrb 1",
            "l3k3l/4g4/4s4/4N4/4L4/9/4R4/4B4/4K4 b P 1",
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
            "7k1/9/6B2/9/4L4/9/9/9/K3R4 b GSNLP 1",
        ];
        for s in sfens {
            let pos = shogi_core::sfen::parse_position(s).unwrap();
            for m in pos.legal_moves() {
                let mut p = pos.clone();
                p.make_move(m);
                assert_eq!(gives_check(&pos, m), p.in_check(), "{s} {m}");
            }
        }
    }
}
