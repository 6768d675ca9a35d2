//! The sparsity pattern of a Jacobian `∂f/∂y`, declared by a system through
//! [`OdeSystem::jacobian_sparsity`](crate::OdeSystem::jacobian_sparsity).

use crate::error::Error;

/// Where `∂f_i/∂y_j` may be nonzero, in compressed-column form: the rows of
/// column `j` are `row_idx[col_ptr[j]..col_ptr[j + 1]]`, strictly increasing.
///
/// The pattern drives the column colouring of the finite-difference Jacobian
/// (Curtis, Powell & Reid 1974: one right-hand side per group of structurally
/// orthogonal columns) and the sparse factorization of the Newton iteration
/// matrices. An entry outside the pattern is taken to be zero; the diagonal is
/// added to the iteration matrices whether declared or not.
///
/// ```
/// use mbs_integrators::JacobianPattern;
/// // tridiagonal 4×4
/// let p = JacobianPattern::banded(4, 1, 1);
/// assert_eq!(p.nnz(), 10);
/// assert_eq!(p.rows(0), &[0, 1]);
/// let q = JacobianPattern::from_entries(4, [(1, 0), (0, 0), (2, 1)])?;
/// assert_eq!(q.rows(0), &[0, 1]);
/// # Ok::<(), mbs_integrators::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JacobianPattern {
    n: usize,
    col_ptr: Vec<usize>,
    row_idx: Vec<usize>,
}

impl JacobianPattern {
    /// A pattern from its compressed columns; [`Error::InvalidInput`] naming the
    /// column and row when `col_ptr` is not nondecreasing from 0 to
    /// `row_idx.len()` with `n + 1` entries, or when a column's rows are not
    /// strictly increasing below `n`.
    pub fn new(n: usize, col_ptr: Vec<usize>, row_idx: Vec<usize>) -> Result<Self, Error> {
        let bad = |m: String| Err(Error::InvalidInput(format!("Jacobian pattern: {m}")));
        if col_ptr.len() != n + 1 {
            return bad(format!(
                "col_ptr has length {}, expected {}",
                col_ptr.len(),
                n + 1
            ));
        }
        if col_ptr[0] != 0 || col_ptr[n] != row_idx.len() {
            return bad(format!(
                "col_ptr must run from 0 to {} (the number of entries), got {}..{}",
                row_idx.len(),
                col_ptr[0],
                col_ptr[n]
            ));
        }
        for j in 0..n {
            if col_ptr[j] > col_ptr[j + 1] {
                return bad(format!("col_ptr decreases at column {j}"));
            }
            let rows = &row_idx[col_ptr[j]..col_ptr[j + 1]];
            for (k, &i) in rows.iter().enumerate() {
                if i >= n {
                    return bad(format!("column {j} has row {i}, beyond dimension {n}"));
                }
                if k > 0 && rows[k - 1] >= i {
                    return bad(format!(
                        "rows of column {j} are not strictly increasing at row {i}"
                    ));
                }
            }
        }
        Ok(Self {
            n,
            col_ptr,
            row_idx,
        })
    }

    /// A pattern from `(row, column)` entries in any order (duplicates merged);
    /// [`Error::InvalidInput`] naming an entry outside `n×n`.
    pub fn from_entries(
        n: usize,
        entries: impl IntoIterator<Item = (usize, usize)>,
    ) -> Result<Self, Error> {
        let mut cols: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, j) in entries {
            if i >= n || j >= n {
                return Err(Error::InvalidInput(format!(
                    "Jacobian pattern: entry ({i}, {j}) is outside the {n}×{n} matrix"
                )));
            }
            cols[j].push(i);
        }
        let mut col_ptr = Vec::with_capacity(n + 1);
        let mut row_idx = Vec::new();
        col_ptr.push(0);
        for mut c in cols {
            c.sort_unstable();
            c.dedup();
            row_idx.extend(c);
            col_ptr.push(row_idx.len());
        }
        Ok(Self {
            n,
            col_ptr,
            row_idx,
        })
    }

    /// The band `j − upper ≤ i ≤ j + lower` of an `n×n` matrix.
    pub fn banded(n: usize, lower: usize, upper: usize) -> Self {
        let mut col_ptr = Vec::with_capacity(n + 1);
        let mut row_idx = Vec::new();
        col_ptr.push(0);
        for j in 0..n {
            row_idx.extend(j.saturating_sub(upper)..(j + lower + 1).min(n));
            col_ptr.push(row_idx.len());
        }
        Self {
            n,
            col_ptr,
            row_idx,
        }
    }

    /// Every entry of an `n×n` matrix.
    pub fn dense(n: usize) -> Self {
        Self::banded(n, n, n)
    }

    /// Dimension `n`.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// Number of structurally nonzero entries.
    pub fn nnz(&self) -> usize {
        self.row_idx.len()
    }

    /// Rows of column `j`, increasing.
    pub fn rows(&self, j: usize) -> &[usize] {
        &self.row_idx[self.col_ptr[j]..self.col_ptr[j + 1]]
    }

    /// Column pointers (`n + 1` entries).
    pub fn col_ptr(&self) -> &[usize] {
        &self.col_ptr
    }

    /// Row indices, column after column.
    pub fn row_idx(&self) -> &[usize] {
        &self.row_idx
    }

    /// The pattern with the diagonal added (the structure of `a I − b J`), and the
    /// position of each diagonal entry in the result.
    pub(crate) fn with_diagonal(&self) -> (Self, Vec<usize>) {
        let n = self.n;
        let mut col_ptr = Vec::with_capacity(n + 1);
        let mut row_idx = Vec::with_capacity(self.nnz() + n);
        let mut diag = Vec::with_capacity(n);
        col_ptr.push(0);
        for j in 0..n {
            let rows = self.rows(j);
            let split = rows.partition_point(|&i| i < j);
            row_idx.extend_from_slice(&rows[..split]);
            diag.push(row_idx.len());
            row_idx.push(j);
            let rest = &rows[split..];
            row_idx.extend_from_slice(if rest.first() == Some(&j) {
                &rest[1..]
            } else {
                rest
            });
            col_ptr.push(row_idx.len());
        }
        (
            Self {
                n,
                col_ptr,
                row_idx,
            },
            diag,
        )
    }
}
