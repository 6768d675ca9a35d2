//! Coordinate partitioning (Pękal–Frączek sec 3.3.1, eqs 3.37–3.39; Wehage–Haug).
//!
//! Gauss–Jordan elimination with partial pivoting splits the coordinates into
//! dependent `u` (pivot columns) and independent `v`, and detects redundant
//! constraint rows (no acceptable pivot left). Then `Φ_u u̇ + Φ_v v̇ = 0` gives
//!
//! ```text
//!   P = [ −Φ_u⁻¹ Φ_v ]  (rows u)        S = [ Φ_u⁻¹ ]  (rows u, independent constraint columns)
//!       [  I         ]  (rows v)            [ 0     ]  (rows v; zero columns for redundant rows)
//! ```
//!
//! i.e. `X = [Φ_q; B]` with `B` selecting `v`, `X⁻¹ = [S P]` (eq 3.3, with `Φ_u⁻¹`
//! taken over the independent rows for redundant systems). `P` is not orthonormal.
//!
//! [`CoordinatePartitioning`] keeps the partition between calls (the paper: "only
//! one coordinate partitioning is sufficient … it should be monitored whether the
//! actual partition … is still valid") and re-selects it when the pivots of `Φ_u`
//! degrade below `reselect_ratio` or the redundant rows stop being dependent.

use nalgebra::DMatrix;

use super::{NullSpace, NullSpaceBasis, NullSpaceMethod, NullSpaceParams, trivial, validate};
use crate::LinalgError;

/// The result of Gauss–Jordan elimination with partial pivoting on `Φ_q`.
#[derive(Debug, Clone, PartialEq)]
pub struct GaussJordan {
    /// Numerical rank (number of pivots).
    pub rank: usize,
    /// Dependent coordinates `u` (pivot columns), in pivot order.
    pub dependent: Vec<usize>,
    /// Independent coordinates `v`, ascending.
    pub independent: Vec<usize>,
    /// Independent constraint rows (pivot rows), in pivot order.
    pub independent_rows: Vec<usize>,
    /// Redundant constraint rows, ascending.
    pub redundant_rows: Vec<usize>,
    /// The reduced matrix `E Φ_q`: pivot rows have the identity in the pivot
    /// columns, redundant rows are numerically zero.
    pub reduced: DMatrix<f64>,
    /// The accumulated row operations `E` (`m × m`).
    pub row_ops: DMatrix<f64>,
    /// Smallest accepted pivot magnitude divided by `max|Φ_q|`.
    pub min_pivot_ratio: f64,
}

/// Gauss–Jordan elimination with partial pivoting, processing the constraint
/// rows in order and taking as pivot the largest remaining entry of the row
/// (partial pivoting of `Φ_qᵀ` by rows, as the paper uses to find the independent
/// constraints). A row whose largest remaining entry is `≤ tol · max|Φ_q|` is
/// redundant.
pub fn gauss_jordan(phi_q: &DMatrix<f64>, tol: f64) -> GaussJordan {
    let (m, n) = phi_q.shape();
    let mut a = phi_q.clone();
    let mut e = DMatrix::<f64>::identity(m, m);
    let scale = phi_q.amax();
    let mut used = vec![false; n];
    let mut dependent = Vec::new();
    let mut independent_rows = Vec::new();
    let mut redundant_rows = Vec::new();
    let mut min_pivot_ratio = f64::INFINITY;
    for i in 0..m {
        let mut best = None;
        let mut best_abs = 0.0;
        for c in 0..n {
            if !used[c] && a[(i, c)].abs() > best_abs {
                best_abs = a[(i, c)].abs();
                best = Some(c);
            }
        }
        let c = match best {
            Some(c) if scale > 0.0 && best_abs > tol * scale => c,
            _ => {
                redundant_rows.push(i);
                continue;
            }
        };
        min_pivot_ratio = min_pivot_ratio.min(best_abs / scale);
        let piv = a[(i, c)];
        a.row_mut(i).unscale_mut(piv);
        e.row_mut(i).unscale_mut(piv);
        let arow = a.row(i).clone_owned();
        let erow = e.row(i).clone_owned();
        for k in 0..m {
            if k == i {
                continue;
            }
            let f = a[(k, c)];
            if f != 0.0 {
                a.row_mut(k).zip_apply(&arow, |x, y| *x -= f * y);
                e.row_mut(k).zip_apply(&erow, |x, y| *x -= f * y);
                a[(k, c)] = 0.0;
            }
        }
        used[c] = true;
        dependent.push(c);
        independent_rows.push(i);
    }
    let independent = (0..n).filter(|&c| !used[c]).collect();
    GaussJordan {
        rank: dependent.len(),
        dependent,
        independent,
        independent_rows,
        redundant_rows,
        reduced: a,
        row_ops: e,
        min_pivot_ratio: if min_pivot_ratio.is_finite() {
            min_pivot_ratio
        } else {
            0.0
        },
    }
}

/// A coordinate partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    /// Dependent coordinates `u`.
    pub dependent: Vec<usize>,
    /// Independent coordinates `v`.
    pub independent: Vec<usize>,
    /// Independent constraint rows (same order as `dependent`).
    pub independent_rows: Vec<usize>,
}

/// Stateless coordinate partitioning: selects a partition and builds `P`, `S`.
pub fn compute(phi_q: &DMatrix<f64>, params: &NullSpaceParams) -> Result<NullSpace, LinalgError> {
    validate(phi_q, params)?;
    let (m, n) = phi_q.shape();
    if m == 0 || n == 0 || phi_q.amax() == 0.0 {
        let mut t = trivial(n, m, NullSpaceMethod::CoordinatePartitioning, params);
        t.orthonormal = false;
        return Ok(t);
    }
    let gj = gauss_jordan(phi_q, params.rank_tol);
    Ok(from_gauss_jordan(&gj, n, m, params))
}

fn from_gauss_jordan(gj: &GaussJordan, n: usize, m: usize, params: &NullSpaceParams) -> NullSpace {
    let r = gj.rank;
    let mut p = DMatrix::zeros(n, n - r);
    for (l, &v) in gj.independent.iter().enumerate() {
        p[(v, l)] = 1.0;
        for (k, &u) in gj.dependent.iter().enumerate() {
            p[(u, l)] = -gj.reduced[(gj.independent_rows[k], v)];
        }
    }
    let s = params.compute_s.then(|| {
        let mut s = DMatrix::zeros(n, m);
        for (k, &u) in gj.dependent.iter().enumerate() {
            let row = gj.independent_rows[k];
            for &i in &gj.independent_rows {
                s[(u, i)] = gj.row_ops[(row, i)];
            }
        }
        s
    });
    NullSpace {
        p,
        rank: r,
        s,
        orthonormal: false,
        rank_tol: params.rank_tol,
        method: NullSpaceMethod::CoordinatePartitioning,
    }
}

/// Coordinate partitioning that keeps its partition between calls.
#[derive(Debug, Clone)]
pub struct CoordinatePartitioning {
    params: NullSpaceParams,
    /// Re-select when `min|pivot of Φ_u| / max|Φ_q|` falls below this.
    pub reselect_ratio: f64,
    partition: Option<Partition>,
    reselections: usize,
}

impl CoordinatePartitioning {
    /// A new instance (the partition is selected on the first call).
    pub fn new(params: NullSpaceParams) -> Self {
        Self {
            params,
            reselect_ratio: 1e-3,
            partition: None,
            reselections: 0,
        }
    }

    /// The current partition.
    pub fn partition(&self) -> Option<&Partition> {
        self.partition.as_ref()
    }

    /// How many times a partition was selected (1 after the first call).
    pub fn selections(&self) -> usize {
        self.reselections
    }

    /// Forgets the partition; the next call selects a new one.
    pub fn reset(&mut self) {
        self.partition = None;
    }

    fn select(&mut self, phi_q: &DMatrix<f64>) -> NullSpace {
        let (m, n) = phi_q.shape();
        let gj = gauss_jordan(phi_q, self.params.rank_tol);
        self.partition = Some(Partition {
            dependent: gj.dependent.clone(),
            independent: gj.independent.clone(),
            independent_rows: gj.independent_rows.clone(),
        });
        self.reselections += 1;
        from_gauss_jordan(&gj, n, m, &self.params)
    }

    /// `P`, `S` with the kept partition, or `None` if it has degraded.
    fn reuse(&self, phi_q: &DMatrix<f64>) -> Option<NullSpace> {
        let part = self.partition.as_ref()?;
        let (m, n) = phi_q.shape();
        let r = part.dependent.len();
        if part.dependent.len() + part.independent.len() != n
            || part.independent_rows.iter().any(|&i| i >= m)
        {
            return None;
        }
        let scale = phi_q.amax();
        if scale == 0.0 {
            return None;
        }
        let phi_u = DMatrix::from_fn(r, r, |k, l| {
            phi_q[(part.independent_rows[k], part.dependent[l])]
        });
        let phi_v = DMatrix::from_fn(r, n - r, |k, l| {
            phi_q[(part.independent_rows[k], part.independent[l])]
        });
        let lu = phi_u.clone().lu();
        let u = lu.u();
        let min_piv = (0..r).fold(f64::INFINITY, |a, i| a.min(u[(i, i)].abs()));
        if r > 0
            && (min_piv / scale).partial_cmp(&self.reselect_ratio)
                != Some(std::cmp::Ordering::Greater)
        {
            return None;
        }
        let x = lu.solve(&phi_v)?; // Φ_u⁻¹ Φ_v
        let mut p = DMatrix::zeros(n, n - r);
        for (l, &v) in part.independent.iter().enumerate() {
            p[(v, l)] = 1.0;
            for (k, &uc) in part.dependent.iter().enumerate() {
                p[(uc, l)] = -x[(k, l)];
            }
        }
        // The rows left out must still be dependent: Φ_q P = 0 for all rows.
        let res = (phi_q * &p).amax();
        if res > 1e3 * f64::EPSILON * scale * p.amax().max(1.0) * (n as f64) {
            return None;
        }
        let s = if self.params.compute_s {
            let inv = lu.try_inverse()?;
            let mut s = DMatrix::zeros(n, m);
            for (k, &uc) in part.dependent.iter().enumerate() {
                for (l, &i) in part.independent_rows.iter().enumerate() {
                    s[(uc, i)] = inv[(k, l)];
                }
            }
            Some(s)
        } else {
            None
        };
        Some(NullSpace {
            p,
            rank: r,
            s,
            orthonormal: false,
            rank_tol: self.params.rank_tol,
            method: NullSpaceMethod::CoordinatePartitioning,
        })
    }
}

impl NullSpaceBasis for CoordinatePartitioning {
    fn method(&self) -> NullSpaceMethod {
        NullSpaceMethod::CoordinatePartitioning
    }

    fn compute(&mut self, phi_q: &DMatrix<f64>) -> Result<NullSpace, LinalgError> {
        validate(phi_q, &self.params)?;
        let (m, n) = phi_q.shape();
        if m == 0 || n == 0 || phi_q.amax() == 0.0 {
            self.partition = None;
            let mut t = trivial(n, m, NullSpaceMethod::CoordinatePartitioning, &self.params);
            t.orthonormal = false;
            return Ok(t);
        }
        if let Some(ns) = self.reuse(phi_q) {
            return Ok(ns);
        }
        Ok(self.select(phi_q))
    }
}
