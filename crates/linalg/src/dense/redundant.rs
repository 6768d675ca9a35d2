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
//!
//! A constraint row touches the columns of one or two bodies, so the Gram–Schmidt
//! pass keeps, per row, a mask of the column blocks it may be nonzero in (a superset
//! of its support, grown as rows are orthogonalized against each other): a product
//! of rows with disjoint masks is zero and is skipped, products run over the common
//! blocks only, and a row's norm is computed again only when it changed. The terms
//! left out are exact zeros, so the split, `C` and every nonzero result are those
//! of the full products, bit for bit (an exactly zero product may differ in the sign
//! of its zero).

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
    /// Per row, the column blocks (bit `k`: columns `k·block .. (k+1)·block`) its
    /// remainder may be nonzero in.
    masks: Vec<u64>,
    /// Columns per bit of `masks` (`⌈n / 64⌉`, at least 1).
    block: usize,
    /// Per row, the norm of its remainder, valid unless `stale`.
    norms: Vec<f64>,
    stale: Vec<bool>,
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
            masks: vec![0; m],
            block: n.div_ceil(64).max(1),
            norms: vec![0.0; m],
            stale: vec![true; m],
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
        let (n, m, block) = (self.n, self.m, self.block);
        let mut scale = 0.0_f64;
        for i in 0..m {
            let mut mask = 0_u64;
            for j in 0..n {
                let v = phi_q[(i, j)];
                scale = scale.max(v.abs());
                self.work[i * n + j] = v;
                if v != 0.0 {
                    mask |= 1 << (j / block);
                }
            }
            self.masks[i] = mask;
        }
        let tol = ROW_TOL * scale.max(f64::MIN_POSITIVE);
        self.independent.clear();
        self.dependent.clear();
        self.chosen.iter_mut().for_each(|c| *c = false);
        self.stale.iter_mut().for_each(|c| *c = true);
        for a in 0..m {
            let mut best = None;
            let mut best_norm = tol;
            for i in (0..m).filter(|&i| !self.chosen[i]) {
                if self.stale[i] {
                    let w = &self.work[i * n..(i + 1) * n];
                    self.norms[i] = masked_dot(w, w, self.masks[i], block).sqrt();
                    self.stale[i] = false;
                }
                let norm = self.norms[i];
                if norm > best_norm {
                    best = Some(i);
                    best_norm = norm;
                }
            }
            let Some(p) = best else { break };
            self.chosen[p] = true;
            self.independent.push(p);
            self.coef[p + a * m] = best_norm;
            let mask_p = self.masks[p];
            let (before, rest) = self.work.split_at_mut(p * n);
            let (b, after) = rest.split_at_mut(n);
            b.iter_mut().for_each(|x| *x /= best_norm);
            for i in (0..m).filter(|&i| !self.chosen[i]) {
                let common = self.masks[i] & mask_p;
                if common == 0 {
                    self.coef[i + a * m] = 0.0;
                    continue;
                }
                let w = if i < p {
                    &mut before[i * n..(i + 1) * n]
                } else {
                    &mut after[(i - p - 1) * n..(i - p) * n]
                };
                let s = masked_dot(b, w, common, block);
                self.coef[i + a * m] = s;
                for_blocks(mask_p, block, n, |cols| {
                    for (wj, bj) in w[cols.clone()].iter_mut().zip(&b[cols]) {
                        *wj -= s * bj;
                    }
                });
                self.masks[i] |= mask_p;
                self.stale[i] = true;
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

/// Calls `f` with the column ranges of the runs of set bits of `mask` (`block`
/// columns per bit, clipped to `n`), in increasing order: one range per run, so a
/// full mask is one pass over the row.
#[inline]
fn for_blocks(mut mask: u64, block: usize, n: usize, mut f: impl FnMut(std::ops::Range<usize>)) {
    let mut offset = 0;
    while mask != 0 {
        let skip = mask.trailing_zeros() as usize;
        mask >>= skip;
        let run = mask.trailing_ones() as usize;
        mask = mask.checked_shr(run as u32).unwrap_or(0);
        let start = (offset + skip) * block;
        if start >= n {
            break;
        }
        f(start..((offset + skip + run) * block).min(n));
        offset += skip + run;
    }
}

/// Σ aⱼbⱼ over the columns of the blocks of `mask`, in index order: the sum over
/// every column when `a` or `b` is zero outside them (the terms left out are zeros).
#[inline]
fn masked_dot(a: &[f64], b: &[f64], mask: u64, block: usize) -> f64 {
    let mut s = 0.0;
    for_blocks(mask, block, a.len(), |cols| {
        for (x, y) in a[cols.clone()].iter().zip(&b[cols]) {
            s += x * y;
        }
    });
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(mask: u64, block: usize, n: usize) -> Vec<std::ops::Range<usize>> {
        let mut v = Vec::new();
        for_blocks(mask, block, n, |r| v.push(r));
        v
    }

    /// Runs of set bits become one column range each, clipped to the row.
    #[test]
    fn blocks_are_the_runs_of_the_mask() {
        assert_eq!(ranges(0, 1, 10), Vec::<std::ops::Range<usize>>::new());
        assert_eq!(ranges(0b1011_0110, 1, 10), [1..3, 4..6, 7..8]);
        assert_eq!(ranges(0b101, 3, 8), [0..3, 6..8]);
        assert_eq!(ranges(u64::MAX, 1, 64), vec![0..64]);
        assert_eq!(ranges(1 << 63, 2, 128), vec![126..128]);
    }

    /// The masked product of rows that are zero outside the mask is the full
    /// sequential product bit for bit; the split of a Jacobian with disjoint and
    /// duplicated rows finds the duplicates.
    #[test]
    fn masked_products_and_split_match_the_full_ones() {
        let n: usize = 150;
        let block = n.div_ceil(64);
        let a: Vec<f64> = (0..n)
            .map(|j| {
                if (20..47).contains(&j) || j > 130 {
                    (j as f64 * 0.37).sin()
                } else {
                    0.0
                }
            })
            .collect();
        let b: Vec<f64> = (0..n).map(|j| (j as f64 * 1.1).cos() / 3.0).collect();
        let mask = (0..n)
            .filter(|&j| a[j] != 0.0)
            .fold(0_u64, |m, j| m | 1 << (j / block));
        let full = a.iter().zip(&b).fold(0.0, |s, (x, y)| s + x * y);
        assert_eq!(masked_dot(&a, &b, mask, block).to_bits(), full.to_bits());
        // rows 0, 1 on disjoint columns, row 2 = row 0 + 2 row 1, row 3 = row 1
        let (m, n) = (4, 6);
        let rows = [
            [1.0, 2.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 3.0, -1.0, 0.5],
            [1.0, 2.0, 0.0, 6.0, -2.0, 1.0],
            [0.0, 0.0, 0.0, 3.0, -1.0, 0.5],
        ];
        let j = faer::Mat::from_fn(m, n, |i, c| rows[i][c]);
        let mut split = RowSplit::new(n, m);
        assert!(split.split(j.as_ref()));
        assert_eq!(split.rank(), 2);
        assert_eq!(split.dependent.len(), 2);
        // Φ_D = C Φ_I
        for (c, &k) in split.dependent.iter().enumerate() {
            for col in 0..n {
                let v: f64 = (0..2)
                    .map(|a| split.ct[a + c * m] * rows[split.independent[a]][col])
                    .sum();
                assert!(
                    (v - rows[k][col]).abs() < 1e-12,
                    "row {k}, column {col}: {v}"
                );
            }
        }
    }
}
