//! Null-space (orthogonal complement) bases `P` with `Φ_q P = 0` for a possibly
//! rank-deficient Jacobian `Φ_q` (`m × n`), after Pękal–Frączek sec 3.
//!
//! Every method returns a [`NullSpace`]: `P` (`n × (n − r)`), the numerical rank
//! `r` counted with an explicit relative tolerance, and, where the method defines
//! it, the matrix `S` of eq 3.3 (`X⁻¹ = [S P]`, `X = [Φ_q; B]`), so that
//! `q̈ = S Γ + P v̈` (eq 3.5). For the orthonormal methods (`B = Pᵀ`) `S` is the
//! Moore–Penrose pseudo-inverse `Φ_q⁺`; for coordinate partitioning it is the
//! `Φ_u⁻¹` block (eq 3.38), for Wang–Huston the weighted pseudo-inverse
//! `M⁻¹Φ_qᵀ(Φ_q M⁻¹ Φ_qᵀ)⁺` (eq 3.42). With redundant rows `S` satisfies
//! `Φ_q S Φ_q = Φ_q` (the paper's "pseudoinverse … instead of X⁻¹").
//!
//! | method | equations | `P` orthonormal | rank measure compared with `rank_tol` |
//! |---|---|---|---|
//! | `zero_eigen` | 3.9–3.15 | yes | eigenvalue of `Φ_qᵀΦ_q` over the largest |
//! | `schur` | 3.16–3.19 | yes | diagonal of the (symmetric) Schur form over the largest |
//! | `putd_householder` | 3.20–3.23 | yes | Gauss–Jordan pivot over `max|Φ_q|` |
//! | `putd_gauss` | 3.20–3.23 | yes (Gram–Schmidt) | Gauss pivot over `max|Φ_q|` |
//! | `svd` | 3.24–3.28 | yes | singular value over the largest |
//! | `qr` | 3.29–3.36 | yes | `|R_ii|` over `|R_00|` |
//! | `coordinate_partitioning` | 3.37–3.39 | no (`P = [−Φ_u⁻¹Φ_v; I]`) | Gauss–Jordan pivot over `max|Φ_q|` |
//! | `wang_huston` | 3.40–3.42 | yes | eigenvalue of `Φ_q M⁻¹ Φ_qᵀ` over the largest |
//!
//! Accuracy note: the two eigenvalue methods work on `Φ_qᵀΦ_q`, so their error in
//! `Φ_q P` grows like `κ(Φ_q)²` (about `ε κ²‖Φ_q‖`); prefer QR or SVD for
//! ill-conditioned Jacobians (the paper's conclusion, sec 5, agrees).

mod coordinate_partitioning;
mod putd_gauss;
mod putd_householder;
mod qr;
mod schur;
mod svd;
mod wang_huston;
mod workspace;
mod zero_eigen;

pub use coordinate_partitioning::{
    CoordinatePartitioning, GaussJordan, GaussJordanWork, Partition, gauss_jordan,
    gauss_jordan_into,
};
pub use workspace::NullSpaceWorkspace;

use nalgebra::DMatrix;

use crate::LinalgError;
use crate::error::check_finite;

/// The null-space methods of Pękal–Frączek sec 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NullSpaceMethod {
    /// Zero eigenvalues of `Φ_qᵀΦ_q` (sec 3.2.1).
    ZeroEigen,
    /// Symmetric Schur decomposition of `Φ_qᵀΦ_q` by cyclic Jacobi (sec 3.2.2).
    Schur,
    /// Pseudo upper triangular decomposition with Householder (sec 3.2.3, PUTD-H).
    PutdHouseholder,
    /// Pseudo upper triangular decomposition with Gauss elimination and
    /// Gram–Schmidt (sec 3.2.3, PUTD-G).
    PutdGauss,
    /// Singular value decomposition of `Φ_qᵀ` (sec 3.2.4).
    Svd,
    /// QR with column pivoting of `Φ_qᵀ` (sec 3.2.5).
    Qr,
    /// Coordinate partitioning by Gauss–Jordan with partial pivoting (sec 3.3.1).
    CoordinatePartitioning,
    /// Wang–Huston weighted pseudo-inverse (sec 3.3.2); needs the mass matrix.
    WangHuston,
}

impl NullSpaceMethod {
    /// All methods, in the paper's order.
    pub const ALL: [NullSpaceMethod; 8] = [
        NullSpaceMethod::ZeroEigen,
        NullSpaceMethod::Schur,
        NullSpaceMethod::PutdHouseholder,
        NullSpaceMethod::PutdGauss,
        NullSpaceMethod::Svd,
        NullSpaceMethod::Qr,
        NullSpaceMethod::CoordinatePartitioning,
        NullSpaceMethod::WangHuston,
    ];

    /// Whether the method returns `PᵀP = I`.
    pub fn is_orthonormal(self) -> bool {
        !matches!(self, NullSpaceMethod::CoordinatePartitioning)
    }

    /// Short name.
    pub fn name(self) -> &'static str {
        match self {
            NullSpaceMethod::ZeroEigen => "zero-eigenvalue",
            NullSpaceMethod::Schur => "schur",
            NullSpaceMethod::PutdHouseholder => "putd-h",
            NullSpaceMethod::PutdGauss => "putd-g",
            NullSpaceMethod::Svd => "svd",
            NullSpaceMethod::Qr => "qr",
            NullSpaceMethod::CoordinatePartitioning => "coordinate-partitioning",
            NullSpaceMethod::WangHuston => "wang-huston",
        }
    }
}

/// Parameters shared by the null-space methods.
#[derive(Debug, Clone, Copy)]
pub struct NullSpaceParams {
    /// Relative rank tolerance (see the table in the module docs for what each
    /// method compares with it).
    pub rank_tol: f64,
    /// Whether to compute `S` (eq 3.3) where the method defines it.
    pub compute_s: bool,
}

impl Default for NullSpaceParams {
    fn default() -> Self {
        Self {
            rank_tol: 1e-10,
            compute_s: true,
        }
    }
}

/// A null-space basis.
#[derive(Debug, Clone, PartialEq)]
pub struct NullSpace {
    /// `P`, `n × (n − rank)`, with `Φ_q P = 0`.
    pub p: DMatrix<f64>,
    /// Numerical rank of `Φ_q`.
    pub rank: usize,
    /// `S` of eq 3.3 (`n × m`) where defined and requested.
    pub s: Option<DMatrix<f64>>,
    /// Whether `PᵀP = I`.
    pub orthonormal: bool,
    /// The relative tolerance the rank was counted with.
    pub rank_tol: f64,
    /// The method that produced it.
    pub method: NullSpaceMethod,
}

/// A null-space method behind a common interface; stateful methods (coordinate
/// partitioning keeps its partition) implement it on `&mut self`.
pub trait NullSpaceBasis {
    /// The method.
    fn method(&self) -> NullSpaceMethod;
    /// Computes `P`, the rank and `S` for the current `Φ_q`.
    fn compute(&mut self, phi_q: &DMatrix<f64>) -> Result<NullSpace, LinalgError>;
}

/// Any method selected by enum, with its parameters (and the mass matrix for
/// Wang–Huston, the coordinate partition for coordinate partitioning).
#[derive(Debug, Clone)]
pub struct NullSpaceSolver {
    method: NullSpaceMethod,
    params: NullSpaceParams,
    mass: Option<DMatrix<f64>>,
    partitioning: CoordinatePartitioning,
}

impl NullSpaceSolver {
    /// A solver for `method`.
    pub fn new(method: NullSpaceMethod, params: NullSpaceParams) -> Self {
        Self {
            method,
            params,
            mass: None,
            partitioning: CoordinatePartitioning::new(params),
        }
    }

    /// Sets the mass matrix used by Wang–Huston.
    pub fn set_mass(&mut self, mass: DMatrix<f64>) {
        self.mass = Some(mass);
    }

    /// The coordinate-partitioning state (partition, re-selections).
    pub fn partitioning(&self) -> &CoordinatePartitioning {
        &self.partitioning
    }
}

impl NullSpaceBasis for NullSpaceSolver {
    fn method(&self) -> NullSpaceMethod {
        self.method
    }

    fn compute(&mut self, phi_q: &DMatrix<f64>) -> Result<NullSpace, LinalgError> {
        match self.method {
            NullSpaceMethod::CoordinatePartitioning => self.partitioning.compute(phi_q),
            NullSpaceMethod::WangHuston => match &self.mass {
                Some(mass) => wang_huston::compute(phi_q, mass, &self.params),
                None => Err(LinalgError::MissingMass("wang-huston")),
            },
            method => null_space(method, phi_q, None, &self.params),
        }
    }
}

/// Computes a null-space basis with `method` (stateless; coordinate
/// partitioning selects its partition afresh).
pub fn null_space(
    method: NullSpaceMethod,
    phi_q: &DMatrix<f64>,
    mass: Option<&DMatrix<f64>>,
    params: &NullSpaceParams,
) -> Result<NullSpace, LinalgError> {
    match method {
        NullSpaceMethod::ZeroEigen => zero_eigen::compute(phi_q, params),
        NullSpaceMethod::Schur => schur::compute(phi_q, params),
        NullSpaceMethod::PutdHouseholder => putd_householder::compute(phi_q, params),
        NullSpaceMethod::PutdGauss => putd_gauss::compute(phi_q, params),
        NullSpaceMethod::Svd => svd::compute(phi_q, params),
        NullSpaceMethod::Qr => qr::compute(phi_q, params),
        NullSpaceMethod::CoordinatePartitioning => coordinate_partitioning::compute(phi_q, params),
        NullSpaceMethod::WangHuston => match mass {
            Some(mass) => wang_huston::compute(phi_q, mass, params),
            None => Err(LinalgError::MissingMass("wang-huston")),
        },
    }
}

/// [`null_space`] into a preallocated [`NullSpaceWorkspace`] sized for the
/// shape of `phi_q`: allocation-free for every method (coordinate partitioning
/// selects its partition afresh; keep a [`CoordinatePartitioning`] and call its
/// `compute_into` to reuse the partition).
pub fn null_space_into(
    method: NullSpaceMethod,
    phi_q: &DMatrix<f64>,
    mass: Option<&DMatrix<f64>>,
    params: &NullSpaceParams,
    ws: &mut NullSpaceWorkspace,
) -> Result<(), LinalgError> {
    match method {
        NullSpaceMethod::ZeroEigen => zero_eigen::compute_into(phi_q, params, ws),
        NullSpaceMethod::Schur => schur::compute_into(phi_q, params, ws),
        NullSpaceMethod::PutdHouseholder => putd_householder::compute_into(phi_q, params, ws),
        NullSpaceMethod::PutdGauss => putd_gauss::compute_into(phi_q, params, ws),
        NullSpaceMethod::Svd => svd::compute_into(phi_q, params, ws),
        NullSpaceMethod::Qr => qr::compute_into(phi_q, params, ws),
        NullSpaceMethod::CoordinatePartitioning => {
            coordinate_partitioning::compute_into(phi_q, params, ws)
        }
        NullSpaceMethod::WangHuston => match mass {
            Some(mass) => wang_huston::compute_into(phi_q, mass, params, ws),
            None => Err(LinalgError::MissingMass("wang-huston")),
        },
    }
}

/// Rejects non-finite Jacobians and bad tolerances.
pub(crate) fn validate(phi_q: &DMatrix<f64>, params: &NullSpaceParams) -> Result<(), LinalgError> {
    check_finite("null-space jacobian", phi_q.as_slice())?;
    if !(params.rank_tol.is_finite() && params.rank_tol >= 0.0) {
        return Err(LinalgError::NonFinite {
            what: "null-space rank_tol",
            index: 0,
            value: params.rank_tol,
        });
    }
    Ok(())
}
