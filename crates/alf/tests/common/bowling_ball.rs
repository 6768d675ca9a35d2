//! Chiou's bowling ball (thesis sec 7.4) written, as in the thesis, about the
//! **geometric centre**: a self-contained `PartitionedSystem` for the two-stage
//! staggered procedure (`mbs_integrators::TwoStageStaggered`, sec 5.5.2) and for the
//! plain central difference with the lagged velocity ωⁿ ≈ ω^{n−½}
//! (`mbs_integrators::CentralDifference`, eqs 7.4.12–7.4.13).
//!
//! The general `mbs_alf::PenaltySystem` integrates the same ball in the centroidal
//! Newton–Euler form of `mbs-constraints` (6 velocities per body, the contact
//! height as a constraint row); this module reproduces the thesis' own 5-velocity
//! form instead, where the offset mass centre couples translation and rotation in
//! the mass matrix.
//!
//! # Equations (sec 7.4)
//!
//! Coordinates x = [x, y, q₀, q₁, q₂, q₃] (geometric centre in the plane, Euler
//! parameters), velocities u̇ = [ẋ, ẏ, ω₁, ω₂, ω₃] (eq 7.4.3; ω in body
//! components), constraint forces λ = [λ₁, λ₂, λ₃]. R is the thesis' direction-cosine
//! matrix, b = R e (eq 7.4.8), so Rᵀ = A(q) of `mbs_kinematics::euler_params`
//! (body → global); Rᵀᵢⱼ below is A(q)ᵢⱼ. The mass centre sits at r₀ b₃ from the
//! geometric centre.
//!
//! ```text
//! M ü + Bᵀ λ = F                                                     (3.4.3, 5.5.1.1)
//!
//!     ⎡ m       0       −m r₀ Rᵀ₁₂   m r₀ Rᵀ₁₁   0  ⎤
//!     ⎢ 0       m       −m r₀ Rᵀ₂₂   m r₀ Rᵀ₂₁   0  ⎥
//! M = ⎢ −m r₀ Rᵀ₁₂  −m r₀ Rᵀ₂₂   J₁   0    0  ⎥                         (7.4.1)
//!     ⎢ m r₀ Rᵀ₁₁   m r₀ Rᵀ₂₁    0    J₂   0  ⎥
//!     ⎣ 0       0        0         0    J₃ ⎦
//!
//!     ⎡ 1      0   −a R₁₂  −a R₂₂  −a R₃₂ ⎤
//! B = ⎢ 0      1    a R₁₁   a R₂₁   a R₃₁ ⎥                              (7.4.2)
//!     ⎣ cos x −1    0       0       0     ⎦
//!
//! F_d = −m r₀ [ω₁ω₃ Rᵀ₁₁ + ω₂ω₃ Rᵀ₁₂ − (ω₁² + ω₂²) Rᵀ₁₃,
//!              ω₁ω₃ Rᵀ₂₁ + ω₂ω₃ Rᵀ₂₂ − (ω₁² + ω₂²) Rᵀ₂₃]                  (7.4.4)
//! F_ω = −ω × J ω                                                      (7.4.5)
//! f_d = 0,   f_ω = m g r₀ [Rᵀ₃₂, −Rᵀ₃₁, 0]                              (7.4.6)
//! F = [F_d + f_d, F_ω + f_ω]                                          (7.4.7)
//! ```
//!
//! (7.4.1)'s off-diagonal blocks are the m ρ × a_G and m ω̇ × ρ terms of the
//! Newton–Euler equations about the moving geometric centre G (ρ = r₀ b₃), (7.4.4) is
//! −m ω × (ω × ρ) in global x, y components, (7.4.6) is the gravity moment ρ × (−m g e₃)
//! about G. The normal contact force passes through G and has no x, y component, so
//! the vertical equation (which only yields it) is dropped; z_G = a throughout.
//!
//! Constraints: rows 1–2 of B are the no-slip conditions v_G = ω × (a e₃), i.e.
//! ẋ = a ω_y, ẏ = −a ω_x (eqs 7.4.10–7.4.11, which print r₀ for the radius a; B of
//! eq 7.4.2 has a), nonholonomic; row 3 is the track Φ = sin x − y = 0, holonomic
//! (eq 7.4.9 prints y − sin x; B's third row [cos x, −1] is the gradient of
//! sin x − y, the sign used here — only the sign of λ₃ depends on it). Ḃu̇ = 0 for
//! rows 1–2 (d/dt(A ω') = A ω̇' since ω̃'ω' = 0) and −sin x ẋ² for row 3.
//!
//! Penalty constraint forces, as in `mbs_alf::PenaltySystem` (eq 5.3.3 for the
//! nonholonomic rows, eq 5.3.7 for the holonomic one), solved at each station by
//! eq 5.5.5.2 over ϱ = h/2 with u̇ⁿ the previous station's velocity and B, F at the new
//! station:
//!
//! ```text
//! (D + ϱ² B M⁻¹ Bᵀ) λ^{n+½} = D_λ λⁿ + ϱ B u̇ⁿ + ϱ² B M⁻¹ F,
//! D = diag(ϱε, ϱε, ε),  D_λ = diag(0, 0, ε)                           (5.5.5.2)
//! ```
//!
//! with ε = 10⁻⁶ (sec 7.4). λ⁰ are the Lagrange multipliers of the initial state.
//!
//! # The two schemes
//!
//! - `Scheme::Staggered`: `TwoStageStaggered` drives the system; the implicit stage
//!   at each (half or integer) station records ϱ and u̇ⁿ, and the solve runs in the
//!   following `accelerations` call with F at the station's own velocity (no lag).
//! - `Scheme::CentralDifference`: `CentralDifference` drives it; each acceleration
//!   evaluation, at the lagged velocity v^{n−½} (eq 7.4.13), first solves eq 5.5.5.2
//!   with u̇ⁿ ≈ v^{n−½} (the same wiring as `mbs_alf::OneStagePenalty`).
//!
//! # Measured (`tests/bowling_ball.rs`, offset ball, 40 s)
//!
//! The same motion as the centroidal model (max |Δω| 7.2e-8 over 10 s). Staggered
//! h = 0.15: max |ω| 2.389, max |Φ| 3.5e-4, within 0.037 rad/s of the converged ω.
//! Central difference h = 0.2: bounded (max |ω| 2.365), but first order — it drifts
//! in phase up to 0.83 rad/s from the converged ω (> 0.1 from t ≈ 10.8 s), where
//! staggered h = 0.2 stays within 0.067. The thesis' divergence of the lagged scheme
//! near t = 4 s (Fig 7.4.7) is not reproduced as a blow-up: bounded for every h tried
//! up to 4 s. See the test file for why.
//!
//! # Data (sec 7.4) and choices
//!
//! Quoted: "m = 71.32 N", a = 10.9 cm, r₀ = 0 or 0.15 cm, J₁ = J₂ = J₃ = 2/5 m a²,
//! ε = 10⁻⁶, x⁰ = y⁰ = 0, q⁰ = [1, 0, 0, 0], ω₁ = −ω₂ = −1, ω₃ = 0, 40 s.
//! **Choices** (not in the thesis): m = 71.32/9.81 kg (the printed value is a weight);
//! g = 9.81 m/s²; lengths in metres (track y = 1 m · sin(x / 1 m)); J = 2/5 m a² taken
//! as the inertia about the geometric centre (the diagonal of eq 7.4.1), also with the
//! offset; ẋ⁰ = ẏ⁰ = +a (the thesis prints a ω₁⁰ = −a, but its own no-slip rows give
//! +a, the only value tangent to the track); F_ω = −ω × Jω (eq 7.4.5 prints the
//! components with the opposite sign; both vanish for J₁ = J₂ = J₃).

use mbs_integrators::{
    CentralDifference, Observer, PartitionedSystem, StaggeredParams, SystemError, TwoStageStaggered,
};
use mbs_kinematics::{euler_params, implicit_update};
use nalgebra::{Matrix3, Matrix5, SMatrix, Vector3, Vector4, Vector5};

/// Data of the ball (sec 7.4); see the module docs for what is quoted and what is a
/// choice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BowlingBallData {
    /// Mass m (kg): 71.32/9.81 (**choice**: the thesis prints the weight 71.32 N).
    pub mass: f64,
    /// Radius a (m): 0.109.
    pub radius: f64,
    /// Offset r₀ of the mass centre from the geometric centre along b₃ (m): 0 or
    /// 0.0015.
    pub offset: f64,
    /// Gravity g (m/s², **choice** 9.81).
    pub gravity: f64,
    /// Principal inertia about the geometric centre J₁, J₂, J₃ (kg m²): 2/5 m a².
    pub inertia: [f64; 3],
    /// Initial body angular velocity ω⁰ (rad/s): (−1, 1, 0).
    pub omega0: [f64; 3],
    /// Penalty coefficient ε: 10⁻⁶.
    pub epsilon: f64,
}

impl Default for BowlingBallData {
    /// The no-offset ball.
    fn default() -> Self {
        let m = 71.32 / 9.81;
        let a = 0.109;
        let j = 0.4 * m * a * a;
        Self {
            mass: m,
            radius: a,
            offset: 0.0,
            gravity: 9.81,
            inertia: [j; 3],
            omega0: [-1.0, 1.0, 0.0],
            epsilon: 1e-6,
        }
    }
}

impl BowlingBallData {
    /// The offset ball, r₀ = 0.15 cm.
    pub fn with_offset() -> Self {
        Self {
            offset: 0.0015,
            ..Self::default()
        }
    }
}

/// Which integrator drives the system (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scheme {
    /// `TwoStageStaggered` (sec 5.5.2, procedure 5.5.6).
    Staggered,
    /// `CentralDifference` with ωⁿ ≈ ω^{n−½} (eqs 7.4.12–7.4.13), λ solved at every
    /// station from the lagged velocity.
    CentralDifference,
}

/// The ball about its geometric centre (module docs): x = [x, y, q₀..q₃] (6),
/// v = [ẋ, ẏ, ω₁, ω₂, ω₃] (5), λ (3) held by the system.
#[derive(Clone, Debug)]
pub struct GeometricBowlingBall {
    data: BowlingBallData,
    /// ϱ of the one-stage (central-difference) wiring; None: staggered.
    one_stage_rho: Option<f64>,
    lambda: Vector3<f64>,
    t_lambda: Option<f64>,
    pending: Option<(f64, f64)>,
    v_prev: Vector5<f64>,
}

/// M, F, B of a state.
struct Eval {
    m: Matrix5<f64>,
    f: Vector5<f64>,
    b: SMatrix<f64, 3, 5>,
    /// Ḃu̇ (for the initial Lagrange multipliers).
    bdot_v: Vector3<f64>,
}

fn error(msg: &str, t: f64) -> SystemError {
    SystemError::new(format!("bowling ball at t = {t}: {msg}"))
}

impl GeometricBowlingBall {
    /// A system for `TwoStageStaggered`.
    pub fn staggered(data: BowlingBallData) -> Self {
        Self::new(data, None)
    }

    /// A system for `CentralDifference` with step `h` (λ solved over ϱ = h/2 at every
    /// station, from the lagged velocity).
    pub fn central_difference(data: BowlingBallData, h: f64) -> Self {
        Self::new(data, Some(0.5 * h))
    }

    fn new(data: BowlingBallData, one_stage_rho: Option<f64>) -> Self {
        Self {
            data,
            one_stage_rho,
            lambda: Vector3::zeros(),
            t_lambda: None,
            pending: None,
            v_prev: Vector5::zeros(),
        }
    }

    /// The data.
    pub fn data(&self) -> &BowlingBallData {
        &self.data
    }

    /// λ of the last station.
    pub fn lambda(&self) -> [f64; 3] {
        [self.lambda[0], self.lambda[1], self.lambda[2]]
    }

    /// Initial state (x⁰, v⁰): centre at the origin, identity orientation, ω⁰ and the
    /// rolling velocity ẋ = a ω_y, ẏ = −a ω_x.
    pub fn initial_state(&self) -> ([f64; 6], [f64; 5]) {
        let a = self.data.radius;
        let w = self.data.omega0;
        (
            [0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
            [a * w[1], -a * w[0], w[0], w[1], w[2]],
        )
    }

    /// Constraint violation of a state: |Φ| = |sin x − y| (track, holonomic) and the
    /// largest no-slip residual |(B u̇)ᵢ|, i = 1, 2 (m/s).
    pub fn violation(&self, x: &[f64], v: &[f64]) -> (f64, f64) {
        let e = self.evaluate(x, v);
        let v = Vector5::from_column_slice(v);
        let bv = e.b * v;
        ((x[0].sin() - x[1]).abs(), bv[0].abs().max(bv[1].abs()))
    }

    fn evaluate(&self, x: &[f64], v: &[f64]) -> Eval {
        let d = &self.data;
        let (m, a, r0) = (d.mass, d.radius, d.offset);
        let q = Vector4::new(x[2], x[3], x[4], x[5]);
        // Rᵀ = A(q): body → global.
        let rt: Matrix3<f64> = euler_params::rotation(&q);
        let w = Vector3::new(v[2], v[3], v[4]);
        let [j1, j2, j3] = d.inertia;
        let mr = m * r0;
        // eq 7.4.1
        let mut mm = Matrix5::zeros();
        mm[(0, 0)] = m;
        mm[(1, 1)] = m;
        mm[(2, 2)] = j1;
        mm[(3, 3)] = j2;
        mm[(4, 4)] = j3;
        for i in 0..2 {
            mm[(i, 2)] = -mr * rt[(i, 1)];
            mm[(i, 3)] = mr * rt[(i, 0)];
            mm[(2, i)] = mm[(i, 2)];
            mm[(3, i)] = mm[(i, 3)];
        }
        // eqs 7.4.4–7.4.7
        let mut f = Vector5::zeros();
        let w12 = w[0] * w[0] + w[1] * w[1];
        for i in 0..2 {
            f[i] = -mr * (w[0] * w[2] * rt[(i, 0)] + w[1] * w[2] * rt[(i, 1)] - w12 * rt[(i, 2)]);
        }
        let jw = Vector3::new(j1 * w[0], j2 * w[1], j3 * w[2]);
        let gyro = -w.cross(&jw);
        let mgr = m * d.gravity * r0;
        f[2] = gyro[0] + mgr * rt[(2, 1)];
        f[3] = gyro[1] - mgr * rt[(2, 0)];
        f[4] = gyro[2];
        // eq 7.4.2 (R_ij = Rᵀ_ji)
        let mut b = SMatrix::<f64, 3, 5>::zeros();
        b[(0, 0)] = 1.0;
        b[(1, 1)] = 1.0;
        for k in 0..3 {
            b[(0, 2 + k)] = -a * rt[(1, k)];
            b[(1, 2 + k)] = a * rt[(0, k)];
        }
        b[(2, 0)] = x[0].cos();
        b[(2, 1)] = -1.0;
        let bdot_v = Vector3::new(0.0, 0.0, -x[0].sin() * v[0] * v[0]);
        Eval {
            m: mm,
            f,
            b,
            bdot_v,
        }
    }

    /// λ⁰: B M⁻¹ Bᵀ λ = B M⁻¹ F + Ḃu̇ (from M ü + Bᵀλ = F, B ü + Ḃ u̇ = 0).
    fn lagrange(&mut self, t: f64, e: &Eval) -> Result<(), SystemError> {
        let chol = e.m.cholesky().ok_or_else(|| error("M not SPD", t))?;
        let minv_bt = chol.solve(&e.b.transpose());
        let s = e.b * minv_bt;
        let rhs = e.b * chol.solve(&e.f) + e.bdot_v;
        self.lambda = s
            .lu()
            .solve(&rhs)
            .ok_or_else(|| error("singular B M⁻¹ Bᵀ", t))?;
        Ok(())
    }

    /// Eq 5.5.5.2 over ϱ with u̇ⁿ = `v_prev` (module docs).
    fn stage_solve(
        &mut self,
        t: f64,
        e: &Eval,
        v_prev: &Vector5<f64>,
        rho: f64,
    ) -> Result<(), SystemError> {
        let eps = self.data.epsilon;
        let chol = e.m.cholesky().ok_or_else(|| error("M not SPD", t))?;
        let minv_bt = chol.solve(&e.b.transpose());
        let mut lhs = rho * rho * (e.b * minv_bt);
        let bmf = e.b * chol.solve(&e.f);
        let bv = e.b * v_prev;
        let mut rhs = Vector3::zeros();
        for i in 0..3 {
            let holonomic = i == 2;
            lhs[(i, i)] += if holonomic { eps } else { rho * eps };
            let d_lambda = if holonomic { eps } else { 0.0 };
            rhs[i] = d_lambda * self.lambda[i] + rho * bv[i] + rho * rho * bmf[i];
        }
        self.lambda = lhs
            .lu()
            .solve(&rhs)
            .ok_or_else(|| error("singular εI + ϱ² B M⁻¹ Bᵀ", t))?;
        Ok(())
    }
}

impl PartitionedSystem for GeometricBowlingBall {
    fn dim_positions(&self) -> usize {
        6
    }
    fn dim_velocities(&self) -> usize {
        5
    }

    fn accelerations(
        &mut self,
        t: f64,
        x: &[f64],
        v: &[f64],
        acc: &mut [f64],
    ) -> Result<(), SystemError> {
        let e = self.evaluate(x, v);
        let vv = Vector5::from_column_slice(v);
        match (self.one_stage_rho, self.t_lambda) {
            (_, None) => {
                self.lagrange(t, &e)?;
                self.t_lambda = Some(t);
            }
            (Some(rho), Some(tl)) if tl != t => {
                // eq 7.4.13: everything at the lagged velocity, λ included.
                self.stage_solve(t, &e, &vv, rho)?;
                self.t_lambda = Some(t);
            }
            (None, _) => {
                if let Some((tp, rho)) = self.pending
                    && tp == t
                {
                    let vp = self.v_prev;
                    self.stage_solve(t, &e, &vp, rho)?;
                    self.pending = None;
                    self.t_lambda = Some(t);
                }
            }
            _ => {}
        }
        let chol = e.m.cholesky().ok_or_else(|| error("M not SPD", t))?;
        let udd = chol.solve(&(e.f - e.b.transpose() * self.lambda));
        if !udd.iter().all(|a| a.is_finite()) {
            return Err(error("non-finite acceleration", t));
        }
        acc.copy_from_slice(udd.as_slice());
        Ok(())
    }

    /// x, y by the central difference (eq 5.5.3.2), q by the closed-form implicit
    /// midpoint rule (eqs 5.5.4.4–5.5.4.7).
    fn advance_positions(
        &mut self,
        x: &[f64],
        v_half: &[f64],
        h: f64,
        x_out: &mut [f64],
    ) -> Result<(), SystemError> {
        x_out[0] = x[0] + h * v_half[0];
        x_out[1] = x[1] + h * v_half[1];
        let q = Vector4::new(x[2], x[3], x[4], x[5]);
        let w = Vector3::new(v_half[2], v_half[3], v_half[4]);
        let q1 = implicit_update::midpoint_update_body(&q, &w, h);
        x_out[2..6].copy_from_slice(q1.as_slice());
        Ok(())
    }

    /// Staggered wiring: records the stage of eq 5.5.5.2 for the following
    /// `accelerations` call (the first call sets λ⁰ there).
    fn implicit_stage(
        &mut self,
        t: f64,
        _x: &[f64],
        v_prev: &[f64],
        rho: f64,
    ) -> Result<(), SystemError> {
        if self.one_stage_rho.is_some() {
            return Ok(());
        }
        if let Some(tl) = self.t_lambda
            && tl != t
        {
            self.v_prev = Vector5::from_column_slice(v_prev);
            self.pending = Some((t, rho));
        }
        Ok(())
    }
}

/// Outcome of [`simulate`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BallRun {
    /// Largest |ω| (Euclidean norm of the body angular velocity) over the steps
    /// before divergence.
    pub max_omega: f64,
    /// Largest |sin x − y| (m) before divergence.
    pub max_phi: f64,
    /// Largest no-slip residual |(B u̇)₁,₂| (m/s) before divergence.
    pub max_slip: f64,
    /// Time of the first station with |ω| > `omega_limit` or a non-finite state, or of
    /// an integrator failure; None if the run reached t_end bounded.
    pub diverged_at: Option<f64>,
    /// Time reached.
    pub t_last: f64,
    /// Final state [x, v] (of the last accepted station).
    pub last: [f64; 11],
}

impl BallRun {
    /// Bounded over the whole run.
    pub fn bounded(&self) -> bool {
        self.diverged_at.is_none()
    }
}

/// Runs the ball with `scheme` at step `h` to `t_end`, stopping when |ω| exceeds
/// `omega_limit` (rad/s) or the state stops being finite.
pub fn simulate(
    data: BowlingBallData,
    scheme: Scheme,
    h: f64,
    t_end: f64,
    omega_limit: f64,
) -> BallRun {
    simulate_sampled(data, scheme, h, t_end, omega_limit, &[]).0
}

/// [`simulate`], also returning the body angular velocity ω at the times `t_out`
/// (ascending, within [0, t_end]; interpolated linearly between stations; only the
/// samples before a divergence).
pub fn simulate_sampled(
    data: BowlingBallData,
    scheme: Scheme,
    h: f64,
    t_end: f64,
    omega_limit: f64,
    t_out: &[f64],
) -> (BallRun, Vec<(f64, [f64; 3])>) {
    struct Watch<'a> {
        sys: &'a GeometricBowlingBall,
        limit: f64,
        run: BallRun,
        samples: Vec<(f64, [f64; 3])>,
    }
    impl Observer for Watch<'_> {
        fn sample(&mut self, t: f64, y: &[f64]) {
            if self.run.diverged_at.is_none() {
                self.samples.push((t, [y[8], y[9], y[10]]));
            }
        }
        fn step(&mut self, t: f64, y: &[f64]) -> std::ops::ControlFlow<()> {
            let w = (y[8] * y[8] + y[9] * y[9] + y[10] * y[10]).sqrt();
            self.run.t_last = t;
            if !(w.is_finite() && w <= self.limit && y.iter().all(|v| v.is_finite())) {
                self.run.diverged_at = Some(t);
                return std::ops::ControlFlow::Break(());
            }
            let (phi, slip) = self.sys.violation(&y[..6], &y[6..]);
            let r = &mut self.run;
            r.max_omega = r.max_omega.max(w);
            r.max_phi = r.max_phi.max(phi);
            r.max_slip = r.max_slip.max(slip);
            r.last.copy_from_slice(y);
            std::ops::ControlFlow::Continue(())
        }
    }
    let mut sys = match scheme {
        Scheme::Staggered => GeometricBowlingBall::staggered(data),
        Scheme::CentralDifference => GeometricBowlingBall::central_difference(data, h),
    };
    let (x0, v0) = sys.initial_state();
    // the observer only reads the data, which a clone carries
    let probe = sys.clone();
    let mut last = [0.0; 11];
    last[..6].copy_from_slice(&x0);
    last[6..].copy_from_slice(&v0);
    let mut watch = Watch {
        sys: &probe,
        limit: omega_limit,
        run: BallRun {
            max_omega: Vector3::from_column_slice(&v0[2..]).norm(),
            max_phi: 0.0,
            max_slip: 0.0,
            diverged_at: None,
            t_last: 0.0,
            last,
        },
        samples: Vec::with_capacity(t_out.len()),
    };
    let params = StaggeredParams {
        project_every: 0,
        ..StaggeredParams::new(h)
    };
    let r = match scheme {
        Scheme::Staggered => TwoStageStaggered::new(6, 5, params)
            .integrate(&mut sys, 0.0, &x0, &v0, t_end, t_out, &mut watch)
            .map(|i| i.accepted_steps),
        Scheme::CentralDifference => CentralDifference::new(6, 5, params)
            .integrate(&mut sys, 0.0, &x0, &v0, t_end, t_out, &mut watch)
            .map(|i| i.accepted_steps),
    };
    let mut run = watch.run;
    if let Err(e) = r
        && run.diverged_at.is_none()
    {
        use mbs_integrators::Error as E;
        let t = match e {
            E::NonFinite { t } | E::System { t, .. } | E::TooManySteps { t, .. } => t,
            _ => run.t_last,
        };
        run.diverged_at = Some(t);
    }
    (run, watch.samples)
}
