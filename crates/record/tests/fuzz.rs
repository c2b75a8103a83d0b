//! Random bytes and mutated real records fed to every reader: no panic.

use std::path::PathBuf;

use proptest::prelude::*;
use shogi_record::Format;

fn samples() -> Vec<Vec<u8>> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/records"
    ));
    assert!(
        dir.is_dir(),
        "test data not found at {}: put `shared/` beside the repository clone",
        dir.display()
    );
    let mut out = Vec::new();
    for name in [
        "shogihome_e2e06_record.kifu",
        "sp_BOD_LIKE_SAMPLE1.kif",
        "tsumemi_branchedgame.kif",
        "shogihome_conv_ki2u-utf8.ki2u",
        "bioshogi_alpha_zero_vs_elmo_12.ki2",
        "shogihome_e2e27_record.csa",
        "shogihome_conv_csa-sjis.csa",
        "tsshogi_jkf_sample03.jkf",
        "tsshogi_jkf_sample02.jkf",
        "sbq_test_drops.usi",
    ] {
        out.push(std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}")));
    }
    out
}

fn read_everything(bytes: &[u8]) {
    let _ = shogi_record::read(bytes);
    // Each record of a file of several: its bytes a part of the file, an
    // error's line one of the file's.
    let lines = bytes.split(|&b| b == b'\n').count();
    for (part, read) in shogi_record::read_each(bytes) {
        let range = bytes.as_ptr_range();
        assert!(range.contains(&part.as_ptr()) || part.is_empty() || part == bytes);
        if let Err(e) = read {
            assert!(e.line <= lines, "line {} of {lines}", e.line);
        }
    }
    for f in Format::ALL {
        if let Ok(rec) = shogi_record::read_as(bytes, f) {
            // Whatever was read can be written in every format.
            for g in Format::ALL {
                let _ = shogi_record::write(&rec, g);
            }
        }
    }
}

#[derive(Clone, Debug)]
enum Edit {
    Flip(usize, u8),
    Delete(usize, usize),
    Insert(usize, Vec<u8>),
    Duplicate(usize, usize, usize),
}

fn apply(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        let n = bytes.len().max(1);
        match e {
            Edit::Flip(i, x) => {
                if let Some(b) = bytes.get_mut(i % n) {
                    *b ^= x;
                }
            }
            Edit::Delete(i, len) => {
                let start = i % n;
                let end = (start + len % 64).min(bytes.len());
                if start < end {
                    bytes.drain(start..end);
                }
            }
            Edit::Insert(i, data) => {
                let at = (i % n).min(bytes.len());
                bytes.splice(at..at, data.iter().copied());
            }
            Edit::Duplicate(i, len, to) => {
                let start = (i % n).min(bytes.len());
                let end = (start + len % 200).min(bytes.len());
                let chunk = bytes[start..end].to_vec();
                let at = (to % n).min(bytes.len());
                bytes.splice(at..at, chunk);
            }
        }
    }
    bytes
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(i, x)| Edit::Flip(i, x)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, l)| Edit::Delete(i, l)),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 0..12))
            .prop_map(|(i, d)| Edit::Insert(i, d)),
        (
            any::<usize>(),
            prop::sample::select(vec![
                "同",
                "成",
                "不成",
                "打",
                "右",
                "変化：3手\n",
                "*",
                "\n",
                "：",
                "+",
                "-",
                "%TORYO",
                "P1",
                "00AL",
                "{",
                "\"moves\"",
                "v",
                "・",
                "|",
                "十七",
            ])
        )
            .prop_map(|(i, s)| Edit::Insert(i, s.as_bytes().to_vec())),
        (any::<usize>(), any::<usize>(), any::<usize>())
            .prop_map(|(i, l, t)| Edit::Duplicate(i, l, t)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, max_shrink_iters: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        read_everything(&bytes);
    }

    #[test]
    fn random_text_never_panics(text in "[▲△同成不打右左直上引寄一二三四五六七八九１２３４５６７８９歩金銀玉飛角 \n:：*+\\-%/PI0-9A-Z]{0,120}") {
        read_everything(text.as_bytes());
    }

    #[test]
    fn mutated_records_never_panic(which in 0usize..10, edits in prop::collection::vec(edit(), 1..6)) {
        let samples = samples();
        let bytes = apply(samples[which % samples.len()].clone(), &edits);
        read_everything(&bytes);
    }
}

/// A random legal game of up to `len` moves from `seed`.
fn random_game(seed: u64, len: usize) -> shogi_record::Record {
    let mut state = seed | 1;
    let mut rec = shogi_record::Record::default();
    let mut pos = rec.start.clone();
    for i in 0..len {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let m = moves[(state % moves.len() as u64) as usize];
        pos.make_move(m);
        rec.push(m);
        if i % 7 == 3 {
            if let Some(n) = rec.moves.last_mut() {
                n.comments.push(format!("comment {i}"));
                n.time = Some(i as u32);
            }
        }
    }
    rec.ending = shogi_record::Ending::Game(shogi_core::Ending::Resignation {
        loser: pos.side_to_move(),
    });
    rec
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_games_round_trip_through_every_format(seed in any::<u64>(), len in 0usize..160) {
        let rec = random_game(seed, len);
        for format in Format::ALL {
            let text = shogi_record::write(&rec, format);
            let again = shogi_record::read_str_as(&text, format).map_err(|e| TestCaseError::fail(format!("{format:?}: {e}\n{text}")))?;
            prop_assert_eq!(again.main_line(), rec.main_line(), "{:?}\n{}", format, text);
            prop_assert_eq!(again.ending, rec.ending, "{:?}", format);
            prop_assert!(again.illegal_move.is_none());
            if matches!(format, Format::Kif | Format::Jkf | Format::Csa) {
                prop_assert_eq!(&again.moves, &rec.moves, "{:?}: times and comments", format);
            }
        }
    }
}
