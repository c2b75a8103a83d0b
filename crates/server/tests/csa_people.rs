//! Programs and people meet: a program waiting over the CSA protocol is a
//! seek in the lobby that a person accepts, and a program takes a
//! person's seek with `%%GAME`; `%%CHALLENGE`, `%%CHAT`, floodgate's
//! scheduled pairing and the programs' own rating pool. Real TCP sockets;
//! the server's clock is the manual one.

mod common;

use std::time::Duration;

use common::csa::{field, login, program, start, Client};
use common::{account, ratings_of, TempDir, TestServer};
use serde_json::{json, Value};

/// The lobby's seeks now.
async fn seeks(s: &TestServer) -> Vec<Value> {
    let (status, lobby) = s.request("GET", "/api/lobby", None).await;
    assert_eq!(status, 200, "{lobby}");
    lobby["seeks"].as_array().cloned().unwrap_or_default()
}

/// The x1 way in: `LOGIN name token x1`, no game yet.
async fn login_x1(s: &TestServer, name: &str, token: &str) -> Client {
    let mut c = Client::connect(s).await;
    c.send(&format!("LOGIN {name} {token} x1")).await;
    c.expect(&format!("LOGIN:{name} OK")).await;
    c
}

/// Asks for the version: the answer comes after every line sent before
/// it, so that a test knows nothing else was said meanwhile.
async fn nothing_else_said(c: &mut Client) {
    c.send("%%VERSION").await;
    let first = c.line().await;
    assert!(first.starts_with("##[VERSION] "), "{first}");
    c.expect("##[VERSION] +OK").await;
}

#[tokio::test]
async fn a_waiting_program_is_a_seek_a_person_accepts_and_plays() {
    let tmp = TempDir::new("csa-people-accept");
    let s = start(&tmp).await;
    let token = program(&s, "robo").await;
    let person = account(&s, "carol").await;
    let mut robo = login(&s, "robo", &token, "test-600-10-B").await;
    // Listed before LOGIN's answer: the program's badge and its game name.
    let listed = seeks(&s).await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    let seek = &listed[0];
    assert_eq!(seek["by"]["name"], "robo", "{seek}");
    assert_eq!(seek["by"]["bot"], true, "{seek}");
    assert_eq!(seek["game"], "test-600-10", "{seek}");
    assert_eq!(seek["rated"], false, "{seek}");
    assert_eq!(seek["side"], "sente", "{seek}");
    assert_eq!(seek["time"]["main_ms"], 600_000, "{seek}");
    assert_eq!(seek["time"]["byoyomi_ms"], 10_000, "{seek}");
    let seek_id = seek["id"].as_str().unwrap().to_owned();
    // The person's acceptance waits for the program's AGREE.
    let addr = s.addr();
    let cookie = person.0.clone();
    let accept = tokio::spawn(async move {
        common::http_with(
            &addr,
            "POST",
            &format!("/api/seeks/{seek_id}/accept"),
            &[&cookie],
            None,
        )
        .await
    });
    let summary = robo.summary().await;
    assert_eq!(field(&summary, "Name+"), "robo");
    assert_eq!(field(&summary, "Name-"), "carol");
    assert_eq!(field(&summary, "Your_Turn"), "+");
    let id = field(&summary, "Game_ID").to_owned();
    robo.send("AGREE").await;
    robo.expect(&format!("START:{id}")).await;
    let (status, _, seat) = accept.await.unwrap();
    assert_eq!(status, 201, "{seat}");
    assert_eq!(seat["game"], id.as_str());
    assert_eq!(seat["side"], "gote");
    assert!(seeks(&s).await.is_empty());
    // The person plays through the web socket with the seat's token.
    let mut ws = s
        .connect_with(&id, seat["token"].as_str(), Some(&person.1))
        .await;
    robo.send("+7776FU,'* 30 -3334FU").await;
    robo.expect("+7776FU,T0").await;
    ws.state_where(|st| st["moves"].as_array().is_some_and(|m| m.len() == 1))
        .await;
    ws.play("3c3d").await;
    robo.expect("-3334FU,T0").await;
    ws.send(json!({"type": "resign"})).await;
    robo.expect("%TORYO,T0").await;
    robo.expect("#RESIGN").await;
    robo.expect("#WIN").await;
    let state = s.state(&id).await;
    assert_eq!(state["players"]["sente"]["bot"], true, "{state}");
    assert_eq!(state["players"]["gote"]["name"], "carol", "{state}");
    assert_ne!(state["players"]["gote"]["bot"], true, "{state}");
    // A program's game with a person is rated for neither.
    assert_eq!(state["rated"], false, "{state}");
    assert_eq!(ratings_of(&s, "carol").await["ratings"], json!({}));
    assert_eq!(ratings_of(&s, "robo").await["ratings"], json!({}));
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_program_that_rejects_a_person_is_a_refusal_in_their_words() {
    let tmp = TempDir::new("csa-people-reject");
    let s = start(&tmp).await;
    let token = program(&s, "robo").await;
    let mut robo = login(&s, "robo", &token, "test-300-5").await;
    let seek_id = seeks(&s).await[0]["id"].as_str().unwrap().to_owned();
    let addr = s.addr();
    let accept = tokio::spawn(async move {
        common::http(
            &addr,
            "POST",
            &format!("/api/seeks/{seek_id}/accept"),
            Some(&json!({"name": "Guest1"})),
        )
        .await
    });
    let summary = robo.summary().await;
    let id = field(&summary, "Game_ID").to_owned();
    let guest_side = if field(&summary, "Your_Turn") == "+" {
        "Name-"
    } else {
        "Name+"
    };
    assert_eq!(field(&summary, guest_side), "Guest1");
    robo.send("REJECT").await;
    robo.expect(&format!("REJECT:{id} by robo")).await;
    let (status, refusal) = accept.await.unwrap();
    assert_eq!(status, 409, "{refusal}");
    assert_eq!(refusal["code"], "program_declined", "{refusal}");
    assert_eq!(refusal["name"], "robo", "{refusal}");
    // Nothing was stored, and the program no longer waits.
    assert_eq!(
        s.request("GET", &format!("/api/games/{id}"), None).await.0,
        404
    );
    assert!(seeks(&s).await.is_empty());
    nothing_else_said(&mut robo).await;
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_program_takes_a_persons_seek_with_game_and_refused_it_goes_back() {
    let tmp = TempDir::new("csa-people-take");
    let s = start(&tmp).await;
    let token = program(&s, "robo").await;
    let person = account(&s, "carol").await;
    let time = json!({"main_ms": 300_000, "byoyomi_ms": 10_000, "periods": 1});
    let (status, _, posted) = s
        .request_with(
            "POST",
            "/api/seeks",
            &[&person.0],
            Some(&json!({"time": time, "side": "gote"})),
        )
        .await;
    assert_eq!(status, 201, "{posted}");
    let seek_token = posted["token"].as_str().unwrap().to_owned();
    // Another clock does not fit the person's seek: the program waits.
    let mut robo = login_x1(&s, "robo", &token).await;
    robo.send("%%CHALLENGE test-600-10").await;
    robo.expect("##[ERROR] nobody is waiting for test-600-10")
        .await;
    // The same clock fits: the person plays Gote, so the program Sente.
    robo.send("%%GAME test-300-10 *").await;
    let summary = robo.summary().await;
    assert_eq!(field(&summary, "Name+"), "robo");
    assert_eq!(field(&summary, "Name-"), "carol");
    assert!(seeks(&s).await.is_empty());
    // Refused: the person's seek is open again.
    robo.send("REJECT").await;
    let rejected = robo.line().await;
    assert!(rejected.ends_with(" by robo"), "{rejected}");
    let open = seeks(&s).await;
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!(open[0]["by"]["name"], "carol");
    // Taken again and agreed: the person's client holds the seat with
    // its seek's token.
    robo.send("%%GAME test-300-10").await;
    let summary = robo.summary().await;
    let id = field(&summary, "Game_ID").to_owned();
    robo.send("AGREE").await;
    robo.expect(&format!("START:{id}")).await;
    let mut ws = s.connect(&id, Some(&seek_token)).await;
    robo.send("+2726FU").await;
    robo.expect("+2726FU,T0").await;
    ws.play("8c8d").await;
    robo.expect("-8384FU,T0").await;
    robo.send("%TORYO").await;
    robo.expect("%TORYO,T0").await;
    robo.expect("#RESIGN").await;
    robo.expect("#LOSE").await;
    let state = s.state(&id).await;
    assert_eq!(state["status"]["winner"], "gote", "{state}");
    assert_eq!(state["players"]["gote"]["name"], "carol", "{state}");
    s.server.shutdown().await;
}

#[tokio::test]
async fn challenge_pairs_with_a_waiting_program_and_chat_reaches_every_program() {
    let tmp = TempDir::new("csa-people-challenge");
    let s = start(&tmp).await;
    let ta = program(&s, "alpha").await;
    let tb = program(&s, "beta").await;
    let mut a = login_x1(&s, "alpha", &ta).await;
    let mut b = login_x1(&s, "beta", &tb).await;
    a.send("%%CHAT hello, programs").await;
    a.expect("##[CHAT][alpha] hello, programs").await;
    b.expect("##[CHAT][alpha] hello, programs").await;
    // One line a second from one program.
    a.send("%%CHAT again").await;
    a.expect("##[ERROR] %%CHAT: at most a line a second").await;
    a.send("%%GAME test-120-5 -").await;
    nothing_else_said(&mut a).await;
    b.send("%%CHALLENGE test-120-5").await;
    let sb = b.summary().await;
    let sa = a.summary().await;
    assert_eq!(field(&sa, "Your_Turn"), "-");
    assert_eq!(field(&sb, "Your_Turn"), "+");
    assert_eq!(field(&sa, "Game_ID"), field(&sb, "Game_ID"));
    // Waiting or playing, a second %%GAME is refused.
    b.send("%%GAME test-120-5").await;
    b.expect("##[ERROR] %%GAME: waiting or playing already")
        .await;
    s.server.shutdown().await;
}

#[tokio::test]
async fn floodgate_names_pair_on_the_schedule_and_programs_rate_among_themselves() {
    let tmp = TempDir::new("csa-people-schedule");
    let every = Duration::from_secs(30 * 60);
    let s = TestServer::start_with(&tmp.db(), |c| {
        c.csa_bind = Some("127.0.0.1:0".parse().unwrap());
        c.csa_pairing_every = every;
    })
    .await;
    let names = ["p1", "p2", "p3", "p4"];
    let mut clients = Vec::new();
    for name in names {
        let token = program(&s, name).await;
        clients.push(login(&s, name, &token, "floodgate-600-10").await);
    }
    // Nobody is paired before the schedule's time.
    for c in &mut clients {
        nothing_else_said(c).await;
    }
    // The next pairing comes within one period: all four are paired.
    s.advance(u64::try_from(every.as_millis()).unwrap());
    let mut games: Vec<String> = Vec::new();
    let mut turns = Vec::new();
    for c in &mut clients {
        let summary = c.summary().await;
        games.push(field(&summary, "Game_ID").to_owned());
        turns.push(field(&summary, "Your_Turn").to_owned());
    }
    let mut distinct = games.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 2, "{games:?}");
    assert_eq!(turns.iter().filter(|t| *t == "+").count(), 2);
    // Play one of the games to a resignation: it is rated, in the
    // programs' pool.
    let first = games[0].clone();
    let pair: Vec<usize> = (0..4).filter(|&i| games[i] == first).collect();
    let (si, gi) = if turns[pair[0]] == "+" {
        (pair[0], pair[1])
    } else {
        (pair[1], pair[0])
    };
    for i in [si, gi] {
        clients[i].send("AGREE").await;
    }
    for i in [si, gi] {
        clients[i].expect(&format!("START:{first}")).await;
    }
    for (mover, mv) in [(si, "+7776FU"), (gi, "-3334FU")] {
        clients[mover].send(mv).await;
        for i in [si, gi] {
            clients[i].expect(&format!("{mv},T0")).await;
        }
    }
    clients[gi].send("%TORYO").await;
    clients[si].expect("%TORYO,T0").await;
    clients[si].expect("#RESIGN").await;
    clients[si].expect("#WIN").await;
    let state = s.state(&first).await;
    assert_eq!(state["rated"], true, "{state}");
    let winner = ratings_of(&s, names[si]).await;
    let loser = ratings_of(&s, names[gi]).await;
    let class = winner["ratings"]
        .as_object()
        .and_then(|r| r.keys().next().cloned())
        .unwrap_or_else(|| panic!("{winner}"));
    let w = winner["ratings"][&class]["rating"].as_f64().unwrap();
    let l = loser["ratings"][&class]["rating"].as_f64().unwrap();
    assert!(w > 1500.0 && l < 1500.0, "{winner} {loser}");
    s.server.shutdown().await;
}
