//! The functions of `mbs._mbs`: models as JSON text in and out, method and integrator
//! strings as the CLI reads them, and [`simulate`], which runs with the GIL released.

use std::time::{SystemTime, UNIX_EPOCH};

use mbs::joints::{JointResults, MultiplierSource};
use mbs::{
    Error, IntegratorChoice, IntegratorRequest, Method, Model, Sampling, Simulation, Trajectory,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::to_py;

/// What a run needs, parsed from the Python arguments.
struct RunSettings<'a> {
    model_json: &'a str,
    /// `None`: the model's recommendation, as `mbs run` without `--method`.
    method: Option<&'a str>,
    integrator: IntegratorRequest,
    t_end: f64,
    samples: usize,
    times: Option<Vec<f64>>,
    max_steps: Option<usize>,
    guard: bool,
}

impl RunSettings<'_> {
    /// The simulation, validated in the CLI's order (method, model, integrator, output
    /// times), so that the first error reported is the one `mbs run` reports; method
    /// and integrator through [`Simulation::choose`], as the CLI, so the defaults are
    /// the CLI's.
    fn simulation(&self) -> Result<Simulation, Error> {
        let method = self.method.map(|m| m.parse::<Method>()).transpose()?;
        let model = Model::from_json_str(self.model_json)?;
        // the span first: the stiffness check of the default integrator is over it
        let mut sim = Simulation::new(model)
            .t_end(self.t_end)
            .choose(method, &self.integrator)?
            .guard(self.guard);
        sim = match &self.times {
            Some(t) => sim.sampling(Sampling::Times(t.clone())),
            None => sim.samples(self.samples),
        };
        if let Some(n) = self.max_steps {
            sim = sim.max_steps(n);
        }
        sim.output_times()?;
        Ok(sim)
    }
}

/// The integrator as the CLI reads it: `name[:rtol=…][:atol=…]` / `name[:h=…]`, or,
/// when `rtol`, `atol` or `h` is given, a bare name with those values (the CLI's
/// `--integrator NAME --rtol … --atol … --h …`); no name: the method's default.
fn integrator_request(
    spec: Option<&str>,
    rtol: Option<f64>,
    atol: Option<f64>,
    h: Option<f64>,
) -> IntegratorRequest {
    IntegratorRequest {
        spec: spec.map(str::to_string),
        rtol,
        atol,
        h,
    }
}

fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(f64::NAN, |d| d.as_secs_f64())
}

/// Runs a simulation of a model given as JSON (schema `crates/model/SCHEMA.md`) and
/// returns the raw trajectory (see `raw.rs`) with `started`/`finished` (seconds since
/// the Unix epoch around the run). The GIL is released from parsing to the end of the
/// run, so Python threads can run simulations in parallel.
#[pyfunction]
#[pyo3(signature = (model_json, method=None, integrator=None, *, rtol=None, atol=None, h=None, t_end=1.0, samples=200, times=None, max_steps=None, guard=true))]
pub fn simulate<'py>(
    py: Python<'py>,
    model_json: &str,
    method: Option<&str>,
    integrator: Option<&str>,
    rtol: Option<f64>,
    atol: Option<f64>,
    h: Option<f64>,
    t_end: f64,
    samples: usize,
    times: Option<Vec<f64>>,
    max_steps: Option<usize>,
    guard: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let settings = RunSettings {
        model_json,
        method,
        integrator: integrator_request(integrator, rtol, atol, h),
        t_end,
        samples,
        times,
        max_steps,
        guard,
    };
    type Ran = (Result<(Trajectory, Option<JointResults>), Error>, f64, f64);
    let (result, started, finished): Ran = py.detach(|| {
        let started = now();
        let result = settings.simulation().and_then(|sim| {
            let traj = sim.run()?;
            // joint results where λ can be solved at every sample (else None)
            let joints =
                JointResults::compute(sim.model(), &traj, MultiplierSource::Recovered).ok();
            Ok((traj, joints))
        });
        (result, started, now())
    });
    let (traj, joints) = result.map_err(|e| to_py(py, e))?;
    let d = crate::raw::trajectory(py, &traj)?;
    d.set_item("joints", crate::raw::joints(py, joints.as_ref())?)?;
    d.set_item("started", started)?;
    d.set_item("finished", finished)?;
    Ok(d)
}

/// A built-in mechanism name or a `.json`/`.toml` model file, as model JSON.
#[pyfunction]
pub fn load_model(py: Python<'_>, spec: &str) -> PyResult<String> {
    mbs::load_model(spec)
        .map(|m| m.to_json_string())
        .map_err(|e| to_py(py, e))
}

/// Reads and validates model JSON; returns the model's own JSON form (what `mbs`
/// writes: Euler parameters, full marker axes where they are not the identity).
#[pyfunction]
pub fn validate_model(py: Python<'_>, model_json: &str) -> PyResult<String> {
    Model::from_json_str(model_json)
        .map(|m| m.to_json_string())
        .map_err(|e| to_py(py, Error::from(e)))
}

/// The `mbs check` report of model JSON: (JSON of the report, its text).
#[pyfunction]
pub fn check_model(py: Python<'_>, model_json: &str) -> PyResult<(String, String)> {
    let model = Model::from_json_str(model_json).map_err(|e| to_py(py, Error::from(e)))?;
    let report = mbs::check(&model);
    let json = serde_json::to_string(&report).unwrap_or_default();
    Ok((json, report.to_string()))
}

/// The method in its canonical form (`Method`'s `Display`), or `MethodError`.
#[pyfunction]
pub fn parse_method(py: Python<'_>, method: &str) -> PyResult<String> {
    method
        .parse::<Method>()
        .map(|m| m.to_string())
        .map_err(|e| to_py(py, e))
}

/// The integrator in its canonical form (`IntegratorChoice`'s `Display`), read like
/// [`simulate`] reads it (no name: RK45, the default with a named method), or
/// `MethodError`.
#[pyfunction]
#[pyo3(signature = (integrator=None, rtol=None, atol=None, h=None))]
pub fn parse_integrator(
    py: Python<'_>,
    integrator: Option<&str>,
    rtol: Option<f64>,
    atol: Option<f64>,
    h: Option<f64>,
) -> PyResult<String> {
    integrator_request(integrator, rtol, atol, h)
        .resolve(IntegratorChoice::default().name())
        .map(|i| i.to_string())
        .map_err(|e| to_py(py, e))
}

/// The built-in mechanisms: (name, description).
#[pyfunction]
pub fn builtins() -> Vec<(String, String)> {
    mbs::builtins()
        .into_iter()
        .map(|b| (b.name, b.description))
        .collect()
}

/// The method names: (name, description).
#[pyfunction]
pub fn methods() -> Vec<(String, String)> {
    mbs::method_names()
        .map(|(n, d)| (n.to_string(), d.to_string()))
        .collect()
}

/// The integrator names: (name, description).
#[pyfunction]
pub fn integrators() -> Vec<(String, String)> {
    mbs::INTEGRATOR_NAMES
        .iter()
        .map(|(n, d)| (n.to_string(), d.to_string()))
        .collect()
}
