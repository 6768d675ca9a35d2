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
    use crate::frontends::alf::{Index1FrontEnd, Index3FrontEnd, PenaltyFrontEnd};
    let built: Option<Box<dyn FrontEnd>> = match method {
        Method::Lagrange { .. } | Method::Alf { .. } => {
            Index1FrontEnd::new(method, model).map(|f| Box::new(f) as Box<dyn FrontEnd>)
        }
        Method::AlfIndex3 { .. } => {
            Index3FrontEnd::new(method, model).map(|f| Box::new(f) as Box<dyn FrontEnd>)
        }
        Method::Penalty { .. } => {
            PenaltyFrontEnd::new(method, model).map(|f| Box::new(f) as Box<dyn FrontEnd>)
        }
        Method::AlfDca { .. } => return Err(not_implemented(method, "mbs-dca")),
        Method::Hdca => return Err(not_implemented(method, "mbs-hdca")),
        Method::Complement { .. } => return Err(not_implemented(method, "mbs-complement")),
    };
    built.ok_or_else(|| not_implemented(method, "mbs-alf"))
}

/// Whether `method` has a front-end (without building one).
pub fn is_implemented(method: &Method, model: &Model) -> bool {
    !matches!(
        build_front_end(method, model),
        Err(Error::NotImplemented { .. })
    )
}
