//! The accept loop: HTTP/1.1 connections served by hyper with a timer, so
//! that a client must send a request's headers within
//! [`Config::header_timeout`](crate::Config::header_timeout) (`axum::serve`
//! sets no timer, so hyper's header timeout never fires there). WebSocket
//! upgrades are served; every request carries the peer's address as
//! `axum::extract::ConnectInfo<SocketAddr>`.
//!
//! Stopping is graceful: the loop stops accepting, tells every connection to
//! finish the request in progress and close, and waits for them. An upgraded
//! WebSocket is no longer a connection of hyper's; the rooms close those.

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::Request;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tower::ServiceExt;

/// How long the loop pauses after a failed accept (out of file descriptors, say).
const ACCEPT_RETRY: Duration = Duration::from_secs(1);

/// Serves `router` on `listener` until `stop` completes, then waits for the
/// open connections to finish their requests (the caller bounds that wait).
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    header_timeout: Duration,
    stop: impl std::future::Future<Output = ()>,
) {
    let (closing, closed) = watch::channel(false);
    let mut connections = JoinSet::new();
    tokio::pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => break,
            Some(_) = connections.join_next() => {}
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    connections.spawn(connection(
                        stream,
                        peer,
                        router.clone(),
                        header_timeout,
                        closed.clone(),
                    ));
                }
                Err(e) => {
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(ACCEPT_RETRY).await;
                }
            },
        }
    }
    drop(listener);
    let _ = closing.send(true);
    while connections.join_next().await.is_some() {}
}

/// Serves one connection until it closes, or finishes it gracefully once
/// `closing` turns true.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    header_timeout: Duration,
    mut closing: watch::Receiver<bool>,
) {
    let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(peer));
        let router = router.clone();
        async move { router.oneshot(req.map(Body::new)).await }
    });
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let conn = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
    tokio::pin!(conn);
    let mut asked = false;
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(%peer, "connection: {e}");
                }
                break;
            }
            changed = closing.wait_for(|&c| c), if !asked => {
                asked = true;
                if changed.is_ok() {
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}
