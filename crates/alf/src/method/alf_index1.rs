//! Parameters of the index-1 augmented Lagrangian methods (Bayo–Ledesma eqs 5–8).

use std::sync::Arc;

use mbs_formulation::params::{self, Key, Params, Preset};
use mbs_formulation::{Formulation, FormulationError, Runner};
use mbs_integrators::IntegratorChoice;
use mbs_model::Model;

use super::backend::AlfBackend;
use super::index1::Index1Run;
use super::sparse_run::SparseAlfRun;
use crate::mechanism::MechanismDescriptor;
use crate::params::{AlfParams, Projection, ProjectionParams};
use crate::penalty_scale::AlphaScale;

/// Augmented Lagrangian, index 1 (Bayo–Ledesma eqs 5–8): penalty α, damping ratio μ,
/// natural frequency Ω, multiplier iterations up to `max_iter` or until the change
/// is below `tol` (the defaults of [`AlfParams`]); mass-orthogonal projections every
/// `projection_every` steps (0 = "ALF", 1 = "ALF-INDEX1" of Table 2).
///
/// The penalty is relative by default ([`AlphaScale::DEFAULT`]), so that the method
/// works whatever the masses; `alpha=α` gives the absolute α of the papers
/// (Bayo–Ledesma use 1e7 for unit masses and lengths).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlfIndex1Params {
    /// Penalty: absolute α (`alpha=`) or relative κ (`kappa=`).
    pub alpha: AlphaScale,
    /// Damping ratio μ.
    pub mu: f64,
    /// Natural frequency Ω.
    pub omega: f64,
    /// Maximum multiplier iterations per evaluation.
    pub max_iter: usize,
    /// Convergence tolerance of the multiplier iteration.
    pub tol: f64,
    /// Projection period in accepted steps (0 = never).
    pub projection_every: usize,
    /// Linear algebra of the leading matrix `M + Φ_qᵀαΦ_q`.
    pub backend: AlfBackend,
}

impl AlfIndex1Params {
    /// The defaults with projections every `projection_every` steps.
    pub fn with_projections(projection_every: usize) -> Self {
        let d = AlfParams::default();
        Self {
            alpha: AlphaScale::DEFAULT,
            mu: d.mu,
            omega: d.omega,
            max_iter: d.max_iter,
            tol: d.tol,
            projection_every,
            backend: AlfBackend::default(),
        }
    }
}

impl Default for AlfIndex1Params {
    /// ALF-INDEX1: projections after every step.
    fn default() -> Self {
        Self::with_projections(1)
    }
}

impl Params for AlfIndex1Params {
    fn keys() -> &'static [Key<Self>] {
        &[
            Key {
                key: "alpha",
                meaning: "absolute penalty α (instead of kappa)",
                get: |p| match p.alpha {
                    AlphaScale::Absolute(a) => Some(params::number_text(a)),
                    AlphaScale::Relative(_) => None,
                },
                set: |p, v| {
                    params::assign(&mut p.alpha, params::positive(v).map(AlphaScale::Absolute))
                },
            },
            Key {
                key: "kappa",
                meaning: "relative penalty κ: α = κ·tr M/tr(Φ_qᵀΦ_q) at the initial state",
                get: |p| match p.alpha {
                    AlphaScale::Relative(k) => Some(params::number_text(k)),
                    AlphaScale::Absolute(_) => None,
                },
                set: |p, v| {
                    params::assign(&mut p.alpha, params::positive(v).map(AlphaScale::Relative))
                },
            },
            Key {
                key: "mu",
                meaning: "damping ratio μ of the penalty system (eq 5)",
                get: |p| Some(params::number_text(p.mu)),
                set: |p, v| params::assign(&mut p.mu, params::non_negative(v)),
            },
            Key {
                key: "omega",
                meaning: "natural frequency Ω of the penalty system (eq 5)",
                get: |p| Some(params::number_text(p.omega)),
                set: |p, v| params::assign(&mut p.omega, params::non_negative(v)),
            },
            Key {
                key: "iter",
                meaning: "maximum multiplier iterations per evaluation (eq 8)",
                get: |p| Some(p.max_iter.to_string()),
                set: |p, v| params::assign(&mut p.max_iter, params::count(v)),
            },
            Key {
                key: "tol",
                meaning: "tolerance of the multiplier iteration on ‖Δq̈‖∞/(1 + ‖q̈‖∞)",
                get: |p| Some(params::number_text(p.tol)),
                set: |p, v| params::assign(&mut p.tol, params::positive(v)),
            },
            Key {
                key: "every",
                meaning: "projection period in accepted steps (0 = never)",
                get: |p| Some(p.projection_every.to_string()),
                set: |p, v| params::assign(&mut p.projection_every, params::count(v)),
            },
            Key {
                key: "backend",
                meaning: "leading-matrix solver: dense, or sparse (Cholesky with the symbolic analysis once; O(n) for chains and trees, projections included)",
                get: |p| Some(p.backend.as_str().to_string()),
                set: |p, v| params::assign(&mut p.backend, AlfBackend::parse(v)),
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[
            Preset {
                make: || AlfIndex1Params::with_projections(0),
                aliases: &[],
                summary: "augmented Lagrangian index-1, no projections",
            },
            Preset {
                make: || AlfIndex1Params::with_projections(1),
                aliases: &[],
                summary: "augmented Lagrangian index-1 with mass-orthogonal projections every step",
            },
        ]
    }

    fn name(&self) -> &'static str {
        if self.projection_every == 0 {
            "alf"
        } else {
            "alf-index1"
        }
    }

    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError> {
        // the relative penalty α = κ tr M / tr(Φ_qᵀΦ_q) at the model's initial state
        // (an evaluation failure there resurfaces, named, as the run's first error)
        let mut d = MechanismDescriptor::new(model.clone());
        let (q0, v0) = d.initial();
        let fallback = match self.alpha {
            AlphaScale::Absolute(a) | AlphaScale::Relative(a) => a,
        };
        let alpha = self
            .alpha
            .resolve(&mut d, 0.0, &q0, &v0)
            .unwrap_or(fallback);
        let formulation = crate::params::Formulation::Alf(AlfParams {
            alpha,
            mu: self.mu,
            omega: self.omega,
            max_iter: self.max_iter,
            tol: self.tol,
            warm_start: false,
        });
        let projection = if self.projection_every > 0 {
            Projection::AugmentedLagrangian(ProjectionParams::default())
        } else {
            Projection::None
        };
        // The implicit rules' default Newton test (1e-12) sits below the round-off of
        // augmented-Lagrangian accelerations (≈ α·ε/λ_min(M) relative, see
        // `AlfParams::alpha`), so it could never converge for α ≳ 1e6: tie it to α;
        // with small bodies (Andrew's squeezer, λ_min ~ 1e-5) that is 1e3 × α·ε.
        let newton_tol = (1e3 * alpha * f64::EPSILON).clamp(1e-10, 1e-7);
        if self.backend == AlfBackend::Sparse {
            let crate::params::Formulation::Alf(alf) = formulation else {
                unreachable!("built as Formulation::Alf above")
            };
            let projection = match projection {
                Projection::AugmentedLagrangian(p) => Some(p),
                _ => None,
            };
            let run = SparseAlfRun::new(
                params::display(self),
                self.name(),
                model.clone(),
                alf,
                projection,
                self.projection_every,
                newton_tol,
            )
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
            return Ok(Box::new(Runner::new(params::display(self), model, run)));
        }
        let run = Index1Run::new(
            self.name(),
            model.clone(),
            formulation,
            projection,
            self.projection_every,
            newton_tol,
        );
        Ok(Box::new(Runner::new(params::display(self), model, run)))
    }

    /// The dense backend's M, Φ_q, leading and projection matrices; the sparse
    /// backend's storage grows with the model.
    fn dense_entries(&self, model: &Model) -> u128 {
        match self.backend {
            AlfBackend::Dense => super::kkt_entries(model),
            AlfBackend::Sparse => 0,
        }
    }

    /// The implicit midpoint rule (Bayo–Ledesma, Table 1).
    fn paper_fixed_step_rule(&self, h: f64) -> IntegratorChoice {
        IntegratorChoice::Midpoint { h }
    }
}
