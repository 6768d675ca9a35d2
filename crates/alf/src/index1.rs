//! Algorithm ALF-INDEX1 (Bayo–Ledesma sec 4.1) and the classical Lagrange
//! formulation as first-order ODEs y = [q; q̇], y' = [q̇; q̈(q, q̇, t)], for any
//! integrator of `mbs-integrators`:
//!
//! 1. given q, q̇ at step l;
//! 2. q̈ from eq 8 (ALF) or eq 4 (Lagrange, with optional Baumgarte);
//! 3. the integrator advances to l + 1;
//! 4. every k steps the projection hook projects q (eq 13) and q̇ (eq 23) — or
//!    with the KKT matrix (eqs 16, 25), which for the Lagrange formulation is the
//!    Newton–Raphson position correction.

use mbs_integrators::{OdeSystem, SystemError};
use nalgebra::DVector;

use crate::alf::AlfAccelerations;
use crate::descriptor::{Descriptor, Level};
use crate::error::AlfError;
use crate::lagrange::LagrangeAccelerations;
use crate::params::{Formulation, Projection};
use crate::projection::{ProjectionInfo, ProjectionKind, Projector};

/// Counters of an [`Index1`] system.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Index1Stats {
    /// Acceleration evaluations.
    pub evaluations: u64,
    /// ALF multiplier iterations in total.
    pub alf_iterations: u64,
    /// Evaluations where the ALF iteration contracted too slowly (near singular
    /// configurations) and was finished by the direct minimum-norm solve.
    pub alf_unconverged: u64,
    /// Projections done.
    pub projections: u64,
    /// Position-projection iterations in total.
    pub position_iterations: u64,
    /// Velocity-projection iterations in total.
    pub velocity_iterations: u64,
    /// The last projection's result.
    pub last_projection: ProjectionInfo,
}

#[derive(Debug)]
enum Solver {
    Lagrange(LagrangeAccelerations),
    Alf(AlfAccelerations),
}

/// A descriptor system with an acceleration formulation and an optional
/// projection, as an [`OdeSystem`] in y = [q; q̇].
#[derive(Debug)]
pub struct Index1<D: Descriptor> {
    sys: D,
    solver: Solver,
    projector: Option<Projector>,
    qdd: DVector<f64>,
    stats: Index1Stats,
}

/// Relative step of the finite-difference Jacobian of [`Index1`]
/// ([`OdeSystem::difference_step`]). Augmented-
/// Lagrangian accelerations are accurate to about cond(M + Φ_qᵀαΦ_q)·ε ≈ 1e-9
/// relative for α = 1e7, so the usual √ε ≈ 1.5e-8 step would turn that noise into
/// O(1) Jacobian errors and stall an implicit integrator's Newton iteration.
const FD_STEP: f64 = 1e-6;

impl<D: Descriptor> Index1<D> {
    /// Wraps `sys` with a formulation and a projection.
    pub fn new(sys: D, formulation: Formulation, projection: Projection) -> Self {
        let (n, m, m_h) = (sys.n(), sys.m(), sys.m_holonomic());
        let solver = match formulation {
            Formulation::Lagrange {
                baumgarte,
                min_norm,
            } => Solver::Lagrange(LagrangeAccelerations::new(n, m, baumgarte, min_norm)),
            Formulation::Alf(p) => Solver::Alf(AlfAccelerations::new(n, m, p)),
        };
        let min_norm = matches!(formulation, Formulation::Lagrange { min_norm: true, .. });
        let projector = match projection {
            Projection::None => None,
            Projection::AugmentedLagrangian(p) => Some(Projector::new(
                n,
                m,
                m_h,
                ProjectionKind::AugmentedLagrangian,
                p,
            )),
            Projection::Kkt(p) => Some(Projector::new(
                n,
                m,
                m_h,
                ProjectionKind::Kkt { min_norm },
                p,
            )),
        };
        Self {
            sys,
            solver,
            projector,
            qdd: DVector::zeros(n),
            stats: Index1Stats::default(),
        }
    }

    /// The wrapped system.
    pub fn system(&self) -> &D {
        &self.sys
    }

    /// The wrapped system, mutably.
    pub fn system_mut(&mut self) -> &mut D {
        &mut self.sys
    }

    /// Counters so far.
    pub fn stats(&self) -> Index1Stats {
        self.stats
    }

    /// Number of coordinates n (the ODE has 2n states).
    pub fn n(&self) -> usize {
        self.sys.n()
    }

    /// The multipliers of the last evaluation (λ* for ALF, λ for Lagrange).
    pub fn multipliers(&self) -> Vec<f64> {
        match &self.solver {
            Solver::Alf(a) => a.multipliers().as_slice().to_vec(),
            Solver::Lagrange(l) => l.multipliers().iter().copied().collect(),
        }
    }

    /// Accelerations q̈ at (t, q, q̇) written into `qdd`.
    pub fn accelerations(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
        qdd: &mut DVector<f64>,
    ) -> Result<(), AlfError> {
        self.sys.evaluate(t, q, v, Level::Full)?;
        self.stats.evaluations += 1;
        match &mut self.solver {
            Solver::Lagrange(l) => l.solve(t, &self.sys, v, qdd),
            Solver::Alf(a) => {
                let info = a.solve(t, &self.sys, v, qdd)?;
                self.stats.alf_iterations += info.iterations as u64;
                if info.direct {
                    self.stats.alf_unconverged += 1;
                }
                Ok(())
            }
        }
    }

    /// Projects (q, q̇) onto the position and velocity constraint manifolds.
    pub fn project_state(
        &mut self,
        t: f64,
        q: &mut [f64],
        v: &mut [f64],
    ) -> Result<Option<ProjectionInfo>, AlfError> {
        let Some(p) = self.projector.as_mut() else {
            return Ok(None);
        };
        let info = p.project(t, &mut self.sys, q, v)?;
        self.stats.projections += 1;
        self.stats.position_iterations += info.position_iterations as u64;
        self.stats.velocity_iterations += info.velocity_iterations as u64;
        self.stats.last_projection = info;
        Ok(Some(info))
    }
}

fn system_error(e: AlfError) -> SystemError {
    SystemError::with_source(e.to_string(), e)
}

impl<D: Descriptor> OdeSystem for Index1<D> {
    fn dim(&self) -> usize {
        2 * self.sys.n()
    }

    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        let n = self.sys.n();
        let (q, v) = y.split_at(n);
        let mut qdd = std::mem::replace(&mut self.qdd, DVector::zeros(0));
        let r = self.accelerations(t, q, v, &mut qdd);
        dydt[..n].copy_from_slice(v);
        dydt[n..].copy_from_slice(qdd.as_slice());
        self.qdd = qdd;
        r.map_err(system_error)
    }

    /// The accelerations are accurate to about 1e-9 relative (see `FD_STEP`).
    fn difference_step(&self) -> Option<f64> {
        Some(FD_STEP)
    }

    fn project(&mut self, t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        let n = self.sys.n();
        let (q, v) = y.split_at_mut(n);
        self.project_state(t, q, v)
            .map(|i| i.is_some())
            .map_err(system_error)
    }
}
