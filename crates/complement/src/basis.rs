//! The null-space methods of `mbs-linalg` behind one stateful handle (coordinate
//! partitioning keeps its partition between calls and re-selects it when it
//! degrades), and the minimum-norm solve used for particular solutions and for
//! the Newton–Raphson correction.

use mbs_linalg::LinalgError;
use mbs_linalg::nullspace::{
    CoordinatePartitioning, NullSpace, NullSpaceBasis, NullSpaceMethod, NullSpaceParams,
    gauss_jordan, null_space,
};
use nalgebra::{DMatrix, DVector};

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

    /// The method.
    pub fn method(&self) -> NullSpaceMethod {
        self.method
    }

    /// Number of partition selections of coordinate partitioning (0 for the
    /// other methods; 1 after the first evaluation).
    pub fn selections(&self) -> usize {
        self.cp.selections()
    }

    /// `P` (and `S` where the method defines it) for `phi_q`; `mass` is needed
    /// by Wang–Huston only.
    pub fn compute(
        &mut self,
        phi_q: &DMatrix<f64>,
        mass: Option<&DMatrix<f64>>,
    ) -> Result<NullSpace, LinalgError> {
        match self.method {
            NullSpaceMethod::CoordinatePartitioning => {
                let before = self.cp.selections();
                let mut ns = self.cp.compute(phi_q)?;
                let gain = ns.p.amax();
                if self.cp.selections() != before {
                    self.gain_at_selection = gain;
                } else if gain > self.partition_gain.max(4.0 * self.gain_at_selection) {
                    self.cp.reset();
                    ns = self.cp.compute(phi_q)?;
                    self.gain_at_selection = ns.p.amax();
                }
                Ok(ns)
            }
            m => null_space(m, phi_q, mass, &self.params),
        }
    }

    /// The rank tolerance.
    pub fn rank_tol(&self) -> f64 {
        self.params.rank_tol
    }
}

/// The particular acceleration `S Γ` of eq 3.8 (`X⁻¹ [Γ; 0]`); for a method
/// without `S` (PUTD-G) the minimum-norm solution of `Φ_q x = Γ` (the same
/// vector as `X⁺[Γ; 0]` for an orthonormal `P`, `B = Pᵀ`).
pub fn particular(
    ns: &NullSpace,
    phi_q: &DMatrix<f64>,
    rhs: &DVector<f64>,
    tol: f64,
) -> DVector<f64> {
    match &ns.s {
        Some(s) => s * rhs,
        None => min_norm_solve(phi_q, rhs, tol),
    }
}

/// Minimum-norm least-squares solution of `A x = b` over the independent rows
/// of `A` found by Gauss–Jordan elimination with partial pivoting (relative
/// tolerance `tol`): `x = A_rᵀ (A_r A_rᵀ)⁻¹ b_r`. Redundant rows are dropped
/// (for consistent `b` they are satisfied too).
pub fn min_norm_solve(a: &DMatrix<f64>, b: &DVector<f64>, tol: f64) -> DVector<f64> {
    let n = a.ncols();
    if a.nrows() == 0 || a.amax() == 0.0 {
        return DVector::zeros(n);
    }
    let gj = gauss_jordan(a, tol);
    let rows = &gj.independent_rows;
    let ar = DMatrix::from_fn(rows.len(), n, |i, j| a[(rows[i], j)]);
    let br = DVector::from_fn(rows.len(), |i, _| b[rows[i]]);
    let g = &ar * ar.transpose();
    match g.clone().cholesky() {
        Some(c) => ar.transpose() * c.solve(&br),
        // Ill-conditioned beyond Cholesky: fall back to the SVD pseudo-inverse.
        None => {
            let svd = a.clone().svd(true, true);
            svd.solve(b, tol * svd.singular_values.max())
                .unwrap_or_else(|_| DVector::zeros(n))
        }
    }
}
