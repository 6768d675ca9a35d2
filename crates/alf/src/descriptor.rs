//! The descriptor-form equations a front-end of this crate works on (Bayo–Ledesma
//! eqs 1–4, NOTATION.md signs):
//!
//! ```text
//!   M(q) q̈ + Φ_qᵀ λ = Q(q, q̇, t),     Φ(q, t) = 0,
//!   Φ̇ = Φ_q q̇ + Φ_t = 0,              Φ_q q̈ = γ.
//! ```
//!
//! Velocities are q̇ itself (the [ṙ, ṗ] layout for Euler parameters, or any
//! coordinates with q̇ = v), so the positions and velocities have the same length n.
//! Rows 0..m_h of Φ_q are holonomic (Φ is their residual); rows m_h..m are
//! nonholonomic (velocity level only: Φ_q q̇ + Φ_t = 0).

use nalgebra::{DMatrix, DVector};

use crate::error::AlfError;

/// What [`Descriptor::evaluate`] must compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Φ and Φ_q only (position projection, Newton on positions).
    Positions,
    /// Φ, Φ_q and Φ_t (velocity projection).
    Velocities,
    /// Everything: M, Q, Φ, Φ_q, Φ_t, γ.
    Full,
}

/// A constrained mechanical system in descriptor form, evaluated into dense storage
/// owned by the implementor (no allocation per evaluation).
pub trait Descriptor {
    /// Number of coordinates n (= number of velocities).
    fn n(&self) -> usize;
    /// Number of constraint rows m (holonomic first).
    fn m(&self) -> usize;
    /// Number of holonomic rows m_h ≤ m.
    fn m_holonomic(&self) -> usize;
    /// Evaluates the quantities of `level` at (t, q, q̇).
    fn evaluate(&mut self, t: f64, q: &[f64], v: &[f64], level: Level) -> Result<(), AlfError>;
    /// The arrays filled by the last [`Descriptor::evaluate`].
    fn data(&self) -> &DescriptorData;
    /// Mass matrix M (n × n, symmetric positive semi-definite).
    fn mass(&self) -> &DMatrix<f64> {
        &self.data().mass
    }
    /// Generalised forces Q (applied and quadratic-velocity), length n.
    fn forces(&self) -> &DVector<f64> {
        &self.data().forces
    }
    /// Holonomic residual Φ, length m_h.
    fn phi(&self) -> &DVector<f64> {
        &self.data().phi
    }
    /// Jacobian Φ_q (m × n).
    fn phi_q(&self) -> &DMatrix<f64> {
        &self.data().phi_q
    }
    /// Φ_t (length m; for nonholonomic rows the b of B q̇ + b = 0).
    fn phi_t(&self) -> &DVector<f64> {
        &self.data().phi_t
    }
    /// γ of Φ_q q̈ = γ (length m).
    fn gamma(&self) -> &DVector<f64> {
        &self.data().gamma
    }
    /// A human-readable name of the constraint behind `row` (the joint), for errors.
    fn row_label(&self, row: usize) -> String {
        format!("constraint row {row}")
    }
    /// A human-readable name of coordinate `i` (body and component), for errors.
    fn coordinate_label(&self, i: usize) -> String {
        format!("coordinate {i}")
    }
    /// Post-step normalisation of positions that the coordinates need (e.g. nothing
    /// here; Euler parameters are kept unit by their normalization constraint).
    fn normalize(&self, _q: &mut [f64]) {}
}

/// Dense storage of the descriptor-form quantities at one state.
#[derive(Clone, Debug, PartialEq)]
pub struct DescriptorData {
    /// M (n × n).
    pub mass: DMatrix<f64>,
    /// Q (n).
    pub forces: DVector<f64>,
    /// Φ (m_h).
    pub phi: DVector<f64>,
    /// Φ_q (m × n).
    pub phi_q: DMatrix<f64>,
    /// Φ_t (m).
    pub phi_t: DVector<f64>,
    /// γ (m).
    pub gamma: DVector<f64>,
}

impl DescriptorData {
    /// Zeroed storage for n coordinates, m rows of which m_h holonomic.
    pub fn new(n: usize, m: usize, m_h: usize) -> Self {
        Self {
            mass: DMatrix::zeros(n, n),
            forces: DVector::zeros(n),
            phi: DVector::zeros(m_h),
            phi_q: DMatrix::zeros(m, n),
            phi_t: DVector::zeros(m),
            gamma: DVector::zeros(m),
        }
    }
}

/// Index and value of the largest |x_i|.
pub(crate) fn max_abs(x: &[f64]) -> (usize, f64) {
    x.iter().enumerate().fold(
        (0, 0.0),
        |(bi, bv), (i, v)| if v.abs() > bv { (i, v.abs()) } else { (bi, bv) },
    )
}

/// Checks that every entry of `x` is finite; otherwise names the first bad one.
pub(crate) fn check_finite(
    t: f64,
    quantity: &'static str,
    x: &[f64],
    label: impl Fn(usize) -> String,
) -> Result<(), AlfError> {
    match x.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(i) => Err(AlfError::NonFinite {
            t,
            quantity,
            location: label(i),
        }),
    }
}
