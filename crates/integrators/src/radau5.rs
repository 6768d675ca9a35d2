//! Radau IIA of order 5 with step-size control and dense output, after Hairer's
//! RADAU5 (Hairer & Wanner, *Solving ODEs II*, 2nd ed., sec IV.8; the code
//! `radau5.f`, subroutine `RADCOR`).
//!
//! The three-stage collocation method (nodes `c = (4−√6)/10, (4+√6)/10, 1`) for
//! the stage increments `Z = (z₁, z₂, z₃)`, `z_i = Y_i − y₀`,
//! `Z = h (A ⊗ I) F(Z)` (eq 8.2a), is solved by simplified Newton in the variables
//! `W = (T⁻¹ ⊗ I) Z`, which decouples the iteration matrix into one real and one
//! complex system (eqs 8.15–8.18):
//!
//! ```text
//! (γ/h I − J) ΔW₁ = (T⁻¹F)₁ − γ/h W₁
//! ((α + iβ)/h I − J) (ΔW₂ + iΔW₃) = (T⁻¹F)₂ + i(T⁻¹F)₃ − (α + iβ)/h (W₂ + iW₃)
//! ```
//!
//! with `γ, α ± iβ` the eigenvalues of `A⁻¹` and `T` its eigenvector matrix.
//! The pieces of `RADCOR`:
//!
//! * **starting values** (sec IV.8, "starting values"): the collocation polynomial
//!   of the last step, extrapolated, `z_i = u(x + c_i h) − y` (zero at the first
//!   step);
//! * **convergence monitoring** (eqs 8.10–8.13): the rate `θ_k = ‖ΔW_k‖/‖ΔW_{k−1}‖`
//!   (the geometric mean of the last two from the third iteration on); stop when
//!   `η ‖ΔW_k‖ ≤ κ·Tol` with `η = θ/(1−θ)` (`fnewt` below, RADAU5's
//!   `max(10 ε/rtol', min(0.03, √rtol'))`); `θ ≥ 0.99`, or more than `nit`
//!   iterations, or a predicted final correction above `fnewt`, rejects the step
//!   (halving it, or by `0.8 q^{−1/(4+nit−1−k)}` from the predicted error `q`);
//! * **Jacobian reuse**: a new Jacobian only when the last Newton iteration
//!   converged slowly (`θ > thet`, default 0.001) or a step failed with an old one;
//!   a finite-difference Jacobian that costs more right-hand sides than a step
//!   (more than [`COSTLY_JACOBIAN_RHS`](crate::COSTLY_JACOBIAN_RHS), a mechanism's dense one costs its state
//!   dimension) raises the threshold to `thet_costly` (default 0.1), RADAU5's
//!   own advice ("increase WORK(3), to 0.1 say, when Jacobian evaluations are
//!   costly");
//!   the LU factors are also kept when the new step is within
//!   `[quot1, quot2] · h` (default `[1, 1.2]`) of the old;
//! * **error estimate** (eqs 8.19–8.20): `err = (γ₀h)⁻¹`-filtered
//!   `(γ/h I − J)⁻¹ (f(x₀, y₀) + (e₁z₁ + e₂z₂ + e₃z₃)/h)`, measured in the
//!   root-mean-square norm with `sc = atol' + rtol' |y|`; after a rejected or at
//!   the first step, when `err ≥ 1`, once more with `f(x₀, y₀ + err)` (the
//!   "extra filtered evaluation" of `ESTRAD`);
//! * **step size**: `h_new = h · fac · err^{−1/4}` with `fac = min(0.9, 0.9 (2 nit +
//!   1)/(k + 2 nit))` bounded to `[h/5, 8h]`, and Gustafsson's predictive
//!   controller (Hairer–Wanner II, eq 8.25) after accepted steps;
//! * **dense output**: the collocation polynomial
//!   `u(x₁ + s h) = y₁ + s (c₁' + (s − c₂ + 1)(c₂' + (s − c₁ + 1) c₃'))` (`CONTR5`).
//!
//! **Mass matrix.** For `M y' = f(t, y)` with a constant, possibly singular `M`
//! ([`OdeSystem::mass_matrix`], module `mass`; Hairer–Wanner II sec VI.1 and
//! VII.8, RADAU5 with `IMAS = 1`) the identity becomes `M` throughout: the
//! matrices `γ/h M − J` and `(α + iβ)/h M − J` (`DECOMR`/`DECOMC`), the Newton
//! right-hand sides with `M W` (`SLVRAD`), the error estimate with
//! `M (e₁z₁ + e₂z₂ + e₃z₃)/h` (`ESTRAD`); the error scale of index-2 components
//! is divided by `|h|`, of index-3 components by `h²`; without `h0` the first
//! step is RADAU5's `1e-6`.
//!
//! Tolerances are converted as RADAU5 does: `rtol' = 0.1 rtol^{2/3}`,
//! `atol' = rtol' · atol/rtol`, so that the *global* error is about `rtol`
//! (Hairer–Wanner II, sec IV.8, "Step size selection").
//!
//! **Projection.** After the driver projects the state, `y` changes but the
//! collocation polynomial does not: the starting values of the next step are the
//! extrapolated *increments* `u(x + c_i h) − u(x)`, added to the projected state,
//! which stays a predictor of the same order; `f(x, y)` (needed by the error
//! estimate) and the error scale are re-evaluated at the projected state; the
//! Jacobian and its factors are kept (the projection moves `y` by about the
//! tolerance). The dense output interpolates the step as taken, before the
//! projection.

use crate::common::{EPS, all_finite, check_dim, direction, h_min, initial_step, positive, rms};
use crate::driver::drive;
use crate::error::{AtTime, Error};
use crate::mass::MassMatrix;
use crate::newton_matrix::{LinearSolver, Matrices, check_mass};
use crate::stepper::{Schedule, Step, Stepper};
use crate::system::{AbsTol, Info, Observer, OdeSystem};

/// The coefficients of Radau IIA (s = 3) in `RADCOR`'s form (digits as printed
/// in `radau5.f`).
#[allow(clippy::excessive_precision)]
mod coef {
    /// `√6`.
    const SQ6: f64 = 2.449_489_742_783_178;
    /// Nodes `c₁ = (4 − √6)/10`, `c₂ = (4 + √6)/10` (`c₃ = 1`).
    pub const C1: f64 = (4.0 - SQ6) / 10.0;
    pub const C2: f64 = (4.0 + SQ6) / 10.0;
    pub const C1M1: f64 = C1 - 1.0;
    pub const C2M1: f64 = C2 - 1.0;
    pub const C1MC2: f64 = C1 - C2;
    /// Error-estimate weights `e_i / γ₀` (`DD1..DD3`, Hairer–Wanner II eq 8.20).
    pub const DD1: f64 = -(13.0 + 7.0 * SQ6) / 3.0;
    pub const DD2: f64 = (-13.0 + 7.0 * SQ6) / 3.0;
    pub const DD3: f64 = -1.0 / 3.0;
    /// The eigenvector matrix `T` of `A⁻¹` and its inverse (`RADCOR`'s
    /// `T11 … TI33`).
    pub const T: [[f64; 3]; 3] = [
        [
            9.123_239_487_089_294_279_2e-2,
            -0.141_255_295_020_954_208_43,
            -3.002_919_410_514_742_449_2e-2,
        ],
        [
            0.241_717_932_707_107_018_96,
            0.204_129_352_293_799_931_99,
            0.382_942_112_757_261_937_79,
        ],
        [0.966_048_182_615_092_936_19, 1.0, 0.0],
    ];
    pub const TI: [[f64; 3]; 3] = [
        [
            4.325_579_890_063_155_351_0,
            0.339_199_251_815_809_869_54,
            0.541_770_539_935_874_871_19,
        ],
        [
            -4.178_718_591_551_904_727_3,
            -0.327_682_820_761_062_387_08,
            0.476_623_554_500_550_451_96,
        ],
        [
            -0.502_872_634_945_786_875_95,
            2.571_926_949_855_605_429_2,
            -0.596_039_204_828_224_924_97,
        ],
    ];
    /// The eigenvalues of `A⁻¹`: real `γ` (`U1`) and complex `α ± iβ`.
    pub fn eigenvalues() -> (f64, f64, f64) {
        let c81 = 81f64.cbrt();
        let c9 = 9f64.cbrt();
        let u1 = (6.0 + c81 - c9) / 30.0;
        let alph = (12.0 - c81 + c9) / 60.0;
        let beta = (c81 + c9) * 3f64.sqrt() / 60.0;
        let cno = alph * alph + beta * beta;
        (1.0 / u1, alph / cno, beta / cno)
    }
}

/// Parameters of [`Radau5`]. Defaults are RADAU5's.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Relative tolerance (default `1e-6`), converted to `0.1 rtol^{2/3}`
    /// (module documentation).
    pub rtol: f64,
    /// Absolute tolerance (default `1e-6`).
    pub atol: AbsTol,
    /// Initial step; `None`: estimated from `f(t₀, y₀)` (one extra right-hand side).
    pub h0: Option<f64>,
    /// Largest step; `None`: the span.
    pub h_max: Option<f64>,
    /// Maximum number of attempted steps.
    pub max_steps: usize,
    /// Call the projection hook every `project_every` accepted steps (`0`: never).
    pub project_every: usize,
    /// Newton iterations per step (`NIT`, default 7).
    pub max_newton: usize,
    /// Recompute the Jacobian after a step whose Newton rate `θ` exceeded `thet`
    /// (`THET`, default 0.001).
    pub thet: f64,
    /// `thet` when the last Jacobian cost more than [`COSTLY_JACOBIAN_RHS`](crate::COSTLY_JACOBIAN_RHS)
    /// right-hand sides (default 0.1; `thet` or below: RADAU5's policy).
    pub thet_costly: f64,
    /// Newton stopping tolerance; `None`: `max(10 ε/rtol', min(0.03, √rtol'))`.
    pub fnewt: Option<f64>,
    /// Keep the factors when the new step is within `[quot1, quot2]` times the
    /// old (`QUOT1`, `QUOT2`, default 1 and 1.2).
    pub quot1: f64,
    /// See `quot1`.
    pub quot2: f64,
    /// Safety factor of the step-size prediction (`SAFE`, default 0.9).
    pub safe: f64,
    /// Gustafsson's predictive step-size control (`PRED`, default on).
    pub predictive: bool,
    /// Dense or sparse factorization.
    pub linear_solver: LinearSolver,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            rtol: 1e-6,
            atol: AbsTol::Scalar(1e-6),
            h0: None,
            h_max: None,
            max_steps: 100_000,
            project_every: 1,
            max_newton: 7,
            thet: 0.001,
            thet_costly: 0.1,
            fnewt: None,
            quot1: 1.0,
            quot2: 1.2,
            safe: 0.9,
            predictive: true,
            linear_solver: LinearSolver::Auto,
        }
    }
}

impl Params {
    /// Hairer's RADAU5 as shipped (`WORK`/`IWORK` zero: `NIT = 7`, `THET =
    /// 0.001` whatever a Jacobian costs, `QUOT1/QUOT2 = 1/1.2`, `SAFE = 0.9`,
    /// Gustafsson's controller), dense LU as `DECSOL`, `rtol` and a scalar
    /// `atol`: the settings under which step, Jacobian and LU counts compare
    /// with the Fortran code's.
    pub fn fortran(rtol: f64, atol: f64) -> Self {
        Self {
            thet: 0.001,
            thet_costly: 0.0,
            max_newton: 7,
            quot1: 1.0,
            quot2: 1.2,
            safe: 0.9,
            predictive: true,
            linear_solver: LinearSolver::Dense,
            ..Self::with_tol(rtol, atol)
        }
    }

    /// Defaults with `rtol` and a scalar `atol`.
    pub fn with_tol(rtol: f64, atol: f64) -> Self {
        Self {
            rtol,
            atol: AbsTol::Scalar(atol),
            ..Self::default()
        }
    }
}

/// A finite-difference Jacobian that takes more right-hand sides than this is
/// "costly" ([`Params::thet_costly`]): a step takes 3 per Newton iteration, about
/// 6–12 in all.
pub const COSTLY_JACOBIAN_RHS: usize = 12;

/// What the next attempt does before its Newton iteration (`RADCOR`'s jumps to
/// labels 10, 20 and 30).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prepare {
    /// A new Jacobian at `(t, y)`, then new factors (label 10).
    Jacobian,
    /// New factors for the current `h` (label 20).
    Factor,
    /// Reuse the factors (label 30).
    Nothing,
}

/// Why the last attempt was rejected.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Failure {
    None,
    Newton { iterations: usize, correction: f64 },
    Error,
}

/// Step-size and Newton control state between attempts.
#[derive(Debug, Clone, Copy)]
struct Control {
    dir: f64,
    h: f64,
    h_max: f64,
    /// Step of the last accepted step (`HOLD`), and of the Gustafsson controller
    /// (`HACC`, `ERRACC`).
    h_old: f64,
    h_acc: f64,
    err_acc: f64,
    /// Newton rate of the last step (`THETA`) and `FACCON`.
    theta: f64,
    faccon: f64,
    fnewt: f64,
    first: bool,
    reject: bool,
    last: bool,
    /// The Jacobian was computed at the current `(t, y)` (`CALJAC`).
    caljac: bool,
    /// Right-hand sides the last Jacobian took (0: analytic).
    jacobian_rhs: usize,
    prepare: Prepare,
    /// Consecutive singular factorizations (`NSING`).
    singular: usize,
    failure: Failure,
    accepted: usize,
    /// The state was changed by a projection after the last step.
    projected: bool,
    /// `(γ, α, β)`.
    eig: (f64, f64, f64),
}

/// Radau IIA of order 5 (Hairer's RADAU5; module documentation).
///
/// All work space is allocated by [`new`](Self::new) (and, when a system declares
/// another Jacobian pattern than the last one, at [`Stepper::init`]); a step
/// allocates nothing (with the dense factorization).
#[derive(Debug)]
pub struct Radau5 {
    params: Params,
    n: usize,
    mats: Matrices,
    t: f64,
    y: Vec<f64>,
    /// `f(t, y)` (`Y0`).
    f0: Vec<f64>,
    z: [Vec<f64>; 3],
    /// The transformed stage increments `W` (`F1..F3`).
    w: [Vec<f64>; 3],
    /// Stage derivatives, then scratch.
    k: [Vec<f64>; 3],
    arg: Vec<f64>,
    /// `CONT`: the collocation polynomial of the last step.
    cont: [Vec<f64>; 4],
    scal: Vec<f64>,
    atol: Vec<f64>,
    rtol: f64,
    y_out: Vec<f64>,
    info: Info,
    err_component: Option<usize>,
    ctl: Control,
    /// The system's mass matrix (`None`: `M = I`; module `mass`).
    mass: Option<MassMatrix>,
    /// `M W` (with a mass matrix).
    mw: [Vec<f64>; 3],
}

impl Radau5 {
    /// An integrator for systems of dimension `n`.
    pub fn new(n: usize, params: Params) -> Self {
        let v = || vec![0.0; n];
        let mats = Matrices::new(n, params.linear_solver, true)
            .expect("dense matrices without a pattern cannot fail");
        Self {
            params,
            n,
            mats,
            t: 0.0,
            y: v(),
            f0: v(),
            z: [v(), v(), v()],
            w: [v(), v(), v()],
            k: [v(), v(), v()],
            arg: v(),
            cont: [v(), v(), v(), v()],
            scal: v(),
            atol: v(),
            rtol: 0.0,
            y_out: v(),
            info: Info::default(),
            err_component: None,
            ctl: Control {
                dir: 1.0,
                h: 0.0,
                h_max: 0.0,
                h_old: 0.0,
                h_acc: 0.0,
                err_acc: 0.0,
                theta: 0.0,
                faccon: 1.0,
                fnewt: 0.0,
                first: true,
                reject: false,
                last: false,
                caljac: false,
                jacobian_rhs: 0,
                prepare: Prepare::Jacobian,
                singular: 0,
                failure: Failure::None,
                accepted: 0,
                projected: false,
                eig: coef::eigenvalues(),
            },
            mass: None,
            mw: [v(), v(), v()],
        }
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
    /// Whether the Newton matrices are factored sparse (after `init`).
    pub fn is_sparse(&self) -> bool {
        self.mats.jac.is_sparse()
    }

    /// Integrate `y' = f(t, y)` from `(t0, y0)` to `t_end` with [`crate::drive`].
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

    /// `sc_i = atol'_i + rtol' |y_i|`.
    fn update_scale(&mut self) {
        for i in 0..self.n {
            self.scal[i] = self.atol[i] + self.rtol * self.y[i].abs();
        }
    }

    /// The error for a step that can no longer shrink: the Newton failure that
    /// made it collapse, or a step-size underflow.
    fn collapse(&self, h: f64) -> Error {
        let t = self.t;
        match self.ctl.failure {
            Failure::Newton {
                iterations,
                correction,
            } => Error::NewtonFailure {
                t,
                h,
                iterations,
                correction,
            },
            _ => Error::StepSizeUnderflow {
                t,
                h: h.abs(),
                h_min: h_min(t),
            },
        }
    }

    /// The new Jacobian and/or factors the attempt needs (labels 10 and 20);
    /// `false` after a singular matrix (the step is then halved).
    fn prepare<S: OdeSystem + ?Sized>(&mut self, sys: &mut S) -> Result<bool, Error> {
        if self.ctl.prepare == Prepare::Jacobian {
            let before = self.info.rhs_evals;
            self.mats
                .jac
                .evaluate(sys, self.t, &self.y, &self.f0, &mut self.info)?;
            self.ctl.jacobian_rhs = self.info.rhs_evals - before;
            self.ctl.caljac = true;
            self.ctl.prepare = Prepare::Factor;
        }
        if self.ctl.prepare == Prepare::Factor {
            let (g, a, b) = self.ctl.eig;
            let h = self.ctl.h;
            self.info.lu_decompositions += 1;
            let m = self.mass.as_ref();
            let ok = self.mats.real.factor_mass(&self.mats.jac, g / h, 1.0, m)
                && self
                    .mats
                    .complex
                    .as_mut()
                    .expect("RADAU5 keeps a complex matrix")
                    .factor_mass(&self.mats.jac, a / h, b / h, m);
            if !ok {
                return Ok(false);
            }
            self.ctl.singular = 0;
            self.ctl.prepare = Prepare::Nothing;
        }
        Ok(true)
    }

    /// Starting values `z_i = u(x + c_i h) − u(x)` from the last step's collocation
    /// polynomial (zero at the first step), and `W = T⁻¹ Z`.
    fn starting_values(&mut self) {
        if self.ctl.first {
            for v in self.z.iter_mut().chain(self.w.iter_mut()) {
                v.fill(0.0);
            }
            return;
        }
        let c3q = self.ctl.h / self.ctl.h_old;
        let cq = [coef::C1 * c3q, coef::C2 * c3q, c3q];
        let [c1, c2, c3] = &self.cont[1..] else {
            unreachable!()
        };
        for (z, &q) in self.z.iter_mut().zip(&cq) {
            for i in 0..self.n {
                z[i] = q * (c1[i] + (q - coef::C2M1) * (c2[i] + (q - coef::C1M1) * c3[i]));
            }
        }
        transform(&coef::TI, &self.z, &mut self.w, self.n);
    }

    /// Simplified Newton iteration (`RADCOR` after label 30). `Ok(Some(k))`:
    /// converged in `k` iterations; `Ok(None)`: rejected with `h` reduced.
    fn newton<S: OdeSystem + ?Sized>(&mut self, sys: &mut S) -> Result<Option<usize>, Error> {
        let n = self.n;
        let (g, a, b) = self.ctl.eig;
        let h = self.ctl.h;
        let (fac1, alphn, betan) = (g / h, a / h, b / h);
        let nit = self.params.max_newton;
        let fnewt = self.ctl.fnewt;
        self.ctl.faccon = self.ctl.faccon.max(EPS).powf(0.8);
        self.ctl.theta = self.params.thet.abs();
        let (mut dynold, mut thqold) = (0.0, 0.0);
        let mut newt = 0;
        let c = [coef::C1, coef::C2, 1.0];
        loop {
            if newt >= nit {
                return self.newton_failed(newt, f64::NAN);
            }
            for s in 0..3 {
                for i in 0..n {
                    self.arg[i] = self.y[i] + self.z[s][i];
                }
                let ts = self.t + c[s] * h;
                sys.rhs(ts, &self.arg, &mut self.k[s]).at(ts)?;
            }
            self.info.rhs_evals += 3;
            if !self.k.iter().all(|k| all_finite(k)) {
                return self.newton_failed(newt, f64::INFINITY);
            }
            // right-hand sides of the decoupled systems (`SLVRAD`; with `M W`
            // for a mass matrix, its `IJOB` 3 and 5)
            transform(&coef::TI, &self.k, &mut self.z, n);
            let w = match &self.mass {
                None => &self.w,
                Some(m) => {
                    for (w, mw) in self.w.iter().zip(&mut self.mw) {
                        m.apply(w, mw);
                    }
                    &self.mw
                }
            };
            for i in 0..n {
                let (w1, w2, w3) = (w[0][i], w[1][i], w[2][i]);
                self.z[0][i] -= w1 * fac1;
                self.z[1][i] += -w2 * alphn + w3 * betan;
                self.z[2][i] += -w3 * alphn - w2 * betan;
            }
            self.mats.real.solve(&mut self.z[0]);
            let [_, z2, z3] = &mut self.z;
            self.mats
                .complex
                .as_mut()
                .expect("RADAU5 keeps a complex matrix")
                .solve(z2, z3);
            newt += 1;
            self.info.newton_iterations += 1;
            let mut s = 0.0;
            for z in &self.z {
                for i in 0..n {
                    let q = z[i] / self.scal[i];
                    s += q * q;
                }
            }
            let dyno = (s / (3 * n).max(1) as f64).sqrt();
            if !dyno.is_finite() {
                return self.newton_failed(newt, dyno);
            }
            if newt > 1 && newt < nit {
                let thq = dyno / dynold;
                self.ctl.theta = if newt == 2 {
                    thq
                } else {
                    (thq * thqold).sqrt()
                };
                thqold = thq;
                let theta = self.ctl.theta;
                if theta < 0.99 {
                    self.ctl.faccon = theta / (1.0 - theta);
                    let left = (nit - 1 - newt) as i32;
                    let dyth = self.ctl.faccon * dyno * theta.powi(left) / fnewt;
                    if dyth >= 1.0 {
                        // convergence predicted too slow: a smaller step
                        let qnewt = dyth.clamp(1e-4, 20.0);
                        let hhfac = 0.8 * qnewt.powf(-1.0 / (4.0 + f64::from(left)));
                        self.ctl.failure = Failure::Newton {
                            iterations: newt,
                            correction: dyno,
                        };
                        self.reject_with(hhfac);
                        return Ok(None);
                    }
                } else {
                    return self.newton_failed(newt, dyno);
                }
            }
            dynold = dyno.max(EPS);
            for s in 0..3 {
                for i in 0..n {
                    self.w[s][i] += self.z[s][i];
                }
            }
            transform(&coef::T, &self.w, &mut self.z, n);
            if self.ctl.faccon * dyno <= fnewt {
                return Ok(Some(newt));
            }
        }
    }

    /// An unexpected step rejection (label 78): halve the step.
    fn newton_failed(
        &mut self,
        iterations: usize,
        correction: f64,
    ) -> Result<Option<usize>, Error> {
        self.ctl.failure = Failure::Newton {
            iterations,
            correction,
        };
        self.reject_with(0.5);
        Ok(None)
    }

    /// Reject the attempt and retry with `h · factor`: new factors, and a new
    /// Jacobian unless the present one is fresh.
    fn reject_with(&mut self, factor: f64) {
        self.info.rejected_steps += 1;
        let c = &mut self.ctl;
        c.h *= factor;
        c.reject = true;
        c.last = false;
        c.prepare = if c.caljac {
            Prepare::Factor
        } else {
            Prepare::Jacobian
        };
    }

    /// The filtered error estimate (`ESTRAD`, Hairer–Wanner II eqs 8.19–8.20),
    /// weighted RMS; records the largest component. With a mass matrix the
    /// filtered quantity is `(γ/h M − J)⁻¹ (f(x₀, y₀) + M (e₁z₁ + e₂z₂ + e₃z₃)/h)`
    /// (`ESTRAD`, `IJOB` 3 and 5).
    fn error_estimate<S: OdeSystem + ?Sized>(&mut self, sys: &mut S) -> Result<f64, Error> {
        let n = self.n;
        let h = self.ctl.h;
        let (hee1, hee2, hee3) = (coef::DD1 / h, coef::DD2 / h, coef::DD3 / h);
        let [e, f2, f1] = &mut self.k;
        match &self.mass {
            None => {
                for i in 0..n {
                    f2[i] = hee1 * self.z[0][i] + hee2 * self.z[1][i] + hee3 * self.z[2][i];
                    e[i] = f2[i] + self.f0[i];
                }
            }
            Some(m) => {
                for i in 0..n {
                    f1[i] = hee1 * self.z[0][i] + hee2 * self.z[1][i] + hee3 * self.z[2][i];
                }
                m.apply(f1, f2);
                for i in 0..n {
                    e[i] = f2[i] + self.f0[i];
                }
            }
        }
        self.mats.real.solve(e);
        let mut err = rms(e, &self.scal).max(1e-10);
        if err >= 1.0 && (self.ctl.first || self.ctl.reject) {
            for i in 0..n {
                self.arg[i] = self.y[i] + e[i];
            }
            sys.rhs(self.t, &self.arg, f1).at(self.t)?;
            self.info.rhs_evals += 1;
            for i in 0..n {
                e[i] = f1[i] + f2[i];
            }
            self.mats.real.solve(e);
            err = rms(e, &self.scal).max(1e-10);
        }
        let e = &self.k[0];
        let worst = (0..n).max_by(|&a, &b| {
            (e[a] / self.scal[a])
                .abs()
                .total_cmp(&(e[b] / self.scal[b]).abs())
        });
        self.err_component = worst;
        Ok(if err.is_finite() { err } else { f64::INFINITY })
    }

    /// Accept the step: new state, collocation polynomial, step-size and
    /// Jacobian/LU decision (`RADCOR` after "step is accepted").
    fn accept(&mut self, mut quot: f64, err: f64, t_end: f64) -> Step {
        let n = self.n;
        let p = &self.params;
        let (facr, facl) = (1.0 / 8.0, 5.0);
        let c = &mut self.ctl;
        c.first = false;
        c.accepted += 1;
        self.info.accepted_steps += 1;
        let h = c.h;
        if p.predictive {
            if c.accepted > 1 {
                let facgus =
                    ((c.h_acc / h) * (err * err / c.err_acc).powf(0.25) / p.safe).clamp(facr, facl);
                quot = quot.max(facgus);
            }
            c.h_acc = h;
            c.err_acc = err.max(1e-2);
        }
        let mut hnew = h / quot;
        c.h_old = h;
        let last = c.last;
        self.t = if last { t_end } else { self.t + h };
        for i in 0..n {
            let (z1, z2, z3) = (self.z[0][i], self.z[1][i], self.z[2][i]);
            self.y[i] += z3;
            let c1 = (z2 - z3) / coef::C2M1;
            let ak = (z1 - z2) / coef::C1MC2;
            let acont3 = (ak - z1 / coef::C1) / coef::C2;
            let c2 = (ak - c1) / coef::C1M1;
            self.cont[0][i] = self.y[i];
            self.cont[1][i] = c1;
            self.cont[2][i] = c2;
            self.cont[3][i] = c2 - acont3;
        }
        c.caljac = false;
        c.failure = Failure::None;
        hnew = c.dir * hnew.abs().min(c.h_max);
        if c.reject {
            hnew = c.dir * hnew.abs().min(h.abs());
        }
        c.reject = false;
        let thet = if c.jacobian_rhs > COSTLY_JACOBIAN_RHS {
            p.thet.max(p.thet_costly)
        } else {
            p.thet
        };
        let refactor_only = c.theta <= thet;
        // RADAU5's test `x + hnew/quot1 ≥ xend`, with the 1e-4 slack of its first
        // step: a step that ends within round-off of `t_end` is the last (else a
        // step of a few ε would follow)
        if (self.t + 1.0001 * hnew / p.quot1 - t_end) * c.dir >= 0.0 {
            c.h = t_end - self.t;
            c.last = true;
        } else {
            let qt = hnew / h;
            if refactor_only && qt >= p.quot1 && qt <= p.quot2 {
                c.prepare = Prepare::Nothing;
                return Step::Accepted { last };
            }
            c.h = hnew;
        }
        c.prepare = if refactor_only {
            Prepare::Factor
        } else {
            Prepare::Jacobian
        };
        Step::Accepted { last }
    }
}

/// `out_r = Σ_s m[r][s] v_s` for the 3×3 transformations `T`, `T⁻¹`.
fn transform(m: &[[f64; 3]; 3], v: &[Vec<f64>; 3], out: &mut [Vec<f64>; 3], n: usize) {
    for (r, o) in out.iter_mut().enumerate() {
        let [a, b, c] = m[r];
        for i in 0..n {
            o[i] = a * v[0][i] + b * v[1][i] + c * v[2][i];
        }
    }
}

impl<S: OdeSystem + ?Sized> Stepper<S> for Radau5 {
    fn init(&mut self, sys: &S, t0: f64, y0: &[f64]) -> Result<(), Error> {
        let n = self.n;
        check_dim("y0", y0.len(), n)?;
        check_dim("system dimension", sys.dim(), n)?;
        let p = &self.params;
        p.atol.validate(n)?;
        if !positive(p.rtol) {
            return Err(Error::InvalidInput(format!(
                "radau5: rtol must be positive and finite, got {}",
                p.rtol
            )));
        }
        if !all_finite(y0) {
            let i = y0.iter().position(|v| !v.is_finite()).unwrap_or(0);
            return Err(Error::InvalidInput(format!(
                "radau5: y0[{i}] = {} is not finite",
                y0[i]
            )));
        }
        if p.max_newton < 2 {
            return Err(Error::InvalidInput(format!(
                "radau5: max_newton must be at least 2, got {}",
                p.max_newton
            )));
        }
        for (what, v) in [("h0", p.h0), ("h_max", p.h_max)] {
            if let Some(v) = v
                && !positive(v)
            {
                return Err(Error::InvalidInput(format!(
                    "radau5: {what} must be positive and finite, got {v}"
                )));
            }
        }
        if !(p.quot1 <= 1.0 && p.quot2 >= 1.0 && positive(p.safe) && p.safe < 1.0) {
            return Err(Error::InvalidInput(format!(
                "radau5: need quot1 ≤ 1 ≤ quot2 and 0 < safe < 1, got {}, {}, {}",
                p.quot1, p.quot2, p.safe
            )));
        }
        let rtol = p.rtol.max(100.0 * EPS);
        // RADAU5's conversion of the tolerances
        let rtol_c = 0.1 * rtol.powf(2.0 / 3.0);
        for i in 0..n {
            self.atol[i] = rtol_c * p.atol.get(i) / rtol;
        }
        self.rtol = rtol_c;
        let fnewt = p
            .fnewt
            .unwrap_or_else(|| (10.0 * EPS / rtol_c).max(0.03f64.min(rtol_c.sqrt())));
        let atol = p.atol.clone();
        self.mats.adapt(sys)?;
        match (sys.mass_matrix(), &mut self.mass) {
            (None, mass) => *mass = None,
            (Some(m), mass) => {
                m.validate("radau5", n)?;
                check_mass(&self.mats.jac, m)?;
                match mass {
                    Some(mine) => mine.clone_from(m),
                    None => *mass = Some(m.clone()),
                }
            }
        }
        self.mats.jac.set_threshold(|j| atol.get(j) / rtol);
        self.ctl = Control {
            fnewt,
            first: true,
            reject: false,
            last: false,
            caljac: false,
            jacobian_rhs: 0,
            prepare: Prepare::Jacobian,
            singular: 0,
            failure: Failure::None,
            accepted: 0,
            projected: false,
            faccon: 1.0,
            theta: self.params.thet,
            ..self.ctl
        };
        self.info = Info::default();
        self.err_component = None;
        self.t = t0;
        self.y.copy_from_slice(y0);
        self.update_scale();
        Ok(())
    }

    fn start(&mut self, sys: &mut S, t_end: f64) -> Result<(), Error> {
        let t0 = self.t;
        let span = (t_end - t0).abs();
        let dir = direction(t0, t_end);
        self.ctl.dir = dir;
        self.ctl.h_max = self.params.h_max.unwrap_or(span).min(span);
        sys.rhs(t0, &self.y, &mut self.f0).at(t0)?;
        self.info.rhs_evals += 1;
        if !all_finite(&self.f0) {
            return Err(Error::NonFinite { t: t0 });
        }
        let absh = match self.params.h0 {
            Some(h) => h.min(self.ctl.h_max),
            // RADAU5's default `H = 1e-6`: `f` alone says nothing about the
            // step of a DAE
            None if self.mass.is_some() => 1e-6f64.min(self.ctl.h_max),
            None => {
                let [y1, f1, sc] = &mut self.k;
                for i in 0..self.n {
                    sc[i] = self.params.atol.get(i) + self.params.rtol * self.y[i].abs();
                }
                self.info.rhs_evals += 1;
                // the error estimate is of order 3 (SciPy's Radau)
                initial_step(
                    sys,
                    (t0, &self.y, &self.f0),
                    dir,
                    self.ctl.h_max,
                    3,
                    sc,
                    (y1, f1),
                )?
            }
        };
        let mut h = dir * absh.max(h_min(t0));
        if (t0 + h * 1.0001 - t_end) * dir >= 0.0 {
            h = t_end - t0;
            self.ctl.last = true;
        }
        self.ctl.h = h;
        self.ctl.h_old = h;
        Ok(())
    }

    fn step(&mut self, sys: &mut S, t_end: f64) -> Result<Step, Error> {
        let h = self.ctl.h;
        if 0.1 * h.abs() <= self.t.abs() * EPS || h.abs() < h_min(self.t) || !h.is_finite() {
            return Err(self.collapse(h));
        }
        if !self.prepare(sys)? {
            // a singular iteration matrix: halve the step (label 78)
            self.ctl.singular += 1;
            if self.ctl.singular >= 5 {
                return Err(Error::SingularMatrix { t: self.t, h });
            }
            self.reject_with(0.5);
            self.ctl.prepare = Prepare::Factor;
            return Ok(Step::Rejected);
        }
        if let Some(index) = self.mass.as_ref().map(|m| m.index) {
            // the error scale of index-2 and -3 components for this `h`
            self.update_scale();
            index.scale(h, &mut self.scal);
        }
        self.starting_values();
        let Some(newt) = self.newton(sys)? else {
            return Ok(Step::Rejected);
        };
        let err = self.error_estimate(sys)?;
        let p = &self.params;
        let nit = p.max_newton as f64;
        let cfac = p.safe * (1.0 + 2.0 * nit);
        let fac = p.safe.min(cfac / (newt as f64 + 2.0 * nit));
        let quot = (err.powf(0.25) / fac).clamp(1.0 / 8.0, 5.0);
        if err < 1.0 {
            return Ok(self.accept(quot, err, t_end));
        }
        // step rejected by the error test
        self.ctl.failure = Failure::Error;
        let factor = if self.ctl.first { 0.1 } else { 1.0 / quot };
        self.reject_with(factor);
        Ok(Step::Rejected)
    }

    fn project(&mut self, sys: &mut S) -> Result<bool, Error> {
        self.ctl.projected = sys.project(self.t, &mut self.y).at(self.t)?;
        Ok(self.ctl.projected)
    }

    /// `f(t, y)` at the new (possibly projected) state, and the error scale.
    fn complete(&mut self, sys: &mut S) -> Result<(), Error> {
        self.ctl.projected = false;
        sys.rhs(self.t, &self.y, &mut self.f0).at(self.t)?;
        self.info.rhs_evals += 1;
        if !all_finite(&self.f0) {
            return Err(Error::NonFinite { t: self.t });
        }
        self.update_scale();
        Ok(())
    }

    /// The collocation polynomial of the last step (`CONTR5`).
    fn interpolate(&mut self, t: f64) -> &[f64] {
        let s = (t - self.t) / self.ctl.h_old;
        let [c0, c1, c2, c3] = &self.cont;
        for i in 0..self.n {
            self.y_out[i] =
                c0[i] + s * (c1[i] + (s - coef::C2M1) * (c2[i] + (s - coef::C1M1) * c3[i]));
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

#[cfg(test)]
mod tests {
    use super::coef::*;

    /// The Radau IIA (s = 3) matrix `A` (Hairer–Wanner II, Table 5.6).
    fn a() -> [[f64; 3]; 3] {
        let s6 = 6f64.sqrt();
        [
            [
                (88.0 - 7.0 * s6) / 360.0,
                (296.0 - 169.0 * s6) / 1800.0,
                (-2.0 + 3.0 * s6) / 225.0,
            ],
            [
                (296.0 + 169.0 * s6) / 1800.0,
                (88.0 + 7.0 * s6) / 360.0,
                (-2.0 - 3.0 * s6) / 225.0,
            ],
            [(16.0 - s6) / 36.0, (16.0 + s6) / 36.0, 1.0 / 9.0],
        ]
    }

    fn mul(x: &[[f64; 3]; 3], y: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
        let mut r = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                r[i][j] = (0..3).map(|k| x[i][k] * y[k][j]).sum();
            }
        }
        r
    }

    /// `T⁻¹ T = I` and `T⁻¹ A⁻¹ T = [[γ, 0, 0], [0, α, −β], [0, β, α]]`
    /// (Hairer–Wanner II eq 8.16), checked as `A T Λ = T` against the tableau.
    #[test]
    fn transformation_diagonalises_a_inverse() {
        let id = mul(&TI, &T);
        for i in 0..3 {
            for j in 0..3 {
                let want = if i == j { 1.0 } else { 0.0 };
                assert!(
                    (id[i][j] - want).abs() < 1e-14,
                    "T⁻¹T[{i}][{j}] = {}",
                    id[i][j]
                );
            }
        }
        let (g, al, be) = eigenvalues();
        let lam = [[g, 0.0, 0.0], [0.0, al, -be], [0.0, be, al]];
        let lhs = mul(&mul(&a(), &T), &lam);
        for i in 0..3 {
            for j in 0..3 {
                assert!((lhs[i][j] - T[i][j]).abs() < 1e-13, "A T Λ [{i}][{j}]");
            }
        }
        // the nodes are the row sums of A
        let c = [C1, C2, 1.0];
        for (i, row) in a().iter().enumerate() {
            assert!((row.iter().sum::<f64>() - c[i]).abs() < 1e-15);
        }
    }
}
