//! Acceptance 3 and the implicit-step seam.

mod common;
use common::*;
use mbs_integrators::*;
use nalgebra::DMatrix;

/// Midpoint and trapezoidal rules keep y1² + y2² of the harmonic oscillator
/// to round-off over 10⁵ steps.
#[test]
fn quadratic_invariant_conserved_over_1e5_steps() {
    for rule in [ImplicitRule::Midpoint, ImplicitRule::Trapezoidal] {
        let h = 0.1;
        let steps = 100_000;
        let mut it = ImplicitIntegrator::new(2, ImplicitParams::new(rule, h));
        struct Inv(f64);
        impl Observer for Inv {
            fn step(&mut self, _t: f64, y: &[f64]) -> std::ops::ControlFlow<()> {
                self.0 = self.0.max((y[0] * y[0] + y[1] * y[1] - 1.0).abs());
                std::ops::ControlFlow::Continue(())
            }
        }
        let mut inv = Inv(0.0);
        let info = it
            .integrate(
                &mut Oscillator,
                0.0,
                &[1.0, 0.0],
                h * steps as f64,
                &[],
                &mut inv,
            )
            .unwrap();
        assert_eq!(info.accepted_steps, steps);
        println!(
            "{rule:?}: max |I − I₀| = {:.2e}, Newton its/step {:.2}",
            inv.0,
            info.newton_iterations as f64 / steps as f64
        );
        // Round-off level: a random walk of ~1e-16 per step over 1e5 steps.
        assert!(inv.0 < 1e-12, "{rule:?}: invariant drift {}", inv.0);
    }
    // Explicit RK45 at fixed step does drift (the test can fail).
    let mut rk = EmbeddedRk::rk45(2, RkParams::fixed(0.5));
    rk.integrate(&mut Oscillator, 0.0, &[1.0, 0.0], 5000.0, &[], &mut ())
        .unwrap();
    let y = rk.y();
    assert!((y[0] * y[0] + y[1] * y[1] - 1.0).abs() > 1e-6);
}

/// The oscillator with an analytic Jacobian: one Jacobian per step, no FD evaluations.
#[derive(Debug, Default)]
struct OscJac {
    jac_calls: usize,
}

impl OdeSystem for OscJac {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&mut self, t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        Oscillator.rhs(t, y, d)
    }
    fn jacobian(&mut self, _t: f64, _y: &[f64], j: &mut DMatrix<f64>) -> Result<bool, SystemError> {
        self.jac_calls += 1;
        j.fill(0.0);
        j[(0, 1)] = 1.0;
        j[(1, 0)] = -1.0;
        Ok(true)
    }
}

#[test]
fn analytic_jacobian_is_used_and_matches_finite_differences() {
    let mut a = ImplicitIntegrator::new(2, ImplicitParams::new(ImplicitRule::Trapezoidal, 0.01));
    let mut sys = OscJac::default();
    let ia = a
        .integrate(&mut sys, 0.0, &[1.0, 0.0], 1.0, &[], &mut ())
        .unwrap();
    assert_eq!(sys.jac_calls, 100);
    assert_eq!(ia.jacobian_evals, 100);
    let mut b = ImplicitIntegrator::new(2, ImplicitParams::new(ImplicitRule::Trapezoidal, 0.01));
    let ib = b
        .integrate(&mut Oscillator, 0.0, &[1.0, 0.0], 1.0, &[], &mut ())
        .unwrap();
    assert!(max_err(a.y(), b.y()) < 1e-12);
    // FD costs n extra RHS per Jacobian.
    assert_eq!(ib.rhs_evals - ia.rhs_evals, 2 * 100);
    // Reusing the factorisation across steps saves Jacobians.
    let p = ImplicitParams {
        newton: NewtonParams {
            reuse_jacobian: true,
            ..Default::default()
        },
        ..ImplicitParams::new(ImplicitRule::Midpoint, 0.01)
    };
    let mut c = ImplicitIntegrator::new(2, p);
    let mut sys = OscJac::default();
    let ic = c
        .integrate(&mut sys, 0.0, &[1.0, 0.0], 1.0, &[], &mut ())
        .unwrap();
    assert_eq!(ic.jacobian_evals, 1);
    let exact = [1f64.cos(), -1f64.sin()];
    assert!(max_err(c.y(), &exact) < 1e-4);
}

/// A front-end solver: for y' = A y the trapezoidal step is the linear solve
/// (I − h/2 A) y⁺ = (I + h/2 A) y, done in closed form for the oscillator.
/// Also checks the second-order (Bayo–Ledesma eq 36) coefficients.
struct ExactLinearSolver {
    calls: usize,
}

impl<S: OdeSystem + ?Sized> ImplicitStepSolver<S> for ExactLinearSolver {
    fn solve(
        &mut self,
        _sys: &mut S,
        req: &StepRequest<'_>,
        y_next: &mut [f64],
        info: &mut Info,
    ) -> Result<(), Error> {
        assert_eq!(req.rule, ImplicitRule::Trapezoidal);
        self.calls += 1;
        let c = 0.5 * req.h;
        let (q, v) = (req.y[0], req.y[1]);
        // Second-order form: q̇⁺ = α q⁺ + q̂̇, q̈⁺ = β q⁺ + q̂̈ and q̈⁺ = −q⁺.
        let (mut vh, mut ah) = ([0.0], [0.0]);
        let (alpha, beta) =
            trapezoidal_second_order(req.h, &[q], &[v], &[req.f[1]], &mut vh, &mut ah);
        // β q⁺ + q̂̈ = −q⁺  ⇒  q⁺ = −q̂̈ / (β + 1)   (eq 37 with M = 1, Φ = 0, Q = −q)
        let qn = -ah[0] / (beta + 1.0);
        y_next[0] = qn;
        y_next[1] = alpha * qn + vh[0];
        // Same as the first-order closed form.
        let det = 1.0 + c * c;
        let q1 = ((1.0 - c * c) * q + 2.0 * c * v) / det;
        assert!((q1 - qn).abs() < 1e-12);
        info.newton_iterations += 1;
        Ok(())
    }
}

#[test]
fn front_end_step_solver_replaces_newton() {
    let h = 0.05;
    let mut solver = ExactLinearSolver { calls: 0 };
    let mut it = ImplicitIntegrator::new(2, ImplicitParams::new(ImplicitRule::Trapezoidal, h));
    let info = it
        .integrate_with(
            &mut solver,
            &mut Oscillator,
            0.0,
            &[1.0, 0.0],
            10.0,
            &[],
            &mut (),
        )
        .unwrap();
    assert_eq!(solver.calls, 200);
    assert_eq!(info.newton_iterations, 200);
    let mut nt = ImplicitIntegrator::new(2, ImplicitParams::new(ImplicitRule::Trapezoidal, h));
    nt.integrate(&mut Oscillator, 0.0, &[1.0, 0.0], 10.0, &[], &mut ())
        .unwrap();
    assert!(
        max_err(it.y(), nt.y()) < 1e-10,
        "{:?} vs {:?}",
        it.y(),
        nt.y()
    );
}

/// A system whose RHS blows up: Newton fails with an error carrying t.
#[derive(Debug)]
struct Stiff;
impl OdeSystem for Stiff {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        d[0] = y[0] * y[0] * y[0] * 1e3;
        Ok(())
    }
}

#[test]
fn newton_failure_is_an_error_with_time() {
    let mut it = ImplicitIntegrator::new(1, ImplicitParams::new(ImplicitRule::Midpoint, 0.1));
    let r = it.integrate(&mut Stiff, 0.0, &[1.0], 10.0, &[], &mut ());
    match r {
        Err(Error::NewtonFailure { t, .. })
        | Err(Error::NonFinite { t })
        | Err(Error::SingularMatrix { t, .. }) => {
            assert_eq!(t, it.t());
        }
        other => panic!("expected a Newton failure, got {other:?}"),
    }
}

/// y' = −y plus a deterministic "round-off" of relative size `noise` (as a right-hand
/// side that solves an ill-conditioned system carries).
struct NoisyDecay {
    noise: f64,
}

impl OdeSystem for NoisyDecay {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        // a pseudo-random function of the bits of y: changes with every change of y
        let bits = y[0].to_bits().wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let r = (bits >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
        d[0] = -y[0] * (1.0 + self.noise * r);
        Ok(())
    }
}

/// Newton with tolerance 1e-12 on a right-hand side whose round-off is 1e-8 (5e-11
/// in the step equations at h = 0.01): the corrections stall at that floor, below
/// √ε, and the step counts as solved (it used to fail at the first step); the
/// result is as accurate as the right-hand side. Noise of 1e-4, far above √ε, is no
/// round-off: that step still fails with a Newton error.
#[test]
fn newton_stalled_at_the_round_off_floor_converges_and_a_real_failure_does_not() {
    let h = 1e-2;
    let run = |noise: f64| {
        let mut it = ImplicitIntegrator::new(1, ImplicitParams::new(ImplicitRule::Trapezoidal, h));
        let r = it.integrate(&mut NoisyDecay { noise }, 0.0, &[1.0], 1.0, &[], &mut ());
        (r, it.y()[0])
    };
    let (r, y) = run(1e-8);
    r.expect("round-off stall converges");
    // trapezoidal rule on y' = −y: ((1 − h/2)/(1 + h/2))^100
    let exact = ((1.0 - h / 2.0) / (1.0 + h / 2.0)).powi(100);
    assert!((y - exact).abs() < 1e-7, "{y} vs {exact}");
    let (r, _) = run(1e-4);
    assert!(
        matches!(r, Err(Error::NewtonFailure { .. })),
        "noise 1e-4 is not round-off: {r:?}"
    );
}
