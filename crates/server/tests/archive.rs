//! The archive, record import and download, diagrams, analysis and the mate search.

mod common;

use std::time::Duration;

use common::{local, raw, records_dir, TempDir, TestServer};
use serde_json::{json, Value};
use shogi_server::ActivityGate;

async fn import(ts: &TestServer, bytes: &[u8], save: bool) -> (u16, Value) {
    let path = if save {
        "/api/import?save=1"
    } else {
        "/api/import"
    };
    let (status, _, body) = raw(&ts.addr(), "POST", path, bytes).await;
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

fn usi_moves(line: &str) -> Vec<String> {
    let rec = shogi_record::usi::read(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    rec.main_line().iter().map(ToString::to_string).collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

async fn archive_total(ts: &TestServer) -> u64 {
    let (status, list) = ts.request("GET", "/api/archive?per_page=100", None).await;
    assert_eq!(status, 200, "{list}");
    list["total"].as_u64().unwrap()
}

#[tokio::test]
async fn every_shared_record_imports_and_reads_back() {
    let dir = records_dir();
    let tmp = TempDir::new("archive-import");
    let ts = TestServer::start(&tmp.db()).await;
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).unwrap();
    let mut header: Vec<&str> = Vec::new();
    let mut count = 0;
    let mut ids = std::collections::BTreeSet::new();
    for line in manifest.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        if header.is_empty() {
            header = cols;
            continue;
        }
        let col = |name: &str| cols[header.iter().position(|h| *h == name).unwrap()];
        let file = col("file");
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let expected =
            usi_moves(&std::fs::read_to_string(dir.join(col("expected_usi_file"))).unwrap());
        let (status, imported) = import(&ts, &bytes, true).await;
        // The same game in another format (the same moves and players) is stored once.
        let stored = status == 201 && imported["duplicate"] == false;
        let again = status == 200 && imported["duplicate"] == true;
        assert!(stored || again, "{file}: {status} {imported}");
        assert_eq!(
            strings(&imported["moves"]),
            expected,
            "{file}: imported moves"
        );
        let id = imported["id"].as_str().unwrap().to_string();
        assert_eq!(
            ids.insert(id.clone()),
            stored,
            "{file}: a new id only when stored"
        );
        let (status, back) = ts
            .request("GET", &format!("/api/games/{id}/record?format=json"), None)
            .await;
        assert_eq!(status, 200, "{file}: {back}");
        assert_eq!(strings(&back["moves"]), expected, "{file}: stored moves");
        if stored {
            assert_eq!(back["ending"], imported["ending"], "{file}: ending");
        }
        assert_eq!(back["start_sfen"], imported["start_sfen"], "{file}");
        // Tagged on reading, the same for the preview and the stored record.
        assert!(
            back["strategy"]["sente"]["castles"].is_array(),
            "{file}: {back}"
        );
        assert_eq!(back["strategy"], imported["strategy"], "{file}: strategy");
        let reason = imported["ending"]["reason"].as_str();
        match col("expected_ending") {
            "%TORYO" | "TORYO" | "投了" => assert_eq!(reason, Some("resign"), "{file}"),
            "中断" => assert_eq!(reason, Some("abort"), "{file}"),
            "千日手" => assert_eq!(reason, Some("repetition"), "{file}"),
            e if e.starts_with("(none") => assert_eq!(reason, None, "{file}"),
            _ => {}
        }
        // The KIF and CSA downloads read back to the same main line.
        for format in ["kif", "csa"] {
            let (status, head, body) = ts
                .get_text(&format!("/api/games/{id}/record?format={format}"))
                .await;
            assert_eq!(status, 200, "{file} {format}");
            assert!(head.contains("attachment"), "{head}");
            let again = shogi_record::read(body.as_bytes())
                .unwrap_or_else(|e| panic!("{file} as {format}: {e}\n{body}"));
            let moves: Vec<String> = again.main_line().iter().map(ToString::to_string).collect();
            assert_eq!(moves, expected, "{file} as {format}");
        }
        count += 1;
    }
    assert!(count > 0, "no records in the manifest");
    let stored = ids.len();
    assert_eq!(archive_total(&ts).await, stored as u64);
    let (_, page) = ts
        .request("GET", "/api/archive?per_page=5&page=2", None)
        .await;
    assert_eq!(
        page["entries"].as_array().unwrap().len(),
        5.min(stored.saturating_sub(5))
    );
    ts.shutdown().await;
}

#[tokio::test]
async fn bad_uploads_are_refused_with_the_readers_message_and_nothing_stored() {
    let tmp = TempDir::new("archive-bad");
    let ts = TestServer::start(&tmp.db()).await;
    let (status, body) = import(&ts, b"V2.2\nPI\n+\n+7776XX\n", true).await;
    assert_eq!(status, 400, "{body}");
    let msg = body["error"].as_str().unwrap();
    assert!(msg.contains("line 4, column 1"), "{msg}");
    assert!(msg.contains("+7776XX"), "{msg}");
    let (status, body) = import(&ts, b"{\"moves\": 3}", true).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = import(&ts, b"", true).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(archive_total(&ts).await, 0);
    // Without save=1 nothing is stored either.
    let (status, body) = import(&ts, b"position startpos moves 7g7f 3c3d resign", false).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.get("id").is_none(), "{body}");
    assert_eq!(archive_total(&ts).await, 0);
    ts.shutdown().await;
}

#[tokio::test]
async fn a_finished_game_is_archived_downloadable_and_analysed() {
    let tmp = TempDir::new("archive-game");
    let ts = TestServer::start(&tmp.db()).await;
    let created = ts.create(local(json!({}))).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut ws = ts
        .connect(&id, Some(created["token"].as_str().unwrap()))
        .await;
    let moves = ["7g7f", "3c3d", "8h2b+", "3a2b"];
    ws.play_all(&moves).await;
    ws.send(json!({"type": "resign"})).await;
    ws.state_where(|s| s["status"]["over"] == true).await;

    let (_, list) = ts.request("GET", "/api/archive", None).await;
    let entry = &list["entries"][0];
    assert_eq!(entry["id"], id.as_str(), "{list}");
    assert_eq!(entry["moves"], 4);
    assert_eq!(entry["reason"], "resign");
    assert_eq!(entry["winner"], "gote");
    let (_, none) = ts.request("GET", "/api/archive?result=sente", None).await;
    assert_eq!(none["total"], 0, "{none}");
    let (status, _) = ts.request("GET", "/api/archive?result=x", None).await;
    assert_eq!(status, 400);

    let (status, _, kif) = ts
        .get_text(&format!("/api/games/{id}/record?format=kif"))
        .await;
    assert_eq!(status, 200);
    let rec = shogi_record::read(kif.as_bytes()).unwrap();
    assert_eq!(rec.main_line().len(), 4, "{kif}");
    assert!(
        matches!(
            rec.ending,
            shogi_record::Ending::Game(shogi_core::Ending::Resignation { .. })
        ),
        "{kif}"
    );
    let (_, _, usi) = ts
        .get_text(&format!("/api/games/{id}/record?format=sfen"))
        .await;
    assert_eq!(usi, "position startpos moves 7g7f 3c3d 8h2b+ 3a2b resign");
    let (status, head, svg) = ts
        .get_text(&format!("/api/games/{id}/diagram.svg?ply=2"))
        .await;
    assert_eq!(status, 200);
    assert!(head.contains("image/svg+xml"), "{head}");
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{svg}");
    let (status, _, _) = ts
        .get_text(&format!("/api/games/{id}/diagram.svg?ply=9"))
        .await;
    assert_eq!(status, 400);

    let (status, queued) = ts
        .request("POST", &format!("/api/games/{id}/analysis"), None)
        .await;
    assert_eq!(status, 202, "{queued}");
    let mut done = Value::Null;
    for _ in 0..600 {
        let (_, a) = ts
            .request("GET", &format!("/api/games/{id}/analysis"), None)
            .await;
        if a["status"] == "done" {
            done = a;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(done["status"], "done", "analysis did not finish");
    assert_eq!(done["total_plies"], 4);
    assert_eq!(done["done_plies"], 4);
    let evals = done["evals"].as_array().unwrap();
    assert_eq!(evals.len(), 5, "{done}");
    for (i, e) in evals.iter().enumerate() {
        assert_eq!(e["ply"], i);
        assert!(e["score_cp"].is_i64(), "{e}");
        assert!(e["best_move"].is_string(), "{e}");
    }
    // Asking again does not start another one; the results stay after a restart.
    let (status, again) = ts
        .request("POST", &format!("/api/games/{id}/analysis"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(again["evals"], done["evals"]);
    ts.shutdown().await;
    let ts = TestServer::start(&tmp.db()).await;
    let (_, after) = ts
        .request("GET", &format!("/api/games/{id}/analysis"), None)
        .await;
    assert_eq!(after["evals"], done["evals"]);
    ts.shutdown().await;
}

#[tokio::test]
async fn mate_search() {
    let tmp = TempDir::new("archive-mate");
    let ts = TestServer::start(&tmp.db()).await;
    let (status, r) = ts
        .request(
            "POST",
            "/api/mate",
            Some(&json!({"sfen": "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", "time_ms": 2000})),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["result"], "mate");
    assert_eq!(r["moves"], json!(["G*5b"]));
    let (status, r) = ts
        .request(
            "POST",
            "/api/mate",
            Some(&json!({"sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "time_ms": 500})),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    assert_ne!(r["result"], "mate");
    let (status, _) = ts
        .request("POST", "/api/mate", Some(&json!({"sfen": "nonsense"})))
        .await;
    assert_eq!(status, 400);
    ts.shutdown().await;
}

async fn analysed(ts: &TestServer, id: &str) -> Value {
    for _ in 0..600 {
        let (_, a) = ts
            .request("GET", &format!("/api/games/{id}/analysis"), None)
            .await;
        if a["status"] == "done" {
            return a;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("analysis of {id} did not finish");
}

#[tokio::test]
async fn analysis_waits_while_the_activity_gate_is_held() {
    let tmp = TempDir::new("archive-lull");
    let (gate, manual) = ActivityGate::manual();
    let ts = TestServer::start_with_gate(&tmp.db(), gate).await;
    // Live play holds the gate: nothing may be analysed while it is held.
    manual.hold();
    let game = b"position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d";
    let (status, imported) = import(&ts, game, true).await;
    assert_eq!(status, 201, "{imported}");
    let id = imported["id"].as_str().unwrap().to_string();
    let (status, _) = ts
        .request("POST", &format!("/api/games/{id}/analysis"), None)
        .await;
    assert_eq!(status, 202);
    // Wait until the worker has reached the gate and been turned back.
    let mut waited = 0;
    while manual.refusals() == 0 {
        assert!(waited < 3000, "the analysis never reached the gate");
        tokio::time::sleep(Duration::from_millis(10)).await;
        waited += 1;
    }
    let (_, during) = ts
        .request("GET", &format!("/api/games/{id}/analysis"), None)
        .await;
    assert_eq!(during["evals"], json!([]), "{during}");
    assert_eq!(during["waiting_for_live_play"], true, "{during}");
    // A live move touches the gate.
    let created = ts.create(local(json!({}))).await;
    let mut ws = ts
        .connect(created["id"].as_str().unwrap(), created["token"].as_str())
        .await;
    ws.play("7g7f").await;
    assert!(manual.touches() >= 1);
    assert_eq!(
        ts.request("GET", &format!("/api/games/{id}/analysis"), None)
            .await
            .1["evals"],
        json!([])
    );
    // Released, the analysis goes on and finishes.
    manual.release();
    let done = analysed(&ts, &id).await;
    assert_eq!(done["evals"].as_array().unwrap().len(), 11, "{done}");
    assert_eq!(done["waiting_for_live_play"], false, "{done}");
    ts.shutdown().await;
}

#[tokio::test]
async fn a_game_in_progress_is_analysed_again_once_it_has_more_moves() {
    let tmp = TempDir::new("archive-live");
    let ts = TestServer::start(&tmp.db()).await;
    let created = ts.create(local(json!({}))).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut ws = ts
        .connect(&id, Some(created["token"].as_str().unwrap()))
        .await;
    ws.play_all(&["7g7f", "3c3d"]).await;
    let (status, _) = ts
        .request("POST", &format!("/api/games/{id}/analysis"), None)
        .await;
    assert_eq!(status, 202);
    assert_eq!(
        analysed(&ts, &id).await["evals"].as_array().unwrap().len(),
        3
    );
    ws.send(json!({"type": "move", "usi": "2g2f"})).await;
    ws.state_where(|s| s["moves"].as_array().is_some_and(|m| m.len() == 3))
        .await;
    let (status, again) = ts
        .request("POST", &format!("/api/games/{id}/analysis"), None)
        .await;
    assert_eq!(status, 202, "{again}");
    let done = analysed(&ts, &id).await;
    assert_eq!(done["total_plies"], 3);
    assert_eq!(done["evals"].as_array().unwrap().len(), 4, "{done}");
    // An unknown id is 404.
    let (status, _) = ts
        .request("POST", "/api/games/0123456789abcdef/analysis", None)
        .await;
    assert_eq!(status, 404);
    ts.shutdown().await;
}

fn ids(list: &Value) -> Vec<String> {
    list["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect()
}

async fn archive_ids(ts: &TestServer, query: &str) -> (u64, Vec<String>) {
    let (status, list) = ts
        .request("GET", &format!("/api/archive?{query}"), None)
        .await;
    assert_eq!(status, 200, "{query}: {list}");
    (list["total"].as_u64().unwrap(), ids(&list))
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[tokio::test]
async fn archive_filters_by_player_and_result_in_any_case_and_pages_newest_first() {
    let tmp = TempDir::new("archive-filter");
    let ts = TestServer::start(&tmp.db()).await;
    let kif = |sente: &str, gote: &str, moves: &[&str], end: &str| {
        let mut s =
            format!("手合割：平手\n先手：{sente}\n後手：{gote}\n手数----指手---------消費時間--\n");
        for (i, m) in moves.iter().enumerate() {
            s.push_str(&format!("{:>4} {m}\n", i + 1));
        }
        if !end.is_empty() {
            s.push_str(&format!("{:>4} {end}\n", moves.len() + 1));
        }
        s
    };
    let mut imported = Vec::new();
    for text in [
        kif("Алиса", "Bob", &["７六歩(77)", "３四歩(33)"], "投了"),
        kif("alice", "Carol", &["７六歩(77)"], "投了"),
        kif("Dave", "Eve", &["７六歩(77)"], "千日手"),
        kif("Frank", "Grace", &["７六歩(77)"], ""),
    ] {
        let (status, v) = import(&ts, text.as_bytes(), true).await;
        assert_eq!(status, 201, "{v}");
        imported.push(v["id"].as_str().unwrap().to_string());
    }
    let [gote_won, sente_won, draw, unfinished] = [0, 1, 2, 3].map(|i| imported[i].clone());
    // A game against the computer (AI 2 plays Gote), resigned by Sente.
    let created = ts
        .create(json!({"mode": "ai", "side": "sente", "ai": {"level": 2}}))
        .await;
    let game = created["id"].as_str().unwrap().to_string();
    let mut ws = ts.connect(&game, created["token"].as_str()).await;
    ws.send(json!({"type": "resign"})).await;
    ws.state_where(|s| s["status"]["over"] == true).await;

    let (total, all) = archive_ids(&ts, "per_page=100").await;
    assert_eq!(total, 5);
    let mut paged = Vec::new();
    for page in 1..=3 {
        let (total, ids) = archive_ids(&ts, &format!("per_page=2&page={page}")).await;
        assert_eq!(total, 5);
        assert_eq!(ids.len(), if page == 3 { 1 } else { 2 });
        paged.extend(ids);
    }
    assert_eq!(paged, all, "the pages follow the one list");
    assert_eq!(archive_ids(&ts, "per_page=2&page=4").await.1.len(), 0);
    for (status, query) in [(400, "per_page=0"), (400, "per_page=101"), (400, "page=0")] {
        assert_eq!(
            ts.request("GET", &format!("/api/archive?{query}"), None)
                .await
                .0,
            status
        );
    }

    let by = |q: &'static str| {
        let ts = &ts;
        async move { sorted(archive_ids(ts, q).await.1) }
    };
    assert_eq!(by("result=sente").await, vec![sente_won.clone()]);
    assert_eq!(
        by("result=gote").await,
        sorted(vec![gote_won.clone(), game.clone()])
    );
    assert_eq!(by("result=draw").await, vec![draw.clone()]);
    assert_eq!(
        by("player=%D0%B0%D0%BB%D0%B8%D1%81%D0%B0").await,
        vec![gote_won.clone()],
        "алиса"
    );
    assert_eq!(
        by("player=%D0%90%D0%9B%D0%98").await,
        vec![gote_won.clone()],
        "АЛИ"
    );
    assert_eq!(by("player=ALIC").await, vec![sente_won.clone()]);
    assert_eq!(by("player=ai%202").await, vec![game.clone()]);
    assert_eq!(by("player=%20grace%20").await, vec![unfinished.clone()]);
    assert_eq!(by("player=alice&result=gote").await, Vec::<String>::new());
    assert_eq!(
        by("player=carol&result=sente").await,
        vec![sente_won.clone()]
    );
    assert_eq!(by("player=nobody").await, Vec::<String>::new());
    assert_eq!(by("player=&result=").await.len(), 5);
    ts.shutdown().await;

    // Records imported before the lower-case names were kept get them at start-up.
    let pool = tmp.pool().await;
    sqlx::query("UPDATE records SET sente_lc = NULL, gote_lc = NULL")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let ts = TestServer::start(&tmp.db()).await;
    assert_eq!(
        sorted(
            archive_ids(&ts, "player=%D0%B0%D0%BB%D0%B8%D1%81%D0%B0")
                .await
                .1
        ),
        vec![gote_won]
    );
    ts.shutdown().await;
}

#[tokio::test]
async fn a_resignation_out_of_turn_is_recorded_with_the_resigner_as_loser() {
    let tmp = TempDir::new("archive-resign-out-of-turn");
    let ts = TestServer::start(&tmp.db()).await;
    let (id, host, guest) = ts
        .friend_game(json!({"mode": "friend", "side": "sente"}))
        .await;
    let mut host = ts.connect(&id, Some(&host)).await;
    let mut guest = ts.connect(&id, Some(&guest)).await;
    host.play("7g7f").await;
    guest.play("3c3d").await;
    host.play("2g2f").await;
    // Gote is to move, but Sente resigns.
    host.send(json!({"type": "resign"})).await;
    let end = guest.state_where(|s| s["status"]["over"] == true).await;
    assert_eq!(end["status"]["winner"], "gote", "{end}");

    for format in ["kif", "ki2"] {
        let (status, _, text) = ts
            .get_text(&format!("/api/games/{id}/record?format={format}"))
            .await;
        assert_eq!(status, 200);
        let rec = shogi_record::read(text.as_bytes()).unwrap();
        assert_eq!(
            rec.ending,
            shogi_record::Ending::Game(shogi_core::Ending::Resignation {
                loser: shogi_core::Color::Sente
            }),
            "{text}"
        );
        assert!(text.contains("後手の勝ち"), "{text}");
    }
    ts.shutdown().await;
}

/// The archive entry of `id` (newest 100).
async fn archive_entry(ts: &TestServer, id: &str) -> Value {
    let (status, list) = ts.request("GET", "/api/archive?per_page=100", None).await;
    assert_eq!(status, 200, "{list}");
    list["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id)
        .unwrap_or_else(|| panic!("{id} is not in the archive: {list}"))
        .clone()
}

#[tokio::test]
async fn shared_records_are_listed_with_their_own_dates_and_time_controls() {
    let dir = records_dir();
    let tmp = TempDir::new("archive-dates");
    let ts = TestServer::start(&tmp.db()).await;
    let tc = |main: u64, byoyomi: u64, increment: u64| json!({"main_ms": main * 1000, "byoyomi_ms": byoyomi * 1000, "periods": 1, "increment_ms": increment * 1000});
    // (file, the day its header gives, the time control its header gives)
    let cases = [
        // CSA $START_TIME:2017/11/11 10:00:00, no time control.
        (
            "bioshogi_sample_womens_ouza_2017.csa",
            Some("2017-11-11"),
            Value::Null,
        ),
        // KIF 開始日時：2025/03/02 09:00, 持ち時間：4時間 (in words).
        (
            "sbq_test_kiou_comments.kif",
            Some("2025-03-02"),
            tc(4 * 3600, 0, 0),
        ),
        // KIFU 開始日時：2025/08/30 14:04:20, 持ち時間：30+0+5 (seconds).
        (
            "shogihome_e2e01_record.kifu",
            Some("2025-08-30"),
            tc(30, 0, 5),
        ),
        // KIF 開始日時：1709/11/08 (an Edo-period game: before 1970).
        ("sp_08731.kif", Some("1709-11-08"), Value::Null),
        // CSA $START_TIME: 15:35:06 (no date: the import time), $TIME:30+0+5.
        ("shogihome_e2e27_record.csa", None, tc(30, 0, 5)),
    ];
    for (file, day, time) in cases {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let (status, imported) = import(&ts, &bytes, true).await;
        // The same game in another format (the same moves and players) is stored once.
        let stored = status == 201 && imported["duplicate"] == false;
        let again = status == 200 && imported["duplicate"] == true;
        assert!(stored || again, "{file}: {status} {imported}");
        let id = imported["id"].as_str().unwrap();
        let entry = archive_entry(&ts, id).await;
        assert_eq!(entry["time"], time, "{file}: the archive's time control");
        let played = entry["played_at_ms"].as_i64().unwrap();
        let record = ts
            .request("GET", &format!("/api/games/{id}/record?format=json"), None)
            .await
            .1;
        assert_eq!(
            record["headers"]["time"], time,
            "{file}: the review's time control"
        );
        match day {
            Some(day) => {
                assert_eq!(record["headers"]["date"], day, "{file}: the review's day");
                let midnight = match day {
                    "2017-11-11" => 1_510_358_400_000_i64,
                    "2025-03-02" => 1_740_873_600_000,
                    "2025-08-30" => 1_756_512_000_000,
                    _ => -8_209_468_800_000,
                };
                assert_eq!(
                    played, midnight,
                    "{file}: the archive's day is its midnight UTC"
                );
            }
            None => {
                assert_eq!(record["headers"]["date"], Value::Null, "{file}");
                let created = entry["created_at_ms"].as_i64().unwrap();
                assert_eq!(
                    played, created,
                    "{file}: no date in the header: the import time"
                );
            }
        }
    }
    // The Edo-period game sorts by import, but shows its own (negative) time.
    let (_, list) = ts.request("GET", "/api/archive?per_page=100", None).await;
    let edo = list["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["played_at_ms"].as_i64().unwrap() < 0);
    assert!(
        edo.is_some(),
        "the 1709 game is listed with its day: {list}"
    );
}

#[tokio::test]
async fn the_archive_finds_games_by_their_strategy() {
    let dir = TempDir::new("archive-strategy");
    let ts = TestServer::start(&dir.db()).await;
    // Gote swings its rook to 4b (Fourth-file Rook); in the other game both
    // push their rook pawns (Double Static Rook).
    let ranging = b"position startpos moves 7g7f 3c3d 2g2f 4c4d 3i4h 8b4b 5i6h 5a6b 6h7h 6b7b";
    let statics = b"position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e";
    let (status, r) = import(&ts, ranging, true).await;
    assert_eq!(status, 201, "{r}");
    let (status, st) = import(&ts, statics, true).await;
    assert_eq!(status, 201, "{st}");
    let ids = |v: &Value| -> Vec<String> {
        v["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let find = |tag: &str| format!("/api/archive?strategy={tag}");
    let (status, fourth) = ts.request("GET", &find("fourth_file_rook"), None).await;
    assert_eq!(status, 200, "{fourth}");
    assert_eq!(ids(&fourth), [r["id"].as_str().unwrap()]);
    let (_, ranging_rook) = ts.request("GET", &find("ranging_rook"), None).await;
    assert_eq!(ids(&ranging_rook), [r["id"].as_str().unwrap()]);
    let (_, double) = ts.request("GET", &find("double_static_rook"), None).await;
    assert_eq!(ids(&double), [st["id"].as_str().unwrap()]);
    let (_, both) = ts.request("GET", &find("static_rook"), None).await;
    assert_eq!(both["total"], 2, "{both}");
    let (_, none) = ts.request("GET", &find("static_rook_anaguma"), None).await;
    assert_eq!(none["total"], 0, "{none}");
    // A word that is no tag is refused, not searched.
    let (status, bad) = ts.request("GET", &find("mino%25"), None).await;
    assert_eq!(status, 400, "{bad}");
    // A game played here is tagged once over: Gote's rook to 4b, resigned.
    let g = ts.create(local(json!({}))).await;
    let id = g["id"].as_str().unwrap();
    let mut ws = ts.connect(id, g["token"].as_str()).await;
    ws.play_all(&["7g7f", "3c3d", "2g2f", "4c4d", "3i4h", "8b4b"])
        .await;
    ws.send(json!({"type": "resign"})).await;
    ws.state_where(|s| s["status"]["over"] == true).await;
    let (_, fourth) = ts.request("GET", &find("fourth_file_rook"), None).await;
    let mut found = ids(&fourth);
    found.sort();
    let mut want = vec![r["id"].as_str().unwrap().to_owned(), id.to_owned()];
    want.sort();
    assert_eq!(found, want, "{fourth}");
    ts.shutdown().await;
}
