//! The comments and variations of a record as they are stored and sent: a
//! tree of moves in USI with their comments. Plain values, read and written
//! by `db` and checked against the record by [`super::annotations`].

use serde::{Deserialize, Serialize};

/// One move of an annotated tree, as the record JSON writes it (`time` and
/// other fields are ignored: times come from the stored record).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
pub struct AnnotatedNode {
    /// The move in USI (checked against the record, so kept as sent).
    pub usi: String,
    /// Its comments, one line each.
    #[serde(default)]
    pub comments: Vec<String>,
    /// Lines replacing this move.
    #[serde(default)]
    pub variations: Vec<Vec<AnnotatedNode>>,
}

/// The annotations of a record, as stored.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
pub struct Annotations {
    /// Comments before the first move.
    #[serde(default)]
    pub start_comments: Vec<String>,
    /// One entry per main-line move, in order.
    pub nodes: Vec<AnnotatedNode>,
}

/// `PUT /api/games/{id}/annotations` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnnotationsRequest {
    /// A seat token of the game, or the owner token of the imported record.
    pub token: String,
    /// Comments before the first move.
    #[serde(default)]
    pub start_comments: Vec<String>,
    /// The main line with its comments and variations.
    pub nodes: Vec<AnnotatedNode>,
}
