//! The arrowhead operator of Chiou eqs 6.2.4–6.2.10: per-body SPD mass blocks
//! `M_j` (factored once by Cholesky, eq 6.5.1.2) and the constraint matrix `B`
//! given per joint (row block) as dense per-body blocks `B_(i,j)`.
//!
//! Internally the joint vectors (`λ`, residuals) use a padded layout of
//! `num_joints × max_joint_dim` and the body vectors `num_bodies × max_body_dim`,
//! so that rayon can hand disjoint equal chunks to the workers.

use nalgebra::DMatrix;

use crate::error::{check_finite, check_len};
use crate::small::cholesky_in_place;
use crate::{LinalgError, Par};

/// The blocks of one joint (one row block of `B`): `(body, B_(i,j))` with
/// `B_(i,j)` of size `r_i × d_j`.
pub type JointBlocks = Vec<(usize, DMatrix<f64>)>;

/// One block `B_(i,j)`: joint, body, size and offset into the value array.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    pub(crate) joint: usize,
    pub(crate) body: usize,
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) off: usize,
}

/// Matrix-free `M* = ε I + ϱ² B M⁻¹ Bᵀ` (Chiou eq 6.2.10).
#[derive(Debug, Clone)]
pub struct ArrowheadOperator {
    pub(crate) body_dim: Vec<usize>,
    pub(crate) body_off: Vec<usize>,
    pub(crate) joint_dim: Vec<usize>,
    pub(crate) joint_off: Vec<usize>,
    pub(crate) dmax: usize,
    pub(crate) rmax: usize,
    /// Lower Cholesky factors of the `M_j`, `dmax × dmax` column-major each.
    pub(crate) mass_chol: Vec<f64>,
    /// Entries grouped by joint: `joint_ptr[i]..joint_ptr[i+1]`.
    pub(crate) joint_ptr: Vec<usize>,
    pub(crate) entry_body: Vec<usize>,
    pub(crate) entry_data: Vec<usize>,
    /// For each body, the entries touching it: `body_ptr[j]..body_ptr[j+1]`
    /// into `body_entries` (entry ids, ordered by joint).
    pub(crate) body_ptr: Vec<usize>,
    pub(crate) body_entries: Vec<usize>,
    pub(crate) entry_joint: Vec<usize>,
    /// Block values, `r_i × d_j` column-major each.
    pub(crate) data: Vec<f64>,
    /// Per-entry metadata (hot loops read only this).
    pub(crate) entries: Vec<Entry>,
    /// Reciprocals of the diagonals of the mass Cholesky factors (`dmax` per body).
    pub(crate) mass_inv_diag: Vec<f64>,
    pub(crate) epsilon: f64,
    pub(crate) rho: f64,
}

impl ArrowheadOperator {
    /// Builds the operator from the per-body mass blocks and, per joint, the
    /// per-body constraint blocks; factors every `M_j` (Chiou eq 6.5.1.2).
    pub fn new(
        masses: &[DMatrix<f64>],
        joints: &[JointBlocks],
        epsilon: f64,
        rho: f64,
    ) -> Result<Self, LinalgError> {
        let nb = masses.len();
        let mut body_dim = Vec::with_capacity(nb);
        for m in masses {
            if m.nrows() != m.ncols() {
                return Err(LinalgError::DimensionMismatch {
                    what: "arrowhead mass block (square)",
                    expected: m.nrows(),
                    got: m.ncols(),
                });
            }
            check_finite("arrowhead mass block", m.as_slice())?;
            body_dim.push(m.nrows());
        }
        let dmax = body_dim.iter().copied().max().unwrap_or(0).max(1);
        let mut body_off = Vec::with_capacity(nb + 1);
        let mut acc = 0;
        for &d in &body_dim {
            body_off.push(acc);
            acc += d;
        }
        body_off.push(acc);
        let nj = joints.len();
        let mut joint_dim = Vec::with_capacity(nj);
        let mut joint_ptr = vec![0usize];
        let mut entry_body = Vec::new();
        let mut entry_data = Vec::new();
        let mut entry_joint = Vec::new();
        let mut data = Vec::new();
        for (i, blocks) in joints.iter().enumerate() {
            let r = blocks.first().map(|(_, b)| b.nrows()).unwrap_or(0);
            for (body, b) in blocks {
                if *body >= nb {
                    return Err(LinalgError::DimensionMismatch {
                        what: "arrowhead block body index",
                        expected: nb,
                        got: *body,
                    });
                }
                check_len("arrowhead block rows", r, b.nrows())?;
                check_len("arrowhead block cols", body_dim[*body], b.ncols())?;
                check_finite("arrowhead constraint block", b.as_slice())?;
                entry_body.push(*body);
                entry_data.push(data.len());
                entry_joint.push(i);
                data.extend_from_slice(b.as_slice());
            }
            joint_dim.push(r);
            joint_ptr.push(entry_body.len());
        }
        let rmax = joint_dim.iter().copied().max().unwrap_or(0).max(1);
        let mut joint_off = Vec::with_capacity(nj + 1);
        let mut acc = 0;
        for &r in &joint_dim {
            joint_off.push(acc);
            acc += r;
        }
        joint_off.push(acc);
        // body → entries, ordered by joint (then by position within the joint)
        let mut counts = vec![0usize; nb + 1];
        for &b in &entry_body {
            counts[b + 1] += 1;
        }
        for j in 0..nb {
            counts[j + 1] += counts[j];
        }
        let body_ptr = counts.clone();
        let mut fill = counts;
        let mut body_entries = vec![0usize; entry_body.len()];
        for (e, &b) in entry_body.iter().enumerate() {
            body_entries[fill[b]] = e;
            fill[b] += 1;
        }
        let entries = (0..entry_body.len())
            .map(|e| Entry {
                joint: entry_joint[e],
                body: entry_body[e],
                rows: joint_dim[entry_joint[e]],
                cols: body_dim[entry_body[e]],
                off: entry_data[e],
            })
            .collect();
        let mut op = Self {
            entries,
            mass_inv_diag: vec![0.0; nb * dmax],
            body_dim,
            body_off,
            joint_dim,
            joint_off,
            dmax,
            rmax,
            mass_chol: vec![0.0; nb * dmax * dmax],
            joint_ptr,
            entry_body,
            entry_data,
            body_ptr,
            body_entries,
            entry_joint,
            data,
            epsilon,
            rho,
        };
        for (j, m) in masses.iter().enumerate() {
            op.set_mass(j, m.as_slice())?;
        }
        op.set_penalty(epsilon, rho)?;
        Ok(op)
    }

    /// Number of bodies.
    pub fn num_bodies(&self) -> usize {
        self.body_dim.len()
    }

    /// Number of joints (row blocks of `B`).
    pub fn num_joints(&self) -> usize {
        self.joint_dim.len()
    }

    /// Total body dimension `n = Σ d_j` (length of `ü`, `c`).
    pub fn n(&self) -> usize {
        *self.body_off.last().unwrap_or(&0)
    }

    /// Total constraint dimension `m = Σ r_i` (length of `λ`, `b`, `d`).
    pub fn m(&self) -> usize {
        *self.joint_off.last().unwrap_or(&0)
    }

    /// `ε` and `ϱ`.
    pub fn penalty(&self) -> (f64, f64) {
        (self.epsilon, self.rho)
    }

    /// Sets `ε ≥ 0` (penalty) and `ϱ = h/2` (eq 6.2.1).
    pub fn set_penalty(&mut self, epsilon: f64, rho: f64) -> Result<(), LinalgError> {
        check_finite("arrowhead epsilon/rho", &[epsilon, rho])?;
        if epsilon < 0.0 {
            return Err(LinalgError::NotPositiveDefinite { index: 0 });
        }
        self.epsilon = epsilon;
        self.rho = rho;
        Ok(())
    }

    /// Replaces `M_j` (column-major `d_j × d_j`) and refactors it.
    pub fn set_mass(&mut self, body: usize, values: &[f64]) -> Result<(), LinalgError> {
        if body >= self.num_bodies() {
            return Err(LinalgError::InvalidArgument(
                "ArrowheadOperator::set_mass: body index out of range",
            ));
        }
        let d = self.body_dim[body];
        check_len("arrowhead mass values", d * d, values.len())?;
        check_finite("arrowhead mass values", values)?;
        let ld = self.dmax;
        let l = &mut self.mass_chol[body * ld * ld..(body + 1) * ld * ld];
        l.iter_mut().for_each(|v| *v = 0.0);
        for j in 0..d {
            for i in 0..d {
                l[i + j * ld] = values[i + j * d];
            }
        }
        cholesky_in_place(l, ld, d, 0.0).map_err(|index| LinalgError::NotPositiveDefinite {
            index: self.body_off[body] + index,
        })?;
        // the strict upper triangle is read as L's zeros ([`Self::dense_mass`])
        for j in 0..d {
            for i in 0..j {
                l[i + j * ld] = 0.0;
            }
        }
        for i in 0..d {
            self.mass_inv_diag[body * ld + i] = 1.0 / l[i + i * ld];
        }
        Ok(())
    }

    /// Replaces the `k`-th block of joint `i` (column-major `r_i × d_j`).
    pub fn set_block(&mut self, joint: usize, k: usize, values: &[f64]) -> Result<(), LinalgError> {
        if joint >= self.num_joints() {
            return Err(LinalgError::InvalidArgument(
                "ArrowheadOperator::set_block: joint index out of range",
            ));
        }
        let e = self.joint_ptr[joint] + k;
        if e >= self.joint_ptr[joint + 1] {
            return Err(LinalgError::DimensionMismatch {
                what: "arrowhead block index",
                expected: self.joint_ptr[joint + 1] - self.joint_ptr[joint],
                got: k,
            });
        }
        let len = self.joint_dim[joint] * self.body_dim[self.entry_body[e]];
        check_len("arrowhead block values", len, values.len())?;
        check_finite("arrowhead block values", values)?;
        let off = self.entry_data[e];
        self.data[off..off + len].copy_from_slice(values);
        Ok(())
    }

    pub(crate) fn padded_m(&self) -> usize {
        self.num_joints() * self.rmax
    }

    pub(crate) fn padded_n(&self) -> usize {
        self.num_bodies() * self.dmax
    }

    pub(crate) fn chol(&self, body: usize) -> &[f64] {
        let ld = self.dmax;
        &self.mass_chol[body * ld * ld..(body + 1) * ld * ld]
    }

    pub(crate) fn block(&self, e: usize) -> &[f64] {
        let len = self.joint_dim[self.entry_joint[e]] * self.body_dim[self.entry_body[e]];
        &self.data[self.entry_data[e]..self.entry_data[e] + len]
    }

    /// Body kernel: `t_j = M_j⁻¹ (s_j · c_j + Σ_i B_(i,j)ᵀ x_i)` (padded `x`).
    fn body_kernel(&self, j: usize, x: &[f64], c: Option<&[f64]>, sign: f64, tj: &mut [f64]) {
        let d = self.body_dim[j];
        let tj = &mut tj[..d];
        tj.iter_mut().for_each(|v| *v = 0.0);
        for &e in &self.body_entries[self.body_ptr[j]..self.body_ptr[j + 1]] {
            let en = self.entries[e];
            let r = en.rows;
            let b = &self.data[en.off..en.off + r * d];
            let xi = &x[en.joint * self.rmax..en.joint * self.rmax + r];
            for (tc, bcol) in tj.iter_mut().zip(b.chunks_exact(r)) {
                let mut s = 0.0;
                for (bv, xv) in bcol.iter().zip(xi) {
                    s += bv * xv;
                }
                *tc += sign * s;
            }
        }
        if let Some(c) = c {
            let cj = &c[self.body_off[j]..self.body_off[j] + d];
            for (t, cv) in tj.iter_mut().zip(cj) {
                *t += cv;
            }
        }
        // L Lᵀ t = rhs with the reciprocal diagonal (no divisions in the hot loop)
        let ld = self.dmax;
        let l = self.chol(j);
        let inv = &self.mass_inv_diag[j * ld..j * ld + d];
        for i in 0..d {
            let mut s = tj[i];
            for k in 0..i {
                s -= l[i + k * ld] * tj[k];
            }
            tj[i] = s * inv[i];
        }
        for i in (0..d).rev() {
            let col = &l[i * ld..i * ld + d];
            let mut s = tj[i];
            for k in i + 1..d {
                s -= col[k] * tj[k];
            }
            tj[i] = s * inv[i];
        }
    }

    /// Joint kernel: `y_i = α x_i + β Σ_j B_(i,j) t_j` (padded `t`).
    fn joint_kernel(
        &self,
        i: usize,
        alpha: f64,
        x: Option<&[f64]>,
        beta: f64,
        t: &[f64],
        yi: &mut [f64],
    ) {
        let r = self.joint_dim[i];
        let yi = &mut yi[..r];
        yi.iter_mut().for_each(|v| *v = 0.0);
        for en in &self.entries[self.joint_ptr[i]..self.joint_ptr[i + 1]] {
            let d = en.cols;
            let b = &self.data[en.off..en.off + r * d];
            let tj = &t[en.body * self.dmax..en.body * self.dmax + d];
            for (bcol, &tc) in b.chunks_exact(r).zip(tj) {
                for (y, bv) in yi.iter_mut().zip(bcol) {
                    *y += bv * tc;
                }
            }
        }
        for y in yi.iter_mut() {
            *y *= beta;
        }
        if let Some(x) = x {
            let xi = &x[i * self.rmax..i * self.rmax + r];
            for (y, xv) in yi.iter_mut().zip(xi) {
                *y += alpha * xv;
            }
        }
    }

    pub(crate) fn body_phase(
        &self,
        x: &[f64],
        c: Option<&[f64]>,
        sign: f64,
        t: &mut [f64],
        par: Par,
    ) {
        let dmax = self.dmax;
        par.for_each_chunk(t, dmax, |j, tj| self.body_kernel(j, x, c, sign, tj));
    }

    pub(crate) fn joint_phase(
        &self,
        alpha: f64,
        x: Option<&[f64]>,
        beta: f64,
        t: &[f64],
        y: &mut [f64],
        par: Par,
    ) {
        let rmax = self.rmax;
        par.for_each_chunk(y, rmax, |i, yi| self.joint_kernel(i, alpha, x, beta, t, yi));
    }

    /// `y = M* x` on padded vectors (eq 6.4.7): `t_j = M_j⁻¹ Σ_i B_(j,i) x_i` per
    /// body, then `y_i = ε x_i + ϱ² Σ_j B_(i,j) t_j` per joint.
    pub(crate) fn apply_padded(&self, x: &[f64], y: &mut [f64], t: &mut [f64], par: Par) {
        self.body_phase(x, None, 1.0, t, par);
        self.joint_phase(self.epsilon, Some(x), self.rho * self.rho, t, y, par);
    }

    pub(crate) fn pad_joint(&self, src: &[f64], dst: &mut [f64]) {
        for i in 0..self.num_joints() {
            let r = self.joint_dim[i];
            let o = self.joint_off[i];
            dst[i * self.rmax..i * self.rmax + r].copy_from_slice(&src[o..o + r]);
            dst[i * self.rmax + r..(i + 1) * self.rmax]
                .iter_mut()
                .for_each(|v| *v = 0.0);
        }
    }

    pub(crate) fn unpad_joint(&self, src: &[f64], dst: &mut [f64]) {
        for i in 0..self.num_joints() {
            let r = self.joint_dim[i];
            let o = self.joint_off[i];
            dst[o..o + r].copy_from_slice(&src[i * self.rmax..i * self.rmax + r]);
        }
    }

    pub(crate) fn unpad_body(&self, src: &[f64], dst: &mut [f64]) {
        for j in 0..self.num_bodies() {
            let d = self.body_dim[j];
            let o = self.body_off[j];
            dst[o..o + d].copy_from_slice(&src[j * self.dmax..j * self.dmax + d]);
        }
    }

    /// Dense `B` (`m × n`), for tests and reference solutions.
    pub fn dense_b(&self) -> DMatrix<f64> {
        let mut b = DMatrix::zeros(self.m(), self.n());
        for e in 0..self.entry_body.len() {
            let (i, j) = (self.entry_joint[e], self.entry_body[e]);
            let (r, d) = (self.joint_dim[i], self.body_dim[j]);
            let blk = self.block(e);
            for col in 0..d {
                for row in 0..r {
                    b[(self.joint_off[i] + row, self.body_off[j] + col)] += blk[row + col * r];
                }
            }
        }
        b
    }

    /// Dense block-diagonal `M` (`n × n`), for tests and reference solutions.
    pub fn dense_mass(&self) -> DMatrix<f64> {
        let n = self.n();
        let mut m = DMatrix::zeros(n, n);
        for j in 0..self.num_bodies() {
            let d = self.body_dim[j];
            let l = DMatrix::from_fn(d, d, |r, c| self.chol(j)[r + c * self.dmax]);
            let mj = &l * l.transpose();
            m.view_mut((self.body_off[j], self.body_off[j]), (d, d))
                .copy_from(&mj);
        }
        m
    }

    /// Dense `M* = ε I + ϱ² B M⁻¹ Bᵀ` (tests and reference only; the solver never
    /// forms it).
    pub fn dense_schur(&self) -> DMatrix<f64> {
        let b = self.dense_b();
        let minv_bt = self
            .dense_mass()
            .cholesky()
            .map(|c| c.solve(&b.transpose()))
            .unwrap_or_else(|| DMatrix::zeros(self.n(), self.m()));
        let mut s = &b * minv_bt * (self.rho * self.rho);
        for i in 0..self.m() {
            s[(i, i)] += self.epsilon;
        }
        s
    }
}
