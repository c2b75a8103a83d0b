//! `shogi convert` and `shogi diagram` as a user runs them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn shogi(args: &[&str]) -> Output {
    shogi_in(args, None)
}

fn shogi_in(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shogi"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run shogi");
    if let Some(bytes) = stdin {
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const KIF: &str = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 投了\nまで4手で後手の勝ち\n";
const CSA: &str = "V2.2\nN+A\nN-B\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n";
const USI_LINE: &str = "startpos moves 7g7f 3c3d 8h2b+ 3a2b";

#[test]
fn convert_prints_one_usi_line_without_position_or_ending() {
    let dir = scratch("convert_usi");
    let kif = dir.join("game.kif");
    std::fs::write(&kif, KIF).unwrap();
    let o = shogi(&["convert", "--to", "usi", kif.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{USI_LINE}\n"));
    assert_eq!(stderr(&o), "");
    // A start that is not the standard one is written as `sfen ...`.
    let tsume = "V2.2\nP1 *  *  *  *  *  *  *  * -OU\nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  * +KI * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  * +OU *  *  *  * \nP+00KI\nP-00AL\n+\n+0012KI\n%TSUMI\n";
    let o = shogi_in(&["convert", "--to", "usi"], Some(tsume.as_bytes()));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1);
    assert!(out.starts_with("sfen 8k/9/7G1/9/9/9/9/9/4K4 b G"), "{out}");
    assert!(out.trim_end().ends_with(" moves G*1b"), "{out}");
}

#[test]
fn convert_detects_the_input_format_and_encoding_from_content() {
    let dir = scratch("convert_detect");
    // A Shift_JIS KIF file named .txt: the content decides, not the name.
    let sjis = dir.join("game.txt");
    std::fs::write(
        &sjis,
        shogi_record::encoding::encode(KIF, shogi_record::Encoding::ShiftJis),
    )
    .unwrap();
    let o = shogi(&["convert", "--to", "csa", sjis.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csa = stdout(&o);
    assert!(
        csa.contains("+7776FU") && csa.contains("-3122GI") && csa.contains("%TORYO"),
        "{csa}"
    );
    // CSA on stdin (no file, and `-`), to every other format.
    for args in [
        vec!["convert", "--to", "kif"],
        vec!["convert", "--to", "kif", "-"],
    ] {
        let o = shogi_in(&args, Some(CSA.as_bytes()));
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("２二角成(88)"), "{}", stdout(&o));
    }
    for (to, needle) in [
        ("ki2", "△同　銀"),
        ("jkf", "\"header\""),
        ("usen", "~"),
        ("csa", "+8822UM"),
    ] {
        let o = shogi_in(&["convert", "--to", to], Some(CSA.as_bytes()));
        assert!(o.status.success(), "{to}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains(needle), "{to}: {out}");
        // And each output reads back to the same moves.
        let again = shogi_in(
            &["convert", "--to", "usi", "--from", to],
            Some(out.as_bytes()),
        );
        assert_eq!(
            stdout(&again),
            format!("{USI_LINE}\n"),
            "{to}: {}",
            stderr(&again)
        );
    }
}

#[test]
fn convert_writes_shift_jis_to_a_file_on_request() {
    let dir = scratch("convert_sjis");
    let out = dir.join("out.kif");
    let o = shogi_in(
        &[
            "convert",
            "--to",
            "kif",
            "--encoding",
            "sjis",
            "-o",
            out.to_str().unwrap(),
        ],
        Some(CSA.as_bytes()),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let bytes = std::fs::read(&out).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "Shift_JIS is not UTF-8"
    );
    let (text, enc) = shogi_record::encoding::decode(&bytes);
    assert_eq!(enc, shogi_record::Encoding::ShiftJis);
    assert!(text.contains("同　銀(31)"), "{text}");
}

#[test]
fn convert_unreadable_input_is_one_line_with_file_line_and_column() {
    let dir = scratch("convert_bad");
    let bad = dir.join("bad.csa");
    std::fs::write(&bad, "V2.2\nPI\n+\n+7776FU\n+99XXZZ\n").unwrap();
    let o = shogi(&["convert", "--to", "kif", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("shogi: {}:5:1: ", bad.display())),
        "{err}"
    );
    assert_eq!(stdout(&o), "");
    // Text that is no record at all.
    let o = shogi_in(&["convert", "--to", "csa"], Some(b"hello world\n"));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "shogi: -:1:1: no game record found at \"hello world\"\n"
    );
    // Nor is a system file, nor a KIF whose handicap name is unknown (it was read as an even game).
    let o = shogi(&["convert", "--to", "usi", "/proc/self/status"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("shogi: /proc/self/status:1:1: no game record found at \"Name:"),
        "{}",
        stderr(&o)
    );
    let o = shogi_in(
        &["convert", "--to", "usi"],
        Some("手合割：謎\n手数----指手---------消費時間--\n   1 ７六歩(77)\n".as_bytes()),
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "shogi: -:1:5: unknown handicap name at \"謎\"\n"
    );
    // A missing file, and a bad option value.
    let o = shogi(&["convert", "--to", "csa", "/no/such/file.kif"]);
    assert_eq!((o.status.code(), stderr(&o).lines().count()), (Some(2), 1));
    let o = shogi(&["convert", "--to", "pgn"]);
    assert_eq!((o.status.code(), stderr(&o).lines().count()), (Some(2), 1));
}

#[test]
fn convert_stops_at_an_illegal_move_with_one_warning() {
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩(76)\n   4 ７四歩(75)\n";
    let o = shogi_in(&["convert", "--to", "usi"], Some(text.as_bytes()));
    assert!(o.status.success());
    assert_eq!(stdout(&o), "startpos moves 7g7f 3c3d 7f7e\n");
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("shogi: warning: -: move 4 "), "{err}");
}

#[test]
fn convert_many_files_into_a_folder() {
    let dir = scratch("convert_many");
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    std::fs::write(src.join("a.kif"), KIF).unwrap();
    std::fs::write(src.join("sub/b.csa"), CSA).unwrap();
    std::fs::write(src.join("notes.md"), "not a record").unwrap();
    let extra = dir.join("c.ki2");
    std::fs::write(&extra, "▲７六歩 △３四歩\nまで2手で後手の勝ち\n").unwrap();
    let out = dir.join("out");
    let o = shogi(&[
        "convert",
        "--to",
        "jkf",
        src.to_str().unwrap(),
        extra.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // No progress bar when stderr is not a terminal.
    assert_eq!(stderr(&o), "");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a.jkf", "b.jkf", "c.jkf"]);
    let b = std::fs::read(out.join("b.jkf")).unwrap();
    let rec = shogi_record::read(&b).unwrap();
    assert_eq!(rec.main_line().len(), 4);

    // One unreadable file among them: one line for it, the others converted, exit 2.
    std::fs::write(src.join("zz.csa"), "V2.2\nPI\n+\n+77\n").unwrap();
    let out2 = dir.join("out2");
    let o = shogi(&[
        "convert",
        "--to",
        "usi",
        src.to_str().unwrap(),
        "-o",
        out2.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("zz.csa:4:1: "), "{err}");
    assert_eq!(
        std::fs::read_to_string(out2.join("a.usi")).unwrap(),
        format!("{USI_LINE}\n")
    );
    // One file into an existing folder.
    let o = shogi(&[
        "convert",
        "--to",
        "csa",
        extra.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(out.join("c.csa"))
        .unwrap()
        .contains("-3334FU"));
    // Several inputs need -o.
    let o = shogi(&["convert", "--to", "usi", src.to_str().unwrap()]);
    assert_eq!((o.status.code(), stderr(&o).lines().count()), (Some(2), 1));
}

/// A CSA file of several records (`/` lines between them): one output each
/// in a folder, named after the file and the record's place; where one
/// output is asked for, one clear line and exit 2.
#[test]
fn convert_a_csa_file_of_several_records_into_a_folder() {
    let dir = scratch("convert_several");
    let second = "N+C\nN-D\nPI\n+\n+2726FU\n-8384FU\n%TORYO\n";
    let bad = "PI\n+\n+7776FU\n-33ZZFU\n";
    let file = dir.join("match.csa");
    std::fs::write(&file, format!("{CSA}/\n{second}/\n{bad}")).unwrap();
    let o = shogi(&["convert", "--to", "usi", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("3 records in one file"), "{err}");
    // Into a folder named with a trailing `/`, made for it: the bad record
    // named by its line in the file, the others written.
    let out = format!("{}/", dir.join("out").display());
    let o = shogi(&["convert", "--to", "usi", file.to_str().unwrap(), "-o", &out]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let bad_line = CSA.lines().count() + second.lines().count() + 2 + 4;
    assert!(err.contains(&format!("match.csa:{bad_line}:1: ")), "{err}");
    let read = |name: &str| std::fs::read_to_string(dir.join("out").join(name)).unwrap();
    assert_eq!(read("match-1.usi"), format!("{USI_LINE}\n"));
    assert_eq!(read("match-2.usi"), "startpos moves 2g2f 8c8d\n");
    assert!(!dir.join("out/match-3.usi").exists());
}

/// A KIF file of two games (one after the other, each with its headers),
/// the format given or found: one output each in a folder.
#[test]
fn convert_a_kif_file_of_two_games_into_a_folder() {
    let dir = scratch("convert_two_kif");
    let game = |sente: &str, moves: &str| {
        format!("先手：{sente}\n後手：B\n手数----指手---------消費時間--\n{moves}")
    };
    let file = dir.join("club.kif");
    let text = [
        game(
            "A",
            "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで2手で後手の勝ち\n",
        ),
        game("C", "   1 ２六歩(27)\n   2 ８四歩(83)\n"),
    ]
    .join("\n");
    std::fs::write(&file, text).unwrap();
    for from in [None, Some("kif")] {
        let out = dir.join(format!("out-{}", from.unwrap_or("found")));
        let out = format!("{}/", out.display());
        let mut args = vec!["convert", "--to", "usi", file.to_str().unwrap(), "-o", &out];
        args.extend(from.iter().flat_map(|f| ["--from", *f]));
        let o = shogi(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let read = |name: &str| std::fs::read_to_string(format!("{out}{name}")).unwrap();
        assert_eq!(read("club-1.usi"), "startpos moves 7g7f 3c3d\n");
        assert_eq!(read("club-2.usi"), "startpos moves 2g2f 8c8d\n");
    }
}

#[test]
fn convert_and_diagram_help_document_every_flag_with_examples() {
    let o = shogi(&["convert", "--help"]);
    let help = stdout(&o);
    for flag in [
        "--from",
        "--to",
        "-o",
        "--encoding",
        "FILE|-",
        "Examples:",
        "sjis",
        "usen",
    ] {
        assert!(help.contains(flag), "{flag}\n{help}");
    }
    let o = shogi(&["diagram", "--help"]);
    let help = stdout(&o);
    for flag in [
        "--sfen",
        "--moves",
        "--last-move",
        "--pieces",
        "--coords",
        "-o",
        "--width",
        "Examples:",
        "international",
        "letters",
    ] {
        assert!(help.contains(flag), "{flag}\n{help}");
    }
}

#[test]
fn diagram_writes_svg() {
    let dir = scratch("diagram_svg");
    let out = dir.join("board.svg");
    let o = shogi(&[
        "diagram",
        "--sfen",
        "startpos",
        "--moves",
        "7g7f",
        "3c3d",
        "8h2b+",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    // The last of --moves is highlighted; 39 pieces on the board, a bishop in Sente's hand.
    assert!(svg.contains("class=\"last-move\""));
    assert_eq!(svg.matches("<text class=\"piece").count(), 40);
    assert!(svg.contains(">馬</text>"));
    // `-o -` writes the SVG to stdout.
    let o = shogi(&[
        "diagram",
        "--sfen",
        "startpos",
        "--pieces",
        "international",
        "-o",
        "-",
    ]);
    assert!(o.status.success());
    assert!(roxmltree::Document::parse(&stdout(&o)).is_ok());
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&bytes[16..20]), be(&bytes[20..24]))
}

#[test]
fn diagram_writes_png_of_the_asked_width() {
    use shogi_record::diagram::{HEIGHT, WIDTH};
    let dir = scratch("diagram_png");
    let sfen = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
    for (style, coords, width) in [
        ("kanji", "japanese", 800u32),
        ("international", "letters", 400),
    ] {
        let out = dir.join(format!("{style}.png"));
        let w = width.to_string();
        let o = shogi(&[
            "diagram",
            "--sfen",
            sfen,
            "--last-move",
            "4d3e",
            "--pieces",
            style,
            "--coords",
            coords,
            "--width",
            &w,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        // At most a warning that no kanji font was found (then letters are drawn).
        let err = stderr(&o);
        assert!(
            err.is_empty() || (err.lines().count() == 1 && err.contains("warning")),
            "{err}"
        );
        let png = std::fs::read(&out).unwrap();
        let height = (HEIGHT * f64::from(width) / WIDTH).round() as u32;
        assert_eq!(png_size(&png), (width, height));
        assert!(
            png.len() > 2000,
            "a picture, not a blank: {} bytes",
            png.len()
        );
    }
}

#[test]
fn diagram_png_without_any_font_still_works() {
    let dir = scratch("diagram_nofont");
    let out = dir.join("board.png");
    let o = Command::new(env!("CARGO_BIN_EXE_shogi"))
        .args(["diagram", "--sfen", "startpos", "--width", "300", "-o"])
        .arg(&out)
        .env("SHOGI_DIAGRAM_NO_SYSTEM_FONTS", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("shogi: warning: no font with kanji"),
        "{err}"
    );
    let (w, _) = png_size(&std::fs::read(&out).unwrap());
    assert_eq!(w, 300);
}

#[test]
fn diagram_bad_input_is_one_line() {
    for args in [
        vec!["diagram", "--sfen", "startpos", "-o", "board.gif"],
        vec!["diagram", "--sfen", "not an sfen", "-o", "x.svg"],
        vec![
            "diagram", "--sfen", "startpos", "--moves", "7g7e", "-o", "x.svg",
        ],
        vec![
            "diagram",
            "--sfen",
            "startpos",
            "--last-move",
            "zz",
            "-o",
            "x.svg",
        ],
        vec![
            "diagram", "--sfen", "startpos", "--pieces", "western", "-o", "x.svg",
        ],
        vec!["diagram", "--sfen", "startpos"],
    ] {
        let o = shogi(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&o).lines().count(), 1, "{args:?}: {}", stderr(&o));
    }
}
