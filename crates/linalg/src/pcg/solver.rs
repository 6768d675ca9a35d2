//! The PCG iteration of Chiou sec 6.4 on `M* λ = b`.

use super::arrowhead::ArrowheadOperator;
use super::precond::{PrecondData, Preconditioner};
use crate::error::{check_finite, check_len};
use crate::{LinalgError, Par};

/// Chunk length of the deterministic dot products.
const DOT_CHUNK: usize = 1024;

/// Parameters of [`PcgSolver`].
#[derive(Debug, Clone, Copy)]
pub struct PcgParams {
    /// Stop when `‖b − M* λ‖₂ ≤ tol · ‖b‖₂` (checked on the true residual).
    pub tol: f64,
    /// Iteration limit.
    pub max_iter: usize,
    /// Preconditioner.
    pub preconditioner: Preconditioner,
    /// Sequential or rayon body-by-body products (same result either way).
    pub par: Par,
    /// Start from the `x` passed to [`PcgSolver::solve`] instead of zero.
    pub warm_start: bool,
}

impl Default for PcgParams {
    fn default() -> Self {
        Self {
            tol: 1e-10,
            max_iter: 10_000,
            preconditioner: Preconditioner::Diagonal,
            par: Par::Seq,
            warm_start: false,
        }
    }
}

/// What a solve did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PcgInfo {
    /// Iterations (operator applications inside the loop).
    pub iterations: usize,
    /// Final true relative residual `‖b − M* λ‖₂ / ‖b‖₂`.
    pub relative_residual: f64,
}

/// Preconditioned conjugate gradient on the arrowhead Schur complement, with
/// every work vector preallocated (a solve allocates nothing with `Par::Seq`).
#[derive(Debug, Clone)]
pub struct PcgSolver {
    op: ArrowheadOperator,
    pre: PrecondData,
    params: PcgParams,
    x: Vec<f64>,
    r: Vec<f64>,
    z: Vec<f64>,
    p: Vec<f64>,
    q: Vec<f64>,
    b: Vec<f64>,
    t: Vec<f64>,
    partials: Vec<f64>,
}

impl PcgSolver {
    /// Builds the solver and its preconditioner.
    pub fn new(op: ArrowheadOperator, params: PcgParams) -> Result<Self, LinalgError> {
        check_finite("PcgParams tol", &[params.tol])?;
        let pm = op.padded_m();
        let pn = op.padded_n();
        let pre = PrecondData::new(&op, params.preconditioner);
        Ok(Self {
            pre,
            params,
            x: vec![0.0; pm],
            r: vec![0.0; pm],
            z: vec![0.0; pm],
            p: vec![0.0; pm],
            q: vec![0.0; pm],
            b: vec![0.0; pm],
            t: vec![0.0; pn],
            partials: vec![0.0; pm.div_ceil(DOT_CHUNK).max(1)],
            op,
        })
    }

    /// The operator.
    pub fn operator(&self) -> &ArrowheadOperator {
        &self.op
    }

    /// Mutable operator (new mass or constraint values); call
    /// [`Self::refresh_preconditioner`] afterwards.
    pub fn operator_mut(&mut self) -> &mut ArrowheadOperator {
        &mut self.op
    }

    /// Recomputes the preconditioner from the current operator values.
    pub fn refresh_preconditioner(&mut self) {
        self.pre.refresh(&self.op);
    }

    /// Parameters.
    pub fn params(&self) -> &PcgParams {
        &self.params
    }

    /// Mutable parameters (tolerance, iteration limit, warm start, parallelism).
    /// Changing the preconditioner kind needs a new solver.
    pub fn params_mut(&mut self) -> &mut PcgParams {
        &mut self.params
    }

    /// Number of joints where the scaled preconditioner fell back to the diagonal.
    pub fn scaled_fallbacks(&self) -> usize {
        self.pre.fallbacks
    }

    fn dot(partials: &mut [f64], a: &[f64], b: &[f64], par: Par) -> f64 {
        let chunk = |k: usize| {
            let lo = k * DOT_CHUNK;
            let hi = (lo + DOT_CHUNK).min(a.len());
            let mut s = 0.0;
            for i in lo..hi {
                s += a[i] * b[i];
            }
            s
        };
        par.for_each_chunk(partials, 1, |k, p| p[0] = chunk(k));
        partials.iter().sum()
    }

    /// `y = M* x` (unpadded, length `m`).
    pub fn apply(&mut self, x: &[f64], y: &mut [f64]) -> Result<(), LinalgError> {
        let m = self.op.m();
        check_len("PcgSolver::apply x", m, x.len())?;
        check_len("PcgSolver::apply y", m, y.len())?;
        self.op.pad_joint(x, &mut self.x);
        self.op
            .apply_padded(&self.x, &mut self.q, &mut self.t, self.params.par);
        self.op.unpad_joint(&self.q, y);
        Ok(())
    }

    /// Right-hand side of eq 6.2.10: `b_i = ϱ² Σ_j B_(i,j) M_j⁻¹ c_j − ϱ² d_i`.
    pub fn schur_rhs(&mut self, c: &[f64], d: &[f64], b: &mut [f64]) -> Result<(), LinalgError> {
        let (n, m) = (self.op.n(), self.op.m());
        check_len("schur_rhs c", n, c.len())?;
        check_len("schur_rhs d", m, d.len())?;
        check_len("schur_rhs b", m, b.len())?;
        check_finite("schur_rhs c", c)?;
        check_finite("schur_rhs d", d)?;
        self.z.iter_mut().for_each(|v| *v = 0.0);
        self.op
            .body_phase(&self.z, Some(c), 1.0, &mut self.t, self.params.par);
        self.op.pad_joint(d, &mut self.x);
        let rho2 = self.op.rho * self.op.rho;
        self.op.joint_phase(
            -rho2,
            Some(&self.x),
            rho2,
            &self.t,
            &mut self.q,
            self.params.par,
        );
        self.op.unpad_joint(&self.q, b);
        Ok(())
    }

    /// Accelerations of eq 6.2.6: `ü_j = M_j⁻¹ (c_j − Σ_i B_(j,i) λ_i)`.
    pub fn accelerations(
        &mut self,
        lambda: &[f64],
        c: &[f64],
        udd: &mut [f64],
    ) -> Result<(), LinalgError> {
        let (n, m) = (self.op.n(), self.op.m());
        check_len("accelerations lambda", m, lambda.len())?;
        check_len("accelerations c", n, c.len())?;
        check_len("accelerations udd", n, udd.len())?;
        self.op.pad_joint(lambda, &mut self.x);
        self.op
            .body_phase(&self.x, Some(c), -1.0, &mut self.t, self.params.par);
        self.op.unpad_body(&self.t, udd);
        Ok(())
    }

    /// Solves `M* λ = b` (eqs 6.4.1–6.4.6 with preconditioning, sec 6.5). `x`
    /// holds the warm start if `params.warm_start`, and receives the solution. On
    /// [`LinalgError::NotConverged`] `x` holds the last iterate.
    pub fn solve(&mut self, b: &[f64], x: &mut [f64]) -> Result<PcgInfo, LinalgError> {
        let m = self.op.m();
        check_len("PcgSolver::solve b", m, b.len())?;
        check_len("PcgSolver::solve x", m, x.len())?;
        check_finite("PcgSolver::solve b", b)?;
        let par = self.params.par;
        let rmax = self.op.rmax;
        self.op.pad_joint(b, &mut self.b);
        if self.params.warm_start {
            check_finite("PcgSolver::solve x (warm start)", x)?;
            self.op.pad_joint(x, &mut self.x);
        } else {
            self.x.iter_mut().for_each(|v| *v = 0.0);
        }
        let bnorm = Self::dot(&mut self.partials, &self.b, &self.b, par).sqrt();
        if bnorm == 0.0 {
            x.iter_mut().for_each(|v| *v = 0.0);
            return Ok(PcgInfo {
                iterations: 0,
                relative_residual: 0.0,
            });
        }
        let tol = self.params.tol;
        // r₀ = b − M* x₀ (eq 6.4.1)
        self.true_residual(par);
        let mut rnorm = Self::dot(&mut self.partials, &self.r, &self.r, par).sqrt();
        self.pre.apply(rmax, &self.r, &mut self.z, par);
        self.p.copy_from_slice(&self.z);
        let mut rz = Self::dot(&mut self.partials, &self.r, &self.z, par);
        let mut it = 0;
        let mut last_true = f64::INFINITY;
        loop {
            if rnorm <= tol * bnorm {
                // confirm on the true residual; restart the recurrence if it
                // drifted, stop if restarts no longer help (attainable accuracy
                // ≈ ε_mach κ(M*) reached)
                self.true_residual(par);
                rnorm = Self::dot(&mut self.partials, &self.r, &self.r, par).sqrt();
                if rnorm <= tol * bnorm || it >= self.params.max_iter || rnorm >= 0.5 * last_true {
                    break;
                }
                last_true = rnorm;
                self.pre.apply(rmax, &self.r, &mut self.z, par);
                self.p.copy_from_slice(&self.z);
                rz = Self::dot(&mut self.partials, &self.r, &self.z, par);
            }
            if it >= self.params.max_iter {
                break;
            }
            // q = M* p (eq 6.4.7), α = rᵀz / pᵀq (eq 6.4.3)
            self.op.apply_padded(&self.p, &mut self.q, &mut self.t, par);
            let pq = Self::dot(&mut self.partials, &self.p, &self.q, par);
            if pq.is_nan() || pq <= 0.0 || !pq.is_finite() {
                self.op.unpad_joint(&self.x, x);
                return Err(LinalgError::NotPositiveDefinite { index: it });
            }
            let alpha = rz / pq;
            // x += α p (eq 6.4.2), r −= α q (eq 6.4.4)
            for k in 0..self.x.len() {
                self.x[k] += alpha * self.p[k];
                self.r[k] -= alpha * self.q[k];
            }
            it += 1;
            rnorm = Self::dot(&mut self.partials, &self.r, &self.r, par).sqrt();
            // z = P r; β = rᵀz_new / rᵀz_old (eq 6.4.6); p = z + β p (eq 6.4.5)
            self.pre.apply(rmax, &self.r, &mut self.z, par);
            let rz_new = Self::dot(&mut self.partials, &self.r, &self.z, par);
            let beta = rz_new / rz;
            rz = rz_new;
            for k in 0..self.p.len() {
                self.p[k] = self.z[k] + beta * self.p[k];
            }
        }
        self.op.unpad_joint(&self.x, x);
        let rel = rnorm / bnorm;
        if rel <= tol {
            Ok(PcgInfo {
                iterations: it,
                relative_residual: rel,
            })
        } else {
            Err(LinalgError::NotConverged {
                iterations: it,
                residual: rel,
                tol,
            })
        }
    }

    /// `r = b − M* x` (padded).
    fn true_residual(&mut self, par: Par) {
        self.op.apply_padded(&self.x, &mut self.r, &mut self.t, par);
        for k in 0..self.r.len() {
            self.r[k] = self.b[k] - self.r[k];
        }
    }
}
