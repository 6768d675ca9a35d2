//! The one place where a [`Method`] becomes a [`FrontEnd`]: adding a front-end is
//! adding its arm here (and its adapter in [`crate::frontends`]).

use std::sync::Arc;

use mbs_linalg::nullspace::NullSpaceMethod;
use mbs_model::Model;

use crate::error::Error;
use crate::frontend::FrontEnd;
use crate::frontends::reduced::{NaturalFrontEnd, ReducedFrontEnd};
use crate::method::{ComplementKind, Method, Stabilization};

/// The `mbs-linalg` null-space method of a complement variant.
fn null_space_method(kind: ComplementKind) -> NullSpaceMethod {
    match kind {
        ComplementKind::ZeroEigenvalue => NullSpaceMethod::ZeroEigen,
        ComplementKind::Schur => NullSpaceMethod::Schur,
        ComplementKind::PutdHouseholder => NullSpaceMethod::PutdHouseholder,
        ComplementKind::PutdGauss => NullSpaceMethod::PutdGauss,
        ComplementKind::Svd => NullSpaceMethod::Svd,
        ComplementKind::Qr => NullSpaceMethod::Qr,
        ComplementKind::CoordinatePartitioning => NullSpaceMethod::CoordinatePartitioning,
        ComplementKind::WangHuston => NullSpaceMethod::WangHuston,
    }
}

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
    let built: Option<Box<dyn FrontEnd>> =
        match method {
            Method::Lagrange { .. } | Method::Alf { .. } => {
                Index1FrontEnd::new(method, model).map(|f| Box::new(f) as Box<dyn FrontEnd>)
            }
            Method::AlfIndex3 { .. } => {
                Index3FrontEnd::new(method, model).map(|f| Box::new(f) as Box<dyn FrontEnd>)
            }
            Method::Penalty { .. } => {
                PenaltyFrontEnd::new(method, model).map(|f| Box::new(f) as Box<dyn FrontEnd>)
            }
            Method::AlfDca {
                alpha,
                mu,
                omega,
                max_iter,
                projections,
            } => {
                let model = Arc::new(model.clone());
                let params = mbs_dca::DcaParams {
                    alpha: *alpha,
                    mu: *mu,
                    omega: *omega,
                    max_iter: *max_iter,
                    projections: *projections,
                    ..mbs_dca::DcaParams::default()
                };
                let sys = mbs_dca::AlfDca::new(model.clone(), params);
                let every = usize::from(*projections);
                Some(Box::new(ReducedFrontEnd::new(
                    method.to_string(),
                    model,
                    sys,
                    every,
                )))
            }
            Method::Hdca => {
                let model = Arc::new(model.clone());
                let sys = mbs_hdca::Hdca::new(model.clone(), mbs_hdca::HdcaParams::default())
                    .map_err(|e| Error::Unsupported {
                        method: method.name().to_string(),
                        message: e.to_string(),
                    })?;
                // the hook renormalises the joint Euler parameters
                Some(Box::new(ReducedFrontEnd::new(
                    method.to_string(),
                    model,
                    sys,
                    1,
                )))
            }
            Method::NaturalPartitioning => {
                let model = Arc::new(model.clone());
                // Newton–Raphson correction of the cut-joint (and tree) constraints in the
                // projection hook: the staggered scheme's O(h²) errors otherwise make
                // closed loops drift apart (the vehicle's suspension loops diverge)
                let params = mbs_complement::NaturalParams {
                    stabilization: mbs_complement::Stabilization::NewtonRaphson { tol: 1e-10 },
                    ..mbs_complement::NaturalParams::default()
                };
                let sys = mbs_complement::NaturalPartitioning::new(model.clone(), params).map_err(
                    |e| Error::Unsupported {
                        method: method.name().to_string(),
                        message: e.to_string(),
                    },
                )?;
                Some(Box::new(NaturalFrontEnd::new(
                    method.to_string(),
                    model,
                    sys,
                )))
            }
            Method::Complement {
                kind,
                stabilization,
            } => {
                let model = Arc::new(model.clone());
                let params = mbs_complement::ComplementParams {
                    method: null_space_method(*kind),
                    stabilization: match *stabilization {
                        Stabilization::None => mbs_complement::Stabilization::None,
                        Stabilization::Baumgarte { alpha, beta } => {
                            mbs_complement::Stabilization::Baumgarte { alpha, beta }
                        }
                        Stabilization::NewtonRaphson => {
                            mbs_complement::Stabilization::NewtonRaphson { tol: 1e-10 }
                        }
                    },
                    ..mbs_complement::ComplementParams::default()
                };
                let sys = mbs_complement::Complement::new(model.clone(), params).map_err(|e| {
                    Error::Unsupported {
                        method: method.name().to_string(),
                        message: e.to_string(),
                    }
                })?;
                Some(Box::new(ReducedFrontEnd::new(
                    method.to_string(),
                    model,
                    sys,
                    1,
                )))
            }
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
