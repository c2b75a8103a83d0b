//! Reviewing finished games and imported records: the record of a game
//! ([`records`]: built from the stored moves, or read from the uploaded
//! file; its JSON, downloads and the import), the annotations laid over it
//! ([`annotations`], their stored form in [`annotated`]), the background
//! analysis of every position ([`analysis`], its values in [`eval`], the
//! moves it marks in [`marks`]), the review board's mate search
//! ([`mate`]), board pictures ([`picture`]) and the archive that lists the
//! records ([`archive`]), and the key that finds a record already there
//! ([`dedupe`]).

pub mod analysis;
pub mod annotated;
pub mod annotations;
pub mod archive;
pub mod dedupe;
pub mod eval;
pub mod marks;
pub mod mate;
pub mod picture;
pub mod records;
pub mod strategy;
