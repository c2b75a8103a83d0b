//! Accounts and sessions over HTTP: registration, login, logout, `/api/me`,
//! password changes, deleting an account, the session cookie's attributes
//! and the rate limits of registration and login.

mod common;

use std::time::Duration;

use common::{header, local, send_text_from, TempDir, TestServer};
use serde_json::{json, Value};
use shogi_server::accounts::Accounts;
use shogi_server::db::Store;
use shogi_server::limits::rates::{Rate, RateLimits};
use shogi_server::Location;

const PASSWORD: &str = "correct horse";

/// The `name=value` of the response's session cookie.
fn cookie_of(head: &str) -> String {
    let set = header(head, "set-cookie").expect("a Set-Cookie header");
    set.split(';').next().unwrap().to_string()
}

fn cookie_header(cookie: &str) -> String {
    format!("Cookie: {cookie}")
}

async fn register(ts: &TestServer, name: &str, password: &str) -> (u16, String, Value) {
    let body = json!({"name": name, "password": password});
    ts.request_with("POST", "/api/account", &[], Some(&body))
        .await
}

async fn login(ts: &TestServer, name: &str, password: &str) -> (u16, String, Value) {
    let body = json!({"name": name, "password": password});
    ts.request_with("POST", "/api/session", &[], Some(&body))
        .await
}

/// A server with the documented limits, except that one address (the
/// tests') may register any number of accounts.
async fn open_registration(tmp: &TempDir) -> TestServer {
    TestServer::start_with_limits(
        &tmp.db(),
        &RateLimits {
            accounts: Rate::unlimited(),
            ..RateLimits::default()
        },
    )
    .await
}

/// Registers `name`; its session cookie.
async fn registered(ts: &TestServer, name: &str) -> String {
    let (status, head, body) = register(ts, name, PASSWORD).await;
    assert_eq!(status, 201, "{body}");
    cookie_of(&head)
}

async fn me(ts: &TestServer, cookie: &str) -> (u16, Value) {
    let (status, _, body) = ts
        .request_with("GET", "/api/me", &[&cookie_header(cookie)], None)
        .await;
    (status, body)
}

#[tokio::test]
async fn registering_logs_in_with_an_http_only_session_cookie() {
    let tmp = TempDir::new("accounts-register");
    let ts = TestServer::start(&tmp.db()).await;
    let (status, head, body) = register(&ts, "Алиса", PASSWORD).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(
        body,
        json!({"name": "Алиса", "admin": false, "role": "player", "bot": false})
    );
    let set = header(&head, "set-cookie").unwrap();
    let cookie = cookie_of(&head);
    let id = cookie.strip_prefix("shogi_session=").unwrap();
    assert!(
        id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "{set}"
    );
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(
            set.split("; ").any(|a| a == attribute),
            "{attribute} in {set}"
        );
    }
    assert!(!set.contains("Secure"), "{set}");

    assert_eq!(me(&ts, &cookie).await, (200, body));
    let (status, _, body) = ts.request_with("GET", "/api/me", &[], None).await;
    assert_eq!(
        (status, body),
        (
            401,
            json!({"error": "not logged in", "code": "not_logged_in"})
        )
    );
    let other = "shogi_session=0123456789abcdef0123456789abcdef";
    assert_eq!(me(&ts, other).await.0, 401);
    // Among other cookies.
    assert_eq!(
        me(&ts, &format!("theme=dark; {cookie}; lang=ru")).await.0,
        200
    );
    ts.shutdown().await;
}

#[tokio::test]
async fn cookies_are_secure_over_https() {
    let tmp = TempDir::new("accounts-secure");
    let ts = TestServer::start(&tmp.db()).await;
    registered(&ts, "bob").await;
    let body = json!({"name": "bob", "password": PASSWORD});
    let (status, head, _) = ts
        .request_with(
            "POST",
            "/api/session",
            &["X-Forwarded-Proto: https"],
            Some(&body),
        )
        .await;
    assert_eq!(status, 200);
    assert!(header(&head, "set-cookie").unwrap().ends_with("; Secure"));
    ts.shutdown().await;

    let (mut config, time) = TestServer::config(&tmp.db());
    config.https_cookies = true;
    let ts = TestServer::start_with_config(config, time).await;
    let (status, head, _) = login(&ts, "bob", PASSWORD).await;
    assert_eq!(status, 200);
    assert!(header(&head, "set-cookie").unwrap().ends_with("; Secure"));
    ts.shutdown().await;
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_name_answer_alike() {
    let tmp = TempDir::new("accounts-login");
    let ts = TestServer::start(&tmp.db()).await;
    registered(&ts, "carol").await;
    let wrong = login(&ts, "carol", "not the password").await;
    let unknown = login(&ts, "nobody", PASSWORD).await;
    let invalid = login(&ts, "<no>", PASSWORD).await;
    for (status, head, body) in [&wrong, &unknown, &invalid] {
        assert_eq!(*status, 401);
        assert_eq!(
            *body,
            json!({"error": "wrong name or password", "code": "wrong_login"})
        );
        assert_eq!(header(head, "set-cookie"), None);
    }
    // The right password logs in, in any case of the name.
    let (status, head, body) = login(&ts, "CAROL", PASSWORD).await;
    assert_eq!(
        (status, body),
        (
            200,
            json!({"name": "carol", "admin": false, "role": "player", "bot": false})
        )
    );
    assert_eq!(me(&ts, &cookie_of(&head)).await.0, 200);
    ts.shutdown().await;
}

#[tokio::test]
async fn names_are_taken_in_any_case() {
    let tmp = TempDir::new("accounts-taken");
    let ts = TestServer::start(&tmp.db()).await;
    for (first, second) in [("Ёжик", "ёЖИК"), ("Straße", "STRASSE"), ("dave", "dave")] {
        registered(&ts, first).await;
        let (status, _, body) = register(&ts, second, PASSWORD).await;
        assert_eq!(
            (status, body),
            (409, json!({"error": "name taken", "code": "name_taken"})),
            "{second}"
        );
    }
    ts.shutdown().await;
}

#[tokio::test]
async fn bad_names_and_passwords_are_refused_with_the_rule() {
    let tmp = TempDir::new("accounts-bad");
    let ts = TestServer::start(&tmp.db()).await;
    let long = "a".repeat(25);
    for (name, password, error) in [
        ("a", PASSWORD, "a name has 2-24 characters, not 1"),
        (&long, PASSWORD, "a name has 2-24 characters, not 25"),
        (
            "Alice Bob",
            PASSWORD,
            "a name has only letters, digits, _ and -, not ' '",
        ),
        (
            "<script>",
            PASSWORD,
            "a name has only letters, digits, _ and -, not '<'",
        ),
        ("erin", "short", "a password has 8-256 characters, not 5"),
    ] {
        let (status, _, body) = register(&ts, name, password).await;
        assert_eq!((status, &body["error"]), (400, &json!(error)), "{name}");
        let code = if error.contains("characters") {
            "bad_length"
        } else {
            "bad_character"
        };
        assert_eq!(body["code"], code, "{name}");
    }
    let (status, _, body) = ts
        .request_with("POST", "/api/account", &[], Some(&json!({"name": "erin"})))
        .await;
    assert_eq!(status, 400, "{body}");
    // 24 characters of any script are fine.
    registered(&ts, &"東".repeat(24)).await;
    ts.shutdown().await;
}

#[tokio::test]
async fn the_sixth_registration_from_one_address_in_an_hour_is_refused() {
    let tmp = TempDir::new("accounts-limit");
    let ts = TestServer::start_with_limits(&tmp.db(), &RateLimits::default()).await;
    for i in 0..5 {
        registered(&ts, &format!("user{i}")).await;
        ts.advance(60_000);
    }
    // Refusals (a bad name, a name taken) are not counted.
    assert_eq!(register(&ts, "x", PASSWORD).await.0, 400);
    assert_eq!(register(&ts, "user0", PASSWORD).await.0, 409);
    let (status, head, body) = register(&ts, "user5", PASSWORD).await;
    assert_eq!(status, 429);
    // The first registration leaves the hour 55 minutes from now.
    assert_eq!(header(&head, "retry-after"), Some("3300"));
    assert_eq!(
        body,
        json!({"error": "too many accounts registered from this address; try again in 3300 s", "code": "too_many_requests", "retry_after_s": 3300})
    );
    ts.advance(3_300_000);
    registered(&ts, "user5").await;
    assert_eq!(register(&ts, "user6", PASSWORD).await.0, 429);
    ts.shutdown().await;
}

/// A login from the local address `from` (a client elsewhere).
async fn login_from(ts: &TestServer, from: &str, name: &str, password: &str) -> u16 {
    let body = json!({"name": name, "password": password}).to_string();
    send_text_from(from, &ts.addr(), "POST", "/api/session", "", &body)
        .await
        .0
}

#[tokio::test]
async fn login_attempts_slow_one_address_down_and_never_lock_the_owner_out() {
    let tmp = TempDir::new("accounts-login-limit");
    let ts = open_registration(&tmp).await;
    registered(&ts, "frank").await;
    registered(&ts, "grace").await;
    // An attacker at 127.0.0.2 guesses frank's password: five a minute.
    for _ in 0..5 {
        assert_eq!(
            login_from(&ts, "127.0.0.2", "FRANK", "guess guess").await,
            401
        );
    }
    let (status, head, body) = {
        let body = json!({"name": "frank", "password": PASSWORD}).to_string();
        let (status, head, text) =
            send_text_from("127.0.0.2", &ts.addr(), "POST", "/api/session", "", &body).await;
        (status, head, serde_json::from_str::<Value>(&text).unwrap())
    };
    assert_eq!(status, 429);
    assert_eq!(header(&head, "retry-after"), Some("60"));
    assert_eq!(
        body,
        json!({"error": "too many login attempts; try again in 60 s", "code": "too_many_requests", "retry_after_s": 60})
    );
    // The owner, elsewhere, logs in at once; the attacker's address may
    // still try other names.
    assert_eq!(login_from(&ts, "127.0.0.3", "frank", PASSWORD).await, 200);
    assert_eq!(login_from(&ts, "127.0.0.2", "grace", PASSWORD).await, 200);
    // The waits grow: 15 an hour, then 30 a day, for that name from there.
    for _ in 0..2 {
        ts.advance(60_000);
        for _ in 0..5 {
            assert_eq!(login_from(&ts, "127.0.0.2", "frank", "guess").await, 401);
        }
    }
    ts.advance(60_000);
    assert_eq!(login_from(&ts, "127.0.0.2", "frank", "guess").await, 429);
    assert_eq!(login_from(&ts, "127.0.0.4", "frank", PASSWORD).await, 200);
    ts.advance(3_600_000);
    assert_eq!(login_from(&ts, "127.0.0.2", "frank", PASSWORD).await, 200);
    // 20 attempts from one address in 10 minutes, whatever the names:
    // that address is refused, others are not.
    for i in 0..20 {
        assert_eq!(
            login_from(&ts, "127.0.0.5", &format!("nobody{i}"), PASSWORD).await,
            401
        );
    }
    assert_eq!(login_from(&ts, "127.0.0.5", "grace", PASSWORD).await, 429);
    assert_eq!(login_from(&ts, "127.0.0.6", "grace", PASSWORD).await, 200);
    ts.advance(600_000);
    assert_eq!(login_from(&ts, "127.0.0.5", "grace", PASSWORD).await, 200);
    ts.shutdown().await;
}

#[tokio::test]
async fn logging_out_ends_that_session_only() {
    let tmp = TempDir::new("accounts-logout");
    let ts = TestServer::start(&tmp.db()).await;
    let first = registered(&ts, "heidi").await;
    let (_, head, _) = login(&ts, "heidi", PASSWORD).await;
    let second = cookie_of(&head);
    assert_ne!(first, second);
    let (status, head, _) = ts
        .request_with("DELETE", "/api/session", &[&cookie_header(&first)], None)
        .await;
    assert_eq!(status, 204);
    let cleared = header(&head, "set-cookie").unwrap();
    assert!(cleared.starts_with("shogi_session=;") && cleared.contains("Max-Age=0"));
    assert_eq!(me(&ts, &first).await.0, 401);
    assert_eq!(me(&ts, &second).await.0, 200);
    // Logging out without a session is fine too.
    let (status, head, _) = ts.request_with("DELETE", "/api/session", &[], None).await;
    assert_eq!(status, 204);
    assert!(header(&head, "set-cookie").is_some());
    ts.shutdown().await;
}

#[tokio::test]
async fn a_password_change_ends_every_session_but_the_new_one() {
    let tmp = TempDir::new("accounts-password");
    let ts = TestServer::start(&tmp.db()).await;
    let first = registered(&ts, "ivan").await;
    let (_, head, _) = login(&ts, "ivan", PASSWORD).await;
    let second = cookie_of(&head);
    let change = |old: &str, new: &str| json!({"old": old, "new": new});

    let (status, _, body) = ts
        .request_with(
            "PUT",
            "/api/account/password",
            &[],
            Some(&change(PASSWORD, "new password")),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            401,
            json!({"error": "not logged in", "code": "not_logged_in"})
        )
    );
    let put = |body: Value| {
        let cookie = cookie_header(&first);
        let ts = &ts;
        async move {
            ts.request_with("PUT", "/api/account/password", &[&cookie], Some(&body))
                .await
        }
    };
    let (status, _, body) = put(change("wrong one", "new password")).await;
    assert_eq!(
        (status, body),
        (
            401,
            json!({"error": "wrong password", "code": "wrong_password"})
        )
    );
    let (status, _, body) = put(change(PASSWORD, "short")).await;
    assert_eq!(status, 400, "{body}");
    let (status, head, _) = put(change(PASSWORD, "new password")).await;
    assert_eq!(status, 204);
    let third = cookie_of(&head);

    assert_eq!(me(&ts, &first).await.0, 401);
    assert_eq!(me(&ts, &second).await.0, 401);
    assert_eq!(me(&ts, &third).await.0, 200);
    assert_eq!(login(&ts, "ivan", PASSWORD).await.0, 401);
    assert_eq!(login(&ts, "ivan", "new password").await.0, 200);
    ts.shutdown().await;
}

#[tokio::test]
async fn a_deleted_account_frees_its_name_and_its_games_stay_as_deleted() {
    let tmp = TempDir::new("accounts-delete");
    let ts = TestServer::start(&tmp.db()).await;
    let cookie = registered(&ts, "Юлия").await;
    let game = ts.create(local(json!({}))).await;
    let game = game["id"].as_str().unwrap().to_string();
    // Seat the account in the game as the players' code will.
    let pool = tmp.pool().await;
    sqlx::query(
        "UPDATE games SET sente_user = (SELECT id FROM users), sente_name = 'Юлия',
         sente_lc = 'юлия', gote_name = 'Гость', gote_lc = 'гость', gote_guest = TRUE WHERE id = $1",
    )
    .bind(&game)
    .execute(&pool)
    .await
    .unwrap();

    let delete = |password: &str, cookie: Option<&str>| {
        let body = json!({"password": password});
        let headers: Vec<String> = cookie.map(cookie_header).into_iter().collect();
        let ts = &ts;
        async move {
            let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
            ts.request_with("DELETE", "/api/account", &headers, Some(&body))
                .await
        }
    };
    let (status, _, body) = delete(PASSWORD, None).await;
    assert_eq!(
        (status, body),
        (
            401,
            json!({"error": "not logged in", "code": "not_logged_in"})
        )
    );
    let (status, _, body) = delete("wrong one", Some(&cookie)).await;
    assert_eq!(
        (status, body),
        (
            401,
            json!({"error": "wrong password", "code": "wrong_password"})
        )
    );
    let (status, head, _) = delete(PASSWORD, Some(&cookie)).await;
    assert_eq!(status, 204);
    assert!(header(&head, "set-cookie").unwrap().contains("Max-Age=0"));

    assert_eq!(me(&ts, &cookie).await.0, 401);
    assert_eq!(login(&ts, "Юлия", PASSWORD).await.0, 401);
    let seats: (Option<i64>, String, String, Option<i64>, String) = sqlx::query_as(
        "SELECT sente_user, sente_name, sente_lc, gote_user, gote_name FROM games WHERE id = $1",
    )
    .bind(&game)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(
        seats,
        (
            None,
            "deleted".into(),
            "deleted".into(),
            None,
            "Гость".into()
        )
    );
    let (sessions,): (i64,) = sqlx::query_as("SELECT count(*) FROM sessions")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(sessions, 0);
    pool.close().await;
    // The name is free again.
    registered(&ts, "юлия").await;
    ts.shutdown().await;
}

#[tokio::test]
async fn sessions_end_when_they_expire() {
    let tmp = TempDir::new("accounts-expiry");
    let store = Store::open(&tmp.db()).await.unwrap();
    let accounts = Accounts::with_session_ttl(store.clone(), Duration::ZERO);
    let name = shogi_server::accounts::Name::parse("kate").unwrap();
    let password = shogi_server::accounts::Password::new(PASSWORD).unwrap();
    let (account, session) = accounts.register(&name, password).await.unwrap();
    assert_eq!(account.name, "kate");
    assert_eq!(accounts.user_of_session(&session.id).await.unwrap(), None);

    let lasting = Accounts::new(store.clone());
    let (_, session) = lasting.login("kate", PASSWORD).await.unwrap();
    assert_eq!(session.max_age, Duration::from_secs(2_592_000));
    assert_eq!(
        lasting.user_of_session(&session.id).await.unwrap(),
        Some(account)
    );
    store.close().await;
}

#[tokio::test]
async fn invisible_mixed_and_look_alike_names_are_refused() {
    let tmp = TempDir::new("accounts-names");
    let ts = open_registration(&tmp).await;
    registered(&ts, "alice").await;
    registered(&ts, "coco").await;
    let refused = |(status, _, body): (u16, String, Value)| (status, body);
    // Cyrillic а before Latin "lice".
    assert_eq!(
        refused(register(&ts, "\u{430}lice", PASSWORD).await),
        (
            400,
            json!({"error": "a name mixes the letters of different scripts", "code": "mixed_scripts", "what": "name"})
        )
    );
    // Full-width letters are the same name (NFKC).
    assert_eq!(register(&ts, "ａｌｉｃｅ", PASSWORD).await.0, 409);
    // Hangul fillers: a name nobody can see.
    let (status, _, body) = register(&ts, "\u{3164}\u{3164}\u{3164}", PASSWORD).await;
    assert_eq!((status, &body["code"]), (400, &json!("bad_character")));
    // All-Cyrillic сосо looks like the Latin coco.
    assert_eq!(
        refused(register(&ts, "сосо", PASSWORD).await),
        (
            409,
            json!({"error": "this name looks like the name coco", "code": "name_too_like", "name": "coco"})
        )
    );
    // The owner logs in with the full-width spelling too.
    assert_eq!(login(&ts, "ａｌｉｃｅ", PASSWORD).await.0, 200);
    ts.shutdown().await;
}

#[tokio::test]
async fn sessions_are_stored_hashed() {
    let tmp = TempDir::new("accounts-session-hash");
    let ts = TestServer::start(&tmp.db()).await;
    let cookie = registered(&ts, "ivan").await;
    let value = cookie.split_once('=').unwrap().1.to_string();
    let pool = tmp.pool().await;
    let stored: Vec<String> = sqlx::query_scalar("SELECT id FROM sessions")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(stored, [shogi_server::accounts::session_key(&value)]);
    assert!(!stored[0].contains(&value));
    // The stored value is no cookie: presenting it opens nothing.
    let (status, _) = me(&ts, &format!("shogi_session={}", stored[0])).await;
    assert_eq!(status, 401);
    assert_eq!(me(&ts, &cookie).await.0, 200);
    pool.close().await;
    ts.shutdown().await;
}

#[cfg(unix)]
#[tokio::test]
async fn the_database_file_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = TempDir::new("accounts-file-mode");
    let ts = TestServer::start(&tmp.db()).await;
    registered(&ts, "olga").await;
    if let Location::Sqlite(path) = tmp.db() {
        let mut files = vec![path.clone()];
        for suffix in ["-wal", "-shm", ".migrate-lock"] {
            let mut name = path.clone().into_os_string();
            name.push(suffix);
            files.push(name.into());
        }
        for file in files {
            let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{}", file.display());
        }
    }
    ts.shutdown().await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_forwarded_address_is_the_client() {
    let tmp = TempDir::new("accounts-proxy");
    let ts = TestServer::start_with(&tmp.db(), |c| {
        c.limits = RateLimits::default();
        c.trusted_proxies = vec!["127.0.0.2/32".parse().unwrap()];
    })
    .await;
    let register_via = |from: &'static str, client: &'static str, name: String| {
        let addr = ts.addr();
        async move {
            let body = json!({"name": name, "password": PASSWORD}).to_string();
            let header = format!("X-Forwarded-For: 6.6.6.6, {client}\r\n");
            send_text_from(from, &addr, "POST", "/api/account", &header, &body)
                .await
                .0
        }
    };
    // Five accounts an hour per client: counted per forwarded client...
    for i in 0..5 {
        assert_eq!(
            register_via("127.0.0.2", "198.51.100.1", format!("a{i}")).await,
            201
        );
    }
    assert_eq!(
        register_via("127.0.0.2", "198.51.100.1", "a5".into()).await,
        429
    );
    assert_eq!(
        register_via("127.0.0.2", "198.51.100.2", "b0".into()).await,
        201
    );
    // ...but an untrusted peer's header is ignored: it is its own client.
    for i in 0..5 {
        let client = if i % 2 == 0 {
            "198.51.100.3"
        } else {
            "198.51.100.4"
        };
        assert_eq!(
            register_via("127.0.0.3", client, format!("c{i}")).await,
            201
        );
    }
    assert_eq!(
        register_via("127.0.0.3", "198.51.100.9", "c5".into()).await,
        429
    );
    ts.shutdown().await;
}
