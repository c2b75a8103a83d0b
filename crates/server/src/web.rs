//! What the server shows a browser. Until the client bundle (`web/`) is
//! embedded, `GET /` is a placeholder page listing the API; the bundle will
//! replace [`routes`] and nothing else.

use axum::response::Html;
use axum::routing::get;
use axum::Router;

use crate::app::AppState;

const INDEX: &str = r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>shogi</title>
<style>body{font-family:sans-serif;max-width:46em;margin:2em auto;line-height:1.5}code{background:#eee;padding:0 .2em}</style>
</head>
<body>
<h1>shogi</h1>
<p>The browser client is coming. Meanwhile the server speaks this API
(JSON; the whole protocol is in <code>docs/PROTOCOL.md</code>):</p>
<ul>
<li><code>POST /api/games</code> <code>{"mode":"ai"|"friend"|"local", "side", "handicap", "time", "rules", "ai"}</code>
 &rarr; <code>{"id","token","side","invite"}</code></li>
<li><code>POST /api/games/{id}/join</code> <code>{"invite"}</code> &rarr; <code>{"token","side"}</code></li>
<li><code>GET /api/games/{id}</code> &rarr; the game state</li>
<li><code>GET /api/games/{id}/ws?token=...</code>: WebSocket; the state after every change;
 send <code>{"type":"move","usi":"7g7f"}</code>, <code>resign</code>, <code>declare</code>,
 <code>propose_count</code>, <code>accept_count</code>, <code>decline_count</code></li>
</ul>
</body>
</html>
"#;

async fn index() -> Html<&'static str> {
    Html(INDEX)
}

/// The routes of the browser client.
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/", get(index))
}
