//! A [`LinkGraph`] as an mbs [`Model`].

use mbs_model::Model;

use crate::{ImportError, ImportNote, ImportOptions, LinkGraph};

/// The model built from a link graph, with the link → body map and the notes.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The validated model, bodies at the pose of the initial joint positions.
    pub model: Model,
    /// For every link of the source, the mbs body it belongs to (`None`: fixed to the
    /// world), in the order of [`LinkGraph::links`].
    pub link_bodies: Vec<(String, Option<String>)>,
    /// The parser's notes and the builder's (what is kept only as data or ignored).
    pub notes: Vec<ImportNote>,
}

/// Builds the model of `graph` (see the crate doc).
pub fn build(graph: &LinkGraph, options: &ImportOptions) -> Result<Imported, ImportError> {
    let _ = (graph, options);
    Err(ImportError::Unsupported {
        element: format!("model `{}`", graph.name),
        reason: "building is not implemented yet".into(),
    })
}
