//! Small descriptor systems in natural coordinates with closed-form equations,
//! used to test the front-ends independently of `mbs-constraints` and as the
//! paper's own models.

use nalgebra::{DMatrix, DVector};

use crate::descriptor::{Descriptor, DescriptorData, Level};
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
    data: DescriptorData,
}

impl CartesianPendulum {
    /// The pendulum of Table 2: m = L = g = 1.
    pub fn new(mass: f64, length: f64, g: f64) -> Self {
        let mut data = DescriptorData::new(2, 1, 1);
        data.mass = DMatrix::identity(2, 2) * mass;
        data.forces = DVector::from_vec(vec![0.0, -mass * g]);
        Self {
            mass,
            length,
            g,
            data,
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
        self.data.phi[0] = q[0] * q[0] + q[1] * q[1] - self.length * self.length;
        self.data.phi_q[(0, 0)] = 2.0 * q[0];
        self.data.phi_q[(0, 1)] = 2.0 * q[1];
        self.data.gamma[0] = -2.0 * (v[0] * v[0] + v[1] * v[1]);
        Ok(())
    }
    fn data(&self) -> &DescriptorData {
        &self.data
    }
    fn row_label(&self, _row: usize) -> String {
        "rod length".into()
    }
}

/// The double pendulum of Bayo–Ledesma's first example (Table 1) in the paper's own
/// natural coordinates: two uniform bars of mass m and length L, the first pinned at
/// the origin, q = [x₁, y₁, x₂, y₂] the two moving joint points, gravity g along −y.
/// A uniform bar between points A and B has the constant mass matrix
/// (m/6)[[2I, I], [I, 2I]] (García de Jalón & Bayo), so
///
/// ```text
///   M = m/6 [[4I, I], [I, 2I]],   Q = [0, −m g, 0, −m g/2],
///   Φ = [x₁² + y₁² − L²,  (x₂ − x₁)² + (y₂ − y₁)² − L²],
///   γ = −2[ẋ₁² + ẏ₁²,  (ẋ₂ − ẋ₁)² + (ẏ₂ − ẏ₁)²].
/// ```
#[derive(Clone, Debug)]
pub struct NaturalDoublePendulum {
    /// Mass of each bar.
    pub mass: f64,
    /// Length of each bar.
    pub length: f64,
    /// Gravity.
    pub g: f64,
    data: DescriptorData,
}

impl NaturalDoublePendulum {
    /// Bars of mass `mass` and length `length` under gravity `g`.
    pub fn new(mass: f64, length: f64, g: f64) -> Self {
        let k = mass / 6.0;
        let mut m = DMatrix::zeros(4, 4);
        for d in 0..2 {
            m[(d, d)] = 4.0 * k;
            m[(d + 2, d + 2)] = 2.0 * k;
            m[(d, d + 2)] = k;
            m[(d + 2, d)] = k;
        }
        let mut data = DescriptorData::new(4, 2, 2);
        data.mass = m;
        data.forces = DVector::from_vec(vec![0.0, -mass * g, 0.0, -0.5 * mass * g]);
        Self {
            mass,
            length,
            g,
            data,
        }
    }

    /// The paper's initial state: horizontal, at rest.
    pub fn initial(&self) -> ([f64; 4], [f64; 4]) {
        ([self.length, 0.0, 2.0 * self.length, 0.0], [0.0; 4])
    }

    /// Kinetic energy ½q̇ᵀMq̇.
    pub fn kinetic_energy(&self, v: &[f64]) -> f64 {
        let v = DVector::from_column_slice(v);
        0.5 * v.dot(&(&self.data.mass * &v))
    }

    /// Total energy: kinetic plus m g (y₁/2 + (y₁ + y₂)/2).
    pub fn energy(&self, q: &[f64], v: &[f64]) -> f64 {
        self.kinetic_energy(v) + self.mass * self.g * (q[1] + 0.5 * q[3])
    }
}

impl Descriptor for NaturalDoublePendulum {
    fn n(&self) -> usize {
        4
    }
    fn m(&self) -> usize {
        2
    }
    fn m_holonomic(&self) -> usize {
        2
    }
    fn evaluate(&mut self, _t: f64, q: &[f64], v: &[f64], _level: Level) -> Result<(), AlfError> {
        let (dx, dy) = (q[2] - q[0], q[3] - q[1]);
        let (dvx, dvy) = (v[2] - v[0], v[3] - v[1]);
        let l2 = self.length * self.length;
        self.data.phi[0] = q[0] * q[0] + q[1] * q[1] - l2;
        self.data.phi[1] = dx * dx + dy * dy - l2;
        self.data.phi_q.fill(0.0);
        self.data.phi_q[(0, 0)] = 2.0 * q[0];
        self.data.phi_q[(0, 1)] = 2.0 * q[1];
        self.data.phi_q[(1, 0)] = -2.0 * dx;
        self.data.phi_q[(1, 1)] = -2.0 * dy;
        self.data.phi_q[(1, 2)] = 2.0 * dx;
        self.data.phi_q[(1, 3)] = 2.0 * dy;
        self.data.gamma[0] = -2.0 * (v[0] * v[0] + v[1] * v[1]);
        self.data.gamma[1] = -2.0 * (dvx * dvx + dvy * dvy);
        Ok(())
    }
    fn data(&self) -> &DescriptorData {
        &self.data
    }
    fn row_label(&self, row: usize) -> String {
        format!("bar {} length", row + 1)
    }
}
