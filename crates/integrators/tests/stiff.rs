//! The implicit adaptive integrators (RADAU5, BDF) and their Newton matrices:
//! order of convergence, dense output, stiff efficiency against DOP853, the
//! coloured finite-difference Jacobian, sparse against dense factorization, the
//! driver seam and the error paths.

mod stiff_problems;
use mbs_integrators::*;
use stiff_problems::*;

/// `y' = −y + sin t`... a smooth nonstiff problem with exact solution
/// `y = ((y₀ + ½) e^{−t} + ½(sin t − cos t))`.
struct Smooth;
impl Smooth {
    fn exact(t: f64) -> f64 {
        1.5 * (-t).exp() + 0.5 * (t.sin() - t.cos())
    }
}
impl OdeSystem for Smooth {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&mut self, t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        d[0] = -y[0] + t.sin();
        Ok(())
    }
}

/// Radau IIA converges with order 5 at constant steps (Hairer–Wanner II,
/// Theorem IV.5.3: order 2s − 1): halving h divides the error by about 32.
#[test]
fn radau5_is_fifth_order() {
    let err = |h: f64| {
        let mut r = Radau5::new(
            1,
            Radau5Params {
                h0: Some(h),
                h_max: Some(h),
                fnewt: Some(1e-12),
                ..Radau5Params::with_tol(1.0, 1.0)
            },
        );
        let info = r
            .integrate(&mut Smooth, 0.0, &[1.0], 4.0, &[], &mut ())
            .unwrap();
        assert_eq!(info.accepted_steps, (4.0 / h).round() as usize);
        (r.y()[0] - Smooth::exact(4.0)).abs()
    };
    let (e1, e2) = (err(0.4), err(0.2));
    let order = (e1 / e2).log2();
    println!("radau5 errors {e1:e} {e2:e}, order {order:.2}");
    assert!((4.6..5.6).contains(&order), "observed order {order}");
}

/// Tolerance proportionality: tightening the tolerance 10⁴× shrinks the error at
/// least 10²×, for both.
#[test]
fn errors_follow_the_tolerance() {
    let run = |which: &str, tol: f64| {
        let choice = IntegratorChoice::from_name(which, Some(tol), Some(tol), None).unwrap();
        let mut st = choice
            .ode_stepper::<Smooth>(1, &StepperSettings::default())
            .unwrap();
        drive(&mut *st, &mut Smooth, 0.0, &[1.0], 10.0, &[], &mut ()).unwrap();
        (st.y()[0] - Smooth::exact(10.0)).abs()
    };
    for which in ["radau5", "bdf"] {
        let (loose, tight) = (run(which, 1e-4), run(which, 1e-8));
        println!("{which}: error {loose:e} at 1e-4, {tight:e} at 1e-8");
        assert!(
            loose < 1e-3 && tight < 1e-7 && tight * 100.0 < loose,
            "{which}"
        );
    }
}

/// Dense output between steps is accurate to the tolerance (RADAU5: the
/// collocation polynomial; BDF: the difference-array interpolant).
#[test]
fn dense_output_between_steps() {
    let t_out: Vec<f64> = (0..=1000).map(|i| i as f64 * 0.01).collect();
    for which in ["radau5", "bdf"] {
        let choice: IntegratorChoice = format!("{which}:rtol=1e-8:atol=1e-10").parse().unwrap();
        let mut st = choice
            .ode_stepper::<Smooth>(1, &StepperSettings::default())
            .unwrap();
        let mut rec = Recorder::new();
        let info = drive(&mut *st, &mut Smooth, 0.0, &[1.0], 10.0, &t_out, &mut rec).unwrap();
        assert!(
            info.accepted_steps < t_out.len(),
            "{which}: outputs fall inside steps"
        );
        let worst = rec
            .t
            .iter()
            .enumerate()
            .map(|(i, &t)| (rec.state(i)[0] - Smooth::exact(t)).abs())
            .fold(0.0, f64::max);
        println!(
            "{which}: {} steps, dense-output error {worst:e}",
            info.accepted_steps
        );
        assert!(worst < 1e-6, "{which}: dense output error {worst:e}");
    }
}

/// A stiff linear system (eigenvalues 1 … 1e4): the implicit methods need orders
/// of magnitude fewer right-hand sides than DOP853 at the same tolerance, and
/// agree with the exact solution.
#[test]
fn stiff_linear_costs_far_less_than_dop853() {
    let n = 10;
    let y0 = vec![2.0; n];
    let exact = StiffLinear::new(n, 1e4).exact(10.0, &y0);
    let mut counts = Vec::new();
    for which in ["dop853", "radau5", "bdf"] {
        let choice = IntegratorChoice::from_name(which, Some(1e-6), Some(1e-8), None).unwrap();
        let mut sys = StiffLinear::new(n, 1e4);
        let mut st = choice
            .ode_stepper::<StiffLinear>(n, &StepperSettings::default())
            .unwrap();
        let info = drive(&mut *st, &mut sys, 0.0, &y0, 10.0, &[], &mut ()).unwrap();
        let err = st
            .y()
            .iter()
            .zip(&exact)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        println!("{which}: {info:?}, error {err:e}");
        assert!(err < 1e-4, "{which}: error {err:e}");
        counts.push(info.rhs_evals);
    }
    assert!(
        counts[1] * 50 < counts[0],
        "radau5 {} vs dop853 {}",
        counts[1],
        counts[0]
    );
    assert!(
        counts[2] * 50 < counts[0],
        "bdf {} vs dop853 {}",
        counts[2],
        counts[0]
    );
}

/// The coloured forward-difference Jacobian of a tridiagonal system equals the
/// column-by-column one, at one right-hand side per colour (3, for any n).
#[test]
fn coloured_jacobian_equals_dense() {
    let n = 40;
    let y: Vec<f64> = (0..n).map(|i| (i as f64 * 0.3).sin()).collect();
    let mut sys = Banded {
        n,
        kappa: 100.0,
        declare: true,
        evals: 0,
    };
    let mut f0 = vec![0.0; n];
    sys.rhs(0.3, &y, &mut f0).unwrap();
    let pattern = sys.jacobian_sparsity();
    let mut results = Vec::new();
    for (p, solver) in [
        (None, LinearSolver::Dense),
        (pattern.clone(), LinearSolver::Dense),
        (pattern, LinearSolver::Sparse),
    ] {
        let mut jac = Jacobian::new(n, p, solver).unwrap();
        let mut info = Info::default();
        jac.evaluate(&mut sys, 0.3, &y, &f0, &mut info).unwrap();
        assert_eq!(info.rhs_evals, jac.colours());
        assert_eq!(info.jacobian_evals, 1);
        results.push(jac);
    }
    assert_eq!(results[0].colours(), n);
    assert_eq!(results[1].colours(), 3);
    assert!(results[2].is_sparse() && !results[1].is_sparse());
    for i in 0..n {
        for j in 0..n {
            let d = results[0].entry(i, j);
            // the exact Jacobian: κ on the off-diagonals, −2κ − 3y² on the diagonal
            let exact = if i == j {
                -200.0 - 3.0 * y[i] * y[i]
            } else if i.abs_diff(j) == 1 {
                100.0
            } else {
                0.0
            };
            assert!((d - exact).abs() < 1e-5, "({i}, {j}): {d} vs {exact}");
            for other in &results[1..] {
                assert!((other.entry(i, j) - d).abs() < 1e-5, "({i}, {j})");
            }
        }
    }
}

/// Sparse (faer) and dense LU give the same trajectory, for both integrators, and
/// the pattern cuts the right-hand sides spent on Jacobians.
#[test]
fn sparse_and_dense_factorizations_agree() {
    let n = 150;
    let y0: Vec<f64> = (0..n).map(|i| (i as f64 / n as f64 * 3.0).sin()).collect();
    for which in ["radau5", "bdf"] {
        let mut finals = Vec::new();
        for (declare, solver) in [
            (false, LinearSolver::Dense),
            (true, LinearSolver::Dense),
            (true, LinearSolver::Sparse),
            (true, LinearSolver::Auto),
        ] {
            let mut sys = Banded {
                n,
                kappa: 1e4,
                declare,
                evals: 0,
            };
            let (info, y, sparse) = if which == "radau5" {
                let mut r = Radau5::new(
                    n,
                    Radau5Params {
                        linear_solver: solver,
                        ..Radau5Params::with_tol(1e-6, 1e-8)
                    },
                );
                let info = r.integrate(&mut sys, 0.0, &y0, 2.0, &[], &mut ()).unwrap();
                (info, r.y().to_vec(), r.is_sparse())
            } else {
                let mut b = Bdf::new(
                    n,
                    BdfParams {
                        linear_solver: solver,
                        ..BdfParams::with_tol(1e-6, 1e-8)
                    },
                );
                let info = b.integrate(&mut sys, 0.0, &y0, 2.0, &[], &mut ()).unwrap();
                (info, b.y().to_vec(), b.is_sparse())
            };
            println!("{which} declare={declare} {solver:?} sparse={sparse}: {info:?}");
            assert_eq!(sparse, declare && solver != LinearSolver::Dense);
            finals.push((info, y));
        }
        let (i0, y0f) = &finals[0];
        for (info, y) in &finals[1..] {
            let d = y
                .iter()
                .zip(y0f)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            assert!(d < 1e-6, "{which}: trajectories differ by {d:e}");
            assert!(
                info.rhs_evals < i0.rhs_evals,
                "{which}: colouring saves right-hand sides"
            );
        }
        // sparse and dense factorization of the same Jacobians: the same steps
        assert_eq!(finals[1].0.accepted_steps, finals[2].0.accepted_steps);
    }
}

/// A system whose right-hand side blows up beyond t = 1: the step shrinks until it
/// collapses, reported as an error (not a panic), with the last good state kept.
struct BlowUp;
impl OdeSystem for BlowUp {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&mut self, t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        d[0] = if t > 1.0 { f64::NAN } else { -y[0] };
        Ok(())
    }
}

#[test]
fn failing_newton_shrinks_the_step_and_errors_cleanly() {
    for which in ["radau5", "bdf"] {
        let choice: IntegratorChoice = which.parse().unwrap();
        let mut st = choice
            .ode_stepper::<BlowUp>(1, &StepperSettings::default())
            .unwrap();
        let e = drive(&mut *st, &mut BlowUp, 0.0, &[1.0], 2.0, &[], &mut ()).unwrap_err();
        println!("{which}: {e}");
        assert!(
            matches!(e, Error::NewtonFailure { t, .. } | Error::StepSizeUnderflow { t, .. } if (t - 1.0).abs() < 1e-6),
            "{which}: {e:?}"
        );
        assert!(st.info().rejected_steps > 5);
        assert!(st.t() <= 1.0 && (st.y()[0] - (-st.t()).exp()).abs() < 1e-5);
    }
}

#[test]
fn bad_input_is_an_error() {
    let mut r = Radau5::new(2, Radau5Params::with_tol(-1e-6, 1e-6));
    let e = r
        .integrate(
            &mut VanDerPol::default(),
            0.0,
            &[2.0, 0.0],
            1.0,
            &[],
            &mut (),
        )
        .unwrap_err();
    assert!(
        e.to_string().contains("rtol") && e.to_string().contains("-0.000001"),
        "{e}"
    );
    let mut b = Bdf::new(2, BdfParams::with_tol(1e-6, -1.0));
    let e = b
        .integrate(
            &mut VanDerPol::default(),
            0.0,
            &[2.0, 0.0],
            1.0,
            &[],
            &mut (),
        )
        .unwrap_err();
    assert!(e.to_string().contains("absolute tolerance"), "{e}");
    for which in ["radau5", "bdf"] {
        let choice: IntegratorChoice = which.parse().unwrap();
        let mut st = choice
            .ode_stepper::<VanDerPol>(2, &StepperSettings::default())
            .unwrap();
        let e = drive(
            &mut *st,
            &mut VanDerPol::default(),
            0.0,
            &[2.0, f64::NAN],
            1.0,
            &[],
            &mut (),
        )
        .unwrap_err();
        assert!(e.to_string().contains("y0[1]"), "{which}: {e}");
        let e = drive(
            &mut *st,
            &mut VanDerPol::default(),
            0.0,
            &[2.0],
            1.0,
            &[],
            &mut (),
        )
        .unwrap_err();
        assert!(e.to_string().contains("length 1"), "{which}: {e}");
    }
    let e = JacobianPattern::new(3, vec![0, 1, 1, 2], vec![0, 5]).unwrap_err();
    assert!(e.to_string().contains("row 5"), "{e}");
    let e = JacobianPattern::from_entries(2, [(0, 2)]).unwrap_err();
    assert!(e.to_string().contains("(0, 2)"), "{e}");
    let mut sys = Banded {
        n: 4,
        kappa: 1.0,
        declare: true,
        evals: 0,
    };
    let mut r = Radau5::new(5, Radau5Params::default());
    let e = r
        .integrate(&mut sys, 0.0, &[0.0; 5], 1.0, &[], &mut ())
        .unwrap_err();
    assert!(e.to_string().contains("system dimension"), "{e}");
}

/// Backward in time, with a projection hook that changes the state (RADAU5 keeps
/// its starting values as increments; BDF replaces D₀).
#[test]
fn projection_and_backward_integration() {
    /// Decay `y' = −y` whose projection rounds `y` to 1e-9 (a tiny change).
    struct Rounding;
    impl OdeSystem for Rounding {
        fn dim(&self) -> usize {
            1
        }
        fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
            d[0] = -y[0];
            Ok(())
        }
        fn project(&mut self, _t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
            let r = (y[0] * 1e9).round() / 1e9;
            let changed = r != y[0];
            y[0] = r;
            Ok(changed)
        }
    }
    for which in ["radau5", "bdf"] {
        let choice: IntegratorChoice = format!("{which}:rtol=1e-8:atol=1e-10").parse().unwrap();
        let mut st = choice
            .ode_stepper::<Rounding>(1, &StepperSettings::default())
            .unwrap();
        let info = drive(&mut *st, &mut Rounding, 2.0, &[1.0], 0.0, &[1.0], &mut ()).unwrap();
        let want = 2f64.exp();
        println!("{which} backward: {info:?}, y(0) = {}", st.y()[0]);
        assert!(info.projections_applied > 0);
        assert!(
            (st.y()[0] - want).abs() < 1e-6 * want,
            "{which}: {}",
            st.y()[0]
        );
    }
}

/// `y' = y²` with a declared difference step: the forward difference of a
/// quadratic is exact up to the step, `(f(y + δ) − f(y))/δ = 2y + δ`, so the
/// Jacobian shows which step was taken ([`OdeSystem::difference_step`]).
struct Square(Option<f64>);
impl OdeSystem for Square {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        d[0] = y[0] * y[0];
        Ok(())
    }
    fn difference_step(&self) -> Option<f64> {
        self.0
    }
}

#[test]
fn finite_differences_take_the_declared_step() {
    for (step, expected) in [(Some(1e-3), 1e-3), (None, f64::EPSILON.sqrt())] {
        let mut sys = Square(step);
        let mut jac = Jacobian::new(1, None, LinearSolver::Dense).unwrap();
        let mut info = Info::default();
        let (y, mut f0) = ([1.0], [0.0]);
        sys.rhs(0.0, &y, &mut f0).unwrap();
        jac.evaluate(&mut sys, 0.0, &y, &f0, &mut info).unwrap();
        let taken = jac.entry(0, 0) - 2.0;
        assert!(
            (taken - expected).abs() < 1e-3 * expected + 1e-15,
            "step {step:?}: J − 2y = {taken:e}, expected {expected:e}"
        );
        assert_eq!((info.jacobian_evals, info.rhs_evals), (1, 1));
    }
}

/// RADAU5's Jacobian reuse: a finite-difference Jacobian dearer than a step
/// (40 columns, no declared pattern) is kept while Newton converges at a rate up
/// to `thet_costly` = 0.1; RADAU5's own `thet` = 0.001 recomputes it after most
/// steps. Declared tridiagonal (3 colours), the cheap Jacobian keeps RADAU5's
/// policy whatever `thet_costly` says. Both land on the same solution.
#[test]
fn radau5_keeps_a_costly_jacobian_longer() {
    let run = |declare: bool, thet_costly: f64| {
        let mut sys = Banded {
            n: 40,
            kappa: 400.0,
            declare,
            evals: 0,
        };
        let y0: Vec<f64> = (0..40).map(|i| (i as f64 * 0.2).sin()).collect();
        let mut r = Radau5::new(
            40,
            Radau5Params {
                thet_costly,
                linear_solver: LinearSolver::Dense,
                ..Radau5Params::with_tol(1e-6, 1e-8)
            },
        );
        let info = r.integrate(&mut sys, 0.0, &y0, 5.0, &[], &mut ()).unwrap();
        (info, r.y().to_vec())
    };
    let (radau, y_radau) = run(false, 0.0);
    let (costly, y_costly) = run(false, 0.1);
    println!("dense FD Jacobian: RADAU5's thet {radau:?}\n thet_costly 0.1 {costly:?}");
    assert!(
        2 * costly.jacobian_evals <= radau.jacobian_evals && costly.rhs_evals < radau.rhs_evals,
        "{costly:?} against {radau:?}"
    );
    let diff = y_radau
        .iter()
        .zip(&y_costly)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(diff < 1e-5, "solutions differ by {diff:e}");
    let (cheap_a, _) = run(true, 0.0);
    let (cheap_b, _) = run(true, 0.1);
    assert_eq!(cheap_a, cheap_b, "a 3-colour Jacobian is not costly");
}
