//! Importing records: visibility (public, unlisted, private), the owner
//! account, and a record already in the archive not stored again.

mod common;

use common::{account, local, send_text, TempDir, TestServer};
use serde_json::{json, Value};

const KIF: &str = "先手：Алиса\n後手：Борис\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n";
/// The same moves and players as [`KIF`] in CSA, the names in another case.
const CSA: &str = "N+алиса\nN-БОРИС\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n";
/// The same moves as [`KIF`] between other players.
const OTHER_PLAYERS: &str = "N+Алиса\nN-Вера\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n";

/// `POST path` with the record `body`, as `cookie` (a `Cookie: ...` line) or a guest.
async fn post(ts: &TestServer, path: &str, body: &str, cookie: Option<&str>) -> (u16, Value) {
    let extra = cookie.map(|c| format!("{c}\r\n")).unwrap_or_default();
    let (status, _, text) = send_text(&ts.addr(), "POST", path, &extra, body).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// `method path` with a JSON body, as `cookie` or a guest: the status and the body text.
async fn ask(
    ts: &TestServer,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&Value>,
) -> (u16, String) {
    let extra = cookie.map(|c| format!("{c}\r\n")).unwrap_or_default();
    let body = body.map(Value::to_string).unwrap_or_default();
    let (status, _, text) = send_text(&ts.addr(), method, path, &extra, &body).await;
    (status, text)
}

async fn archive_ids(ts: &TestServer, query: &str) -> Vec<String> {
    let (status, list) = ts
        .request("GET", &format!("/api/archive?per_page=100{query}"), None)
        .await;
    assert_eq!(status, 200, "{list}");
    list["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect()
}

/// Every read route of record `id` as `cookie`: the statuses.
async fn read_statuses(ts: &TestServer, id: &str, token: &str, cookie: Option<&str>) -> Vec<u16> {
    let mut out = Vec::new();
    for path in [
        format!("/api/games/{id}/record"),
        format!("/api/games/{id}/record?format=json"),
        format!("/api/games/{id}/record?format=csa"),
        format!("/api/games/{id}/diagram.svg"),
        format!("/api/games/{id}/diagram.png?width=100"),
        format!("/api/games/{id}/analysis"),
    ] {
        out.push(ask(ts, "GET", &path, cookie, None).await.0);
    }
    let nodes: Vec<Value> = ["7g7f", "3c3d", "2g2f"]
        .iter()
        .map(|m| json!({"usi": m, "comments": [], "variations": []}))
        .collect();
    let notes = json!({"token": token, "start_comments": ["a note"], "nodes": nodes});
    let path = format!("/api/games/{id}/annotations");
    out.push(ask(ts, "PUT", &path, cookie, Some(&notes)).await.0);
    out
}

#[tokio::test]
async fn a_private_record_is_read_only_by_its_owner_account() {
    let tmp = TempDir::new("imports-private");
    let ts = TestServer::start(&tmp.db()).await;
    let (alice, _) = account(&ts, "alice").await;
    let (bob, _) = account(&ts, "bob").await;

    let (status, refused) = post(&ts, "/api/import?save=1&visibility=private", KIF, None).await;
    assert_eq!(status, 401, "{refused}");
    assert_eq!(refused["code"], "not_logged_in");

    let path = "/api/import?save=1&visibility=private";
    let (status, saved) = post(&ts, path, KIF, Some(&alice)).await;
    assert_eq!(status, 201, "{saved}");
    assert_eq!(saved["visibility"], "private");
    assert_eq!(saved["duplicate"], false);
    let id = saved["id"].as_str().unwrap();
    let token = saved["token"].as_str().unwrap();

    // Not listed, not found by the search; for anyone else it does not exist,
    // even with the owner token.
    assert!(archive_ids(&ts, "").await.is_empty());
    assert!(archive_ids(&ts, "&player=алиса").await.is_empty());
    assert_eq!(
        read_statuses(&ts, id, token, Some(&bob)).await,
        vec![404; 7]
    );
    assert_eq!(read_statuses(&ts, id, token, None).await, vec![404; 7]);
    let (status, _) = ask(
        &ts,
        "POST",
        &format!("/api/games/{id}/analysis"),
        None,
        None,
    )
    .await;
    assert_eq!(status, 404);
    let (status, _) = ask(
        &ts,
        "POST",
        &format!("/api/games/{id}/analysis"),
        Some(&bob),
        None,
    )
    .await;
    assert_eq!(status, 404);
    // Its owner reads it on every route and annotates it.
    assert_eq!(
        read_statuses(&ts, id, token, Some(&alice)).await,
        vec![200; 7]
    );
    let (_, record) = ask(
        &ts,
        "GET",
        &format!("/api/games/{id}/record?format=json"),
        Some(&alice),
        None,
    )
    .await;
    let record: Value = serde_json::from_str(&record).unwrap();
    assert_eq!(record["start_comments"], json!(["a note"]), "{record}");
    ts.shutdown().await;
}

#[tokio::test]
async fn an_unlisted_record_is_read_by_id_but_not_listed() {
    let tmp = TempDir::new("imports-unlisted");
    let ts = TestServer::start(&tmp.db()).await;
    let (status, saved) = post(&ts, "/api/import?save=1&visibility=unlisted", KIF, None).await;
    assert_eq!(status, 201, "{saved}");
    assert_eq!(saved["visibility"], "unlisted");
    let id = saved["id"].as_str().unwrap();
    let token = saved["token"].as_str().unwrap();
    assert!(archive_ids(&ts, "").await.is_empty());
    assert!(archive_ids(&ts, "&player=борис").await.is_empty());
    assert_eq!(read_statuses(&ts, id, token, None).await, vec![200; 7]);

    // A public import is listed as before (the default keeps old clients working).
    let (status, public) = post(&ts, "/api/import?save=1", OTHER_PLAYERS, None).await;
    assert_eq!(status, 201, "{public}");
    assert_eq!(public["visibility"], "public");
    assert_eq!(
        archive_ids(&ts, "").await,
        vec![public["id"].as_str().unwrap().to_string()]
    );
    ts.shutdown().await;
}

#[tokio::test]
async fn the_same_record_imported_again_is_not_stored_again() {
    let tmp = TempDir::new("imports-dedupe");
    let ts = TestServer::start(&tmp.db()).await;
    let (status, preview) = post(&ts, "/api/import", KIF, None).await;
    assert_eq!(status, 200, "{preview}");
    assert_eq!(preview["existing"], Value::Null);

    let (status, first) = post(&ts, "/api/import?save=1", KIF, None).await;
    assert_eq!(status, 201, "{first}");
    let id = first["id"].as_str().unwrap();

    // The same moves and players, in another format and case: the same id,
    // nothing stored, and no owner token for someone who is not the owner.
    let (status, again) = post(&ts, "/api/import?save=1&visibility=unlisted", CSA, None).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["id"], id);
    assert_eq!(again["duplicate"], true);
    assert_eq!(again["visibility"], "public");
    assert!(again.get("token").is_none(), "{again}");
    let (_, preview) = post(&ts, "/api/import", CSA, None).await;
    assert_eq!(preview["existing"], id);
    assert_eq!(archive_ids(&ts, "").await, vec![id.to_string()]);

    // Other players: a record of its own.
    let (status, other) = post(&ts, "/api/import?save=1", OTHER_PLAYERS, None).await;
    assert_eq!(status, 201, "{other}");
    assert_ne!(other["id"], id);
    assert_eq!(archive_ids(&ts, "").await.len(), 2);
    ts.shutdown().await;
}

#[tokio::test]
async fn a_private_record_is_a_duplicate_only_for_its_owner() {
    let tmp = TempDir::new("imports-dedupe-private");
    let ts = TestServer::start(&tmp.db()).await;
    let (alice, _) = account(&ts, "alice").await;
    let (bob, _) = account(&ts, "bob").await;
    let path = "/api/import?save=1&visibility=private";
    let (status, mine) = post(&ts, path, KIF, Some(&alice)).await;
    assert_eq!(status, 201, "{mine}");
    let id = mine["id"].as_str().unwrap();

    // Someone else's private record is never matched (nor shown in a preview).
    let (_, preview) = post(&ts, "/api/import", KIF, Some(&bob)).await;
    assert_eq!(preview["existing"], Value::Null, "{preview}");
    let (_, preview) = post(&ts, "/api/import", KIF, None).await;
    assert_eq!(preview["existing"], Value::Null, "{preview}");
    let (status, bobs) = post(
        &ts,
        "/api/import?save=1&visibility=private",
        KIF,
        Some(&bob),
    )
    .await;
    assert_eq!(status, 201, "{bobs}");
    assert_ne!(bobs["id"], id);
    let (status, guest) = post(&ts, "/api/import?save=1", KIF, None).await;
    assert_eq!(status, 201, "{guest}");
    assert_ne!(guest["id"], id);

    // Its owner is taken to it, with its owner token.
    let (_, preview) = post(&ts, "/api/import", CSA, Some(&alice)).await;
    assert_eq!(preview["existing"], id, "{preview}");
    let (status, again) = post(
        &ts,
        "/api/import?save=1&visibility=public",
        CSA,
        Some(&alice),
    )
    .await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["id"], id);
    assert_eq!(again["duplicate"], true);
    assert_eq!(again["visibility"], "private");
    assert_eq!(again["token"], mine["token"]);
    ts.shutdown().await;
}

#[tokio::test]
async fn a_game_played_here_is_found_when_its_record_is_imported() {
    let tmp = TempDir::new("imports-dedupe-game");
    let ts = TestServer::start(&tmp.db()).await;
    let created = ts.create(local(json!({}))).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut ws = ts
        .connect(&id, Some(created["token"].as_str().unwrap()))
        .await;
    ws.play_all(&["7g7f", "3c3d", "2g2f"]).await;
    ws.send(json!({"type": "resign"})).await;
    ws.state_where(|s| s["status"]["over"] == true).await;
    let (status, _, kif) = ts
        .get_text(&format!("/api/games/{id}/record?format=kif"))
        .await;
    assert_eq!(status, 200);

    let (_, preview) = post(&ts, "/api/import", &kif, None).await;
    assert_eq!(preview["existing"], id.as_str(), "{preview}");
    let (status, again) = post(&ts, "/api/import?save=1", &kif, None).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["id"], id.as_str());
    assert_eq!(again["duplicate"], true);
    assert!(again.get("token").is_none(), "{again}");
    assert_eq!(archive_ids(&ts, "").await, vec![id.clone()]);
    ts.shutdown().await;
}

#[tokio::test]
async fn a_bad_visibility_is_refused_and_nothing_is_stored() {
    let tmp = TempDir::new("imports-bad-visibility");
    let ts = TestServer::start(&tmp.db()).await;
    let (alice, _) = account(&ts, "alice").await;
    for word in ["secret", "PUBLIC", "private%20"] {
        let path = format!("/api/import?save=1&visibility={word}");
        let (status, refused) = post(&ts, &path, KIF, Some(&alice)).await;
        assert_eq!(status, 400, "{word}: {refused}");
        assert_eq!(refused["code"], "bad_request");
    }
    assert!(archive_ids(&ts, "").await.is_empty());
    ts.shutdown().await;
}

#[tokio::test]
async fn deleting_an_account_deletes_its_private_records_only() {
    let tmp = TempDir::new("imports-delete-account");
    let ts = TestServer::start(&tmp.db()).await;
    let (alice, _) = account(&ts, "alice").await;
    let path = "/api/import?save=1&visibility=private";
    let (status, private) = post(&ts, path, KIF, Some(&alice)).await;
    assert_eq!(status, 201, "{private}");
    let path = "/api/import?save=1&visibility=unlisted";
    let (status, unlisted) = post(&ts, path, OTHER_PLAYERS, Some(&alice)).await;
    assert_eq!(status, 201, "{unlisted}");

    let body = json!({"password": common::PASSWORD});
    let (status, _) = ask(&ts, "DELETE", "/api/account", Some(&alice), Some(&body)).await;
    assert_eq!(status, 204);
    let read = |id: &Value| format!("/api/games/{}/record", id.as_str().unwrap());
    assert_eq!(
        ask(&ts, "GET", &read(&private["id"]), None, None).await.0,
        404
    );
    assert_eq!(
        ask(&ts, "GET", &read(&unlisted["id"]), None, None).await.0,
        200
    );
    let pool = tmp.pool().await;
    let left: Vec<(String, Option<i64>)> =
        sqlx::query_as("SELECT id, owner_user FROM records ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
    let unlisted_id = unlisted["id"].as_str().unwrap().to_string();
    assert_eq!(left, vec![(unlisted_id, None)]);
    ts.shutdown().await;
}
