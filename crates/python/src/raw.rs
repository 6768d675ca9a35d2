//! A [`Trajectory`] as a dict of plain values and raw `f64` buffers (native byte
//! order, C order) that `mbs.Trajectory` wraps in NumPy arrays without converting a
//! number: the arrays hold the very bits of the Rust trajectory.

use mbs::Trajectory;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

/// The raw form of `t` (see the module doc); the keys are those of
/// `mbs.Trajectory._from_raw`.
pub fn trajectory<'py>(py: Python<'py>, t: &Trajectory) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let n = t.len();
    let nb = t.n_bodies();
    d.set_item("model", &t.model)?;
    d.set_item("method", &t.method)?;
    d.set_item("integrator", &t.integrator)?;
    d.set_item("body_names", PyList::new(py, &t.body_names)?)?;
    d.set_item("n", n)?;
    d.set_item("t", bytes(py, t.t.iter().copied()))?;
    let nq = t.states.first().map_or(0, |s| s.q.len());
    let nv = t.states.first().map_or(0, |s| s.v.len());
    d.set_item("nq", nq)?;
    d.set_item("nv", nv)?;
    d.set_item(
        "q",
        bytes(py, t.states.iter().flat_map(|s| s.q.iter().copied())),
    )?;
    d.set_item(
        "v",
        bytes(py, t.states.iter().flat_map(|s| s.v.iter().copied())),
    )?;
    let per_body = |f: &dyn Fn(usize, usize) -> Vec<f64>| {
        bytes(py, (0..n).flat_map(|k| (0..nb).flat_map(move |i| f(k, i))))
    };
    d.set_item(
        "position",
        per_body(&|k, i| t.position(k, i).iter().copied().collect()),
    )?;
    d.set_item(
        "euler_params",
        per_body(&|k, i| t.euler_params(k, i).iter().copied().collect()),
    )?;
    d.set_item(
        "velocity",
        per_body(&|k, i| t.velocity(k, i).iter().copied().collect()),
    )?;
    d.set_item(
        "omega",
        per_body(&|k, i| t.omega(k, i).iter().copied().collect()),
    )?;
    for (key, v) in [
        ("kinetic_energy", &t.kinetic_energy),
        ("potential_energy", &t.potential_energy),
        ("total_energy", &t.total_energy),
        ("phi_norm", &t.phi_norm),
        ("phi_dot_norm", &t.phi_dot_norm),
        ("phi_ddot_norm", &t.phi_ddot_norm),
    ] {
        d.set_item(key, bytes(py, v.iter().copied()))?;
    }
    // multipliers: n × m, NaN where a sample has none (or fewer)
    let m = t
        .multipliers
        .iter()
        .flatten()
        .map(Vec::len)
        .max()
        .unwrap_or(0);
    d.set_item("n_multipliers", m)?;
    d.set_item(
        "multipliers",
        bytes(
            py,
            t.multipliers.iter().flat_map(|l| {
                (0..m).map(move |i| {
                    l.as_ref()
                        .and_then(|l| l.get(i))
                        .copied()
                        .unwrap_or(f64::NAN)
                })
            }),
        ),
    )?;
    d.set_item("stats", stats(py, t)?)?;
    d.set_item("summary", summary(py, t)?)?;
    d.set_item("wall_time", t.wall_time)?;
    d.set_item("failure", t.failure.as_deref())?;
    d.set_item("status", t.status.name())?;
    d.set_item("initial_assembly", t.initial_assembly.as_deref())?;
    let passes = PyList::empty(py);
    for p in &t.singular_passes {
        let e = PyDict::new(py);
        e.set_item("t", p.t)?;
        e.set_item("ratio", p.ratio)?;
        e.set_item("joints", PyList::new(py, &p.joints)?)?;
        passes.append(e)?;
    }
    d.set_item("singular_passes", passes)?;
    d.set_item("energy_balance", energy_balance(py, t)?)?;
    Ok(d)
}

/// Joint results as a dict `column name → raw f64 buffer (n,)` (`None` when they
/// could not be computed), and the energy balance terms under `energy_balance.<term>
/// [J]`; column names carry their unit, e.g. `pivot.force_x [N]`.
pub fn joints<'py>(
    py: Python<'py>,
    j: Option<&mbs::joints::JointResults>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(j) = j else {
        return Ok(None);
    };
    let d = PyDict::new(py);
    for c in &j.columns {
        d.set_item(&c.name, bytes(py, c.values.iter().copied()))?;
    }
    for c in &j.multipliers {
        let key = format!("lambda.{}", c.name);
        d.set_item(key, bytes(py, c.values.iter().copied()))?;
    }
    Ok(Some(d))
}

/// The energy balance terms (`kinetic`, `potential`, `work_drivers`, `work_dampers`,
/// `work_applied`, `residual`) as raw f64 buffers, or `None`.
fn energy_balance<'py>(py: Python<'py>, t: &Trajectory) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(b) = &t.energy_balance else {
        return Ok(None);
    };
    let d = PyDict::new(py);
    for (k, v) in [
        ("kinetic", &b.kinetic),
        ("potential", &b.potential),
        ("work_drivers", &b.work_drivers),
        ("work_dampers", &b.work_dampers),
        ("work_applied", &b.work_applied),
        ("residual", &b.residual),
    ] {
        d.set_item(k, bytes(py, v.iter().copied()))?;
    }
    d.set_item("quadrature_error", b.quadrature_error)?;
    Ok(Some(d))
}

/// The integrator statistics.
fn stats<'py>(py: Python<'py>, t: &Trajectory) -> PyResult<Bound<'py, PyDict>> {
    let s = &t.stats;
    let d = PyDict::new(py);
    d.set_item("accepted_steps", s.accepted_steps)?;
    d.set_item("rejected_steps", s.rejected_steps)?;
    d.set_item("rhs_evals", s.rhs_evals)?;
    d.set_item("jacobian_evals", s.jacobian_evals)?;
    d.set_item("lu_decompositions", s.lu_decompositions)?;
    d.set_item("newton_iterations", s.newton_iterations)?;
    d.set_item("multiplier_iterations", s.multiplier_iterations)?;
    d.set_item("projections", s.projections)?;
    d.set_item("integration_seconds", s.integration_seconds)?;
    d.set_item("sampling_seconds", s.sampling_seconds)?;
    // Hairer's stiffness test of RK45/DOP853 (None when it did not fire)
    let stiffness = match s.stiffness {
        Some(r) => {
            let st = PyDict::new(py);
            st.set_item("first_t", r.first_t)?;
            st.set_item("steps_at_boundary", r.steps_at_boundary)?;
            st.set_item("h_lambda", r.h_lambda)?;
            st.set_item("boundary", r.boundary)?;
            st.set_item("note", t.stiffness_note())?;
            Some(st)
        }
        None => None,
    };
    d.set_item("stiffness", stiffness)?;
    Ok(d)
}

/// The summary the CLI prints and `trajectory.json` holds, computed by the facade.
fn summary<'py>(py: Python<'py>, t: &Trajectory) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("energy_drift", t.energy_drift())?;
    d.set_item(
        "energy_error_percent_of_max_kinetic",
        t.energy_error_percent_of_max_kinetic(),
    )?;
    d.set_item("max_phi", t.max_phi())?;
    d.set_item("max_phi_dot", t.max_phi_dot())?;
    d.set_item("max_phi_ddot", t.max_phi_ddot())?;
    Ok(d)
}

/// The numbers as native-endian bytes.
fn bytes(py: Python<'_>, values: impl Iterator<Item = f64>) -> Bound<'_, PyBytes> {
    let raw: Vec<u8> = values.flat_map(f64::to_ne_bytes).collect();
    PyBytes::new(py, &raw)
}
