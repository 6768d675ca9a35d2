//! Systems in mass-matrix form `M y' = f(t, y)` with a constant, possibly singular
//! `M` (Hairer & Wanner, *Solving ODEs II*, 2nd ed., sec VI.1 and VII.8; RADAU5's
//! `IMAS`/`MAS`, and its `IWORK(5..7)` = `NIND1`, `NIND2`, `NIND3`).
//!
//! A system declares `M` with [`OdeSystem::mass_matrix`](crate::OdeSystem::mass_matrix);
//! the components are ordered as RADAU5 wants them: first those of index 0 or 1
//! (the differential variables and the index-1 algebraic ones), then the index-2,
//! then the index-3 algebraic variables. Only [`crate::Radau5`] integrates such
//! systems; the other integrators refuse them.
//!
//! What the index changes (Hairer–Wanner II sec VII.8, "Step size control", and
//! the comments of `radau5.f`): the local error of an index-2 component is
//! `O(h^{s})` instead of `O(h^{s+1})` in the step, of an index-3 component
//! `O(h^{s−1})`; RADAU5 therefore divides their error scale by `h` and `h²`
//! ([`DaeIndex::scale`]).

use nalgebra::DMatrix;

use crate::error::Error;

/// How many components have which index (RADAU5's `NIND1`, `NIND2`, `NIND3`);
/// they come in that order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DaeIndex {
    /// Differential and index-1 algebraic components (the first ones).
    pub index1: usize,
    /// Index-2 algebraic components (after those).
    pub index2: usize,
    /// Index-3 algebraic components (the last ones).
    pub index3: usize,
}

impl DaeIndex {
    /// All `n` components of index 0 or 1.
    pub fn ode(n: usize) -> Self {
        Self {
            index1: n,
            index2: 0,
            index3: 0,
        }
    }

    /// Divide the error scale of the index-2 components by `|h|`, of the index-3
    /// components by `h²` (`RADCOR` before its label 30 loop: `SCAL(I)/HHFAC`,
    /// `SCAL(I)/HHFAC²`, with `HHFAC` tracking the current step).
    pub fn scale(&self, h: f64, scal: &mut [f64]) {
        let h = h.abs();
        let (i2, i3) = (self.index1, self.index1 + self.index2);
        for s in &mut scal[i2..i3] {
            *s /= h;
        }
        for s in &mut scal[i3..] {
            *s /= h * h;
        }
    }
}

/// The constant mass matrix `M`.
#[derive(Debug, Clone, PartialEq)]
pub enum Mass {
    /// `M = diag(d)` (RADAU5 with `MLMAS = MUMAS = 0`).
    Diagonal(Vec<f64>),
    /// A full `n×n` matrix (RADAU5 with `MLMAS = N`); dense factorization only.
    Dense(DMatrix<f64>),
}

/// `M` of `M y' = f(t, y)` with the index of its components (module
/// documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct MassMatrix {
    /// The matrix.
    pub mass: Mass,
    /// The index of the components.
    pub index: DaeIndex,
}

impl MassMatrix {
    /// `M = diag(d)` with the components' index.
    pub fn diagonal(d: Vec<f64>, index: DaeIndex) -> Self {
        Self {
            mass: Mass::Diagonal(d),
            index,
        }
    }

    /// A full `M` with the components' index.
    pub fn dense(m: DMatrix<f64>, index: DaeIndex) -> Self {
        Self {
            mass: Mass::Dense(m),
            index,
        }
    }

    /// Whether this is a diagonal matrix.
    pub fn is_diagonal(&self) -> bool {
        matches!(self.mass, Mass::Diagonal(_))
    }

    /// Check against a system of dimension `n`: the matrix's shape, finite
    /// entries, and `index1 + index2 + index3 = n` (RADAU5's "curious input for
    /// IWORK(5,6,7)"); `who` names the integrator in the error.
    pub fn validate(&self, who: &str, n: usize) -> Result<(), Error> {
        let bad = |what: String| Err(Error::InvalidInput(format!("{who}: mass matrix: {what}")));
        match &self.mass {
            Mass::Diagonal(d) => {
                if d.len() != n {
                    return bad(format!("diagonal of length {}, expected {n}", d.len()));
                }
                if let Some(i) = d.iter().position(|v| !v.is_finite()) {
                    return bad(format!("M[{i}][{i}] = {} is not finite", d[i]));
                }
            }
            Mass::Dense(m) => {
                if m.nrows() != n || m.ncols() != n {
                    return bad(format!("{}×{}, expected {n}×{n}", m.nrows(), m.ncols()));
                }
                if let Some(k) = m.iter().position(|v| !v.is_finite()) {
                    let (i, j) = (k % n, k / n);
                    return bad(format!("M[{i}][{j}] = {} is not finite", m[(i, j)]));
                }
            }
        }
        let DaeIndex {
            index1,
            index2,
            index3,
        } = self.index;
        if index1 + index2 + index3 != n {
            return bad(format!(
                "index counts {index1} + {index2} + {index3} ≠ dimension {n}"
            ));
        }
        Ok(())
    }

    /// `out = M x`.
    pub fn apply(&self, x: &[f64], out: &mut [f64]) {
        match &self.mass {
            Mass::Diagonal(d) => {
                for ((o, &m), &v) in out.iter_mut().zip(d).zip(x) {
                    *o = m * v;
                }
            }
            Mass::Dense(m) => {
                let n = x.len();
                out.fill(0.0);
                for (j, &v) in x.iter().enumerate() {
                    if v != 0.0 {
                        let col = &m.as_slice()[j * n..(j + 1) * n];
                        for (o, &mij) in out.iter_mut().zip(col) {
                            *o += mij * v;
                        }
                    }
                }
            }
        }
    }

    /// `M[(j, j)]`, or `None` for a full matrix (whose off-diagonal entries a
    /// sparse factorization could not hold).
    pub(crate) fn diagonal_entry(&self, j: usize) -> Option<f64> {
        match &self.mass {
            Mass::Diagonal(d) => Some(d[j]),
            Mass::Dense(_) => None,
        }
    }

    /// `dst += a M` for `n×n` column-major `dst`.
    pub(crate) fn add_scaled_dense(&self, a: f64, dst: &mut [f64], n: usize) {
        match &self.mass {
            Mass::Diagonal(d) => {
                for (j, &m) in d.iter().enumerate() {
                    dst[j * n + j] += a * m;
                }
            }
            Mass::Dense(m) => {
                for (x, &mij) in dst.iter_mut().zip(m.as_slice()) {
                    *x += a * mij;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_names_the_element() {
        let m = MassMatrix::diagonal(vec![1.0, f64::NAN, 0.0], DaeIndex::ode(3));
        let e = m.validate("radau5", 3).unwrap_err().to_string();
        assert!(e.contains("M[1][1] = NaN"), "{e}");
        let m = MassMatrix::diagonal(
            vec![1.0, 0.0, 0.0],
            DaeIndex {
                index1: 1,
                index2: 1,
                index3: 0,
            },
        );
        let e = m.validate("radau5", 3).unwrap_err().to_string();
        assert!(e.contains("1 + 1 + 0 ≠ dimension 3"), "{e}");
        let e = m.validate("radau5", 2).unwrap_err().to_string();
        assert!(e.contains("diagonal of length 3, expected 2"), "{e}");
        let ok = MassMatrix::diagonal(
            vec![1.0, 0.0],
            DaeIndex {
                index1: 1,
                index2: 1,
                index3: 0,
            },
        );
        assert!(ok.validate("radau5", 2).is_ok());
    }

    #[test]
    fn apply_and_scale() {
        let dense = MassMatrix::dense(
            DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]),
            DaeIndex::ode(2),
        );
        let mut out = [0.0; 2];
        dense.apply(&[1.0, -1.0], &mut out);
        assert_eq!(out, [-1.0, -1.0]);
        let mut lu = vec![0.0; 4];
        dense.add_scaled_dense(2.0, &mut lu, 2);
        assert_eq!(lu, [2.0, 6.0, 4.0, 8.0]);
        let idx = DaeIndex {
            index1: 1,
            index2: 1,
            index3: 1,
        };
        let mut scal = [1.0; 3];
        idx.scale(-0.5, &mut scal);
        assert_eq!(scal, [1.0, 2.0, 4.0]);
    }
}
