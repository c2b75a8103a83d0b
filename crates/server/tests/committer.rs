//! Group commit: writes of several games arriving together are stored in one
//! transaction, and a write the database refuses fails alone.

mod common;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use common::{local, TempDir, TestServer};
use futures_util::future::join_all;
use serde_json::json;
use shogi_core::{ByColor, Color, Ending, Move};
use shogi_server::db::{Fence, GameWrite, MoveRecord, Store};
use shogi_server::game::clock::{Clock, TimeControl};
use shogi_server::games::committer::{Committer, MAX_HOLD_BATCHES};
use shogi_server::games::leases::{Acquired, LeasePolicy, Leases};
use shogi_server::Location;

fn mv(ply: u32, usi: &str, mover: Color) -> GameWrite {
    GameWrite::Move(MoveRecord {
        ply,
        mv: usi.parse::<Move>().unwrap(),
        used_ms: 0,
        mover,
        clocks: None,
        ending: None,
        comment: None,
    })
}

/// Three games created by a server that is then stopped, so that only the
/// committer writes.
async fn three_games(dir: &TempDir) -> Vec<String> {
    let s = TestServer::start(&dir.db()).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let g = s.create(local(json!({}))).await;
        ids.push(g["id"].as_str().unwrap().to_string());
    }
    s.shutdown().await;
    ids
}

/// Three games, a store and a committer on them, and game 0's first move
/// (7g7f) stored through the committer.
async fn a_first_move(name: &str) -> (TempDir, Vec<String>, Store, Committer) {
    let dir = TempDir::new(name);
    let ids = three_games(&dir).await;
    let store = Store::open(&dir.db()).await.unwrap();
    let committer = Committer::spawn(store.clone());
    committer
        .write(&ids[0], None, mv(1, "7g7f", Color::Sente))
        .await
        .unwrap();
    (dir, ids, store, committer)
}

async fn stored_moves(store: &Store, id: &str) -> Vec<String> {
    let g = store.load(id).await.unwrap().unwrap();
    g.moves.iter().map(ToString::to_string).collect()
}

// On the test's single thread, every write below is queued before the
// committer task runs, so they meet in one batch.
#[tokio::test]
async fn writes_arriving_together_are_all_stored_in_order() {
    let dir = TempDir::new("committer-batch");
    let ids = three_games(&dir).await;
    let store = Store::open(&dir.db()).await.unwrap();
    let committer = Committer::spawn(store.clone());
    let plays = [("7g7f", Color::Sente), ("3c3d", Color::Gote)];
    let writes = ids.iter().enumerate().map(|(i, id)| {
        let committer = committer.clone();
        async move {
            // Each game's moves in turn, as its room sends them.
            for (ply, (usi, mover)) in (1..).zip(plays) {
                committer.write(id, None, mv(ply, usi, mover)).await?;
            }
            if i == 2 {
                let ending = Ending::Resignation {
                    loser: Color::Sente,
                };
                committer
                    .write(
                        id,
                        None,
                        GameWrite::Finish {
                            ending,
                            plies: 2,
                            clocks: None,
                        },
                    )
                    .await?;
            }
            Ok::<(), sqlx::Error>(())
        }
    });
    for r in join_all(writes).await {
        r.unwrap();
    }
    for id in &ids {
        assert_eq!(stored_moves(&store, id).await, ["7g7f", "3c3d"]);
    }
    let last = store.load(&ids[2]).await.unwrap().unwrap();
    assert_eq!(
        last.ending,
        Some(Ending::Resignation {
            loser: Color::Sente
        })
    );
    assert_eq!(store.load(&ids[0]).await.unwrap().unwrap().ending, None);
    drop(committer);
    store.close().await;
}

#[tokio::test]
async fn a_refused_write_fails_alone_and_the_others_of_its_batch_are_stored() {
    let (_dir, ids, store, committer) = a_first_move("committer-refused").await;
    // Game 0's first move is already stored: a second first move breaks the
    // moves table's key, in the same batch as the good moves of games 1 and 2.
    let results = join_all([
        committer.write(&ids[1], None, mv(1, "2g2f", Color::Sente)),
        committer.write(&ids[0], None, mv(1, "2g2f", Color::Sente)),
        committer.write(&ids[2], None, mv(1, "5g5f", Color::Sente)),
        committer.write("no-such-game", None, mv(1, "5g5f", Color::Sente)),
    ])
    .await;
    assert!(results[0].is_ok(), "{:?}", results[0]);
    assert!(results[1].is_err());
    assert!(results[2].is_ok(), "{:?}", results[2]);
    assert!(results[3].is_err());
    assert_eq!(stored_moves(&store, &ids[0]).await, ["7g7f"]);
    assert_eq!(stored_moves(&store, &ids[1]).await, ["2g2f"]);
    assert_eq!(stored_moves(&store, &ids[2]).await, ["5g5f"]);
    drop(committer);
    store.close().await;
}

fn timed(ply: u32, usi: &str, mover: Color, sente_ms: u64, gote_ms: u64) -> GameWrite {
    let control = TimeControl {
        main_ms: 600_000,
        byoyomi_ms: 30_000,
        periods: 1,
        increment_ms: 0,
    };
    let clock = |main_ms| Clock {
        main_ms,
        ..Clock::new(control)
    };
    GameWrite::Move(MoveRecord {
        ply,
        mv: usi.parse::<Move>().unwrap(),
        used_ms: 1_000,
        mover,
        clocks: Some(ByColor::new(clock(sente_ms), clock(gote_ms))),
        ending: None,
        comment: None,
    })
}

/// One call with writes of five games (rows in statements of four and of
/// one), two writes for some: every move row is stored, each game's clocks
/// are those of its last write, and the endings (two in one statement) are
/// stored.
#[tokio::test]
async fn a_batch_stores_every_move_and_each_games_last_clocks_and_ending() {
    let dir = TempDir::new("committer-rows");
    let mut ids = three_games(&dir).await;
    ids.extend(three_games(&dir).await);
    let store = Store::open(&dir.db()).await.unwrap();
    let resign = GameWrite::Finish {
        ending: Ending::Resignation { loser: Color::Gote },
        plies: 1,
        clocks: None,
    };
    // Gote's flag falls: the ending's clocks replace what the move left.
    let GameWrite::Move(last) = timed(1, "9g9f", Color::Sente, 595_000, 0) else {
        unreachable!()
    };
    let timeout = GameWrite::Finish {
        ending: Ending::Timeout { loser: Color::Gote },
        plies: 1,
        clocks: last.clocks.map(|mut c| {
            c[Color::Gote].periods_left = 0;
            c
        }),
    };
    let writes = [
        (
            ids[0].as_str(),
            timed(1, "7g7f", Color::Sente, 590_000, 600_000),
        ),
        (
            ids[1].as_str(),
            timed(1, "2g2f", Color::Sente, 599_000, 600_000),
        ),
        (
            ids[0].as_str(),
            timed(2, "3c3d", Color::Gote, 590_000, 580_000),
        ),
        (ids[2].as_str(), mv(1, "5g5f", Color::Sente)),
        (ids[3].as_str(), mv(1, "1g1f", Color::Sente)),
        (ids[3].as_str(), resign),
        (
            ids[4].as_str(),
            timed(1, "9g9f", Color::Sente, 595_000, 600_000),
        ),
        (ids[4].as_str(), timeout),
    ];
    let batch: Vec<_> = writes.iter().map(|(id, w)| (*id, None, w)).collect();
    store.write_batch(&batch).await.unwrap();
    assert_eq!(stored_moves(&store, &ids[0]).await, ["7g7f", "3c3d"]);
    assert_eq!(stored_moves(&store, &ids[1]).await, ["2g2f"]);
    assert_eq!(stored_moves(&store, &ids[2]).await, ["5g5f"]);
    assert_eq!(stored_moves(&store, &ids[3]).await, ["1g1f"]);
    assert_eq!(stored_moves(&store, &ids[4]).await, ["9g9f"]);
    assert!(stored_moves(&store, &ids[5]).await.is_empty());
    let g0 = store.load(&ids[0]).await.unwrap().unwrap();
    assert_eq!(g0.clock_values[Color::Sente], (590_000, 1));
    assert_eq!(g0.clock_values[Color::Gote], (580_000, 1));
    assert_eq!(g0.used_ms, [1_000, 1_000]);
    let g1 = store.load(&ids[1]).await.unwrap().unwrap();
    assert_eq!(g1.clock_values[Color::Sente], (599_000, 1));
    let g3 = store.load(&ids[3]).await.unwrap().unwrap();
    assert_eq!(g3.ending, Some(Ending::Resignation { loser: Color::Gote }));
    let g4 = store.load(&ids[4]).await.unwrap().unwrap();
    assert_eq!(g4.ending, Some(Ending::Timeout { loser: Color::Gote }));
    assert_eq!(g4.clock_values[Color::Sente], (595_000, 1));
    assert_eq!(g4.clock_values[Color::Gote], (0, 0));
    for i in [0, 1, 2, 5] {
        assert_eq!(store.load(&ids[i]).await.unwrap().unwrap().ending, None);
    }
    store.close().await;
}

fn fence(leases: &Leases, lease: &Acquired) -> Fence {
    match lease {
        Acquired::Mine(l) => Fence {
            instance_id: leases.instance_id().to_owned(),
            epoch: l.epoch,
        },
        Acquired::HeldBy(h) => panic!("held by {h:?}"),
    }
}

/// A room's writes carry its lease's epoch: once another instance has taken
/// the game over, the old holder's write is refused in the transaction
/// (nothing of it stored) and the new holder's is stored; the other games of
/// the batch are not held back.
#[tokio::test]
async fn a_write_of_an_instance_that_lost_the_lease_is_refused() {
    let dir = TempDir::new("committer-fenced");
    let ids = three_games(&dir).await;
    let store = Store::open(&dir.db()).await.unwrap();
    let policy = LeasePolicy::default();
    let a = Leases::register(store.clone(), "127.0.0.1:1", policy, 0)
        .await
        .unwrap();
    let b = Leases::register(store.clone(), "127.0.0.1:2", policy, 0)
        .await
        .unwrap();
    let held_by_a = fence(&a, &a.acquire(&ids[0], 1_000).await.unwrap());
    let other = fence(&a, &a.acquire(&ids[1], 1_000).await.unwrap());
    let committer = Committer::spawn(store.clone());
    committer
        .write(&ids[0], Some(&held_by_a), mv(1, "7g7f", Color::Sente))
        .await
        .unwrap();
    // A stops renewing; once its lease ran out B takes the game over.
    let held_by_b = fence(
        &b,
        &b.acquire(&ids[0], 1_000 + policy.ttl_ms).await.unwrap(),
    );
    assert!(held_by_b.epoch > held_by_a.epoch);
    let results = join_all([
        committer.write(&ids[0], Some(&held_by_a), mv(2, "3c3d", Color::Gote)),
        committer.write(&ids[1], Some(&other), mv(1, "2g2f", Color::Sente)),
    ])
    .await;
    assert!(results[0].is_err());
    assert!(results[1].is_ok(), "{:?}", results[1]);
    assert_eq!(stored_moves(&store, &ids[0]).await, ["7g7f"]);
    assert_eq!(stored_moves(&store, &ids[1]).await, ["2g2f"]);
    committer
        .write(&ids[0], Some(&held_by_b), mv(2, "8c8d", Color::Gote))
        .await
        .unwrap();
    assert_eq!(stored_moves(&store, &ids[0]).await, ["7g7f", "8c8d"]);
    // The old holder's takeback and seating are refused too: a takeback
    // would delete the moves the new holder stored.
    let stale = store.take_back(&ids[0], 0, None, Some(&held_by_a)).await;
    assert!(stale.is_err());
    let stale = store
        .join(&ids[0], Color::Gote, "t", Some(&held_by_a))
        .await;
    assert!(stale.is_err());
    assert_eq!(stored_moves(&store, &ids[0]).await, ["7g7f", "8c8d"]);
    store
        .take_back(&ids[0], 1, None, Some(&held_by_b))
        .await
        .unwrap();
    assert_eq!(stored_moves(&store, &ids[0]).await, ["7g7f"]);
    drop(committer);
    store.close().await;
}

/// The committer keeps its connection while moves keep coming, but a write
/// of another kind (a seat taken) waiting for `SQLite`'s one connection gets
/// it after at most `MAX_HOLD_BATCHES` of the committer's transactions.
///
/// The moves stored before the seat's transaction are counted by the
/// database itself (a trigger on the seat's row), not by the test after the
/// seat's write returns: how soon the test's task runs again afterwards is
/// the scheduler's business, and under load the stream went on meanwhile.
#[tokio::test]
async fn a_steady_stream_of_moves_does_not_keep_other_writes_waiting() {
    let (dir, ids, store, committer) = a_first_move("committer-hold").await;
    // On PostgreSQL the seat's write has a connection of its own and never
    // waits for the committer's, so the bound is SQLite's alone.
    let sqlite = matches!(dir.db(), Location::Sqlite(_));
    let probe = dir.pool().await;
    if sqlite {
        for sql in [
            "CREATE TABLE seat_saw (moves INTEGER NOT NULL)".to_owned(),
            format!(
                "CREATE TRIGGER seat_taken AFTER UPDATE OF gote_token ON games \
                 WHEN NEW.id = '{}' BEGIN \
                 INSERT INTO seat_saw SELECT COUNT(*) FROM moves WHERE game_id = '{}'; END",
                ids[2], ids[1]
            ),
        ] {
            sqlx::query(&sql).execute(&probe).await.unwrap();
        }
    }
    let moves = Arc::new(AtomicU32::new(0));
    let stream = {
        let (committer, id, moves) = (committer.clone(), ids[1].clone(), moves.clone());
        tokio::spawn(async move {
            // One write at a time, each its own transaction: the committer
            // always has the next one before it could let go.
            for ply in 1..=10 * MAX_HOLD_BATCHES {
                let (usi, mover) = if ply % 2 == 1 {
                    ("5i5h", Color::Sente)
                } else {
                    ("5a5b", Color::Gote)
                };
                committer
                    .write(&id, None, mv(ply, usi, mover))
                    .await
                    .unwrap();
                moves.fetch_add(1, Ordering::SeqCst);
            }
        })
    };
    while moves.load(Ordering::SeqCst) < 2 {
        tokio::task::yield_now().await;
    }
    // Moves acknowledged when the seat asks for the connection; at most one
    // more is committed and not yet acknowledged (the stream waits for each).
    let before = moves.load(Ordering::SeqCst);
    store
        .join(&ids[2], Color::Gote, "seat", None)
        .await
        .unwrap();
    if sqlite {
        let saw: i64 = sqlx::query_scalar("SELECT moves FROM seat_saw")
            .fetch_one(&probe)
            .await
            .unwrap();
        let during = u32::try_from(saw)
            .unwrap()
            .checked_sub(before)
            .expect("the seat saw fewer moves than were acknowledged");
        assert!(
            during <= MAX_HOLD_BATCHES + 1,
            "the seat waited for {during} of the committer's transactions"
        );
    }
    probe.close().await;
    stream.await.unwrap();
    assert_eq!(
        store.load(&ids[1]).await.unwrap().unwrap().moves.len(),
        10 * MAX_HOLD_BATCHES as usize
    );
    drop(committer);
    store.close().await;
}
