//! Adapters of the `mbs-alf` front-ends: Lagrange (+Baumgarte, +projections), ALF
//! index-1 (+projections) as ODEs in y = [q; q̇] for every integrator, and ALF-INDEX3
//! with its own trapezoidal/midpoint stepper, and Chiou's penalty stabilization.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Instant;

use mbs_alf::{
    AlfIndex3, AlfParams, AlphaScale, Baumgarte, BranchGuard, EpsilonScale, Formulation, Index1,
    Index3Params, LambdaBackend, MechanismDescriptor, OneStagePenalty, PenaltyOde, PenaltyParams,
    PenaltySystem, Projection, ProjectionParams, Rule,
};
use mbs_integrators::{Observer, PartitionedSystem, SystemError};
use mbs_model::{Layout, Model, State};
use nalgebra::DVector;

use crate::frontend::{
    FrontEnd, FrontEndError, RunSpec, RunStats, SAMPLE_LAYOUT, Sample, SampleSink,
};
use crate::integrator::IntegratorChoice;
use crate::method::{Method, PenaltyBackend};

use super::{
    DivergenceCheck, body_state_label, integrate_ode, integrate_ode_with, integrate_partitioned,
};

/// Lagrange or ALF index-1 (Bayo–Ledesma eqs 4, 8) with optional projections.
#[derive(Debug)]
pub struct Index1FrontEnd {
    name: String,
    family: &'static str,
    model: Arc<Model>,
    sys: Index1<MechanismDescriptor>,
    project_every: usize,
    newton: mbs_integrators::NewtonParams,
    qdd: DVector<f64>,
}

impl Index1FrontEnd {
    /// The adapter of `method` (a `Lagrange` or `Alf` variant).
    pub fn new(method: &Method, model: &Model) -> Option<Self> {
        let model = Arc::new(model.clone());
        // the relative penalty α = κ tr M / tr(Φ_qᵀΦ_q) at the initial state (an
        // evaluation failure there resurfaces, named, as the run's first error)
        let resolved_alpha = match *method {
            Method::Alf { alpha, .. } => {
                let mut d = MechanismDescriptor::new(model.clone());
                let (q0, v0) = d.initial();
                let fallback = match alpha {
                    AlphaScale::Absolute(a) | AlphaScale::Relative(a) => a,
                };
                alpha.resolve(&mut d, 0.0, &q0, &v0).unwrap_or(fallback)
            }
            _ => 0.0,
        };
        let (formulation, projection, every) = match *method {
            Method::Lagrange {
                baumgarte,
                projection_every,
                strict,
            } => (
                Formulation::Lagrange {
                    baumgarte: baumgarte.map(|(alpha, beta)| Baumgarte { alpha, beta }),
                    // redundant constraints (every planar loop in 3-D) need the
                    // least-squares KKT solve; the strict one reports them
                    min_norm: !strict,
                },
                if projection_every > 0 {
                    Projection::Kkt(ProjectionParams::default())
                } else {
                    Projection::None
                },
                projection_every,
            ),
            Method::Alf {
                mu,
                omega,
                max_iter,
                tol,
                projection_every,
                ..
            } => (
                Formulation::Alf(AlfParams {
                    alpha: resolved_alpha,
                    mu,
                    omega,
                    max_iter,
                    tol,
                    warm_start: false,
                }),
                if projection_every > 0 {
                    Projection::AugmentedLagrangian(ProjectionParams::default())
                } else {
                    Projection::None
                },
                projection_every,
            ),
            _ => return None,
        };
        let n = 7 * model.n_bodies();
        // Adapter: the implicit rules' Newton test (default 1e-12) sits below the
        // round-off of augmented-Lagrangian accelerations (≈ α·ε relative, see
        // `AlfParams::alpha`), so it could never converge for α ≳ 1e6; tie it to α.
        let newton_tol = match *method {
            // ≈ α·ε/λ_min(M) relative: with small bodies (Andrew's squeezer,
            // λ_min ~ 1e-5) that is 1e3 × α·ε
            Method::Alf { .. } => (1e3 * resolved_alpha * f64::EPSILON).clamp(1e-10, 1e-7),
            _ => 1e-12,
        };
        // the Newton matrix is kept across steps while it converges (a
        // forward-difference Jacobian costs 14 right-hand sides per body)
        let newton = mbs_integrators::NewtonParams {
            rtol: newton_tol,
            atol: newton_tol,
            reuse_jacobian: true,
            ..Default::default()
        };
        let sys = Index1::new(
            MechanismDescriptor::new(model.clone()),
            formulation,
            projection,
        );
        Some(Self {
            name: method.to_string(),
            family: method.name(),
            model,
            sys,
            project_every: every,
            newton,
            qdd: DVector::zeros(n),
        })
    }
}

/// Index1 seen as a second-order system for the central-difference and staggered
/// integrators: x = q, v = q̇ (same length, so the default position update applies).
struct Partitioned<'a>(&'a mut Index1<MechanismDescriptor>, DVector<f64>);

impl PartitionedSystem for Partitioned<'_> {
    fn dim_positions(&self) -> usize {
        self.0.n()
    }
    fn dim_velocities(&self) -> usize {
        self.0.n()
    }
    fn accelerations(
        &mut self,
        t: f64,
        x: &[f64],
        v: &[f64],
        a: &mut [f64],
    ) -> Result<(), SystemError> {
        self.0
            .accelerations(t, x, v, &mut self.1)
            .map_err(|e| SystemError::with_source(e.to_string(), e))?;
        a.copy_from_slice(self.1.as_slice());
        Ok(())
    }
    fn project(&mut self, t: f64, x: &mut [f64], v: &mut [f64]) -> Result<bool, SystemError> {
        self.0
            .project_state(t, x, v)
            .map(|i| i.is_some())
            .map_err(|e| SystemError::with_source(e.to_string(), e))
    }
}

impl FrontEnd for Index1FrontEnd {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn run(
        &mut self,
        spec: &RunSpec<'_>,
        sink: &mut dyn SampleSink,
    ) -> Result<RunStats, FrontEndError> {
        let n = self.sys.n();
        let start = Instant::now();
        let mut rec = Collect::new(
            sink,
            DivergenceCheck::new(&self.model, spec.divergence_limit),
        );
        if self.project_every == 0 {
            // without projections nothing holds the branch at a singular configuration
            rec.guard = BranchGuard::new(self.model.clone(), self.family).ok();
        }
        let result = match spec.integrator {
            IntegratorChoice::CentralDifference { .. } | IntegratorChoice::Staggered { .. } => {
                let mut p = Partitioned(&mut self.sys, DVector::zeros(n));
                integrate_partitioned(&mut p, spec, self.project_every, &mut rec)
            }
            _ => {
                let names = body_names(&self.model);
                integrate_ode_with(
                    &mut self.sys,
                    spec,
                    self.project_every,
                    self.newton.clone(),
                    &|i| body_state_label(&names, i),
                    &mut rec,
                )
            }
        };
        let elapsed = start.elapsed().as_secs_f64();
        let s1 = self.sys.stats();
        let (info, error) = result;
        let mut stats = RunStats::from(info);
        stats.multiplier_iterations = s1.alf_iterations as usize;
        stats.projections = s1.projections as usize;
        stats.integration_seconds = Some(elapsed);
        // Enrich each sample with q̈ and λ at its state (not counted as RHS evaluations).
        let diverged = rec.diverged.take();
        for (t, mut y) in std::mem::take(&mut rec.samples) {
            let (q, v) = y.split_at_mut(n);
            // Output samples come from the integrator's dense output, which does not
            // lie on the constraint manifold between two projected steps: with
            // projections on, project the sample too (as a step ending there would).
            if self.project_every > 0 {
                let _ = self.sys.project_state(t, q, v);
            }
            let (q, v) = (&*q, &*v);
            let mut sample = Sample::new(state(t, q, v));
            if self.sys.accelerations(t, q, v, &mut self.qdd).is_ok() {
                sample.accelerations = Some(self.qdd.clone());
                sample.multipliers = Some(DVector::from_vec(self.sys.multipliers()));
            }
            rec.sink.sample(sample);
        }
        match diverged.or(error) {
            None => Ok(stats),
            Some(e) => Err(e.with_stats(stats)),
        }
    }

    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FrontEndError> {
        let s = s.to_layout(SAMPLE_LAYOUT);
        self.sys
            .accelerations(s.t, s.q.as_slice(), s.v.as_slice(), &mut self.qdd)
            .map_err(|e| FrontEndError::failed(s.t, e.to_string()))?;
        Ok(self.qdd.clone())
    }
}

/// ALF-INDEX3 (Bayo–Ledesma eqs 35–40) with its own fixed-step loop.
#[derive(Debug)]
pub struct Index3FrontEnd {
    name: String,
    model: Arc<Model>,
    params: Index3Params,
    stepper: Option<AlfIndex3<MechanismDescriptor>>,
}

impl Index3FrontEnd {
    /// The adapter of a `Method::AlfIndex3`.
    pub fn new(method: &Method, model: &Model) -> Option<Self> {
        let Method::AlfIndex3 {
            alpha,
            max_iter,
            tol,
        } = *method
        else {
            return None;
        };
        let params = Index3Params {
            alpha,
            max_newton: max_iter,
            newton_tol: tol,
            ..Index3Params::default()
        };
        Some(Self {
            name: method.to_string(),
            model: Arc::new(model.clone()),
            params,
            stepper: None,
        })
    }

    /// A fresh stepper (multipliers and counters reset) with `rule`.
    fn fresh_stepper(&mut self, rule: Rule) -> &mut AlfIndex3<MechanismDescriptor> {
        let params = Index3Params {
            rule,
            ..self.params
        };
        self.stepper.insert(AlfIndex3::new(
            MechanismDescriptor::new(self.model.clone()),
            params,
        ))
    }
}

impl FrontEnd for Index3FrontEnd {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn run(
        &mut self,
        spec: &RunSpec<'_>,
        sink: &mut dyn SampleSink,
    ) -> Result<RunStats, FrontEndError> {
        let (rule, h) = match spec.integrator {
            IntegratorChoice::Trapezoidal { h } => (Rule::Trapezoidal, h),
            IntegratorChoice::Midpoint { h } => (Rule::Midpoint, h),
            other => {
                return Err(FrontEndError::invalid_input(format!(
                    "ALF-INDEX3 integrates with its own implicit rule: use --integrator trapezoidal or midpoint (with --h), not {}",
                    other.name()
                )));
            }
        };
        let check = DivergenceCheck::new(&self.model, spec.divergence_limit);
        let start = Instant::now();
        let st = self.fresh_stepper(rule);
        let s0 = spec.initial;
        let n = s0.q.len();
        let (mut q, mut v, mut a) = (
            s0.q.as_slice().to_vec(),
            s0.v.as_slice().to_vec(),
            vec![0.0; n],
        );
        let mut t = s0.t;
        let mut stats = RunStats::default();
        let fail = |t: f64, e: mbs_alf::AlfError, stats: RunStats| {
            FrontEndError::failed(e.time().unwrap_or(t), e.to_string()).with_stats(stats)
        };
        st.initial_accelerations(t, &q, &v, &mut a)
            .map_err(|e| fail(t, e, stats))?;
        let mut out = spec.output_times.iter().copied().peekable();
        let emit = |t: f64,
                    q: &[f64],
                    v: &[f64],
                    a: &[f64],
                    lam: &DVector<f64>,
                    sink: &mut dyn SampleSink| {
            let mut s = Sample::new(state(t, q, v));
            s.accelerations = Some(DVector::from_column_slice(a));
            s.multipliers = Some(lam.clone());
            sink.sample(s);
        };
        // samples at t0
        while let Some(&to) = out.peek() {
            if to > t + 1e-9 * h {
                break;
            }
            emit(t, &q, &v, &a, st.multipliers(), sink);
            out.next();
        }
        let (mut qp, mut vp, mut ap) = (q.clone(), v.clone(), a.clone());
        // station k at t0 + k h (no accumulated round-off), the last one at t_end
        let (t0, span) = (t, spec.t_end - t);
        let n_steps = ((span / h) * (1.0 - 1e-12)).ceil().max(0.0) as usize;
        let station = |k: usize| {
            if k >= n_steps {
                spec.t_end
            } else {
                t0 + k as f64 * h
            }
        };
        for k in 0..n_steps {
            qp.copy_from_slice(&q);
            vp.copy_from_slice(&v);
            ap.copy_from_slice(&a);
            let t_prev = t;
            let hk = station(k + 1) - t_prev;
            let r = st.step(t, hk, &mut q, &mut v, &mut a);
            let s3 = st.stats();
            stats.accepted_steps = k + 1;
            stats.newton_iterations = s3.newton_iterations as usize;
            stats.rhs_evals = s3.evaluations as usize;
            stats.projections = 2 * (k + 1);
            if let Err(e) = r {
                stats.integration_seconds = Some(start.elapsed().as_secs_f64());
                return Err(fail(t, e, stats));
            }
            t = station(k + 1);
            if let Some(e) = check.check(t, &q, &v) {
                stats.integration_seconds = Some(start.elapsed().as_secs_f64());
                return Err(e.with_stats(stats));
            }
            // output times inside (t_prev, t]: linear interpolation between steps
            while let Some(&to) = out.peek() {
                if to > t + 1e-9 * h {
                    break;
                }
                let w = ((to - t_prev) / hk).clamp(0.0, 1.0);
                let lerp = |x0: &[f64], x1: &[f64]| -> Vec<f64> {
                    x0.iter().zip(x1).map(|(a, b)| a + w * (b - a)).collect()
                };
                if w > 1.0 - 1e-9 {
                    emit(to, &q, &v, &a, st.multipliers(), sink);
                } else {
                    emit(
                        to,
                        &lerp(&qp, &q),
                        &lerp(&vp, &v),
                        &lerp(&ap, &a),
                        st.multipliers(),
                        sink,
                    );
                }
                out.next();
            }
            if sink.step(t) == ControlFlow::Break(()) {
                break;
            }
        }
        stats.integration_seconds = Some(start.elapsed().as_secs_f64());
        Ok(stats)
    }

    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FrontEndError> {
        let s = s.to_layout(SAMPLE_LAYOUT);
        let st = match self.stepper.take() {
            Some(st) => self.stepper.insert(st),
            None => self.fresh_stepper(Rule::Trapezoidal),
        };
        let mut a = vec![0.0; s.q.len()];
        st.initial_accelerations(s.t, s.q.as_slice(), s.v.as_slice(), &mut a)
            .map_err(|e| FrontEndError::failed(s.t, e.to_string()))?;
        Ok(DVector::from_vec(a))
    }
}

fn state(t: f64, q: &[f64], v: &[f64]) -> State {
    State {
        layout: SAMPLE_LAYOUT,
        t,
        q: DVector::from_column_slice(q),
        v: DVector::from_column_slice(v),
    }
}

/// An integrator observer that keeps the samples (enriched after the run), forwards
/// progress and stops on divergence.
struct Collect<'s> {
    sink: &'s mut dyn SampleSink,
    check: DivergenceCheck,
    samples: Vec<(f64, Vec<f64>)>,
    diverged: Option<FrontEndError>,
    /// Length of the position part of y (default: half of y).
    split: Option<usize>,
    /// Rank watch of Φ_q for the methods without projections.
    guard: Option<BranchGuard>,
}

impl<'s> Collect<'s> {
    fn new(sink: &'s mut dyn SampleSink, check: DivergenceCheck) -> Self {
        Self {
            sink,
            check,
            samples: Vec::new(),
            diverged: None,
            split: None,
            guard: None,
        }
    }
}

impl Observer for Collect<'_> {
    fn step(&mut self, t: f64, y: &[f64]) -> ControlFlow<()> {
        let n = self.split.unwrap_or(y.len() / 2);
        if let Some(e) = self.check.check(t, &y[..n], &y[n..]) {
            self.diverged = Some(e);
            return ControlFlow::Break(());
        }
        if let Some(Err(e)) = self.guard.as_mut().map(|g| g.check(t, &y[..n])) {
            self.diverged = Some(FrontEndError::failed(t, e.to_string()));
            return ControlFlow::Break(());
        }
        self.sink.step(t)
    }
    fn sample(&mut self, t: f64, y: &[f64]) {
        self.samples.push((t, y.to_vec()));
    }
}

/// Chiou's penalty stabilization (sec 5.3): the two-stage staggered procedure (or
/// plain central differences) on the [ṙ, ω'] layout with `PenaltySystem`, or the
/// penalty ODE y = [x, v, λ] with `PenaltyOde` for the other integrators.
#[derive(Debug)]
pub struct PenaltyFrontEnd {
    name: String,
    model: Arc<Model>,
    /// ε, resolved for the run's integrator step.
    epsilon: EpsilonScale,
    params: PenaltyParams,
    /// The ODE and its initial y (λ⁰) kept for repeated `accelerations` calls.
    rhs: Option<(PenaltyOde, Vec<f64>, Vec<f64>)>,
}

impl PenaltyFrontEnd {
    /// The adapter of a `Method::Penalty`.
    pub fn new(method: &Method, model: &Model) -> Option<Self> {
        let Method::Penalty { epsilon, backend } = *method else {
            return None;
        };
        let params = PenaltyParams {
            backend: match backend {
                PenaltyBackend::Dense => LambdaBackend::Dense,
                PenaltyBackend::Pcg => LambdaBackend::pcg(),
            },
            ..PenaltyParams::default()
        };
        Some(Self {
            name: method.to_string(),
            model: Arc::new(model.clone()),
            epsilon,
            params,
            rhs: None,
        })
    }

    fn failed(t: f64, e: mbs_alf::AlfError) -> FrontEndError {
        FrontEndError::failed(e.time().unwrap_or(t), e.to_string())
    }
}

/// Accelerations [r̈, ω̇'] (6 per body) at an [ṙ, ω'] state → q̈ = [r̈, p̈] (7 per body).
fn pdot_layout_accelerations(x: &[f64], v: &[f64], a: &[f64]) -> DVector<f64> {
    let nb = x.len() / 7;
    let mut out = DVector::zeros(7 * nb);
    for i in 0..nb {
        let p = nalgebra::Vector4::from_column_slice(&x[7 * i + 3..7 * i + 7]);
        let w = nalgebra::Vector3::from_column_slice(&v[6 * i + 3..6 * i + 6]);
        let wd = nalgebra::Vector3::from_column_slice(&a[6 * i + 3..6 * i + 6]);
        out.rows_mut(7 * i, 3).copy_from_slice(&a[6 * i..6 * i + 3]);
        let pdd = mbs_kinematics::euler_params::pddot_from_omega_body_dot(&p, &w, &wd);
        out.rows_mut(7 * i + 3, 4).copy_from(&pdd);
    }
    out
}

impl FrontEnd for PenaltyFrontEnd {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn run(
        &mut self,
        spec: &RunSpec<'_>,
        sink: &mut dyn SampleSink,
    ) -> Result<RunStats, FrontEndError> {
        let s0 = spec.initial.to_layout(Layout::EulerParamsOmega);
        let (nx, nv) = (s0.q.len(), s0.v.len());
        let check = DivergenceCheck::new(&self.model, spec.divergence_limit);
        let start = Instant::now();
        let omega_state = |t: f64, x: &[f64], v: &[f64]| State {
            layout: Layout::EulerParamsOmega,
            t,
            q: DVector::from_column_slice(x),
            v: DVector::from_column_slice(v),
        };
        let mut rec = Collect::new(sink, check);
        rec.split = Some(nx);
        rec.guard = BranchGuard::new(self.model.clone(), "penalty").ok();
        let (h, rtol) = match spec.integrator {
            IntegratorChoice::Rk45 { rtol, .. }
            | IntegratorChoice::Rk23 { rtol, .. }
            | IntegratorChoice::Adams { rtol, .. } => (None, Some(rtol)),
            other => (other.step(), None),
        };
        self.params.epsilon = self
            .epsilon
            .resolve(self.model.clone(), h)
            .map_err(|e| Self::failed(s0.t, e))?;
        let (result, lambdas, evals) = match spec.integrator {
            IntegratorChoice::CentralDifference { .. } | IntegratorChoice::Staggered { .. } => {
                let mut sys = PenaltySystem::new(self.model.clone(), self.params)
                    .map_err(|e| Self::failed(s0.t, e))?;
                let spec0 = RunSpec {
                    initial: &s0,
                    ..spec.clone()
                };
                // plain central difference: the one-stage form (λ solved every station)
                let r = match spec.integrator {
                    IntegratorChoice::CentralDifference { h } => {
                        let mut one = OneStagePenalty::new(sys, h);
                        let r = integrate_partitioned(&mut one, &spec0, 1, &mut rec);
                        sys = one.inner;
                        r
                    }
                    _ => integrate_partitioned(&mut sys, &spec0, 1, &mut rec),
                };
                (r, None, sys.stats().evaluations)
            }
            _ => {
                let mut ode = PenaltyOde::new(self.model.clone(), self.params.epsilon)
                    .map_err(|e| Self::failed(s0.t, e))?;
                if let Some(rtol) = rtol.filter(|_| spec.guard) {
                    ode = ode.with_tolerance(rtol);
                }
                let (_, _, m) = ode.dims();
                // λ⁰: the initial Lagrange multipliers (minimum-norm when redundant)
                let y_model = ode.initial_state(s0.t).map_err(|e| Self::failed(s0.t, e))?;
                // x, v from the requested initial state, λ⁰ from the model's initial state
                let mut q = s0.q.as_slice().to_vec();
                q.extend_from_slice(s0.v.as_slice());
                q.extend_from_slice(&y_model[nx + nv..]);
                let init = State {
                    layout: Layout::EulerParamsOmega,
                    t: s0.t,
                    q: DVector::from_vec(q),
                    v: DVector::zeros(0),
                };
                let spec0 = RunSpec {
                    initial: &init,
                    ..spec.clone()
                };
                let names = body_names(&self.model);
                let label = |i: usize| penalty_state_label(&names, i);
                let r = integrate_ode(&mut ode, &spec0, 1, &label, &mut rec);
                (r, Some(m), ode.evaluations())
            }
        };
        let elapsed = start.elapsed().as_secs_f64();
        let (info, error) = result;
        let mut stats = RunStats::from(info);
        stats.rhs_evals = stats.rhs_evals.max(evals as usize);
        stats.integration_seconds = Some(elapsed);
        let diverged = rec.diverged.take();
        for (t, y) in std::mem::take(&mut rec.samples) {
            let (x, rest) = y.split_at(nx);
            let (v, lam) = rest.split_at(nv);
            let mut sample = Sample::new(omega_state(t, x, v).to_layout(SAMPLE_LAYOUT));
            if lambdas.is_some() {
                sample.multipliers = Some(DVector::from_column_slice(lam));
            }
            rec.sink.sample(sample);
        }
        match diverged.or(error) {
            None => Ok(stats),
            Some(e) => Err(e.with_stats(stats)),
        }
    }

    /// One evaluation of the penalty ODE at `s` with λ = the Lagrange multipliers of
    /// the model's initial state (λ is a state of the penalty formulation: this is
    /// exact at the initial state, which is where the consistency suite compares).
    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FrontEndError> {
        let s = s.to_layout(Layout::EulerParamsOmega);
        let (nx, nv) = (s.q.len(), s.v.len());
        if self.rhs.is_none() {
            let epsilon = self
                .epsilon
                .resolve(self.model.clone(), None)
                .map_err(|e| Self::failed(s.t, e))?;
            let mut ode =
                PenaltyOde::new(self.model.clone(), epsilon).map_err(|e| Self::failed(s.t, e))?;
            let (_, _, m) = ode.dims();
            let y = ode
                .initial_state(s.t)
                .unwrap_or_else(|_| vec![0.0; nx + nv + m]);
            let dy = vec![0.0; y.len()];
            self.rhs = Some((ode, y, dy));
        }
        let (ode, y, dy) = self
            .rhs
            .as_mut()
            .ok_or_else(|| FrontEndError::failed(s.t, "penalty ODE not built"))?;
        y[..nx].copy_from_slice(s.q.as_slice());
        y[nx..nx + nv].copy_from_slice(s.v.as_slice());
        mbs_integrators::OdeSystem::rhs(ode, s.t, y, dy)
            .map_err(|e| FrontEndError::failed(s.t, e.to_string()))?;
        Ok(pdot_layout_accelerations(
            s.q.as_slice(),
            s.v.as_slice(),
            &dy[nx..nx + nv],
        ))
    }
}

fn body_names(model: &Model) -> Vec<String> {
    model.bodies().iter().map(|b| b.name.clone()).collect()
}

/// Names component `i` of the penalty ODE's y = [x (7 per body), v = [ṙ, ω'] (6 per
/// body), λ].
fn penalty_state_label(names: &[String], i: usize) -> String {
    const X: [&str; 7] = ["x", "y", "z", "e0", "e1", "e2", "e3"];
    const V: [&str; 6] = ["ṙ_x", "ṙ_y", "ṙ_z", "ω'_x", "ω'_y", "ω'_z"];
    let (nx, nv) = (7 * names.len(), 6 * names.len());
    if i < nx {
        format!("body `{}` coordinate {}", names[i / 7], X[i % 7])
    } else if i < nx + nv {
        let j = i - nx;
        format!("body `{}` velocity {}", names[j / 6], V[j % 6])
    } else {
        format!("multiplier {}", i - nx - nv)
    }
}
