//! Consent and forfeits in club events (issue 43): an organiser naming
//! another account invites it, and only the account's acceptance enters
//! it; an online event game whose player never came is a forfeit that
//! scores in the event and is never rated.

mod common;

use common::{account, TempDir, TestServer};
use serde_json::{json, Value};

type Who = (String, String);

async fn post(s: &TestServer, who: &Who, path: &str, body: &Value) -> (u16, Value) {
    let (status, _, v) = s.request_with("POST", path, &[&who.0], Some(body)).await;
    (status, v)
}

async fn get(s: &TestServer, who: &Who, path: &str) -> (u16, String, Value) {
    s.request_with("GET", path, &[&who.0], None).await
}

async fn delete(s: &TestServer, who: &Who, path: &str) -> u16 {
    s.request_with("DELETE", path, &[&who.0], None).await.0
}

async fn create(s: &TestServer, who: &Who, body: &Value) -> String {
    let (status, created) = post(s, who, "/api/tournaments", body).await;
    assert_eq!(status, 201, "{created}");
    created["id"].as_str().unwrap().to_string()
}

async fn invitations(s: &TestServer, who: &Who) -> Vec<Value> {
    let (status, _, v) = get(s, who, "/api/me/invitations").await;
    assert_eq!(status, 200, "{v}");
    v["invitations"].as_array().unwrap().clone()
}

async fn audit_actions(s: &TestServer, org: &Who, base: &str) -> Vec<String> {
    let (status, _, v) = get(s, org, &format!("{base}/audit")).await;
    assert_eq!(status, 200, "{v}");
    v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn an_organiser_invites_and_only_the_invitee_enters() {
    let dir = TempDir::new("invite");
    let s = TestServer::start(&dir.db()).await;
    let org = account(&s, "Org").await;
    let ivan = account(&s, "Иван").await;
    let anna = account(&s, "Anna").await;
    let id = create(
        &s,
        &org,
        &json!({"name": "Кубок", "format": "swiss", "rounds": 3,
        "time": "30+30", "play": "online", "rated": true}),
    )
    .await;
    let base = format!("/api/tournaments/{id}");
    let players = format!("{base}/players");

    // Naming another account invites it: 202, and no entry yet.
    let (status, v) = post(
        &s,
        &org,
        &players,
        &json!({"account": "иван", "club": "СПб"}),
    )
    .await;
    assert_eq!(status, 202, "{v}");
    assert_eq!(v["invitation"]["name"], "Иван", "{v}");
    assert_eq!(v["invitation"]["by"], "Org", "{v}");
    let (_, _, e) = get(&s, &org, &base).await;
    assert!(e["players"].as_array().unwrap().is_empty(), "{e}");
    assert_eq!(e["invitations"][0]["name"], "Иван", "{e}");
    let (_, _, public) = get(&s, &anna, &base).await;
    assert!(public.get("invitations").is_none(), "{public}");
    // Twice: 409 with its code.
    let (status, v) = post(&s, &org, &players, &json!({"account": "Иван"})).await;
    assert_eq!(
        (status, v["code"].as_str()),
        (409, Some("already_invited")),
        "{v}"
    );

    // The invitee sees it, privately.
    let (status, head, v) = get(&s, &ivan, "/api/me/invitations").await;
    assert_eq!(status, 200);
    assert!(
        head.to_ascii_lowercase()
            .contains("cache-control: no-store"),
        "{head}"
    );
    let mine = &v["invitations"][0];
    assert_eq!(mine["tournament"], id.as_str(), "{v}");
    assert_eq!(mine["name"], "Кубок");
    assert_eq!(mine["by"], "Org");
    assert_eq!(mine["rated"], true);
    assert_eq!(mine["time"]["main_ms"], 1_800_000, "{v}");
    assert!(mine["at_ms"].as_u64().is_some());
    assert!(invitations(&s, &anna).await.is_empty());

    // Nobody else accepts it.
    let (status, v) = post(&s, &anna, &format!("{base}/invitation/accept"), &json!({})).await;
    assert_eq!(status, 404, "{v}");
    let (status, _) = post(
        &s,
        &ivan,
        &format!("{base}/invitation/accept"),
        &json!({"rank": "12d"}),
    )
    .await;
    assert_eq!(status, 400, "a rank that is none");

    // Accepted with a proposed rank: an entry with the account's name; the
    // rank stays the organisers' to set.
    let (status, v) = post(
        &s,
        &ivan,
        &format!("{base}/invitation/accept"),
        &json!({"rank": "5d"}),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["player"], 1);
    let (_, _, e) = get(&s, &org, &base).await;
    let entry = &e["players"][0];
    assert_eq!(entry["name"], "Иван", "{e}");
    assert_eq!(entry["account"], "Иван");
    assert_eq!(entry["club"], "СПб");
    assert!(entry["rank"].is_null(), "{entry}");
    assert!(
        entry["rating"].is_null(),
        "no classical rating yet: {entry}"
    );
    assert_eq!(entry["proposed_rank"], "5d");
    assert!(e["invitations"].as_array().unwrap().is_empty(), "{e}");
    assert!(invitations(&s, &ivan).await.is_empty());
    let (status, v) = post(&s, &org, &players, &json!({"account": "Иван"})).await;
    assert_eq!(
        (status, v["code"].as_str()),
        (409, Some("already_entered")),
        "{v}"
    );

    let actions = audit_actions(&s, &org, &base).await;
    for a in ["invite", "accept_invitation"] {
        assert!(actions.iter().any(|x| x == a), "{a} in {actions:?}");
    }
    s.shutdown().await;
}

#[tokio::test]
async fn a_declined_or_withdrawn_invitation_is_gone() {
    let dir = TempDir::new("invite-gone");
    let s = TestServer::start(&dir.db()).await;
    let org = account(&s, "Org").await;
    let boris = account(&s, "Boris").await;
    let anna = account(&s, "Anna").await;
    let id = create(
        &s,
        &org,
        &json!({"name": "Cup", "format": "swiss", "rounds": 3}),
    )
    .await;
    let base = format!("/api/tournaments/{id}");
    let players = format!("{base}/players");

    // Declined: gone.
    let (status, _) = post(&s, &org, &players, &json!({"account": "Boris"})).await;
    assert_eq!(status, 202);
    let (status, _) = post(
        &s,
        &boris,
        &format!("{base}/invitation/decline"),
        &json!({}),
    )
    .await;
    assert_eq!(status, 204);
    assert!(invitations(&s, &boris).await.is_empty());
    let (status, _) = post(&s, &boris, &format!("{base}/invitation/accept"), &json!({})).await;
    assert_eq!(status, 404);

    // Withdrawn by an organiser (not by anyone else): gone.
    let (status, _) = post(&s, &org, &players, &json!({"account": "Anna"})).await;
    assert_eq!(status, 202);
    assert_eq!(
        delete(&s, &boris, &format!("{base}/invitations/Anna")).await,
        403
    );
    assert_eq!(
        delete(&s, &org, &format!("{base}/invitations/anna")).await,
        204
    );
    assert!(invitations(&s, &anna).await.is_empty());
    assert_eq!(
        delete(&s, &org, &format!("{base}/invitations/Anna")).await,
        404
    );

    // Over-the-board players and one's own entry are still 201.
    let (status, v) = post(&s, &org, &players, &json!({"name": "Сидоров Пётр"})).await;
    assert_eq!(status, 201, "{v}");
    let (status, v) = post(&s, &org, &players, &json!({"account": "Org"})).await;
    assert_eq!(status, 201, "{v}");

    let actions = audit_actions(&s, &org, &base).await;
    for a in ["invite", "decline_invitation", "withdraw_invitation"] {
        assert!(actions.iter().any(|x| x == a), "{a} in {actions:?}");
    }

    // Deleting the event deletes its invitations.
    let (status, _) = post(&s, &org, &players, &json!({"account": "Anna"})).await;
    assert_eq!(status, 202);
    assert_eq!(invitations(&s, &anna).await.len(), 1);
    assert_eq!(delete(&s, &org, &base).await, 204);
    assert!(invitations(&s, &anna).await.is_empty());
    s.shutdown().await;
}

/// The attack that consent closes: an organiser entering a victim into a
/// rated online event with a short clock and pairing it, so that the
/// victim loses rated games it never chose to play.
#[tokio::test]
async fn an_organiser_cannot_seat_an_account_that_did_not_accept() {
    let dir = TempDir::new("invite-attack");
    let s = TestServer::start(&dir.db()).await;
    let org = account(&s, "Org").await;
    let victim = account(&s, "Victim").await;
    let id = create(
        &s,
        &org,
        &json!({"name": "Trap", "format": "swiss", "rounds": 1,
        "time": {"main_ms": 60_000, "byoyomi_ms": 0, "periods": 0, "increment_ms": 1000},
        "play": "online", "rated": true}),
    )
    .await;
    let base = format!("/api/tournaments/{id}");
    let (status, _) = post(
        &s,
        &org,
        &format!("{base}/players"),
        &json!({"account": "Victim"}),
    )
    .await;
    assert_eq!(status, 202);
    let (status, v) = post(
        &s,
        &org,
        &format!("{base}/players"),
        &json!({"account": "Org"}),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    // Pairing seats nobody but the organiser (one player: no board).
    let _ = post(&s, &org, &format!("{base}/rounds"), &json!({})).await;
    let (_, _, ready) = get(&s, &victim, "/api/me/tournament-games").await;
    assert!(ready["games"].as_array().unwrap().is_empty(), "{ready}");
    let (_, _, e) = get(&s, &org, &base).await;
    let names: Vec<&str> = e["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Org"]);
    s.shutdown().await;
}

/// A rated online event of 30 min + 30 s that `a` and `b` join, round 1
/// paired: the event's path and its one board.
async fn paired(s: &TestServer, org: &Who, a: &Who, b: &Who) -> (String, Value) {
    let id = create(
        s,
        org,
        &json!({"name": "Online", "format": "swiss", "rounds": 2,
        "time": "30+30", "play": "online", "rated": true}),
    )
    .await;
    let base = format!("/api/tournaments/{id}");
    for p in [a, b] {
        let (status, v) = post(s, p, &format!("{base}/players"), &json!({})).await;
        assert_eq!(status, 201, "{v}");
    }
    let (status, r) = post(s, org, &format!("{base}/rounds"), &json!({})).await;
    assert_eq!(status, 201, "{r}");
    (base, r["pairings"][0].clone())
}

/// The board's result once the event has heard of its game's ending.
async fn result_when_known(s: &TestServer, org: &Who, base: &str) -> Value {
    for _ in 0..500 {
        let (_, _, e) = get(s, org, base).await;
        let board = &e["rounds"][0]["pairings"][0];
        if !board["result"].is_null() {
            return e;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the board never got a result");
}

async fn rated_games(s: &TestServer, name: &str) -> usize {
    let (status, p) = s
        .request("GET", &format!("/api/players/{name}"), None)
        .await;
    assert_eq!(status, 200, "{p}");
    let history: usize = p["history"].as_object().map_or(0, |h| {
        h.values().map(|v| v.as_array().map_or(0, Vec::len)).sum()
    });
    assert!(
        p["ratings"]
            .as_object()
            .is_none_or(serde_json::Map::is_empty),
        "{name} has a rating: {p}"
    );
    history
}

#[tokio::test]
async fn a_player_who_never_comes_forfeits_and_nothing_is_rated() {
    let dir = TempDir::new("forfeit");
    let s = TestServer::start(&dir.db()).await;
    let org = account(&s, "Org").await;
    let (a, b) = (account(&s, "Алиса").await, account(&s, "Bob").await);
    let (base, board) = paired(&s, &org, &a, &b).await;
    let game = board["game"].as_str().unwrap().to_string();
    let state = s.state(&game).await;
    let gote_is_alice = state["players"]["gote"]["name"] == "Алиса";
    let (gote, gote_name) = if gote_is_alice {
        (&a, "Алиса")
    } else {
        (&b, "Bob")
    };
    let sente_name = if gote_is_alice { "Bob" } else { "Алиса" };
    // Gote opens the game; Sente never comes, and its clock runs out.
    let mut ws = s.connect_with(&game, None, Some(&gote.1)).await;
    s.advance(1_830_001);
    let end = ws.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(end["status"]["reason"], "timeout", "{end}");
    let e = result_when_known(&s, &org, &base).await;
    assert_eq!(
        e["rounds"][0]["pairings"][0]["result"], "sente_forfeit",
        "{e}"
    );
    // It scores in the event...
    let gote_number = &e["rounds"][0]["pairings"][0]["gote"];
    assert_eq!(&e["standings"][0]["player"], gote_number, "{e}");
    assert_eq!(e["standings"][0]["points"].as_f64(), Some(1.0));
    assert_eq!(e["standings"][1]["points"].as_f64(), Some(0.0));
    // ...and is never rated.
    assert_eq!(rated_games(&s, gote_name).await, 0);
    assert_eq!(rated_games(&s, sente_name).await, 0);
    s.shutdown().await;
}

#[tokio::test]
async fn when_neither_player_comes_both_forfeit() {
    let dir = TempDir::new("forfeit2");
    let s = TestServer::start(&dir.db()).await;
    let org = account(&s, "Org").await;
    let (a, b) = (account(&s, "Алиса").await, account(&s, "Bob").await);
    let (base, board) = paired(&s, &org, &a, &b).await;
    let game = board["game"].as_str().unwrap().to_string();
    s.advance(1_830_001);
    // A spectator's view: the flag falls on its own.
    let mut ws = s.connect(&game, None).await;
    ws.state_where(|v| v["status"]["over"] == true).await;
    let mut result = Value::Null;
    for _ in 0..500 {
        let (_, _, e) = get(&s, &org, &base).await;
        result = e["rounds"][0]["pairings"][0]["result"].clone();
        if result == "double_forfeit" {
            assert!(e["standings"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["points"].as_f64() == Some(0.0)));
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(result, "double_forfeit");
    assert_eq!(rated_games(&s, "Алиса").await, 0);
    assert_eq!(rated_games(&s, "Bob").await, 0);
    s.shutdown().await;
}
