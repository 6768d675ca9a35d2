//! Global fills from the evaluated blocks: Φ, Φ_t, Φ̇, γ (row order of
//! [`SystemLayout`]), Φ_q dense, Φ_q values in the fixed CSC pattern, and matrix-free
//! products Φ_q x and Φ_qᵀ y. No allocation.

use mbs_kinematics::euler_params::{normalization, normalization_gamma};
use mbs_model::{BodyRef, Layout};
use nalgebra::DMatrix;

use crate::assembly::{NONE, SystemLayout};
use crate::block::ConstraintBlock;
use crate::error::ConstraintError;
use crate::frame::BodyFrame;
use crate::workspace::{Workspace, check_len, velocity6};

impl Workspace {
    /// Global Φ (length m): holonomic rows Φ (normalization pᵀp − 1 included), then the
    /// nonholonomic residuals B v + b.
    pub fn phi(&self, sys: &SystemLayout, out: &mut [f64]) -> Result<(), ConstraintError> {
        check_len("phi", sys.m, out.len())?;
        self.scatter_rows(sys, out, |b| &b.phi, |f| normalization(&f.p))
    }

    /// Velocity-level residual Φ̇ = Φ_q v + Φ_t (length m) at the evaluated state:
    /// holonomic rows Φ̇ (normalization rows 2pᵀṗ), nonholonomic rows B v + b.
    /// Φ_q v is computed with the [ṙ; ω'] blocks, which equals the [ṙ; ṗ] product
    /// exactly (ω' = H ṗ, see `crate::frame`).
    pub fn phi_dot(&self, sys: &SystemLayout, out: &mut [f64]) -> Result<(), ConstraintError> {
        check_len("phi_dot", sys.m, out.len())?;
        for (e, b) in sys.entries.iter().zip(&self.blocks) {
            let vi = velocity6(self.frame(e.body_i));
            let vj = velocity6(self.frame(e.body_j));
            for r in 0..e.rows() {
                let jv: f64 = (0..6)
                    .map(|c| b.ji[(r, c)] * vi[c] + b.jj[(r, c)] * vj[c])
                    .sum();
                out[e.global_row(r)] = jv + b.phi_t[r];
            }
        }
        if let Some(ns) = sys.normalization_start {
            for (k, f) in self.frames.iter().enumerate() {
                out[ns + k] = 2.0 * f.p.dot(&f.pdot);
            }
        }
        Ok(())
    }

    /// Global Φ_t (length m); b for nonholonomic rows, 0 for normalization rows.
    pub fn phi_t(&self, sys: &SystemLayout, out: &mut [f64]) -> Result<(), ConstraintError> {
        check_len("phi_t", sys.m, out.len())?;
        self.scatter_rows(sys, out, |b| &b.phi_t, |_| 0.0)
    }

    /// Global γ (length m), Φ_q v̇ = γ; normalization rows −2ṗᵀṗ.
    pub fn gamma(&self, sys: &SystemLayout, out: &mut [f64]) -> Result<(), ConstraintError> {
        check_len("gamma", sys.m, out.len())?;
        self.scatter_rows(sys, out, |b| &b.gamma, |f| normalization_gamma(&f.pdot))
    }

    fn scatter_rows(
        &self,
        sys: &SystemLayout,
        out: &mut [f64],
        get: impl Fn(&ConstraintBlock) -> &nalgebra::SVector<f64, 6>,
        norm: impl Fn(&BodyFrame) -> f64,
    ) -> Result<(), ConstraintError> {
        for (e, b) in sys.entries.iter().zip(&self.blocks) {
            let v = get(b);
            for r in 0..e.rows() {
                out[e.global_row(r)] = v[r];
            }
        }
        if let Some(ns) = sys.normalization_start {
            for (k, f) in self.frames.iter().enumerate() {
                out[ns + k] = norm(f);
            }
        }
        Ok(())
    }

    /// The Jacobian block (in the state's layout) of entry `k`, slot 0 (i) or 1 (j).
    #[inline]
    fn layout_block(&self, sys: &SystemLayout, k: usize, slot: usize) -> (&[f64], usize) {
        // Column-major storage: column c starts at c * MAX_ROWS.
        let b = &self.blocks[k];
        match (sys.layout, slot) {
            (Layout::EulerParamsOmega, 0) => (b.ji.as_slice(), 6),
            (Layout::EulerParamsOmega, _) => (b.jj.as_slice(), 6),
            (Layout::EulerParamsPdot, 0) => (b.ji_pdot.as_slice(), 7),
            (Layout::EulerParamsPdot, _) => (b.jj_pdot.as_slice(), 7),
        }
    }

    /// Calls `f(row, col, value)` for every structurally present entry of Φ_q.
    fn for_each_entry(&self, sys: &SystemLayout, mut f: impl FnMut(usize, usize, f64)) {
        let nvb = sys.layout.v_per_body();
        for (k, e) in sys.entries.iter().enumerate() {
            for (slot, body) in [e.body_i, e.body_j].into_iter().enumerate() {
                let BodyRef::Body(id) = body else { continue };
                let (data, ncols) = self.layout_block(sys, k, slot);
                let col0 = nvb * id.0;
                for c in 0..ncols {
                    for r in 0..e.rows() {
                        f(
                            e.global_row(r),
                            col0 + c,
                            data[c * crate::block::MAX_ROWS + r],
                        );
                    }
                }
            }
        }
        if let Some(ns) = sys.normalization_start {
            for (b, fr) in self.frames.iter().enumerate() {
                for c in 0..4 {
                    f(ns + b, nvb * b + 3 + c, 2.0 * fr.p[c]);
                }
            }
        }
    }

    /// Dense Φ_q (m × n_v) into `out` (zeroed first; must have that shape).
    pub fn phi_q_dense(
        &self,
        sys: &SystemLayout,
        out: &mut DMatrix<f64>,
    ) -> Result<(), ConstraintError> {
        check_len("phi_q rows", sys.m, out.nrows())?;
        check_len("phi_q columns", sys.n_v(), out.ncols())?;
        out.fill(0.0);
        self.for_each_entry(sys, |r, c, v| out[(r, c)] += v);
        Ok(())
    }

    /// The values of Φ_q in the order of [`SystemLayout::pattern`] (length nnz).
    pub fn phi_q_values(&self, sys: &SystemLayout, out: &mut [f64]) -> Result<(), ConstraintError> {
        check_len("phi_q values", sys.pattern.nnz(), out.len())?;
        let nvb = sys.layout.v_per_body();
        for (k, e) in sys.entries.iter().enumerate() {
            let pos = &sys.positions[k];
            for (slot, body) in [e.body_i, e.body_j].into_iter().enumerate() {
                if body == BodyRef::Ground {
                    continue;
                }
                let (data, _) = self.layout_block(sys, k, slot);
                for (part, (r0, len)) in [(0, e.n_holonomic), (e.n_holonomic, e.n_nonholonomic)]
                    .into_iter()
                    .enumerate()
                {
                    for c in 0..nvb {
                        let p = pos[slot][part][c];
                        if p == NONE {
                            continue;
                        }
                        let col = &data[c * crate::block::MAX_ROWS..];
                        out[p..p + len].copy_from_slice(&col[r0..r0 + len]);
                    }
                }
            }
        }
        for (b, fr) in sys.norm_positions.iter().zip(&self.frames) {
            for c in 0..4 {
                out[b[c]] = 2.0 * fr.p[c];
            }
        }
        Ok(())
    }

    /// out = Φ_q x (x of length n_v, out of length m), matrix-free.
    pub fn phi_q_mul(
        &self,
        sys: &SystemLayout,
        x: &[f64],
        out: &mut [f64],
    ) -> Result<(), ConstraintError> {
        check_len("phi_q_mul x", sys.n_v(), x.len())?;
        check_len("phi_q_mul out", sys.m, out.len())?;
        out.fill(0.0);
        self.for_each_entry(sys, |r, c, v| out[r] += v * x[c]);
        Ok(())
    }

    /// out = Φ_qᵀ y (y of length m, out of length n_v), matrix-free.
    pub fn phi_q_tr_mul(
        &self,
        sys: &SystemLayout,
        y: &[f64],
        out: &mut [f64],
    ) -> Result<(), ConstraintError> {
        check_len("phi_q_tr_mul y", sys.m, y.len())?;
        check_len("phi_q_tr_mul out", sys.n_v(), out.len())?;
        out.fill(0.0);
        self.for_each_entry(sys, |r, c, v| out[c] += v * y[r]);
        Ok(())
    }
}
