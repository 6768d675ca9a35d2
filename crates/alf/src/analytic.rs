//! Small descriptor systems in natural coordinates with closed-form equations,
//! used to test the front-ends independently of `mbs-constraints` and as the
//! paper's own models.

use nalgebra::{DMatrix, DVector};

use crate::descriptor::{Descriptor, Level};
use crate::error::AlfError;

/// The Cartesian pendulum of Brenan–Campbell–Petzold used in Bayo–Ledesma's
/// second example (Table 2): a point of mass m on a massless rod of length L in the
/// plane, coordinates q = [x, y], gravity g along −y,
/// Φ = x² + y² − L², Φ_q = 2[x, y], γ = −2(ẋ² + ẏ²).
#[derive(Clone, Debug)]
pub struct CartesianPendulum {
    /// Mass.
    pub mass: f64,
    /// Rod length.
    pub length: f64,
    /// Gravity.
    pub g: f64,
    m: DMatrix<f64>,
    q_force: DVector<f64>,
    phi: DVector<f64>,
    phi_q: DMatrix<f64>,
    phi_t: DVector<f64>,
    gamma: DVector<f64>,
}

impl CartesianPendulum {
    /// The pendulum of Table 2: m = L = g = 1.
    pub fn new(mass: f64, length: f64, g: f64) -> Self {
        Self {
            mass,
            length,
            g,
            m: DMatrix::identity(2, 2) * mass,
            q_force: DVector::from_vec(vec![0.0, -mass * g]),
            phi: DVector::zeros(1),
            phi_q: DMatrix::zeros(1, 2),
            phi_t: DVector::zeros(1),
            gamma: DVector::zeros(1),
        }
    }

    /// Total energy ½m|q̇|² + m g y.
    pub fn energy(&self, q: &[f64], v: &[f64]) -> f64 {
        0.5 * self.mass * (v[0] * v[0] + v[1] * v[1]) + self.mass * self.g * q[1]
    }
}

impl Descriptor for CartesianPendulum {
    fn n(&self) -> usize {
        2
    }
    fn m(&self) -> usize {
        1
    }
    fn m_holonomic(&self) -> usize {
        1
    }
    fn evaluate(&mut self, _t: f64, q: &[f64], v: &[f64], _level: Level) -> Result<(), AlfError> {
        self.phi[0] = q[0] * q[0] + q[1] * q[1] - self.length * self.length;
        self.phi_q[(0, 0)] = 2.0 * q[0];
        self.phi_q[(0, 1)] = 2.0 * q[1];
        self.gamma[0] = -2.0 * (v[0] * v[0] + v[1] * v[1]);
        Ok(())
    }
    fn mass(&self) -> &DMatrix<f64> {
        &self.m
    }
    fn forces(&self) -> &DVector<f64> {
        &self.q_force
    }
    fn phi(&self) -> &DVector<f64> {
        &self.phi
    }
    fn phi_q(&self) -> &DMatrix<f64> {
        &self.phi_q
    }
    fn phi_t(&self) -> &DVector<f64> {
        &self.phi_t
    }
    fn gamma(&self) -> &DVector<f64> {
        &self.gamma
    }
    fn row_label(&self, _row: usize) -> String {
        "rod length".into()
    }
}
