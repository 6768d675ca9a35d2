//! Acceptance 5 (projection hook frequency and count) and the common
//! behaviour of every integrator: observer, early stop, errors with partial
//! results, dense output, backward integration.

mod common;
use common::*;
use mbs_integrators::*;
use std::f64::consts::PI;
use std::ops::ControlFlow;

/// Oscillator whose projection renormalises y onto the unit circle and
/// records when it was called.
#[derive(Debug, Default)]
struct Circle {
    calls: Vec<f64>,
}

impl OdeSystem for Circle {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&mut self, t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        Oscillator.rhs(t, y, d)
    }
    fn project(&mut self, t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        self.calls.push(t);
        let r = (y[0] * y[0] + y[1] * y[1]).sqrt();
        y[0] /= r;
        y[1] /= r;
        Ok(true)
    }
}

impl PartitionedSystem for Circle {
    fn dim_positions(&self) -> usize {
        1
    }
    fn dim_velocities(&self) -> usize {
        1
    }
    fn accelerations(
        &mut self,
        _t: f64,
        x: &[f64],
        _v: &[f64],
        a: &mut [f64],
    ) -> Result<(), SystemError> {
        a[0] = -x[0];
        Ok(())
    }
    fn project(&mut self, t: f64, x: &mut [f64], v: &mut [f64]) -> Result<bool, SystemError> {
        self.calls.push(t);
        let r = (x[0] * x[0] + v[0] * v[0]).sqrt();
        x[0] /= r;
        v[0] /= r;
        Ok(true)
    }
}

#[derive(Default)]
struct Steps {
    t: Vec<f64>,
    stop_after: Option<usize>,
}

impl Observer for Steps {
    fn step(&mut self, t: f64, _y: &[f64]) -> ControlFlow<()> {
        self.t.push(t);
        match self.stop_after {
            Some(n) if self.t.len() >= n => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    }
}

/// Runs every integrator on `Circle` with `project_every = k` and an observer.
fn run_all(k: usize, obs_stop: Option<usize>) -> Vec<(&'static str, Info, Vec<f64>, Vec<f64>)> {
    let mut out = Vec::new();
    let t_end = 10.0;
    let y0 = [1.0, 0.0];
    macro_rules! go {
        ($name:expr, $body:expr) => {{
            let mut sys = Circle::default();
            let mut obs = Steps {
                stop_after: obs_stop,
                ..Default::default()
            };
            let info: Info = $body(&mut sys, &mut obs);
            out.push(($name, info, sys.calls, obs.t));
        }};
    }
    go!("rk45", |s: &mut Circle, o: &mut Steps| {
        let p = RkParams {
            project_every: k,
            ..RkParams::with_tol(1e-6, 1e-6)
        };
        EmbeddedRk::rk45(2, p)
            .integrate(s, 0.0, &y0, t_end, &[], o)
            .unwrap()
    });
    go!("rk23", |s: &mut Circle, o: &mut Steps| {
        let p = RkParams {
            project_every: k,
            ..RkParams::with_tol(1e-5, 1e-5)
        };
        EmbeddedRk::rk23(2, p)
            .integrate(s, 0.0, &y0, t_end, &[], o)
            .unwrap()
    });
    go!("adams", |s: &mut Circle, o: &mut Steps| {
        let p = AdamsParams {
            project_every: k,
            ..AdamsParams::with_tol(1e-6, 1e-6)
        };
        Adams::new(2, p)
            .integrate(s, 0.0, &y0, t_end, &[], o)
            .unwrap()
    });
    go!("midpoint", |s: &mut Circle, o: &mut Steps| {
        let p = ImplicitParams {
            project_every: k,
            ..ImplicitParams::new(ImplicitRule::Midpoint, 0.1)
        };
        ImplicitIntegrator::new(2, p)
            .integrate(s, 0.0, &y0, t_end, &[], o)
            .unwrap()
    });
    go!("trapezoidal", |s: &mut Circle, o: &mut Steps| {
        let p = ImplicitParams {
            project_every: k,
            ..ImplicitParams::new(ImplicitRule::Trapezoidal, 0.1)
        };
        ImplicitIntegrator::new(2, p)
            .integrate(s, 0.0, &y0, t_end, &[], o)
            .unwrap()
    });
    go!("central difference", |s: &mut Circle, o: &mut Steps| {
        let p = StaggeredParams {
            project_every: k,
            ..StaggeredParams::new(0.1)
        };
        CentralDifference::new(1, 1, p)
            .integrate(s, 0.0, &[1.0], &[0.0], t_end, &[], o)
            .unwrap()
    });
    go!("two-stage", |s: &mut Circle, o: &mut Steps| {
        let p = StaggeredParams {
            project_every: k,
            ..StaggeredParams::new(0.1)
        };
        TwoStageStaggered::new(1, 1, p)
            .integrate(s, 0.0, &[1.0], &[0.0], t_end, &[], o)
            .unwrap()
    });
    out
}

#[test]
fn projection_runs_every_k_steps_and_is_counted() {
    for k in [1usize, 3, 7] {
        for (name, info, calls, steps) in run_all(k, None) {
            assert_eq!(steps.len(), info.accepted_steps, "{name}");
            assert_eq!(info.projections, info.accepted_steps / k, "{name}, k = {k}");
            assert_eq!(info.projections_applied, info.projections, "{name}");
            assert_eq!(calls.len(), info.projections, "{name}");
            // Called exactly at the times of steps k, 2k, 3k, …
            let want: Vec<f64> = steps.iter().skip(k - 1).step_by(k).copied().collect();
            assert_eq!(calls, want, "{name}, k = {k}");
        }
    }
    // project_every = 0 never calls the hook.
    for (name, info, calls, _) in run_all(0, None) {
        assert_eq!(info.projections, 0, "{name}");
        assert!(calls.is_empty(), "{name}");
    }
}

#[test]
fn observer_can_stop_the_integration() {
    for (name, info, _, steps) in run_all(1, Some(5)) {
        assert!(info.stopped, "{name}");
        assert_eq!(info.accepted_steps, 5, "{name}");
        assert_eq!(steps.len(), 5, "{name}");
    }
}

/// Fails when t > 1, naming the element at fault.
#[derive(Debug)]
struct FailsAfter(f64);
impl OdeSystem for FailsAfter {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&mut self, t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        if t > self.0 {
            return Err(SystemError::with_source(
                "joint 3 (revolute): singular mass matrix",
                std::io::Error::other("pivot 0"),
            ));
        }
        Oscillator.rhs(t, y, d)
    }
}

#[test]
fn system_errors_carry_time_and_keep_the_last_state() {
    let check = |r: Result<Info, Error>, t_last: f64, y_last: &[f64]| {
        let e = r.unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("joint 3 (revolute)"), "{msg}");
        match &e {
            Error::System { t, source } => {
                assert!(*t > 1.0);
                assert!(std::error::Error::source(source).is_some());
            }
            other => panic!("{other:?}"),
        }
        assert!(t_last <= 1.0 && t_last > 0.8, "{t_last}");
        // The last accepted state is the exact solution there (to tolerance).
        assert!(max_err(y_last, &[t_last.cos(), -t_last.sin()]) < 1e-4);
    };
    let mut rk = EmbeddedRk::rk45(2, RkParams::with_tol(1e-8, 1e-8));
    let r = rk.integrate(&mut FailsAfter(1.0), 0.0, &[1.0, 0.0], 5.0, &[], &mut ());
    check(r, rk.t(), rk.y());
    let mut ab = Adams::new(2, AdamsParams::with_tol(1e-8, 1e-8));
    let r = ab.integrate(&mut FailsAfter(1.0), 0.0, &[1.0, 0.0], 5.0, &[], &mut ());
    check(r, ab.t(), ab.y());
    let mut im = ImplicitIntegrator::new(2, ImplicitParams::new(ImplicitRule::Midpoint, 0.01));
    let r = im.integrate(&mut FailsAfter(1.0), 0.0, &[1.0, 0.0], 5.0, &[], &mut ());
    check(r, im.t(), im.y());
}

#[derive(Debug)]
struct BlowUp;
impl OdeSystem for BlowUp {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        d[0] = y[0] * y[0];
        Ok(())
    }
}

#[test]
fn singularity_gives_step_size_underflow_or_non_finite() {
    // y' = y², y(0) = 1: y = 1/(1 − t) blows up at t = 1.
    let mut rk = EmbeddedRk::rk45(1, RkParams::with_tol(1e-6, 1e-6));
    let r = rk.integrate(&mut BlowUp, 0.0, &[1.0], 2.0, &[], &mut ());
    assert!(
        matches!(
            r,
            Err(Error::StepSizeUnderflow { .. }) | Err(Error::NonFinite { .. })
        ),
        "{r:?}"
    );
    assert!((rk.t() - 1.0).abs() < 1e-3, "{}", rk.t());
    let mut ab = Adams::new(1, AdamsParams::with_tol(1e-6, 1e-6));
    let r = ab.integrate(&mut BlowUp, 0.0, &[1.0], 2.0, &[], &mut ());
    assert!(
        matches!(
            r,
            Err(Error::StepSizeUnderflow { .. }) | Err(Error::NonFinite { .. })
        ),
        "{r:?}"
    );
    assert!((ab.t() - 1.0).abs() < 1e-3, "{}", ab.t());
    // Too many steps.
    let p = RkParams {
        max_steps: 10,
        ..RkParams::default()
    };
    let r = EmbeddedRk::rk45(1, p).integrate(&mut BlowUp, 0.0, &[1.0], 0.99, &[], &mut ());
    assert!(
        matches!(r, Err(Error::TooManySteps { max_steps: 10, .. })),
        "{r:?}"
    );
}

#[test]
fn dense_output_is_accurate_at_requested_times() {
    let e = 0.6;
    let y0 = Kepler::initial(e);
    let t_end = 2.0 * PI;
    let t_out: Vec<f64> = (0..=200).map(|i| t_end * i as f64 / 200.0).collect();
    let tol = 1e-9;
    let check = |rec: &Recorder, name: &str, bound: f64| {
        assert_eq!(rec.t, t_out, "{name}");
        let mut worst: f64 = 0.0;
        for (i, &t) in rec.t.iter().enumerate() {
            worst = worst.max(max_err(rec.state(i), &Kepler::exact(e, t)));
        }
        println!("{name}: worst dense-output error {worst:.2e}");
        assert!(worst < bound, "{name}: {worst}");
    };
    let mut rec = Recorder::new();
    EmbeddedRk::rk45(4, RkParams::with_tol(tol, tol))
        .integrate(&mut Kepler::default(), 0.0, &y0, t_end, &t_out, &mut rec)
        .unwrap();
    check(&rec, "rk45", 1e-6);
    let mut rec = Recorder::new();
    EmbeddedRk::rk23(4, RkParams::with_tol(tol, tol))
        .integrate(&mut Kepler::default(), 0.0, &y0, t_end, &t_out, &mut rec)
        .unwrap();
    check(&rec, "rk23", 1e-6);
    let mut rec = Recorder::new();
    Adams::new(4, AdamsParams::with_tol(tol, tol))
        .integrate(&mut Kepler::default(), 0.0, &y0, t_end, &t_out, &mut rec)
        .unwrap();
    check(&rec, "adams", 1e-6);
    let mut rec = Recorder::new();
    let p = AdamsParams {
        fixed: Some((t_end / 2000.0, 5)),
        ..Default::default()
    };
    Adams::new(4, p)
        .integrate(&mut Kepler::default(), 0.0, &y0, t_end, &t_out, &mut rec)
        .unwrap();
    check(&rec, "adams fixed", 1e-6);
    let mut rec = Recorder::new();
    ImplicitIntegrator::new(
        4,
        ImplicitParams::new(ImplicitRule::Trapezoidal, t_end / 20000.0),
    )
    .integrate(&mut Kepler::default(), 0.0, &y0, t_end, &t_out, &mut rec)
    .unwrap();
    // Second-order methods: the global error itself is ~1e-4 here.
    check(&rec, "trapezoidal", 5e-4);
    let mut rec = Recorder::new();
    TwoStageStaggered::new(2, 2, StaggeredParams::new(t_end / 20000.0))
        .integrate(
            &mut KeplerPartitioned,
            0.0,
            &y0[..2],
            &y0[2..],
            t_end,
            &t_out,
            &mut rec,
        )
        .unwrap();
    check(&rec, "two-stage", 5e-4);
}

#[test]
fn backward_integration_and_per_component_atol() {
    let e = 0.6;
    let t_end = 2.0 * PI;
    let y_end = Kepler::exact(e, t_end);
    let p = RkParams {
        rtol: 1e-9,
        atol: AbsTol::PerComponent(vec![1e-10, 1e-10, 1e-9, 1e-9]),
        ..Default::default()
    };
    let mut rk = EmbeddedRk::rk45(4, p.clone());
    rk.integrate(&mut Kepler::default(), t_end, &y_end, 0.0, &[PI], &mut ())
        .unwrap();
    assert!(max_err(rk.y(), &Kepler::initial(e)) < 1e-6, "{:?}", rk.y());
    let mut ab = Adams::new(
        4,
        AdamsParams {
            rtol: 1e-9,
            atol: p.atol.clone(),
            ..Default::default()
        },
    );
    ab.integrate(&mut Kepler::default(), t_end, &y_end, 0.0, &[], &mut ())
        .unwrap();
    assert!(max_err(ab.y(), &Kepler::initial(e)) < 1e-6, "{:?}", ab.y());
    // Wrong atol length is invalid input.
    let bad = RkParams {
        atol: AbsTol::PerComponent(vec![1e-6; 3]),
        ..Default::default()
    };
    let r =
        EmbeddedRk::rk45(4, bad).integrate(&mut Kepler::default(), 0.0, &y_end, 1.0, &[], &mut ());
    assert!(matches!(r, Err(Error::InvalidInput(_))));
}

/// Partitioned oscillator whose accelerations fail for t > 1.
#[derive(Debug)]
struct PartFails;
impl PartitionedSystem for PartFails {
    fn dim_positions(&self) -> usize {
        1
    }
    fn dim_velocities(&self) -> usize {
        1
    }
    fn accelerations(
        &mut self,
        t: f64,
        x: &[f64],
        _v: &[f64],
        a: &mut [f64],
    ) -> Result<(), SystemError> {
        if t > 1.0 {
            return Err(SystemError::new("body 2: inertia not positive"));
        }
        a[0] = -x[0];
        Ok(())
    }
}

#[test]
fn partitioned_errors_roll_back_to_the_last_station() {
    let h = 0.01;
    let mut cd = CentralDifference::new(1, 1, StaggeredParams::new(h));
    let r = cd.integrate(&mut PartFails, 0.0, &[1.0], &[0.0], 3.0, &[], &mut ());
    assert!(matches!(r, Err(Error::System { .. })), "{r:?}");
    let mut ts = TwoStageStaggered::new(1, 1, StaggeredParams::new(h));
    let r = ts.integrate(&mut PartFails, 0.0, &[1.0], &[0.0], 3.0, &[], &mut ());
    assert!(matches!(r, Err(Error::System { .. })), "{r:?}");
    for (t, x, v) in [
        (cd.t(), cd.x()[0], cd.v()[0]),
        (ts.t(), ts.x()[0], ts.v()[0]),
    ] {
        assert!(t <= 1.0 && t > 0.97, "{t}");
        assert!(
            (x - t.cos()).abs() < 1e-3 && (v + t.sin()).abs() < 1e-2,
            "t {t}: {x} {v}"
        );
    }
}
