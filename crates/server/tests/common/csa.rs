//! A CSA protocol client for the tests of the CSA server: programs log in,
//! send lines and expect the server's, over a real TCP socket.

use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;

use super::{account, TempDir, TestServer};

/// How long a test waits for an expected line.
pub const WAIT: Duration = Duration::from_secs(30);

pub async fn start(tmp: &TempDir) -> TestServer {
    TestServer::start_with(&tmp.db(), |c| {
        c.csa_bind = Some("127.0.0.1:0".parse().unwrap());
    })
    .await
}

/// A program account and its CSA token.
pub async fn program(s: &TestServer, name: &str) -> String {
    account(s, name).await;
    s.server
        .state()
        .accounts()
        .issue_csa_token(name)
        .await
        .unwrap()
}

/// A CSA client on a socket.
pub struct Client {
    pub lines: tokio::io::Lines<BufReader<OwnedReadHalf>>,
    pub out: OwnedWriteHalf,
}

impl Client {
    pub async fn connect(s: &TestServer) -> Client {
        let stream = TcpStream::connect(s.server.csa_addr().unwrap())
            .await
            .unwrap();
        let (r, w) = stream.into_split();
        Client {
            lines: BufReader::new(r).lines(),
            out: w,
        }
    }

    pub async fn send(&mut self, line: &str) {
        self.out.write_all(line.as_bytes()).await.unwrap();
        self.out.write_all(b"\n").await.unwrap();
    }

    /// The next line (panics at the end of the stream or after [`WAIT`]).
    pub async fn line(&mut self) -> String {
        tokio::time::timeout(WAIT, self.lines.next_line())
            .await
            .expect("a line in time")
            .unwrap()
            .expect("the connection open")
    }

    pub async fn expect(&mut self, want: &str) {
        assert_eq!(self.line().await, want);
    }

    /// Whether the server closed the connection (within [`WAIT`]).
    pub async fn closed(&mut self) -> bool {
        matches!(
            tokio::time::timeout(WAIT, self.lines.next_line()).await,
            Ok(Ok(None) | Err(_))
        )
    }

    /// The lines of the `Game_Summary` block, its first line included.
    pub async fn summary(&mut self) -> Vec<String> {
        let mut out = vec![self.line().await];
        assert_eq!(out[0], "BEGIN Game_Summary");
        loop {
            let l = self.line().await;
            let end = l == "END Game_Summary";
            out.push(l);
            if end {
                return out;
            }
        }
    }
}

pub fn field<'a>(summary: &'a [String], key: &str) -> &'a str {
    summary
        .iter()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .unwrap_or_else(|| panic!("{key} in {summary:?}"))
}

/// Logs in `name` with `token` for `game`.
pub async fn login(s: &TestServer, name: &str, token: &str, game: &str) -> Client {
    let mut c = Client::connect(s).await;
    c.send(&format!("LOGIN {name} {game},{token}")).await;
    c.expect(&format!("LOGIN:{name} OK")).await;
    c
}
