//! The one place where a [`Method`] becomes a [`FrontEnd`]: adding a front-end is
//! adding its arm here (and its adapter in [`crate::frontends`]).

use mbs_model::Model;

use crate::error::Error;
use crate::frontend::FrontEnd;
use crate::method::Method;

fn not_implemented(method: &Method, krate: &str) -> Error {
    Error::NotImplemented {
        method: method.name().to_string(),
        reason: format!("the front-end crate `{krate}` does not provide it yet"),
    }
}

/// Builds the front-end of `method` for `model`.
///
/// A method whose front-end does not exist yet gives [`Error::NotImplemented`] (never a
/// panic).
pub fn build_front_end(method: &Method, model: &Model) -> Result<Box<dyn FrontEnd>, Error> {
    let _ = model;
    match method {
        Method::Lagrange { .. }
        | Method::Alf { .. }
        | Method::AlfIndex3 { .. }
        | Method::Penalty { .. } => Err(not_implemented(method, "mbs-alf")),
        Method::AlfDca { .. } => Err(not_implemented(method, "mbs-dca")),
        Method::Hdca => Err(not_implemented(method, "mbs-hdca")),
        Method::Complement { .. } => Err(not_implemented(method, "mbs-complement")),
    }
}

/// Whether `method` has a front-end (without building one).
pub fn is_implemented(method: &Method, model: &Model) -> bool {
    !matches!(
        build_front_end(method, model),
        Err(Error::NotImplemented { .. })
    )
}
