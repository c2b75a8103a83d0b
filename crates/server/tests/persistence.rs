//! Restarting the server on the same `SQLite` file: games continue with their
//! moves, seats and clocks; the downtime is not charged.

mod common;

use common::{local, TempDir, TestServer};
use serde_json::json;

#[tokio::test]
async fn a_restarted_server_continues_the_game_with_the_clock_as_it_was() {
    let dir = TempDir::new("restart");
    let s = TestServer::start(&dir.db()).await;
    let g = s
        .create(local(
            json!({"time": {"main_ms": 60_000, "byoyomi_ms": 10_000, "periods": 2}}),
        ))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let token = g["token"].as_str().unwrap().to_string();
    let mut ws = s.connect(&id, Some(&token)).await;
    s.advance(5_000);
    ws.play("7g7f").await;
    // Gote has thought 7 s when the server stops.
    s.advance(7_000);
    s.shutdown().await;
    assert!(ws.closed().await);

    // A new process, whose clock starts again from zero: the clocks are as
    // they were at shutdown, whatever the downtime.
    let s = TestServer::start(&dir.db()).await;
    let st = s.state(&id).await;
    assert_eq!(st["moves"], json!(["7g7f"]));
    assert_eq!(st["clocks"]["running"], "gote");
    assert_eq!(st["clocks"]["sente"]["main_ms"], 55_000);
    assert_eq!(st["clocks"]["gote"]["main_ms"], 53_000);

    let mut ws = s.connect(&id, Some(&token)).await;
    s.advance(3_000);
    let st = ws.play("3c3d").await;
    assert_eq!(st["clocks"]["gote"]["main_ms"], 50_000);
    assert_eq!(st["clocks"]["running"], "sente");
    s.shutdown().await;
}

#[tokio::test]
async fn finished_games_and_unused_invites_survive_a_restart() {
    let dir = TempDir::new("restart-finished");
    let s = TestServer::start(&dir.db()).await;
    let done = s.create(local(json!({"rules": {"illegal": "lose"}}))).await;
    let done_id = done["id"].as_str().unwrap().to_string();
    let mut ws = s.connect(&done_id, done["token"].as_str()).await;
    ws.send(json!({"type": "move", "usi": "7g7e"})).await;
    let before = ws.state_where(|v| v["status"]["over"] == true).await;
    let friend = s.create(json!({"mode": "friend", "side": "sente"})).await;
    let friend_id = friend["id"].as_str().unwrap().to_string();
    s.shutdown().await;

    let s = TestServer::start(&dir.db()).await;
    let st = s.state(&done_id).await;
    assert_eq!(st["moves"], json!(["7g7e"]));
    assert_eq!(st["status"]["winner"], "gote");
    assert_eq!(st["status"]["reason"], "illegal_move");
    // The ending is rebuilt exactly, the rule the move broke included.
    assert_eq!(st["status"]["foul"]["move"], "7g7e");
    assert_eq!(st["status"], before["status"]);
    let code = friend["invite"]
        .as_str()
        .unwrap()
        .split("join=")
        .nth(1)
        .unwrap();
    let (status, joined) = s
        .request(
            "POST",
            &format!("/api/games/{friend_id}/join"),
            Some(&json!({"invite": code})),
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    // The host's token still holds its seat.
    let mut host = s.connect(&friend_id, friend["token"].as_str()).await;
    host.play("7g7f").await;
    s.shutdown().await;
}

#[tokio::test]
async fn an_ai_game_resumes_with_the_computer_to_move() {
    let dir = TempDir::new("restart-ai");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(json!({"mode": "ai", "side": "sente"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut ws = s.connect(&id, g["token"].as_str()).await;
    ws.play("7g7f").await;
    ws.state_where(|v| v["moves"].as_array().unwrap().len() == 2)
        .await;
    s.shutdown().await;
    let s = TestServer::start(&dir.db()).await;
    let st = s.state(&id).await;
    assert_eq!(st["moves"].as_array().unwrap().len(), 2);
    assert_eq!(st["you"], json!(null));
    s.shutdown().await;
}

/// A database written before the `foul` column (migration 4) opens, and its
/// games lost by an illegal move read back with the rule the move broke.
#[tokio::test]
async fn a_database_from_before_the_foul_column_still_reads() {
    let dir = TempDir::new("restart-old-schema");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(local(json!({"rules": {"illegal": "lose"}}))).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut ws = s.connect(&id, g["token"].as_str()).await;
    ws.send(json!({"type": "move", "usi": "7g7e"})).await;
    let before = ws.state_where(|v| v["status"]["over"] == true).await;
    s.shutdown().await;

    // Undo migration 4, as a database of the previous version would be.
    {
        let pool = dir.pool().await;
        for sql in [
            "ALTER TABLE games DROP COLUMN foul",
            "DELETE FROM _sqlx_migrations WHERE version = 4",
        ] {
            sqlx::query(sql).execute(&pool).await.unwrap();
        }
        pool.close().await;
    }

    let s = TestServer::start(&dir.db()).await;
    let st = s.state(&id).await;
    assert_eq!(st["status"], before["status"]);
    assert_eq!(st["status"]["foul"]["move"], "7g7e");
    s.shutdown().await;
}

/// Makes the database refuse (`on`) or accept again every new move row,
/// behind the server's back.
async fn refuse_moves(dir: &TempDir, on: bool) {
    let pool = dir.pool().await;
    let postgres = matches!(dir.db(), shogi_server::Location::Postgres(_));
    let statements: &[&str] = match (postgres, on) {
        (false, true) => &["CREATE TRIGGER refuse_moves BEFORE INSERT ON moves
             BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"],
        (false, false) => &["DROP TRIGGER refuse_moves"],
        (true, true) => &[
            "CREATE FUNCTION refuse_moves() RETURNS trigger LANGUAGE plpgsql
             AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$",
            "CREATE TRIGGER refuse_moves BEFORE INSERT ON moves
             FOR EACH ROW EXECUTE FUNCTION refuse_moves()",
        ],
        (true, false) => &["DROP TRIGGER refuse_moves ON moves"],
    };
    for sql in statements {
        sqlx::query(sql).execute(&pool).await.unwrap();
    }
    pool.close().await;
}

#[tokio::test]
async fn a_move_the_database_refuses_leaves_the_game_and_the_clock_as_they_were() {
    let dir = TempDir::new("refused-move");
    let s = TestServer::start(&dir.db()).await;
    let g = s
        .create(local(
            json!({"time": {"main_ms": 60_000, "byoyomi_ms": 10_000, "periods": 1}}),
        ))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut ws = s.connect(&id, g["token"].as_str()).await;
    ws.play("7g7f").await;
    let before = s.state(&id).await;

    refuse_moves(&dir, true).await;
    s.advance(3_000);
    ws.send(json!({"type": "move", "usi": "3c3d"})).await;
    assert!(ws.error().await.contains("could not be stored"));
    let after = s.state(&id).await;
    for field in ["sfen", "moves", "side_to_move", "dests"] {
        assert_eq!(after[field], before[field], "{field}");
    }
    assert_eq!(after["clocks"]["running"], "gote");

    // The same move once the database accepts it again: played from the
    // position before, charged the whole turn (5 s), stored.
    refuse_moves(&dir, false).await;
    s.advance(2_000);
    let st = ws.play("3c3d").await;
    assert_eq!(st["moves"], json!(["7g7f", "3c3d"]));
    assert_eq!(st["clocks"]["gote"]["main_ms"], 55_000);
    s.shutdown().await;
    let s = TestServer::start(&dir.db()).await;
    assert_eq!(s.state(&id).await["moves"], json!(["7g7f", "3c3d"]));
    s.shutdown().await;
}
