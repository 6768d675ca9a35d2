//! Preallocated output and scratch of the `compute_into` null-space routines.
//!
//! A [`NullSpaceWorkspace`] is sized once for an `m × n` Jacobian; every method
//! then writes `P`, `S` and the rank into it without allocating: dense products,
//! QR (with and without column pivoting), the self-adjoint eigendecomposition,
//! the SVD and Cholesky run as faer's in-place kernels (`Par::Seq`, so the result
//! does not depend on the thread count) on buffers and a scratch stack sized here.
//! `P` (`n × (n − r)`) and `S` (`n × m`) are read as column-major views.

use faer::Conj;
use faer::dyn_stack::StackReq;
use faer::linalg::evd::{ComputeEigenvectors, self_adjoint_evd_scratch};
use faer::linalg::householder::{
    apply_block_householder_sequence_on_the_left_in_place_scratch,
    apply_block_householder_sequence_on_the_left_in_place_with_conj,
};
use faer::linalg::qr::no_pivoting::factor::recommended_block_size;
use faer::linalg::svd::{ComputeSvdVectors, svd_scratch};
use nalgebra::{DMatrix, DMatrixView};

use super::coordinate_partitioning::GaussJordanWork;
use super::{NullSpace, NullSpaceMethod, NullSpaceParams};
use crate::LinalgError;
use crate::error::check_len;
use crate::scratch::Scratch;
pub(crate) use crate::scratch::{PAR, cholesky_solve, mmut, mref, mul};

/// Output (`P`, `S`, rank) and scratch of the null-space methods for an `m × n`
/// Jacobian, reused across calls (see the module docs).
#[derive(Debug)]
pub struct NullSpaceWorkspace {
    pub(crate) n: usize,
    pub(crate) m: usize,
    pub(crate) rank: usize,
    pub(crate) has_s: bool,
    pub(crate) orthonormal: bool,
    pub(crate) rank_tol: f64,
    pub(crate) method: NullSpaceMethod,
    /// `P` in the first `n (n − rank)` entries (column major, `n × (n − rank)`).
    pub(crate) p: Vec<f64>,
    /// `S`, `n × m`.
    pub(crate) s: Vec<f64>,
    /// Six scratch matrices of `max(n, m)²` entries.
    pub(crate) w: [Vec<f64>; 6],
    /// Householder basis (unit lower trapezoidal copy).
    pub(crate) basis: Vec<f64>,
    pub(crate) qcoeff: Vec<f64>,
    pub(crate) eig: Vec<f64>,
    pub(crate) eig2: Vec<f64>,
    pub(crate) idx: Vec<usize>,
    pub(crate) fwd: Vec<usize>,
    pub(crate) bwd: Vec<usize>,
    pub(crate) used: Vec<bool>,
    pub(crate) gj: GaussJordanWork,
    pub(crate) mem: Scratch,
}

impl NullSpaceWorkspace {
    /// A workspace for `m × n` Jacobians (`m` constraint rows, `n` coordinates).
    pub fn new(m: usize, n: usize) -> Self {
        let l = n.max(m);
        let mut req = StackReq::EMPTY;
        let mut qc = 0;
        let evd = |d: usize| {
            if d == 0 {
                StackReq::EMPTY
            } else {
                self_adjoint_evd_scratch::<f64>(
                    d,
                    ComputeEigenvectors::Yes,
                    PAR,
                    Default::default(),
                )
            }
        };
        req = req.or(evd(n)).or(evd(m));
        req = req.or(svd_scratch::<f64>(
            n,
            m,
            ComputeSvdVectors::Full,
            ComputeSvdVectors::Full,
            PAR,
            Default::default(),
        ));
        // QR of n × c for every c ≤ max(n, m) (Φ_rᵀ, Φ_qᵀ, I − SΦ_q), full Q.
        for c in 1..=l {
            let bs = recommended_block_size::<f64>(n, c);
            qc = qc.max(bs * n.min(c));
            req = req
                .or(
                    faer::linalg::qr::no_pivoting::factor::qr_in_place_scratch::<f64>(
                        n,
                        c,
                        bs,
                        PAR,
                        Default::default(),
                    ),
                )
                .or(
                    faer::linalg::qr::col_pivoting::factor::qr_in_place_scratch::<usize, f64>(
                        n,
                        c,
                        bs,
                        PAR,
                        Default::default(),
                    ),
                )
                .or(apply_block_householder_sequence_on_the_left_in_place_scratch::<f64>(n, bs, n));
        }
        req = req.or(
            faer::linalg::cholesky::llt::factor::cholesky_in_place_scratch::<f64>(
                l,
                PAR,
                Default::default(),
            ),
        );
        Self {
            n,
            m,
            rank: 0,
            has_s: false,
            orthonormal: true,
            rank_tol: 0.0,
            method: NullSpaceMethod::Qr,
            p: vec![0.0; n * n],
            s: vec![0.0; n * m],
            w: std::array::from_fn(|_| vec![0.0; l * l]),
            basis: vec![0.0; n * l],
            qcoeff: vec![0.0; qc.max(1)],
            eig: vec![0.0; l],
            eig2: vec![0.0; l],
            idx: vec![0; l],
            fwd: vec![0; l],
            bwd: vec![0; l],
            used: vec![false; l],
            gj: GaussJordanWork::new(m, n),
            mem: Scratch::new(req),
        }
    }

    /// `(m, n)`: the Jacobian shape this workspace is sized for.
    pub fn shape(&self) -> (usize, usize) {
        (self.m, self.n)
    }
    /// Numerical rank of the last Jacobian.
    pub fn rank(&self) -> usize {
        self.rank
    }
    /// The method of the last call.
    pub fn method(&self) -> NullSpaceMethod {
        self.method
    }
    /// Whether `PᵀP = I`.
    pub fn orthonormal(&self) -> bool {
        self.orthonormal
    }
    /// `P`, `n × (n − rank)`.
    pub fn p(&self) -> DMatrixView<'_, f64> {
        let k = self.n - self.rank;
        DMatrixView::from_slice(&self.p[..self.n * k], self.n, k)
    }
    /// The entries of `P`, column major `n × (n − rank)`.
    pub fn p_data(&self) -> &[f64] {
        &self.p[..self.n * (self.n - self.rank)]
    }
    /// `S` (`n × m`) where the method defines it and it was requested.
    pub fn s(&self) -> Option<DMatrixView<'_, f64>> {
        self.has_s
            .then(|| DMatrixView::from_slice(&self.s, self.n, self.m))
    }
    /// An owned copy (allocates).
    pub fn to_null_space(&self) -> NullSpace {
        NullSpace {
            p: self.p().clone_owned(),
            rank: self.rank,
            s: self.s().map(|s| s.clone_owned()),
            orthonormal: self.orthonormal,
            rank_tol: self.rank_tol,
            method: self.method,
        }
    }

    /// Checks the shape of `phi_q` and records the method.
    pub(crate) fn start(
        &mut self,
        phi_q: &DMatrix<f64>,
        method: NullSpaceMethod,
        params: &NullSpaceParams,
    ) -> Result<(), LinalgError> {
        check_len("null-space workspace rows", self.m, phi_q.nrows())?;
        check_len("null-space workspace columns", self.n, phi_q.ncols())?;
        self.method = method;
        self.rank_tol = params.rank_tol;
        self.orthonormal = method.is_orthonormal();
        self.has_s = false;
        Ok(())
    }

    /// The trivial answer for an empty or zero Jacobian: rank 0, `P = I`, `S = 0`.
    /// Validates `phi_q`, starts `method` and, for an empty or zero Jacobian, writes
    /// the trivial basis: `Ok(true)` then, and the caller is done.
    pub(crate) fn begin(
        &mut self,
        phi_q: &DMatrix<f64>,
        method: NullSpaceMethod,
        params: &NullSpaceParams,
    ) -> Result<bool, LinalgError> {
        super::validate(phi_q, params)?;
        self.start(phi_q, method, params)?;
        let (m, n) = phi_q.shape();
        if m == 0 || n == 0 || phi_q.amax() == 0.0 {
            self.set_trivial(params);
            return Ok(true);
        }
        Ok(false)
    }

    pub(crate) fn set_trivial(&mut self, params: &NullSpaceParams) {
        let n = self.n;
        self.rank = 0;
        self.orthonormal = true;
        identity(&mut self.p, n);
        self.has_s = params.compute_s;
        if params.compute_s {
            self.s.fill(0.0);
        }
    }
}

/// The `n × n` identity in the front of `buf`.
pub(crate) fn identity(buf: &mut [f64], n: usize) {
    buf[..n * n].fill(0.0);
    for i in 0..n {
        buf[i + i * n] = 1.0;
    }
}

/// Copies the transpose of `phi` (`m × n`) into `dst` as `n × m`.
pub(crate) fn transpose_into(phi: &DMatrix<f64>, dst: &mut [f64]) {
    let (m, n) = phi.shape();
    for j in 0..m {
        for i in 0..n {
            dst[i + j * n] = phi[(j, i)];
        }
    }
}

/// Buffers of one QR factorization with an explicit `Q`.
pub(crate) struct QrBufs<'a> {
    pub basis: &'a mut [f64],
    pub qcoeff: &'a mut [f64],
    pub fwd: &'a mut [usize],
    pub bwd: &'a mut [usize],
    pub mem: &'a mut Scratch,
}

/// QR of the `nr × nc` matrix in `a` (in place: `R` in its upper trapezoid),
/// with column pivoting when `pivot` (permutation in `bufs.fwd`, as faer's
/// `ColPivQr::P().arrays().0`), and the full `Q` (`nr × nr`) written to `q`.
/// The same kernels as faer's `Mat::qr` / `Mat::col_piv_qr` + `compute_Q`.
pub(crate) fn qr_with_q(
    a: &mut [f64],
    nr: usize,
    nc: usize,
    pivot: bool,
    q: &mut [f64],
    bufs: QrBufs<'_>,
) {
    let k = nr.min(nc);
    let bs = recommended_block_size::<f64>(nr, nc);
    {
        let coeff = mmut(bufs.qcoeff, bs, k);
        let stack = bufs.mem.stack();
        if pivot {
            faer::linalg::qr::col_pivoting::factor::qr_in_place(
                mmut(a, nr, nc),
                coeff,
                &mut bufs.fwd[..nc],
                &mut bufs.bwd[..nc],
                PAR,
                stack,
                Default::default(),
            );
        } else {
            faer::linalg::qr::no_pivoting::factor::qr_in_place(
                mmut(a, nr, nc),
                coeff,
                PAR,
                stack,
                Default::default(),
            );
        }
    }
    // The Householder basis: unit lower trapezoidal nr × k.
    for j in 0..k {
        for i in 0..nr {
            bufs.basis[i + j * nr] = match i.cmp(&j) {
                std::cmp::Ordering::Less => 0.0,
                std::cmp::Ordering::Equal => 1.0,
                std::cmp::Ordering::Greater => a[i + j * nr],
            };
        }
    }
    identity(q, nr);
    apply_block_householder_sequence_on_the_left_in_place_with_conj(
        mref(bufs.basis, nr, k),
        mref(bufs.qcoeff, bs, k),
        Conj::No,
        mmut(q, nr, nr),
        PAR,
        bufs.mem.stack(),
    );
}

/// A method's allocating `compute`: its `compute_into` on a fresh workspace.
pub(crate) fn compute_via<F>(
    phi_q: &DMatrix<f64>,
    params: &NullSpaceParams,
    compute_into: F,
) -> Result<NullSpace, LinalgError>
where
    F: FnOnce(&DMatrix<f64>, &NullSpaceParams, &mut NullSpaceWorkspace) -> Result<(), LinalgError>,
{
    let (m, n) = phi_q.shape();
    let mut ws = NullSpaceWorkspace::new(m, n);
    compute_into(phi_q, params, &mut ws)?;
    Ok(ws.to_null_space())
}
