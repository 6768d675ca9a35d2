//! Acceptance 1: observed order of convergence within ±0.3 of the theory for
//! every fixed-step method (and RK45/RK23/ABM run at fixed step).

mod common;
use common::*;
use mbs_integrators::*;
use std::f64::consts::PI;

const E: f64 = 0.5;

fn kepler_err(mut run: impl FnMut(&mut Kepler, &[f64]) -> Vec<f64>, t_end: f64) -> f64 {
    let y0 = Kepler::initial(E);
    let y = run(&mut Kepler::default(), &y0);
    max_err(&y, &Kepler::exact(E, t_end))
}

fn check(name: &str, errs: &[f64], p: f64) {
    let ord = orders(errs);
    println!("{name}: errors {errs:?}, orders {ord:.3?}");
    for o in &ord {
        assert!(
            (o - p).abs() <= 0.3,
            "{name}: observed order {o:.3}, expected {p}"
        );
    }
}

fn rk_errors(method: RkMethod, steps: &[usize]) -> Vec<f64> {
    let t_end = 2.0 * PI;
    steps
        .iter()
        .map(|&nst| {
            kepler_err(
                |sys, y0| {
                    let mut rk = EmbeddedRk::new(method, 4, RkParams::fixed(t_end / nst as f64));
                    let info = rk.integrate(sys, 0.0, y0, t_end, &[], &mut ()).unwrap();
                    assert_eq!(info.accepted_steps, nst);
                    assert_eq!(
                        info.rhs_evals,
                        1 + if method.order() == 5 { 6 } else { 3 } * nst
                    );
                    rk.y().to_vec()
                },
                t_end,
            )
        })
        .collect()
}

#[test]
fn rk45_fixed_step_is_fifth_order() {
    check(
        "RK45",
        &rk_errors(RkMethod::DormandPrince45, &[400, 800, 1600]),
        5.0,
    );
}

#[test]
fn rk23_fixed_step_is_third_order() {
    check(
        "RK23",
        &rk_errors(RkMethod::BogackiShampine23, &[800, 1600, 3200]),
        3.0,
    );
}

#[test]
fn adams_fixed_step_order_is_k_plus_one() {
    let t_end = 2.0 * PI;
    for (k, steps) in [
        (1usize, [800usize, 1600, 3200]),
        (2, [800, 1600, 3200]),
        (4, [800, 1600, 3200]),
    ] {
        let errs: Vec<f64> = steps
            .iter()
            .map(|&nst| {
                kepler_err(
                    |sys, y0| {
                        let p = AdamsParams {
                            fixed: Some((t_end / nst as f64, k)),
                            ..Default::default()
                        };
                        let mut ab = Adams::new(4, p);
                        let info = ab.integrate(sys, 0.0, y0, t_end, &[], &mut ()).unwrap();
                        assert_eq!(info.accepted_steps, nst);
                        ab.y().to_vec()
                    },
                    t_end,
                )
            })
            .collect();
        check(&format!("ABM k={k}"), &errs, k as f64 + 1.0);
    }
}

#[test]
fn implicit_rules_are_second_order() {
    let t_end = 2.0 * PI;
    for rule in [ImplicitRule::Midpoint, ImplicitRule::Trapezoidal] {
        let errs: Vec<f64> = [400usize, 800, 1600]
            .iter()
            .map(|&nst| {
                kepler_err(
                    |sys, y0| {
                        let mut it = ImplicitIntegrator::new(
                            4,
                            ImplicitParams::new(rule, t_end / nst as f64),
                        );
                        it.integrate(sys, 0.0, y0, t_end, &[], &mut ()).unwrap();
                        it.y().to_vec()
                    },
                    t_end,
                )
            })
            .collect();
        check(&format!("{rule:?}"), &errs, 2.0);
    }
    // Non-autonomous problem too (time argument of the rules).
    for rule in [ImplicitRule::Midpoint, ImplicitRule::Trapezoidal] {
        let errs: Vec<f64> = [50usize, 100, 200]
            .iter()
            .map(|&nst| {
                let mut it =
                    ImplicitIntegrator::new(1, ImplicitParams::new(rule, 2.0 / nst as f64));
                it.integrate(&mut Riccati, 0.0, &[1.0], 2.0, &[], &mut ())
                    .unwrap();
                (it.y()[0] - 0.2).abs()
            })
            .collect();
        check(&format!("{rule:?} Riccati"), &errs, 2.0);
    }
}

fn partitioned_errs<S: PartitionedSystem>(
    mut make: impl FnMut() -> S,
    staggered: bool,
    x0: &[f64],
    v0: &[f64],
    t_end: f64,
    exact: &[f64],
    steps: &[usize],
) -> Vec<f64> {
    steps
        .iter()
        .map(|&nst| {
            let mut sys = make();
            let p = StaggeredParams::new(t_end / nst as f64);
            let (x, v) = if staggered {
                let mut it = TwoStageStaggered::new(x0.len(), v0.len(), p);
                it.integrate(&mut sys, 0.0, x0, v0, t_end, &[], &mut ())
                    .unwrap();
                assert_eq!(it.info().rhs_evals, 2 * nst + 2);
                (it.x().to_vec(), it.v().to_vec())
            } else {
                let mut it = CentralDifference::new(x0.len(), v0.len(), p);
                it.integrate(&mut sys, 0.0, x0, v0, t_end, &[], &mut ())
                    .unwrap();
                assert_eq!(it.info().rhs_evals, nst + 1);
                (it.x().to_vec(), it.v().to_vec())
            };
            let mut y = x;
            y.extend(v);
            max_err(&y, exact)
        })
        .collect()
}

#[test]
fn central_difference_orders() {
    let y0 = Kepler::initial(E);
    let t_end = 2.0 * PI;
    let errs = partitioned_errs(
        || KeplerPartitioned,
        false,
        &y0[..2],
        &y0[2..],
        t_end,
        &Kepler::exact(E, t_end),
        &[800, 1600, 3200],
    );
    check("central difference, Kepler", &errs, 2.0);
    // Velocity-dependent accelerations with vⁿ ≈ v^{n−½}: first order.
    let d = Damped { c: 0.5 };
    let errs = partitioned_errs(
        || Damped { c: 0.5 },
        false,
        &[1.0],
        &[0.0],
        5.0,
        &d.exact(5.0),
        &[800, 1600, 3200],
    );
    check("central difference, damped (lagged velocity)", &errs, 1.0);
}

#[test]
fn two_stage_staggered_is_second_order() {
    let y0 = Kepler::initial(E);
    let t_end = 2.0 * PI;
    let errs = partitioned_errs(
        || KeplerPartitioned,
        true,
        &y0[..2],
        &y0[2..],
        t_end,
        &Kepler::exact(E, t_end),
        &[800, 1600, 3200],
    );
    check("two-stage, Kepler", &errs, 2.0);
    let d = Damped { c: 0.5 };
    let errs = partitioned_errs(
        || Damped { c: 0.5 },
        true,
        &[1.0],
        &[0.0],
        5.0,
        &d.exact(5.0),
        &[200, 400, 800],
    );
    check("two-stage, damped", &errs, 2.0);
}
