//! Redundant constraints: the independent rows of `Φ_q`, selected once at a
//! consistent configuration and used for the whole run.
//!
//! Pękal & Frączek (2016), "Comparison of natural complement formulations for
//! multibody dynamics", sec 3 (after eq 3.8) replace `X⁻¹` by a pseudo-inverse for
//! redundant systems, which needs the numerical rank of `Φ_q` counted at every
//! evaluation. Off the constraint manifold (integration drift, ‖Φ‖ ≈ 1e-10 …
//! 1e-7 without stabilization) the dependent rows of an over-constrained
//! mechanism are no longer exactly dependent: a perturbed Bricard linkage is a
//! rigid structure. The singular value of the redundant direction is then of the
//! order of the drift; once it crosses the rank tolerance the null space loses the
//! mechanism's motion (the Bricard run froze at t ≈ 0.8 s and lost 3.3 J), and
//! while it hovers near the tolerance the right-hand side is discontinuous (the
//! step size collapses).
//!
//! The rank of `Φ_q` along a regular motion does not change, and the independent
//! rows define the same manifold locally (implicit-function theorem: `r` rows of
//! rank `r` cut out an `(n − r)`-dimensional manifold, which contains the
//! `(n − r)`-dimensional solution set of all rows). So the redundant rows are
//! dropped once, by Gauss–Jordan elimination with partial pivoting of `Φ_q` at the
//! initial configuration, and every method works on the full-row-rank `Φ_r`, `Γ_r`.
//! A later rank drop of `Φ_r` is a singular configuration
//! ([`crate::singular::SingularityMonitor`]).

use mbs_linalg::nullspace::{GaussJordanWork, gauss_jordan_into};
use nalgebra::{DMatrix, DVector};

/// The independent rows of `Φ_q` and the gathered `Φ_r`, `Γ̄_r`.
#[derive(Debug, Clone)]
pub struct RowSelection {
    /// Independent rows, ascending.
    rows: Vec<usize>,
    /// Redundant (dropped) rows, ascending.
    dropped: Vec<usize>,
    /// `Φ_r` (`r × n`).
    pub(crate) phi_q: DMatrix<f64>,
    /// `Γ̄_r` (length `r`).
    pub(crate) gamma: DVector<f64>,
}

impl RowSelection {
    /// The independent rows of `phi_q` by Gauss–Jordan with partial pivoting
    /// (relative pivot tolerance `tol`); `None` when `phi_q` has full row rank.
    pub fn select(phi_q: &DMatrix<f64>, tol: f64) -> Option<Self> {
        let (m, n) = phi_q.shape();
        if m == 0 || phi_q.amax() == 0.0 {
            return None;
        }
        let mut gj = GaussJordanWork::new(m, n);
        gauss_jordan_into(phi_q, tol, &mut gj);
        if gj.redundant_rows.is_empty() {
            return None;
        }
        let mut rows = gj.independent_rows.clone();
        rows.sort_unstable();
        let r = rows.len();
        Some(Self {
            rows,
            dropped: gj.redundant_rows.clone(),
            phi_q: DMatrix::zeros(r, n),
            gamma: DVector::zeros(r),
        })
    }

    /// Number of independent rows `r`.
    pub fn rank(&self) -> usize {
        self.rows.len()
    }

    /// The independent rows (indices into `Φ_q`).
    pub fn rows(&self) -> &[usize] {
        &self.rows
    }

    /// The dropped redundant rows (indices into `Φ_q`).
    pub fn dropped(&self) -> &[usize] {
        &self.dropped
    }

    /// Copies the selected rows of `phi_q` and `gamma` into `Φ_r`, `Γ̄_r`
    /// (allocation-free).
    pub fn gather(&mut self, phi_q: &DMatrix<f64>, gamma: &DVector<f64>) {
        for (i, &row) in self.rows.iter().enumerate() {
            self.phi_q.row_mut(i).copy_from(&phi_q.row(row));
            self.gamma[i] = gamma[row];
        }
    }
}
