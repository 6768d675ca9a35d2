//! The complement family as the facade runs it: the method names of
//! [`NaturalParams`] (`natural-partitioning`) and of [`ComplementParams`] (one per
//! null-space method), the `key=value` parameters of the latter, and the runs in
//! their own coordinates mapped to absolute states.

use std::sync::Arc;

use mbs_formulation::drive::{integrate_ode, integrate_partitioned, newton, plain_state_label};
use mbs_formulation::params::{self, Key, Params, Preset, Problem};
use mbs_formulation::{
    Formulation, FormulationError, OdeFormulation, RunSpec, RunStats, Runner, Sample, StepCheck,
};
use mbs_formulation::{finite_check, qdd_from_omega_dot};
use mbs_integrators::{Info, IntegratorChoice, NewtonParams, Observer, OdeSystem};
use mbs_linalg::nullspace::NullSpaceMethod;
use mbs_model::{Model, State};
use nalgebra::DVector;

use crate::complement::Complement;
use crate::natural::{NaturalParams, NaturalPartitioning};
use crate::params::{ComplementParams, Stabilization};

/// Tolerance on ‖Φ‖₂ (and ‖Φ̇‖₂) of the Newton–Raphson stabilization of the methods
/// (`stab=nr`, and natural partitioning, whose staggered scheme's O(h²) errors
/// otherwise make closed loops drift apart: the vehicle's suspension loops diverge).
pub const NEWTON_RAPHSON_TOL: f64 = 1e-10;

impl Params for NaturalParams {
    fn keys() -> &'static [Key<Self>] {
        &[]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[Preset {
            make: || NaturalParams {
                stabilization: Stabilization::NewtonRaphson {
                    tol: NEWTON_RAPHSON_TOL,
                },
                ..NaturalParams::default()
            },
            aliases: &[],
            summary: "Chiou's natural partitioning (tree null space body by body, cut joints by a second null space)",
        }]
    }

    fn name(&self) -> &'static str {
        "natural-partitioning"
    }

    /// The Newton–Raphson corrections' dense Φ_q (m × n) and minimum-norm work (two
    /// more m × n and m × m).
    fn dense_entries(&self, model: &Model) -> u128 {
        let (n, m) = dense_dims(model);
        3 * m * n + 2 * m * m
    }

    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError> {
        let sys = NaturalPartitioning::new(model.clone(), *self)
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        Ok(Box::new(Runner::new(params::display(self), model, sys)))
    }

    /// The two-stage staggered scheme (Chiou, procedure 5.5.7).
    fn paper_fixed_step_rule(&self, h: f64) -> IntegratorChoice {
        IntegratorChoice::Staggered { h }
    }
}

/// [`mbs_constraints::dense_orders`] as u128, for the dense-storage estimates.
fn dense_dims(model: &Model) -> (u128, u128) {
    let (n, m) = mbs_constraints::dense_orders(model);
    (n as u128, m as u128)
}

/// Implicit rules: a Newton tolerance above the round-off of these right-hand sides
/// (pseudo-inverse and null-space solves, ≈ 1e-12 relative).
fn implicit_newton() -> NewtonParams {
    newton(1e-10)
}

impl OdeFormulation for NaturalPartitioning {
    fn start(&mut self, spec: &RunSpec<'_>) -> Result<(Vec<f64>, StepCheck), FormulationError> {
        Ok((self.state_to_y(spec.initial), finite_check()))
    }

    /// The two-stage staggered scheme (procedure 5.5.7) or central differences over
    /// the partitioned form, any other integrator over the ODE form; the projection
    /// hook applies the Newton–Raphson corrections after every step.
    fn integrate<O: Observer>(
        &mut self,
        spec: &RunSpec<'_>,
        y0: &[f64],
        obs: &mut O,
    ) -> (Info, Option<FormulationError>) {
        match spec.integrator {
            IntegratorChoice::CentralDifference { .. } | IntegratorChoice::Staggered { .. } => {
                integrate_partitioned(self, spec, y0, 1, obs)
            }
            _ => integrate_ode(
                self,
                spec,
                y0,
                1,
                implicit_newton(),
                &plain_state_label,
                obs,
            ),
        }
    }

    fn state(&mut self, t: f64, y: &[f64]) -> Result<State, FormulationError> {
        Ok(self.to_state(t, y))
    }

    fn project_sample(&mut self, t: f64, y: &mut [f64]) {
        let _ = OdeSystem::project(self, t, y);
    }

    /// The corrections are not counted as projections.
    fn count(&self, stats: &mut RunStats) {
        stats.projections = 0;
    }

    /// One right-hand-side evaluation (the open-tree solve and the cut joints,
    /// [`NaturalPartitioning::accelerations`]) at `s`, as q̈ (7 per body). The
    /// Newton–Raphson corrections after accepted steps are not part of it.
    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FormulationError> {
        let failed = |e: crate::ComplementError| FormulationError::failed(s.t, e.to_string());
        let y = self.state_to_y(s);
        let nq = self.n_q();
        let mut a = vec![0.0; self.n_v()];
        NaturalPartitioning::accelerations(self, s.t, &y[..nq], &y[nq..], &mut a)
            .map_err(failed)?;
        Ok(qdd_from_omega_dot(s, &a))
    }
}

impl OdeFormulation for Complement {
    fn start(&mut self, spec: &RunSpec<'_>) -> Result<(Vec<f64>, StepCheck), FormulationError> {
        let y0 = self
            .state_to_y(spec.initial)
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        Ok((y0, finite_check()))
    }

    fn integrate<O: Observer>(
        &mut self,
        spec: &RunSpec<'_>,
        y0: &[f64],
        obs: &mut O,
    ) -> (Info, Option<FormulationError>) {
        // the projection hook applies the stabilization's corrections
        integrate_ode(
            self,
            spec,
            y0,
            1,
            implicit_newton(),
            &plain_state_label,
            obs,
        )
    }

    fn state(&mut self, t: f64, y: &[f64]) -> Result<State, FormulationError> {
        Ok(self.to_state(t, y))
    }

    fn project_sample(&mut self, t: f64, y: &mut [f64]) {
        let _ = self.project(t, y);
    }

    fn enrich(&mut self, _t: f64, _y: &[f64], sample: &mut Sample) {
        if let Ok(a) = OdeFormulation::accelerations(self, &sample.state) {
            sample.accelerations = Some(a);
        }
    }

    fn count(&self, stats: &mut RunStats) {
        let s = self.stats();
        stats.multiplier_iterations = 0;
        stats.projections = s.position_corrections + s.velocity_corrections;
    }

    /// q̈ = [r̈, p̈] with Euler-parameter coordinates (those of every method name).
    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FormulationError> {
        let failed = |e: crate::ComplementError| FormulationError::failed(s.t, e.to_string());
        let y = self.state_to_y(s).map_err(failed)?;
        let nq = self.n_q();
        let mut a = vec![0.0; self.n_v()];
        Complement::accelerations(self, s.t, &y[..nq], &y[nq..], &mut a).map_err(failed)?;
        if a.len() != 7 * s.n_bodies() {
            return Err(FormulationError::not_implemented(
                "accelerations in Euler-angle coordinates are not q̈ of Euler parameters",
            ));
        }
        Ok(DVector::from_vec(a))
    }
}

/// α̂, β̂ of a Baumgarte stabilization, or the paper's values.
fn baumgarte(s: Stabilization) -> (f64, f64) {
    let gains = |s| match s {
        Stabilization::Baumgarte { alpha, beta } => Some((alpha, beta)),
        _ => None,
    };
    gains(s)
        .or(gains(Stabilization::PAPER_BAUMGARTE))
        .unwrap_or_default()
}

/// α̂ or β̂ (`which` 0 or 1) as written: only for a Baumgarte stabilization other
/// than the paper's (`stab=baumgarte` says that one).
fn baumgarte_text(p: &ComplementParams, which: usize) -> Option<String> {
    let s = p.stabilization;
    if !matches!(s, Stabilization::Baumgarte { .. }) || s == Stabilization::PAPER_BAUMGARTE {
        return None;
    }
    let (a, b) = baumgarte(s);
    Some(params::number_text([a, b][which]))
}

/// Sets α̂ or β̂ (`which` 0 or 1), turning Baumgarte on with the paper's other value.
fn set_baumgarte(p: &mut ComplementParams, which: usize, v: &str) -> Result<(), Problem> {
    let x = params::number(v)?;
    let (mut alpha, mut beta) = baumgarte(p.stabilization);
    if which == 0 {
        alpha = x;
    } else {
        beta = x;
    }
    p.stabilization = Stabilization::Baumgarte { alpha, beta };
    Ok(())
}

impl Params for ComplementParams {
    fn keys() -> &'static [Key<Self>] {
        &[
            Key {
                key: "stab",
                meaning: "constraint stabilization: none, baumgarte (α̂ = β̂ of the paper) or nr (Newton–Raphson correction)",
                get: |p| {
                    Some(
                        match p.stabilization {
                            Stabilization::None => "none",
                            Stabilization::NewtonRaphson { .. } => "nr",
                            Stabilization::Baumgarte { .. } => "baumgarte",
                        }
                        .to_string(),
                    )
                },
                set: |p, v| {
                    p.stabilization = match v {
                        "none" => Stabilization::None,
                        "nr" | "newton-raphson" => Stabilization::NewtonRaphson {
                            tol: NEWTON_RAPHSON_TOL,
                        },
                        "baumgarte" => Stabilization::PAPER_BAUMGARTE,
                        _ => return Err(Problem::NotOneOf(&["none", "baumgarte", "nr"])),
                    };
                    Ok(())
                },
            },
            Key {
                key: "alpha_hat",
                meaning: "Baumgarte α̂ of Γ − 2α̂Φ̇ − β̂²Φ (setting it turns Baumgarte on)",
                get: |p| baumgarte_text(p, 0),
                set: |p, v| set_baumgarte(p, 0, v),
            },
            Key {
                key: "beta_hat",
                meaning: "Baumgarte β̂ of Γ − 2α̂Φ̇ − β̂²Φ (setting it turns Baumgarte on)",
                get: |p| baumgarte_text(p, 1),
                set: |p, v| set_baumgarte(p, 1, v),
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        use NullSpaceMethod as N;
        &[
            Preset {
                make: || ComplementParams::with_method(N::ZeroEigen),
                aliases: &[],
                summary: "natural complement by zero-eigenvalue decomposition",
            },
            Preset {
                make: || ComplementParams::with_method(N::Schur),
                aliases: &[],
                summary: "natural complement by Schur decomposition",
            },
            Preset {
                make: || ComplementParams::with_method(N::PutdHouseholder),
                aliases: &[],
                summary: "natural complement by PUTD (Householder)",
            },
            Preset {
                make: || ComplementParams::with_method(N::PutdGauss),
                aliases: &[],
                summary: "natural complement by PUTD (Gauss elimination)",
            },
            Preset {
                make: || ComplementParams::with_method(N::Svd),
                aliases: &[],
                summary: "natural complement by SVD",
            },
            Preset {
                make: || ComplementParams::with_method(N::Qr),
                aliases: &[],
                summary: "natural complement by QR with column pivoting",
            },
            Preset {
                make: || ComplementParams::with_method(N::CoordinatePartitioning),
                aliases: &["complement-partitioning"],
                summary: "coordinate partitioning",
            },
            Preset {
                make: || ComplementParams::with_method(N::WangHuston),
                aliases: &["complement-wang-huston"],
                summary: "Wang–Huston (weighted pseudo-inverse)",
            },
        ]
    }

    fn name(&self) -> &'static str {
        match self.method {
            NullSpaceMethod::ZeroEigen => "complement-zero-eigenvalue",
            NullSpaceMethod::Schur => "complement-schur",
            NullSpaceMethod::PutdHouseholder => "complement-putd-h",
            NullSpaceMethod::PutdGauss => "complement-putd-g",
            NullSpaceMethod::Svd => "complement-svd",
            NullSpaceMethod::Qr => "complement-qr",
            NullSpaceMethod::CoordinatePartitioning => "coordinate-partitioning",
            NullSpaceMethod::WangHuston => "wang-huston",
        }
    }

    /// M and the augmented mass matrix (n × n), the null-space basis (≤ n × n), Φ_q
    /// and its working copy (m × n).
    fn dense_entries(&self, model: &Model) -> u128 {
        let (n, m) = dense_dims(model);
        3 * n * n + 2 * m * n
    }

    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError> {
        let sys = Complement::new(model.clone(), *self)
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        Ok(Box::new(Runner::new(params::display(self), model, sys)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_null_space_method_has_one_name_and_stabilizations_round_trip() {
        let names: Vec<_> = ComplementParams::presets()
            .iter()
            .map(|p| (p.make)().name())
            .collect();
        assert_eq!(names.len(), NullSpaceMethod::ALL.len());
        for (pr, m) in ComplementParams::presets().iter().zip(NullSpaceMethod::ALL) {
            assert_eq!((pr.make)().method, m);
        }
        let mut p = params::preset::<ComplementParams>("complement-svd").unwrap();
        params::set(&mut p, "stab", "baumgarte").unwrap();
        assert_eq!(params::display(&p), "complement-svd:stab=baumgarte");
        params::set(&mut p, "alpha_hat", "5").unwrap();
        assert_eq!(
            params::display(&p),
            "complement-svd:stab=baumgarte:alpha_hat=5:beta_hat=1e1"
        );
        params::set(&mut p, "stab", "nr").unwrap();
        assert_eq!(
            p.stabilization,
            Stabilization::NewtonRaphson {
                tol: NEWTON_RAPHSON_TOL
            }
        );
        let e = params::set(&mut p, "stab", "hard").unwrap_err().to_string();
        assert!(
            e.contains("none, baumgarte or nr") && e.contains("hard"),
            "{e}"
        );
    }
}
