//! Accounts and sessions: `POST /api/account` (register), `POST
//! /api/session` (log in), `DELETE /api/session` (log out), `GET /api/me`,
//! `PUT /api/account/password`, `DELETE /api/account`.

use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

use super::body::JsonBody;
use super::session::{clear_cookie, session_id, set_cookie, ClientAddr, SecureCookies, User};
use crate::accounts::{name_key, Account, Accounts, Name, Password};
use crate::error::{Error, Problem};
use crate::limits::rates::{login_key, Kind, Limiter};

/// The body of registration and login.
#[derive(Deserialize)]
pub(super) struct Credentials {
    name: String,
    password: String,
}

/// The body of a password change.
#[derive(Deserialize)]
pub(super) struct PasswordChange {
    old: String,
    new: String,
}

/// The body of an account deletion.
#[derive(Deserialize)]
pub(super) struct PasswordOnly {
    password: String,
}

/// Who is logged in.
#[derive(Serialize)]
pub(super) struct Me {
    name: String,
    /// Whether it administers the server (kept beside `role`).
    admin: bool,
    /// `player`, `moderator` or `admin`.
    role: &'static str,
    /// Whether it is a program's account.
    bot: bool,
}

impl From<Account> for Me {
    fn from(a: Account) -> Me {
        Me {
            admin: a.is_admin(),
            bot: a.bot,
            role: a.role.name(),
            name: a.name,
        }
    }
}

fn with_cookie(status: StatusCode, cookie: HeaderValue, body: Option<Me>) -> Response {
    let headers = [(SET_COOKIE, cookie)];
    match body {
        Some(me) => (status, headers, Json(me)).into_response(),
        None => (status, headers).into_response(),
    }
}

/// `POST /api/account`: `201` with the new account logged in.
pub(super) async fn register(
    State(accounts): State<Accounts>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    secure: SecureCookies,
    JsonBody(req): JsonBody<Credentials>,
) -> Result<Response, Error> {
    let name = Name::parse(&req.name)?;
    let password = Password::new(&req.password)?;
    if accounts.name_taken(&name).await? {
        return Err(Problem::NameTaken.into());
    }
    // Only registrations that would succeed count against the address.
    limiter.check(Kind::Accounts, &addr.key()).await?;
    let (account, session) = accounts.register(&name, password).await?;
    Ok(with_cookie(
        StatusCode::CREATED,
        set_cookie(&session, secure),
        Some(account.into()),
    ))
}

/// Counts a login attempt against the address, and against the name from
/// that address over a minute, an hour and a day (all or none): attempts
/// from one address never refuse the right password from another.
async fn login_attempt(limiter: &Limiter, addr: &ClientAddr, name: &str) -> Result<(), Error> {
    // Any text counts as a name here; cut it so a long one is not kept.
    let name: String = name.chars().take(64).collect();
    let address = addr.key();
    let pair = login_key(&name_key(&name), &address);
    limiter
        .check_all(&[
            (Kind::LoginAddress, &address, 1),
            (Kind::LoginName, &pair, 1),
            (Kind::LoginNameHour, &pair, 1),
            (Kind::LoginNameDay, &pair, 1),
        ])
        .await
}

/// `POST /api/session`: `200` and the cookie, or `401` for a wrong name or
/// password alike.
pub(super) async fn login(
    State(accounts): State<Accounts>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    secure: SecureCookies,
    JsonBody(req): JsonBody<Credentials>,
) -> Result<Response, Error> {
    login_attempt(&limiter, &addr, &req.name).await?;
    let (account, session) = accounts.login(&req.name, &req.password).await?;
    Ok(with_cookie(
        StatusCode::OK,
        set_cookie(&session, secure),
        Some(account.into()),
    ))
}

/// `DELETE /api/session`: `204`, the session ended and the cookie cleared
/// (also without a session).
pub(super) async fn logout(
    State(accounts): State<Accounts>,
    secure: SecureCookies,
    headers: HeaderMap,
) -> Result<Response, Error> {
    if let Some(id) = session_id(&headers) {
        accounts.logout(id).await?;
    }
    Ok(with_cookie(
        StatusCode::NO_CONTENT,
        clear_cookie(secure),
        None,
    ))
}

/// `GET /api/me`.
pub(super) async fn me(User(account): User) -> Json<Me> {
    Json(account.into())
}

/// `PUT /api/account/password`: `204`; every session of the account ends
/// and this client gets a new cookie.
pub(super) async fn change_password(
    State(accounts): State<Accounts>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    secure: SecureCookies,
    User(account): User,
    JsonBody(req): JsonBody<PasswordChange>,
) -> Result<Response, Error> {
    // A password check is a login attempt: a stolen session must not guess.
    login_attempt(&limiter, &addr, &account.name).await?;
    let session = accounts
        .change_password(account.id, &req.old, &req.new)
        .await?;
    Ok(with_cookie(
        StatusCode::NO_CONTENT,
        set_cookie(&session, secure),
        None,
    ))
}

/// `DELETE /api/account`: `204`; the account, its sessions and ratings are
/// gone, its games stay under the name `deleted`.
pub(super) async fn delete(
    State(accounts): State<Accounts>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    secure: SecureCookies,
    User(account): User,
    JsonBody(req): JsonBody<PasswordOnly>,
) -> Result<Response, Error> {
    login_attempt(&limiter, &addr, &account.name).await?;
    accounts.delete_account(account.id, &req.password).await?;
    Ok(with_cookie(
        StatusCode::NO_CONTENT,
        clear_cookie(secure),
        None,
    ))
}
