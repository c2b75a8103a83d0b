//! The middleware every request passes: requests from other sites that
//! would change something are refused, and every response carries the
//! security headers.
//!
//! A request that changes state (any method but `GET`, `HEAD`, `OPTIONS`)
//! and a WebSocket upgrade are refused with `403` `{"error": "cross-origin
//! request refused"}` when the browser says they come from another site
//! (`Sec-Fetch-Site: cross-site` or `same-site`) or, from a browser that
//! does not send that header, when `Origin` names another host than `Host`.
//! A request with neither header (curl, the command-line tools) is accepted:
//! without them it cannot be a page of another site.
//!
//! The headers: a Content-Security-Policy that lets the client load only its
//! own script, styles, images and connections (its favicon is a `data:` URL;
//! it sets element styles from script, which a policy does not restrict, and
//! has no `style` attributes in its HTML), no framing, no MIME sniffing, and
//! no referrer to other sites. The WebSocket's own host is named in
//! `connect-src` besides `'self'` (Safari does not let `'self'` cover `ws:`
//! and `wss:`), taken from the request's `Host` when that is a plain
//! `host[:port]`. Every answer under `/api/` that does not set its own
//! `Cache-Control` gets `no-store`: many are private to a session.

use axum::extract::Request;
use axum::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{Error, Problem};

/// The Content-Security-Policy of every response, up to `connect-src`'s sources.
const CSP_HEAD: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; font-src 'self'; connect-src 'self'";
/// The rest of the Content-Security-Policy.
const CSP_TAIL: &str =
    "; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The Content-Security-Policy for a request to `host`.
fn content_security_policy(host: Option<&HeaderValue>) -> HeaderValue {
    let host = host.and_then(|h| h.to_str().ok()).filter(|h| plain_host(h));
    let policy = match host {
        Some(h) => format!("{CSP_HEAD} ws://{h} wss://{h}{CSP_TAIL}"),
        None => format!("{CSP_HEAD}{CSP_TAIL}"),
    };
    HeaderValue::from_str(&policy).unwrap_or(HeaderValue::from_static("default-src 'self'"))
}

/// Whether `host` is a host name or address with an optional port, and nothing else.
fn plain_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 260
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
}

/// The headers added to every response.
fn security_headers(host: Option<&HeaderValue>) -> [(HeaderName, HeaderValue); 4] {
    [
        (
            header::CONTENT_SECURITY_POLICY,
            content_security_policy(host),
        ),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ),
    ]
}

/// Refuses cross-origin changes and adds the security headers.
pub(crate) async fn guard(req: Request, next: Next) -> Response {
    let host = req.headers().get(header::HOST).cloned();
    let api = req.uri().path().starts_with("/api/");
    let mut res = if cross_origin_change(req.method(), req.headers()) {
        Error::from(Problem::CrossOrigin).into_response()
    } else {
        next.run(req).await
    };
    let headers = res.headers_mut();
    for (name, value) in security_headers(host.as_ref()) {
        headers.insert(name, value);
    }
    // Answers of the API may be private (`/api/me`, audit logs, `mine=1`):
    // no cache keeps them, unless a handler says otherwise (a diagram).
    if api && !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    res
}

/// Whether a request would change state (or open a WebSocket) from another site.
fn cross_origin_change(method: &Method, headers: &HeaderMap) -> bool {
    let safe = matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    if safe && !is_upgrade(headers) {
        return false;
    }
    let text = |name: &HeaderName| headers.get(name).map(HeaderValue::to_str);
    match text(&HeaderName::from_static("sec-fetch-site")) {
        Some(Ok(site)) => {
            let site = site.trim();
            return site.eq_ignore_ascii_case("cross-site")
                || site.eq_ignore_ascii_case("same-site");
        }
        // Not text: not a browser's header, so no browser's word on the origin.
        Some(Err(_)) => return true,
        None => {}
    }
    match text(&header::ORIGIN) {
        None => false,
        Some(Ok(origin)) => match text(&header::HOST) {
            Some(Ok(host)) => !same_host(origin, host),
            _ => true,
        },
        Some(Err(_)) => true,
    }
}

/// Whether the request asks for a WebSocket.
fn is_upgrade(headers: &HeaderMap) -> bool {
    headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("websocket"))
}

/// Whether `origin` (`scheme://host[:port]`) names the host and port of `host`
/// (`host[:port]`), the scheme's default port counting as absent.
fn same_host(origin: &str, host: &str) -> bool {
    let Some((scheme, authority)) = origin.trim().split_once("://") else {
        return false; // `null`, or not an origin at all
    };
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => ":80",
        "https" => ":443",
        _ => return false,
    };
    let normal = |a: &str| {
        let a = a.trim().to_ascii_lowercase();
        match a.strip_suffix(default_port) {
            Some(bare) => bare.to_string(),
            None => a,
        }
    };
    normal(authority) == normal(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for &(k, v) in pairs {
            h.insert(HeaderName::from_static(k), HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn reads_pass_whatever_their_origin() {
        let h = headers(&[("sec-fetch-site", "cross-site"), ("origin", "https://evil")]);
        assert!(!cross_origin_change(&Method::GET, &h));
        assert!(!cross_origin_change(&Method::OPTIONS, &h));
    }

    #[test]
    fn sec_fetch_site_decides_when_present() {
        for (site, refused) in [
            ("cross-site", true),
            ("same-site", true),
            ("same-origin", false),
            ("none", false),
        ] {
            let mut h = headers(&[("origin", "http://a.test"), ("host", "a.test")]);
            h.insert("sec-fetch-site", HeaderValue::from_static(site));
            assert_eq!(cross_origin_change(&Method::POST, &h), refused, "{site}");
        }
    }

    #[test]
    fn without_sec_fetch_site_origin_must_match_host() {
        let post = |pairs| cross_origin_change(&Method::POST, &headers(pairs));
        assert!(!post(&[
            ("origin", "http://a.test:8080"),
            ("host", "a.test:8080")
        ]));
        assert!(!post(&[
            ("origin", "https://A.test"),
            ("host", "a.test:443")
        ]));
        assert!(post(&[
            ("origin", "http://a.test:8081"),
            ("host", "a.test:8080")
        ]));
        assert!(post(&[("origin", "http://b.test"), ("host", "a.test")]));
        assert!(post(&[("origin", "null"), ("host", "a.test")]));
        assert!(!post(&[("host", "a.test")]), "no header at all: accepted");
    }

    #[test]
    fn the_policy_names_the_websocket_of_a_plain_host_only() {
        let policy = |h: &'static str| {
            let v = content_security_policy(Some(&HeaderValue::from_static(h)));
            v.to_str().unwrap().to_string()
        };
        let p = policy("shogi.example:8080");
        assert!(
            p.contains("connect-src 'self' ws://shogi.example:8080 wss://shogi.example:8080;"),
            "{p}"
        );
        assert!(p.ends_with("frame-ancestors 'none'"), "{p}");
        let p = policy("evil; script-src *");
        assert!(p.contains("connect-src 'self';"), "{p}");
        assert!(!p.contains("evil"), "{p}");
    }

    #[test]
    fn websocket_upgrades_are_checked_like_changes() {
        let h = headers(&[
            ("upgrade", "websocket"),
            ("origin", "http://b.test"),
            ("host", "a.test"),
        ]);
        assert!(cross_origin_change(&Method::GET, &h));
    }
}
