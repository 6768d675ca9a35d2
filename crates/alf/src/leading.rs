//! The leading matrix L = M + Φ_qᵀ α Φ_q of Bayo–Ledesma eqs 6, 13, 23 and 33,
//! assembled densely and factored by an `mbs-linalg` SPD backend. It is symmetric
//! positive definite even at singular configurations and with redundant
//! constraints (sec 2.2), which is why every ALF step reuses it.

use mbs_linalg::SpdSolver;
use mbs_linalg::dense::DenseCholesky;
use nalgebra::{DMatrix, DVector};

use crate::error::AlfError;

/// A factored leading matrix with preallocated storage.
pub struct LeadingMatrix {
    l: DMatrix<f64>,
    solver: Box<dyn SpdSolver + Send>,
    alpha: f64,
    /// Column indices of one row's nonzeros of Φ_q (scratch, capacity n).
    nonzeros: Vec<usize>,
}

impl std::fmt::Debug for LeadingMatrix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LeadingMatrix")
            .field("n", &self.l.nrows())
            .field("alpha", &self.alpha)
            .finish()
    }
}

impl LeadingMatrix {
    /// Storage for n coordinates, dense Cholesky backend.
    pub fn new(n: usize) -> Self {
        Self {
            l: DMatrix::zeros(n, n),
            solver: Box::new(DenseCholesky::new(n)),
            alpha: 0.0,
            nonzeros: Vec::with_capacity(n),
        }
    }

    /// Forms L = M + α Φ_qᵀΦ_q and factors it (eq 6).
    pub fn factor(
        &mut self,
        t: f64,
        mass: &DMatrix<f64>,
        phi_q: &DMatrix<f64>,
        alpha: f64,
    ) -> Result<(), AlfError> {
        self.l.copy_from(mass);
        self.add_gram(alpha, phi_q);
        self.alpha = alpha;
        self.solver
            .factor(self.l.as_slice())
            .map_err(|source| AlfError::Linalg {
                t,
                context: "factoring the leading matrix M + Φ_qᵀαΦ_q",
                source,
            })
    }

    /// L += α Φ_qᵀΦ_q, row by row of Φ_q over its nonzeros: a joint's row touches at
    /// most two bodies (14 of the 7 per body coordinates), so this costs
    /// O(m · 14²) instead of the dense product's O(m n²) (Andrew's squeezer,
    /// n = 49: 12 times fewer operations; the dense product was 44 % of the default
    /// method's run there).
    fn add_gram(&mut self, alpha: f64, phi_q: &DMatrix<f64>) {
        let n = self.l.ncols();
        for i in 0..phi_q.nrows() {
            self.nonzeros.clear();
            self.nonzeros
                .extend((0..n).filter(|&j| phi_q[(i, j)] != 0.0));
            for (a, &k) in self.nonzeros.iter().enumerate() {
                let ak = alpha * phi_q[(i, k)];
                for &j in &self.nonzeros[a..] {
                    self.l[(j, k)] += ak * phi_q[(i, j)];
                }
            }
        }
        // the nonzeros are in increasing order: the lower triangle is done; mirror it
        for k in 0..n {
            for j in k + 1..n {
                self.l[(k, j)] = self.l[(j, k)];
            }
        }
    }

    /// Factors a given SPD matrix (e.g. the ALF-INDEX3 tangent b M + Φ_qᵀαΦ_q).
    pub fn factor_matrix(&mut self, t: f64, a: &DMatrix<f64>) -> Result<(), AlfError> {
        self.l.copy_from(a);
        self.solver
            .factor(self.l.as_slice())
            .map_err(|source| AlfError::Linalg {
                t,
                context: "factoring the Newton tangent b M + Φ_qᵀαΦ_q",
                source,
            })
    }

    /// Solves L x = b in place.
    pub fn solve(&mut self, t: f64, b: &mut DVector<f64>) -> Result<(), AlfError> {
        self.solver
            .solve_in_place(b.as_mut_slice())
            .map_err(|source| AlfError::Linalg {
                t,
                context: "solving with the leading matrix",
                source,
            })
    }

    /// The penalty α the matrix was formed with.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
}
