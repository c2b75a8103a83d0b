//! Property tests of Swiss pairing on random events, round after round:
//! no rematch and no second bye while a perfect matching without them
//! exists (by Dirac's theorem, while the rounds are at most half the
//! field), the same state always gives the same pairing, and for small
//! fields the pairing is checked against a brute force over every
//! matching: no pairing has fewer rematches/second byes, then fewer
//! unavoidable colour breaks, then a lower bye, then smaller score
//! differences.

use proptest::prelude::*;
use shogi_tournament::colours;
use shogi_tournament::pair::{pair_next, Request};
use shogi_tournament::{
    Board, Bye, ByeKind, Event, Format, GameResult, Player, PlayerId, Round, Side,
};
use std::collections::HashSet;

/// A small deterministic generator for the results (`SplitMix64`).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random result: mostly decisive, some draws, a few forfeits.
fn result(rng: &mut Rng) -> GameResult {
    match rng.below(20) {
        0..=8 => GameResult::SenteWin,
        9..=16 => GameResult::GoteWin,
        17 | 18 => GameResult::Draw,
        _ => GameResult::GoteForfeit,
    }
}

fn player(rng: &mut Rng, rounds: u32) -> Player {
    Player {
        rating: (rng.below(4) > 0).then(|| 1200 + rng.below(1000) as i32),
        grade: (rng.below(2) > 0).then(|| rng.below(12) as i32 - 8),
        club: (rng.below(3) > 0).then(|| format!("club{}", rng.below(4))),
        from_round: if rng.below(10) == 0 { 2 } else { 1 },
        withdrawn_from: (rng.below(10) == 0).then(|| 2 + rng.below(u64::from(rounds)) as u32),
    }
}

fn event(n: usize, rounds: u32, seed: u64, mcmahon: bool) -> Event {
    let mut rng = Rng(seed);
    let format = if mcmahon {
        Format::McMahon { bar: 1, floor: -5 }
    } else {
        Format::Swiss
    };
    Event {
        format,
        rounds,
        seed,
        players: (0..n).map(|_| player(&mut rng, rounds)).collect(),
        played: Vec::new(),
    }
}

/// Points (half points) as the brief defines them, computed here again
/// from the rounds so the test does not read the code under test.
fn points(event: &Event) -> Vec<i32> {
    let mut pts: Vec<i32> = (0..event.players.len())
        .map(|p| match event.format {
            Format::McMahon { bar, floor } => {
                2 * (event.players[p].grade.unwrap_or(floor).clamp(floor, bar) - bar)
            }
            _ => 0,
        })
        .collect();
    for round in &event.played {
        for b in &round.boards {
            let (s, g) = match b.result {
                Some(GameResult::SenteWin | GameResult::GoteForfeit) => (2, 0),
                Some(GameResult::GoteWin | GameResult::SenteForfeit) => (0, 2),
                Some(GameResult::Draw) => (1, 1),
                _ => (0, 0),
            };
            pts[b.sente] += s;
            pts[b.gote] += g;
        }
        for bye in &round.byes {
            pts[bye.player] += match bye.kind {
                ByeKind::Pairing | ByeKind::Full => 2,
                ByeKind::Half => 1,
                ByeKind::Zero => 0,
            };
        }
    }
    pts
}

fn met(event: &Event) -> HashSet<(PlayerId, PlayerId)> {
    let mut met = HashSet::new();
    for b in event.played.iter().flat_map(|r| &r.boards) {
        if !matches!(
            b.result,
            Some(GameResult::SenteForfeit | GameResult::GoteForfeit | GameResult::DoubleForfeit)
        ) {
            met.insert((b.sente.min(b.gote), b.sente.max(b.gote)));
        }
    }
    met
}

fn had_bye(event: &Event, p: PlayerId) -> bool {
    event.played.iter().any(|r| {
        r.byes
            .iter()
            .any(|b| b.player == p && b.kind == ByeKind::Pairing)
    })
}

/// Whether giving `side` to `p` makes a third game in a row with that side
/// or a colour difference beyond ±2 (read from the event directly).
fn breaks(event: &Event, p: PlayerId, side: Side) -> bool {
    let games: Vec<Side> = event
        .played
        .iter()
        .filter_map(|r| {
            r.boards.iter().find_map(|b| {
                let played = !matches!(
                    b.result,
                    Some(
                        GameResult::SenteForfeit
                            | GameResult::GoteForfeit
                            | GameResult::DoubleForfeit
                    )
                );
                if !played {
                    None
                } else if b.sente == p {
                    Some(Side::Sente)
                } else if b.gote == p {
                    Some(Side::Gote)
                } else {
                    None
                }
            })
        })
        .collect();
    let n = games.len();
    let third = n >= 2 && games[n - 1] == side && games[n - 2] == side;
    let diff: i32 = games
        .iter()
        .map(|&s| if s == Side::Sente { 1 } else { -1 })
        .sum::<i32>()
        + if side == Side::Sente { 1 } else { -1 };
    third || diff.abs() > 2
}

/// The ladder's top four levels for a round: (rematches + second byes,
/// pairs breaking the colour rule whichever way, bye's score above the
/// lowest, sum of squared score differences).
type Cost = (u32, u32, i32, i32);

fn cost_of(
    event: &Event,
    pairs: &[(PlayerId, PlayerId)],
    bye: Option<PlayerId>,
    lowest: i32,
) -> Cost {
    let pts = points(event);
    let met = met(event);
    let mut c = (0, 0, 0, 0);
    for &(a, b) in pairs {
        c.0 += u32::from(met.contains(&(a.min(b), a.max(b))));
        let ok = (!breaks(event, a, Side::Sente) && !breaks(event, b, Side::Gote))
            || (!breaks(event, b, Side::Sente) && !breaks(event, a, Side::Gote));
        c.1 += u32::from(!ok);
        c.3 += (pts[a] - pts[b]).pow(2);
    }
    if let Some(p) = bye {
        c.0 += u32::from(had_bye(event, p));
        c.2 = pts[p] - lowest;
    }
    c
}

/// The least cost over every matching of `players` (with a bye when odd).
fn brute_force(event: &Event, players: &[PlayerId], lowest: i32) -> Cost {
    fn go(
        event: &Event,
        rest: &mut Vec<PlayerId>,
        pairs: &mut Vec<(PlayerId, PlayerId)>,
        bye: Option<PlayerId>,
        lowest: i32,
        best: &mut Option<Cost>,
    ) {
        if rest.is_empty() {
            let c = cost_of(event, pairs, bye, lowest);
            if best.is_none_or(|b| c < b) {
                *best = Some(c);
            }
            return;
        }
        let a = rest.remove(0);
        for i in 0..rest.len() {
            let b = rest.remove(i);
            pairs.push((a, b));
            go(event, rest, pairs, bye, lowest, best);
            pairs.pop();
            rest.insert(i, b);
        }
        rest.insert(0, a);
    }
    let mut best = None;
    if players.len().is_multiple_of(2) {
        go(
            event,
            &mut players.to_vec(),
            &mut Vec::new(),
            None,
            lowest,
            &mut best,
        );
    } else {
        for i in 0..players.len() {
            let mut rest = players.to_vec();
            let bye = rest.remove(i);
            go(
                event,
                &mut rest,
                &mut Vec::new(),
                Some(bye),
                lowest,
                &mut best,
            );
        }
    }
    best.unwrap_or((0, 0, 0, 0))
}

/// Plays `event` out round by round, checking each pairing with `check`.
fn play_out(mut event: Event, results: u64, mut check: impl FnMut(&Event, &[Board], &[Bye])) {
    let mut rng = Rng(results);
    while event.played.len() < event.rounds as usize {
        let Ok(pairing) = pair_next(&event, &Request::default()) else {
            // Too few players left: nothing more to pair.
            return;
        };
        let again = pair_next(&event.clone(), &Request::default()).unwrap();
        assert_eq!(pairing, again, "the same state gave another pairing");
        check(&event, &pairing.boards, &pairing.byes);
        let boards = pairing
            .boards
            .iter()
            .map(|b| Board {
                result: Some(result(&mut rng)),
                ..*b
            })
            .collect();
        event.played.push(Round {
            boards,
            byes: pairing.byes,
        });
    }
}

/// Every board and bye holds each round's players exactly once.
fn assert_everyone_once(event: &Event, boards: &[Board], byes: &[Bye]) {
    let round = event.played.len() as u32 + 1;
    let mut seen: Vec<PlayerId> = boards.iter().flat_map(|b| [b.sente, b.gote]).collect();
    seen.extend(byes.iter().map(|b| b.player));
    seen.sort_unstable();
    let expected: Vec<PlayerId> = (0..event.players.len())
        .filter(|&p| event.players[p].plays_in(round))
        .collect();
    assert_eq!(seen, expected);
    assert!(byes.len() <= 1);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn no_rematch_no_second_bye_while_avoidable(
        n in 8usize..=40,
        rounds in 3u32..=9,
        seed in any::<u64>(),
        results in any::<u64>(),
        mcmahon in any::<bool>(),
    ) {
        play_out(event(n, rounds, seed, mcmahon), results, |event, boards, byes| {
            assert_everyone_once(event, boards, byes);
            let active = boards.len() * 2 + byes.len();
            let vertices = active + active % 2;
            if event.played.len() < vertices / 2 {
                let met = met(event);
                for b in boards {
                    assert!(!met.contains(&(b.sente.min(b.gote), b.sente.max(b.gote))), "rematch {b:?}");
                }
                for bye in byes {
                    assert!(!had_bye(event, bye.player), "second bye {bye:?}");
                }
            }
            for b in boards {
                // Colours: a break only where the pair cannot avoid it.
                let (s, g) = (b.sente, b.gote);
                if breaks(event, s, Side::Sente) || breaks(event, g, Side::Gote) {
                    assert!(breaks(event, g, Side::Sente) || breaks(event, s, Side::Gote), "{b:?}");
                }
            }
        });
    }

    #[test]
    fn small_fields_match_the_brute_force_optimum(
        n in 5usize..=11,
        rounds in 3u32..=6,
        seed in any::<u64>(),
        results in any::<u64>(),
        mcmahon in any::<bool>(),
    ) {
        play_out(event(n, rounds, seed, mcmahon), results, |event, boards, byes| {
            assert_everyone_once(event, boards, byes);
            let pairs: Vec<_> = boards.iter().map(|b| (b.sente, b.gote)).collect();
            let players: Vec<PlayerId> = pairs.iter().flat_map(|&(a, b)| [a, b])
                .chain(byes.iter().map(|b| b.player)).collect();
            let pts = points(event);
            let lowest = players.iter().map(|&p| pts[p]).min().unwrap_or(0);
            let got = cost_of(event, &pairs, byes.first().map(|b| b.player), lowest);
            // The colours given really avoid breaks where the pair can.
            let breaking = boards.iter()
                .filter(|b| breaks(event, b.sente, Side::Sente) || breaks(event, b.gote, Side::Gote))
                .count() as u32;
            assert_eq!(breaking, got.1);
            assert_eq!(got, brute_force(event, &players, lowest));
        });
    }
}

#[test]
fn furigoma_in_round_one_then_balance() {
    let mut event = event(10, 3, 7, false);
    for p in &mut event.players {
        p.from_round = 1;
        p.withdrawn_from = None;
    }
    let first = pair_next(&event, &Request::default()).unwrap();
    assert!(first
        .boards
        .iter()
        .all(|b| matches!(b.colours, shogi_tournament::ColourChoice::Furigoma(_))));
    for b in &first.boards {
        if let shogi_tournament::ColourChoice::Furigoma(t) = b.colours {
            let tosser_sente = b.sente == t.tosser;
            assert_eq!(tosser_sente, t.tosser_sente());
            assert_eq!(
                t,
                colours::toss(
                    7,
                    1,
                    t.tosser,
                    if t.tosser == b.sente { b.gote } else { b.sente }
                )
            );
        }
    }
}
