//! The one driver: a stepper built from an `IntegratorChoice` runs exactly as the
//! integrator's own `integrate`; the driver's projection schedule skips the
//! fixed-step Adams starter steps; its step limit counts attempts.

mod common;
use common::*;
use mbs_integrators::*;

fn settings(project_every: usize) -> StepperSettings {
    StepperSettings {
        project_every,
        ..StepperSettings::default()
    }
}

/// The harmonic oscillator with a projection back onto the unit circle.
#[derive(Debug, Default)]
struct Circle {
    projections: usize,
}

impl OdeSystem for Circle {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&mut self, t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        Oscillator.rhs(t, y, d)
    }
    fn project(&mut self, _t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        self.projections += 1;
        let r = (y[0] * y[0] + y[1] * y[1]).sqrt();
        y[0] /= r;
        y[1] /= r;
        Ok(true)
    }
}

#[test]
fn choice_steppers_run_as_the_integrators() {
    let y0 = Kepler::initial(0.5);
    let t_out: Vec<f64> = (0..=40).map(|i| 0.1 * i as f64).collect();
    let choices = [
        "rk45:rtol=1e-8",
        "rk23:rtol=1e-6",
        "dop853:rtol=1e-10",
        "adams:rtol=1e-8",
        "midpoint:h=0.01",
        "trapezoidal:h=0.01",
    ];
    for name in choices {
        let choice: IntegratorChoice = name.parse().unwrap();
        let mut stepper = choice.ode_stepper(4, &settings(1)).unwrap();
        let mut rec = Recorder::new();
        let info = drive(
            &mut *stepper,
            &mut Kepler::default(),
            0.0,
            &y0,
            4.0,
            &t_out,
            &mut rec,
        )
        .unwrap();
        let mut direct = Recorder::new();
        let want = match choice {
            IntegratorChoice::Rk45 { .. } => EmbeddedRk::rk45(4, RkParams::with_tol(1e-8, 1e-8))
                .integrate(&mut Kepler::default(), 0.0, &y0, 4.0, &t_out, &mut direct),
            IntegratorChoice::Rk23 { .. } => EmbeddedRk::rk23(4, RkParams::with_tol(1e-6, 1e-6))
                .integrate(&mut Kepler::default(), 0.0, &y0, 4.0, &t_out, &mut direct),
            IntegratorChoice::Dop853 { .. } => EmbeddedRk::dop853(
                4,
                RkParams::with_tol(1e-10, 1e-10),
            )
            .integrate(&mut Kepler::default(), 0.0, &y0, 4.0, &t_out, &mut direct),
            IntegratorChoice::Adams { .. } => Adams::new(4, AdamsParams::with_tol(1e-8, 1e-8))
                .integrate(&mut Kepler::default(), 0.0, &y0, 4.0, &t_out, &mut direct),
            IntegratorChoice::Midpoint { h } | IntegratorChoice::Trapezoidal { h } => {
                let rule = if matches!(choice, IntegratorChoice::Midpoint { .. }) {
                    ImplicitRule::Midpoint
                } else {
                    ImplicitRule::Trapezoidal
                };
                ImplicitIntegrator::new(4, ImplicitParams::new(rule, h)).integrate(
                    &mut Kepler::default(),
                    0.0,
                    &y0,
                    4.0,
                    &t_out,
                    &mut direct,
                )
            }
            _ => unreachable!(),
        }
        .unwrap();
        assert_eq!(info, want, "{name}");
        assert!(info.accepted_steps > 10, "{name}: {info:?}");
        assert_eq!(rec.t, t_out, "{name}");
        assert_eq!(rec.y, direct.y, "{name}: samples differ");
        assert!((stepper.t() - 4.0).abs() == 0.0, "{name}");
    }
}

#[test]
fn partitioned_choice_steppers_run_as_the_integrators() {
    let y0 = Kepler::initial(0.5);
    let t_out: Vec<f64> = (0..=40).map(|i| 0.1 * i as f64).collect();
    for choice in [
        IntegratorChoice::CentralDifference { h: 0.005 },
        IntegratorChoice::Staggered { h: 0.005 },
    ] {
        let mut stepper = choice.partitioned_stepper(2, 2, &settings(0)).unwrap();
        let mut rec = Recorder::new();
        let info = drive(
            &mut *stepper,
            &mut KeplerPartitioned,
            0.0,
            &y0,
            4.0,
            &t_out,
            &mut rec,
        )
        .unwrap();
        let mut direct = Recorder::new();
        let p = StaggeredParams {
            project_every: 0,
            ..StaggeredParams::new(0.005)
        };
        let (x0, v0) = (&y0[..2], &y0[2..]);
        let mut sys = KeplerPartitioned;
        let want = match choice {
            IntegratorChoice::CentralDifference { .. } => CentralDifference::new(2, 2, p)
                .integrate(&mut sys, 0.0, x0, v0, 4.0, &t_out, &mut direct),
            _ => TwoStageStaggered::new(2, 2, p).integrate(
                &mut sys,
                0.0,
                x0,
                v0,
                4.0,
                &t_out,
                &mut direct,
            ),
        }
        .unwrap();
        assert_eq!(info, want, "{choice}");
        assert_eq!(info.accepted_steps, 800, "{choice}");
        assert_eq!(rec.y, direct.y, "{choice}: samples differ");
        // The observer sees y = [x, v].
        assert_eq!(rec.state(0), &y0[..], "{choice}");
    }
}

#[test]
fn a_choice_of_the_wrong_kind_is_refused_by_name() {
    let staggered = IntegratorChoice::Staggered { h: 0.01 };
    let e = staggered
        .ode_stepper::<Kepler>(4, &settings(1))
        .err()
        .unwrap();
    assert!(
        matches!(&e, Error::InvalidInput(m) if m.contains("staggered") && m.contains("partitioned")),
        "{e}"
    );
    let rk = IntegratorChoice::default();
    let e = rk
        .partitioned_stepper::<KeplerPartitioned>(2, 2, &settings(1))
        .err()
        .unwrap();
    assert!(
        matches!(&e, Error::InvalidInput(m) if m.contains("rk45")),
        "{e}"
    );
}

/// Fixed-step Adams of order 4 starts with 3 Dormand–Prince steps, which are
/// observed but never projected; every later step is.
#[test]
fn starter_steps_are_not_projected() {
    let mut ab = Adams::new(
        2,
        AdamsParams {
            fixed: Some((0.01, 4)),
            project_every: 1,
            ..AdamsParams::default()
        },
    );
    let mut sys = Circle::default();
    let mut rec = Recorder {
        record_steps: true,
        ..Recorder::new()
    };
    let info = ab
        .integrate(&mut sys, 0.0, &[1.0, 0.0], 1.0, &[], &mut rec)
        .unwrap();
    assert_eq!(info.accepted_steps, 100);
    assert_eq!(rec.t.len(), 100, "every step is observed");
    assert_eq!(info.projections, 97);
    assert_eq!(info.projections_applied, 97);
    assert_eq!(sys.projections, 97);
}

/// The limit counts attempted steps; the error carries the last accepted time.
#[test]
fn step_limit_counts_attempts() {
    let p = RkParams {
        max_steps: 7,
        ..RkParams::with_tol(1e-10, 1e-10)
    };
    let mut rk = EmbeddedRk::rk45(4, p);
    let y0 = Kepler::initial(0.9);
    let r = rk.integrate(&mut Kepler::default(), 0.0, &y0, 10.0, &[], &mut ());
    let info = rk.info();
    assert!(
        matches!(r, Err(Error::TooManySteps { t, max_steps: 7 }) if t == rk.t() && t > 0.0),
        "{r:?}"
    );
    assert_eq!(info.accepted_steps + info.rejected_steps, 7, "{info:?}");
}
