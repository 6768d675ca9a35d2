//! Synthetic chain- and loop-structured linear systems (mass blocks and joint
//! Jacobian blocks, no model) for the tests and benchmarks of `mbs-linalg`.
//!
//! `nb` rigid bodies with velocity layout `[ṙ, ω']` (6 per body, constant mass
//! matrix `diag(m I, J')`), connected in a chain by spherical joints at the link
//! ends; body 0 is attached to the ground, and a closed loop adds one more
//! spherical joint from the last body to the ground. A spherical joint between
//! points `a` of body j and `b` of body k has the velocity constraint
//! `ṙ_j + ω_j × a − ṙ_k − ω_k × b = 0`, i.e. blocks `[I, −ã]` and `[−I, b̃]`
//! (global angular velocities for simplicity; this module knows no mechanics
//! beyond producing realistic block structure and conditioning). Values are
//! perturbed by a fixed-seed generator, so every run builds the same system.

use nalgebra::{DMatrix, Matrix3, Vector3};

use mbs_linalg::LinalgError;
use mbs_linalg::SplitMix64;
use mbs_linalg::pcg::{ArrowheadOperator, JointBlocks};

/// A chain or closed loop of spatial bodies with spherical joints.
#[derive(Debug, Clone)]
pub struct ChainSystem {
    /// Per-body 6 × 6 mass blocks `diag(m I, J')`.
    pub masses: Vec<DMatrix<f64>>,
    /// Per joint: `(body, 3 × 6 block)`.
    pub joints: Vec<JointBlocks>,
}

fn skew(a: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -a.z, a.y, a.z, 0.0, -a.x, -a.y, a.x, 0.0)
}

fn block(sign: f64, a: &Vector3<f64>) -> DMatrix<f64> {
    let mut b = DMatrix::zeros(3, 6);
    let s = skew(a);
    for i in 0..3 {
        b[(i, i)] = sign;
        for j in 0..3 {
            b[(i, 3 + j)] = -sign * s[(i, j)];
        }
    }
    b
}

impl ChainSystem {
    /// An open chain of `nb` bodies hanging from the ground.
    pub fn chain(nb: usize, seed: u64) -> Self {
        Self::build(nb, false, seed, 0.3)
    }

    /// A chain or loop whose links deviate from the x axis by random slopes in
    /// `[−tilt, tilt]` (`tilt = 0`: a straight chain, the worst-conditioned Schur
    /// complement; [`Self::chain`] and [`Self::closed_loop`] use 0.3).
    pub fn with_tilt(nb: usize, closed: bool, seed: u64, tilt: f64) -> Self {
        Self::build(nb, closed, seed, tilt)
    }

    /// A closed loop: the chain with its last body also jointed to the ground.
    pub fn closed_loop(nb: usize, seed: u64) -> Self {
        Self::build(nb, true, seed, 0.3)
    }

    fn build(nb: usize, closed: bool, seed: u64, tilt: f64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut masses = Vec::with_capacity(nb);
        let mut half = Vec::with_capacity(nb);
        for _ in 0..nb {
            let m = rng.uniform(0.5, 2.0);
            let l = rng.uniform(0.5, 1.5);
            let mut mm = DMatrix::zeros(6, 6);
            for i in 0..3 {
                mm[(i, i)] = m;
            }
            // slender link inertia about the centre, slightly perturbed
            let jt = m * l * l / 12.0;
            let j = Matrix3::new(
                0.05 * jt * rng.uniform(0.8, 1.2),
                0.0,
                0.0,
                0.0,
                jt * rng.uniform(0.9, 1.1),
                0.0,
                0.0,
                0.0,
                jt * rng.uniform(0.9, 1.1),
            );
            mm.view_mut((3, 3), (3, 3)).copy_from(&j);
            masses.push(mm);
            // half-link vector, direction mostly along x with a random tilt
            let dir = Vector3::new(
                1.0,
                tilt * rng.uniform(-1.0, 1.0),
                tilt * rng.uniform(-1.0, 1.0),
            )
            .normalize();
            half.push(dir * (0.5 * l));
        }
        let mut joints = Vec::with_capacity(nb + 1);
        if nb > 0 {
            joints.push(vec![(0, block(1.0, &(-half[0])))]);
        }
        for k in 1..nb {
            joints.push(vec![
                (k - 1, block(1.0, &half[k - 1])),
                (k, block(-1.0, &(-half[k]))),
            ]);
        }
        if closed && nb > 0 {
            joints.push(vec![(nb - 1, block(1.0, &half[nb - 1]))]);
        }
        Self { masses, joints }
    }

    /// Number of coordinates `n = 6 nb`.
    pub fn n(&self) -> usize {
        6 * self.masses.len()
    }

    /// Number of constraint rows `m = 3 nj`.
    pub fn m(&self) -> usize {
        3 * self.joints.len()
    }

    /// The arrowhead operator `ε I + ϱ² B M⁻¹ Bᵀ`.
    pub fn arrowhead(&self, epsilon: f64, rho: f64) -> Result<ArrowheadOperator, LinalgError> {
        ArrowheadOperator::new(&self.masses, &self.joints, epsilon, rho)
    }

    /// Dense block-diagonal `M`.
    pub fn dense_mass(&self) -> DMatrix<f64> {
        let n = self.n();
        let mut m = DMatrix::zeros(n, n);
        for (j, mj) in self.masses.iter().enumerate() {
            m.view_mut((6 * j, 6 * j), (6, 6)).copy_from(mj);
        }
        m
    }

    /// Dense `Φ_q` (`m × n`).
    pub fn dense_jacobian(&self) -> DMatrix<f64> {
        let mut b = DMatrix::zeros(self.m(), self.n());
        for (i, blocks) in self.joints.iter().enumerate() {
            for (j, blk) in blocks {
                b.view_mut((3 * i, 6 * j), (3, 6)).copy_from(blk);
            }
        }
        b
    }

    /// `M` as (row, col) entries of its lower triangles, and the values.
    pub fn mass_triplets(&self) -> (Vec<(usize, usize)>, Vec<f64>) {
        let mut e = Vec::new();
        let mut v = Vec::new();
        for (j, mj) in self.masses.iter().enumerate() {
            for c in 0..6 {
                for r in c..6 {
                    e.push((6 * j + r, 6 * j + c));
                    v.push(mj[(r, c)]);
                }
            }
        }
        (e, v)
    }

    /// `Φ_q` as (row, col) entries and values.
    pub fn jacobian_triplets(&self) -> (Vec<(usize, usize)>, Vec<f64>) {
        let mut e = Vec::new();
        let mut v = Vec::new();
        for (i, blocks) in self.joints.iter().enumerate() {
            for (j, blk) in blocks {
                for c in 0..6 {
                    for r in 0..3 {
                        e.push((3 * i + r, 6 * j + c));
                        v.push(blk[(r, c)]);
                    }
                }
            }
        }
        (e, v)
    }

    /// Lower-triangle entries and values of `M + Φ_qᵀ α Φ_q` (scalar `α`),
    /// assembled body block by body block: one entry per stored value.
    pub fn augmented_triplets(&self, alpha: f64) -> (Vec<(usize, usize)>, Vec<f64>) {
        let (mut e, mut v) = self.mass_triplets();
        for blocks in &self.joints {
            for (a, ba) in blocks {
                for (b, bb) in blocks {
                    // block (a, b) = α B_aᵀ B_b, lower part only
                    if a < b {
                        continue;
                    }
                    let blk = ba.transpose() * bb * alpha;
                    for c in 0..6 {
                        for r in 0..6 {
                            let (gr, gc) = (6 * a + r, 6 * b + c);
                            if gr >= gc {
                                e.push((gr, gc));
                                v.push(blk[(r, c)]);
                            }
                        }
                    }
                }
            }
        }
        (e, v)
    }
}
