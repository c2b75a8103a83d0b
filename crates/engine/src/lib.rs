//! A USI shogi engine (work in progress).
#![warn(missing_docs)]
