//! Per-constraint blocks: ≤ 6 rows of Φ, Φ_t, γ and the Jacobian blocks with respect
//! to the velocities of body i and body j, on the stack (no heap).

use nalgebra::{Matrix3x4, SMatrix, SVector};

use crate::primitives::Kin;

/// Maximum number of rows of one constraint (a rigid joint has 6).
pub const MAX_ROWS: usize = 6;

/// The equations of one constraint (joint, driver or custom) at one state.
///
/// Rows `0..n_holonomic` are holonomic: `phi` holds Φ. Rows `n_holonomic..rows` are
/// nonholonomic: `phi` holds the velocity-level residual B v + b. For every row, the
/// velocity equation reads `ji vᵢ + jj vⱼ + phi_t = 0` (for holonomic rows Φ̇; for
/// nonholonomic rows `phi_t` = b) and the acceleration equation
/// `ji v̇ᵢ + jj v̇ⱼ = gamma` (NOTATION: Φ_q q̈ = γ).
///
/// `ji`, `jj` are with respect to [ṙ; ω'] (6 columns). `ji_pdot`, `jj_pdot` are with
/// respect to [ṙ; ṗ] (7 columns), derived as [J_ṙ, J_ω' H] with H = 2G(p)/‖p‖²
/// (`BodyFrame::omega_pdot`); γ is the same in both layouts (see [`crate::primitives::Kin`]).
/// Only the first `rows` rows are meaningful; the others are zero.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstraintBlock {
    /// Number of rows in use.
    pub rows: usize,
    /// Number of holonomic rows (they come first).
    pub n_holonomic: usize,
    /// Φ (holonomic rows) or B v + b (nonholonomic rows).
    pub phi: SVector<f64, MAX_ROWS>,
    /// Φ_t (holonomic rows) or b (nonholonomic rows).
    pub phi_t: SVector<f64, MAX_ROWS>,
    /// γ.
    pub gamma: SVector<f64, MAX_ROWS>,
    /// Jacobian block of body i with respect to [ṙᵢ; ω'ᵢ].
    pub ji: SMatrix<f64, MAX_ROWS, 6>,
    /// Jacobian block of body j with respect to [ṙⱼ; ω'ⱼ].
    pub jj: SMatrix<f64, MAX_ROWS, 6>,
    /// Jacobian block of body i with respect to [ṙᵢ; ṗᵢ].
    pub ji_pdot: SMatrix<f64, MAX_ROWS, 7>,
    /// Jacobian block of body j with respect to [ṙⱼ; ṗⱼ].
    pub jj_pdot: SMatrix<f64, MAX_ROWS, 7>,
}

impl Default for ConstraintBlock {
    fn default() -> Self {
        Self::new(0, 0)
    }
}

impl ConstraintBlock {
    /// A zero block of `rows` rows, the first `n_holonomic` holonomic.
    pub fn new(rows: usize, n_holonomic: usize) -> Self {
        Self {
            rows,
            n_holonomic,
            phi: SVector::zeros(),
            phi_t: SVector::zeros(),
            gamma: SVector::zeros(),
            ji: SMatrix::zeros(),
            jj: SMatrix::zeros(),
            ji_pdot: SMatrix::zeros(),
            jj_pdot: SMatrix::zeros(),
        }
    }

    /// Number of nonholonomic rows.
    pub fn n_nonholonomic(&self) -> usize {
        self.rows - self.n_holonomic
    }

    /// Zeroes every entry, keeping the shape.
    pub fn clear(&mut self) {
        self.phi.fill(0.0);
        self.phi_t.fill(0.0);
        self.gamma.fill(0.0);
        self.ji.fill(0.0);
        self.jj.fill(0.0);
        self.ji_pdot.fill(0.0);
        self.jj_pdot.fill(0.0);
    }

    /// Writes the R rows of a kinematic expression at row `offset`: Φ = value,
    /// Jacobians, Φ_t = vt, γ = −acc.
    pub fn set_rows<const R: usize>(&mut self, offset: usize, k: &Kin<R>) {
        for r in 0..R {
            let row = offset + r;
            self.phi[row] = k.value[r];
            self.phi_t[row] = k.vt[r];
            self.gamma[row] = -k.acc[r];
            for c in 0..6 {
                self.ji[(row, c)] = k.ji[(r, c)];
                self.jj[(row, c)] = k.jj[(r, c)];
            }
        }
    }

    /// Fills `ji_pdot`, `jj_pdot` from `ji`, `jj`: ṙ columns copied, ṗ columns
    /// J_ω' H with H = 2G(p)/‖p‖² of the body (None for ground: zero).
    pub fn derive_pdot(&mut self, hi: Option<&Matrix3x4<f64>>, hj: Option<&Matrix3x4<f64>>) {
        fn one(
            j: &SMatrix<f64, MAX_ROWS, 6>,
            h: Option<&Matrix3x4<f64>>,
            out: &mut SMatrix<f64, MAX_ROWS, 7>,
            rows: usize,
        ) {
            out.fill(0.0);
            let Some(h) = h else { return };
            for r in 0..rows {
                for c in 0..3 {
                    out[(r, c)] = j[(r, c)];
                }
                for c in 0..4 {
                    out[(r, 3 + c)] =
                        j[(r, 3)] * h[(0, c)] + j[(r, 4)] * h[(1, c)] + j[(r, 5)] * h[(2, c)];
                }
            }
        }
        one(&self.ji, hi, &mut self.ji_pdot, self.rows);
        one(&self.jj, hj, &mut self.jj_pdot, self.rows);
    }
}
