//! The in-plane constraint equations of [`PlanarConstraint`]s in the coordinates
//! q = (x, y, θ) per body (Nikravesh, *Computer-Aided Analysis of Mechanical Systems*,
//! 1988, ch. 6–7; Haug, *Computer Aided Kinematics and Dynamics of Mechanical Systems*,
//! 1989, ch. 3): Φ, Φ_q, Φ_t and γ of Φ_q q̈ = γ = −(Φ_q q̇)_q q̇ − 2Φ_qt q̇ − Φ_tt.
//!
//! A point P = r + A(θ) s′ of a body has ∂P/∂(x, y, θ) = [I, k × As′] and
//! P̈ = r̈ + (k × As′) θ̈ − As′ θ̇² (Nikravesh eq 6.12; Haug eq 3.1.7 with B s′ = k × As′),
//! so the quadratic-velocity term −As′θ̇² of every point enters γ with the sign
//! opposite to its appearance in Φ̈.

use nalgebra::{DMatrix, Vector2};

use crate::planar_model::{Direction, PlanarConstraint, Point};

/// k × v: v turned by +90° in the plane.
pub(crate) fn perp(v: &Vector2<f64>) -> Vector2<f64> {
    Vector2::new(-v.y, v.x)
}

/// A(θ) v.
fn rotate(theta: f64, v: &Vector2<f64>) -> Vector2<f64> {
    let (s, c) = theta.sin_cos();
    Vector2::new(c * v.x - s * v.y, s * v.x + c * v.y)
}

/// Pose and velocity (r, θ, ṙ, θ̇) of a body, ground fixed at the origin.
fn pose(q: &[f64], v: &[f64], body: Option<usize>) -> (Vector2<f64>, f64, Vector2<f64>, f64) {
    match body {
        None => (Vector2::zeros(), 0.0, Vector2::zeros(), 0.0),
        Some(b) => (
            Vector2::new(q[3 * b], q[3 * b + 1]),
            q[3 * b + 2],
            Vector2::new(v[3 * b], v[3 * b + 1]),
            v[3 * b + 2],
        ),
    }
}

/// A point at (q, q̇): position P, velocity Ṗ, the arm As′ and θ̇ of its body.
struct PointState {
    body: Option<usize>,
    p: Vector2<f64>,
    pd: Vector2<f64>,
    arm: Vector2<f64>,
    w: f64,
}

impl PointState {
    fn new(q: &[f64], v: &[f64], pt: &Point) -> Self {
        let (r, th, rd, w) = pose(q, v, pt.body);
        let arm = rotate(th, &pt.s);
        Self {
            body: pt.body,
            p: r + arm,
            pd: rd + perp(&arm) * w,
            arm,
            w,
        }
    }
    /// Quadratic part of P̈: −As′θ̇².
    fn quad(&self) -> Vector2<f64> {
        -self.arm * self.w * self.w
    }
}

/// A direction at (q, q̇): global unit vector u, angle a and θ̇ of its body.
struct DirState {
    body: Option<usize>,
    u: Vector2<f64>,
    a: f64,
    w: f64,
}

impl DirState {
    fn new(q: &[f64], v: &[f64], d: &Direction) -> Self {
        let (_, th, _, w) = pose(q, v, d.body);
        let a = th + d.angle;
        Self {
            body: d.body,
            u: Vector2::new(a.cos(), a.sin()),
            a,
            w,
        }
    }
}

/// Adds c·∂P/∂q (row vector cᵀ[I, k × As′]) to row `row` of Φ_q.
fn add_point_jac(jac: &mut DMatrix<f64>, row: usize, c: &Vector2<f64>, pt: &PointState) {
    if let Some(b) = pt.body {
        jac[(row, 3 * b)] += c.x;
        jac[(row, 3 * b + 1)] += c.y;
        jac[(row, 3 * b + 2)] += c.dot(&perp(&pt.arm));
    }
}

/// Adds `value` to the θ column of a direction's body in row `row`.
fn add_angle_jac(jac: &mut DMatrix<f64>, row: usize, value: f64, body: Option<usize>) {
    if let Some(b) = body {
        jac[(row, 3 * b + 2)] += value;
    }
}

/// Writes rows `row..row + c.rows()` of Φ (if given), Φ_q (zeroed by the caller),
/// Φ_t and γ of `c` at (t, q, q̇).
pub(crate) fn evaluate(
    c: &PlanarConstraint,
    t: f64,
    q: &[f64],
    v: &[f64],
    row: usize,
    out: Rows<'_>,
) {
    let Rows {
        phi,
        jac,
        phi_t,
        gamma,
    } = out;
    match c {
        PlanarConstraint::Revolute { pi, pj } => {
            let (a, b) = (PointState::new(q, v, pi), PointState::new(q, v, pj));
            let d = a.p - b.p;
            let g = -(a.quad() - b.quad());
            for k in 0..2 {
                let mut e = Vector2::zeros();
                e[k] = 1.0;
                add_point_jac(jac, row + k, &e, &a);
                add_point_jac(jac, row + k, &-e, &b);
                phi[row + k] = d[k];
                phi_t[row + k] = 0.0;
                gamma[row + k] = g[k];
            }
        }
        PlanarConstraint::Prismatic { pi, pj, ui, uj } => {
            let (a, b) = (PointState::new(q, v, pi), PointState::new(q, v, pj));
            let (di, dj) = (DirState::new(q, v, ui), DirState::new(q, v, uj));
            // axes parallel: sin(aⱼ − aᵢ) = nᵢ·uⱼ
            let s = (dj.a - di.a).sin();
            let cos = (dj.a - di.a).cos();
            phi[row] = s;
            add_angle_jac(jac, row, -cos, di.body);
            add_angle_jac(jac, row, cos, dj.body);
            phi_t[row] = 0.0;
            gamma[row] = s * (dj.w - di.w).powi(2);
            // no sideways motion: nᵢ·d, d = Pⱼ − Pᵢ, ṅᵢ = −uᵢθ̇ᵢ, n̈ᵢ = −nᵢθ̇ᵢ² − uᵢθ̈ᵢ
            let n = perp(&di.u);
            let d = b.p - a.p;
            let dd = b.pd - a.pd;
            let r = row + 1;
            phi[r] = n.dot(&d);
            add_point_jac(jac, r, &n, &b);
            add_point_jac(jac, r, &-n, &a);
            add_angle_jac(jac, r, -di.u.dot(&d), di.body);
            phi_t[r] = 0.0;
            let quad = -n.dot(&d) * di.w * di.w - 2.0 * di.w * di.u.dot(&dd)
                + n.dot(&(b.quad() - a.quad()));
            gamma[r] = -quad;
        }
        PlanarConstraint::SinePath {
            pi,
            pj,
            xj,
            sigma,
            amplitude,
            wavenumber,
        } => {
            let (a, b) = (PointState::new(q, v, pi), PointState::new(q, v, pj));
            let dj = DirState::new(q, v, xj);
            let (e, n, w) = (dj.u, perp(&dj.u), dj.w);
            let d = a.p - b.p;
            let dd = a.pd - b.pd;
            let dq = a.quad() - b.quad();
            let (x, y) = (e.dot(&d), sigma * n.dot(&d));
            let (amp, k) = (*amplitude, *wavenumber);
            let (sk, ck) = (k * x).sin_cos();
            phi[row] = y - amp * sk;
            // ∂x̄ = eᵀ∂d + (n·d)∂θⱼ, ∂ȳ = σnᵀ∂d − σ(e·d)∂θⱼ (ė = nθ̇ⱼ, ṅ = −eθ̇ⱼ)
            let slope = amp * k * ck;
            let c = n * *sigma - e * slope;
            add_point_jac(jac, row, &c, &a);
            add_point_jac(jac, row, &-c, &b);
            add_angle_jac(jac, row, -sigma * e.dot(&d) - slope * n.dot(&d), dj.body);
            phi_t[row] = 0.0;
            let xd = w * n.dot(&d) + e.dot(&dd);
            let quad_x = -e.dot(&d) * w * w + 2.0 * w * n.dot(&dd) + e.dot(&dq);
            let quad_y = sigma * (-n.dot(&d) * w * w - 2.0 * w * e.dot(&dd) + n.dot(&dq));
            gamma[row] = -(quad_y - slope * quad_x + amp * k * k * sk * xd * xd);
        }
        PlanarConstraint::Angle { xi, xj, sigma, f } => {
            let (di, dj) = (DirState::new(q, v, xi), DirState::new(q, v, xj));
            let [fv, fd, fdd] = f.eval(t);
            let theta = sigma * (dj.a - di.a);
            let theta_d = sigma * (dj.w - di.w);
            let (s, cos) = (theta - fv).sin_cos();
            phi[row] = s;
            add_angle_jac(jac, row, sigma * cos, dj.body);
            add_angle_jac(jac, row, -sigma * cos, di.body);
            phi_t[row] = -cos * fd;
            gamma[row] = s * (theta_d - fd).powi(2) + cos * fdd;
        }
        PlanarConstraint::Translation { pi, pj, ui, f } => {
            let (a, b) = (PointState::new(q, v, pi), PointState::new(q, v, pj));
            let di = DirState::new(q, v, ui);
            let [fv, fd, fdd] = f.eval(t);
            let n = perp(&di.u);
            let d = b.p - a.p;
            let dd = b.pd - a.pd;
            phi[row] = di.u.dot(&d) - fv;
            add_point_jac(jac, row, &di.u, &b);
            add_point_jac(jac, row, &-di.u, &a);
            add_angle_jac(jac, row, n.dot(&d), di.body);
            phi_t[row] = -fd;
            // u̇ᵢ = nᵢθ̇ᵢ, üᵢ = −uᵢθ̇ᵢ² + nᵢθ̈ᵢ
            let quad = -di.u.dot(&d) * di.w * di.w
                + 2.0 * di.w * n.dot(&dd)
                + di.u.dot(&(b.quad() - a.quad()));
            gamma[row] = -quad + fdd;
        }
        PlanarConstraint::Coordinate { p, axis, f } => {
            let a = PointState::new(q, v, p);
            let [fv, fd, fdd] = f.eval(t);
            let mut e = Vector2::zeros();
            e[*axis] = 1.0;
            phi[row] = a.p[*axis] - fv;
            add_point_jac(jac, row, &e, &a);
            phi_t[row] = -fd;
            gamma[row] = -a.quad()[*axis] + fdd;
        }
    }
}

/// The outputs of [`evaluate`], borrowed.
pub(crate) struct Rows<'a> {
    /// Φ (all rows are holonomic).
    pub phi: &'a mut [f64],
    /// Φ_q.
    pub jac: &'a mut DMatrix<f64>,
    /// Φ_t.
    pub phi_t: &'a mut [f64],
    /// γ.
    pub gamma: &'a mut [f64],
}
