//! Who is asking: the logged-in account from the `shogi_session` cookie
//! ([`MaybeUser`], [`User`]), the client's address for the rate limits
//! ([`ClientAddr`]), and the session cookie's `Set-Cookie` values.

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::header::{HeaderMap, HeaderValue, COOKIE};
use axum::http::request::Parts;

use tokio::sync::broadcast;

use crate::accounts::{is_session_id, session_key, Account, Accounts, Session, SessionEnd};
use crate::error::{Error, Problem};
use crate::limits::rates::address_key;
use crate::state::{HttpsCookies, TrustedProxies};

/// The session cookie's name.
pub(crate) const SESSION_COOKIE: &str = "shogi_session";

/// The value of the `shogi_session` cookie among the request's `Cookie`
/// headers (`name=value; name=value`), if one looks like a session id.
pub(crate) fn session_id(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.split_once('='))
        .filter(|(name, _)| name.trim() == SESSION_COOKIE)
        .map(|(_, value)| value.trim().trim_matches('"'))
        .find(|value| is_session_id(value))
}

/// The logged-in account, if the request carries a live session.
pub(crate) struct MaybeUser(pub Option<Account>);

impl<S> FromRequestParts<S> for MaybeUser
where
    S: Send + Sync,
    Accounts: FromRef<S>,
{
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<MaybeUser, Error> {
        let Some(id) = session_id(&parts.headers) else {
            return Ok(MaybeUser(None));
        };
        let accounts = Accounts::from_ref(state);
        Ok(MaybeUser(accounts.user_of_session(id).await?))
    }
}

/// The live session a WebSocket is opened with, watched so that the socket
/// closes as soon as the session ends (a logout, a password change, the
/// account deleted or disabled): [`SocketSession::ended`].
pub(crate) struct SocketSession(Option<Watched>);

struct Watched {
    cookie: String,
    key: String,
    account: Account,
    accounts: Accounts,
    ends: broadcast::Receiver<SessionEnd>,
}

impl<S> FromRequestParts<S> for SocketSession
where
    S: Send + Sync,
    Accounts: FromRef<S>,
{
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<SocketSession, Error> {
        let Some(cookie) = session_id(&parts.headers) else {
            return Ok(SocketSession(None));
        };
        let accounts = Accounts::from_ref(state);
        // Subscribed before the check, so that no ending falls between.
        let ends = accounts.session_ends();
        let Some(account) = accounts.user_of_session(cookie).await? else {
            return Ok(SocketSession(None));
        };
        Ok(SocketSession(Some(Watched {
            cookie: cookie.to_string(),
            key: session_key(cookie),
            account,
            accounts,
            ends,
        })))
    }
}

impl SocketSession {
    /// The logged-in account, if the socket has a live session.
    pub(crate) fn account(&self) -> Option<&Account> {
        self.0.as_ref().map(|w| &w.account)
    }

    /// Completes when the session ends (never without a session).
    pub(crate) async fn ended(&mut self) {
        let Some(w) = &mut self.0 else {
            return std::future::pending().await;
        };
        loop {
            match w.ends.recv().await {
                Ok(end) if end.ends(&w.key, w.account.id) => return,
                Ok(_) => {}
                // Endings were missed: ask whether this one is still live.
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    if !matches!(w.accounts.user_of_session(&w.cookie).await, Ok(Some(_))) {
                        return;
                    }
                }
                Err(broadcast::error::RecvError::Closed) => {
                    return std::future::pending().await;
                }
            }
        }
    }
}

/// The logged-in account; without a live session the request is refused
/// with `401` `{"error": "not logged in"}`.
pub(crate) struct User(pub Account);

impl<S> FromRequestParts<S> for User
where
    S: Send + Sync,
    Accounts: FromRef<S>,
{
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<User, Error> {
        match MaybeUser::from_request_parts(parts, state).await? {
            MaybeUser(Some(account)) => Ok(User(account)),
            MaybeUser(None) => Err(Problem::NotLoggedIn.into()),
        }
    }
}

/// The client's address: the peer of the connection, or, when that peer is
/// a trusted reverse proxy ([`TrustedProxies`]), the address the proxies
/// name in `X-Forwarded-For`: its entries are read from the right (the
/// nearest proxy's), skipping the trusted proxies, and the first other
/// one is the client. `0.0.0.0` when the router is served without
/// connection info, as in `oneshot` tests.
pub(crate) struct ClientAddr(pub IpAddr);

impl ClientAddr {
    /// Its key for the rate limiter ([`address_key`]).
    pub(crate) fn key(&self) -> String {
        address_key(self.0)
    }
}

/// The client behind `peer` given the `X-Forwarded-For` values `forwarded`
/// (in header order) and the trusted proxies.
fn client_of(peer: IpAddr, forwarded: &[&str], trusted: &TrustedProxies) -> IpAddr {
    if !trusted.contains(peer) {
        return peer;
    }
    let hops = forwarded
        .iter()
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .rev();
    let mut client = peer;
    for hop in hops {
        match hop.parse::<IpAddr>() {
            Ok(ip) => {
                client = ip;
                if !trusted.contains(ip) {
                    break;
                }
            }
            // A malformed entry: the last address believed stands.
            Err(_) => break,
        }
    }
    client
}

impl<S> FromRequestParts<S> for ClientAddr
where
    S: Send + Sync,
    TrustedProxies: FromRef<S>,
{
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<ClientAddr, Infallible> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        let forwarded: Vec<&str> = parts
            .headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect();
        let trusted = TrustedProxies::from_ref(state);
        Ok(ClientAddr(client_of(peer, &forwarded, &trusted)))
    }
}

/// Whether the session cookie gets `Secure`: the server is configured for
/// https, or the request says it came over https (`X-Forwarded-Proto`).
pub(crate) struct SecureCookies(pub bool);

impl<S> FromRequestParts<S> for SecureCookies
where
    S: Send + Sync,
    HttpsCookies: FromRef<S>,
{
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<SecureCookies, Infallible> {
        let forwarded_https = parts
            .headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .is_some_and(|proto| proto.trim().eq_ignore_ascii_case("https"));
        Ok(SecureCookies(
            HttpsCookies::from_ref(state).0 || forwarded_https,
        ))
    }
}

fn cookie(value: &str, max_age: Duration, secure: SecureCookies) -> HeaderValue {
    let secure = if secure.0 { "; Secure" } else { "" };
    let text = format!(
        "{SESSION_COOKIE}={value}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}{secure}",
        max_age.as_secs()
    );
    // The value is 32 hex digits or empty, so the header is plain ASCII.
    HeaderValue::from_str(&text).expect("a cookie of ASCII characters")
}

/// `Set-Cookie` for `session`.
pub(crate) fn set_cookie(session: &Session, secure: SecureCookies) -> HeaderValue {
    cookie(&session.id, session.max_age, secure)
}

/// `Set-Cookie` that removes the session cookie.
pub(crate) fn clear_cookie(secure: SecureCookies) -> HeaderValue {
    cookie("", Duration::ZERO, secure)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forwarded_address_is_believed_from_trusted_proxies_only() {
        let trusted = TrustedProxies(std::sync::Arc::new(vec![
            "10.0.0.0/8".parse().unwrap(),
            "::1/128".parse().unwrap(),
        ]));
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        // Straight from the internet: the header is the client's own words.
        assert_eq!(
            client_of(ip("203.0.113.5"), &["198.51.100.1"], &trusted),
            ip("203.0.113.5")
        );
        // Through the proxy: the nearest untrusted entry, from the right.
        assert_eq!(
            client_of(ip("10.0.0.2"), &["198.51.100.1"], &trusted),
            ip("198.51.100.1")
        );
        assert_eq!(
            client_of(
                ip("10.0.0.2"),
                &["6.6.6.6, 198.51.100.1, 10.0.0.3"],
                &trusted
            ),
            ip("198.51.100.1")
        );
        assert_eq!(
            client_of(ip("::1"), &["6.6.6.6", "2001:db8::7"], &trusted),
            ip("2001:db8::7")
        );
        // A proxy that sends no header, or a broken one, is its own client.
        assert_eq!(client_of(ip("10.0.0.2"), &[], &trusted), ip("10.0.0.2"));
        assert_eq!(
            client_of(ip("10.0.0.2"), &["junk"], &trusted),
            ip("10.0.0.2")
        );
        // Without trusted proxies nothing is believed.
        let none = TrustedProxies::default();
        assert_eq!(
            client_of(ip("10.0.0.2"), &["198.51.100.1"], &none),
            ip("10.0.0.2")
        );
    }

    fn headers(cookies: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for c in cookies {
            h.append(COOKIE, HeaderValue::from_str(c).unwrap());
        }
        h
    }

    const ID: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let with = |c: &str| session_id(&headers(&[c])).map(str::to_string);
        assert_eq!(with(&format!("shogi_session={ID}")), Some(ID.into()));
        assert_eq!(
            with(&format!("a=1; shogi_session={ID}; b=2")),
            Some(ID.into())
        );
        assert_eq!(
            with(&format!("a=1;shogi_session=\"{ID}\"")),
            Some(ID.into())
        );
        assert_eq!(with(&format!("xshogi_session={ID}")), None);
        assert_eq!(with("shogi_session=nothex"), None);
        assert_eq!(with("shogi_session"), None);
        assert_eq!(with(""), None);
        let two = headers(&["a=b", &format!("shogi_session={ID}")]);
        assert_eq!(session_id(&two), Some(ID));
        // A broken first cookie of the name does not hide a good one.
        let both = headers(&[&format!("shogi_session=x; shogi_session={ID}")]);
        assert_eq!(session_id(&both), Some(ID));
    }

    #[test]
    fn cookies_carry_the_documented_attributes() {
        let session = Session {
            id: ID.into(),
            max_age: Duration::from_secs(2_592_000),
        };
        assert_eq!(
            set_cookie(&session, SecureCookies(false)),
            format!("shogi_session={ID}; HttpOnly; SameSite=Lax; Path=/; Max-Age=2592000")
        );
        assert_eq!(
            clear_cookie(SecureCookies(true)),
            "shogi_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0; Secure"
        );
    }
}
