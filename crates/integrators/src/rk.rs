//! Embedded explicit Runge–Kutta pairs with error control as in MATLAB's
//! `ode45` and `ode23` (Shampine & Reichelt, *The MATLAB ODE Suite*, SIAM J.
//! Sci. Comput. 18 (1997) 1–22):
//!
//! * [`Method::DormandPrince45`]: Dormand & Prince 5(4), 7 stages, FSAL, local
//!   extrapolation (the 5th-order result is propagated), 4th-order continuous
//!   extension (the `ntrp45` interpolant);
//! * [`Method::BogackiShampine23`]: Bogacki & Shampine 3(2), 4 stages, FSAL,
//!   cubic Hermite continuous extension (`ntrp23`);
//! * [`Method::Dop853`]: Dormand & Prince 8(5,3), 12 stages + FSAL, the
//!   combined 5th/3rd-order error estimate and the 7th-order dense output with
//!   three extra stages of Hairer's `dop853.f` (Hairer, Nørsett & Wanner,
//!   *Solving ODEs I*, 2nd ed., sec II.5, II.6, II.10; coefficients in
//!   `dop853.rs`).
//!
//! Error control (Shampine–Reichelt sec 2–3): with `e = h Σ Eⱼ kⱼ` the
//! difference of the two embedded solutions, a step is accepted when
//! `max_i |e_i| / max(rtol · max(|y_i|, |y_new,i|), atol_i) ≤ 1`, i.e. the
//! mixed test of `ode45` with `threshold = atol/rtol`. DOP853 combines its
//! 5th- and 3rd-order estimates as `dop853.f` does (Hairer–Nørsett–Wanner sec
//! II.10), `err = ‖e5‖² / sqrt(‖e5‖² + 0.01 ‖e3‖²)` with `e5 = h Σ E5ⱼ kⱼ`,
//! `e3 = h Σ E3ⱼ kⱼ`, an `O(h⁸)` estimate, in the same weighted max norm (so that
//! a tolerance means the same for every integrator of the crate; `dop853.f` and
//! SciPy take a root-mean-square norm, looser by up to `√n`). After a failure the step
//! shrinks by `max(0.1, 0.8 (1/err)^{1/(p+1)})` (`ode23`: `max(0.5, …)`) at the
//! first failure of a step, or halves
//! (repeated failures); after a success without failure it grows by
//! `1 / (1.25 err^{1/(p+1)})`, at most 5×. The first step is
//! `min(hmax, |tspan|, 0.8 rtol^{1/(p+1)} / ‖f₀ / max(|y₀|, atol/rtol)‖∞)`, and
//! `hmax` defaults to `|tspan| / 10`, all as in `ode45.m`/`ode23.m`; DOP853
//! uses the same controller with `p + 1 = 8` and `ode45`'s factors.

use crate::common::{
    all_finite, check_dim, direction, h_min, no_mass_matrix, positive, step_toward_end,
};
use crate::dop853;
use crate::driver::drive;
use crate::error::{AtTime, Error};
use crate::stepper::{Schedule, Step, Stepper};
use crate::stiffness::{self, StiffnessTest};
use crate::system::{AbsTol, Info, Observer, OdeSystem};

/// A Butcher tableau of an FSAL embedded pair with a continuous extension.
#[derive(Debug)]
struct Tableau {
    /// Nodes `c_s`.
    c: &'static [f64],
    /// Rows `a_{s,j}`, `j < s`, for stages `1..S` (the last row is `b`, FSAL).
    a: &'static [&'static [f64]],
    /// How the local error is estimated.
    estimate: Estimate,
    /// The continuous extension (dense output).
    dense: Dense,
    /// Exponent of the step-size controller, `1/(p+1)` with `p` the lower order
    /// (DOP853: `1/8`, its estimate being `O(h⁸)`).
    pow: f64,
    /// Order of the propagated solution.
    order: usize,
    /// Smallest factor of the first step reduction after a failure
    /// (`ode45.m`: 0.1, `ode23.m`: 0.5).
    min_shrink: f64,
    /// Stability boundary of Hairer's stiffness test on the last two stages (both
    /// at `c = 1`), `None` for a pair without two such stages ([`crate::stiffness`]).
    stiffness_boundary: Option<f64>,
}

/// How a pair estimates the local error of a step.
#[derive(Debug)]
enum Estimate {
    /// `e = h Σ E_s k_s` with `E = b − b̂`, in the weighted max norm of `ode45`.
    Embedded(&'static [f64]),
    /// DOP853's combined 5th/3rd-order estimate (module documentation).
    Dop853,
}

/// A pair's continuous extension.
#[derive(Debug)]
enum Dense {
    /// `y(t + θh) = y + h Σ_s k_s Σ_m bi[s][m] θ^{m+1}` from the step's stages.
    Polynomial(&'static [&'static [f64]]),
    /// DOP853's 7th-order extension, with three extra stages evaluated by
    /// `EmbeddedRk::prepare_dense` (Hairer–Nørsett–Wanner sec II.6).
    Dop853,
}

impl Dense {
    /// Extra stages the continuous extension evaluates.
    fn extra_stages(&self) -> usize {
        match self {
            Dense::Polynomial(_) => 0,
            Dense::Dop853 => dop853::C_EXTRA.len(),
        }
    }
    /// Vectors of the extension's coefficients kept per step.
    fn coefficients(&self) -> usize {
        match self {
            Dense::Polynomial(_) => 0,
            Dense::Dop853 => 3 + dop853::D.len(),
        }
    }
}

/// Dormand & Prince (1980) 5(4), coefficients as in MATLAB `ode45.m`.
static DP45: Tableau = Tableau {
    c: &[0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0],
    a: &[
        &[],
        &[1.0 / 5.0],
        &[3.0 / 40.0, 9.0 / 40.0],
        &[44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0],
        &[
            19372.0 / 6561.0,
            -25360.0 / 2187.0,
            64448.0 / 6561.0,
            -212.0 / 729.0,
        ],
        &[
            9017.0 / 3168.0,
            -355.0 / 33.0,
            46732.0 / 5247.0,
            49.0 / 176.0,
            -5103.0 / 18656.0,
        ],
        &[
            35.0 / 384.0,
            0.0,
            500.0 / 1113.0,
            125.0 / 192.0,
            -2187.0 / 6784.0,
            11.0 / 84.0,
        ],
    ],
    estimate: Estimate::Embedded(&[
        71.0 / 57600.0,
        0.0,
        -71.0 / 16695.0,
        71.0 / 1920.0,
        -17253.0 / 339200.0,
        22.0 / 525.0,
        -1.0 / 40.0,
    ]),
    // MATLAB ntrp45.m, matrix BI (columns multiply θ, θ², θ³, θ⁴).
    dense: Dense::Polynomial(&[
        &[1.0, -183.0 / 64.0, 37.0 / 12.0, -145.0 / 128.0],
        &[0.0, 0.0, 0.0, 0.0],
        &[0.0, 1500.0 / 371.0, -1000.0 / 159.0, 1000.0 / 371.0],
        &[0.0, -125.0 / 32.0, 125.0 / 12.0, -375.0 / 64.0],
        &[0.0, 9477.0 / 3392.0, -729.0 / 106.0, 25515.0 / 6784.0],
        &[0.0, -11.0 / 7.0, 11.0 / 3.0, -55.0 / 28.0],
        &[0.0, 3.0 / 2.0, -4.0, 5.0 / 2.0],
    ]),
    pow: 1.0 / 5.0,
    order: 5,
    min_shrink: 0.1,
    stiffness_boundary: Some(stiffness::DOPRI5_BOUNDARY),
};

/// Bogacki & Shampine (1989) 3(2), coefficients as in MATLAB `ode23.m`.
static BS23: Tableau = Tableau {
    c: &[0.0, 1.0 / 2.0, 3.0 / 4.0, 1.0],
    a: &[
        &[],
        &[1.0 / 2.0],
        &[0.0, 3.0 / 4.0],
        &[2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0],
    ],
    estimate: Estimate::Embedded(&[-5.0 / 72.0, 1.0 / 12.0, 1.0 / 9.0, -1.0 / 8.0]),
    // MATLAB ntrp23.m, matrix BI (columns multiply θ, θ², θ³).
    dense: Dense::Polynomial(&[
        &[1.0, -4.0 / 3.0, 5.0 / 9.0],
        &[0.0, 1.0, -2.0 / 3.0],
        &[0.0, 4.0 / 3.0, -8.0 / 9.0],
        &[0.0, -1.0, 1.0],
    ]),
    pow: 1.0 / 3.0,
    order: 3,
    min_shrink: 0.5,
    // one stage at c = 1 only: no stiffness test
    stiffness_boundary: None,
};

/// Dormand & Prince 8(5,3), coefficients of Hairer's `dop853.f`.
static DOP853: Tableau = Tableau {
    c: &dop853::C,
    a: &dop853::A,
    estimate: Estimate::Dop853,
    dense: Dense::Dop853,
    pow: 1.0 / 8.0,
    order: 8,
    min_shrink: 0.1,
    stiffness_boundary: Some(stiffness::DOP853_BOUNDARY),
};

/// Which embedded pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Dormand–Prince 5(4), as MATLAB `ode45`.
    DormandPrince45,
    /// Bogacki–Shampine 3(2), as MATLAB `ode23`.
    BogackiShampine23,
    /// Dormand–Prince 8(5,3), as Hairer's `dop853.f`.
    Dop853,
}

impl Method {
    fn tableau(self) -> &'static Tableau {
        match self {
            Method::DormandPrince45 => &DP45,
            Method::BogackiShampine23 => &BS23,
            Method::Dop853 => &DOP853,
        }
    }
    /// Order of the propagated solution (5, 3 or 8).
    pub fn order(self) -> usize {
        self.tableau().order
    }
}

/// Parameters of [`EmbeddedRk`]. Defaults are MATLAB's.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Relative tolerance (default `1e-3`; raised to `100 ε` if smaller).
    pub rtol: f64,
    /// Absolute tolerance (default `1e-6`).
    pub atol: AbsTol,
    /// Initial step; `None` selects it as `ode45` does.
    pub h0: Option<f64>,
    /// Largest step; `None` means `|t_end − t0| / 10`.
    pub h_max: Option<f64>,
    /// Fixed step size: no error control, the last step ends at `t_end`.
    pub fixed_step: Option<f64>,
    /// Maximum number of accepted + rejected steps.
    pub max_steps: usize,
    /// Call [`OdeSystem::project`] every `project_every` accepted steps
    /// (`0`: never).
    pub project_every: usize,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            rtol: 1e-3,
            atol: AbsTol::Scalar(1e-6),
            h0: None,
            h_max: None,
            fixed_step: None,
            max_steps: 10_000_000,
            project_every: 1,
        }
    }
}

impl Params {
    /// Defaults with `rtol` and a scalar `atol`.
    pub fn with_tol(rtol: f64, atol: f64) -> Self {
        Self {
            rtol,
            atol: AbsTol::Scalar(atol),
            ..Self::default()
        }
    }
    /// Defaults with a fixed step `h` (no error control).
    pub fn fixed(h: f64) -> Self {
        Self {
            fixed_step: Some(h),
            ..Self::default()
        }
    }
}

/// Where `f(t, y)` of the last accepted state is, for the first stage of the next
/// step (first same as last).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Fsal {
    /// In `k_0` (at the start).
    #[default]
    First,
    /// In the last stage of the step (the FSAL property).
    Last,
    /// In `k_fresh`: evaluated after a projection changed the state.
    Fresh,
}

/// An embedded explicit Runge–Kutta integrator (`ode45`/`ode23`-like).
///
/// All work vectors are allocated by [`new`](Self::new); a step allocates
/// nothing.
#[derive(Debug, Clone)]
pub struct EmbeddedRk {
    method: Method,
    tab: &'static Tableau,
    params: Params,
    n: usize,
    /// Stage derivatives `k_s` of the last step (and the dense output's extra
    /// stages).
    k: Vec<Vec<f64>>,
    /// DOP853: the coefficient vectors of the dense output of the last step.
    dense: Vec<Vec<f64>>,
    /// `f(t, y)` after a projection changed `y`.
    k_fresh: Vec<f64>,
    y: Vec<f64>,
    /// Stage arguments; after an accepted step, the state at its start.
    y_new: Vec<f64>,
    y_out: Vec<f64>,
    e: Vec<f64>,
    /// DOP853: the 3rd-order error estimate.
    e3: Vec<f64>,
    t: f64,
    info: Info,
    /// State component with the largest weighted error in the last error test.
    err_component: Option<usize>,
    /// Step-size control of the current run.
    ctl: Control,
    /// Hairer's stiffness test of the current run (RK45, DOP853).
    stiff: Option<StiffnessTest>,
}

/// Step-size control state of [`EmbeddedRk`] between attempts.
#[derive(Debug, Clone, Default)]
struct Control {
    /// `rtol`, raised to `100 ε`.
    rtol: f64,
    h_max: f64,
    dir: f64,
    /// `|h|` of the current or next attempt, and the signed step.
    absh: f64,
    h: f64,
    /// `hmin` at the start of the current step.
    hmin: f64,
    /// The current step ends at `t_end`.
    last: bool,
    /// No attempt of the current step has failed yet.
    no_failed: bool,
    /// The next attempt starts a new step.
    new_step: bool,
    fsal: Fsal,
    /// The projection changed the state after the last step.
    projected: bool,
    /// Start time of the last accepted step (dense output).
    t_prev: f64,
}

impl EmbeddedRk {
    /// An integrator for systems of dimension `n`.
    pub fn new(method: Method, n: usize, params: Params) -> Self {
        let tab = method.tableau();
        Self {
            method,
            tab,
            params,
            n,
            k: vec![vec![0.0; n]; tab.c.len() + tab.dense.extra_stages()],
            dense: vec![vec![0.0; n]; tab.dense.coefficients()],
            k_fresh: vec![0.0; n],
            y: vec![0.0; n],
            y_new: vec![0.0; n],
            y_out: vec![0.0; n],
            e: vec![0.0; n],
            e3: vec![
                0.0;
                if matches!(tab.estimate, Estimate::Dop853) {
                    n
                } else {
                    0
                }
            ],
            t: 0.0,
            info: Info::default(),
            err_component: None,
            ctl: Control::default(),
            stiff: None,
        }
    }
    /// Dormand–Prince 5(4) (`ode45`).
    pub fn rk45(n: usize, params: Params) -> Self {
        Self::new(Method::DormandPrince45, n, params)
    }
    /// Bogacki–Shampine 3(2) (`ode23`).
    pub fn rk23(n: usize, params: Params) -> Self {
        Self::new(Method::BogackiShampine23, n, params)
    }
    /// Dormand–Prince 8(5,3) (`dop853`).
    pub fn dop853(n: usize, params: Params) -> Self {
        Self::new(Method::Dop853, n, params)
    }
    /// The method.
    pub fn method(&self) -> Method {
        self.method
    }
    /// Parameters (may be changed between integrations).
    pub fn params_mut(&mut self) -> &mut Params {
        &mut self.params
    }
    /// Time of the last accepted state.
    pub fn t(&self) -> f64 {
        self.t
    }
    /// Last accepted state (also after an error).
    pub fn y(&self) -> &[f64] {
        &self.y
    }
    /// Statistics of the last (or current) integration.
    pub fn info(&self) -> Info {
        self.info
    }
    /// The state component whose weighted error was largest in the last error test
    /// (the one that limits the step; after [`Error::StepSizeUnderflow`] the one that
    /// made the step collapse). `None` before the first test and with a fixed step.
    pub fn error_component(&self) -> Option<usize> {
        self.err_component
    }

    /// Integrate `y' = f(t, y)` from `(t0, y0)` to `t_end` with [`crate::drive`].
    ///
    /// `t_out` lists requested output times (monotone, inside `[t0, t_end]`),
    /// delivered to [`Observer::sample`] through the continuous extension;
    /// every accepted step is delivered to [`Observer::step`]. On error the
    /// last accepted state stays in [`t`](Self::t)/[`y`](Self::y).
    pub fn integrate<S: OdeSystem + ?Sized, O: Observer + ?Sized>(
        &mut self,
        sys: &mut S,
        t0: f64,
        y0: &[f64],
        t_end: f64,
        t_out: &[f64],
        obs: &mut O,
    ) -> Result<Info, Error> {
        drive(self, sys, t0, y0, t_end, t_out, obs)
    }

    /// The first step (`ode45.m`): the fixed step, `h0`, or
    /// `min(h_max, 1/rh)` with `rh = ‖f₀ / max(|y₀|, atol/rtol)‖∞ / (0.8 rtol^pow)`.
    fn initial_step(&self) -> f64 {
        let (rtol, h_max) = (self.ctl.rtol, self.ctl.h_max);
        if let Some(h) = self.params.fixed_step {
            return h;
        }
        if let Some(h0) = self.params.h0 {
            return h0.abs().min(h_max);
        }
        let mut rh: f64 = 0.0;
        for i in 0..self.n {
            let thr = self.params.atol.get(i) / rtol;
            let wt = self.y[i].abs().max(thr).max(f64::MIN_POSITIVE);
            rh = rh.max((self.k[0][i] / wt).abs());
        }
        rh /= 0.8 * rtol.powf(self.tab.pow);
        let mut absh = h_max;
        if absh * rh > 1.0 {
            absh = 1.0 / rh;
        }
        absh.max(h_min(self.t))
    }

    /// A new step from `(t, y)`: `f(t, y)` into `k_0`, its size, whether it is the
    /// last.
    fn begin_step(&mut self, t_end: f64) {
        let last = self.tab.c.len() - 1;
        match self.ctl.fsal {
            Fsal::First => {}
            Fsal::Last => self.k.swap(0, last),
            Fsal::Fresh => std::mem::swap(&mut self.k[0], &mut self.k_fresh),
        }
        let c = &mut self.ctl;
        c.fsal = Fsal::First;
        c.hmin = h_min(self.t);
        let adaptive = self
            .params
            .fixed_step
            .is_none()
            .then_some((c.hmin, c.h_max));
        c.last = step_toward_end(&mut c.absh, (t_end - self.t).abs(), adaptive);
        c.h = c.dir * c.absh;
        c.no_failed = true;
        c.new_step = false;
    }

    /// Stages `Y_s = y + h Σ_j a_sj k_j`, `k_s = f(t + c_s h, Y_s)`; `y_new` ends
    /// as the last stage argument, the propagated solution (FSAL: the last row of
    /// `a` is `b`).
    fn stages<S: OdeSystem + ?Sized>(&mut self, sys: &mut S, t_end: f64) -> Result<(), Error> {
        let (tab, t, h) = (self.tab, self.t, self.ctl.h);
        let last = tab.c.len() - 1;
        for s in 1..tab.c.len() {
            let (done_k, rest) = self.k.split_at_mut(s);
            stage_argument(&mut self.y_new, &self.y, h, tab.a[s], done_k);
            let ts = if s == last && self.ctl.last {
                t_end
            } else {
                t + tab.c[s] * h
            };
            sys.rhs(ts, &self.y_new, &mut rest[0]).at(ts)?;
            self.info.rhs_evals += 1;
        }
        Ok(())
    }

    /// The weighted error of the step per `|h|` as the pair estimates it;
    /// records the largest component.
    fn error_norm(&mut self) -> f64 {
        match self.tab.estimate {
            Estimate::Embedded(e) => self.embedded_error(e),
            Estimate::Dop853 => self.dop853_error(),
        }
    }

    /// `max_i |e_i| / max(rtol max(|y_i|, |y_new,i|), atol_i)` with
    /// `e = Σ_s E_s k_s`.
    fn embedded_error(&mut self, e: &[f64]) -> f64 {
        combine(&mut self.e, 1.0, e, &self.k);
        let (mut err, mut worst): (f64, usize) = (0.0, 0);
        for i in 0..self.n {
            let sc = (self.ctl.rtol * self.y[i].abs().max(self.y_new[i].abs()))
                .max(self.params.atol.get(i))
                .max(f64::MIN_POSITIVE);
            let ei = (self.e[i] / sc).abs();
            if ei > err {
                (err, worst) = (ei, i);
            }
        }
        self.err_component = Some(worst);
        err
    }

    /// DOP853's combined estimate (`dop853.f`, Hairer–Nørsett–Wanner sec II.10)
    /// `s5² / sqrt(s5² + 0.01 s3²)` with `e5 = Σ_s E5_s k_s`, `e3 = Σ_s E3_s k_s`,
    /// measured as every pair of this module is, `s5 = max_i |e5_i| / sc_i`,
    /// `s3 = max_i |e3_i| / sc_i`, `sc_i = max(rtol max(|y_i|, |y_new,i|), atol_i)`
    /// (`dop853.f` takes root-mean-square norms with `sc_i = atol_i + rtol
    /// max(…)`); the largest component is the one with the largest `|e5_i|/sc_i`.
    fn dop853_error(&mut self) -> f64 {
        combine(&mut self.e, 1.0, &dop853::E5, &self.k);
        combine(&mut self.e3, 1.0, &dop853::E3, &self.k);
        let (mut s5, mut s3, mut worst): (f64, f64, usize) = (0.0, 0.0, 0);
        for i in 0..self.n {
            let sc = (self.ctl.rtol * self.y[i].abs().max(self.y_new[i].abs()))
                .max(self.params.atol.get(i))
                .max(f64::MIN_POSITIVE);
            let (r5, r3) = ((self.e[i] / sc).abs(), (self.e3[i] / sc).abs());
            if r5 > s5 {
                (s5, worst) = (r5, i);
            }
            s3 = s3.max(r3);
        }
        self.err_component = Some(worst);
        let deno = s5 * s5 + 0.01 * s3 * s3;
        if deno > 0.0 {
            s5 * s5 / deno.sqrt()
        } else {
            0.0
        }
    }

    /// DOP853: the three extra stages and the coefficient vectors `F₀ … F₆` of the
    /// 7th-order dense output of the last accepted step (`dop853.f`, `rcont1 …
    /// rcont8`): with `Δ = y₁ − y₀` (the step as taken, before a projection),
    /// `F₀ = Δ`, `F₁ = h k₀ − Δ`, `F₂ = 2Δ − h (k₁₂ + k₀)`, `F₃₊ᵣ = h Σ_j d_{r,j} k_j`.
    /// Nothing for the other pairs.
    fn prepare_dense<S: OdeSystem + ?Sized>(&mut self, sys: &mut S) -> Result<(), Error> {
        if !matches!(self.tab.dense, Dense::Dop853) {
            return Ok(());
        }
        // After an accepted step `y_new` holds the state at its start.
        let (t0, h) = (self.ctl.t_prev, self.ctl.h);
        let stages = self.tab.c.len();
        for (r, (&c, row)) in dop853::C_EXTRA.iter().zip(dop853::A_EXTRA).enumerate() {
            let (done, rest) = self.k.split_at_mut(stages + r);
            stage_argument(&mut self.y_out, &self.y_new, h, row, done);
            let ts = t0 + c * h;
            sys.rhs(ts, &self.y_out, &mut rest[0]).at(ts)?;
            self.info.rhs_evals += 1;
        }
        let last = stages - 1;
        // y₁ exactly as `stages` formed it.
        stage_argument(&mut self.y_out, &self.y_new, h, self.tab.a[last], &self.k);
        let (low, high) = self.dense.split_at_mut(3);
        let (k0, k1) = (&self.k[0], &self.k[last]);
        for i in 0..self.n {
            let d = self.y_out[i] - self.y_new[i];
            low[0][i] = d;
            low[1][i] = h * k0[i] - d;
            low[2][i] = 2.0 * d - h * (k1[i] + k0[i]);
        }
        for (f, d) in high.iter_mut().zip(&dop853::D) {
            combine(f, h, d, &self.k);
        }
        Ok(())
    }

    /// A failed error test: shrink by `max(min_shrink, 0.8 err^{−pow})` at the
    /// step's first failure, else halve; fail below `hmin`.
    fn reject(&mut self, err: f64, finite: bool) -> Result<Step, Error> {
        self.info.rejected_steps += 1;
        let c = &mut self.ctl;
        if c.absh <= c.hmin {
            let t = self.t;
            return Err(if finite {
                Error::StepSizeUnderflow {
                    t,
                    h: c.absh,
                    h_min: c.hmin,
                }
            } else {
                Error::NonFinite { t }
            });
        }
        let shrink = if c.no_failed && finite {
            self.tab
                .min_shrink
                .max(0.8 * (1.0 / err).powf(self.tab.pow))
        } else {
            0.5
        };
        c.absh = c.hmin.max(c.absh * shrink);
        c.no_failed = false;
        c.h = c.dir * c.absh;
        c.last = false;
        Ok(Step::Rejected)
    }

    /// Hairer's stiffness test after an accepted step (`dopri5.f`, `dop853.f`; see
    /// [`crate::stiffness`]): `h|λ| ≈ |h| ‖k_s − k_{s−1}‖₂ / ‖y₁ − Y_{s−1}‖₂` from
    /// the last two stages, both at `c = 1`, with
    /// `y₁ − Y_{s−1} = h Σ_j (b_j − a_{s−1,j}) k_j` (formed in `e`, free after the
    /// error test). No evaluation; `O(n)` per step.
    fn test_stiffness(&mut self) {
        let Some(test) = self.stiff.as_mut() else {
            return;
        };
        let last = self.tab.c.len() - 1;
        let (b, a) = (self.tab.a[last], self.tab.a[last - 1]);
        self.e.fill(0.0);
        for (j, kj) in self.k.iter().enumerate().take(last) {
            let d = b.get(j).copied().unwrap_or(0.0) - a.get(j).copied().unwrap_or(0.0);
            if d != 0.0 {
                for (e, k) in self.e.iter_mut().zip(kj) {
                    *e += d * k;
                }
            }
        }
        let (mut num, mut den) = (0.0, 0.0);
        for i in 0..self.n {
            num += (self.k[last][i] - self.k[last - 1][i]).powi(2);
            den += self.e[i] * self.e[i];
        }
        // ‖y₁ − Y_{s−1}‖ = |h| ‖e‖: h|λ| = |h| √num / (|h| √den)
        let h_lambda = if den > 0.0 {
            (num / den).sqrt()
        } else {
            f64::NAN
        };
        test.record(self.t, h_lambda);
        self.info.stiffness = test.report();
    }

    /// An accepted step: `y ← y_new` (the old state stays in `y_new` for dense
    /// output); after a step without failure the next grows by
    /// `1 / (1.25 err^pow)`, at most 5×.
    fn accept(&mut self, err: f64, t_end: f64) -> Step {
        self.test_stiffness();
        self.info.accepted_steps += 1;
        let c = &mut self.ctl;
        c.t_prev = self.t;
        self.t = if c.last { t_end } else { self.t + c.h };
        std::mem::swap(&mut self.y, &mut self.y_new);
        c.fsal = Fsal::Last;
        c.new_step = true;
        if self.params.fixed_step.is_none() && c.no_failed {
            let temp = 1.25 * err.powf(self.tab.pow);
            if temp > 0.2 {
                c.absh /= temp;
            } else {
                c.absh *= 5.0;
            }
        }
        Step::Accepted { last: c.last }
    }
}

impl<S: OdeSystem + ?Sized> Stepper<S> for EmbeddedRk {
    fn init(&mut self, sys: &S, t0: f64, y0: &[f64]) -> Result<(), Error> {
        let n = self.n;
        check_dim("y0", y0.len(), n)?;
        check_dim("system dimension", sys.dim(), n)?;
        no_mass_matrix("rk", sys)?;
        self.params.atol.validate(n)?;
        if !positive(self.params.rtol) {
            return Err(Error::InvalidInput("rtol must be positive".into()));
        }
        if let Some(h) = self.params.fixed_step
            && !positive(h)
        {
            return Err(Error::InvalidInput("fixed step must be positive".into()));
        }
        self.ctl = Control {
            rtol: self.params.rtol.max(100.0 * crate::common::EPS),
            ..Control::default()
        };
        self.info = Info::default();
        self.err_component = None;
        self.stiff = self
            .tab
            .stiffness_boundary
            .filter(|_| self.params.fixed_step.is_none())
            .map(StiffnessTest::new);
        self.t = t0;
        self.y.copy_from_slice(y0);
        Ok(())
    }

    fn start(&mut self, sys: &mut S, t_end: f64) -> Result<(), Error> {
        let t0 = self.t;
        let span = (t_end - t0).abs();
        self.ctl.dir = direction(t0, t_end);
        self.ctl.h_max = self.params.h_max.unwrap_or(0.1 * span).min(span);
        sys.rhs(t0, &self.y, &mut self.k[0]).at(t0)?;
        self.info.rhs_evals += 1;
        if !all_finite(&self.k[0]) || !all_finite(&self.y) {
            return Err(Error::NonFinite { t: t0 });
        }
        self.ctl.absh = self.initial_step();
        self.ctl.new_step = true;
        Ok(())
    }

    fn step(&mut self, sys: &mut S, t_end: f64) -> Result<Step, Error> {
        if self.ctl.new_step {
            self.begin_step(t_end);
        }
        self.stages(sys, t_end)?;
        let last = self.tab.c.len() - 1;
        let finite = all_finite(&self.y_new) && all_finite(&self.k[last]);
        if self.params.fixed_step.is_some() {
            if !finite {
                return Err(Error::NonFinite { t: self.t });
            }
            return Ok(self.accept(0.0, t_end));
        }
        let err = self.error_norm() * self.ctl.absh;
        if finite && err <= 1.0 {
            Ok(self.accept(err, t_end))
        } else {
            self.reject(err, finite)
        }
    }

    fn project(&mut self, sys: &mut S) -> Result<bool, Error> {
        self.ctl.projected = sys.project(self.t, &mut self.y).at(self.t)?;
        Ok(self.ctl.projected)
    }

    fn complete(&mut self, sys: &mut S) -> Result<(), Error> {
        if std::mem::take(&mut self.ctl.projected) {
            sys.rhs(self.t, &self.y, &mut self.k_fresh).at(self.t)?;
            self.info.rhs_evals += 1;
            self.ctl.fsal = Fsal::Fresh;
        }
        Ok(())
    }

    /// DOP853's extra stages of the dense output, when an output time falls
    /// inside the step.
    fn prepare_interpolation(&mut self, sys: &mut S) -> Result<(), Error> {
        self.prepare_dense(sys)
    }

    /// The continuous extension: `y(t + θh) = y + h Σ_s k_s Σ_m bi[s][m] θ^{m+1}`,
    /// or DOP853's `y + θ(F₀ + (1−θ)(F₁ + θ(F₂ + (1−θ)(F₃ + θ(F₄ + (1−θ)(F₅ +
    /// θF₆))))))` (`contd8` of `dop853.f`).
    fn interpolate(&mut self, ts: f64) -> &[f64] {
        let (t, h) = (self.ctl.t_prev, self.ctl.h);
        let theta = (ts - t) / h;
        match self.tab.dense {
            Dense::Polynomial(bis) => {
                // the stage weights h Σ_m bi[s][m] θ^{m+1} once per output time, then
                // one pass per stage over the state (the weights do not depend on i)
                self.y_out.copy_from_slice(&self.y_new);
                for (bi, k) in bis.iter().zip(&self.k) {
                    let mut p = 0.0;
                    for m in (0..bi.len()).rev() {
                        p = (p + bi[m]) * theta;
                    }
                    let w = h * p;
                    for (y, ki) in self.y_out.iter_mut().zip(k) {
                        *y += w * ki;
                    }
                }
            }
            Dense::Dop853 => {
                let (th, th1, f) = (theta, 1.0 - theta, &self.dense);
                for i in 0..self.n {
                    let mut p = f[5][i] + th * f[6][i];
                    p = f[4][i] + th1 * p;
                    p = f[3][i] + th * p;
                    p = f[2][i] + th1 * p;
                    p = f[1][i] + th * p;
                    p = f[0][i] + th1 * p;
                    self.y_out[i] = self.y_new[i] + th * p;
                }
            }
        }
        &self.y_out
    }

    fn t(&self) -> f64 {
        self.t
    }
    fn y(&self) -> &[f64] {
        &self.y
    }
    fn info(&self) -> Info {
        self.info
    }
    fn info_mut(&mut self) -> &mut Info {
        &mut self.info
    }
    fn schedule(&self) -> Schedule {
        Schedule {
            project_every: self.params.project_every,
            max_steps: self.params.max_steps,
        }
    }
    fn error_component(&self) -> Option<usize> {
        self.err_component
    }
}

/// `out = y + h Σ_j a_j k_j`, a stage argument (column-oriented axpys,
/// vectorisable; zero coefficients skipped).
fn stage_argument(out: &mut [f64], y: &[f64], h: f64, a: &[f64], k: &[Vec<f64>]) {
    out.copy_from_slice(y);
    for (&a, kj) in a.iter().zip(k) {
        if a != 0.0 {
            let c = h * a;
            for (o, ki) in out.iter_mut().zip(kj) {
                *o += c * ki;
            }
        }
    }
}

/// `out = scale Σ_s coef_s k_s` (zero coefficients skipped).
fn combine(out: &mut [f64], scale: f64, coef: &[f64], k: &[Vec<f64>]) {
    out.fill(0.0);
    for (&c, ks) in coef.iter().zip(k) {
        if c != 0.0 {
            let c = scale * c;
            for (o, ki) in out.iter_mut().zip(ks) {
                *o += c * ki;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The continuous extensions reproduce the step end point and the FSAL
    /// derivative: Σ_m bi[s][m] = b_s and Σ_m (m+1) bi[s][m] = δ_{s,last}.
    #[test]
    fn continuous_extensions_match_end_point() {
        for tab in [&DP45, &BS23] {
            let (Estimate::Embedded(e), Dense::Polynomial(bi)) = (&tab.estimate, &tab.dense) else {
                panic!("ode45/ode23 pairs have a polynomial extension");
            };
            let last = tab.c.len() - 1;
            for s in 0..tab.c.len() {
                let b = tab.a[last].get(s).copied().unwrap_or(0.0);
                let sum: f64 = bi[s].iter().sum();
                assert!((sum - b).abs() < 1e-14, "stage {s}: {sum} vs {b}");
                let der: f64 = bi[s]
                    .iter()
                    .enumerate()
                    .map(|(m, v)| (m + 1) as f64 * v)
                    .sum();
                let want = if s == last { 1.0 } else { 0.0 };
                assert!((der - want).abs() < 1e-13, "stage {s}: derivative {der}");
            }
            // Row sums of a equal c (consistency).
            for s in 1..tab.c.len() {
                let sum: f64 = tab.a[s].iter().sum();
                assert!((sum - tab.c[s]).abs() < 1e-14);
            }
            // Error coefficients sum to zero (both solutions consistent).
            assert!(e.iter().sum::<f64>().abs() < 1e-15);
        }
    }

    /// `Σ_s w_s c_s^q`.
    fn moment(w: &[f64], c: &[f64], q: i32) -> f64 {
        w.iter().zip(c).map(|(w, c)| w * c.powi(q)).sum()
    }

    /// DOP853's transcribed coefficients (Hairer–Nørsett–Wanner sec II.5):
    /// row sums equal the nodes (also of the extra stages), `b` satisfies the
    /// quadrature conditions `Σ b c^q = 1/(q+1)` of order 8, the embedded 5th-
    /// and 3rd-order solutions those of their orders (their differences with `b`,
    /// `E5` and `E3`, have vanishing moments `q < 5` and `q < 3`).
    #[test]
    fn dop853_coefficients_are_consistent() {
        let (c, a) = (&dop853::C, &dop853::A);
        for s in 1..c.len() {
            let sum: f64 = a[s].iter().sum();
            assert!((sum - c[s]).abs() < 1e-14, "row {s}: {sum} vs {}", c[s]);
        }
        for (row, &cs) in dop853::A_EXTRA.iter().zip(&dop853::C_EXTRA) {
            let sum: f64 = row.iter().sum();
            assert!((sum - cs).abs() < 1e-14, "extra stage: {sum} vs {cs}");
        }
        for q in 0..8 {
            let m = moment(&dop853::B, c, q);
            let want = 1.0 / f64::from(q + 1);
            assert!((m - want).abs() < 1e-14, "Σ b c^{q} = {m}, want {want}");
        }
        for q in 0..5 {
            let m = moment(&dop853::E5, c, q);
            assert!(m.abs() < 1e-14, "Σ E5 c^{q} = {m}");
        }
        for q in 0..3 {
            let m = moment(&dop853::E3, c, q);
            assert!(m.abs() < 1e-14, "Σ E3 c^{q} = {m}");
        }
        assert_eq!(a[c.len() - 1], &dop853::B[..]);
    }
}
