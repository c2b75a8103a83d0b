//! Limits on what one client may do: the rate limits per address or name
//! of the "Limits" table of `docs/PROTOCOL.md` ([`rates`], the entry point
//! [`rates::Limiter`]) and the token bucket that limits a WebSocket's
//! messages and a player's chat ([`bucket`]).

pub mod bucket;
pub mod rates;
