//! Kinematic expressions with their first and second time derivatives, the small algebra
//! every joint, driver and primitive condition is composed from.
//!
//! A [`Kin<R>`] is an R-vector expression x(q, t) of the poses of the two bodies i, j
//! of a constraint, carried with
//! - `ji`, `jj`: ∂ẋ/∂vᵢ, ∂ẋ/∂vⱼ, the Jacobian blocks with respect to the 6-vectors
//!   vₖ = [ṙₖ; ω'ₖ] (thesis eq 4.2.3: B is read off the time derivative);
//! - `vt`: ∂x/∂t, so that ẋ = jᵢ vᵢ + jⱼ vⱼ + vt;
//! - `vel`: ẋ along the current motion;
//! - `acc`: ẍ along the current motion with zero accelerations r̈ = 0, ω̇' = 0 (the
//!   "bias" acceleration, Ḃ u̇ + 2Φ_ut u̇ + Φ_tt of thesis eq 3.4.21–3.4.23).
//!
//! Then Φ_q q̈ = γ with **γ = −acc** (NOTATION.md). The product and chain rules hold for
//! (value, vel, acc) along a trajectory, so sums, dot products and smooth functions of
//! kinematic expressions are again kinematic expressions; this is how the primitives
//! are written once and the joints reuse them.
//!
//! γ is the same in the [ṙ, ṗ] layout: ω̇' = 2 G p̈ + 2 Ġ ṗ and Ġ ṗ = G(ṗ) ṗ = 0, so
//! ω̇' = 0 ⇔ the component of p̈ that matters (G p̈) vanishes, and the bias acceleration
//! computed at ω̇' = 0 is the one at p̈ = 0 (for a unit p with pᵀṗ = 0).

use nalgebra::{SMatrix, SVector, Vector3};

/// Which of the two bodies of a constraint an expression's Jacobian belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Body i (of marker i).
    I,
    /// Body j (of marker j).
    J,
}

/// A kinematic expression of R rows; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kin<const R: usize> {
    /// Value x.
    pub value: SVector<f64, R>,
    /// ∂ẋ/∂[ṙᵢ; ω'ᵢ].
    pub ji: SMatrix<f64, R, 6>,
    /// ∂ẋ/∂[ṙⱼ; ω'ⱼ].
    pub jj: SMatrix<f64, R, 6>,
    /// ∂x/∂t.
    pub vt: SVector<f64, R>,
    /// ẋ.
    pub vel: SVector<f64, R>,
    /// ẍ at zero accelerations.
    pub acc: SVector<f64, R>,
}

/// A vector expression (points, axes, d = Pⱼ − Pᵢ).
pub type Kin3 = Kin<3>;
/// A scalar expression (one constraint row).
pub type Kin1 = Kin<1>;

impl<const R: usize> Kin<R> {
    /// The zero expression.
    pub fn zeros() -> Self {
        Self {
            value: SVector::zeros(),
            ji: SMatrix::zeros(),
            jj: SMatrix::zeros(),
            vt: SVector::zeros(),
            vel: SVector::zeros(),
            acc: SVector::zeros(),
        }
    }

    /// A constant (no dependence on q or t).
    pub fn constant(value: SVector<f64, R>) -> Self {
        Self {
            value,
            ..Self::zeros()
        }
    }

    /// self − other.
    pub fn sub(&self, o: &Self) -> Self {
        Self {
            value: self.value - o.value,
            ji: self.ji - o.ji,
            jj: self.jj - o.jj,
            vt: self.vt - o.vt,
            vel: self.vel - o.vel,
            acc: self.acc - o.acc,
        }
    }

    /// self + other.
    pub fn add(&self, o: &Self) -> Self {
        Self {
            value: self.value + o.value,
            ji: self.ji + o.ji,
            jj: self.jj + o.jj,
            vt: self.vt + o.vt,
            vel: self.vel + o.vel,
            acc: self.acc + o.acc,
        }
    }

    /// c · self for a constant c.
    pub fn scale(&self, c: f64) -> Self {
        Self {
            value: self.value * c,
            ji: self.ji * c,
            jj: self.jj * c,
            vt: self.vt * c,
            vel: self.vel * c,
            acc: self.acc * c,
        }
    }

    /// The Jacobian block of one slot.
    pub fn jac(&self, slot: Slot) -> &SMatrix<f64, R, 6> {
        match slot {
            Slot::I => &self.ji,
            Slot::J => &self.jj,
        }
    }

    /// Row k as a scalar expression.
    pub fn row(&self, k: usize) -> Kin1 {
        Kin1 {
            value: SVector::from([self.value[k]]),
            ji: self.ji.fixed_rows::<1>(k).into_owned(),
            jj: self.jj.fixed_rows::<1>(k).into_owned(),
            vt: SVector::from([self.vt[k]]),
            vel: SVector::from([self.vel[k]]),
            acc: SVector::from([self.acc[k]]),
        }
    }
}

impl Kin3 {
    /// A vector fixed in a body with global value `x`, moving with global angular velocity
    /// ω, whose Jacobian with respect to ω' is `jac_omega` (−A x̃' for an axis x = A x',
    /// −A s̃' for a marker offset s = A s'); `jac_rdot` is I for points, 0 for axes.
    ///
    /// ẋ = (ṙ) + ω × x,   ẍ (ω̇' = 0, r̈ = 0) = ω × (ω × x)  (thesis eq 4.2.11).
    pub(crate) fn body_fixed(
        slot: Slot,
        value: Vector3<f64>,
        offset: Vector3<f64>,
        rdot: Vector3<f64>,
        omega: Vector3<f64>,
        jac_omega: SMatrix<f64, 3, 3>,
        is_point: bool,
    ) -> Self {
        let mut jac = SMatrix::<f64, 3, 6>::zeros();
        if is_point {
            jac.fixed_view_mut::<3, 3>(0, 0).fill_with_identity();
        }
        jac.fixed_view_mut::<3, 3>(0, 3).copy_from(&jac_omega);
        let w_x = omega.cross(&offset);
        let mut k = Self::constant(value);
        k.vel = if is_point { rdot + w_x } else { w_x };
        k.acc = omega.cross(&w_x);
        match slot {
            Slot::I => k.ji = jac,
            Slot::J => k.jj = jac,
        }
        k
    }

    /// The scalar product a · b (product rule: (a·b)¨ = ä·b + 2 ȧ·ḃ + a·b̈).
    pub fn dot(&self, b: &Kin3) -> Kin1 {
        let a = self;
        Kin1 {
            value: SVector::from([a.value.dot(&b.value)]),
            ji: b.value.transpose() * a.ji + a.value.transpose() * b.ji,
            jj: b.value.transpose() * a.jj + a.value.transpose() * b.jj,
            vt: SVector::from([a.vt.dot(&b.value) + a.value.dot(&b.vt)]),
            vel: SVector::from([a.vel.dot(&b.value) + a.value.dot(&b.vel)]),
            acc: SVector::from([a.acc.dot(&b.value)
                + 2.0 * a.vel.dot(&b.vel)
                + a.value.dot(&b.acc)]),
        }
    }
}

impl Kin1 {
    /// The scalar value.
    #[inline]
    pub fn v(&self) -> f64 {
        self.value[0]
    }

    /// A function of time only, from [f, ḟ, f̈].
    pub fn time(f: [f64; 3]) -> Self {
        Self {
            value: SVector::from([f[0]]),
            vt: SVector::from([f[1]]),
            vel: SVector::from([f[1]]),
            acc: SVector::from([f[2]]),
            ..Self::zeros()
        }
    }

    /// The product a b of two scalars.
    pub fn mul(&self, b: &Kin1) -> Kin1 {
        let (av, bv) = (self.v(), b.v());
        Kin1 {
            value: SVector::from([av * bv]),
            ji: self.ji * bv + b.ji * av,
            jj: self.jj * bv + b.jj * av,
            vt: SVector::from([self.vt[0] * bv + av * b.vt[0]]),
            vel: SVector::from([self.vel[0] * bv + av * b.vel[0]]),
            acc: SVector::from([self.acc[0] * bv + 2.0 * self.vel[0] * b.vel[0] + av * b.acc[0]]),
        }
    }

    /// g(x) for a smooth g given as [g(x), g'(x), g''(x)] (chain rule:
    /// (g∘x)˙ = g' ẋ, (g∘x)¨ = g'' ẋ² + g' ẍ).
    pub fn chain(&self, g: [f64; 3]) -> Kin1 {
        let xd = self.vel[0];
        Kin1 {
            value: SVector::from([g[0]]),
            ji: self.ji * g[1],
            jj: self.jj * g[1],
            vt: self.vt * g[1],
            vel: SVector::from([g[1] * xd]),
            acc: SVector::from([g[2] * xd * xd + g[1] * self.acc[0]]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Product and chain rules against closed forms of functions of time:
    /// x(t) = sin t, y(t) = t², g(x) = exp(x).
    #[test]
    fn product_and_chain_rules() {
        let t: f64 = 0.7;
        let x = Kin1::time([t.sin(), t.cos(), -t.sin()]);
        let y = Kin1::time([t * t, 2.0 * t, 2.0]);
        let p = x.mul(&y);
        // (x y)¨ = ẍ y + 2 ẋ ẏ + x ÿ
        let expect = -t.sin() * t * t + 4.0 * t * t.cos() + 2.0 * t.sin();
        assert!((p.acc[0] - expect).abs() < 1e-14);
        assert!((p.vt[0] - (t.cos() * t * t + 2.0 * t * t.sin())).abs() < 1e-14);
        let e = x.v().exp();
        let g = x.chain([e, e, e]);
        // (exp∘sin)¨ = exp(sin t)(cos² t − sin t)
        assert!((g.acc[0] - e * (t.cos().powi(2) - t.sin())).abs() < 1e-14);
        assert!((g.vel[0] - e * t.cos()).abs() < 1e-14);
    }
}
