//! The null-space methods of `mbs-linalg` behind one stateful handle (coordinate
//! partitioning keeps its partition between calls and re-selects it when it
//! degrades), and the minimum-norm solve used for particular solutions and for
//! the Newton–Raphson correction.

use mbs_linalg::LinalgError;
use mbs_linalg::nullspace::{
    CoordinatePartitioning, NullSpaceMethod, NullSpaceParams, NullSpaceWorkspace, null_space_into,
};
use nalgebra::{DMatrix, DVector};

use crate::workspace::{MinNormWork, cholesky_solve, mmut, mref, mul};

/// A null-space method with its state.
///
/// Coordinate partitioning is monitored twice: by `mbs-linalg` (the pivots of
/// Φ_u against `reselect_ratio`, and Φ_q P = 0 on the redundant rows) and here
/// by the gain of the partition, `g = max|Φ_u⁻¹Φ_v|` (the largest entry of P):
/// a fresh Gauss–Jordan selection has g = O(1); when g exceeds
/// `max(partition_gain, 4 g₀)` (g₀: gain at the last selection) the dependent
/// coordinates have become a poor choice (Φ_u near singular) and the partition is
/// re-selected.
#[derive(Debug, Clone)]
pub struct Basis {
    method: NullSpaceMethod,
    params: NullSpaceParams,
    cp: CoordinatePartitioning,
    partition_gain: f64,
    gain_at_selection: f64,
}

impl Basis {
    /// A handle for `method` with relative rank tolerance `rank_tol`;
    /// `reselect_ratio` is the coordinate-partitioning monitor threshold.
    pub fn new(method: NullSpaceMethod, rank_tol: f64, reselect_ratio: f64) -> Self {
        let params = NullSpaceParams {
            rank_tol,
            compute_s: true,
        };
        let mut cp = CoordinatePartitioning::new(params);
        cp.reselect_ratio = reselect_ratio;
        Self {
            method,
            params,
            cp,
            partition_gain: 10.0,
            gain_at_selection: 1.0,
        }
    }

    /// Number of partition selections of coordinate partitioning (0 for the
    /// other methods; 1 after the first evaluation).
    pub fn selections(&self) -> usize {
        self.cp.selections()
    }

    /// `P` (and `S` where the method defines it) for `phi_q` into a preallocated
    /// workspace (allocation-free); `mass` is needed by Wang–Huston only.
    pub fn compute_into(
        &mut self,
        phi_q: &DMatrix<f64>,
        mass: Option<&DMatrix<f64>>,
        ws: &mut NullSpaceWorkspace,
    ) -> Result<(), LinalgError> {
        match self.method {
            NullSpaceMethod::CoordinatePartitioning => {
                let before = self.cp.selections();
                self.cp.compute_into(phi_q, ws)?;
                let gain = ws.p().amax();
                if self.cp.selections() != before {
                    self.gain_at_selection = gain;
                } else if gain > self.partition_gain.max(4.0 * self.gain_at_selection) {
                    self.cp.reset();
                    self.cp.compute_into(phi_q, ws)?;
                    self.gain_at_selection = ws.p().amax();
                }
                Ok(())
            }
            m => null_space_into(m, phi_q, mass, &self.params, ws),
        }
    }
}

/// The particular acceleration `S Γ` of eq 3.8 (`X⁻¹ [Γ; 0]`) into `out`; for a
/// method without `S` (PUTD-G) the minimum-norm solution of `Φ_q x = Γ` (the same
/// vector as `X⁺[Γ; 0]` for an orthonormal `P`, `B = Pᵀ`). From a
/// [`NullSpaceWorkspace`], allocation-free except for the ill-conditioned fallback
/// of [`min_norm_solve_into`].
pub fn particular_into(
    ns: &NullSpaceWorkspace,
    phi_q: &DMatrix<f64>,
    rhs: &DVector<f64>,
    tol: f64,
    work: &mut MinNormWork,
    out: &mut DVector<f64>,
) {
    match ns.s() {
        Some(s) => out.gemv(1.0, &s, rhs, 0.0),
        None => {
            min_norm_solve_into(phi_q, rhs.as_slice(), tol, work);
            out.copy_from(&work.x);
        }
    }
}

/// Minimum-norm least-squares solution of `A x = b` over the independent rows
/// of `A` found by Gauss–Jordan elimination with partial pivoting (relative
/// tolerance `tol`): `x = A_rᵀ (A_r A_rᵀ)⁻¹ b_r`. Redundant rows are dropped
/// (for consistent `b` they are satisfied too). For the first `r` rows of `a`
/// (`r` = the rows `work` was built for, `b` of length `r`), solution in `work.x`. Allocation-free, except
/// when `A_r A_rᵀ` is too ill-conditioned for Cholesky: the fallback SVD
/// pseudo-inverse (nalgebra) allocates — a documented exception, never reached on
/// a well-posed mechanism.
pub fn min_norm_solve_into(a: &DMatrix<f64>, b: &[f64], tol: f64, work: &mut MinNormWork) {
    let (rows, n) = (work.a.nrows(), work.a.ncols());
    work.x.fill(0.0);
    if rows == 0 || a.rows(0, rows).amax() == 0.0 {
        return;
    }
    work.eliminate(a, tol);
    let ind = &work.gj.independent_rows;
    let r = ind.len();
    // A_r (r × n), b_r
    for j in 0..n {
        for (i, &row) in ind.iter().enumerate() {
            work.ar[i + j * r] = work.a[(row, j)];
        }
    }
    for (i, &row) in ind.iter().enumerate() {
        work.y[i] = b[row];
    }
    // (A_r A_rᵀ) y = b_r,  x = A_rᵀ y
    mul(
        mmut(&mut work.g, r, r),
        mref(&work.ar, r, n),
        mref(&work.ar, r, n).transpose(),
    );
    if cholesky_solve(&mut work.g, r, &mut work.y, 1, &mut work.mem) {
        mul(
            mmut(work.x.as_mut_slice(), n, 1),
            mref(&work.ar, r, n).transpose(),
            mref(&work.y, r, 1),
        );
    } else {
        // Ill-conditioned beyond Cholesky: fall back to the SVD pseudo-inverse.
        let svd = work.a.clone().svd(true, true);
        let bb = DVector::from_column_slice(&b[..rows]);
        work.x = svd
            .solve(&bb, tol * svd.singular_values.max())
            .unwrap_or_else(|_| DVector::zeros(n));
    }
}
