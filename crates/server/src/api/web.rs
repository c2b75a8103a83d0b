//! What the server shows a browser: the client bundle built from `web/`
//! (`cd web && npm ci && npm run build`), embedded at compile time from the
//! committed `web/dist/`, so a machine with only Rust serves the whole app.
//!
//! The bundle has fixed file names (see `web/vite.config.ts`): `index.html`
//! (served at `/`, at every game page `/g/{id}`, at `/archive`, `/import`, `/analysis`,
//! `/review/{id}`, every profile page `/@/{name}` and the tournament pages
//! `/t`, `/t/{id}`, `/t/{id}/crosstable`, `/t/{id}/rounds/{n}/sheet`, the
//! learn pages `/learn`, `/learn/{id}`, `/puzzles` and `/puzzles/{id}`),
//! `assets/app.js`, `assets/app.css` and the two fonts `assets/pieces.woff2`
//! and `assets/japanese.woff2` (web/fonts/subset.sh). Every response
//! carries an `ETag` (a hash of the file), and `Cache-Control: no-cache` so
//! that a browser revalidates after an upgrade and gets `304 Not Modified`
//! otherwise.

use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::state::AppState;

/// One embedded file.
struct Asset {
    /// The URL path under `/`.
    path: &'static str,
    content_type: &'static str,
    body: &'static [u8],
}

/// The embedded bundle; `index.html` first.
static ASSETS: [Asset; 5] = [
    Asset {
        path: "index.html",
        content_type: "text/html; charset=utf-8",
        body: include_bytes!("../../../../web/dist/index.html"),
    },
    Asset {
        path: "assets/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../../../web/dist/assets/app.js"),
    },
    Asset {
        path: "assets/app.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../../../../web/dist/assets/app.css"),
    },
    Asset {
        path: "assets/pieces.woff2",
        content_type: "font/woff2",
        body: include_bytes!("../../../../web/dist/assets/pieces.woff2"),
    },
    Asset {
        path: "assets/japanese.woff2",
        content_type: "font/woff2",
        body: include_bytes!("../../../../web/dist/assets/japanese.woff2"),
    },
];

/// FNV-1a, enough to tell two versions of a file apart.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The `ETag` of each asset, computed once.
fn etags() -> &'static [String] {
    static ETAGS: OnceLock<Vec<String>> = OnceLock::new();
    ETAGS.get_or_init(|| {
        ASSETS
            .iter()
            .map(|a| format!("\"{:016x}\"", fnv1a(a.body)))
            .collect()
    })
}

fn serve(index: usize, headers: &HeaderMap) -> Response {
    let asset = &ASSETS[index];
    let etag = &etags()[index];
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let common = [
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (
            header::ETAG,
            HeaderValue::from_str(etag).unwrap_or(HeaderValue::from_static("\"0\"")),
        ),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
    ];
    if fresh {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    (
        StatusCode::OK,
        common,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static(asset.content_type),
        )],
        asset.body,
    )
        .into_response()
}

async fn index(headers: HeaderMap) -> Response {
    serve(0, &headers)
}

async fn game_page(Path(_id): Path<String>, headers: HeaderMap) -> Response {
    // The client shows "no such game" itself for an unknown id.
    serve(0, &headers)
}

async fn asset(Path(name): Path<String>, headers: HeaderMap) -> Response {
    let path = format!("assets/{name}");
    match ASSETS.iter().position(|a| a.path == path) {
        Some(i) => serve(i, &headers),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// Any other path: under `/api/` the documented JSON error, elsewhere the
/// client's page with status 404 (it shows "page not found" in the user's
/// language with a link to the start page).
pub(crate) async fn not_found(uri: axum::http::Uri, headers: HeaderMap) -> Response {
    if uri.path() == "/api" || uri.path().starts_with("/api/") {
        return (
            StatusCode::NOT_FOUND,
            axum::Json(serde_json::json!({"error": "no such API route", "code": "no_such_route"})),
        )
            .into_response();
    }
    let mut page = serve(0, &headers);
    if page.status() == StatusCode::OK {
        *page.status_mut() = StatusCode::NOT_FOUND;
    }
    page
}

/// The routes of the browser client.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(index))
        .route("/g/{id}", get(game_page))
        .route("/review/{id}", get(game_page))
        // A player's profile; the client shows "no such player" itself.
        .route("/@/{name}", get(game_page))
        // Tournaments; the client shows "no such event" itself.
        .route("/t", get(index))
        .route("/t/{id}", get(index))
        .route("/t/{id}/crosstable", get(index))
        .route("/t/{id}/rounds/{n}/sheet", get(index))
        .route("/archive", get(index))
        .route("/import", get(index))
        .route("/collections", get(index))
        // The learn pages: the course, a lesson, the coordinates trainer.
        .route("/learn", get(index))
        .route("/learn/{id}", get(index))
        // Puzzles; the client shows "no such puzzle" itself.
        .route("/puzzles", get(index))
        .route("/puzzles/{id}", get(game_page))
        .route("/analysis", get(index))
        .route("/admin", get(index))
        .route("/assets/{name}", get(asset))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file of the built bundle is embedded, and nothing else is expected.
    #[test]
    fn every_file_of_web_dist_is_embedded() {
        let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/dist");
        let mut found = Vec::new();
        let mut dirs = vec![dist.clone()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else {
                    let rel = path.strip_prefix(&dist).unwrap();
                    found.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
        found.sort();
        let mut embedded: Vec<String> = ASSETS.iter().map(|a| a.path.to_string()).collect();
        embedded.sort();
        assert_eq!(
            found, embedded,
            "web/dist and the embedded files differ: rebuild web/ or update ASSETS"
        );
    }

    #[test]
    fn the_page_loads_the_embedded_script_and_styles() {
        let html = std::str::from_utf8(ASSETS[0].body).unwrap();
        assert!(html.contains("src=\"/assets/app.js\""), "{html}");
        assert!(html.contains("href=\"/assets/app.css\""), "{html}");
    }

    #[test]
    fn etags_differ_between_files() {
        let tags = etags();
        assert_ne!(tags[0], tags[1]);
        assert_ne!(tags[1], tags[2]);
    }
}
