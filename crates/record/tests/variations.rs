//! Variations, comments and times survive the formats that can hold them.

use std::path::PathBuf;

use shogi_record::{Format, Node, Record};

fn data(name: &str) -> Vec<u8> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/records"
    ));
    assert!(
        dir.is_dir(),
        "test data not found at {}: put `shared/` beside the repository clone",
        dir.display()
    );
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn count(line: &[Node]) -> (usize, usize) {
    let mut nodes = line.len();
    let mut vars = 0;
    for n in line {
        for v in &n.variations {
            let (a, b) = count(v);
            nodes += a;
            vars += b + 1;
        }
    }
    (nodes, vars)
}

fn strip_times(line: &mut [Node]) {
    for n in line {
        n.time = None;
        for v in &mut n.variations {
            strip_times(v);
        }
    }
}

#[test]
fn kif_variations_attach_to_the_latest_line_holding_the_ply() {
    let rec = shogi_record::read(&data("tsumemi_branchedgame.kif")).expect("reads");
    let (_, vars) = count(&rec.moves);
    assert_eq!(vars, 17, "seventeen 変化 blocks");
    assert_eq!(rec.moves.len(), 84);
    // 変化：75手 and 変化：74手 branch off the main line; so do both 変化：63手 blocks.
    assert_eq!(rec.moves[74].variations.len(), 1);
    assert_eq!(rec.moves[73].variations.len(), 1);
    assert_eq!(rec.moves[73].variations[0].len(), 3);
    assert_eq!(rec.moves[62].variations.len(), 2);
    assert_eq!(rec.moves[8].comments, ["Signalling Yagura.", ""]);
    assert_eq!(rec.moves[0].time, Some(12));
}

fn same_tree(a: &Record, b: &Record, label: &str) {
    assert_eq!(a.moves, b.moves, "{label}: move tree");
    assert_eq!(a.start, b.start, "{label}: start");
    assert_eq!(
        a.start_comments, b.start_comments,
        "{label}: start comments"
    );
    assert_eq!(a.ending, b.ending, "{label}: ending");
}

#[test]
fn kif_and_jkf_keep_the_whole_tree() {
    for name in [
        "tsumemi_branchedgame.kif",
        "tsumemi_testbranch.kif",
        "shogihome_conv_ki2u-utf8.ki2u",
        "tsshogi_jkf_sample03.jkf",
    ] {
        let rec = shogi_record::read(&data(name)).expect("reads");
        assert!(count(&rec.moves).1 > 0, "{name} has variations");
        for format in [Format::Kif, Format::Jkf] {
            let again = shogi_record::read_str_as(&shogi_record::write(&rec, format), format)
                .expect("reads back");
            same_tree(&rec, &again, &format!("{name} -> {format:?}"));
            assert_eq!(again.headers, rec.headers, "{name} -> {format:?}: headers");
        }
        let mut no_times = rec.clone();
        strip_times(&mut no_times.moves);
        let again = shogi_record::read_str_as(&shogi_record::write(&rec, Format::Ki2), Format::Ki2)
            .expect("reads back");
        same_tree(&no_times, &again, &format!("{name} -> Ki2"));
    }
}

#[test]
fn csa_keeps_times_and_comments_of_the_main_line() {
    let rec = shogi_record::read(&data("shogihome_e2e27_record.csa")).expect("reads");
    assert_eq!(rec.moves[0].time, Some(2));
    // `%TORYO` followed by `T0`: the last move keeps its own time.
    assert_eq!(rec.moves[5].time, Some(1));
    assert_eq!(rec.moves[1].comments[0], "互角");
    assert_eq!(rec.moves[1].comments[1], "*評価値=-35");
    let again = shogi_record::csa::read(&rec.to_csa()).expect("reads back");
    same_tree(&rec, &again, "csa");
    assert_eq!(again.headers, rec.headers);
}
