//! Parameters of the Lagrange-multiplier methods (Bayo–Ledesma eq 4).

use std::sync::Arc;

use mbs_formulation::params::{self, Key, Params, Preset, Problem};
use mbs_formulation::{Formulation, FormulationError, Runner};
use mbs_integrators::IntegratorChoice;
use mbs_model::Model;

use super::backend::AlfBackend;
use super::index1::Index1Run;
use super::sparse_lagrange_run::SparseLagrangeRun;
use crate::params::{Baumgarte, Projection, ProjectionParams};
use crate::sparse_lagrange::SparseLagrange;

/// Lagrange multipliers, M q̈ + Φ_qᵀ λ = Q, Φ_q q̈ = γ (Bayo–Ledesma eq 4), optionally
/// Baumgarte-stabilized (γ − 2α̂ Φ̇ − β̂² Φ) and/or with mass-orthogonal projections
/// every `projection_every` steps (0 = never).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LagrangeParams {
    /// Baumgarte terms (α̂, β̂), or none.
    pub baumgarte: Option<Baumgarte>,
    /// Projection period in accepted steps (0 = never).
    pub projection_every: usize,
    /// Strict KKT solve: dependent constraint rows (redundant constraints, singular
    /// configurations) stop the run with an error naming the joints and the time,
    /// instead of the default least-squares (min-norm) solve that handles them.
    pub strict: bool,
    /// Linear algebra of the KKT matrix: dense (LU, least squares unless strict) or
    /// sparse (`LDLᵀ` with the symbolic analysis once, O(n) for chains and trees;
    /// full-rank Φ_q: a model with dependent rows at its initial state runs the
    /// dense least-squares solve instead, or stops with them named if strict).
    pub backend: AlfBackend,
}

/// Sets the Baumgarte gain `gain` picks (α̂ or β̂) from `v`, turning Baumgarte on
/// with the other gain equal to it if it was off.
fn set_gain(
    p: &mut LagrangeParams,
    v: &str,
    gain: fn(&mut Baumgarte) -> &mut f64,
) -> Result<(), Problem> {
    let x = params::number(v)?;
    let b = p.baumgarte.get_or_insert(Baumgarte { alpha: x, beta: x });
    *gain(b) = x;
    Ok(())
}

impl Params for LagrangeParams {
    fn keys() -> &'static [Key<Self>] {
        &[
            Key {
                key: "every",
                meaning: "projection period in accepted steps (0 = never)",
                get: |p| Some(p.projection_every.to_string()),
                set: |p, v| params::assign(&mut p.projection_every, params::count(v)),
            },
            Key {
                key: "strict",
                meaning: "strict KKT solve: dependent constraint rows stop the run instead of the least-squares solve",
                get: |p| Some(p.strict.to_string()),
                set: |p, v| params::assign(&mut p.strict, params::flag(v)),
            },
            Key {
                key: "alpha_hat",
                meaning: "Baumgarte α̂ of γ − 2α̂Φ̇ − β̂²Φ (setting it turns Baumgarte on)",
                get: |p| p.baumgarte.map(|b| params::number_text(b.alpha)),
                set: |p, v| set_gain(p, v, |b| &mut b.alpha),
            },
            Key {
                key: "beta_hat",
                meaning: "Baumgarte β̂ of γ − 2α̂Φ̇ − β̂²Φ (setting it turns Baumgarte on)",
                get: |p| p.baumgarte.map(|b| params::number_text(b.beta)),
                set: |p, v| set_gain(p, v, |b| &mut b.beta),
            },
            Key {
                key: "backend",
                meaning: "KKT solver: dense, or sparse (LDLᵀ with the symbolic analysis once; O(n) for chains and trees; redundant constraints fall back to the dense least-squares solve, or stop if strict; every=0 only)",
                get: |p| Some(p.backend.as_str().to_string()),
                set: |p, v| params::assign(&mut p.backend, AlfBackend::parse(v)),
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[
            Preset {
                make: LagrangeParams::default,
                aliases: &[],
                summary: "Lagrange multipliers, no stabilization",
            },
            Preset {
                make: || LagrangeParams {
                    baumgarte: Some(Baumgarte::default()),
                    ..LagrangeParams::default()
                },
                aliases: &["baumgarte"],
                summary: "Lagrange multipliers with Baumgarte stabilization",
            },
            Preset {
                make: || LagrangeParams {
                    projection_every: 1,
                    ..LagrangeParams::default()
                },
                aliases: &[],
                summary: "Lagrange multipliers with mass-orthogonal projections every step",
            },
        ]
    }

    fn name(&self) -> &'static str {
        match (self.baumgarte, self.projection_every) {
            (Some(_), _) => "lagrange-baumgarte",
            (None, 1) => "lagrange-projection",
            (None, _) => "lagrange",
        }
    }

    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError> {
        // dependent rows and not strict: `None`, the documented dense fallback below
        if self.backend == AlfBackend::Sparse
            && let Some(run) = self.build_sparse(&model)?
        {
            return Ok(Box::new(Runner::new(params::display(self), model, run)));
        }
        if self.backend == AlfBackend::Sparse {
            // the dense least-squares fallback of dependent rows: its storage is
            // checked here (the facade checked the sparse estimate)
            mbs_formulation::memory::check(
                &format!(
                    "{} (dense fallback for dependent rows)",
                    params::display(self)
                ),
                super::kkt_entries(&model),
                mbs_formulation::memory::available_bytes(),
            )?;
        }
        let formulation = crate::params::Formulation::Lagrange {
            baumgarte: self.baumgarte,
            // redundant constraints (every planar loop in 3-D) need the
            // least-squares KKT solve; the strict one reports them
            min_norm: !self.strict,
        };
        let projection = if self.projection_every > 0 {
            Projection::Kkt(ProjectionParams::default())
        } else {
            Projection::None
        };
        // the KKT solve is exact to round-off: the implicit rules' default Newton
        // tolerance
        let run = Index1Run::new(
            self.name(),
            model.clone(),
            formulation,
            projection,
            self.projection_every,
            1e-12,
        );
        Ok(Box::new(Runner::new(params::display(self), model, run)))
    }

    /// The dense backend's M, Φ_q and KKT matrix; the sparse backend's storage grows
    /// with the model (its dense fallback is checked when it is taken).
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

impl LagrangeParams {
    /// The sparse run, or `None` when the rank probe finds dependent constraint rows
    /// at the model's initial state and the solve is not strict (the caller then
    /// runs the dense least-squares KKT solve, which handles them).
    fn build_sparse(
        &self,
        model: &Arc<Model>,
    ) -> Result<Option<SparseLagrangeRun>, FormulationError> {
        let label = params::display(self);
        if self.projection_every > 0 {
            return Err(FormulationError::invalid_input(format!(
                "{label}: backend=sparse has no KKT projections (every={}); use the dense backend, or alf-index1:backend=sparse for sparse mass-orthogonal projections",
                self.projection_every
            )));
        }
        let invalid = |e: crate::AlfError| FormulationError::invalid_input(e.to_string());
        let mut sys =
            SparseLagrange::new(model.clone(), self.baumgarte, self.strict).map_err(invalid)?;
        let (q0, v0) = sys.initial_state();
        // an evaluation failure at the initial state resurfaces, named, as the run's
        // first error
        let dependent = sys.dependent_constraints(0.0, &q0, &v0).unwrap_or(None);
        if dependent.is_some() && !self.strict {
            return Ok(None);
        }
        Ok(Some(SparseLagrangeRun::new(
            label,
            self.name(),
            model.clone(),
            sys,
            dependent,
        )))
    }
}
