//! The table of methods: every method name of the formulation crates, in the order
//! shown to users, and where a [`Method`] becomes a [`FrontEnd`].

use std::sync::{Arc, OnceLock};

use mbs_formulation::params::{MethodEntry, entries};
use mbs_model::Model;

use crate::error::Error;
use crate::frontend::{FrontEnd, FrontEndErrorKind};
use crate::method::Method;

/// Every method of the formulation crates with its defaults, in the order shown to
/// users (each crate's families in the order of its presets).
pub fn methods() -> &'static [MethodEntry] {
    static TABLE: OnceLock<Vec<MethodEntry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        [
            entries::<mbs_alf::LagrangeParams>(),
            entries::<mbs_alf::AlfIndex1Params>(),
            entries::<mbs_alf::Index3Params>(),
            entries::<mbs_alf::PenaltyMethodParams>(),
            entries::<mbs_dca::DcaParams>(),
            entries::<mbs_hdca::HdcaParams>(),
            entries::<mbs_hdca::AbaParams>(),
            entries::<mbs_hdca::JointAlfParams>(),
            entries::<mbs_complement::NaturalParams>(),
            entries::<mbs_complement::ComplementParams>(),
            entries::<mbs_planar::PlanarParams>(),
        ]
        .into_iter()
        .flatten()
        .collect()
    })
}

/// The method called `name` (or an alias of it), lower case.
pub fn find(name: &str) -> Option<&'static MethodEntry> {
    methods()
        .iter()
        .find(|e| e.name == name || e.aliases.contains(&name))
}

/// Builds the front-end of `method` for `model` (shared, not copied).
///
/// A model the method cannot handle gives [`Error::Unsupported`] naming the element;
/// a method without a front-end [`Error::NotImplemented`] (never a panic).
pub fn build_front_end(method: &Method, model: &Arc<Model>) -> Result<Box<dyn FrontEnd>, Error> {
    method
        .family_params()
        .build(model.clone())
        .map_err(|e| match e.kind {
            FrontEndErrorKind::NotImplemented => Error::NotImplemented {
                method: method.name().to_string(),
                reason: e.to_string(),
            },
            _ => Error::Unsupported {
                method: method.name().to_string(),
                message: e.to_string(),
            },
        })
}

/// Whether `method` has a front-end (without building one).
pub fn is_implemented(method: &Method, model: &Arc<Model>) -> bool {
    !matches!(
        build_front_end(method, model),
        Err(Error::NotImplemented { .. })
    )
}
