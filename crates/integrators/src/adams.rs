//! Variable-step, variable-order Adams–Bashforth–Moulton PECE, orders 1–12,
//! after Shampine & Gordon's DE/STEP (*Computer Solution of Ordinary
//! Differential Equations: the Initial Value Problem*, Freeman 1975) as used
//! by MATLAB's `ode113` (Shampine & Reichelt 1997, sec 4).
//!
//! Modified divided differences (Hairer–Nørsett–Wanner I, sec III.5):
//!
//! ```text
//! ψ_i(n+1) = t_{n+1} − t_{n+1−i}                      (psi, i ≥ 1)
//! β_j(n)   = Π_{i=0}^{j−1} ψ_{i+1}(n+1) / ψ_{i+1}(n)   (beta)
//! Φ_0(n) = f_n,   Φ_{j+1}(n+1) = Φ_j(n+1) − β_j(n) Φ_j(n)
//! g_j(n) = c_{j,1},  c_{0,q} = 1/q,  c_{j,q} = c_{j−1,q} − c_{j−1,q+1} h/ψ_j(n+1)
//! ```
//!
//! A step of order `k`: predict `p = y_n + h Σ_{j<k} g_j β_j Φ_j(n)` (Adams–
//! Bashforth of order k), evaluate `f(t_{n+1}, p)`, correct
//! `y_{n+1} = p + h g_k Φ^p_k(n+1)` with `Φ^p_k = f(p) − Σ_{j<k} β_j Φ_j`
//! (Adams–Moulton of order k+1: local extrapolation), evaluate
//! `f(t_{n+1}, y_{n+1})`. The local error of the order-k corrector,
//! `err = h (g_{k−1} − g_k) ‖Φ^p_k‖`, must satisfy `err ≤ 1` in the weighted
//! max norm with weights `max(rtol |y_n,i|, atol_i)`.
//!
//! Order and step selection follow STEP: estimates `erk_{m} = h σ_{m+1}
//! |γ*_m| ‖Φ^p_m‖` at orders k−2, k−1, k, (k+1 after `k+1` equal steps),
//! lower the order when `max(erk_{k−1}, erk_{k−2}) ≤ erk_k`, raise it when
//! `erk_{k+1} < erk_k`; double the step if `erk ≤ ½ · 2^{−(k+1)}`, else keep it
//! if `erk ≤ ½`, else shrink by `max(0.5, min(0.9, (½/erk)^{1/(k+1)}))`. On a
//! failure the step halves (and after three failures drops to order 1 with
//! `h·√(½/erk)`). A start phase doubles the step and raises the order after
//! every step until the first failure or order reduction. `γ*_m` are the
//! Adams–Moulton error constants (`γ*_0 = 1`, `Σ_{i=0}^{m} γ*_i / (m+1−i) = 0`).
//!
//! Dense output is STEP's companion `INTRP`: the Adams interpolating polynomial
//! through the last `k+1` derivatives, integrated from `t_{n+1}`.
//!
//! With [`Params::fixed`] the method runs at constant step and order `k`
//! (order of convergence `k+1`), started by Dormand–Prince steps (4 sub-steps
//! per step).

use crate::common::{
    all_finite, check_dim, direction, h_min, hermite, no_mass_matrix, positive, step_toward_end,
};
use crate::driver::drive;
use crate::error::{AtTime, Error};
use crate::rk::{self, EmbeddedRk};
use crate::stepper::{Schedule, Step, Stepper};
use crate::system::{AbsTol, Info, Observer, OdeSystem};

/// Highest order.
pub const MAX_ORDER: usize = 12;

/// Parameters of [`Adams`]. Tolerance defaults as in MATLAB.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Relative tolerance (default `1e-3`).
    pub rtol: f64,
    /// Absolute tolerance (default `1e-6`).
    pub atol: AbsTol,
    /// Highest order (1–12, default 12).
    pub max_order: usize,
    /// Initial step (default as `ode113.m`: `¼ √rtol / ‖f₀ / max(|y₀|, atol/rtol)‖∞`).
    pub h0: Option<f64>,
    /// Largest step (default `|t_end − t0| / 10`).
    pub h_max: Option<f64>,
    /// Fixed step and order `(h, k)`: no error control (method of order `k+1`).
    pub fixed: Option<(f64, usize)>,
    /// Maximum number of steps (accepted + rejected).
    pub max_steps: usize,
    /// Call the projection hook every `project_every` accepted steps (`0`: never).
    pub project_every: usize,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            rtol: 1e-3,
            atol: AbsTol::Scalar(1e-6),
            max_order: MAX_ORDER,
            h0: None,
            h_max: None,
            fixed: None,
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
}

/// Variable-step, variable-order Adams–Bashforth–Moulton integrator
/// (`ode113`-like). A step allocates nothing.
#[derive(Debug, Clone)]
pub struct Adams {
    params: Params,
    n: usize,
    /// `Φ_j`, `j = 0..=MAX_ORDER+1`.
    phi: Vec<Vec<f64>>,
    y: Vec<f64>,
    p: Vec<f64>,
    fp: Vec<f64>,
    /// `Σ_{j<k} β_j Φ_j` (predicted derivative).
    sum: Vec<f64>,
    wt: Vec<f64>,
    y_out: Vec<f64>,
    /// `ψ_i` of the last accepted step (1-based, index 0 unused = 0).
    psi: [f64; MAX_ORDER + 2],
    psi_new: [f64; MAX_ORDER + 2],
    beta: [f64; MAX_ORDER + 2],
    /// `σ_i`, 1-based as in STEP.
    sig: [f64; MAX_ORDER + 3],
    g: [f64; MAX_ORDER + 2],
    c: [f64; MAX_ORDER + 3],
    gstar: [f64; MAX_ORDER + 3],
    w: [f64; MAX_ORDER + 3],
    kold: usize,
    t: f64,
    info: Info,
    /// State component with the largest weighted error in the last error test.
    err_component: Option<usize>,
    starter: EmbeddedRk,
    /// Step, order and start-phase state of the current run.
    ctl: Control,
}

/// Step, order and start-phase state of [`Adams`] between attempts.
#[derive(Debug, Clone, Default)]
struct Control {
    /// `rtol`, raised to `100 ε`.
    rtol: f64,
    h_max: f64,
    dir: f64,
    /// Order and `|h|` of the next attempt.
    k: usize,
    absh: f64,
    /// STEP's start phase: double the step and raise the order after every step.
    phase1: bool,
    /// Steps taken at constant size (STEP's `ns`).
    ns: usize,
    h_old: f64,
    /// Consecutive failures of the current step.
    ifail: usize,
    /// Error estimates of the last attempt at orders k, k−1, k−2, and the order
    /// the lowering test chose.
    erk: f64,
    erkm1: f64,
    erkm2: f64,
    knew: usize,
    /// Fixed-step start: Dormand–Prince steps still to take, their number and
    /// their (signed) size.
    starter_left: usize,
    starter_m: usize,
    starter_h: f64,
    /// The last step was a starter step (Hermite dense output from `t_prev`).
    hermite: bool,
    t_prev: f64,
}

impl Adams {
    /// An integrator for systems of dimension `n`.
    pub fn new(n: usize, params: Params) -> Self {
        // Adams–Moulton error constants γ*_m: Σ_{i=0}^{m} γ*_i/(m+1−i) = 0.
        let mut gamma = [0.0; MAX_ORDER + 3];
        gamma[0] = 1.0;
        for m in 1..gamma.len() {
            let mut s = 0.0;
            for i in 0..m {
                s += gamma[i] / (m + 1 - i) as f64;
            }
            gamma[m] = -s;
        }
        let gstar = gamma.map(f64::abs);
        let mut sp = rk::Params::fixed(1.0);
        sp.project_every = 0;
        Self {
            params,
            n,
            phi: vec![vec![0.0; n]; MAX_ORDER + 2],
            y: vec![0.0; n],
            p: vec![0.0; n],
            fp: vec![0.0; n],
            sum: vec![0.0; n],
            wt: vec![0.0; n],
            y_out: vec![0.0; n],
            psi: [0.0; MAX_ORDER + 2],
            psi_new: [0.0; MAX_ORDER + 2],
            beta: [1.0; MAX_ORDER + 2],
            sig: [1.0; MAX_ORDER + 3],
            g: [0.0; MAX_ORDER + 2],
            c: [0.0; MAX_ORDER + 3],
            gstar,
            w: [0.0; MAX_ORDER + 3],
            kold: 0,
            t: 0.0,
            info: Info::default(),
            err_component: None,
            starter: EmbeddedRk::rk45(n, sp),
            ctl: Control::default(),
        }
    }
    /// Time of the last accepted state.
    pub fn t(&self) -> f64 {
        self.t
    }
    /// Last accepted state (also after an error).
    pub fn y(&self) -> &[f64] {
        &self.y
    }
    /// Statistics.
    pub fn info(&self) -> Info {
        self.info
    }
    /// The state component whose weighted error was largest in the last error test
    /// (the one that limits the step; after [`Error::StepSizeUnderflow`] the one that
    /// made the step collapse). `None` before the first test.
    pub fn error_component(&self) -> Option<usize> {
        self.err_component
    }
    /// Order used in the last accepted step.
    pub fn last_order(&self) -> usize {
        self.kold
    }

    /// Coefficients for a step of size `h` and order `k` from the history
    /// `psi`: `psi_new`, `beta_j` (j < k; β_k set to 1 as in STEP), `sig`,
    /// `g_j` (j ≤ k).
    fn coefficients(&mut self, h: f64, k: usize) {
        self.psi_new[0] = 0.0;
        for i in 1..=MAX_ORDER + 1 {
            self.psi_new[i] = h + self.psi[i - 1];
        }
        self.beta[0] = 1.0;
        for j in 1..k {
            self.beta[j] = self.beta[j - 1] * self.psi_new[j] / self.psi[j];
        }
        self.beta[k] = 1.0;
        self.sig[1] = 1.0;
        for i in 1..=k + 1 {
            let alpha = h / self.psi_new[i];
            self.sig[i + 1] = i as f64 * alpha * self.sig[i];
        }
        // c_{0,q} = 1/q; c_{j,q} = c_{j−1,q} − c_{j−1,q+1} h/ψ_j; g_j = c_{j,1}.
        let qmax = k + 2;
        for q in 1..=qmax {
            self.c[q] = 1.0 / q as f64;
        }
        self.g[0] = 1.0;
        for j in 1..=k {
            let r = h / self.psi_new[j];
            for q in 1..=qmax - j {
                self.c[q] -= self.c[q + 1] * r;
            }
            self.g[j] = self.c[1];
        }
    }

    /// STEP's `INTRP`: the solution at `ts` from the state after the last step.
    fn intrp(&mut self, ts: f64) {
        let hi = ts - self.t;
        let ki = self.kold + 1;
        for i in 0..=ki {
            self.w[i] = 1.0 / (i + 1) as f64;
        }
        let mut gi = [0.0; MAX_ORDER + 2];
        gi[0] = 1.0;
        let mut term = 0.0;
        for j in 1..ki {
            let psi = self.psi[j];
            let gamma = (hi + term) / psi;
            let eta = hi / psi;
            for i in 0..ki - j {
                self.w[i] = gamma * self.w[i] - eta * self.w[i + 1];
            }
            gi[j] = self.w[0];
            term = psi;
        }
        for i in 0..self.n {
            let mut acc = 0.0;
            for j in (0..ki).rev() {
                acc += gi[j] * self.phi[j][i];
            }
            self.y_out[i] = self.y[i] + hi * acc;
        }
    }

    /// Integrate `y' = f(t, y)` from `(t0, y0)` to `t_end` with [`crate::drive`];
    /// see [`EmbeddedRk::integrate`] for `t_out` and the observer.
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

    /// The first step as `ode113.m`: `rh = 4 √rtol ‖f₀ / max(rtol|y₀|, atol)‖∞`,
    /// `h = min(h_max, 1/rh)`.
    fn initial_step(&self) -> f64 {
        let rtol = self.ctl.rtol;
        let mut s: f64 = 0.0;
        for i in 0..self.n {
            let wt = (rtol * self.y[i].abs())
                .max(self.params.atol.get(i))
                .max(f64::MIN_POSITIVE);
            s = s.max((self.phi[0][i] / wt).abs());
        }
        let rh = 4.0 * rtol.sqrt() * s;
        let mut absh = self.ctl.h_max;
        if absh * rh > 1.0 {
            absh = 1.0 / rh;
        }
        absh.max(h_min(self.t))
    }

    /// Fixed step `hf` and order `kf`: up to `kf − 1` Dormand–Prince starter steps
    /// (4 sub-steps each) build `f_{k−1}, …, f_0` at constant step.
    fn plan_fixed_start(&mut self, hf: f64, kf: usize, span: f64) {
        let c = &mut self.ctl;
        c.absh = hf;
        c.k = kf;
        let nstart = (kf - 1).min(((span / hf) as usize).saturating_sub(1));
        if nstart > 0 {
            (c.starter_left, c.starter_m, c.starter_h) = (nstart, nstart, hf * c.dir);
            c.k = nstart + 1;
            self.starter.params_mut().fixed_step = Some(hf / 4.0);
            self.starter.params_mut().project_every = 0;
        }
        c.ns = MAX_ORDER + 2;
        c.h_old = c.dir * hf;
    }

    /// One starter step from `(t, y)` to `t + h`, collecting `f` there (the
    /// history newest first); after the last one the history becomes the
    /// backward differences `Φ_j = ∇^j f` with `ψ_i = i h`.
    fn starter_step<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        t_end: f64,
    ) -> Result<Step, Error> {
        let (t, h) = (self.t, self.ctl.starter_h);
        let t_new = t + h;
        let info = self
            .starter
            .integrate(sys, t, &self.y, t_new, &[], &mut ())?;
        self.info.rhs_evals += info.rhs_evals;
        // Keep (y_n, f_n) for output, then shift the f history:
        // phi[j+1] = phi[j] (newest first).
        self.p.copy_from_slice(&self.y);
        self.fp.copy_from_slice(&self.phi[0]);
        self.y.copy_from_slice(self.starter.y());
        self.t = t_new;
        self.info.accepted_steps += 1;
        let step = self.ctl.starter_m - self.ctl.starter_left;
        for j in (0..=step).rev() {
            let (a, b) = self.phi.split_at_mut(j + 1);
            b[0].copy_from_slice(&a[j]);
        }
        sys.rhs(t_new, &self.y, &mut self.phi[0]).at(t_new)?;
        self.info.rhs_evals += 1;
        (self.ctl.hermite, self.ctl.t_prev) = (true, t);
        self.ctl.starter_left -= 1;
        if self.ctl.starter_left == 0 {
            self.backward_differences(h, self.ctl.starter_m);
        }
        Ok(Step::Starter {
            last: t_new == t_end,
        })
    }

    /// The history `f_m, …, f_0` in place into `Φ_j = ∇^j f_m`, `ψ_i = i h`.
    fn backward_differences(&mut self, h: f64, m: usize) {
        for j in 1..=m {
            for l in (j..=m).rev() {
                let (a, b) = self.phi.split_at_mut(l);
                for i in 0..self.n {
                    b[0][i] = a[l - 1][i] - b[0][i];
                }
            }
        }
        for i in 1..self.psi.len() {
            self.psi[i] = i as f64 * h;
        }
        self.kold = m;
    }

    /// One PECE attempt at order `k` (STEP blocks 1–3): predict, evaluate,
    /// estimate; on success correct `y = p + h g_k Φ^p_k`.
    fn attempt<S: OdeSystem + ?Sized>(&mut self, sys: &mut S, t_end: f64) -> Result<Step, Error> {
        let t = self.t;
        let hmin = h_min(t);
        let fixed = self.params.fixed.is_some();
        let c = &mut self.ctl;
        let adaptive = (!fixed).then_some((hmin, c.h_max));
        let last = step_toward_end(&mut c.absh, (t_end - t).abs(), adaptive);
        let (k, h) = (c.k, c.dir * c.absh);
        let t_new = if last { t_end } else { t + h };
        // STEP block 1: number of steps at constant size.
        if h != c.h_old {
            c.ns = 0;
        }
        if c.ns <= self.kold {
            c.ns += 1;
        }
        self.coefficients(h, k);
        self.predict(h, k);
        sys.rhs(t_new, &self.p, &mut self.fp).at(t_new)?;
        self.info.rhs_evals += 1;
        let (err, finite) = self.estimate_errors(k);
        if self.params.fixed.is_none() && !(finite && err <= 1.0) {
            return self.reject(hmin, finite);
        }
        if !finite {
            return Err(Error::NonFinite { t });
        }
        (self.ctl.ifail, self.ctl.h_old, self.ctl.hermite) = (0, h, false);
        self.kold = k;
        let hg = h * self.g[k];
        for i in 0..self.n {
            self.y[i] = self.p[i] + hg * (self.fp[i] - self.sum[i]);
        }
        self.t = t_new;
        self.info.accepted_steps += 1;
        Ok(Step::Accepted { last })
    }

    /// Weights `max(rtol |y_i|, atol_i)` at the start of the step and the
    /// Adams–Bashforth predictor `p = y + h Σ_{j<k} g_j β_j Φ_j`, with
    /// `sum = Σ_{j<k} β_j Φ_j`.
    fn predict(&mut self, h: f64, k: usize) {
        for i in 0..self.n {
            self.wt[i] = (self.ctl.rtol * self.y[i].abs())
                .max(self.params.atol.get(i))
                .max(f64::MIN_POSITIVE);
        }
        self.p.copy_from_slice(&self.y);
        self.sum.fill(0.0);
        for j in 0..k {
            let (b, hg) = (self.beta[j], h * self.g[j] * self.beta[j]);
            for ((pi, si), fi) in self.p.iter_mut().zip(self.sum.iter_mut()).zip(&self.phi[j]) {
                *pi += hg * fi;
                *si += b * fi;
            }
        }
    }

    /// STEP block 2: error estimates at orders k, k−1, k−2 from
    /// `Φ^p_k = fp − sum`, `Φ^p_{k−1} = Φ^p_k + β_{k−1}Φ_{k−1}`,
    /// `Φ^p_{k−2} = Φ^p_{k−1} + β_{k−2}Φ_{k−2}`, and the order-lowering test.
    /// Returns the local error of the order-k corrector and whether it is finite.
    fn estimate_errors(&mut self, k: usize) -> (f64, bool) {
        let (mut erk, mut erkm1, mut erkm2) = (0.0f64, 0.0f64, 0.0f64);
        let mut worst = 0usize;
        for i in 0..self.n {
            let d = self.fp[i] - self.sum[i];
            let inv = 1.0 / self.wt[i];
            let ei = (d * inv).abs();
            if ei > erk {
                (erk, worst) = (ei, i);
            }
            if k >= 2 {
                let d1 = d + self.beta[k - 1] * self.phi[k - 1][i];
                erkm1 = erkm1.max((d1 * inv).abs());
                if k >= 3 {
                    let d2 = d1 + self.beta[k - 2] * self.phi[k - 2][i];
                    erkm2 = erkm2.max((d2 * inv).abs());
                }
            }
        }
        self.err_component = Some(worst);
        let finite = erk.is_finite() && all_finite(&self.p);
        let absh = self.ctl.absh;
        if k >= 3 {
            erkm2 *= absh * self.sig[k - 1] * self.gstar[k - 2];
        }
        if k >= 2 {
            erkm1 *= absh * self.sig[k] * self.gstar[k - 1];
        }
        let temp5 = absh * erk;
        let err = temp5 * (self.g[k - 1] - self.g[k]).abs();
        erk = temp5 * self.sig[k + 1] * self.gstar[k];
        let mut knew = k;
        if k >= 3 {
            if erkm1.max(erkm2) <= erk {
                knew = k - 1;
            }
        } else if k == 2 && erkm1 <= 0.5 * erk {
            knew = k - 1;
        }
        let c = &mut self.ctl;
        (c.erk, c.erkm1, c.erkm2, c.knew) = (erk, erkm1, erkm2, knew);
        (err, finite)
    }

    /// STEP block 3: a failed step halves (after three failures order 1 with
    /// `h √(½/erk)`); fails below `hmin`.
    fn reject(&mut self, hmin: f64, finite: bool) -> Result<Step, Error> {
        self.info.rejected_steps += 1;
        let c = &mut self.ctl;
        c.phase1 = false;
        c.ifail += 1;
        let mut temp2 = 0.5;
        if c.ifail > 3 && finite && 0.5 < 0.25 * c.erk {
            temp2 = (0.5 / c.erk).sqrt();
        }
        if c.ifail >= 3 {
            c.knew = 1;
        }
        c.k = c.knew;
        c.ns = 0;
        if c.absh <= hmin {
            let t = self.t;
            return Err(if finite {
                Error::StepSizeUnderflow {
                    t,
                    h: c.absh,
                    h_min: hmin,
                }
            } else {
                Error::NonFinite { t }
            });
        }
        c.absh = (temp2 * c.absh).max(hmin);
        c.h_old = 0.0;
        Ok(Step::Rejected)
    }

    /// STEP block 4: order and step size for the next step after an accepted
    /// step of order `k`.
    fn select_order_and_step(&mut self) {
        let kmax = self.params.max_order;
        let c = &mut self.ctl;
        let mut k = c.k;
        if c.knew == k - 1 || k == kmax {
            c.phase1 = false;
        }
        let mut erk_sel = c.erk;
        if c.phase1 {
            if k < kmax {
                k += 1;
                erk_sel = f64::NAN;
            }
        } else if c.knew == k - 1 && k > 1 {
            k -= 1;
            erk_sel = c.erkm1;
        } else if k < c.ns {
            // erk_{k+1} from Φ_{k+1}(n+1) (constant step: σ = 1).
            let mut e: f64 = 0.0;
            for i in 0..self.n {
                e = e.max((self.phi[k + 1][i] / self.wt[i]).abs());
            }
            let erkp1 = c.absh * self.gstar[k + 1] * e;
            if k == 1 {
                if erkp1 < 0.5 * c.erk && k < kmax {
                    k += 1;
                    erk_sel = erkp1;
                }
            } else if c.erkm1 <= c.erk.min(erkp1) {
                k -= 1;
                erk_sel = c.erkm1;
            } else if erkp1 < c.erk && k < kmax {
                k += 1;
                erk_sel = erkp1;
            }
        }
        // New step size.
        if c.phase1 || erk_sel.is_nan() || 0.5 >= erk_sel * 2f64.powi(k as i32 + 1) {
            c.absh *= 2.0;
        } else if 0.5 < erk_sel {
            let r = (0.5 / erk_sel).powf(1.0 / (k + 1) as f64);
            c.absh *= 0.5f64.max(0.9f64.min(r));
        }
        c.k = k;
    }
}

impl<S: OdeSystem + ?Sized> Stepper<S> for Adams {
    fn init(&mut self, sys: &S, t0: f64, y0: &[f64]) -> Result<(), Error> {
        let n = self.n;
        check_dim("y0", y0.len(), n)?;
        check_dim("system dimension", sys.dim(), n)?;
        no_mass_matrix("adams", sys)?;
        self.params.atol.validate(n)?;
        if !positive(self.params.rtol) {
            return Err(Error::InvalidInput("rtol must be positive".into()));
        }
        if !(1..=MAX_ORDER).contains(&self.params.max_order) {
            return Err(Error::InvalidInput("max_order must be in 1..=12".into()));
        }
        if let Some((h, k)) = self.params.fixed
            && !(positive(h) && (1..=MAX_ORDER).contains(&k))
        {
            return Err(Error::InvalidInput(
                "fixed (h, k) needs h > 0 and 1 <= k <= 12".into(),
            ));
        }
        self.ctl = Control {
            rtol: self.params.rtol.max(100.0 * crate::common::EPS),
            ..Control::default()
        };
        self.info = Info::default();
        self.err_component = None;
        self.t = t0;
        self.y.copy_from_slice(y0);
        Ok(())
    }

    fn start(&mut self, sys: &mut S, t_end: f64) -> Result<(), Error> {
        let t0 = self.t;
        let span = (t_end - t0).abs();
        self.ctl.dir = direction(t0, t_end);
        self.ctl.h_max = self.params.h_max.unwrap_or(0.1 * span).min(span);
        sys.rhs(t0, &self.y, &mut self.phi[0]).at(t0)?;
        self.info.rhs_evals += 1;
        if !all_finite(&self.phi[0]) || !all_finite(&self.y) {
            return Err(Error::NonFinite { t: t0 });
        }
        for j in 1..self.phi.len() {
            self.phi[j].fill(0.0);
        }
        self.psi = [0.0; MAX_ORDER + 2];
        self.kold = 0;
        (self.ctl.k, self.ctl.phase1) = (1, self.params.fixed.is_none());
        if let Some((hf, kf)) = self.params.fixed {
            self.plan_fixed_start(hf, kf, span);
        } else if let Some(h0) = self.params.h0 {
            self.ctl.absh = h0.abs().min(self.ctl.h_max);
        } else {
            self.ctl.absh = self.initial_step();
        }
        Ok(())
    }

    fn step(&mut self, sys: &mut S, t_end: f64) -> Result<Step, Error> {
        if self.ctl.starter_left > 0 {
            self.starter_step(sys, t_end)
        } else {
            self.attempt(sys, t_end)
        }
    }

    fn project(&mut self, sys: &mut S) -> Result<bool, Error> {
        sys.project(self.t, &mut self.y).at(self.t)
    }

    /// Final evaluation and update of the differences,
    /// `Φ_0(n+1) = f_{n+1}`, `Φ_{j+1}(n+1) = Φ_j(n+1) − β_j Φ_j(n)`, `j = 0..=k`,
    /// then the order and step of the next step.
    fn complete(&mut self, sys: &mut S) -> Result<(), Error> {
        if self.ctl.hermite {
            return Ok(());
        }
        let t = self.t;
        sys.rhs(t, &self.y, &mut self.fp).at(t)?;
        self.info.rhs_evals += 1;
        if !all_finite(&self.fp) {
            return Err(Error::NonFinite { t });
        }
        let k = self.kold;
        // Column-oriented with `fp` as the running Φ_j(n+1) (vectorisable).
        for j in 0..=k {
            let b = self.beta[j];
            for (c, p) in self.fp.iter_mut().zip(self.phi[j].iter_mut()) {
                let next = *c - b * *p;
                *p = *c;
                *c = next;
            }
        }
        self.phi[k + 1].copy_from_slice(&self.fp);
        self.psi = self.psi_new;
        match self.params.fixed {
            Some((_, kf)) => self.ctl.k = (k + 1).min(kf),
            None => self.select_order_and_step(),
        }
        Ok(())
    }

    /// `INTRP`, or during the fixed-step start cubic Hermite on
    /// `(y_n, f_n, y_{n+1}, f_{n+1})`.
    fn interpolate(&mut self, ts: f64) -> &[f64] {
        if self.ctl.hermite {
            let h = self.ctl.starter_h;
            let (start, end) = ((&self.p[..], &self.fp[..]), (&self.y[..], &self.phi[0][..]));
            hermite((ts - self.ctl.t_prev) / h, h, start, end, &mut self.y_out);
        } else {
            self.intrp(ts);
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
    use super::*;

    /// At constant step the g_j are the Adams–Bashforth coefficients γ_j of
    /// the backward-difference form (1, 1/2, 5/12, 3/8, 251/720, 95/288, …)
    /// and |γ*_m| the Adams–Moulton error constants (1/2, 1/12, 1/24, 19/720, …),
    /// STEP's `gstr` table.
    #[test]
    fn constant_step_coefficients_are_the_classical_ones() {
        let mut ab = Adams::new(1, Params::default());
        let h = 0.1;
        for i in 0..ab.psi.len() {
            ab.psi[i] = i as f64 * h;
        }
        ab.coefficients(h, MAX_ORDER);
        let gamma = [
            1.0,
            1.0 / 2.0,
            5.0 / 12.0,
            3.0 / 8.0,
            251.0 / 720.0,
            95.0 / 288.0,
            19087.0 / 60480.0,
        ];
        for (j, g) in gamma.iter().enumerate() {
            assert!((ab.g[j] - g).abs() < 1e-14, "g_{j} = {} vs {g}", ab.g[j]);
        }
        for j in 0..MAX_ORDER {
            assert!((ab.beta[j] - 1.0).abs() < 1e-14);
        }
        for i in 1..=MAX_ORDER + 1 {
            assert!((ab.sig[i] - 1.0).abs() < 1e-14);
        }
        let gstar = [1.0, 0.5, 1.0 / 12.0, 1.0 / 24.0, 19.0 / 720.0, 3.0 / 160.0];
        for (m, g) in gstar.iter().enumerate() {
            assert!((ab.gstar[m] - g).abs() < 1e-15, "γ*_{m}");
        }
        // STEP's table gstr(13) = 0.00468.
        assert!((ab.gstar[13] - 0.00468).abs() < 1e-5, "{}", ab.gstar[13]);
    }
}
