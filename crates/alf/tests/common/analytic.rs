//! Small descriptor systems in natural coordinates with closed-form equations,
//! used to test the front-ends independently of `mbs-constraints` and as the
//! paper's own models.

use nalgebra::{DMatrix, DVector};

use mbs_alf::{AlfError, Descriptor, DescriptorData, Level};

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

/// The same double pendulum in minimal coordinates (absolute bar angles θ₁, θ₂ from
/// the horizontal, ω = θ̇), integrated with the implicit midpoint rule: the energy
/// error the midpoint rule makes on this motion when the constraints hold exactly.
/// Bayo–Ledesma's Table 1 can be no better than this with the same step, so it is the
/// floor against which the projected ALF-INDEX1 runs are measured.
///
/// With T = ½mL²(4/3 ω₁² + 1/3 ω₂² + cos(θ₁−θ₂) ω₁ω₂) and
/// V = m g L (3/2 sin θ₁ + 1/2 sin θ₂), Lagrange's equations give
///
/// ```text
///   [[4/3, c/2], [c/2, 1/3]] θ̈ = −[ s ω₂²/2 + (3/2)(g/L) cos θ₁,  −s ω₁²/2 + (1/2)(g/L) cos θ₂ ],
/// ```
/// c = cos(θ₁−θ₂), s = sin(θ₁−θ₂).
#[derive(Clone, Copy, Debug)]
pub struct MinimalDoublePendulum {
    /// Mass of each bar.
    pub mass: f64,
    /// Length of each bar.
    pub length: f64,
    /// Gravity.
    pub g: f64,
}

impl MinimalDoublePendulum {
    /// ẏ for y = [θ₁, θ₂, ω₁, ω₂].
    pub fn rhs(&self, y: &[f64; 4]) -> [f64; 4] {
        let [t1, t2, w1, w2] = *y;
        let (s, c) = (t1 - t2).sin_cos();
        let k = self.g / self.length;
        let (m11, m12, m22) = (4.0 / 3.0, 0.5 * c, 1.0 / 3.0);
        let r1 = -(0.5 * s * w2 * w2 + 1.5 * k * t1.cos());
        let r2 = -(-0.5 * s * w1 * w1 + 0.5 * k * t2.cos());
        let det = m11 * m22 - m12 * m12; // ≥ 4/9 − 1/4 > 0
        [
            w1,
            w2,
            (m22 * r1 - m12 * r2) / det,
            (m11 * r2 - m12 * r1) / det,
        ]
    }

    /// Kinetic and total energy at y.
    pub fn energy(&self, y: &[f64; 4]) -> (f64, f64) {
        let [t1, t2, w1, w2] = *y;
        let ml2 = self.mass * self.length * self.length;
        let t = 0.5 * ml2 * (4.0 / 3.0 * w1 * w1 + w2 * w2 / 3.0 + (t1 - t2).cos() * w1 * w2);
        let v = self.mass * self.g * self.length * (1.5 * t1.sin() + 0.5 * t2.sin());
        (t, t + v)
    }

    /// Max |E(t) − E(0)| over max T of the implicit-midpoint solution from the
    /// horizontal rest position with step `h` up to `t_end` (fixed-point iterations
    /// to round-off at each step).
    pub fn midpoint_energy_error(&self, h: f64, t_end: f64) -> f64 {
        let mut y = [0.0f64; 4];
        let e0 = self.energy(&y).1;
        let (mut max_de, mut max_t) = (0.0f64, 0.0f64);
        let steps = (t_end / h).round() as usize;
        for _ in 0..steps {
            let mut z = y;
            for _ in 0..100 {
                let mid: [f64; 4] = std::array::from_fn(|i| 0.5 * (y[i] + z[i]));
                let f = self.rhs(&mid);
                let next: [f64; 4] = std::array::from_fn(|i| y[i] + h * f[i]);
                let change = (0..4).fold(0.0f64, |a, i| a.max((next[i] - z[i]).abs()));
                z = next;
                if change <= 1e-15 * (1.0 + z.iter().fold(0.0f64, |a, x| a.max(x.abs()))) {
                    break;
                }
            }
            y = z;
            let (t, e) = self.energy(&y);
            max_de = max_de.max((e - e0).abs());
            max_t = max_t.max(t);
        }
        max_de / max_t
    }
}
