//! A sparsity pattern in compressed sparse column (CSC) form, built once from
//! `(row, col)` pairs. Values are then supplied each step as a slice in the order
//! of those pairs and scattered into the CSC value array (duplicates are summed).

use faer::sparse::SymbolicSparseColMatRef;

use crate::LinalgError;

const IGNORED: usize = usize::MAX;

/// A fixed CSC sparsity pattern.
#[derive(Debug, Clone)]
pub struct SparsePattern {
    nrows: usize,
    ncols: usize,
    col_ptr: Vec<usize>,
    row_idx: Vec<usize>,
    /// CSC slot of every input entry (`IGNORED` for dropped upper entries).
    slot: Vec<usize>,
    /// CSC slot of each diagonal entry (symmetric patterns only).
    diag: Vec<usize>,
    symmetric_lower: bool,
}

impl SparsePattern {
    /// A general `nrows × ncols` pattern; every entry is kept.
    pub fn new(
        nrows: usize,
        ncols: usize,
        entries: &[(usize, usize)],
    ) -> Result<Self, LinalgError> {
        Self::build(nrows, ncols, entries, false)
    }

    /// The lower triangle of a symmetric `n × n` matrix, as faer's symmetric
    /// factorizations read it (`Side::Lower`). Entries with `row < col` are
    /// **ignored** (their values are skipped), so a full symmetric triplet list can
    /// be passed as is. Every diagonal entry is present (added with value 0 if
    /// missing).
    pub fn symmetric_lower(n: usize, entries: &[(usize, usize)]) -> Result<Self, LinalgError> {
        Self::build(n, n, entries, true)
    }

    fn build(
        nrows: usize,
        ncols: usize,
        entries: &[(usize, usize)],
        lower: bool,
    ) -> Result<Self, LinalgError> {
        for &(row, col) in entries {
            if row >= nrows || col >= ncols {
                return Err(LinalgError::InvalidPattern {
                    row,
                    col,
                    nrows,
                    ncols,
                });
            }
        }
        // (col, row, input index or IGNORED for added diagonals)
        let mut keyed: Vec<(usize, usize, usize)> = entries
            .iter()
            .enumerate()
            .filter(|(_, (r, c))| !lower || r >= c)
            .map(|(k, &(r, c))| (c, r, k))
            .collect();
        if lower {
            keyed.extend((0..nrows).map(|i| (i, i, IGNORED)));
        }
        keyed.sort_unstable();
        let mut col_ptr = vec![0usize; ncols + 1];
        let mut row_idx = Vec::with_capacity(keyed.len());
        let mut slot = vec![IGNORED; entries.len()];
        let mut diag = if lower { vec![0; nrows] } else { Vec::new() };
        let mut last: Option<(usize, usize)> = None;
        for &(c, r, k) in &keyed {
            if last != Some((c, r)) {
                row_idx.push(r);
                col_ptr[c + 1] += 1;
                last = Some((c, r));
                if lower && r == c {
                    diag[r] = row_idx.len() - 1;
                }
            }
            if k != IGNORED {
                slot[k] = row_idx.len() - 1;
            }
        }
        for c in 0..ncols {
            col_ptr[c + 1] += col_ptr[c];
        }
        Ok(Self {
            nrows,
            ncols,
            col_ptr,
            row_idx,
            slot,
            diag,
            symmetric_lower: lower,
        })
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.nrows
    }

    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.ncols
    }

    /// Number of stored (deduplicated) entries.
    pub fn nnz(&self) -> usize {
        self.row_idx.len()
    }

    /// Number of input entries (the length `values` must have).
    pub fn num_entries(&self) -> usize {
        self.slot.len()
    }

    /// Whether this is a symmetric lower-triangle pattern.
    pub fn is_symmetric_lower(&self) -> bool {
        self.symmetric_lower
    }

    /// Column pointers.
    pub fn col_ptr(&self) -> &[usize] {
        &self.col_ptr
    }

    /// Row indices (sorted within each column).
    pub fn row_idx(&self) -> &[usize] {
        &self.row_idx
    }

    /// CSC slots of the diagonal (symmetric patterns).
    pub(crate) fn diag_slots(&self) -> &[usize] {
        &self.diag
    }

    /// The faer symbolic view.
    pub fn symbolic(&self) -> SymbolicSparseColMatRef<'_, usize> {
        SymbolicSparseColMatRef::new_checked(
            self.nrows,
            self.ncols,
            &self.col_ptr,
            None,
            &self.row_idx,
        )
    }

    /// Scatters pattern-order `values` into the CSC array `csc` (length
    /// [`Self::nnz`]), summing duplicates; never allocates.
    pub fn scatter(&self, values: &[f64], csc: &mut [f64]) -> Result<(), LinalgError> {
        crate::error::check_len("SparsePattern values", self.slot.len(), values.len())?;
        crate::error::check_len("SparsePattern csc", self.row_idx.len(), csc.len())?;
        csc.iter_mut().for_each(|v| *v = 0.0);
        for (k, (&s, &v)) in self.slot.iter().zip(values).enumerate() {
            if !v.is_finite() {
                return Err(LinalgError::NonFinite {
                    what: "sparse values",
                    index: k,
                    value: v,
                });
            }
            if s != IGNORED {
                csc[s] += v;
            }
        }
        Ok(())
    }

    /// `y = A x` for CSC values `csc` (general patterns) or the symmetric matrix
    /// whose lower triangle is stored (symmetric patterns); never allocates.
    pub fn matvec(&self, csc: &[f64], x: &[f64], y: &mut [f64]) -> Result<(), LinalgError> {
        crate::error::check_len("SparsePattern::matvec csc", self.row_idx.len(), csc.len())?;
        crate::error::check_len("SparsePattern::matvec x", self.ncols, x.len())?;
        crate::error::check_len("SparsePattern::matvec y", self.nrows, y.len())?;
        y.iter_mut().for_each(|v| *v = 0.0);
        for c in 0..self.ncols {
            let xc = x[c];
            for s in self.col_ptr[c]..self.col_ptr[c + 1] {
                let r = self.row_idx[s];
                y[r] += csc[s] * xc;
                if self.symmetric_lower && r != c {
                    y[c] += csc[s] * x[r];
                }
            }
        }
        Ok(())
    }
}
