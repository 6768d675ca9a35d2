//! The runner over a formulation with an exact solution: a body in free fall
//! integrated in its absolute coordinates y = [q; q̇] (7 + 7). The samples must be the
//! exact parabola, the stop of the sink must be honoured and reported, and a run
//! beyond the divergence limit must stop naming the body.

use std::ops::ControlFlow;
use std::sync::Arc;

use mbs_formulation::drive::{integrate_ode, newton, plain_state_label};
use mbs_formulation::finite_check;
use mbs_formulation::{
    DivergenceCheck, Formulation, FormulationError, OdeFormulation, RunSpec, Runner, SAMPLE_LAYOUT,
    Sample, SampleSink, StepCheck,
};
use mbs_integrators::{Info, IntegratorChoice, Observer, OdeSystem, SystemError};
use mbs_model::{Model, ModelBuilder, State};
use nalgebra::{DVector, Matrix3, Vector3};

const G: f64 = -9.81;

/// q̈ = g on the y coordinate, nothing else.
struct FreeFall {
    model: Arc<Model>,
}

impl OdeSystem for FreeFall {
    fn dim(&self) -> usize {
        14
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        d[..7].copy_from_slice(&y[7..]);
        d[7..].fill(0.0);
        d[8] = G;
        Ok(())
    }
}

impl OdeFormulation for FreeFall {
    fn start(&mut self, spec: &RunSpec<'_>) -> Result<(Vec<f64>, StepCheck), FormulationError> {
        let mut y0 = spec.initial.q.as_slice().to_vec();
        y0.extend_from_slice(spec.initial.v.as_slice());
        let divergence = DivergenceCheck::new(&self.model, spec.divergence_limit);
        let mut finite = finite_check();
        Ok((
            y0,
            Box::new(move |t, y| finite(t, y).or_else(|| divergence.check(t, &y[..7], &y[7..]))),
        ))
    }
    fn integrate<O: Observer>(
        &mut self,
        spec: &RunSpec<'_>,
        y0: &[f64],
        obs: &mut O,
    ) -> (Info, Option<FormulationError>) {
        integrate_ode(self, spec, y0, 0, newton(1e-12), &plain_state_label, obs)
    }
    fn state(&mut self, t: f64, y: &[f64]) -> Result<State, FormulationError> {
        Ok(State {
            layout: SAMPLE_LAYOUT,
            t,
            q: DVector::from_column_slice(&y[..7]),
            v: DVector::from_column_slice(&y[7..]),
        })
    }
    fn enrich(&mut self, _t: f64, _y: &[f64], sample: &mut Sample) {
        let mut a = DVector::zeros(7);
        a[1] = G;
        sample.accelerations = Some(a);
    }
}

fn model() -> Arc<Model> {
    let mut b = ModelBuilder::new("ball");
    b.gravity(Vector3::new(0.0, G, 0.0));
    let ball = b.body("ball", 1.0, Matrix3::identity());
    b.set_initial_velocity(ball, Vector3::new(1.0, 2.0, 0.0), Vector3::zeros());
    Arc::new(b.build().unwrap())
}

#[derive(Default)]
struct Keep {
    samples: Vec<Sample>,
    steps: usize,
    stop_after: Option<usize>,
    stopped_at: Option<f64>,
}

impl SampleSink for Keep {
    fn sample(&mut self, sample: Sample) {
        self.samples.push(sample);
    }
    fn step(&mut self, _t: f64) -> ControlFlow<()> {
        self.steps += 1;
        match self.stop_after {
            Some(n) if self.steps >= n => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    }
    fn stopped_at(&mut self, state: &State) {
        self.stopped_at = Some(state.t);
    }
}

fn spec<'a>(initial: &'a State, times: &'a [f64], limit: f64) -> RunSpec<'a> {
    RunSpec {
        initial,
        integrator: IntegratorChoice::Rk45 {
            rtol: 1e-10,
            atol: 1e-10,
        },
        t_end: 1.0,
        output_times: times,
        divergence_limit: limit,
        max_steps: 10_000,
        guard: true,
    }
}

#[test]
fn samples_follow_the_exact_motion_and_stops_are_honoured() {
    let model = model();
    let mut run = Runner::new(
        "free-fall".into(),
        model.clone(),
        FreeFall {
            model: model.clone(),
        },
    );
    let s0 = State::initial(&model, SAMPLE_LAYOUT);
    let times: Vec<f64> = (0..=10).map(|k| 0.1 * k as f64).collect();
    let mut keep = Keep::default();
    let stats = run.run(&spec(&s0, &times, 1e8), &mut keep).unwrap();
    assert_eq!(keep.samples.len(), 11);
    for s in &keep.samples {
        let t = s.state.t;
        let exact = Vector3::new(t, 2.0 * t + 0.5 * G * t * t, 0.0);
        assert!((s.state.position(0) - exact).norm() < 1e-9, "t = {t}");
        assert_eq!(s.accelerations.as_ref().map(|a| a[1]), Some(G));
    }
    assert!(stats.accepted_steps > 0 && stats.rhs_evals > stats.accepted_steps);
    assert!(keep.stopped_at.is_none());

    // the sink stops the run after 2 steps: Ok, fewer samples, the state reported
    let mut keep = Keep {
        stop_after: Some(2),
        ..Keep::default()
    };
    run.run(&spec(&s0, &times, 1e8), &mut keep).unwrap();
    assert!(keep.samples.len() < 11);
    assert!(keep.stopped_at.is_some_and(|t| t > 0.0 && t < 1.0));
}

#[test]
fn a_run_beyond_the_divergence_limit_stops_naming_the_body() {
    let model = model();
    let mut run = Runner::new(
        "free-fall".into(),
        model.clone(),
        FreeFall {
            model: model.clone(),
        },
    );
    let s0 = State::initial(&model, SAMPLE_LAYOUT);
    let times = [0.0, 0.5, 1.0];
    let e = run
        .run(&spec(&s0, &times, 3.0), &mut Keep::default())
        .unwrap_err();
    // |ẏ| = |2 − 9.81 t| passes 3 at t ≈ 0.51
    let t = e.t.unwrap();
    assert!((0.4..0.6).contains(&t), "{e}");
    assert_eq!(e.location.as_deref(), Some("body `ball`"));
    assert!(e.to_string().contains("diverged"), "{e}");
    assert!(e.stats.accepted_steps > 0);
    // a formulation without a map of accelerations says so, naming itself
    let e = run.accelerations(&s0).unwrap_err();
    assert!(e.to_string().starts_with("free-fall: "), "{e}");
}
