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
    OutCursor, all_finite, check_dim, direction, h_min, positive, projection_due, validate_span,
};
use crate::error::{AtTime, Error};
use crate::rk::{self, EmbeddedRk};
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
    fn interpolate(&mut self, ts: f64) {
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

    /// Integrate `y' = f(t, y)` from `(t0, y0)` to `t_end`; see
    /// [`EmbeddedRk::integrate`] for `t_out` and the observer.
    pub fn integrate<S: OdeSystem + ?Sized, O: Observer + ?Sized>(
        &mut self,
        sys: &mut S,
        t0: f64,
        y0: &[f64],
        t_end: f64,
        t_out: &[f64],
        obs: &mut O,
    ) -> Result<Info, Error> {
        let n = self.n;
        check_dim("y0", y0.len(), n)?;
        check_dim("system dimension", sys.dim(), n)?;
        validate_span(t0, t_end, t_out)?;
        self.params.atol.validate(n)?;
        if !positive(self.params.rtol) {
            return Err(Error::InvalidInput("rtol must be positive".into()));
        }
        let kmax = self.params.max_order;
        if !(1..=MAX_ORDER).contains(&kmax) {
            return Err(Error::InvalidInput("max_order must be in 1..=12".into()));
        }
        let fixed = self.params.fixed;
        if let Some((h, k)) = fixed
            && !(positive(h) && (1..=MAX_ORDER).contains(&k))
        {
            return Err(Error::InvalidInput(
                "fixed (h, k) needs h > 0 and 1 <= k <= 12".into(),
            ));
        }
        let rtol = self.params.rtol.max(100.0 * crate::common::EPS);

        self.info = Info::default();
        self.err_component = None;
        self.t = t0;
        self.y.copy_from_slice(y0);
        let mut cursor = OutCursor::default();
        while let Some(t) = cursor.next_at(t_out, t0) {
            obs.sample(t, y0);
        }
        if t_end == t0 {
            return Ok(self.info);
        }
        let dir = direction(t0, t_end);
        let span = (t_end - t0).abs();
        let h_max = self.params.h_max.unwrap_or(0.1 * span).min(span);

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

        let mut k = 1;
        let mut absh;
        let mut phase1 = fixed.is_none();
        let mut ns = 0usize;
        let mut h_old = 0.0;
        if let Some((hf, kf)) = fixed {
            absh = hf;
            k = kf;
            // Start: k−1 Dormand–Prince steps build f_{k−1}, …, f_0 at
            // constant step; Φ_j = ∇^j f (backward differences).
            let nstart = (kf - 1).min(((span / hf) as usize).saturating_sub(1));
            if nstart > 0 {
                self.start_fixed(sys, hf * dir, nstart, obs, &mut cursor, t_out)?;
                if self.info.stopped {
                    return Ok(self.info);
                }
                k = nstart + 1;
            }
            ns = MAX_ORDER + 2;
            h_old = dir * hf;
        } else if let Some(h0) = self.params.h0 {
            absh = h0.abs().min(h_max);
        } else {
            // ode113.m: rh = ‖f₀ / max(|y₀|, atol/rtol)‖∞ / (¼ √rtol); h = 1/rh if
            // smaller (with s = ‖f₀ / max(rtol|y₀|, atol)‖∞, rh = 4 √rtol s).
            let mut s: f64 = 0.0;
            for i in 0..n {
                let wt = (rtol * self.y[i].abs())
                    .max(self.params.atol.get(i))
                    .max(f64::MIN_POSITIVE);
                s = s.max((self.phi[0][i] / wt).abs());
            }
            let rh = 4.0 * rtol.sqrt() * s;
            absh = h_max;
            if absh * rh > 1.0 {
                absh = 1.0 / rh;
            }
            absh = absh.max(h_min(t0));
        }
        if fixed.is_some() && (self.t - t_end).abs() == 0.0 {
            return Ok(self.info);
        }

        let mut ifail = 0usize;
        loop {
            let t = self.t;
            if self.info.accepted_steps + self.info.rejected_steps >= self.params.max_steps {
                return Err(Error::TooManySteps {
                    t,
                    max_steps: self.params.max_steps,
                });
            }
            let hmin = h_min(t);
            let remaining = (t_end - t).abs();
            let mut done = false;
            if fixed.is_some() {
                if remaining <= absh * (1.0 + 1e-10) {
                    absh = remaining;
                    done = true;
                }
            } else {
                absh = absh.min(h_max).max(hmin);
                if 1.1 * absh >= remaining {
                    absh = remaining;
                    done = true;
                }
            }
            let h = dir * absh;
            let t_new = if done { t_end } else { t + h };
            // STEP block 1: number of steps at constant size.
            if h != h_old {
                ns = 0;
            }
            if ns <= self.kold {
                ns += 1;
            }
            self.coefficients(h, k);
            // Weights at the start of the step.
            for i in 0..n {
                self.wt[i] = (rtol * self.y[i].abs())
                    .max(self.params.atol.get(i))
                    .max(f64::MIN_POSITIVE);
            }
            // Predict: p = y + h Σ_{j<k} g_j β_j Φ_j;  sum = Σ_{j<k} β_j Φ_j.
            self.p.copy_from_slice(&self.y);
            self.sum.fill(0.0);
            for j in 0..k {
                let (b, hg) = (self.beta[j], h * self.g[j] * self.beta[j]);
                for ((pi, si), fi) in self.p.iter_mut().zip(self.sum.iter_mut()).zip(&self.phi[j]) {
                    *pi += hg * fi;
                    *si += b * fi;
                }
            }
            sys.rhs(t_new, &self.p, &mut self.fp).at(t_new)?;
            self.info.rhs_evals += 1;
            // Error estimates (STEP block 2). Φ^p_k = fp − sum,
            // Φ^p_{k−1} = Φ^p_k + β_{k−1}Φ_{k−1}, Φ^p_{k−2} = Φ^p_{k−1} + β_{k−2}Φ_{k−2}.
            let (mut erk, mut erkm1, mut erkm2) = (0.0f64, 0.0f64, 0.0f64);
            let mut worst = 0usize;
            for i in 0..n {
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
            if k >= 3 {
                erkm2 *= absh * self.sig[k - 1] * self.gstar[k - 2];
            }
            if k >= 2 {
                erkm1 *= absh * self.sig[k] * self.gstar[k - 1];
            }
            let temp5 = absh * erk;
            let err = temp5 * (self.g[k - 1] - self.g[k]).abs();
            erk = temp5 * self.sig[k + 1] * self.gstar[k];
            // Order lowering test.
            let mut knew = k;
            if k >= 3 {
                if erkm1.max(erkm2) <= erk {
                    knew = k - 1;
                }
            } else if k == 2 && erkm1 <= 0.5 * erk {
                knew = k - 1;
            }
            if fixed.is_none() && !(finite && err <= 1.0) {
                // STEP block 3: failed step.
                self.info.rejected_steps += 1;
                phase1 = false;
                ifail += 1;
                let mut temp2 = 0.5;
                if ifail > 3 && finite && 0.5 < 0.25 * erk {
                    temp2 = (0.5 / erk).sqrt();
                }
                if ifail >= 3 {
                    knew = 1;
                }
                k = knew;
                ns = 0;
                if absh <= hmin {
                    return Err(if finite {
                        Error::StepSizeUnderflow {
                            t,
                            h: absh,
                            h_min: hmin,
                        }
                    } else {
                        Error::NonFinite { t }
                    });
                }
                absh = (temp2 * absh).max(hmin);
                h_old = 0.0;
                continue;
            }
            if !finite {
                return Err(Error::NonFinite { t });
            }
            // Accepted: correct y = p + h g_k Φ^p_k.
            ifail = 0;
            self.kold = k;
            h_old = h;
            let hg = h * self.g[k];
            for i in 0..n {
                self.y[i] = self.p[i] + hg * (self.fp[i] - self.sum[i]);
            }
            self.t = t_new;
            self.info.accepted_steps += 1;
            if projection_due(self.params.project_every, self.info.accepted_steps) {
                self.info.projections += 1;
                if sys.project(t_new, &mut self.y).at(t_new)? {
                    self.info.projections_applied += 1;
                }
            }
            // Final evaluation and update of the differences:
            // Φ_0(n+1) = f_{n+1}, Φ_{j+1}(n+1) = Φ_j(n+1) − β_j Φ_j(n), j = 0..=k.
            sys.rhs(t_new, &self.y, &mut self.fp).at(t_new)?;
            self.info.rhs_evals += 1;
            if !all_finite(&self.fp) {
                return Err(Error::NonFinite { t: t_new });
            }
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

            // Output.
            while let Some(ts) = cursor.next_before(t_out, dir, t_new) {
                self.interpolate(ts);
                obs.sample(ts, &self.y_out);
            }
            while let Some(ts) = cursor.next_at(t_out, t_new) {
                obs.sample(ts, &self.y);
            }
            if obs.step(t_new, &self.y).is_break() {
                self.info.stopped = true;
                return Ok(self.info);
            }
            if done {
                return Ok(self.info);
            }
            if let Some((_, kf)) = fixed {
                k = (k + 1).min(kf);
                continue;
            }

            // STEP block 4: order and step size for the next step.
            if knew == k - 1 || k == kmax {
                phase1 = false;
            }
            let mut erk_sel = erk;
            if phase1 {
                if k < kmax {
                    k += 1;
                    erk_sel = f64::NAN;
                }
            } else if knew == k - 1 && k > 1 {
                k -= 1;
                erk_sel = erkm1;
            } else if k < ns {
                // erk_{k+1} from Φ_{k+1}(n+1) (constant step: σ = 1).
                let mut e: f64 = 0.0;
                for i in 0..n {
                    e = e.max((self.phi[k + 1][i] / self.wt[i]).abs());
                }
                let erkp1 = absh * self.gstar[k + 1] * e;
                if k == 1 {
                    if erkp1 < 0.5 * erk && k < kmax {
                        k += 1;
                        erk_sel = erkp1;
                    }
                } else if erkm1 <= erk.min(erkp1) {
                    k -= 1;
                    erk_sel = erkm1;
                } else if erkp1 < erk && k < kmax {
                    k += 1;
                    erk_sel = erkp1;
                }
            }
            // New step size.
            if phase1 || erk_sel.is_nan() || 0.5 >= erk_sel * 2f64.powi(k as i32 + 1) {
                absh *= 2.0;
            } else if 0.5 < erk_sel {
                let r = (0.5 / erk_sel).powf(1.0 / (k + 1) as f64);
                absh *= 0.5f64.max(0.9f64.min(r));
            }
        }
    }

    /// Fixed-step start: `m` Dormand–Prince steps of size `h` (4 sub-steps
    /// each), collecting `f` at each point; the backward differences become
    /// `Φ_j`, and `ψ_i = i h`.
    fn start_fixed<S: OdeSystem + ?Sized, O: Observer + ?Sized>(
        &mut self,
        sys: &mut S,
        h: f64,
        m: usize,
        obs: &mut O,
        cursor: &mut OutCursor,
        t_out: &[f64],
    ) -> Result<(), Error> {
        let n = self.n;
        self.starter.params_mut().fixed_step = Some(h.abs() / 4.0);
        self.starter.params_mut().project_every = 0;
        let dir = h.signum();
        for step in 0..m {
            let t = self.t;
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
            for j in (0..=step).rev() {
                let (a, b) = self.phi.split_at_mut(j + 1);
                b[0].copy_from_slice(&a[j]);
            }
            sys.rhs(t_new, &self.y, &mut self.phi[0]).at(t_new)?;
            self.info.rhs_evals += 1;
            while let Some(ts) = cursor.next_before(t_out, dir, t_new) {
                // Cubic Hermite on (y_n, f_n, y_{n+1}, f_{n+1}).
                let th = (ts - t) / h;
                let h00 = (1.0 + 2.0 * th) * (1.0 - th) * (1.0 - th);
                let h10 = th * (1.0 - th) * (1.0 - th);
                let h01 = th * th * (3.0 - 2.0 * th);
                let h11 = th * th * (th - 1.0);
                for i in 0..n {
                    self.y_out[i] = h00 * self.p[i]
                        + h10 * h * self.fp[i]
                        + h01 * self.y[i]
                        + h11 * h * self.phi[0][i];
                }
                obs.sample(ts, &self.y_out);
            }
            while let Some(ts) = cursor.next_at(t_out, t_new) {
                obs.sample(ts, &self.y);
            }
            if obs.step(t_new, &self.y).is_break() {
                self.info.stopped = true;
                return Ok(());
            }
        }
        // Backward differences in place: phi[j] ← ∇^j f_m.
        for j in 1..=m {
            for l in (j..=m).rev() {
                let (a, b) = self.phi.split_at_mut(l);
                for i in 0..n {
                    b[0][i] = a[l - 1][i] - b[0][i];
                }
            }
        }
        for i in 1..self.psi.len() {
            self.psi[i] = i as f64 * h;
        }
        self.kold = m;
        Ok(())
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
