//! Diffs over the real WebSocket (docs/PROTOCOL.md, "Diffs"): a client that
//! asked for them and applies them holds, after every change, exactly the
//! state a client of full states is sent.

mod common;

use common::{TempDir, TestServer, Ws};
use serde_json::{json, Value};
use shogi_server::games::view::DIFF_FIELDS;

/// A spectator's WebSocket, asking for diffs or not; the first state read.
async fn watch(s: &TestServer, id: &str, diffs: bool) -> (Ws, Value) {
    let q = if diffs { "?diffs=1" } else { "" };
    let url = format!("ws://{}/api/games/{id}/ws{q}", s.addr());
    let (stream, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let mut ws = Ws::new(stream);
    let first = ws.next().await;
    assert_eq!(first["type"], "state", "{first}");
    (ws, first)
}

/// What a client does with a diff: `None` when it does not follow the state
/// it holds (it then asks for the state with `sync`).
fn apply(state: &Value, diff: &Value) -> Option<Value> {
    let moves = state["moves"].as_array()?;
    let ply = usize::try_from(diff["ply"].as_u64()?).ok()?;
    let mut next = state.clone();
    match diff["move"].as_str() {
        Some(mv) if moves.len() + 1 == ply => {
            next["moves"].as_array_mut()?.push(json!(mv));
        }
        None if moves.len() == ply => {}
        _ => return None,
    }
    for field in DIFF_FIELDS {
        next[field] = diff[field].clone();
    }
    Some(next)
}

/// Two spectators, one of diffs and one of full states, read the message
/// the next change sent each; the diff client's state after applying it
/// must equal the full state. Returns the new state and the diff client's
/// message type.
async fn step(diffs: &mut Ws, held: &Value, full: &mut Ws) -> (Value, String) {
    let d = diffs.next().await;
    let f = full.next().await;
    assert_eq!(f["type"], "state", "{f}");
    let kind = d["type"].as_str().unwrap().to_string();
    let next = match kind.as_str() {
        "state" => d.clone(),
        "diff" => {
            for field in DIFF_FIELDS.iter().chain(&["ply", "move"]) {
                assert!(d.get(field).is_some(), "the diff lacks {field}: {d}");
            }
            assert!(
                d.to_string().len() < f.to_string().len(),
                "a diff is smaller than the state: {d}"
            );
            apply(held, &d).unwrap_or_else(|| panic!("the diff {d} follows {held}"))
        }
        other => panic!("unexpected {other}: {d}"),
    };
    assert_eq!(next, f, "after the {kind} {d}");
    (next, kind)
}

#[tokio::test]
async fn a_client_applying_diffs_holds_the_state_a_full_state_client_is_sent() {
    let dir = TempDir::new("diffs");
    let s = TestServer::start(&dir.db()).await;
    let time = json!({"main_ms": 600_000, "byoyomi_ms": 10_000, "periods": 1, "increment_ms": 0});
    let (id, host, guest) = s
        .friend_game(json!({"mode": "friend", "side": "sente", "time": time}))
        .await;
    let id = id.as_str();
    let mut sente = s.connect(id, Some(&host)).await;
    let mut gote = s.connect(id, Some(&guest)).await;
    let (mut diffs, mut held) = watch(&s, id, true).await;
    let (mut full, first) = watch(&s, id, false).await;
    // Each watcher's first state is read when it connects: the same but for
    // the server's wall-clock time of reading.
    let unstamped = |v: &Value| {
        let mut v = v.clone();
        v["clocks"]["server_time_ms"] = Value::Null;
        v
    };
    assert_eq!(unstamped(&held), unstamped(&first));

    // Moves, a promotion with a capture, a drop giving check and its answer.
    let mut kinds = Vec::new();
    for (i, usi) in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4b"]
        .into_iter()
        .enumerate()
    {
        let player = if i % 2 == 0 { &mut sente } else { &mut gote };
        player.send(json!({"type": "move", "usi": usi})).await;
        let kind;
        (held, kind) = step(&mut diffs, &held, &mut full).await;
        kinds.push(kind);
        assert_eq!(held["last_move"], usi);
    }
    assert_eq!(held["in_check"], true);
    assert_eq!(
        held["moves"],
        json!(["7g7f", "3c3d", "8h2b+", "3a2b", "B*4b"])
    );
    assert_eq!(held["dests"]["4a"], json!(["4b"]));
    assert_eq!(kinds, ["diff"; 5]);

    // A takeback: its proposal is a diff, the takeback itself a full state.
    gote.send(json!({"type": "takeback"})).await;
    let kind;
    (held, kind) = step(&mut diffs, &held, &mut full).await;
    assert_eq!(
        (kind.as_str(), &held["takeback"]["proposed_by"]),
        ("diff", &json!("gote"))
    );
    sente.send(json!({"type": "accept_takeback"})).await;
    let kind;
    (held, kind) = step(&mut diffs, &held, &mut full).await;
    assert_eq!(
        (kind.as_str(), held["moves"].as_array().unwrap().len()),
        ("state", 3)
    );

    // Diffs go on from the full state; then an ending without a move.
    gote.send(json!({"type": "move", "usi": "4a3b"})).await;
    let kind;
    (held, kind) = step(&mut diffs, &held, &mut full).await;
    assert_eq!(kind, "diff");
    sente.send(json!({"type": "resign"})).await;
    let kind;
    (held, kind) = step(&mut diffs, &held, &mut full).await;
    assert_eq!(kind, "diff");
    assert_eq!(
        held["status"],
        json!({"over": true, "winner": "gote", "reason": "resign"})
    );

    // `sync` is answered with the whole state the client should hold.
    diffs.send(json!({"type": "sync"})).await;
    let again = diffs.next().await;
    assert_eq!(again["type"], "state");
    assert_eq!(again, held);
    s.shutdown().await;
}

#[tokio::test]
async fn a_mating_drop_reaches_a_diff_client_as_a_diff_with_the_ending() {
    let dir = TempDir::new("diffmate");
    let s = TestServer::start(&dir.db()).await;
    let g = s
        .create(json!({"mode": "local", "sfen": "8k/9/6NG1/9/9/9/9/9/4K4 b G 1"}))
        .await;
    let id = g["id"].as_str().unwrap();
    let mut player = s.connect(id, g["token"].as_str()).await;
    let (mut diffs, held) = watch(&s, id, true).await;
    let (mut full, _) = watch(&s, id, false).await;
    player.send(json!({"type": "move", "usi": "G*1b"})).await;
    let (end, kind) = step(&mut diffs, &held, &mut full).await;
    assert_eq!(kind, "diff");
    assert_eq!(
        end["status"],
        json!({"over": true, "winner": "sente", "reason": "checkmate"})
    );
    assert_eq!(end["in_check"], true);
    assert_eq!(end["dests"], json!({}));
    s.shutdown().await;
}

#[tokio::test]
async fn a_client_that_did_not_ask_gets_only_states() {
    let dir = TempDir::new("nodiffs");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap();
    let mut player = s.connect(id, g["token"].as_str()).await;
    let (mut ws, _) = watch(&s, id, false).await;
    for usi in ["7g7f", "3c3d"] {
        player.send(json!({"type": "move", "usi": usi})).await;
        let msg = ws.next().await;
        assert_eq!(
            (msg["type"].as_str(), msg["last_move"].as_str()),
            (Some("state"), Some(usi))
        );
    }
    s.shutdown().await;
}
