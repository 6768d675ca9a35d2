//! Redundant rows of a constraint Jacobian, for the minimum-norm KKT solve without an
//! eigendecomposition.
//!
//! With redundant but consistent constraints (every planar loop written in 3-D) the
//! Jacobian splits, after a row selection `I ∪ D`, as `Φ_D = C Φ_I` with `Φ_I` of full
//! row rank `r`. Then `range(Φ_q) = range(B)`, `B = [I_r; C]` (rows `I` then `D`), and
//! the pseudo-inverse solution `x = K⁺ b` of `K = [M Φ_qᵀ; Φ_q 0]` (Pękal–Frączek
//! sec 3.1, "pseudoinverse … least square norm") is, exactly:
//!
//! ```text
//!   γ̂_I = (I + CᵀC)⁻¹ (γ_I + Cᵀ γ_D)          γ projected on range(Φ_q)
//!   [ M    Φ_Iᵀ ] [ q̈  ]   [ Q  ]
//!   [ Φ_I  0    ] [ λ_I ] = [ γ̂_I ]           nonsingular, an LU solve
//!   w = (I + CᵀC)⁻¹ λ_I,  λ_I ← w,  λ_D ← C w   the minimum-norm λ
//! ```
//!
//! (`Φ_qᵀ λ` is unchanged by the last step because `Φ_Dᵀ C = Φ_Iᵀ CᵀC`.) The split
//! and `C` come from one Gram–Schmidt pass with pivoting over the rows,
//! `Φ_I = R Q` with `R` lower triangular and `Φ_D = S Q`, so `C` is solved on `R`
//! (`Rᵀ C_kᵀ = S_kᵀ`) at the conditioning of `Φ_I`, not of `Φ_I Φ_Iᵀ`. The cost is
//! `O(m² n)` for the split and one LU of order `n + r`, against a symmetric
//! eigendecomposition of order `n + m`.

/// Relative tolerance of the row selection: a row whose Gram–Schmidt remainder is
/// below `ROW_TOL · max|Φ_q|` depends on the rows chosen before it (as in the diagnosis of
/// dependent constraints in `mbs-constraints`).
pub(crate) const ROW_TOL: f64 = 1e-9;

/// The row split `I ∪ D` of a Jacobian, `C` with `Φ_D = C Φ_I`, and the Cholesky
/// factor of `I + CᵀC`. Owns all storage: once built, nothing here allocates.
#[derive(Debug)]
pub(crate) struct RowSplit {
    n: usize,
    m: usize,
    independent: Vec<usize>,
    dependent: Vec<usize>,
    /// The rows of `Φ_q` (row-major, `m × n`), turned into Gram–Schmidt remainders;
    /// an independent row's becomes its basis row `Q_a`.
    work: Vec<f64>,
    /// Whether a row has joined `I`.
    chosen: Vec<bool>,
    /// Gram–Schmidt coefficients: row `i` of `Φ_q` is `Σ_a coef[i + a·m] Q_a` (the
    /// sum up to its own step for a row of `I`, over all steps for a row of `D`, whose
    /// remainder is dropped).
    coef: Vec<f64>,
    /// `Cᵀ`, `r × d` column-major (leading dimension `m`): column k is `C_kᵀ`.
    ct: Vec<f64>,
    /// Cholesky factor of `I + CᵀC` (`r × r`, leading dimension `m`).
    proj: Vec<f64>,
}

impl RowSplit {
    /// Storage for an `m × n` Jacobian.
    pub(crate) fn new(n: usize, m: usize) -> Self {
        Self {
            n,
            m,
            independent: Vec::with_capacity(m),
            dependent: Vec::with_capacity(m),
            work: vec![0.0; m * n],
            chosen: vec![false; m],
            coef: vec![0.0; m * m],
            ct: vec![0.0; m * m],
            proj: vec![0.0; m * m],
        }
    }

    /// Whether the last [`RowSplit::split`] found dependent rows.
    pub(crate) fn had_dependent(&self) -> bool {
        !self.dependent.is_empty()
    }

    /// The trivial split: every row independent (`C` empty).
    pub(crate) fn all_independent(&mut self) {
        self.independent.clear();
        self.independent.extend(0..self.m);
        self.dependent.clear();
    }

    /// Number of independent rows `r`.
    pub(crate) fn rank(&self) -> usize {
        self.independent.len()
    }

    /// The independent rows, in order.
    pub(crate) fn independent(&self) -> &[usize] {
        &self.independent
    }

    /// Splits the rows of `phi_q` by pivoted Gram–Schmidt (a row is dependent when its
    /// remainder is below `ROW_TOL · max|Φ_q|`), computes `C` and
    /// factors `I + CᵀC`. `false` if `I + CᵀC` is not numerically positive definite.
    pub(crate) fn split(&mut self, phi_q: faer::MatRef<'_, f64>) -> bool {
        self.gram_schmidt(phi_q);
        if self.dependent.is_empty() {
            return true;
        }
        let (m, r) = (self.m, self.independent.len());
        // Rᵀ C_kᵀ = S_kᵀ, R[p][a] = coef[I_p + a·m] (lower triangular, a ≤ p)
        for (c, &k) in self.dependent.iter().enumerate() {
            let x = &mut self.ct[c * m..c * m + r];
            for a in (0..r).rev() {
                let mut s = self.coef[k + a * m];
                for p in a + 1..r {
                    s -= self.coef[self.independent[p] + a * m] * x[p];
                }
                x[a] = s / self.coef[self.independent[a] + a * m];
            }
        }
        // I + CᵀC = I + Σ_k C_kᵀ C_k (lower triangle)
        let d = self.dependent.len();
        for b in 0..r {
            for a in b..r {
                let mut s = if a == b { 1.0 } else { 0.0 };
                for c in 0..d {
                    s += self.ct[a + c * m] * self.ct[b + c * m];
                }
                self.proj[a + b * m] = s;
            }
        }
        crate::small::cholesky_in_place(&mut self.proj, m, r, 0.0).is_ok()
    }

    /// Gram–Schmidt with pivoting (the QR with column pivoting of `Φ_qᵀ`): at each step
    /// the row with the largest remainder joins `I` (ties to the lower index), so `Φ_I`
    /// is as well conditioned as the rank allows, and the other remainders are
    /// orthogonalized against it. Rows whose remainder stays below
    /// `ROW_TOL · max|Φ_q|` form `D`. The coefficients give `Φ_I = R Q`, `R` lower
    /// triangular in pivot order (diagonal: the remainder norms), and `Φ_D = S Q`.
    fn gram_schmidt(&mut self, phi_q: faer::MatRef<'_, f64>) {
        let (n, m) = (self.n, self.m);
        let mut scale = 0.0_f64;
        for i in 0..m {
            for j in 0..n {
                let v = phi_q[(i, j)];
                scale = scale.max(v.abs());
                self.work[i * n + j] = v;
            }
        }
        let tol = ROW_TOL * scale.max(f64::MIN_POSITIVE);
        self.independent.clear();
        self.dependent.clear();
        self.chosen.iter_mut().for_each(|c| *c = false);
        for a in 0..m {
            let mut best = None;
            let mut best_norm = tol;
            for i in (0..m).filter(|&i| !self.chosen[i]) {
                let w = &self.work[i * n..(i + 1) * n];
                let norm = crate::small::dot(w, w).sqrt();
                if norm > best_norm {
                    best = Some(i);
                    best_norm = norm;
                }
            }
            let Some(p) = best else { break };
            self.chosen[p] = true;
            self.independent.push(p);
            self.coef[p + a * m] = best_norm;
            let (before, rest) = self.work.split_at_mut(p * n);
            let (b, after) = rest.split_at_mut(n);
            b.iter_mut().for_each(|x| *x /= best_norm);
            for i in (0..m).filter(|&i| !self.chosen[i]) {
                let w = if i < p {
                    &mut before[i * n..(i + 1) * n]
                } else {
                    &mut after[(i - p - 1) * n..(i - p) * n]
                };
                let s = crate::small::dot(b, w);
                self.coef[i + a * m] = s;
                for (wj, bj) in w.iter_mut().zip(b.iter()) {
                    *wj -= s * bj;
                }
            }
        }
        for i in 0..m {
            if !self.chosen[i] {
                self.dependent.push(i);
            }
        }
    }

    /// `out[..r] = γ̂_I = (I + CᵀC)⁻¹ (γ_I + Cᵀ γ_D)` from `gamma` (length `m`, rows in
    /// the Jacobian's order).
    pub(crate) fn project_gamma(&self, gamma: &[f64], out: &mut [f64]) {
        let (m, r) = (self.m, self.independent.len());
        for (a, &ia) in self.independent.iter().enumerate() {
            out[a] = gamma[ia];
        }
        if self.dependent.is_empty() {
            return;
        }
        for (c, &k) in self.dependent.iter().enumerate() {
            let g = gamma[k];
            for (o, x) in out[..r].iter_mut().zip(&self.ct[c * m..c * m + r]) {
                *o += x * g;
            }
        }
        crate::small::cholesky_solve(&self.proj, m, r, out);
    }

    /// The minimum-norm multipliers of every row (`lambda`, length `m`) from those of
    /// the independent rows (`lambda_i`, length `r`, overwritten by `w`).
    pub(crate) fn expand_lambda(&self, lambda_i: &mut [f64], lambda: &mut [f64]) {
        let (m, r) = (self.m, self.independent.len());
        if !self.dependent.is_empty() {
            crate::small::cholesky_solve(&self.proj, m, r, lambda_i);
        }
        for (a, &ia) in self.independent.iter().enumerate() {
            lambda[ia] = lambda_i[a];
        }
        for (c, &k) in self.dependent.iter().enumerate() {
            lambda[k] = crate::small::dot(&self.ct[c * m..c * m + r], &lambda_i[..r]);
        }
    }
}
