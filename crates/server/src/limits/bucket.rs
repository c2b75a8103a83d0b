//! A token bucket on a clock the caller reads: bursts of `burst`, refilled
//! at `rate` a second. It limits a WebSocket's messages and a player's chat.
//!
//! ```
//! use shogi_server::limits::bucket::TokenBucket;
//! let mut chat = TokenBucket::new(1.0, 3);
//! assert!((0..3).all(|_| chat.allow(0)));
//! assert!(!chat.allow(0));
//! assert!(chat.allow(1000)); // one more a second later
//! ```

/// A token bucket (full when made).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TokenBucket {
    per_ms: f64,
    burst: f64,
    tokens: f64,
    last_ms: Option<u64>,
}

impl TokenBucket {
    /// Bursts of `burst`, `rate` more a second.
    #[must_use]
    pub fn new(rate: f64, burst: u32) -> TokenBucket {
        TokenBucket {
            per_ms: rate / 1000.0,
            burst: f64::from(burst),
            tokens: f64::from(burst),
            last_ms: None,
        }
    }

    /// Takes a token at `now_ms` (any clock that does not go back), if one is left.
    #[allow(clippy::cast_precision_loss)]
    pub fn allow(&mut self, now_ms: u64) -> bool {
        if let Some(last) = self.last_ms {
            let refill = now_ms.saturating_sub(last) as f64 * self.per_ms;
            self.tokens = (self.tokens + refill).min(self.burst);
        }
        self.last_ms = Some(now_ms);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
