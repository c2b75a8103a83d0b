//! What the board UI needs of a position outside a game's room: its legal
//! moves in the board's shape ([`legal`], built on the compact sets of
//! [`dests`] that the rooms send with every state too), the analysis
//! board's engine lines ([`engine_lines`]) and its export as a record
//! ([`export`]).

pub mod dests;
pub mod engine_lines;
pub mod export;
pub mod legal;
