//! Classical Lagrange multipliers, index 1 (Bayo–Ledesma eq 4), with optional
//! Baumgarte stabilization (Pękal–Frączek sec 2):
//!
//! ```text
//!   [ M    Φ_qᵀ ] [ q̈ ]   [ Q ]
//!   [ Φ_q  0    ] [ λ  ] = [ γ̄ ],    γ̄ = γ − 2α̂ Φ̇ − β̂² Φ
//! ```
//!
//! The KKT matrix is singular with redundant constraints and at singular
//! configurations; the strict backend then reports the rank deficiency as an error
//! naming the time, the min-norm backend solves in the pseudo-inverse sense.

use mbs_linalg::KktSolver;
use mbs_linalg::dense::{DenseKkt, DenseKktParams, KktMode};
use nalgebra::DVector;

use crate::descriptor::Descriptor;
use crate::error::AlfError;
use crate::params::Baumgarte;

/// Names the constraints whose Jacobian rows depend on earlier rows (Gram–Schmidt
/// over the rows in order, relative tolerance 1e-9): the diagnosis of a singular
/// KKT matrix. Runs only on that error path, so it may allocate.
fn dependent_rows(t: f64, sys: &dyn Descriptor) -> AlfError {
    dependent_rows_within(t, sys, 1e-9)
}

/// The rank of Φ_q by Gram–Schmidt on its rows (a row whose remainder is below
/// `tol`·max|Φ_q| is dependent) and the joints of the dependent rows.
pub(crate) fn dependent_rows_within(t: f64, sys: &dyn Descriptor, tol: f64) -> AlfError {
    let j = sys.phi_q();
    let scale = j.amax().max(f64::MIN_POSITIVE);
    let dependent = mbs_constraints::dependent_rows(j, tol * scale);
    let mut names: Vec<String> = Vec::new();
    for &r in &dependent {
        let label = sys.row_label(r);
        if !names.contains(&label) {
            names.push(label);
        }
    }
    AlfError::DependentConstraints {
        t,
        rank: j.nrows() - dependent.len(),
        rows: j.nrows(),
        dependent: names.join(", "),
    }
}

/// Workspace of the KKT acceleration solve.
pub struct LagrangeAccelerations {
    baumgarte: Option<Baumgarte>,
    kkt: Box<DenseKkt>,
    rhs: DVector<f64>,
    /// Φ̇ = Φ_q q̇ + Φ_t (Baumgarte only).
    phi_dot: DVector<f64>,
    n: usize,
}

impl std::fmt::Debug for LagrangeAccelerations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LagrangeAccelerations")
            .field("baumgarte", &self.baumgarte)
            .field("n", &self.n)
            .finish()
    }
}

impl LagrangeAccelerations {
    /// Workspace for n coordinates and m rows.
    pub fn new(n: usize, m: usize, baumgarte: Option<Baumgarte>, min_norm: bool) -> Self {
        let params = DenseKktParams {
            mode: if min_norm {
                KktMode::MinNorm
            } else {
                KktMode::Strict
            },
            ..DenseKktParams::default()
        };
        Self {
            baumgarte,
            kkt: Box::new(DenseKkt::new(n, m, params)),
            rhs: DVector::zeros(n + m),
            phi_dot: DVector::zeros(m),
            n,
        }
    }

    /// The multipliers λ of the last solve.
    pub fn multipliers(&self) -> nalgebra::DVectorView<'_, f64> {
        self.rhs.rows(self.n, self.rhs.len() - self.n)
    }

    /// Computes q̈ at the state last evaluated in `sys` (at `Level::Full`).
    pub fn solve(
        &mut self,
        t: f64,
        sys: &dyn Descriptor,
        v: &[f64],
        qdd: &mut DVector<f64>,
    ) -> Result<(), AlfError> {
        let n = self.n;
        self.kkt
            .factor(sys.mass().as_slice(), sys.phi_q().as_slice())
            .map_err(|source| match source {
                mbs_linalg::LinalgError::RankDeficient { .. } => dependent_rows(t, sys),
                source => AlfError::Linalg {
                    t,
                    context: "factoring the KKT matrix [M Φ_qᵀ; Φ_q 0]",
                    source,
                },
            })?;
        self.rhs.rows_mut(0, n).copy_from(sys.forces());
        let m = sys.m();
        self.rhs.rows_mut(n, m).copy_from(sys.gamma());
        if let Some(b) = self.baumgarte {
            // γ̄ = γ − 2α̂ Φ̇ − β̂² Φ,  Φ̇ = Φ_q q̇ + Φ_t
            let v = nalgebra::DVectorView::from_slice(v, v.len());
            self.phi_dot.gemv(1.0, sys.phi_q(), &v, 0.0);
            self.phi_dot += sys.phi_t();
            let phi = sys.phi().as_slice();
            b.apply(
                &mut self.rhs.as_mut_slice()[n..n + m],
                &phi[..phi.len().min(m)],
                self.phi_dot.as_slice(),
            );
        }
        self.kkt
            .solve_in_place(self.rhs.as_mut_slice())
            .map_err(|source| AlfError::Linalg {
                t,
                context: "solving the KKT system",
                source,
            })?;
        qdd.copy_from(&self.rhs.rows(0, n));
        crate::descriptor::check_finite(t, "acceleration", qdd.as_slice(), |i| {
            sys.coordinate_label(i)
        })
    }
}
