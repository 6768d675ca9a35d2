//! ODE integrators for `mbs`: RK45, RK23, DOP853, variable-order Adams, Radau IIA,
//! BDF/NDF, implicit midpoint/trapezoidal, central difference, two-stage staggered.
//!
//! The crate knows nothing about mechanics. It integrates `y' = f(t, y)` for
//! any [`OdeSystem`], and second-order systems split into positions and
//! velocities for any [`PartitionedSystem`].
//!
//! | integrator | type | source |
//! |---|---|---|
//! | Dormand–Prince 5(4), FSAL, dense output | [`EmbeddedRk::rk45`] | MATLAB `ode45` (Shampine–Reichelt 1997) |
//! | Bogacki–Shampine 3(2), FSAL, dense output | [`EmbeddedRk::rk23`] | MATLAB `ode23` |
//! | Dormand–Prince 8(5,3), FSAL, 7th-order dense output | [`EmbeddedRk::dop853`] | Hairer's `dop853.f` (Hairer–Nørsett–Wanner I, sec II.5, II.10) |
//! | Adams–Bashforth–Moulton PECE, orders 1–12 | [`Adams`] | Shampine–Gordon DE/STEP, MATLAB `ode113` |
//! | Radau IIA order 5, simplified Newton, Jacobian reuse, collocation dense output | [`Radau5`] | Hairer's `radau5.f` (Hairer–Wanner II, sec IV.8) |
//! | variable-order BDF/NDF 1–5, quasi-constant step | [`Bdf`] | MATLAB `ode15s` (Shampine–Reichelt 1997), SciPy `BDF` |
//! | implicit midpoint / trapezoidal + Newton | [`ImplicitIntegrator`] | Bayo–Ledesma 1996 (ALF, ALF-INDEX1/3) |
//! | half-station central difference | [`CentralDifference`] | Chiou 1990, eq 5.5.2.1 |
//! | two-stage staggered explicit–implicit | [`TwoStageStaggered`] | Chiou 1990, sec 5.5.2–5.5.5 |
//! | generalized-α, second order, adaptive or fixed step | [`GeneralizedAlpha`] | Chung–Hulbert 1993, Arnold–Brüls 2007 |
//! | generalized-α, first order, adaptive or fixed step | [`GeneralizedAlphaOde`] | Jansen–Whiting–Hulbert 2000 |
//! | index-3 generalized-α (adaptive), Bayo–Ledesma trapezoidal/midpoint, on descriptor systems | [`descriptor::DescriptorIntegrator`] | Arnold–Brüls 2007, Chung–Hulbert 1993, Bayo–Ledesma 1996 |
//!
//! Every integrator implements [`Stepper`] (one step with its own error test and
//! step-size control, its projection point and re-evaluations, dense output), and
//! one loop, [`drive`], runs them all: output times, observer calls and early
//! stop, the projection schedule, the step limit and the final time. The
//! `integrate` methods are [`drive`] on the integrator. [`IntegratorChoice`]
//! names an integrator with its tolerances or step as plain data and builds its
//! stepper ([`IntegratorChoice::ode_stepper`],
//! [`IntegratorChoice::partitioned_stepper`]).
//!
//! The implicit adaptive integrators ([`Radau5`], [`Bdf`]) share the Newton-matrix
//! machinery: the Jacobian from [`OdeSystem::jacobian`] or forward differences with
//! column colouring over [`OdeSystem::jacobian_sparsity`] ([`JacobianPattern`]),
//! reused across steps, and dense or sparse (faer) factorizations
//! ([`LinearSolver`]).
//!
//! Common conventions:
//! * every integrator has a `Params` type with `Default`, reports an [`Info`]
//!   and fails with an [`Error`] that carries the time; after an error the last
//!   accepted state stays available (`t()`, `y()` or `x()`/`v()`);
//! * all work vectors are allocated at construction: a step allocates nothing
//!   (checked by `tests/no_alloc.rs` with a counting allocator);
//! * an [`Observer`] receives every accepted step (and may stop the run) and
//!   the solution at requested output times (dense output where available);
//! * the system's projection hook runs every `project_every` accepted steps
//!   and is counted in [`Info::projections`].
//!
//! # Example
//!
//! ```
//! use mbs_integrators::{EmbeddedRk, OdeSystem, RkParams, SystemError};
//!
//! struct Decay;
//! impl OdeSystem for Decay {
//!     fn dim(&self) -> usize { 1 }
//!     fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
//!         d[0] = -y[0];
//!         Ok(())
//!     }
//! }
//!
//! let mut rk = EmbeddedRk::rk45(1, RkParams::with_tol(1e-8, 1e-10));
//! let info = rk.integrate(&mut Decay, 0.0, &[1.0], 1.0, &[], &mut ()).unwrap();
//! assert!((rk.y()[0] - (-1.0f64).exp()).abs() < 1e-8);
//! assert_eq!(info.rhs_evals, 1 + 6 * (info.accepted_steps + info.rejected_steps));
//!
//! // The same from a plain description of the integrator.
//! use mbs_integrators::{IntegratorChoice, StepperSettings, drive};
//! let choice: IntegratorChoice = "rk45:rtol=1e-8:atol=1e-10".parse().unwrap();
//! let mut stepper = choice.ode_stepper(1, &StepperSettings::default()).unwrap();
//! let again = drive(&mut *stepper, &mut Decay, 0.0, &[1.0], 1.0, &[], &mut ()).unwrap();
//! assert_eq!((again, stepper.y()), (info, rk.y()));
//! ```
//!
#![doc = include_str!("../docs/results.md")]

mod adams;
mod bdf;
mod choice;
mod common;
pub mod descriptor;
mod dop853;
mod driver;
mod error;
pub mod generalized_alpha;
mod implicit;
mod lu;
mod mass;
mod newton_matrix;
mod radau5;
mod rk;
mod staggered;
mod stepper;
pub mod stiffness;
mod system;

pub use adams::{Adams, MAX_ORDER, Params as AdamsParams};
pub use bdf::{BDF_MAX_ORDER, Bdf, Params as BdfParams};
pub use choice::{
    ChoiceError, DEFAULT_STEP, DEFAULT_TOL, INTEGRATOR_NAMES, IntegratorChoice, StepControl,
    StepperSettings, general,
};
pub use driver::drive;
pub use error::{Error, SystemError};
pub use generalized_alpha::{
    DEFAULT_RHO_INF, GeneralizedAlpha, GeneralizedAlphaOde, Params as GeneralizedAlphaParams,
};
pub use implicit::{
    ImplicitIntegrator, ImplicitRule, ImplicitStepSolver, Newton, NewtonParams,
    Params as ImplicitParams, StepRequest, trapezoidal_second_order,
};
pub use mass::{DaeIndex, Mass, MassMatrix};
pub use newton_matrix::{
    ComplexMatrix, Jacobian, JacobianPattern, LinearSolver, RealMatrix, SPARSE_MAX_DENSITY,
    SPARSE_MIN_DIM,
};
pub use radau5::{COSTLY_JACOBIAN_RHS, Params as Radau5Params, Radau5};
pub use rk::{EmbeddedRk, Method as RkMethod, Params as RkParams};
pub use staggered::{CentralDifference, Params as StaggeredParams, TwoStageStaggered};
pub use stepper::{Schedule, Step, Stepper};
pub use stiffness::StiffnessReport;
pub use system::{AbsTol, Info, Observer, OdeSystem, PartitionedSystem, Recorder};
