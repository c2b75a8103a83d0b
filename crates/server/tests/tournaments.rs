//! Club tournaments through the HTTP API: a 12-player round robin at
//! 30 min + 30 s entered over the board with standings checked against
//! values computed by hand; online boards whose games report their results
//! and replay a sennichite; permissions, reports, records and exports.

mod common;

use std::collections::BTreeSet;

use common::{account, TempDir, TestServer};
use serde_json::{json, Value};
use shogi_server::db::GameWrite;
use shogi_server::game::clock::{Clock, TimeControl};

async fn post(s: &TestServer, who: &(String, String), path: &str, body: &Value) -> (u16, Value) {
    let (status, _, v) = s.request_with("POST", path, &[&who.0], Some(body)).await;
    (status, v)
}

async fn put(s: &TestServer, who: &(String, String), path: &str, body: &Value) -> (u16, Value) {
    let (status, _, v) = s.request_with("PUT", path, &[&who.0], Some(body)).await;
    (status, v)
}

/// Creates an event as `who`; its id (panics unless the server answers 201).
async fn create(s: &TestServer, who: &(String, String), body: &Value) -> String {
    let (status, created) = post(s, who, "/api/tournaments", body).await;
    assert_eq!(status, 201, "{created}");
    created["id"].as_str().unwrap().to_string()
}

async fn event(s: &TestServer, id: &str) -> Value {
    let (status, v) = s
        .request("GET", &format!("/api/tournaments/{id}"), None)
        .await;
    assert_eq!(status, 200, "{v}");
    v
}

/// An online event at 30 min + 30 s that `a` and `b` enter, its first
/// round paired: the event's id and the round.
async fn online_round(
    s: &TestServer,
    a: &(String, String),
    b: &(String, String),
) -> (String, Value) {
    let org = account(s, "Org").await;
    let id = create(s, &org, &json!({"name": "Online", "format": "swiss", "rounds": 2, "time": "30+30", "play": "online"})).await;
    let base = format!("/api/tournaments/{id}");
    for p in [a, b] {
        let (status, v) = post(s, p, &format!("{base}/players"), &json!({})).await;
        assert_eq!(status, 201, "{v}");
    }
    let (status, r) = post(s, &org, &format!("{base}/rounds"), &json!({})).await;
    assert_eq!(status, 201, "{r}");
    (id, r)
}

fn num(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The hand-computed round robin: the lower number wins every game, except
/// that 1 and 2 draw and 12 beats 1.
fn winner(a: u64, b: u64) -> Option<u64> {
    match (a.min(b), a.max(b)) {
        (1, 2) => None,
        (1, 12) => Some(12),
        (lo, _) => Some(lo),
    }
}

#[tokio::test]
async fn a_twelve_player_round_robin_is_paired_by_berger_and_ranked_as_computed_by_hand() {
    let dir = TempDir::new("t-rr");
    let s = TestServer::start(&dir.db()).await;
    let org = account(&s, "Organiser").await;
    let id = create(&s, &org, &json!({"name": "Рождественский турнир", "place": "Санкт-Петербург",
                "format": "round_robin", "rounds": 11, "double": false,
                "time": {"main_ms": 1_800_000, "byoyomi_ms": 30_000, "periods": 1, "increment_ms": 0},
                "play": "otb"})).await;
    let base = format!("/api/tournaments/{id}");
    for n in 1..=12u64 {
        let (status, p) = post(
            &s,
            &org,
            &format!("{base}/players"),
            &json!({"name": format!("Игрок {n}"), "rating": 2000 - 50 * n, "club": if n % 3 == 0 { "СПб" } else { "Москва" }}),
        )
        .await;
        assert_eq!(status, 201, "{p}");
        assert_eq!(p["player"], n);
    }
    let mut met = BTreeSet::new();
    for round in 1..=11u64 {
        let (status, r) = post(&s, &org, &format!("{base}/rounds"), &json!({})).await;
        assert_eq!(status, 201, "round {round}: {r}");
        assert_eq!(r["round"], round);
        let boards = r["pairings"].as_array().unwrap();
        assert_eq!(boards.len(), 6, "{r}");
        assert!(r["bye"].is_null());
        // FIDE's Berger table for 12 players, pairings and colours (the
        // first-named player is Sente), rounds 1 and 2.
        let fide: &[(u64, u64)] = match round {
            1 => &[(1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7)],
            2 => &[(12, 7), (8, 6), (9, 5), (10, 4), (11, 3), (1, 2)],
            _ => &[],
        };
        if !fide.is_empty() {
            let got: Vec<(u64, u64)> = boards
                .iter()
                .map(|b| (num(&b["sente"]), num(&b["gote"])))
                .collect();
            assert_eq!(got, fide, "round {round}");
            assert!(boards.iter().all(|b| b["colours"] == "table"));
        }
        for b in boards {
            let (x, y) = (num(&b["sente"]), num(&b["gote"]));
            assert!(met.insert((x.min(y), x.max(y))), "{x}-{y} met twice");
            assert!(b["game"].is_null(), "over the board: no game");
            let result = match winner(x, y) {
                None => "draw",
                Some(w) if w == x => "sente",
                Some(_) => "gote",
            };
            let path = format!("{base}/rounds/{round}/boards/{}", b["board"]);
            let (status, board) = put(&s, &org, &path, &json!({"result": result})).await;
            assert_eq!(status, 200, "{board}");
            assert_eq!(board["result"], result);
        }
    }
    assert_eq!(met.len(), 66, "everyone met everyone once");
    let (status, more) = post(&s, &org, &format!("{base}/rounds"), &json!({})).await;
    assert_eq!(status, 409, "{more}");

    let e = event(&s, &id).await;
    assert_eq!(e["status"], "finished");
    assert_eq!(e["planned_rounds"], 11);
    assert_eq!(e["tiebreaks"], json!(["direct", "wins", "sb"]));
    let (_, list) = s.request("GET", "/api/tournaments", None).await;
    assert_eq!(list["events"][0]["id"], id.as_str(), "{list}");
    assert_eq!(list["events"][0]["status"], "finished", "{list}");
    assert_eq!(list["events"][0]["players"], 12);
    assert_eq!(list["events"][0]["round"], 11);
    // By hand: points 2:10½, 1:9½, 3:9, 4:8 ... 10:2, then 11 and 12 on 1
    // point. The default order (direct, wins, SB; FIDE's for round robins)
    // puts 11 first: it beat 12 (direct 1 against 0), though 12 has the
    // better Sonneborn-Berger (it beat 1, 9½) against 11's 1.
    let expected: [(u64, f64, f64, f64, f64); 12] = [
        (2, 10.5, 50.75, 10.0, 0.0),
        (1, 9.5, 50.25, 9.0, 0.0),
        (3, 9.0, 37.0, 9.0, 0.0),
        (4, 8.0, 29.0, 8.0, 0.0),
        (5, 7.0, 22.0, 7.0, 0.0),
        (6, 6.0, 16.0, 6.0, 0.0),
        (7, 5.0, 11.0, 5.0, 0.0),
        (8, 4.0, 7.0, 4.0, 0.0),
        (9, 3.0, 4.0, 3.0, 0.0),
        (10, 2.0, 2.0, 2.0, 0.0),
        (11, 1.0, 1.0, 1.0, 1.0),
        (12, 1.0, 9.5, 1.0, 0.0),
    ];
    let standings = e["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 12);
    for (i, (row, (player, points, sb, wins, direct))) in standings.iter().zip(expected).enumerate()
    {
        assert_eq!(row["rank"], i as u64 + 1, "{row}");
        assert_eq!(row["player"], player, "{row}");
        assert_eq!(row["name"], format!("Игрок {player}"));
        assert_eq!(row["points"].as_f64(), Some(points), "{row}");
        assert_eq!(row["tiebreaks"]["sb"].as_f64(), Some(sb), "{row}");
        assert_eq!(row["tiebreaks"]["wins"].as_f64(), Some(wins), "{row}");
        assert_eq!(row["tiebreaks"]["direct"].as_f64(), Some(direct), "{row}");
    }

    check_exports(&s, &base, &org).await;
    s.shutdown().await;
}

/// The round robin's crosstable, federation report and audit log.
async fn check_exports(s: &TestServer, base: &str, org: &(String, String)) {
    // The crosstable: a row a player, a column a round.
    let (status, head, csv) = s.get_text(&format!("{base}/crosstable.csv")).await;
    assert_eq!(status, 200);
    assert!(common::header(&head, "content-type")
        .unwrap()
        .starts_with("text/csv"));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 13, "{csv}");
    assert!(lines[1].contains("Игрок 2"), "{csv}");
    assert!(lines[0].starts_with("\u{feff}Place,No,Name,"), "{csv}");
    // For a Russian spreadsheet: Russian headers, semicolons.
    let (status, _, csv) = s.get_text(&format!("{base}/crosstable.csv?lang=ru")).await;
    assert_eq!(status, 200);
    assert!(
        csv.starts_with("\u{feff}Место;№;Имя;Рейтинг;Разряд;Клуб;Тур 1;"),
        "{csv}"
    );
    // The federations' report names the players in Latin letters.
    let (status, _, report) = s.get_text(&format!("{base}/report.txt")).await;
    assert_eq!(status, 200);
    assert!(report.contains("Igrok"), "{report}");
    assert!(!report.contains("Игрок"), "{report}");
    // The audit log holds every change.
    let (status, _, audit) = s
        .request_with("GET", &format!("{base}/audit"), &[&org.0], None)
        .await;
    assert_eq!(status, 200);
    let entries = audit["entries"].as_array().unwrap();
    assert_eq!(
        entries
            .iter()
            .filter(|e| e["action"] == "pair_round")
            .count(),
        11
    );
    assert_eq!(
        entries.iter().filter(|e| e["action"] == "board").count(),
        66
    );
    assert!(entries.iter().all(|e| e["by"] == "Organiser"));
    // Each entry is an action code and its parameters, for the client to word.
    assert_eq!(entries[0]["action"], "create");
    assert_eq!(
        entries[0]["params"]["name"], "Рождественский турнир",
        "{}",
        entries[0]
    );
    let added = entries
        .iter()
        .find(|e| e["action"] == "add_player")
        .unwrap();
    assert_eq!(added["params"], json!({"number": 1, "name": "Игрок 1"}));
    let paired = entries
        .iter()
        .find(|e| e["action"] == "pair_round")
        .unwrap();
    assert_eq!(
        paired["params"],
        json!({"round": 1, "boards": 6, "byes": [], "forced": []})
    );
    let board = entries.iter().find(|e| e["action"] == "board").unwrap();
    assert_eq!(board["params"]["round"], 1, "{board}");
    assert_eq!(board["params"]["board"], 1, "{board}");
    let change = &board["params"]["changes"][0];
    assert_eq!(change["what"], "result", "{board}");
    assert!(
        ["sente", "gote", "draw"].contains(&change["result"].as_str().unwrap()),
        "{board}"
    );
    assert!(entries.iter().all(|e| e.get("detail").is_none()));
}

#[tokio::test]
async fn only_organisers_change_an_event_and_players_join_an_open_one() {
    let dir = TempDir::new("t-perm");
    let s = TestServer::start(&dir.db()).await;
    let org = account(&s, "Org").await;
    let alice = account(&s, "Алиса").await;
    let (status, v) = s
        .request(
            "POST",
            "/api/tournaments",
            Some(&json!({"name": "x", "format": "swiss", "rounds": 3})),
        )
        .await;
    assert_eq!(status, 401, "{v}");
    let id = create(
        &s,
        &org,
        &json!({"name": "Open", "format": "swiss", "rounds": 3}),
    )
    .await;
    let base = format!("/api/tournaments/{id}");
    // Alice joins herself, once; she cannot add others nor pair.
    let (status, joined) = post(&s, &alice, &format!("{base}/players"), &json!({})).await;
    assert_eq!(status, 201, "{joined}");
    let (status, _) = post(&s, &alice, &format!("{base}/players"), &json!({})).await;
    assert_eq!(status, 409);
    let (status, _) = post(
        &s,
        &alice,
        &format!("{base}/players"),
        &json!({"account": "Org"}),
    )
    .await;
    assert_eq!(status, 403);
    let (status, _) = post(&s, &alice, &format!("{base}/rounds"), &json!({})).await;
    assert_eq!(status, 403);
    let e = event(&s, &id).await;
    assert_eq!(e["players"][0]["name"], "Алиса");
    assert_eq!(e["players"][0]["account"], "Алиса");
    assert!(e["you"].is_null(), "no session, no `you`");
    // Only organisers change the settings; before round 1 a withdrawn
    // player leaves and later numbers move up.
    let (status, _) = put(&s, &alice, &base, &json!({"name": "Mine"})).await;
    assert_eq!(status, 403);
    let (status, renamed) = put(&s, &org, &base, &json!({"name": "Open cup", "rounds": 4})).await;
    assert_eq!(status, 200, "{renamed}");
    assert_eq!(renamed["name"], "Open cup");
    assert_eq!(renamed["planned_rounds"], 4);
    let (status, _) = post(
        &s,
        &org,
        &format!("{base}/players"),
        &json!({"name": "Борис", "rank": "2k", "club": "Киев"}),
    )
    .await;
    assert_eq!(status, 201);
    let (status, _, _) = s
        .request_with("DELETE", &format!("{base}/players/1"), &[&alice.0], None)
        .await;
    assert_eq!(status, 204);
    let e = event(&s, &id).await;
    assert_eq!(e["players"].as_array().unwrap().len(), 1);
    assert_eq!(e["players"][0]["player"], 1);
    assert_eq!(e["players"][0]["name"], "Борис");
    assert_eq!(e["players"][0]["rank"], "2k");
    // Bad fields are named.
    let (status, bad) = post(
        &s,
        &org,
        &format!("{base}/players"),
        &json!({"name": "B", "rank": "12d"}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(bad["error"].as_str().unwrap().contains("rank"), "{bad}");
    assert_eq!(bad["code"], "bad_rank", "{bad}");
    assert_eq!(bad["rank"], "12d", "{bad}");
    let (status, bad) = post(
        &s,
        &org,
        &format!("{base}/players"),
        &json!({"name": "B", "rank": "2 дана"}),
    )
    .await;
    assert_eq!(
        (status, &bad["code"], &bad["rank"]),
        (400, &json!("bad_rank"), &json!("2 дана"))
    );
    // Ranks are read as the reader's language writes them; kept short.
    for (typed, short) in [
        ("2дан", "2d"),
        ("5 кю", "5k"),
        ("初段", "1d"),
        ("五級", "5k"),
    ] {
        let (status, v) = post(
            &s,
            &org,
            &format!("{base}/players"),
            &json!({"name": format!("R {typed}"), "rank": typed}),
        )
        .await;
        assert_eq!(status, 201, "{typed}: {v}");
        let e = event(&s, &id).await;
        let p = e["players"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(p["rank"], short, "{typed}: {p}");
    }
    s.shutdown().await;
}

#[tokio::test]
async fn an_online_board_takes_its_games_result_and_replays_a_sennichite() {
    let dir = TempDir::new("t-online");
    let s = TestServer::start(&dir.db()).await;
    let (a, b) = (account(&s, "Алиса").await, account(&s, "Bob").await);
    let (id, r) = online_round(&s, &a, &b).await;
    let base = format!("/api/tournaments/{id}");
    let board = &r["pairings"][0];
    assert_eq!(board["colours"], "furigoma");
    let fu = num(&board["toss"]["fu"]);
    assert!(fu <= 5);
    let game = board["game"].as_str().unwrap().to_string();
    // The game is ready for both, with the event's clock.
    let (_, _, ready) = s
        .request_with("GET", "/api/me/tournament-games", &[&a.0], None)
        .await;
    assert_eq!(ready["games"][0]["game"], game.as_str(), "{ready}");
    let state = s.state(&game).await;
    assert_eq!(state["clocks"]["sente"]["main_ms"], 1_800_000, "{state}");
    let sente_is_alice = state["players"]["sente"]["name"] == "Алиса";
    let (sc, gc) = if sente_is_alice { (&a, &b) } else { (&b, &a) };
    let mut ws_s = s.connect_with(&game, None, Some(&sc.1)).await;
    let mut ws_g = s.connect_with(&game, None, Some(&gc.1)).await;
    // Kings step out and back three times: the start position a fourth time.
    for _ in 0..3 {
        ws_s.play("5i4h").await;
        ws_g.play("5a4b").await;
        ws_s.play("4h5i").await;
        ws_g.play("4b5a").await;
    }
    let end = ws_s.state_where(|s| s["status"]["over"] == true).await;
    assert_eq!(end["status"]["reason"], "repetition", "{end}");
    // The replay starts by itself, colours reversed.
    let mut replay = None;
    for _ in 0..200 {
        let e = event(&s, &id).await;
        let games = e["rounds"][0]["pairings"][0]["games"]
            .as_array()
            .unwrap()
            .clone();
        if games.len() == 2 {
            replay = Some(games[1].as_str().unwrap().to_string());
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let replay = replay.expect("the replay game is started");
    let state = s.state(&replay).await;
    assert_eq!(
        state["players"]["gote"]["name"],
        if sente_is_alice { "Алиса" } else { "Bob" }
    );
    let e = event(&s, &id).await;
    assert!(
        e["rounds"][0]["pairings"][0]["result"].is_null(),
        "the replay decides"
    );
    // The replay's Sente (the board's Gote) resigns: the board's Sente wins.
    let mut ws = s.connect_with(&replay, None, Some(&gc.1)).await;
    ws.send(json!({"type": "resign"})).await;
    ws.state_where(|s| s["status"]["over"] == true).await;
    let e = event(&s, &id).await;
    assert_eq!(e["rounds"][0]["pairings"][0]["result"], "sente", "{e}");
    let sente_number = e["rounds"][0]["pairings"][0]["sente"].clone();
    assert_eq!(e["standings"][0]["player"], sente_number);
    assert_eq!(e["standings"][0]["points"].as_f64(), Some(1.0));
    // Both games go into the event's ZIP.
    let (status, _, zip) = common::raw(&s.addr(), "GET", &format!("{base}/games.zip"), b"").await;
    assert_eq!(status, 200);
    let names: Vec<String> = {
        let mut z = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
        (0..z.len())
            .map(|i| z.by_index(i).unwrap().name().to_string())
            .collect()
    };
    assert_eq!(names, ["r1-b1.kif", "r1-b1-2.kif"]);
    s.shutdown().await;
}

/// The next error message on `ws` (states skipped).
async fn refusal(ws: &mut common::Ws) -> Value {
    loop {
        let m = ws.next().await;
        if m["type"] == "error" {
            return m;
        }
    }
}

/// An event's online game names its event, round and board (the page
/// links back), and allows neither chat nor takebacks, as at a club,
/// unless the event's settings turn them on.
#[tokio::test]
async fn an_event_game_names_its_board_and_allows_no_chat_or_takebacks_by_default() {
    let dir = TempDir::new("t-place");
    let s = TestServer::start(&dir.db()).await;
    let (a, b) = (account(&s, "Алиса").await, account(&s, "Bob").await);
    let (id, r) = online_round(&s, &a, &b).await;
    let e = event(&s, &id).await;
    assert_eq!(e["chat"], false, "{e}");
    assert_eq!(e["takebacks"], false, "{e}");
    let game = r["pairings"][0]["game"].as_str().unwrap().to_string();
    let state = s.state(&game).await;
    assert_eq!(
        state["event"],
        json!({"id": id, "name": "Online", "round": 1, "board": 1,
               "chat": false, "takebacks": false}),
        "{state}"
    );
    assert_eq!(state["rated"], false);
    let sente_is_alice = state["players"]["sente"]["name"] == "Алиса";
    let (sc, gc) = if sente_is_alice { (&a, &b) } else { (&b, &a) };
    let mut ws_s = s.connect_with(&game, None, Some(&sc.1)).await;
    let mut ws_g = s.connect_with(&game, None, Some(&gc.1)).await;
    ws_s.play("7g7f").await;
    ws_s.send(json!({"type": "takeback"})).await;
    assert_eq!(refusal(&mut ws_s).await["code"], "no_takebacks");
    ws_g.send(json!({"type": "chat", "text": "удачи"})).await;
    assert_eq!(refusal(&mut ws_g).await["code"], "no_chat");
    // An event that allows both: its game says so and the chat arrives.
    let org = account(&s, "Club").await;
    let (c, d) = (account(&s, "Carol").await, account(&s, "Dan").await);
    let body = json!({"name": "Friendly", "format": "swiss", "rounds": 1, "time": "30+30",
                      "play": "online", "chat": true, "takebacks": true});
    let id = create(&s, &org, &body).await;
    let base = format!("/api/tournaments/{id}");
    for p in [&c, &d] {
        let (status, v) = post(&s, p, &format!("{base}/players"), &json!({})).await;
        assert_eq!(status, 201, "{v}");
    }
    let (status, r) = post(&s, &org, &format!("{base}/rounds"), &json!({})).await;
    assert_eq!(status, 201, "{r}");
    let game = r["pairings"][0]["game"].as_str().unwrap().to_string();
    let state = s.state(&game).await;
    assert_eq!(state["event"]["chat"], true, "{state}");
    assert_eq!(state["event"]["takebacks"], true, "{state}");
    let mut ws_c = s.connect_with(&game, None, Some(&c.1)).await;
    let mut ws_d = s.connect_with(&game, None, Some(&d.1)).await;
    ws_c.send(json!({"type": "chat", "text": "удачи"})).await;
    let line = loop {
        let m = ws_d.next().await;
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "chat" {
            break m;
        }
    };
    assert_eq!(line["text"], "удачи");
    s.shutdown().await;
}

/// A process that died right after storing a sennichite on an online
/// board (the ending written as the committer writes it, and no room
/// told): the next start replays it, and the one after does not replay it
/// again.
#[tokio::test]
async fn a_sennichite_left_due_by_a_dead_process_is_replayed_at_the_next_start_once() {
    let dir = TempDir::new("t-due");
    let s = TestServer::start(&dir.db()).await;
    let (a, b) = (account(&s, "Алиса").await, account(&s, "Bob").await);
    let (id, r) = online_round(&s, &a, &b).await;
    let game = r["pairings"][0]["game"].as_str().unwrap().to_string();
    // Stored as it stood: Sente with 20 minutes left, Gote with 25.
    let control = TimeControl {
        main_ms: 1_800_000,
        byoyomi_ms: 30_000,
        periods: 1,
        increment_ms: 0,
    };
    let left = |main_ms| Clock {
        main_ms,
        ..Clock::new(control)
    };
    let write = GameWrite::Finish {
        ending: shogi_core::Ending::Repetition,
        plies: 0,
        clocks: Some(shogi_core::ByColor::new(left(1_200_000), left(1_500_000))),
    };
    let store = s.server.state().store().clone();
    store
        .write_batch(&[(game.as_str(), None, &write)])
        .await
        .unwrap();
    s.shutdown().await;
    let mut replay = None;
    for start in 1..=2 {
        let s = TestServer::start(&dir.db()).await;
        let e = event(&s, &id).await;
        let games = e["rounds"][0]["pairings"][0]["games"].as_array().unwrap();
        assert_eq!(games.len(), 2, "start {start}: {e}");
        assert_eq!(games[0], game.as_str());
        let second = games[1].as_str().unwrap().to_string();
        assert_eq!(*replay.get_or_insert_with(|| second.clone()), second);
        // Colours reversed, each player's time as the drawn game left it.
        let state = s.state(&second).await;
        assert_eq!(state["status"]["over"], false, "{state}");
        assert_eq!(state["clocks"]["sente"]["main_ms"], 1_500_000, "{state}");
        assert_eq!(state["clocks"]["gote"]["main_ms"], 1_200_000, "{state}");
        s.shutdown().await;
    }
}

#[tokio::test]
async fn an_over_the_board_record_is_checked_and_two_equal_reports_enter_a_result() {
    let dir = TempDir::new("t-otb");
    let s = TestServer::start(&dir.db()).await;
    let org = account(&s, "Org").await;
    let a = account(&s, "Алиса").await;
    let b = account(&s, "Bob").await;
    let id = create(
        &s,
        &org,
        &json!({"name": "OTB", "format": "swiss", "rounds": 1, "play": "otb"}),
    )
    .await;
    let base = format!("/api/tournaments/{id}");
    for p in [&a, &b] {
        post(&s, p, &format!("{base}/players"), &json!({})).await;
    }
    let (_, r) = post(&s, &org, &format!("{base}/rounds"), &json!({})).await;
    let board = format!("{base}/rounds/1/boards/1");
    // An illegal move is named.
    let bad = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ２二角(99)\n";
    let (status, v) = put(&s, &org, &board, &json!({"kif": bad})).await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("move 5"), "{v}");
    // The refusals carry the codes of an import's, for the client to word.
    assert_eq!(v["code"], "illegal_record_move", "{v}");
    assert_eq!(v["ply"], 5, "{v}");
    assert_eq!(v["move"], "２二角(99)", "{v}");
    let (status, v) = put(
        &s,
        &org,
        &board,
        &json!({"kif": "手合割：平手\n   1 ７六歩(77)\n   2 ３四XX\n"}),
    )
    .await;
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["code"], "unreadable_record", "{v}");
    assert!(v["line"].as_u64().unwrap() > 0, "{v}");
    assert!(v["reason"].is_string(), "{v}");
    let (status, v) = put(&s, &org, &board, &json!({"kif": "  "})).await;
    assert_eq!((status, &v["code"]), (400, &json!("empty_record")), "{v}");
    let lance = "手合割：香落ち\n手数----指手---------消費時間--\n   1 ３四歩(33)\n";
    let (status, v) = put(&s, &org, &board, &json!({"kif": lance})).await;
    assert_eq!(status, 400, "{v}");
    assert_eq!(
        (&v["code"], &v["handicap"]),
        (&json!("wrong_start"), &json!("even")),
        "{v}"
    );
    let good = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
    let (status, v) = put(&s, &org, &board, &json!({"kif": good})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["record"], true);
    let (status, _, kif) = s.get_text(&format!("{board}/record")).await;
    assert_eq!(status, 200);
    assert!(kif.contains("７六歩"), "{kif}");
    // The event in `棋戦`, the round in `備考` as KIF writers put them; a
    // KIF reader reads them back.
    assert!(kif.contains("棋戦：OTB\n"), "{kif}");
    assert!(kif.contains("備考：第1回戦\n"), "{kif}");
    let rec = shogi_record::read(kif.as_bytes()).unwrap();
    assert_eq!(rec.headers.event.as_deref(), Some("OTB"));
    assert_eq!(rec.headers.get("備考"), Some("第1回戦"));
    // The players report; two equal reports enter the result.
    let sente_is_alice = r["pairings"][0]["sente"] == 1;
    let (sc, gc) = if sente_is_alice { (&a, &b) } else { (&b, &a) };
    let (status, v) = post(
        &s,
        sc,
        &format!("{board}/report"),
        &json!({"result": "gote"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert!(v["result"].is_null());
    let (status, _) = post(
        &s,
        &org,
        &format!("{board}/report"),
        &json!({"result": "gote"}),
    )
    .await;
    assert_eq!(status, 403);
    let (status, v) = post(
        &s,
        gc,
        &format!("{board}/report"),
        &json!({"result": "gote"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["result"], "gote");
    s.shutdown().await;
}

#[tokio::test]
async fn a_handicap_event_seats_the_stronger_player_as_gote_with_the_tables_handicap() {
    let dir = TempDir::new("t-hc");
    let s = TestServer::start(&dir.db()).await;
    let org = account(&s, "Org").await;
    // The players' accounts, invited by the organiser with their ranks.
    let alice = account(&s, "Алиса").await;
    let bob = account(&s, "Bob").await;
    let id = create(&s, &org, &json!({"name": "Handicap", "format": "swiss", "rounds": 1, "handicap": true, "rated": true})).await;
    let base = format!("/api/tournaments/{id}");
    // 2 dan and 3 kyu: four grades apart, a rook handicap.
    for (who, name, rank) in [(&alice, "Алиса", "3k"), (&bob, "Bob", "2d")] {
        let (status, v) = post(
            &s,
            &org,
            &format!("{base}/players"),
            &json!({"account": name, "rank": rank}),
        )
        .await;
        assert_eq!(status, 202, "{v}");
        let (status, v) = post(&s, who, &format!("{base}/invitation/accept"), &json!({})).await;
        assert_eq!(status, 201, "{v}");
    }
    let (status, r) = post(&s, &org, &format!("{base}/rounds"), &json!({})).await;
    assert_eq!(status, 201, "{r}");
    let board = &r["pairings"][0];
    assert_eq!(board["handicap"], "rook", "{r}");
    assert_eq!(board["colours"], "handicap");
    assert_eq!(board["gote"], 2, "the 2 dan gives the handicap as Gote");
    let state = s.state(board["game"].as_str().unwrap()).await;
    assert_eq!(state["players"]["gote"]["name"], "Bob");
    assert_eq!(state["side_to_move"], "gote", "the giver moves first");
    assert_eq!(state["rated"], false, "a handicap game is never rated");
    // The organiser may set another handicap before the game starts: the
    // game begins again from the new position.
    let path = format!("{base}/rounds/1/boards/1");
    let (status, b) = put(&s, &org, &path, &json!({"handicap": "bishop"})).await;
    assert_eq!(status, 200, "{b}");
    assert_eq!(b["handicap"], "bishop");
    assert_eq!(b["games"].as_array().unwrap().len(), 1);
    assert_ne!(b["game"], board["game"]);
    let state = s.state(b["game"].as_str().unwrap()).await;
    assert_eq!(state["start_sfen"], shogi_core::Handicap::Bishop.sfen());
    let old = s.state(board["game"].as_str().unwrap()).await;
    assert_eq!(old["status"]["reason"], "abort");
    s.shutdown().await;
}

/// Until PostgreSQL shows a session waiting for an advisory lock.
async fn someone_waits_for_a_lock(pool: &sqlx::AnyPool) {
    loop {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
        )
        .fetch_one(pool)
        .await
        .unwrap();
        if waiting > 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// Instances sharing a PostgreSQL database change an event one at a time:
/// while another instance holds the event's lock (taken here through a
/// store of its own, as that instance's tournaments service takes it), an
/// organiser's change on this server waits, and it goes through once the
/// lock is released; another event is not held up. On `SQLite` (one
/// process per file) there is no lock between instances to wait for.
#[tokio::test]
async fn an_event_changes_on_one_instance_at_a_time() {
    let dir = TempDir::new("t-lock");
    let s = TestServer::start(&dir.db()).await;
    let org = account(&s, "Organiser").await;
    let body = json!({"name": "Lock", "format": "swiss", "rounds": 3, "play": "otb"});
    let id = create(&s, &org, &body).await;
    let free = create(&s, &org, &body).await;
    let other = shogi_server::db::Store::open(&dir.db()).await.unwrap();
    let held = other.lock_tournament(&id).await.unwrap();

    // The other event changes at once.
    let (status, p) = post(
        &s,
        &org,
        &format!("/api/tournaments/{free}/players"),
        &json!({"name": "B"}),
    )
    .await;
    assert_eq!(status, 201, "{p}");

    let path = format!("/api/tournaments/{id}/players");
    let entrant = json!({"name": "A"});
    let add = post(&s, &org, &path, &entrant);
    tokio::pin!(add);
    if matches!(dir.db(), shogi_server::Location::Postgres(_)) {
        let pool = dir.pool().await;
        tokio::select! {
            (status, p) = &mut add => panic!("changed while another instance held the event: {status} {p}"),
            () = someone_waits_for_a_lock(&pool) => {}
        }
        assert!(event(&s, &id).await["players"]
            .as_array()
            .unwrap()
            .is_empty());
        drop(held);
    }
    let (status, p) = add.await;
    assert_eq!(status, 201, "{p}");
    assert_eq!(event(&s, &id).await["players"][0]["name"], "A");
}

#[tokio::test]
async fn the_daily_limit_counts_events_created_not_those_left() {
    let dir = TempDir::new("events-a-day");
    let s = TestServer::start(&dir.db()).await;
    let olga = account(&s, "Ольга").await;
    let body = json!({"name": "Блиц", "format": "swiss", "rounds": 5});
    for _ in 0..10 {
        let id = create(&s, &olga, &body).await;
        let (status, _, v) = s
            .request_with(
                "DELETE",
                &format!("/api/tournaments/{id}"),
                &[&olga.0],
                None,
            )
            .await;
        assert_eq!(status, 204, "{v}");
    }
    // Ten created today, all deleted: the eleventh is still refused.
    let (status, v) = post(&s, &olga, "/api/tournaments", &body).await;
    assert_eq!(status, 429, "{v}");
    assert_eq!(v["error"], "at most 10 events a day");
    s.shutdown().await;
}

#[tokio::test]
async fn a_self_entry_carries_the_account_and_only_the_creator_deletes() {
    let dir = TempDir::new("self-entry");
    let s = TestServer::start(&dir.db()).await;
    let org = account(&s, "Org").await;
    let deputy = account(&s, "Deputy").await;
    let ivan = account(&s, "Иван").await;
    let id = create(
        &s,
        &org,
        &json!({"name": "Open", "format": "swiss", "rounds": 3, "open": true}),
    )
    .await;
    let base = format!("/api/tournaments/{id}");
    // A player entering himself as "Champion", 4000 and 8 dan is entered
    // under his account's name, with no rating he has not earned.
    let brag = json!({"name": "Champion", "rating": 4000, "rank": "8d"});
    let (status, v) = post(&s, &ivan, &format!("{base}/players"), &brag).await;
    assert_eq!(status, 201, "{v}");
    let e = event(&s, &id).await;
    let entry = &e["players"][0];
    assert_eq!(
        (&entry["name"], &entry["account"]),
        (&json!("Иван"), &json!("Иван"))
    );
    assert!(
        entry["rating"].is_null() && entry["rank"].is_null(),
        "{entry}"
    );
    // The organiser sets the rank; the account's name stays.
    let (status, _) = put(
        &s,
        &org,
        &format!("{base}/players/1"),
        &json!({"rank": "1d"}),
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = put(
        &s,
        &org,
        &format!("{base}/players/1"),
        &json!({"name": "X"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(event(&s, &id).await["players"][0]["rank"], "1d");
    // A co-organiser may do the rest but not delete the creator's event.
    let (status, v) = post(
        &s,
        &org,
        &format!("{base}/organisers"),
        &json!({"name": "Deputy"}),
    )
    .await;
    assert!(
        status == 200 || status == 201 || status == 204,
        "{status} {v}"
    );
    let (status, _, _) = s.request_with("DELETE", &base, &[&deputy.0], None).await;
    assert_eq!(status, 403);
    let (status, _, _) = s.request_with("DELETE", &base, &[&org.0], None).await;
    assert_eq!(status, 204);
    s.shutdown().await;
}
