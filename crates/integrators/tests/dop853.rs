//! DOP853 (Dormand–Prince 8(5,3), Hairer's `dop853.f`) against values we did not
//! compute: the Arenstorf orbit's period (Hairer, Nørsett & Wanner, *Solving ODEs
//! I*, eq II.0.1), the order 8 of the method and the order 7 of its dense output
//! on problems with exact solutions.

mod common;
use common::*;
use mbs_integrators::*;
use std::f64::consts::PI;

/// The restricted three-body problem of Arenstorf (Hairer–Nørsett–Wanner I,
/// eq II.0.1): a satellite in the rotating frame of earth and moon.
struct Arenstorf;

/// Moon mass ratio μ of eq II.0.1.
const MU: f64 = 0.012277471;
/// Initial value of eq II.0.1 (x, y, x', y') and the orbit's period (II.0.2),
/// with the book's digits.
#[allow(clippy::excessive_precision)]
const Y0: [f64; 4] = [0.994, 0.0, 0.0, -2.001_585_106_379_082_522_405_378_622_24];
#[allow(clippy::excessive_precision)]
const PERIOD: f64 = 17.065_216_560_157_962_558_891_720_624_9;

impl OdeSystem for Arenstorf {
    fn dim(&self) -> usize {
        4
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        let mu1 = 1.0 - MU;
        let d1 = ((y[0] + MU).powi(2) + y[1] * y[1]).powf(1.5);
        let d2 = ((y[0] - mu1).powi(2) + y[1] * y[1]).powf(1.5);
        d[0] = y[2];
        d[1] = y[3];
        d[2] = y[0] + 2.0 * y[3] - mu1 * (y[0] + MU) / d1 - MU * (y[0] - mu1) / d2;
        d[3] = y[1] - 2.0 * y[2] - mu1 * y[1] / d1 - MU * y[1] / d2;
        Ok(())
    }
}

/// One period of the Arenstorf orbit closes within a tolerance proportional to
/// rtol, and at rtol = 1e-10 DOP853 needs far fewer steps than RK45.
#[test]
fn arenstorf_orbit_closes_after_one_period() {
    for (tol, bound) in [(1e-7, 1e-3), (1e-10, 1e-6)] {
        let mut rk = EmbeddedRk::dop853(4, RkParams::with_tol(tol, tol));
        let info = rk
            .integrate(&mut Arenstorf, 0.0, &Y0, PERIOD, &[], &mut ())
            .unwrap();
        let err = max_err(rk.y(), &Y0);
        let mut rk45 = EmbeddedRk::rk45(4, RkParams::with_tol(tol, tol));
        let i45 = rk45
            .integrate(&mut Arenstorf, 0.0, &Y0, PERIOD, &[], &mut ())
            .unwrap();
        println!(
            "rtol {tol:e}: DOP853 error {err:.3e}, {} steps ({} rejected), {} f; RK45 error {:.3e}, {} steps, {} f",
            info.accepted_steps,
            info.rejected_steps,
            info.rhs_evals,
            max_err(rk45.y(), &Y0),
            i45.accepted_steps,
            i45.rhs_evals
        );
        assert!(err < bound, "rtol {tol:e}: error {err:e} ≥ {bound:e}");
        assert!(
            tol > 1e-9 || 4 * info.accepted_steps < i45.accepted_steps,
            "rtol {tol:e}: {} DOP853 steps vs {} RK45 steps",
            info.accepted_steps,
            i45.accepted_steps
        );
        // 12 evaluations per attempted step plus the first.
        assert_eq!(
            info.rhs_evals,
            1 + 12 * (info.accepted_steps + info.rejected_steps)
        );
    }
}

/// Fixed-step global error on the Kepler problem (e = 0.1, exact solution from
/// Kepler's equation) falls as h⁸.
#[test]
fn fixed_step_is_eighth_order() {
    let e = 0.1;
    let t_end = 2.0 * PI;
    // Above 80 steps the error reaches rounding (~3e-14).
    let errs: Vec<f64> = [20, 40, 80]
        .iter()
        .map(|&nst| {
            let mut rk = EmbeddedRk::dop853(4, RkParams::fixed(t_end / nst as f64));
            let info = rk
                .integrate(
                    &mut Kepler::default(),
                    0.0,
                    &Kepler::initial(e),
                    t_end,
                    &[],
                    &mut (),
                )
                .unwrap();
            assert_eq!(info.accepted_steps, nst);
            assert_eq!(info.rhs_evals, 1 + 12 * nst);
            max_err(rk.y(), &Kepler::exact(e, t_end))
        })
        .collect();
    let ord = orders(&errs);
    println!("DOP853 fixed step: errors {errs:?}, orders {ord:.3?}");
    for o in ord {
        assert!(
            (7.5..=8.5).contains(&o),
            "observed order {o:.3}, expected 8"
        );
    }
}

/// Output times at "random" fractions of the steps (a Weyl sequence).
fn sample_times(t_end: f64, count: usize) -> Vec<f64> {
    let g = 0.5 * (5f64.sqrt() - 1.0);
    let mut t: Vec<f64> = (1..=count)
        .map(|i| t_end * ((i as f64 * g).fract() * 0.999 + 0.0005))
        .collect();
    t.sort_by(f64::total_cmp);
    t
}

/// Largest error of the dense output at `t_out` with fixed step `h`.
fn dense_error(
    sys: &mut impl OdeSystem,
    y0: &[f64],
    t_end: f64,
    h: f64,
    exact: impl Fn(f64) -> Vec<f64>,
) -> f64 {
    let t_out = sample_times(t_end, 97);
    let mut rec = Recorder::default();
    let mut rk = EmbeddedRk::dop853(y0.len(), RkParams::fixed(h));
    rk.integrate(sys, 0.0, y0, t_end, &t_out, &mut rec).unwrap();
    assert_eq!(rec.t, t_out);
    t_out
        .iter()
        .enumerate()
        .map(|(i, &t)| max_err(&rec.y[i * y0.len()..(i + 1) * y0.len()], &exact(t)))
        .fold(0.0, f64::max)
}

/// The dense output at points inside the steps converges with order ≥ 7
/// (harmonic oscillator y = (cos t, −sin t); the non-autonomous Riccati problem
/// y' = −2ty², y = 1/(1 + t²), checks the extra stages' nodes).
#[test]
fn dense_output_is_seventh_order() {
    let osc = |h| {
        dense_error(&mut Oscillator, &[1.0, 0.0], 10.0, h, |t| {
            vec![t.cos(), -t.sin()]
        })
    };
    let ric = |h| dense_error(&mut Riccati, &[1.0], 4.0, h, |t| vec![1.0 / (1.0 + t * t)]);
    for (name, errs) in [
        ("oscillator", [osc(0.5), osc(0.25)]),
        ("riccati", [ric(0.4), ric(0.2)]),
    ] {
        let ord = orders(&errs)[0];
        println!("{name}: dense output errors {errs:?}, order {ord:.3}");
        assert!(ord >= 6.7, "{name}: dense output order {ord:.3}");
    }
}

/// The dense output of each step starts at the step's initial state and ends at
/// its final state (up to rounding), and the extra stages are evaluated only
/// for steps with an output time inside.
#[test]
fn dense_output_matches_step_end_points() {
    let y0 = Kepler::initial(0.6);
    let mut sys = Kepler::default();
    let mut rk = EmbeddedRk::dop853(4, RkParams::with_tol(1e-9, 1e-9));
    Stepper::<Kepler>::init(&mut rk, &sys, 0.0, &y0).unwrap();
    rk.start(&mut sys, 10.0).unwrap();
    let mut checked = 0;
    loop {
        let (t0, start) = (rk.t(), rk.y().to_vec());
        let step = rk.step(&mut sys, 10.0).unwrap();
        let Step::Accepted { last } = step else {
            continue;
        };
        Stepper::<Kepler>::complete(&mut rk, &mut sys).unwrap();
        let before = rk.info().rhs_evals;
        Stepper::<Kepler>::prepare_interpolation(&mut rk, &mut sys).unwrap();
        assert_eq!(rk.info().rhs_evals, before + 3);
        let t1 = rk.t();
        let end = rk.y().to_vec();
        let at0 = Stepper::<Kepler>::interpolate(&mut rk, t0).to_vec();
        let at1 = Stepper::<Kepler>::interpolate(&mut rk, t1).to_vec();
        let scale = 1.0 + end.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(
            max_err(&at0, &start) <= 1e-14 * scale,
            "{at0:?} vs {start:?}"
        );
        assert!(max_err(&at1, &end) <= 1e-14 * scale, "{at1:?} vs {end:?}");
        checked += 1;
        if last {
            break;
        }
    }
    assert!(checked > 10, "{checked} steps");
    // Through the driver: three extra evaluations per step holding output times.
    let mut rk = EmbeddedRk::dop853(4, RkParams::fixed(0.1));
    let t_out = [0.05, 0.06, 0.25, 0.3, 0.95];
    let info = rk
        .integrate(&mut sys, 0.0, &y0, 1.0, &t_out, &mut ())
        .unwrap();
    // Steps [0, 0.1], [0.2, 0.3], [0.9, 1.0] hold interior output times (0.3 is
    // a step end point, delivered without interpolation).
    assert_eq!(info.rhs_evals, 1 + 12 * 10 + 3 * 3);
}
