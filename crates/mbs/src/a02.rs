//! The IFToMM benchmark A02 (N-four-bar, N = 2; González, Dopico, Lugrís & Cuadrado,
//! Multibody System Dynamics 16, 2006) through its singular configurations: one cell
//! is a method × integrator run of the model file `examples/models/n_four_bar.toml`,
//! judged by the x coordinate of point B0 (top of the first crank) at the end against
//! the exact parallelogram motion ([`mbs_mechanisms::iftomm::NFourBar`], the scalar
//! equation 3 θ̈ = −3.5 g cos θ integrated on its own, no multibody method involved).
//!
//! A cell **matches** when |x_B0 − x_ref| ≤ max(1e-5 m, 1e3 · tol) (adaptive rules) or
//! the fixed-step allowance; it **stops** when the run ends with an error (whose
//! message must name the loss of accuracy); anything else is **wrong**.
//! `cargo run -p mbs --example a02_matrix` prints the whole matrix.

use mbs_kinematics::euler_params;
use mbs_mechanisms::iftomm::NFourBar;
use nalgebra::Vector3;

use crate::error::Error;
use crate::integrator::IntegratorChoice;
use crate::method::Method;
use crate::simulation::Simulation;
use mbs_model::{Model, State};

/// The methods of the augmented-Lagrangian family with adaptive integrators.
pub const ALF_FAMILY: [&str; 5] = ["alf", "alf-index1", "alf-dca", "alf-dca-proj", "alf-joint"];

/// Tolerances (rtol = atol) of the adaptive cells.
pub const TOLERANCES: [f64; 7] = [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10];

/// Steps of the `alf-index3` cells.
pub const STEPS: [f64; 2] = [1e-3, 1e-4];

/// Step budget of a cell.
pub const MAX_STEPS: usize = 2_000_000;

/// The adaptive integrators at `tol`.
pub fn adaptive(tol: f64) -> [IntegratorChoice; 4] {
    let (rtol, atol) = (tol, tol);
    [
        IntegratorChoice::Rk45 { rtol, atol },
        IntegratorChoice::Rk23 { rtol, atol },
        IntegratorChoice::Dop853 { rtol, atol },
        IntegratorChoice::Adams { rtol, atol },
    ]
}

/// The implicit rules of `alf-index3` at step `h` (its trapezoidal rule, Bayo &
/// Ledesma 1996 eqs 35–40, and the implicit midpoint rule).
pub fn implicit(h: f64) -> [IntegratorChoice; 2] {
    [
        IntegratorChoice::Trapezoidal { h },
        IntegratorChoice::Midpoint { h },
    ]
}

/// x of point B0 (marker 0.5 m along the body x axis of body 0, the first crank).
pub fn b0_x(s: &State) -> f64 {
    let r = euler_params::rotation(&s.euler_params(0));
    (s.position(0) + r * Vector3::new(0.5, 0.0, 0.0))[0]
}

/// Reference x of B0 at `t`: cos θ(t) of the exact parallelogram motion.
pub fn reference_b0_x(t: f64) -> f64 {
    NFourBar::default().crank_angle(t).0.cos()
}

/// How a cell ended.
#[derive(Clone, Debug, PartialEq)]
pub enum A02Outcome {
    /// Finished within the allowance; |x_B0 − x_ref|.
    Match(f64),
    /// Finished outside the allowance; |x_B0 − x_ref| and the allowance.
    Wrong(f64, f64),
    /// Stopped with this message.
    Stop(String),
}

/// The allowance of a cell: max(1e-5 m, 1e3 · tol) for the adaptive rules, `fixed`
/// for the fixed-step rules.
pub fn allowance(integrator: &IntegratorChoice, fixed: f64) -> f64 {
    match integrator.tolerances() {
        Some((rtol, _)) => (1e3 * rtol).max(1e-5),
        None => fixed,
    }
}

/// Runs `method` with `integrator` on `model` to `t_end` and judges B0's x against
/// the exact motion with the allowance of [`allowance`] (`fixed` for fixed steps).
pub fn run_cell(
    model: &Model,
    method: &str,
    integrator: IntegratorChoice,
    t_end: f64,
    fixed: f64,
) -> Result<A02Outcome, Error> {
    let sim = Simulation::new(model.clone())
        .method(method.parse::<Method>()?)
        .integrator(integrator)
        .t_end(t_end)
        .samples(100)
        .max_steps(MAX_STEPS);
    Ok(match sim.run() {
        Ok(traj) => {
            let x = traj.states.last().map_or(f64::NAN, b0_x);
            let e = (x - reference_b0_x(t_end)).abs();
            let allowed = allowance(&integrator, fixed);
            if e <= allowed {
                A02Outcome::Match(e)
            } else {
                A02Outcome::Wrong(if e.is_nan() { f64::INFINITY } else { e }, allowed)
            }
        }
        Err(e) => A02Outcome::Stop(e.to_string()),
    })
}
