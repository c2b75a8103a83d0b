//! One TCP connection to a CSA server: lines out (each ended by a line
//! feed), lines in from a reader thread (so that the bridge can wait for the
//! server and the engine at once), and the keep-alive: an empty line after
//! a given time without writing anything.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The longest line read; the rest of a longer one is skipped (a server
/// sends lines of at most a few hundred bytes).
pub const MAX_LINE: usize = 16 * 1024;

/// What can go wrong with the connection.
#[derive(Debug, thiserror::Error)]
pub enum ConnectionError {
    /// The address does not resolve, or nothing answers there.
    #[error("cannot connect to {address}: {source}")]
    Connect {
        /// The address as given.
        address: String,
        /// Why.
        source: std::io::Error,
    },
    /// The server closed the connection.
    #[error("the server closed the connection")]
    Closed,
    /// A line could not be written.
    #[error("cannot write to the server: {0}")]
    Write(std::io::Error),
}

/// An open connection.
pub struct Connection {
    stream: TcpStream,
    lines: Receiver<String>,
    keep_alive: Option<Duration>,
    last_write: Instant,
}

impl Connection {
    /// Connects to `address` (`HOST:PORT`), trying each address it resolves
    /// to for at most `timeout`; `keep_alive` is the silence after which an
    /// empty line is sent (`None` or zero: never).
    ///
    /// # Errors
    /// [`ConnectionError::Connect`].
    pub fn open(
        address: &str,
        timeout: Duration,
        keep_alive: Option<Duration>,
    ) -> Result<Connection, ConnectionError> {
        let failed = |source| ConnectionError::Connect {
            address: address.to_owned(),
            source,
        };
        let mut last = std::io::Error::new(std::io::ErrorKind::NotFound, "no address");
        let mut stream = None;
        for addr in address.to_socket_addrs().map_err(failed)? {
            match TcpStream::connect_timeout(&addr, timeout) {
                Ok(s) => {
                    stream = Some(s);
                    break;
                }
                Err(e) => last = e,
            }
        }
        let stream = stream.ok_or_else(|| failed(last))?;
        let _ = stream.set_nodelay(true);
        let reader = stream.try_clone().map_err(failed)?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(reader);
            while let Some(line) = read_line(&mut reader) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Connection {
            stream,
            lines,
            keep_alive: keep_alive.filter(|k| !k.is_zero()),
            last_write: Instant::now(),
        })
    }

    /// Sends `line` and a line feed.
    ///
    /// # Errors
    /// [`ConnectionError::Write`].
    pub fn send(&mut self, line: &str) -> Result<(), ConnectionError> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.stream
            .write_all(&bytes)
            .and_then(|()| self.stream.flush())
            .map_err(ConnectionError::Write)?;
        self.last_write = Instant::now();
        Ok(())
    }

    /// The next line from the server, waiting at most `wait` (`None`: none
    /// came), sending the keep-alive meanwhile when it is due.
    ///
    /// # Errors
    /// [`ConnectionError::Closed`] once the server has closed the
    /// connection and every line it sent was read; a failed keep-alive.
    pub fn recv(&mut self, wait: Duration) -> Result<Option<String>, ConnectionError> {
        let deadline = Instant::now() + wait;
        loop {
            let now = Instant::now();
            let due = self.keep_alive.map(|k| self.last_write + k);
            if due.is_some_and(|d| d <= now) {
                self.send("")?;
                continue;
            }
            let until = due.map_or(deadline, |d| d.min(deadline));
            match self
                .lines
                .recv_timeout(until.saturating_duration_since(now))
            {
                Ok(line) => return Ok(Some(line)),
                Err(RecvTimeoutError::Disconnected) => return Err(ConnectionError::Closed),
                Err(RecvTimeoutError::Timeout) if Instant::now() >= deadline => return Ok(None),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        // Ends the reader thread too.
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

/// The next line of `reader` without its line feed (and carriage return),
/// at most [`MAX_LINE`] bytes of it; `None` at the end of the stream or on
/// an error.
fn read_line(reader: &mut impl BufRead) -> Option<String> {
    let mut bytes = Vec::with_capacity(128);
    let read = reader
        .by_ref()
        .take(MAX_LINE as u64)
        .read_until(b'\n', &mut bytes)
        .ok()?;
    if read == 0 {
        return None;
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() >= MAX_LINE {
        // Too long: skip to the end of the line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let n = reader
                .by_ref()
                .take(MAX_LINE as u64)
                .read_until(b'\n', &mut rest)
                .ok()?;
            if n == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_without_their_endings_and_long_lines_cut() {
        let long = "x".repeat(MAX_LINE * 2 + 5);
        let text = format!("LOGIN:bot OK\r\n\n{long}\n#WIN\nlast");
        let mut reader = BufReader::new(text.as_bytes());
        assert_eq!(read_line(&mut reader).as_deref(), Some("LOGIN:bot OK"));
        assert_eq!(read_line(&mut reader).as_deref(), Some(""));
        assert_eq!(read_line(&mut reader).map(|l| l.len()), Some(MAX_LINE));
        assert_eq!(read_line(&mut reader).as_deref(), Some("#WIN"));
        assert_eq!(read_line(&mut reader).as_deref(), Some("last"));
        assert_eq!(read_line(&mut reader), None);
        let mut bad = BufReader::new(&b"\xff\xfe\n"[..]);
        assert_eq!(read_line(&mut bad).as_deref(), Some("\u{fffd}\u{fffd}"));
    }

    #[test]
    fn a_connection_reads_sends_keeps_alive_and_sees_the_close() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let server = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut r = BufReader::new(s.try_clone().unwrap());
            let mut got = Vec::new();
            for _ in 0..2 {
                got.push(read_line(&mut r).unwrap());
            }
            s.write_all(b"LOGIN:bot OK\n").unwrap();
            got
        });
        let keep_alive = Some(Duration::from_millis(20));
        let mut c = Connection::open(&address, Duration::from_secs(5), keep_alive).unwrap();
        c.send("LOGIN bot game,token").unwrap();
        // The server answers after a keep-alive (an empty line).
        let line = c.recv(Duration::from_secs(30)).unwrap();
        assert_eq!(line.as_deref(), Some("LOGIN:bot OK"));
        assert_eq!(server.join().unwrap(), ["LOGIN bot game,token", ""]);
        c.keep_alive = None;
        assert!(matches!(
            c.recv(Duration::from_secs(30)),
            Err(ConnectionError::Closed)
        ));
        assert!(matches!(
            Connection::open("127.0.0.1:1", Duration::from_secs(5), None),
            Err(ConnectionError::Connect { .. })
        ));
    }
}
