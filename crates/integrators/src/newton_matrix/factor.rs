//! Factorizations of the Newton iteration matrices built from a [`Jacobian`]:
//! the real `a I − b J` (BDF: `I − h/α_k J`; RADAU5: `γ/h I − J`) and the complex
//! `(α + iβ) I − J` of RADAU5's transformed system (Hairer–Wanner II, sec IV.8,
//! eq 8.18 with the eigenvalues `α ± iβ` of `A⁻¹`, divided by `h`).
//!
//! The complex matrix is factored in complex arithmetic (`n×n` complex, about
//! four real `n×n` factorizations of work) rather than as the real `2n×2n` form
//! (eight): dense by [`super::complex_lu`] as RADAU5's `decc`, sparse by faer
//! with `c64`. Dense or sparse follows the Jacobian's storage.

use faer::c64;

use super::complex_lu;
use super::jacobian::{Jacobian, Storage};
use super::sparse::SparseLu;
use crate::error::Error;
use crate::lu;
use crate::mass::MassMatrix;

/// Dense or sparse factors.
#[derive(Debug)]
enum Backend<T: faer::traits::ComplexField> {
    Dense,
    Sparse(Box<SparseLu<T>>),
}

/// `M[(j, j)]` (1 without a mass matrix) for the sparse storage, which holds
/// only the diagonal besides `J`'s pattern.
fn diagonal(m: Option<&MassMatrix>, j: usize) -> f64 {
    m.map_or(1.0, |m| {
        m.diagonal_entry(j)
            .expect("a full mass matrix is refused with sparse storage (check_mass)")
    })
}

/// Whether `m` can be factored with `jac`'s storage: a full mass matrix needs
/// dense storage (the sparse pattern holds only `J`'s entries and the diagonal).
pub(crate) fn check_mass(jac: &Jacobian, m: &MassMatrix) -> Result<(), Error> {
    if jac.is_sparse() && !m.is_diagonal() {
        return Err(Error::InvalidInput(
            "radau5: a full mass matrix needs the dense factorization \
             (linear_solver = Dense, or a diagonal mass matrix)"
                .into(),
        ));
    }
    Ok(())
}

/// `a I − b J`, factored.
#[derive(Debug)]
pub struct RealMatrix {
    n: usize,
    lu: Vec<f64>,
    piv: Vec<usize>,
    backend: Backend<f64>,
}

impl RealMatrix {
    /// Work space for the matrices of `jac` (dense or sparse as its storage).
    pub fn new(jac: &Jacobian) -> Result<Self, Error> {
        let n = jac.dim();
        Ok(match &jac.storage {
            Storage::Dense(_) => Self {
                n,
                lu: vec![0.0; n * n],
                piv: vec![0; n],
                backend: Backend::Dense,
            },
            Storage::Sparse { pattern, .. } => Self {
                n,
                lu: Vec::new(),
                piv: Vec::new(),
                backend: Backend::Sparse(Box::new(SparseLu::new(pattern, 0.0)?)),
            },
        })
    }

    /// Form and factor `a I − b J`; `false` if singular.
    pub fn factor(&mut self, jac: &Jacobian, a: f64, b: f64) -> bool {
        self.factor_mass(jac, a, b, None)
    }

    /// Form and factor `a M − b J` (`M = I` when `None`; RADAU5's `DECOMR`);
    /// `false` if singular. With sparse storage `M` must be diagonal
    /// (else `Radau5` refuses it at `init`).
    pub fn factor_mass(
        &mut self,
        jac: &Jacobian,
        a: f64,
        b: f64,
        mass: Option<&MassMatrix>,
    ) -> bool {
        let n = self.n;
        match (&mut self.backend, &jac.storage) {
            (Backend::Dense, Storage::Dense(m)) => {
                for (l, &j) in self.lu.iter_mut().zip(m.as_slice()) {
                    *l = -b * j;
                }
                match mass {
                    None => {
                        for i in 0..n {
                            self.lu[i * n + i] += a;
                        }
                    }
                    Some(mass) => mass.add_scaled_dense(a, &mut self.lu, n),
                }
                lu::factor(&mut self.lu, n, &mut self.piv)
            }
            (Backend::Sparse(s), Storage::Sparse { values, diag, .. }) => {
                for (v, &j) in s.values.iter_mut().zip(values) {
                    *v = -b * j;
                }
                for (j, &d) in diag.iter().enumerate() {
                    s.values[d] += a * diagonal(mass, j);
                }
                s.factor()
            }
            _ => unreachable!("factors built for this Jacobian's storage"),
        }
    }

    /// Solve in place with the last factors.
    pub fn solve(&mut self, x: &mut [f64]) {
        match &mut self.backend {
            Backend::Dense => lu::solve(&self.lu, self.n, &self.piv, x),
            Backend::Sparse(s) => {
                s.rhs.copy_from_slice(x);
                s.solve();
                x.copy_from_slice(&s.rhs);
            }
        }
    }
}

/// `(α + iβ) I − J`, factored.
#[derive(Debug)]
pub struct ComplexMatrix {
    n: usize,
    re: Vec<f64>,
    im: Vec<f64>,
    piv: Vec<usize>,
    backend: Backend<c64>,
}

impl ComplexMatrix {
    /// Work space for the matrices of `jac` (dense or sparse as its storage).
    pub fn new(jac: &Jacobian) -> Result<Self, Error> {
        let n = jac.dim();
        Ok(match &jac.storage {
            Storage::Dense(_) => Self {
                n,
                re: vec![0.0; n * n],
                im: vec![0.0; n * n],
                piv: vec![0; n],
                backend: Backend::Dense,
            },
            Storage::Sparse { pattern, .. } => Self {
                n,
                re: Vec::new(),
                im: Vec::new(),
                piv: Vec::new(),
                backend: Backend::Sparse(Box::new(SparseLu::new(pattern, c64::new(0.0, 0.0))?)),
            },
        })
    }

    /// Form and factor `(α + iβ) I − J`; `false` if singular.
    pub fn factor(&mut self, jac: &Jacobian, alpha: f64, beta: f64) -> bool {
        self.factor_mass(jac, alpha, beta, None)
    }

    /// Form and factor `(α + iβ) M − J` (`M = I` when `None`; RADAU5's
    /// `DECOMC`); `false` if singular.
    pub fn factor_mass(
        &mut self,
        jac: &Jacobian,
        alpha: f64,
        beta: f64,
        mass: Option<&MassMatrix>,
    ) -> bool {
        let n = self.n;
        match (&mut self.backend, &jac.storage) {
            (Backend::Dense, Storage::Dense(m)) => {
                for (l, &j) in self.re.iter_mut().zip(m.as_slice()) {
                    *l = -j;
                }
                self.im.fill(0.0);
                match mass {
                    None => {
                        for i in 0..n {
                            self.re[i * n + i] += alpha;
                            self.im[i * n + i] = beta;
                        }
                    }
                    Some(mass) => {
                        mass.add_scaled_dense(alpha, &mut self.re, n);
                        mass.add_scaled_dense(beta, &mut self.im, n);
                    }
                }
                complex_lu::factor(&mut self.re, &mut self.im, n, &mut self.piv)
            }
            (Backend::Sparse(s), Storage::Sparse { values, diag, .. }) => {
                for (v, &j) in s.values.iter_mut().zip(values) {
                    *v = c64::new(-j, 0.0);
                }
                for (j, &d) in diag.iter().enumerate() {
                    s.values[d] += c64::new(alpha, beta) * diagonal(mass, j);
                }
                s.factor()
            }
            _ => unreachable!("factors built for this Jacobian's storage"),
        }
    }

    /// Solve `(α + iβ) I − J) (x + iy) = (b_re + i b_im)` in place.
    pub fn solve(&mut self, re: &mut [f64], im: &mut [f64]) {
        match &mut self.backend {
            Backend::Dense => complex_lu::solve(&self.re, &self.im, self.n, &self.piv, re, im),
            Backend::Sparse(s) => {
                for (r, (a, b)) in s.rhs.iter_mut().zip(re.iter().zip(im.iter())) {
                    *r = c64::new(*a, *b);
                }
                s.solve();
                for (r, (a, b)) in s.rhs.iter().zip(re.iter_mut().zip(im.iter_mut())) {
                    *a = r.re;
                    *b = r.im;
                }
            }
        }
    }
}
