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

use faer::Conj;
use faer::linalg::lu::partial_pivoting::factor::lu_in_place;
use faer::linalg::lu::partial_pivoting::solve::solve_in_place_with_conj;
use faer::perm::PermRef;

use super::workspace::{PAR, identity, mmut, mref, mul};
use super::{
    NullSpace, NullSpaceBasis, NullSpaceMethod, NullSpaceParams, NullSpaceWorkspace, validate,
};
use crate::LinalgError;
use crate::dense::as_faer;

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
/// redundant. Allocating wrapper of [`gauss_jordan_into`].
pub fn gauss_jordan(phi_q: &DMatrix<f64>, tol: f64) -> GaussJordan {
    let (m, n) = phi_q.shape();
    let mut gj = GaussJordanWork::new(m, n);
    gauss_jordan_into(phi_q, tol, &mut gj);
    GaussJordan {
        rank: gj.rank,
        dependent: gj.dependent.clone(),
        independent: gj.independent.clone(),
        independent_rows: gj.independent_rows.clone(),
        redundant_rows: gj.redundant_rows.clone(),
        reduced: DMatrix::from_row_slice(m, n, &gj.reduced),
        row_ops: DMatrix::from_row_slice(m, m, &gj.row_ops),
        min_pivot_ratio: gj.min_pivot_ratio,
    }
}

/// The result of [`gauss_jordan_into`], in preallocated storage (the fields of
/// [`GaussJordan`]; `reduced` (`m × n`) and `row_ops` (`m × m`) stored row by
/// row, so that the row operations run on contiguous slices).
#[derive(Debug, Clone)]
pub struct GaussJordanWork {
    m: usize,
    n: usize,
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
    /// `E Φ_q`, row major `m × n`.
    pub reduced: Vec<f64>,
    /// `E`, row major `m × m`.
    pub row_ops: Vec<f64>,
    /// Smallest accepted pivot magnitude divided by `max|Φ_q|`.
    pub min_pivot_ratio: f64,
    used: Vec<bool>,
}

impl GaussJordanWork {
    /// Storage for `m × n` matrices.
    pub fn new(m: usize, n: usize) -> Self {
        Self {
            m,
            n,
            rank: 0,
            dependent: Vec::with_capacity(m.min(n)),
            independent: Vec::with_capacity(n),
            independent_rows: Vec::with_capacity(m),
            redundant_rows: Vec::with_capacity(m),
            reduced: vec![0.0; m * n],
            row_ops: vec![0.0; m * m],
            min_pivot_ratio: 0.0,
            used: vec![false; n],
        }
    }

    /// Entry `(i, j)` of `E Φ_q`.
    pub fn reduced(&self, i: usize, j: usize) -> f64 {
        self.reduced[i * self.n + j]
    }

    /// Entry `(i, j)` of `E`.
    pub fn row_ops(&self, i: usize, j: usize) -> f64 {
        self.row_ops[i * self.m + j]
    }
}

/// [`gauss_jordan`] into preallocated storage (allocation-free when `gj` was
/// built for the shape of `phi_q`; it is resized otherwise).
pub fn gauss_jordan_into(phi_q: &DMatrix<f64>, tol: f64, gj: &mut GaussJordanWork) {
    let (m, n) = phi_q.shape();
    if (gj.m, gj.n) != (m, n) {
        *gj = GaussJordanWork::new(m, n);
    }
    let a = &mut gj.reduced;
    let e = &mut gj.row_ops;
    for (j, col) in phi_q.column_iter().enumerate() {
        for (i, &x) in col.iter().enumerate() {
            a[i * n + j] = x;
        }
    }
    e.fill(0.0);
    for i in 0..m {
        e[i * m + i] = 1.0;
    }
    let scale = phi_q.amax();
    gj.used.fill(false);
    gj.dependent.clear();
    gj.independent.clear();
    gj.independent_rows.clear();
    gj.redundant_rows.clear();
    let mut min_pivot_ratio = f64::INFINITY;
    for i in 0..m {
        let mut best = None;
        let mut best_abs = 0.0;
        for (c, &x) in a[i * n..(i + 1) * n].iter().enumerate() {
            if !gj.used[c] && x.abs() > best_abs {
                best_abs = x.abs();
                best = Some(c);
            }
        }
        let c = match best {
            Some(c) if scale > 0.0 && best_abs > tol * scale => c,
            _ => {
                gj.redundant_rows.push(i);
                continue;
            }
        };
        min_pivot_ratio = min_pivot_ratio.min(best_abs / scale);
        let piv = a[i * n + c];
        a[i * n..(i + 1) * n].iter_mut().for_each(|x| *x /= piv);
        e[i * m..(i + 1) * m].iter_mut().for_each(|x| *x /= piv);
        for k in 0..m {
            if k == i {
                continue;
            }
            let f = a[k * n + c];
            if f != 0.0 {
                row_axpy(a, n, k, i, f);
                row_axpy(e, m, k, i, f);
                a[k * n + c] = 0.0;
            }
        }
        gj.used[c] = true;
        gj.dependent.push(c);
        gj.independent_rows.push(i);
    }
    for c in 0..n {
        if !gj.used[c] {
            gj.independent.push(c);
        }
    }
    gj.rank = gj.dependent.len();
    gj.min_pivot_ratio = if min_pivot_ratio.is_finite() {
        min_pivot_ratio
    } else {
        0.0
    };
}

/// Row `dst` −= `f` × row `src` of the row-major matrix `buf` of `width` columns.
pub(crate) fn row_axpy(buf: &mut [f64], width: usize, dst: usize, src: usize, f: f64) {
    let (d, s) = if dst < src {
        let (lo, hi) = buf.split_at_mut(src * width);
        (&mut lo[dst * width..(dst + 1) * width], &hi[..width])
    } else {
        let (lo, hi) = buf.split_at_mut(dst * width);
        (&mut hi[..width], &lo[src * width..(src + 1) * width])
    };
    for (x, y) in d.iter_mut().zip(s) {
        *x -= f * y;
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
    super::workspace::compute_via(phi_q, params, compute_into)
}

/// [`compute`] into a workspace (allocation-free).
pub fn compute_into(
    phi_q: &DMatrix<f64>,
    params: &NullSpaceParams,
    ws: &mut NullSpaceWorkspace,
) -> Result<(), LinalgError> {
    validate(phi_q, params)?;
    ws.start(phi_q, NullSpaceMethod::CoordinatePartitioning, params)?;
    let (m, n) = phi_q.shape();
    if m == 0 || n == 0 || phi_q.amax() == 0.0 {
        ws.set_trivial(params);
        ws.orthonormal = false;
        return Ok(());
    }
    let mut gj = std::mem::replace(&mut ws.gj, GaussJordanWork::new(0, 0));
    gauss_jordan_into(phi_q, params.rank_tol, &mut gj);
    from_gauss_jordan(&gj, params, ws);
    ws.gj = gj;
    Ok(())
}

/// `P`, `S` of a fresh Gauss–Jordan selection into `ws`.
fn from_gauss_jordan(gj: &GaussJordanWork, params: &NullSpaceParams, ws: &mut NullSpaceWorkspace) {
    let (n, r) = (ws.n, gj.rank);
    let k = n - r;
    ws.rank = r;
    ws.orthonormal = false;
    let p = &mut ws.p[..n * k];
    p.fill(0.0);
    for (l, &v) in gj.independent.iter().enumerate() {
        p[v + l * n] = 1.0;
        for (kk, &u) in gj.dependent.iter().enumerate() {
            p[u + l * n] = -gj.reduced(gj.independent_rows[kk], v);
        }
    }
    ws.has_s = params.compute_s;
    if params.compute_s {
        ws.s.fill(0.0);
        for (kk, &u) in gj.dependent.iter().enumerate() {
            let row = gj.independent_rows[kk];
            for &i in &gj.independent_rows {
                ws.s[u + i * n] = gj.row_ops(row, i);
            }
        }
    }
}

/// Coordinate partitioning that keeps its partition between calls.
#[derive(Debug, Clone)]
pub struct CoordinatePartitioning {
    params: NullSpaceParams,
    /// Re-select when `min|pivot of Φ_u| / max|Φ_q|` falls below this.
    pub reselect_ratio: f64,
    partition: Partition,
    has_partition: bool,
    reselections: usize,
}

impl CoordinatePartitioning {
    /// A new instance (the partition is selected on the first call).
    pub fn new(params: NullSpaceParams) -> Self {
        Self {
            params,
            reselect_ratio: 1e-3,
            partition: Partition {
                dependent: Vec::new(),
                independent: Vec::new(),
                independent_rows: Vec::new(),
            },
            has_partition: false,
            reselections: 0,
        }
    }

    /// The current partition.
    pub fn partition(&self) -> Option<&Partition> {
        self.has_partition.then_some(&self.partition)
    }

    /// How many times a partition was selected (1 after the first call).
    pub fn selections(&self) -> usize {
        self.reselections
    }

    /// Forgets the partition; the next call selects a new one.
    pub fn reset(&mut self) {
        self.has_partition = false;
    }

    /// `P`, `S` and the rank for the current `Φ_q` into `ws`, keeping the
    /// partition while it is valid (allocation-free once the partition vectors
    /// have reached their size, i.e. after the first selection).
    pub fn compute_into(
        &mut self,
        phi_q: &DMatrix<f64>,
        ws: &mut NullSpaceWorkspace,
    ) -> Result<(), LinalgError> {
        validate(phi_q, &self.params)?;
        ws.start(phi_q, NullSpaceMethod::CoordinatePartitioning, &self.params)?;
        let (m, n) = phi_q.shape();
        if m == 0 || n == 0 || phi_q.amax() == 0.0 {
            self.has_partition = false;
            ws.set_trivial(&self.params);
            ws.orthonormal = false;
            return Ok(());
        }
        if self.reuse(phi_q, ws) {
            return Ok(());
        }
        self.select(phi_q, ws);
        Ok(())
    }

    fn select(&mut self, phi_q: &DMatrix<f64>, ws: &mut NullSpaceWorkspace) {
        let mut gj = std::mem::replace(&mut ws.gj, GaussJordanWork::new(0, 0));
        gauss_jordan_into(phi_q, self.params.rank_tol, &mut gj);
        let part = &mut self.partition;
        part.dependent.clear();
        part.dependent.extend_from_slice(&gj.dependent);
        part.independent.clear();
        part.independent.extend_from_slice(&gj.independent);
        part.independent_rows.clear();
        part.independent_rows
            .extend_from_slice(&gj.independent_rows);
        self.has_partition = true;
        self.reselections += 1;
        from_gauss_jordan(&gj, &self.params, ws);
        ws.gj = gj;
    }

    /// `P`, `S` with the kept partition into `ws`; `false` if it has degraded.
    fn reuse(&self, phi_q: &DMatrix<f64>, ws: &mut NullSpaceWorkspace) -> bool {
        if !self.has_partition {
            return false;
        }
        let part = &self.partition;
        let (m, n) = phi_q.shape();
        let r = part.dependent.len();
        if part.dependent.len() + part.independent.len() != n
            || part.independent_rows.iter().any(|&i| i >= m)
        {
            return false;
        }
        let scale = phi_q.amax();
        if scale == 0.0 {
            return false;
        }
        let k = n - r;
        let [lu, x, res, inv, ..] = &mut ws.w;
        // Φ_u (r × r) and Φ_v (r × k)
        for l in 0..r {
            for kk in 0..r {
                lu[kk + l * r] = phi_q[(part.independent_rows[kk], part.dependent[l])];
            }
        }
        for l in 0..k {
            for kk in 0..r {
                x[kk + l * r] = phi_q[(part.independent_rows[kk], part.independent[l])];
            }
        }
        // Φ_u = Pᵀ L U (partial pivoting)
        lu_in_place(
            mmut(lu, r, r),
            &mut ws.fwd[..r],
            &mut ws.bwd[..r],
            PAR,
            ws.mem.stack(),
            Default::default(),
        );
        let perm = PermRef::new_checked(&ws.fwd[..r], &ws.bwd[..r], r);
        let min_piv = (0..r).fold(f64::INFINITY, |a, i| a.min(lu[i + i * r].abs()));
        if r > 0
            && (min_piv / scale).partial_cmp(&self.reselect_ratio)
                != Some(std::cmp::Ordering::Greater)
        {
            return false;
        }
        if min_piv == 0.0 {
            return false;
        }
        let luf = mref(lu, r, r);
        // Φ_u⁻¹ Φ_v
        solve_in_place_with_conj(luf, luf, perm, Conj::No, mmut(x, r, k), PAR, ws.mem.stack());
        let p = &mut ws.p[..n * k];
        p.fill(0.0);
        for (l, &v) in part.independent.iter().enumerate() {
            p[v + l * n] = 1.0;
            for (kk, &uc) in part.dependent.iter().enumerate() {
                p[uc + l * n] = -x[kk + l * r];
            }
        }
        // The rows left out must still be dependent: Φ_q P = 0 for all rows.
        mul(mmut(res, m, k), as_faer(phi_q), mref(p, n, k));
        let amax = |v: &[f64]| v.iter().fold(0.0_f64, |a, x| a.max(x.abs()));
        let resid = amax(&res[..m * k]);
        if resid > 1e3 * f64::EPSILON * scale * amax(p).max(1.0) * (n as f64) {
            return false;
        }
        if self.params.compute_s {
            identity(inv, r);
            solve_in_place_with_conj(
                luf,
                luf,
                perm,
                Conj::No,
                mmut(inv, r, r),
                PAR,
                ws.mem.stack(),
            );
            ws.s.fill(0.0);
            for (kk, &uc) in part.dependent.iter().enumerate() {
                for (l, &i) in part.independent_rows.iter().enumerate() {
                    ws.s[uc + i * n] = inv[kk + l * r];
                }
            }
        }
        ws.has_s = self.params.compute_s;
        ws.rank = r;
        ws.orthonormal = false;
        true
    }
}

impl NullSpaceBasis for CoordinatePartitioning {
    fn method(&self) -> NullSpaceMethod {
        NullSpaceMethod::CoordinatePartitioning
    }

    fn compute(&mut self, phi_q: &DMatrix<f64>) -> Result<NullSpace, LinalgError> {
        let (m, n) = phi_q.shape();
        let mut ws = NullSpaceWorkspace::new(m, n);
        self.compute_into(phi_q, &mut ws)?;
        Ok(ws.to_null_space())
    }
}
