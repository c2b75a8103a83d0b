//! Shogi game records and move notation (work in progress).
#![warn(missing_docs)]
