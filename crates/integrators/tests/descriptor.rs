//! The descriptor (index-3) integrator on a planar pendulum in absolute
//! coordinates with Lagrange multipliers (a KKT Newton solve), optionally with a
//! second mass hanging from the bob on a stiff linear spring.

use mbs_integrators::descriptor::{
    DescriptorIntegrator, DescriptorNewton, DescriptorParams, DescriptorRule, DescriptorSettings,
    DescriptorSystem, Iterate, Point, StepControl,
};
use mbs_integrators::{
    EmbeddedRk, Error, IntegratorChoice, OdeSystem, Recorder, RkParams, Stepper, SystemError, drive,
};
use nalgebra::{DMatrix, DVector};

const G: f64 = 9.81;

/// Bob 1 at (x₁, y₁) on a massless rod of length 1 (Φ = x₁² + y₁² − 1), unit
/// mass; with `spring = Some(k)` a unit mass 2 at (x₂, y₂) hangs from it on a
/// linear spring of stiffness k and rest offset (0, −½).
struct Pendulum {
    spring: Option<f64>,
    lambda: f64,
    kkt: DMatrix<f64>,
    rhs: DVector<f64>,
}

impl Pendulum {
    fn new(spring: Option<f64>) -> Self {
        let n = if spring.is_some() { 4 } else { 2 };
        Self {
            spring,
            lambda: 0.0,
            kkt: DMatrix::zeros(n + 1, n + 1),
            rhs: DVector::zeros(n + 1),
        }
    }
    fn n(&self) -> usize {
        if self.spring.is_some() { 4 } else { 2 }
    }
    /// Q(q).
    fn forces(&self, q: &[f64], f: &mut [f64]) {
        f[0] = 0.0;
        f[1] = -G;
        if let Some(k) = self.spring {
            let (dx, dy) = (q[2] - q[0], q[3] - q[1] + 0.5);
            f[0] += k * dx;
            f[1] += k * dy;
            f[2] = -k * dx;
            f[3] = -G - k * dy;
        }
    }
    fn energy(&self, y: &[f64]) -> f64 {
        let n = self.n();
        let (q, v) = (&y[..n], &y[n..2 * n]);
        let mut e = 0.5 * v.iter().map(|x| x * x).sum::<f64>() + G * q[1];
        if let Some(k) = self.spring {
            e += G * q[3];
            let (dx, dy) = (q[2] - q[0], q[3] - q[1] + 0.5);
            e += 0.5 * k * (dx * dx + dy * dy);
        }
        e
    }
}

impl DescriptorSystem for Pendulum {
    fn dim_positions(&self) -> usize {
        self.n()
    }
    fn dim_velocities(&self) -> usize {
        self.n()
    }
    fn dim_multipliers(&self) -> usize {
        1
    }
    fn initial_accelerations(
        &mut self,
        _t: f64,
        q: &[f64],
        v: &[f64],
        qdd: &mut [f64],
    ) -> Result<(), SystemError> {
        // q̈ = Q − Φ_qᵀλ with Φ_q q̈ = −2(ẋ₁² + ẏ₁²)
        let n = self.n();
        let mut f = [0.0; 4];
        self.forces(q, &mut f);
        let (x, y) = (q[0], q[1]);
        let gamma = -2.0 * (v[0] * v[0] + v[1] * v[1]);
        self.lambda = (2.0 * x * f[0] + 2.0 * y * f[1] - gamma) / (4.0 * (x * x + y * y));
        qdd[..n].copy_from_slice(&f[..n]);
        qdd[0] -= 2.0 * x * self.lambda;
        qdd[1] -= 2.0 * y * self.lambda;
        Ok(())
    }
    /// [c M + K, Φ_qᵀ; Φ_q, 0] [δ; δλ] = −[r; Φ], K = 2λ I₁ − ∂Q/∂q (exact).
    fn newton_correction(
        &mut self,
        it: &Iterate<'_>,
        delta: &mut [f64],
    ) -> Result<(), SystemError> {
        let n = self.n();
        let q = it.end.q;
        let mut f = [0.0; 4];
        self.forces(q, &mut f);
        self.kkt.fill(0.0);
        for i in 0..n {
            self.kkt[(i, i)] = it.c_qdd;
            self.rhs[i] = -(it.qdd[i] - f[i]);
        }
        self.kkt[(0, 0)] += 2.0 * self.lambda;
        self.kkt[(1, 1)] += 2.0 * self.lambda;
        if let (Some(k), true) = (self.spring, it.force_tangent) {
            for (i, j, s) in [(0, 0, 1.0), (0, 2, -1.0), (2, 0, -1.0), (2, 2, 1.0)] {
                self.kkt[(i, j)] += s * k;
                self.kkt[(i + 1, j + 1)] += s * k;
            }
        }
        let (x, y) = (q[0], q[1]);
        self.rhs[0] -= 2.0 * x * self.lambda;
        self.rhs[1] -= 2.0 * y * self.lambda;
        for (j, d) in [(0, 2.0 * x), (1, 2.0 * y)] {
            self.kkt[(n, j)] = d;
            self.kkt[(j, n)] = d;
        }
        self.rhs[n] = -(x * x + y * y - 1.0);
        let lu = self.kkt.clone().lu();
        let sol = lu
            .solve(&self.rhs)
            .ok_or_else(|| SystemError::new("singular KKT matrix"))?;
        delta.copy_from_slice(&sol.as_slice()[..n]);
        self.lambda += sol[n];
        Ok(())
    }
    fn constraint_residual(&mut self, end: Point<'_>) -> Result<f64, SystemError> {
        let (x, y) = (end.q[0], end.q[1]);
        Ok((x * x + y * y - 1.0).abs())
    }
    fn multipliers(&self) -> &[f64] {
        std::slice::from_ref(&self.lambda)
    }
    fn set_multipliers(&mut self, lambda: &[f64]) {
        self.lambda = lambda[0];
    }
}

/// The pendulum's angle ODE θ̈ = −g sin θ (θ from the downward vertical).
struct Angle;
impl OdeSystem for Angle {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        d[0] = y[1];
        d[1] = -G * y[0].sin();
        Ok(())
    }
}

/// Start at θ₀ = 1 rad at rest.
const THETA0: f64 = 1.0;
fn y0() -> Vec<f64> {
    vec![THETA0.sin(), -THETA0.cos(), 0.0, 0.0]
}

/// (x, y) of the bob at `t` from DOP853 at rtol 1e-13 on the angle ODE.
fn reference(t: f64) -> [f64; 2] {
    let mut rk = EmbeddedRk::dop853(2, RkParams::with_tol(1e-13, 1e-13));
    rk.integrate(&mut Angle, 0.0, &[THETA0, 0.0], t, &[], &mut ())
        .unwrap();
    let th = rk.y()[0];
    [th.sin(), -th.cos()]
}

fn alpha(rho_inf: f64, step: StepControl) -> DescriptorIntegrator {
    let params = DescriptorParams {
        newton: DescriptorNewton {
            tol: 1e-12,
            ..DescriptorNewton::default()
        },
        ..DescriptorParams::new(DescriptorRule::GeneralizedAlpha { rho_inf }, step)
    };
    DescriptorIntegrator::new(2, 2, 1, params)
}

fn position_error(st: &DescriptorIntegrator, t: f64) -> f64 {
    let r = reference(t);
    let y = st.y();
    (y[0] - r[0]).abs().max((y[1] - r[1]).abs())
}

/// Φ = 0 to the Newton tolerance after every step; the energy of the conservative
/// pendulum stays within 0.3 % of its initial value over 500 steps (ρ∞ = 0.9 and 0.6:
/// the O(h²) energy error of a second-order rule, h ω ≈ 0.03), without drift (the
/// last 100 steps' error is within 1.5× the first 100 steps').
#[test]
fn constraint_holds_at_every_step_and_energy_stays_bounded() {
    for rho in [0.9, 0.6] {
        let mut sys = Pendulum::new(None);
        let e0 = sys.energy(&[y0(), vec![0.0; 2]].concat());
        let mut st = alpha(rho, StepControl::Fixed { h: 0.01 });
        let mut rec = Recorder {
            record_steps: true,
            ..Recorder::default()
        };
        drive(&mut st, &mut sys, 0.0, &y0(), 5.0, &[], &mut rec).unwrap();
        let (mut phi, mut de) = (0.0f64, [0.0f64; 5]);
        for k in 0..rec.t.len() {
            let y = rec.state(k);
            phi = phi.max((y[0] * y[0] + y[1] * y[1] - 1.0).abs());
            de[k / 100] = de[k / 100].max((sys.energy(y) - e0).abs());
        }
        eprintln!(
            "ρ∞ = {rho}: max |Φ| = {phi:e}, max |ΔE| per 100 steps {de:?}, {:?}",
            st.info()
        );
        assert_eq!(rec.t.len(), 500);
        assert!(phi <= 1e-11, "ρ∞ = {rho}: |Φ| = {phi:e}");
        let worst = de.iter().fold(0.0f64, |m, x| m.max(*x));
        assert!(worst <= 3e-3 * e0.abs(), "ρ∞ = {rho}: ΔE = {de:?}");
        assert!(de[4] <= 1.5 * de[0], "ρ∞ = {rho}: drift {de:?}");
    }
}

/// Fixed step: the position error at t = 1 falls 4× per halving of h (order 2,
/// Arnold–Brüls 2007 Theorem 1), against DOP853 at 1e-13.
#[test]
fn fixed_step_is_second_order() {
    let mut errs = vec![];
    for h in [0.02, 0.01, 0.005, 0.0025] {
        let mut st = alpha(0.8, StepControl::Fixed { h });
        drive(
            &mut st,
            &mut Pendulum::new(None),
            0.0,
            &y0(),
            1.0,
            &[],
            &mut (),
        )
        .unwrap();
        errs.push(position_error(&st, 1.0));
    }
    let orders: Vec<f64> = errs.windows(2).map(|w| (w[0] / w[1]).log2()).collect();
    eprintln!("errors {errs:?}, orders {orders:?}");
    for p in orders {
        assert!((1.8..2.3).contains(&p), "order {p}");
    }
}

/// Adaptive: the global position error over t ≤ 2 (about one period; samples by
/// dense output) stays within the sum of the steps' allowed local errors,
/// 2 rtol (1 + |q|) per step (the control is of the local error per step), and
/// shrinks with rtol (as rtol^{2/3} for a second-order method: 20× per 100×).
#[test]
fn adaptive_meets_its_tolerance_with_dense_output() {
    let times: Vec<f64> = (0..=20).map(|k| 0.1 * k as f64).collect();
    let mut last = f64::INFINITY;
    for rtol in [1e-4, 1e-6, 1e-8] {
        let mut st = alpha(0.9, StepControl::Adaptive { rtol, atol: rtol });
        let mut rec = Recorder::new();
        let info = drive(
            &mut st,
            &mut Pendulum::new(None),
            0.0,
            &y0(),
            2.0,
            &times,
            &mut rec,
        )
        .unwrap();
        let mut err = 0.0f64;
        for (k, &t) in rec.t.iter().enumerate() {
            let r = reference(t);
            let y = rec.state(k);
            err = err.max((y[0] - r[0]).abs().max((y[1] - r[1]).abs()));
        }
        eprintln!("rtol {rtol:e}: max sample error {err:.3e}, {info:?}");
        let allowed = 2.0 * rtol * 2.0 * info.accepted_steps as f64;
        assert!(err <= allowed, "rtol {rtol:e}: error {err:e} > {allowed:e}");
        assert!(err < last);
        assert!(info.rejected_steps < info.accepted_steps);
        last = err;
    }
}

/// ρ∞ damps the stiff spring mode (ω = √(2k) = 1414 rad/s, h ω ≈ 14): with ρ∞ = 0.5
/// an initial spring deflection of 1e-3 is gone after 30 steps, with ρ∞ = 1 it
/// stays.
#[test]
fn rho_inf_dissipates_a_stiff_spring_mode() {
    let k = 1e6;
    let p = y0();
    let y = [p[0], p[1], p[0], p[1] - 0.5 + 1e-3, 0.0, 0.0, 0.0, 0.0];
    let mut amplitude = vec![];
    for rho in [0.5, 1.0] {
        let params = DescriptorParams::new(
            DescriptorRule::GeneralizedAlpha { rho_inf: rho },
            StepControl::Fixed { h: 0.01 },
        );
        let mut st = DescriptorIntegrator::new(4, 4, 1, params);
        let mut rec = Recorder {
            record_steps: true,
            ..Recorder::default()
        };
        drive(
            &mut st,
            &mut Pendulum::new(Some(k)),
            0.0,
            &y,
            0.4,
            &[],
            &mut rec,
        )
        .unwrap();
        // the oscillating part of the spring's deflection: its second difference
        // between steps (the quasi-static deflection, O(1/k), varies slowly)
        let d = |s: usize| {
            let q = rec.state(s);
            q[3] - q[1] + 0.5
        };
        let tail = (30..39)
            .map(|s| (d(s + 1) - 2.0 * d(s) + d(s - 1)).abs())
            .fold(0.0f64, f64::max);
        eprintln!("ρ∞ = {rho}: spring deflection over steps 30–40 {tail:.3e}");
        amplitude.push(tail);
    }
    assert!(amplitude[0] < 1e-7, "ρ∞ = 0.5: {:e}", amplitude[0]);
    assert!(amplitude[1] > 1e-3, "ρ∞ = 1: {:e}", amplitude[1]);
}

/// Bad input is an error naming what is wrong, never a panic.
#[test]
fn errors_name_the_problem() {
    let settings = DescriptorSettings {
        dims: (2, 2, 1),
        newton: DescriptorNewton::default(),
        max_steps: 1000,
        project_every: 0,
    };
    let e = IntegratorChoice::Dop853 {
        rtol: 1e-6,
        atol: 1e-6,
    }
    .descriptor_stepper::<Pendulum>(&settings)
    .err()
    .unwrap()
    .to_string();
    assert!(
        e.contains("dop853") && e.contains("generalized-alpha") && e.contains("trapezoidal"),
        "{e}"
    );
    let run = |rule, step| {
        let mut st = DescriptorIntegrator::new(2, 2, 1, DescriptorParams::new(rule, step));
        drive(
            &mut st,
            &mut Pendulum::new(None),
            0.0,
            &y0(),
            1.0,
            &[],
            &mut (),
        )
        .unwrap_err()
        .to_string()
    };
    let e = run(
        DescriptorRule::Trapezoidal,
        StepControl::Adaptive {
            rtol: 1e-6,
            atol: 1e-6,
        },
    );
    assert!(e.contains("trapezoidal") && e.contains("fixed-step"), "{e}");
    let e = run(
        DescriptorRule::GeneralizedAlpha { rho_inf: 1.5 },
        StepControl::Fixed { h: 0.01 },
    );
    assert!(e.contains("rho_inf") && e.contains("1.5"), "{e}");
    let e = run(DescriptorRule::Midpoint, StepControl::Fixed { h: -0.01 });
    assert!(e.contains("-0.01"), "{e}");
    let mut st = alpha(0.9, StepControl::Fixed { h: 0.01 });
    let e = drive(
        &mut st,
        &mut Pendulum::new(None),
        0.0,
        &[1.0; 3],
        1.0,
        &[],
        &mut (),
    )
    .unwrap_err();
    assert!(matches!(e, Error::InvalidInput(_)), "{e}");
}

/// A Newton iteration that cannot converge in one iteration: a fixed step stops
/// with the system's explanation, an adaptive one rejects and shrinks the step.
#[test]
fn newton_failure_rejects_or_stops() {
    let newton = DescriptorNewton {
        tol: 1e-14,
        max_iterations: 1,
        ..DescriptorNewton::default()
    };
    let mut p = DescriptorParams::new(
        DescriptorRule::GeneralizedAlpha { rho_inf: 0.9 },
        StepControl::Fixed { h: 0.05 },
    );
    p.newton = newton;
    let mut st = DescriptorIntegrator::new(2, 2, 1, p);
    let e = drive(
        &mut st,
        &mut Pendulum::new(None),
        0.0,
        &y0(),
        1.0,
        &[],
        &mut (),
    )
    .unwrap_err();
    assert!(e.to_string().contains("did not converge"), "{e}");
    p.step = StepControl::Adaptive {
        rtol: 1e-3,
        atol: 1e-3,
    };
    p.newton.max_iterations = 2;
    let mut st = DescriptorIntegrator::new(2, 2, 1, p);
    let r = drive(
        &mut st,
        &mut Pendulum::new(None),
        0.0,
        &y0(),
        0.2,
        &[],
        &mut (),
    );
    let info = Stepper::<Pendulum>::info(&st);
    eprintln!("two Newton iterations per attempt: {r:?}, {info:?}");
    assert!(info.rejected_steps > 0);
}
