//! The open-tree equations of one branch solved recursively, in O(b) for a branch
//! of b bodies, without forming A_o or AᵀMA.
//!
//! Meaning (Chiou eq 5.2.5.12 with the particular acceleration of [`super::tree`]):
//!
//! ```text
//!   Aᵀ M A üⁱ = Aᵀ (F − M ü_p),    ü = ü_p + A üⁱ,
//! ```
//!
//! the normal equations of Gauss's principle `min Σ_c ½ ü_cᵀ M_c ü_c − F_cᵀ ü_c`
//! over the accelerations allowed by the tree joints. Body by body (eq 5.4.1.8
//! differentiated), `ü_c = S_c üⁱ_c + T_c ü_p(c) + z_c`, where `S_c` (6 × (6 − r))
//! has the unit rows of the independent columns and `−(B^d)⁻¹B^i` in the dependent
//! rows, `T_c = −(B^d)⁻¹ B_kp` (dependent rows, zero without a body parent) and
//! `z_c = (B^d)⁻¹ Γ̄_k` (dependent rows). A_o is built from exactly these blocks
//! (`A_c = S_c E_c + T_c A_p(c)`), so AᵀMA is the tree-structured matrix that the
//! sweeps below factor by Gauss elimination from the tips to the root — the
//! articulated-body recursion of Featherstone (*Rigid Body Dynamics Algorithms*,
//! 2008, ch 7, ABA) with `T_c` in place of the spatial transform and `S_c` as the
//! motion subspace:
//!
//! ```text
//!   tip → root:  I_c = M_c + Σ_children T_kᵀ Iᵃ_k T_k,   U_c = I_c S_c,   D_c = S_cᵀ U_c,
//!                Iᵃ_c = I_c − U_c D_c⁻¹ U_cᵀ,
//!                p_c = −F_c + Σ_children T_kᵀ (Iᵃ_k z_k + p_k − U_k D_k⁻¹ S_kᵀ p_k)
//!   root → tip:  w = T_c ü_p(c) + z_c,  üⁱ_c = −D_c⁻¹ (U_cᵀ w + S_cᵀ p_c),  ü_c = S_c üⁱ_c + w.
//! ```
//!
//! A different factorization of the same matrix: the result equals the dense
//! Cholesky solve of [`super::tree::build_branch_into`] within round-off, and D_c
//! is positive definite at every body exactly when AᵀMA is (its pivots are Schur
//! complements of AᵀMA). The factors ([`ArticulatedBranch::factor`]) depend only
//! on the configuration; [`ArticulatedBranch::solve`] applies them to any forces in
//! O(b), which the cut-joint solve uses for the few right-hand sides `B_cᵀ e_i`.

use mbs_constraints::SystemLayout;
use nalgebra::{Matrix6, Vector6};

use super::tree::{Branch, Split};

/// The factors of one body of the branch.
#[derive(Clone, Debug, Default)]
struct LinkFactor {
    /// S_c: the first 6 − r columns (the rest zero).
    s: Matrix6<f64>,
    /// T_c (zero rows outside the dependent columns of the split).
    t: Matrix6<f64>,
    /// Whether T_c couples to a body parent.
    has_t: bool,
    /// z_c.
    z: Vector6<f64>,
    /// I_c while accumulating; then U_c = I_c S_c.
    u: Matrix6<f64>,
    /// D_c⁻¹ (the unused diagonal padded with ones, so the padding adds nothing).
    dinv: Matrix6<f64>,
    /// T_cᵀ Iᵃ_c z_c, the particular acceleration's force on the parent.
    bz: Vector6<f64>,
    /// Accumulated I_c of the children and the body.
    ia: Matrix6<f64>,
}

/// The recursive factors of one branch, preallocated (6 × 6 blocks per body) and
/// refilled by [`ArticulatedBranch::factor`] without allocating.
#[derive(Clone, Debug)]
pub struct ArticulatedBranch {
    links: Vec<LinkFactor>,
}

/// Where body data of a branch sit in a buffer: by local index or by body index.
#[derive(Clone, Copy, Debug)]
pub enum Slots {
    /// `6 l..6 l + 6` for the branch's l-th body.
    Local,
    /// `6 b..6 b + 6` for body b (a global body vector).
    Global,
}

impl ArticulatedBranch {
    /// Storage for `branch`.
    pub fn new(branch: &Branch) -> Self {
        Self {
            links: vec![LinkFactor::default(); branch.links.len()],
        }
    }

    /// The tip → root factorization at the configuration whose splits (eq 5.4.1.5)
    /// are `splits`; `false` if some D_c is not positive definite (AᵀMA singular).
    pub fn factor(&mut self, branch: &Branch, splits: &[Split], sys: &SystemLayout) -> bool {
        for ((f, link), sp) in self.links.iter_mut().zip(&branch.links).zip(splits) {
            let ni = 6 - sp.r;
            f.s.fill(0.0);
            f.t.fill(0.0);
            f.z.fill(0.0);
            for c in 0..ni {
                f.s[(sp.indep[c], c)] = 1.0;
            }
            for d in 0..sp.r {
                let row = sp.dep[d];
                for c in 0..ni {
                    f.s[(row, c)] = -sp.x[(d, c)];
                }
                f.z[row] = sp.z[d];
            }
            f.has_t = sp.has_y && link.parent_local.is_some();
            if f.has_t {
                for d in 0..sp.r {
                    for j in 0..6 {
                        f.t[(sp.dep[d], j)] = -sp.y[(d, j)];
                    }
                }
            }
            f.ia.fill(0.0);
            f.ia.fixed_view_mut::<3, 3>(0, 0)
                .fill_diagonal(sys.mass(link.body));
            f.ia.fixed_view_mut::<3, 3>(3, 3)
                .copy_from(sys.inertia(link.body));
        }
        for l in (0..self.links.len()).rev() {
            let ni = 6 - splits[l].r;
            let (head, tail) = self.links.split_at_mut(l);
            let f = &mut tail[0];
            f.u = f.ia * f.s;
            let mut d = f.s.transpose() * f.u;
            for i in ni..6 {
                d[(i, i)] = 1.0;
            }
            let Some(ch) = d.cholesky() else {
                return false;
            };
            f.dinv = ch.inverse();
            let art = f.ia - f.u * f.dinv * f.u.transpose();
            if let (true, Some(pl)) = (f.has_t, branch.links[l].parent_local) {
                f.bz = f.t.transpose() * (art * f.z);
                head[pl].ia += f.t.transpose() * art * f.t;
            } else {
                f.bz.fill(0.0);
            }
        }
        true
    }

    /// The accelerations of the branch under the forces in `buf` (6 per body at
    /// `slots`; replaced by ü): `ü = ü_p + A (AᵀMA)⁻¹ Aᵀ(F − M ü_p)` with the
    /// particular acceleration when `particular`, else `ü = A (AᵀMA)⁻¹ Aᵀ F`.
    /// Allocation-free; the factors of [`Self::factor`] are used as they are.
    pub fn solve(&self, branch: &Branch, buf: &mut [f64], slots: Slots, particular: bool) {
        let at = |l: usize| match slots {
            Slots::Local => 6 * l,
            Slots::Global => 6 * branch.links[l].body,
        };
        for l in 0..self.links.len() {
            for x in &mut buf[at(l)..at(l) + 6] {
                *x = -*x;
            }
        }
        // tip → root: bias forces; S_cᵀ p_c kept in the body's slot
        for l in (0..self.links.len()).rev() {
            let f = &self.links[l];
            let o = at(l);
            let p = Vector6::from_column_slice(&buf[o..o + 6]);
            let sp = f.s.transpose() * p;
            if let (true, Some(pl)) = (f.has_t, branch.links[l].parent_local) {
                let pa = p - f.u * (f.dinv * sp);
                let mut up = f.t.transpose() * pa;
                if particular {
                    up += f.bz;
                }
                let op = at(pl);
                for (x, u) in buf[op..op + 6].iter_mut().zip(up.iter()) {
                    *x += u;
                }
            }
            buf[o..o + 6].copy_from_slice(sp.as_slice());
        }
        // root → tip: accelerations
        for l in 0..self.links.len() {
            let f = &self.links[l];
            let o = at(l);
            let mut w = if particular { f.z } else { Vector6::zeros() };
            if let (true, Some(pl)) = (f.has_t, branch.links[l].parent_local) {
                let op = at(pl);
                w += f.t * Vector6::from_column_slice(&buf[op..op + 6]);
            }
            let sp = Vector6::from_column_slice(&buf[o..o + 6]);
            let ui = -(f.dinv * (f.u.transpose() * w + sp));
            let udd = f.s * ui + w;
            buf[o..o + 6].copy_from_slice(udd.as_slice());
        }
    }

    /// `Aᵀ f` of the branch (eq 6.3.2's sums run backwards): from the forces `f` (6
    /// per body at `slots`, overwritten) into `out` at the branch's columns
    /// (`offsets[l]` for the l-th body's 6 − r independent velocities).
    pub fn transpose_apply(
        &self,
        branch: &Branch,
        splits: &[Split],
        offsets: &[usize],
        buf: &mut [f64],
        slots: Slots,
        out: &mut [f64],
    ) {
        let at = |l: usize| match slots {
            Slots::Local => 6 * l,
            Slots::Global => 6 * branch.links[l].body,
        };
        for l in (0..self.links.len()).rev() {
            let f = &self.links[l];
            let o = at(l);
            let g = Vector6::from_column_slice(&buf[o..o + 6]);
            if let (true, Some(pl)) = (f.has_t, branch.links[l].parent_local) {
                let up = f.t.transpose() * g;
                let op = at(pl);
                for (x, u) in buf[op..op + 6].iter_mut().zip(up.iter()) {
                    *x += u;
                }
            }
            let sg = f.s.transpose() * g;
            let ni = 6 - splits[l].r;
            out[offsets[l]..offsets[l] + ni].copy_from_slice(&sg.as_slice()[..ni]);
        }
    }
}

/// Solves the symmetric positive semidefinite `n × n` system `c x = b` (column
/// major, overwritten) by Cholesky with diagonal pivoting, dropping the pivots
/// below `tol` times the largest diagonal entry: the basic solution on the
/// independent rows (zeros elsewhere), into `b`; `perm` and `y` are scratch of
/// length `n`. Returns the rank. Allocation-free.
pub fn pivoted_cholesky_solve(
    c: &mut [f64],
    n: usize,
    b: &mut [f64],
    tol: f64,
    perm: &mut [usize],
    y: &mut [f64],
) -> usize {
    let idx = |i: usize, j: usize| i + j * n;
    for (i, p) in perm.iter_mut().enumerate().take(n) {
        *p = i;
    }
    let dmax = (0..n).map(|i| c[idx(i, i)]).fold(0.0_f64, f64::max);
    let mut k = 0;
    while k < n {
        let p = (k..n)
            .max_by(|&a, &b| c[idx(a, a)].total_cmp(&c[idx(b, b)]))
            .unwrap_or(k);
        let piv = c[idx(p, p)];
        if piv.is_nan() || piv <= tol * dmax {
            break;
        }
        if p != k {
            perm.swap(k, p);
            for j in 0..n {
                c.swap(idx(k, j), idx(p, j));
            }
            for i in 0..n {
                c.swap(idx(i, k), idx(i, p));
            }
        }
        let d = c[idx(k, k)].sqrt();
        c[idx(k, k)] = d;
        for i in k + 1..n {
            c[idx(i, k)] /= d;
        }
        for j in k + 1..n {
            let ljk = c[idx(j, k)];
            for i in k + 1..n {
                c[idx(i, j)] -= c[idx(i, k)] * ljk;
            }
        }
        k += 1;
    }
    // L y = P b (first k), Lᵀ x = y
    for i in 0..k {
        let mut s = b[perm[i]];
        for j in 0..i {
            s -= c[idx(i, j)] * y[j];
        }
        y[i] = s / c[idx(i, i)];
    }
    for i in (0..k).rev() {
        let mut s = y[i];
        for j in i + 1..k {
            s -= c[idx(j, i)] * y[j];
        }
        y[i] = s / c[idx(i, i)];
    }
    b[..n].fill(0.0);
    for i in 0..k {
        b[perm[i]] = y[i];
    }
    k
}
