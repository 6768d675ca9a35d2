//! The table of methods: every method name of the formulation crates, in the order
//! shown to users, and where a [`Method`] becomes a [`FrontEnd`].

use std::sync::{Arc, OnceLock};

use mbs_formulation::params::{MethodEntry, entries};
use mbs_model::Model;

use crate::error::Error;
use crate::frontend::FrontEnd;
use crate::frontends::alf::{Index1FrontEnd, Index3FrontEnd, PenaltyFrontEnd};
use crate::frontends::reduced::{NaturalFrontEnd, ReducedFrontEnd};
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
            entries::<mbs_alf::PenaltyParams>(),
            entries::<mbs_dca::DcaParams>(),
            entries::<mbs_hdca::HdcaParams>(),
            entries::<mbs_complement::NaturalParams>(),
            entries::<mbs_complement::ComplementParams>(),
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

/// Builds the front-end of `method` for `model`.
///
/// A method whose front-end does not exist yet gives [`Error::NotImplemented`] (never a
/// panic).
pub fn build_front_end(method: &Method, model: &Arc<Model>) -> Result<Box<dyn FrontEnd>, Error> {
    let name = method.to_string();
    let model = model.clone();
    let unsupported = |message: String| Error::Unsupported {
        method: method.name().to_string(),
        message,
    };
    if let Some(p) = method.params_as::<mbs_alf::LagrangeParams>() {
        return Ok(Box::new(Index1FrontEnd::lagrange(name, *p, model)));
    }
    if let Some(p) = method.params_as::<mbs_alf::AlfIndex1Params>() {
        return Ok(Box::new(Index1FrontEnd::alf(name, *p, model)));
    }
    if let Some(p) = method.params_as::<mbs_alf::Index3Params>() {
        return Ok(Box::new(Index3FrontEnd::new(name, *p, model)));
    }
    if let Some(p) = method.params_as::<mbs_alf::PenaltyParams>() {
        return Ok(Box::new(PenaltyFrontEnd::new(name, *p, model)));
    }
    if let Some(p) = method.params_as::<mbs_dca::DcaParams>() {
        let sys = mbs_dca::AlfDca::new(model.clone(), *p);
        let every = usize::from(p.projections);
        return Ok(Box::new(ReducedFrontEnd::new(name, model, sys, every)));
    }
    if let Some(p) = method.params_as::<mbs_hdca::HdcaParams>() {
        let sys = mbs_hdca::Hdca::new(model.clone(), p.clone())
            .map_err(|e| unsupported(e.to_string()))?;
        // the hook renormalises the joint Euler parameters
        return Ok(Box::new(ReducedFrontEnd::new(name, model, sys, 1)));
    }
    if let Some(p) = method.params_as::<mbs_complement::NaturalParams>() {
        let sys = mbs_complement::NaturalPartitioning::new(model.clone(), *p)
            .map_err(|e| unsupported(e.to_string()))?;
        return Ok(Box::new(NaturalFrontEnd::new(name, model, sys)));
    }
    if let Some(p) = method.params_as::<mbs_complement::ComplementParams>() {
        let sys = mbs_complement::Complement::new(model.clone(), *p)
            .map_err(|e| unsupported(e.to_string()))?;
        return Ok(Box::new(ReducedFrontEnd::new(name, model, sys, 1)));
    }
    Err(Error::NotImplemented {
        method: method.name().to_string(),
        reason: "no front-end is registered for its parameters".into(),
    })
}

/// Whether `method` has a front-end (without building one).
pub fn is_implemented(method: &Method, model: &Arc<Model>) -> bool {
    !matches!(
        build_front_end(method, model),
        Err(Error::NotImplemented { .. })
    )
}
