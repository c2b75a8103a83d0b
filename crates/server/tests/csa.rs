//! The CSA server protocol through real TCP sockets: two programs log in,
//! are paired, agree and play to each ending; the games are stored like
//! everyone's. The server's clock is the manual one, so time-ups happen
//! when a test moves it, never by waiting.

mod common;

use common::csa::{field, login, program, start, Client};
use common::{account, TempDir, TestServer, Ws};
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

/// Two programs paired and started on `game`: (Sente's client, Gote's, the game id).
async fn started(s: &TestServer, game: &str) -> (Client, Client, String) {
    let ta = program(s, "alpha").await;
    let tb = program(s, "beta").await;
    let mut a = login(s, "alpha", &ta, game).await;
    let mut b = login(s, "beta", &tb, game).await;
    let sa = a.summary().await;
    let sb = b.summary().await;
    let id = field(&sa, "Game_ID").to_owned();
    assert_eq!(field(&sb, "Game_ID"), id);
    assert_ne!(field(&sa, "Your_Turn"), field(&sb, "Your_Turn"));
    a.send("AGREE").await;
    b.send(&format!("AGREE {id}")).await;
    a.expect(&format!("START:{id}")).await;
    b.expect(&format!("START:{id}")).await;
    if field(&sa, "Your_Turn") == "+" {
        (a, b, id)
    } else {
        (b, a, id)
    }
}

/// Plays `moves` alternately starting with `first`, each echoed to both
/// (without its comment, if it has one).
async fn play(first: &mut Client, second: &mut Client, moves: &[&str]) {
    for (i, mv) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut *first, &mut *second)
        } else {
            (&mut *second, &mut *first)
        };
        mover.send(mv).await;
        let echo = format!("{},T0", mv.split(',').next().unwrap_or(mv));
        mover.expect(&echo).await;
        other.expect(&echo).await;
    }
}

#[tokio::test]
async fn two_programs_play_to_a_resignation_stored_like_every_game() {
    let tmp = TempDir::new("csa-resign");
    let s = start(&tmp).await;
    let (mut sente, mut gote, id) = started(&s, "test-600-10").await;
    play(&mut sente, &mut gote, &["+7776FU", "-3334FU"]).await;
    // Listed among the lobby's live games while it is played.
    let (_, lobby) = s.request("GET", "/api/lobby", None).await;
    let live = lobby["live"].as_array().unwrap();
    assert!(live.iter().any(|g| g["id"] == id.as_str()), "{lobby}");
    // Thinking time is charged in whole seconds.
    s.advance(3_400);
    sente.send("+2726FU,'* 35 -8384FU").await;
    sente.expect("+2726FU,T3").await;
    gote.expect("+2726FU,T3").await;
    gote.send("%TORYO").await;
    for (c, outcome) in [(&mut gote, "#LOSE"), (&mut sente, "#WIN")] {
        c.expect("%TORYO,T0").await;
        c.expect("#RESIGN").await;
        c.expect(outcome).await;
    }
    // After the game the programs may log out.
    sente.send("LOGOUT").await;
    sente.expect("LOGOUT:completed").await;
    assert!(sente.closed().await);
    let state = s.state(&id).await;
    assert_eq!(state["status"]["reason"], "resign");
    assert_eq!(state["status"]["winner"], "sente");
    let mut names = [
        state["players"]["sente"]["name"].as_str().unwrap(),
        state["players"]["gote"]["name"].as_str().unwrap(),
    ];
    names.sort_unstable();
    assert_eq!(names, ["alpha", "beta"]);
    // Two programs' even game is rated in the programs' own pool.
    assert_eq!(state["rated"], true);
    // Whole seconds: 3.4 s cost Sente 3 s.
    assert_eq!(state["clocks"]["sente"]["main_ms"], 597_000);
    let (status, _, csa) = s
        .get_text(&format!("/api/games/{id}/record?format=csa"))
        .await;
    assert_eq!(status, 200);
    assert!(csa.contains("+7776FU"), "{csa}");
    assert!(csa.contains("%TORYO"), "{csa}");
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_programs_seat_profile_and_archive_row_say_bot_and_a_persons_do_not() {
    let tmp = TempDir::new("csa-bot");
    let s = start(&tmp).await;
    let (cookie, _) = account(&s, "carol").await;
    let (mut sente, mut gote, id) = started(&s, "test-600-10").await;
    play(&mut sente, &mut gote, &["+7776FU", "-3334FU"]).await;
    // The lobby's live list and the game's state mark both seats.
    let (_, lobby) = s.request("GET", "/api/lobby", None).await;
    let live = lobby["live"].as_array().unwrap();
    let row = live.iter().find(|g| g["id"] == id.as_str()).unwrap();
    assert_eq!(row["players"]["sente"]["bot"], true, "{row}");
    assert_eq!(row["players"]["gote"]["bot"], true, "{row}");
    let state = s.state(&id).await;
    assert_eq!(state["players"]["sente"]["bot"], true, "{state}");
    assert_eq!(state["players"]["gote"]["bot"], true, "{state}");
    gote.send("%TORYO").await;
    for c in [&mut gote, &mut sente] {
        c.expect("%TORYO,T0").await;
    }
    // Profiles say it always; a person's says false.
    let (_, alpha) = s.request("GET", "/api/players/alpha", None).await;
    assert_eq!(alpha["bot"], true, "{alpha}");
    let (_, carol) = s.request("GET", "/api/players/carol", None).await;
    assert_eq!(carol["bot"], false, "{carol}");
    let (_, _, me) = s.request_with("GET", "/api/me", &[&cookie], None).await;
    assert_eq!(me["bot"], false, "{me}");
    let (_, archive) = s.request("GET", "/api/archive", None).await;
    let entry = archive["entries"]
        .as_array()
        .and_then(|e| e.iter().find(|e| e["id"] == id.as_str()))
        .unwrap_or_else(|| panic!("{archive}"));
    assert_eq!(entry["sente_bot"], true, "{entry}");
    assert_eq!(entry["gote_bot"], true, "{entry}");
    s.server.shutdown().await;
    // Read back from the database, the seats are still the programs'.
    let s = start(&tmp).await;
    let state = s.state(&id).await;
    assert_eq!(state["players"]["sente"]["bot"], true, "{state}");
    s.server.shutdown().await;
}

#[tokio::test]
async fn the_summary_tells_the_clock_and_the_even_start() {
    let tmp = TempDir::new("csa-summary");
    let s = start(&tmp).await;
    let ta = program(&s, "alpha").await;
    let tb = program(&s, "beta").await;
    let mut a = login(&s, "alpha", &ta, "fischer-600-10F").await;
    let mut b = login(&s, "beta", &tb, "fischer-600-10F").await;
    let sa = a.summary().await;
    b.summary().await;
    assert_eq!(field(&sa, "Protocol_Version"), "1.2");
    assert_eq!(field(&sa, "To_Move"), "+");
    assert_eq!(field(&sa, "Total_Time"), "600");
    assert_eq!(field(&sa, "Byoyomi"), "0");
    assert_eq!(field(&sa, "Increment"), "10");
    assert_eq!(field(&sa, "Time_Unit"), "1sec");
    assert!(sa.contains(&"P1-KY-KE-GI-KI-OU-KI-GI-KE-KY".to_string()));
    assert!(sa.contains(&"P9+KY+KE+GI+KI+OU+KI+GI+KE+KY".to_string()));
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_rejection_is_told_to_both() {
    let tmp = TempDir::new("csa-reject");
    let s = start(&tmp).await;
    let ta = program(&s, "alpha").await;
    let tb = program(&s, "beta").await;
    let mut a = login(&s, "alpha", &ta, "test-60-0").await;
    let mut b = login(&s, "beta", &tb, "test-60-0").await;
    let id = field(&a.summary().await, "Game_ID").to_owned();
    b.summary().await;
    a.send("AGREE").await;
    b.send("REJECT").await;
    a.expect(&format!("REJECT:{id} by beta")).await;
    b.expect(&format!("REJECT:{id} by beta")).await;
    let (status, _) = s.request("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 404, "a rejected game is never stored");
    s.server.shutdown().await;
}

#[tokio::test]
async fn an_illegal_move_loses_and_is_not_echoed() {
    let tmp = TempDir::new("csa-illegal");
    let s = start(&tmp).await;
    let (mut sente, mut gote, _) = started(&s, "test-600-10").await;
    // The rook cannot jump over its own pawn.
    sente.send("+2824HI").await;
    for (c, outcome) in [(&mut sente, "#LOSE"), (&mut gote, "#WIN")] {
        c.expect("#ILLEGAL_MOVE").await;
        c.expect(outcome).await;
    }
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_move_from_an_empty_square_or_of_the_wrong_sign_loses() {
    let tmp = TempDir::new("csa-unreadable");
    let s = start(&tmp).await;
    let (mut sente, mut gote, _) = started(&s, "test-600-10").await;
    sente.send("+5554FU").await;
    for (c, outcome) in [(&mut sente, "#LOSE"), (&mut gote, "#WIN")] {
        c.expect("#ILLEGAL_MOVE").await;
        c.expect(outcome).await;
    }
    let tmp2 = TempDir::new("csa-sign");
    let s2 = start(&tmp2).await;
    let (mut sente, mut gote, _) = started(&s2, "test-600-10").await;
    sente.send("-3334FU").await;
    sente.expect("#ILLEGAL_MOVE").await;
    sente.expect("#LOSE").await;
    gote.expect("#ILLEGAL_MOVE").await;
    gote.expect("#WIN").await;
    s.server.shutdown().await;
    s2.server.shutdown().await;
}

#[tokio::test]
async fn the_flag_falls_on_the_servers_clock() {
    let tmp = TempDir::new("csa-timeup");
    let s = start(&tmp).await;
    let (mut sente, mut gote, _) = started(&s, "test-60-10").await;
    play(&mut sente, &mut gote, &["+7776FU"]).await;
    s.advance(70_001);
    for (c, outcome) in [(&mut gote, "#LOSE"), (&mut sente, "#WIN")] {
        c.expect("#TIME_UP").await;
        c.expect(outcome).await;
    }
    // The loser stopped answering: its socket is closed after the result.
    assert!(gote.closed().await);
    // The winner stays logged in.
    sente.send("").await;
    sente.expect("").await;
    sente.send("LOGOUT").await;
    sente.expect("LOGOUT:completed").await;
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_program_that_disconnects_mid_game_loses_on_time() {
    let tmp = TempDir::new("csa-disconnect");
    let s = start(&tmp).await;
    let (mut sente, mut gote, id) = started(&s, "test-60-0").await;
    play(&mut sente, &mut gote, &["+7776FU", "-3334FU"]).await;
    drop(sente);
    s.advance(60_001);
    gote.expect("#TIME_UP").await;
    gote.expect("#WIN").await;
    assert_eq!(s.state(&id).await["status"]["reason"], "timeout");
    s.server.shutdown().await;
}

#[tokio::test]
async fn fourfold_repetition_is_sennichite_a_draw() {
    let tmp = TempDir::new("csa-sennichite");
    let s = start(&tmp).await;
    let (mut sente, mut gote, _) = started(&s, "test-600-10").await;
    let cycle = ["+5948OU", "-5142OU", "+4859OU", "-4251OU"];
    let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    play(&mut sente, &mut gote, &moves).await;
    for c in [&mut sente, &mut gote] {
        c.expect("#SENNICHITE").await;
        c.expect("#DRAW").await;
    }
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_false_declaration_loses() {
    let tmp = TempDir::new("csa-kachi");
    let s = start(&tmp).await;
    let (mut sente, mut gote, _) = started(&s, "test-600-10").await;
    sente.send("%KACHI").await;
    for (c, outcome) in [(&mut sente, "#LOSE"), (&mut gote, "#WIN")] {
        c.expect("%KACHI").await;
        c.expect("#ILLEGAL_MOVE").await;
        c.expect(outcome).await;
    }
    s.server.shutdown().await;
}

/// A 10-piece handicap game after which Sente may declare (how it was
/// found: the file's head).
const DECLARABLE_10P: &str = include_str!("data/csa_kachi_10p.txt");

#[tokio::test]
async fn a_correct_declaration_after_a_whole_game_wins_by_jishogi() {
    let tmp = TempDir::new("csa-kachi-win");
    let s = start(&tmp).await;
    let (mut sente, mut gote, id) = started(&s, "hc10p_kachi-600-10").await;
    let moves: Vec<&str> = DECLARABLE_10P
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    assert_eq!(moves.len(), 233);
    // The giver, Gote, moves first.
    play(&mut gote, &mut sente, &moves).await;
    let state = s.state(&id).await;
    assert_eq!(state["impasse"]["sente_points"], 28, "{state}");
    sente.send("%KACHI").await;
    for (c, outcome) in [(&mut sente, "#WIN"), (&mut gote, "#LOSE")] {
        c.expect("%KACHI").await;
        c.expect("#JISHOGI").await;
        c.expect(outcome).await;
    }
    let state = s.state(&id).await;
    assert_eq!(
        state["status"],
        serde_json::json!({"over": true, "winner": "sente", "reason": "impasse"})
    );
    let (_, _, csa) = s
        .get_text(&format!("/api/games/{id}/record?format=csa"))
        .await;
    assert!(csa.contains("%KACHI"), "{csa}");
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_handicap_game_with_colour_preferences() {
    let tmp = TempDir::new("csa-handicap");
    let s = start(&tmp).await;
    let ta = program(&s, "alpha").await;
    let tb = program(&s, "beta").await;
    // alpha asks for Gote (the handicap giver, who moves first).
    let mut a = login(&s, "alpha", &ta, "hcbishop_t-300-10-W").await;
    let mut b = login(&s, "beta", &tb, "hcbishop_t-300-10-B").await;
    let sa = a.summary().await;
    let sb = b.summary().await;
    assert_eq!(field(&sa, "Your_Turn"), "-");
    assert_eq!(field(&sb, "Your_Turn"), "+");
    assert_eq!(field(&sa, "To_Move"), "-");
    assert_eq!(field(&sa, "Name-"), "alpha");
    assert!(sa.contains(&"P2 * -HI *  *  *  *  *  *  * ".to_string()));
    let id = field(&sa, "Game_ID").to_owned();
    a.send("AGREE").await;
    b.send("AGREE").await;
    a.expect(&format!("START:{id}")).await;
    b.expect(&format!("START:{id}")).await;
    play(&mut a, &mut b, &["-3334FU", "+7776FU"]).await;
    assert_eq!(s.state(&id).await["rules"]["impasse"], "27");
    s.server.shutdown().await;
}

#[tokio::test]
async fn keep_alive_garbage_and_long_lines_neither_crash_nor_stall() {
    let tmp = TempDir::new("csa-garbage");
    let s = start(&tmp).await;
    let token = program(&s, "alpha").await;
    let mut c = Client::connect(&s).await;
    c.send("").await;
    c.expect("").await;
    c.send("HELLO WORLD").await;
    c.send("+7776FU").await;
    c.send("\u{00e9}\u{0001}\t%%%").await;
    c.send(&"x".repeat(100_000)).await;
    c.out.write_all(&[0xff, 0xfe, b'\n']).await.unwrap();
    c.send("").await;
    c.expect("").await;
    c.send("%%VERSION").await;
    assert!(c.line().await.starts_with("##[VERSION] "));
    c.expect("##[VERSION] +OK").await;
    c.send(&format!("LOGIN alpha test-60-0,{token}")).await;
    c.expect("LOGIN:alpha OK").await;
    c.send("").await;
    c.expect("").await;
    c.send("%%WHO").await;
    c.expect("##[WHO] alpha").await;
    c.expect("##[WHO] +OK").await;
    c.send("%%MONITOR2ON x").await;
    assert!(c.line().await.starts_with("##[ERROR] "));
    s.server.shutdown().await;
}

#[tokio::test]
async fn wrong_logins_are_incorrect_and_a_second_login_is_refused() {
    let tmp = TempDir::new("csa-login");
    let s = start(&tmp).await;
    let token = program(&s, "alpha").await;
    account(&s, "person").await;
    for line in [
        "LOGIN alpha test-60-0,wrong".to_string(),
        "LOGIN alpha test-60-0".to_string(),
        format!("LOGIN alpha floodgate-99999999999999-10,{token}"),
        format!("LOGIN person test-60-0,{token}"),
        format!("LOGIN nobody test-60-0,{token}"),
    ] {
        let mut c = Client::connect(&s).await;
        c.send(&line).await;
        c.expect("LOGIN:incorrect").await;
        assert!(c.closed().await, "{line}");
    }
    let _first = login(&s, "alpha", &token, "test-60-0").await;
    let mut second = Client::connect(&s).await;
    second.send(&format!("LOGIN alpha test-60-0,{token}")).await;
    second.expect("LOGIN:incorrect").await;
    assert!(second.closed().await);
    s.server.shutdown().await;
}

/// Whether python-shogi (`pip install python-shogi`) can be imported.
fn python_shogi() -> bool {
    std::process::Command::new("python3")
        .args(["-c", "import shogi.CSA"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[tokio::test]
async fn python_shogi_plays_against_us_when_installed() {
    if !python_shogi() {
        // scripts/test-all.sh installs it and names it in SHOGI_OTHER_TOOLS:
        // then a missing python-shogi fails instead of skipping.
        let required = std::env::var("SHOGI_OTHER_TOOLS")
            .is_ok_and(|v| v.split(',').any(|t| t.trim() == "python-shogi"));
        assert!(
            !required,
            "python-shogi must run (SHOGI_OTHER_TOOLS names it) but cannot be imported"
        );
        eprintln!("python-shogi is not installed: skipped (pip install python-shogi)");
        return;
    }
    let tmp = TempDir::new("csa-python");
    let s = start(&tmp).await;
    let ta = program(&s, "alpha").await;
    let tb = program(&s, "pyshogi").await;
    let mut a = login(&s, "alpha", &ta, "interop-600-10-B").await;
    let addr = s.server.csa_addr().unwrap();
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/csa_python_client.py"
    );
    let password = format!("interop-600-10-W,{tb}");
    let python = tokio::task::spawn_blocking(move || {
        std::process::Command::new("python3")
            .args([
                script,
                &addr.ip().to_string(),
                &addr.port().to_string(),
                "pyshogi",
                &password,
            ])
            .output()
            .unwrap()
    });
    let summary = a.summary().await;
    assert_eq!(field(&summary, "Name-"), "pyshogi");
    let id = field(&summary, "Game_ID").to_owned();
    a.send("AGREE").await;
    a.expect(&format!("START:{id}")).await;
    a.send("+7776FU").await;
    a.expect("+7776FU,T0").await;
    a.expect("-3334FU,T0").await;
    a.expect("%TORYO,T0").await;
    a.expect("#RESIGN").await;
    a.expect("#WIN").await;
    let out = python.await.unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("python-shogi: resigned after 2 moves"));
    s.server.shutdown().await;
}

#[tokio::test]
async fn evaluation_comments_are_kept_in_the_stored_record() {
    let tmp = TempDir::new("csa-comments");
    let s = start(&tmp).await;
    let (mut sente, mut gote, id) = started(&s, "test-600-10").await;
    sente.send("+7776FU,'* 35 -3334FU +2726FU").await;
    sente.expect("+7776FU,T0").await;
    gote.expect("+7776FU,T0").await;
    // Not an evaluation (no `*`): accepted, not kept.
    gote.send("-3334FU,'just words").await;
    gote.expect("-3334FU,T0").await;
    sente.expect("-3334FU,T0").await;
    sente.send("+2726FU,'*-120").await;
    sente.expect("+2726FU,T0").await;
    gote.expect("+2726FU,T0").await;
    gote.send("%TORYO").await;
    for c in [&mut gote, &mut sente] {
        c.expect("%TORYO,T0").await;
        c.expect("#RESIGN").await;
        c.line().await;
    }
    let (status, _, csa) = s
        .get_text(&format!("/api/games/{id}/record?format=csa"))
        .await;
    assert_eq!(status, 200);
    let lines: Vec<&str> = csa.lines().collect();
    let after = |mv: &str| {
        let i = lines
            .iter()
            .position(|l| l.starts_with(mv))
            .unwrap_or_else(|| panic!("{mv} in {csa}"));
        lines.get(i + 1).copied().unwrap_or("")
    };
    assert_eq!(after("+7776FU"), "'* 35 -3334FU +2726FU", "{csa}");
    assert!(after("-3334FU").starts_with('+'), "{csa}");
    assert_eq!(after("+2726FU"), "'*-120", "{csa}");
    assert!(!csa.contains("just words"), "{csa}");
    // The other formats show it as a comment too.
    let (status, _, kif) = s
        .get_text(&format!("/api/games/{id}/record?format=kif"))
        .await;
    assert_eq!(status, 200);
    assert!(kif.contains("35 -3334FU +2726FU"), "{kif}");
    s.server.shutdown().await;
}

/// A spectator's WebSocket asking for diffs; its first message.
async fn watch_diffs(s: &TestServer, id: &str) -> (Ws, Value) {
    let url = format!("ws://{}/api/games/{id}/ws?diffs=1", s.addr());
    let (stream, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let mut ws = Ws::new(stream);
    let first = ws.next().await;
    assert_eq!(first["type"], "state", "{first}");
    (ws, first)
}

/// The notes a client applying diffs holds once `plies` moves are played
/// (a `state` gives them all, a diff with a move adds its `note`), and how
/// many came in diffs.
async fn notes_by_diffs(ws: &mut Ws, first: &Value, plies: usize) -> (Value, usize) {
    let mut notes = first.get("notes").cloned().unwrap_or_else(|| json!([]));
    let mut in_diffs = 0;
    let mut held = first["moves"].as_array().map_or(0, Vec::len);
    while held < plies {
        let msg = ws.next().await;
        match msg["type"].as_str() {
            Some("state") => {
                notes = msg.get("notes").cloned().unwrap_or_else(|| json!([]));
                held = msg["moves"].as_array().map_or(0, Vec::len);
            }
            Some("diff") if msg["move"].is_string() => {
                assert_eq!(msg["ply"], held + 1, "{msg}");
                held += 1;
                if let Some(note) = msg.get("note") {
                    assert_eq!(note["ply"], held, "{msg}");
                    notes.as_array_mut().unwrap().push(note.clone());
                    in_diffs += 1;
                }
            }
            _ => assert!(msg.get("note").is_none(), "a note without a move: {msg}"),
        }
    }
    (notes, in_diffs)
}

#[tokio::test]
async fn evaluations_and_lines_reach_the_live_state_diffs_and_review() {
    let tmp = TempDir::new("csa-notes");
    let s = start(&tmp).await;
    let (mut sente, mut gote, id) = started(&s, "test-600-10").await;
    let (mut diffs, first) = watch_diffs(&s, &id).await;
    assert!(
        first.get("notes").is_none(),
        "no notes before a move: {first}"
    );
    let mut full = s.connect(&id, None).await;
    play(
        &mut sente,
        &mut gote,
        &[
            // The line stops at its first illegal move (the second -8384FU, on Sente's turn).
            "+7776FU,'* 35 -3334FU +2726FU -8384FU -8384FU",
            // Gote's evaluation, from Sente's side all the same; the move itself leads the line.
            "-3334FU,'* -42 -3334FU +2726FU XX +2625FU",
            "+2726FU",
            // ShogiHome's mate: -30000, Gote mates.
            "-8384FU,'*-30000 +2625FU",
        ],
    )
    .await;
    let want = json!([
        {"ply": 1, "score": 35, "mate": null, "pv": ["3c3d", "2g2f", "8c8d"]},
        {"ply": 2, "score": -42, "mate": null, "pv": ["2g2f"]},
        {"ply": 4, "score": null, "mate": {"winner": "gote", "plies": null}, "pv": ["2f2e"]},
    ]);
    let live = full
        .state_where(|st| st["moves"].as_array().is_some_and(|m| m.len() == 4))
        .await;
    assert_eq!(live["notes"], want, "{live}");
    let (held, in_diffs) = notes_by_diffs(&mut diffs, &first, 4).await;
    assert_eq!(held, want);
    assert!(in_diffs > 0, "the notes came in diffs");
    assert_eq!(s.state(&id).await["notes"], want);
    gote.send("%TORYO").await;
    for c in [&mut gote, &mut sente] {
        c.expect("%TORYO,T0").await;
    }
    // The review's record: the same notes, and the programs marked.
    let (status, rec) = s
        .request("GET", &format!("/api/games/{id}/record?format=json"), None)
        .await;
    assert_eq!(status, 200, "{rec}");
    assert_eq!(rec["notes"], want, "{rec}");
    assert_eq!(rec["sente_bot"], true, "{rec}");
    assert_eq!(rec["gote_bot"], true, "{rec}");
    // The download stays exactly as played.
    let (_, _, csa) = s
        .get_text(&format!("/api/games/{id}/record?format=csa"))
        .await;
    assert!(csa.contains("'* -42 -3334FU +2726FU XX +2625FU"), "{csa}");
    s.server.shutdown().await;
    // A room opened again from the database reads them again.
    let s = start(&tmp).await;
    assert_eq!(s.state(&id).await["notes"], want);
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_persons_game_and_an_import_have_no_notes() {
    let tmp = TempDir::new("csa-no-notes");
    let s = start(&tmp).await;
    let (id, host, _) = s
        .friend_game(json!({"mode": "friend", "side": "sente"}))
        .await;
    let mut ws = s.connect(&id, Some(&host)).await;
    let state = ws.play("7g7f").await;
    assert!(state.get("notes").is_none(), "{state}");
    // A record's comments stay comments: an imported floodgate record has no notes.
    let (status, rec) = raw_import(&s, b"V2.2\nPI\n+\n+7776FU\n'** 35 -3334FU\n").await;
    assert_eq!(status, 200, "{rec}");
    assert!(rec.get("notes").is_none(), "{rec}");
    assert!(rec.get("sente_bot").is_none(), "{rec}");
    s.server.shutdown().await;
}

/// `POST /api/import` of `bytes` without saving: the status and the answer.
async fn raw_import(s: &TestServer, bytes: &[u8]) -> (u16, Value) {
    let (status, _, body) = common::raw(&s.addr(), "POST", "/api/import", bytes).await;
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

#[tokio::test]
async fn chudan_stops_the_game_without_a_result() {
    let tmp = TempDir::new("csa-chudan");
    let s = start(&tmp).await;
    let (mut sente, mut gote, id) = started(&s, "test-600-10").await;
    play(&mut sente, &mut gote, &["+7776FU", "-3334FU"]).await;
    // Either player may ask, on either turn: here the one not to move.
    gote.send("%CHUDAN").await;
    for c in [&mut sente, &mut gote] {
        c.expect("#CHUDAN").await;
    }
    // No outcome line follows; both stay logged in.
    for c in [&mut sente, &mut gote] {
        c.send("").await;
        c.expect("").await;
    }
    let state = s.state(&id).await;
    assert_eq!(state["status"]["reason"], "abort", "{state}");
    assert!(state["status"]["winner"].is_null(), "{state}");
    // An aborted game changes no rating.
    let (_, alpha) = s.request("GET", "/api/players/alpha", None).await;
    assert_eq!(alpha["ratings"], serde_json::json!({}), "{alpha}");
    // A move after it is refused silently: the game is over.
    sente.send("+2726FU").await;
    sente.send("").await;
    sente.expect("").await;
    let (status, _, csa) = s
        .get_text(&format!("/api/games/{id}/record?format=csa"))
        .await;
    assert_eq!(status, 200);
    assert!(csa.contains("%CHUDAN"), "{csa}");
    s.server.shutdown().await;
}

/// `plies` moves from the even start in CSA words, none of which checks,
/// mates or repeats a position (so only the move limit can end them): at
/// each turn the first legal move that leads somewhere new.
fn quiet_walk(plies: usize) -> Vec<String> {
    use shogi_core::Position;
    use shogi_record::csa::CsaMove;
    let mut pos = Position::startpos();
    let mut seen = std::collections::HashSet::from([pos.hash()]);
    let mut out = Vec::with_capacity(plies);
    for _ in 0..plies {
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|&m| {
                let mut next = pos.clone();
                next.make_move(m);
                !seen.contains(&next.hash()) && !next.in_check() && !next.legal_moves().is_empty()
            })
            .expect("a quiet move");
        out.push(CsaMove::of(&pos, m).to_string());
        pos.make_move(m);
        seen.insert(pos.hash());
    }
    out
}

#[tokio::test]
async fn the_move_limit_is_max_moves_censored() {
    let tmp = TempDir::new("csa-max-moves");
    let s = start(&tmp).await;
    let (mut sente, mut gote, id) = started(&s, "test-600-10").await;
    let walk = quiet_walk(256);
    let moves: Vec<&str> = walk.iter().map(String::as_str).collect();
    play(&mut sente, &mut gote, &moves).await;
    for c in [&mut sente, &mut gote] {
        c.expect("#MAX_MOVES").await;
        c.expect("#CENSORED").await;
    }
    let state = s.state(&id).await;
    assert_eq!(state["status"]["reason"], "max_moves", "{state}");
    assert!(state["status"]["winner"].is_null(), "{state}");
    s.server.shutdown().await;
}

#[tokio::test]
async fn perpetual_check_is_oute_sennichite_lost_by_the_checker() {
    let tmp = TempDir::new("csa-oute-sennichite");
    let s = start(&tmp).await;
    let (mut sente, mut gote, id) = started(&s, "test-600-10").await;
    // Sente's bishop takes 3c promoting, checking the king on 5a through
    // 4b; then the horse checks from 4c and 3c in turn while the king
    // steps between 5b and 5a. The position after ply 5 comes back at
    // plies 9, 13 and 17: the fourth time, every Sente move a check.
    let mut moves = vec!["+7776FU", "-1314FU", "+8833UM", "-5152OU"];
    let cycle = ["+3343UM", "-5251OU", "+4333UM", "-5152OU"];
    moves.extend(cycle.iter().cycle().take(12));
    play(&mut sente, &mut gote, &moves).await;
    sente.send("+3343UM").await;
    for (c, outcome) in [(&mut sente, "#LOSE"), (&mut gote, "#WIN")] {
        c.expect("+3343UM,T0").await;
        c.expect("#OUTE_SENNICHITE").await;
        c.expect(outcome).await;
    }
    let state = s.state(&id).await;
    assert_eq!(state["status"]["winner"], "gote", "{state}");
    s.server.shutdown().await;
}

#[tokio::test]
async fn list_show_and_help_tell_the_games_in_progress() {
    let tmp = TempDir::new("csa-list");
    let s = start(&tmp).await;
    let (mut sente, mut gote, id) = started(&s, "test-600-10").await;
    play(&mut sente, &mut gote, &["+7776FU", "-3334FU"]).await;
    // Not before a login.
    let mut guest = Client::connect(&s).await;
    guest.send("%%LIST").await;
    assert!(guest.line().await.starts_with("##[ERROR] "));
    let token = program(&s, "gamma").await;
    let mut watcher = login(&s, "gamma", &token, "other-60-0").await;
    watcher.send("%%LIST").await;
    let line = watcher.line().await;
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words[0], "##[LIST]", "{line}");
    assert_eq!(words[1], id, "{line}");
    let mut names = [words[2], words[3]];
    names.sort_unstable();
    assert_eq!(names, ["alpha", "beta"], "{line}");
    assert_eq!(&words[4..], ["test-600-10", "2"], "{line}");
    watcher.expect("##[LIST] +OK").await;

    watcher.send(&format!("%%SHOW {id}")).await;
    let mut shown = Vec::new();
    loop {
        let l = watcher.line().await;
        assert!(l.starts_with("##[SHOW] "), "{l}");
        if l == "##[SHOW] +OK" {
            break;
        }
        shown.push(l);
    }
    assert_eq!(shown[0], format!("##[SHOW] Game_ID:{id}"));
    assert!(
        shown.contains(&"##[SHOW] Game_Name:test-600-10".to_string()),
        "{shown:?}"
    );
    assert!(
        shown.contains(&"##[SHOW] P7+FU+FU * +FU+FU+FU+FU+FU+FU".to_string()),
        "{shown:?}"
    );
    assert!(
        shown.contains(&"##[SHOW] P6 *  * +FU *  *  *  *  *  * ".to_string()),
        "{shown:?}"
    );
    let tail: Vec<&str> = shown
        .iter()
        .rev()
        .take(4)
        .rev()
        .map(String::as_str)
        .collect();
    assert_eq!(
        tail,
        [
            "##[SHOW] +",
            "##[SHOW] Moves:2",
            "##[SHOW] +7776FU",
            "##[SHOW] -3334FU"
        ]
    );
    watcher.send("%%SHOW nosuchgame").await;
    assert!(watcher.line().await.starts_with("##[ERROR] "));

    watcher.send("%%HELP").await;
    let mut help = Vec::new();
    loop {
        let l = watcher.line().await;
        if l == "##[HELP] +OK" {
            break;
        }
        help.push(l);
    }
    for word in ["%%LIST", "%%SHOW", "%%WHO", "%%VERSION"] {
        assert!(help.iter().any(|l| l.contains(word)), "{word} in {help:?}");
    }

    // Once over, the game is no longer listed.
    gote.send("%TORYO").await;
    for c in [&mut gote, &mut sente] {
        c.expect("%TORYO,T0").await;
        c.expect("#RESIGN").await;
        c.line().await;
    }
    watcher.send("%%LIST").await;
    watcher.expect("##[LIST] +OK").await;
    s.server.shutdown().await;
}

#[tokio::test]
async fn monitor2_streams_a_games_moves_to_a_watcher() {
    let tmp = TempDir::new("csa-monitor");
    let s = start(&tmp).await;
    let (mut sente, mut gote, id) = started(&s, "test-600-10").await;
    play(&mut sente, &mut gote, &["+7776FU"]).await;
    let token = program(&s, "gamma").await;
    let mut watcher = login(&s, "gamma", &token, "other-60-0").await;
    watcher.send(&format!("%%MONITOR2ON {id}")).await;
    let tag = format!("##[MONITOR2][{id}]");
    let mut first = Vec::new();
    loop {
        let l = watcher.line().await;
        assert!(l.starts_with(&tag), "{l}");
        let done = l.ends_with("+7776FU,T0");
        first.push(l);
        if done {
            break;
        }
    }
    assert!(
        first.contains(&format!("{tag} P1-KY-KE-GI-KI-OU-KI-GI-KE-KY")),
        "{first:?}"
    );
    s.advance(2_500);
    gote.send("-3334FU").await;
    gote.expect("-3334FU,T2").await;
    sente.expect("-3334FU,T2").await;
    watcher.expect(&format!("{tag} -3334FU,T2")).await;
    sente.send("%TORYO").await;
    watcher.expect(&format!("{tag} #RESIGN")).await;
    watcher.expect(&format!("{tag} +OK")).await;
    // Off: nothing more is sent, and the connection answers as before.
    watcher.send("%%MONITOR2OFF").await;
    watcher.expect("##[MONITOR2] +OK").await;
    watcher.send(&format!("%%MONITOR2ON {id}")).await;
    assert!(watcher.line().await.starts_with("##[ERROR] "));
    s.server.shutdown().await;
}
