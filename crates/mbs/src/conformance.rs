//! Conformance of the methods: every method × integrator on a set of mechanisms, each
//! cell classified as **right** (its end state agrees with the most accurate run), a
//! **named error** (the method stopped and said why), or **wrong** (it finished, but on
//! another motion). A library whose methods can be wrong silently cannot be trusted;
//! the test suite (`crates/mbs/tests/conformance.rs`) asserts that no cell is wrong and
//! `cargo xtask bench --suite conformance` prints the whole matrix.
//!
//! The reference of a case is `lagrange-projection` (Lagrange multipliers with
//! mass-orthogonal projections of positions and velocities after every step,
//! Bayo & Ledesma 1996, eqs 4, 16, 25) under RK45 at a tolerance 100 times tighter than
//! the case's (at most 1e-12); cases with an exact solution check the reference against
//! it (the parallelogram motion of the N-four-bar).
//!
//! ```
//! use mbs::conformance::{Case, Integration, Outcome, run_cell, reference};
//! let case = Case::new("pendulum", mbs::builtin("cartesian-pendulum")?, 0.5, 1e-8, 1e-3);
//! let reference = reference(&case)?;
//! let cell = run_cell(&case, &reference, &"alf-index1".parse()?, Integration::Rk45);
//! assert!(matches!(cell.outcome, Outcome::Right { .. }), "{cell:?}");
//! # Ok::<(), mbs::Error>(())
//! ```

use std::fmt;

use mbs_kinematics::euler_params;
use mbs_model::{Model, State};

use crate::error::Error;
use crate::integrator::IntegratorChoice;
use crate::method::Method;
use crate::simulation::Simulation;

/// Step budget of a cell: a method that needs more steps than this on the short
/// horizons of the matrix stops with a named "step limit" error.
pub const CELL_MAX_STEPS: usize = 50_000;

/// One mechanism of the matrix with its run settings.
#[derive(Clone, Debug)]
pub struct Case {
    /// Short name (table row label).
    pub name: String,
    /// The model.
    pub model: Model,
    /// End time.
    pub t_end: f64,
    /// Tolerance (rtol = atol) of the adaptive cells.
    pub tol: f64,
    /// Step of the fixed-step cells.
    pub h: f64,
    /// Largest end-state error of a right fixed-step cell: a second-order rule at step
    /// `h` is expected to be within this of the reference.
    pub fixed_step_tol: f64,
    /// The exact end state, where the mechanism has a known solution (it then serves
    /// as the reference).
    pub exact_end: Option<State>,
    /// Whether the cells run with the wrong-motion guard ([`Simulation::guard`]; on by
    /// default, off to see what the methods alone do).
    pub guard: bool,
}

impl Case {
    /// A case whose fixed-step tolerance is `1e3 · h²` (second-order rules on a
    /// mechanism with time scales of order 1 s; override for other scales).
    pub fn new(name: &str, model: Model, t_end: f64, tol: f64, h: f64) -> Self {
        Self {
            name: name.to_string(),
            model,
            t_end,
            tol,
            h,
            fixed_step_tol: 1e3 * h * h,
            exact_end: None,
            guard: true,
        }
    }

    /// The same case with a known exact end state (the reference of its cells).
    pub fn with_exact_end(mut self, state: State) -> Self {
        self.exact_end = Some(state);
        self
    }

    /// The same case with another fixed-step tolerance.
    pub fn with_fixed_step_tol(mut self, tol: f64) -> Self {
        self.fixed_step_tol = tol;
        self
    }

    /// The simulation of this case with `method` and `integrator`: 100 output
    /// intervals, at most [`CELL_MAX_STEPS`] steps.
    pub fn simulation(&self, method: Method, integrator: IntegratorChoice) -> Simulation {
        Simulation::new(self.model.clone())
            .method(method)
            .integrator(integrator)
            .t_end(self.t_end)
            .samples(100)
            .max_steps(CELL_MAX_STEPS)
            .guard(self.guard)
    }
}

/// The integrator column of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Integration {
    /// Dormand–Prince 5(4) at the case's tolerance.
    Rk45,
    /// Variable-order Adams–Bashforth–Moulton at the case's tolerance.
    Adams,
    /// The method's own fixed-step rule (see [`own_fixed_step_rule`]) at the case's step.
    OwnFixedStep,
}

impl Integration {
    /// All three columns.
    pub const ALL: [Integration; 3] = [Self::Rk45, Self::Adams, Self::OwnFixedStep];

    /// The integrator of this column for `method` on `case`.
    pub fn choice(self, method: &Method, case: &Case) -> IntegratorChoice {
        let (rtol, atol) = (case.tol, case.tol);
        match self {
            Self::Rk45 => IntegratorChoice::Rk45 { rtol, atol },
            Self::Adams => IntegratorChoice::Adams { rtol, atol },
            Self::OwnFixedStep => own_fixed_step_rule(method, case.h),
        }
    }
}

impl fmt::Display for Integration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Rk45 => "rk45",
            Self::Adams => "adams",
            Self::OwnFixedStep => "own fixed-step rule",
        })
    }
}

/// The fixed-step rule a method's paper uses: the implicit midpoint rule for the
/// Lagrange and index-1 ALF family (Bayo & Ledesma, Table 1), the trapezoidal rule for
/// ALF-INDEX3 (Bayo & Ledesma, eqs 35–40), the two-stage staggered scheme for Chiou's
/// penalty method and natural partitioning (Chiou, sec 5.5), and the trapezoidal rule
/// for the formulations whose papers use only adaptive integrators (ALF-DCA, HDCA, the
/// complement family).
pub fn own_fixed_step_rule(method: &Method, h: f64) -> IntegratorChoice {
    method.family_params().paper_fixed_step_rule(h)
}

/// How a cell ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Finished, and its end state is within the allowed error of the reference.
    Right {
        /// End-state error against the reference (see [`state_error`]).
        error: f64,
        /// Largest |E − E₀| over the samples.
        energy_drift: f64,
    },
    /// Stopped with an error (or refused the model or integrator) and said why.
    NamedError {
        /// The error message.
        message: String,
    },
    /// Finished, but its end state is not the reference's: a wrong answer that looks
    /// right. The test suite allows none.
    Wrong {
        /// End-state error against the reference.
        error: f64,
        /// Largest |E − E₀| over the samples.
        energy_drift: f64,
        /// The error allowed.
        allowed: f64,
    },
}

impl Outcome {
    /// A one-word label: `right`, `error` or `WRONG`.
    pub fn label(&self) -> &'static str {
        match self {
            Self::Right { .. } => "right",
            Self::NamedError { .. } => "error",
            Self::Wrong { .. } => "WRONG",
        }
    }
}

/// One cell of the matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Case name.
    pub case: String,
    /// Method (as `Method`'s `Display`).
    pub method: String,
    /// Integrator column.
    pub integration: Integration,
    /// The integrator with its settings.
    pub integrator: String,
    /// How it ended.
    pub outcome: Outcome,
    /// Wall time of the integration (s).
    pub wall_time: f64,
    /// Right-hand-side evaluations.
    pub rhs_evals: usize,
}

/// The reference end state of a case: its exact end state if it has one, otherwise
/// the most accurate run, `lagrange-projection` with RK45 at `min(tol / 100, 1e-12)`.
pub fn reference(case: &Case) -> Result<State, Error> {
    if let Some(s) = &case.exact_end {
        return Ok(s.clone());
    }
    accurate_run(case)
}

/// The most accurate run of a case: `lagrange-projection`, RK45 at
/// `min(tol / 100, 1e-12)`, ending at `case.t_end`.
pub fn accurate_run(case: &Case) -> Result<State, Error> {
    let tol = (case.tol / 100.0).clamp(1e-13, 1e-12);
    let traj = case
        .simulation(
            Method::from_name("lagrange-projection")?,
            IntegratorChoice::Rk45 {
                rtol: tol,
                atol: tol,
            },
        )
        .max_steps(2_000_000)
        .run()?;
    traj.states
        .last()
        .cloned()
        .ok_or_else(|| Error::param("conformance", "reference", "produced no sample", ""))
}

/// End-state error between two states of the same model: the largest, over the
/// bodies, of the differences of centre-of-mass positions, rotation matrices,
/// velocities and angular velocities (global frame), each measured as
/// |a − b| / (1 + |b|) per component. Rotation matrices make the measure independent
/// of the sign of the Euler parameters.
pub fn state_error(a: &State, b: &State) -> f64 {
    let rel = |x: f64, y: f64| (x - y).abs() / (1.0 + y.abs());
    let mut e: f64 = 0.0;
    for i in 0..a.n_bodies().min(b.n_bodies()) {
        let (ra, rb) = (a.position(i), b.position(i));
        let (va, vb) = (a.velocity(i), b.velocity(i));
        let (wa, wb) = (a.omega(i), b.omega(i));
        for k in 0..3 {
            e = e
                .max(rel(ra[k], rb[k]))
                .max(rel(va[k], vb[k]))
                .max(rel(wa[k], wb[k]));
        }
        let aa = euler_params::rotation(&a.euler_params(i));
        let ab = euler_params::rotation(&b.euler_params(i));
        for (x, y) in aa.iter().zip(ab.iter()) {
            e = e.max(rel(*x, *y));
        }
    }
    if e.is_nan() { f64::INFINITY } else { e }
}

/// Runs one cell and classifies it against `reference` (the end state of
/// [`reference()`]): right if the end-state error is at most `1e3 · tol` (adaptive) or
/// `case.fixed_step_tol` (fixed step), wrong otherwise; any error is a named error.
pub fn run_cell(case: &Case, reference: &State, method: &Method, integration: Integration) -> Cell {
    let integrator = integration.choice(method, case);
    let sim = case.simulation(method.clone(), integrator);
    let mut cell = Cell {
        case: case.name.clone(),
        method: method.to_string(),
        integration,
        integrator: integrator.to_string(),
        outcome: Outcome::NamedError {
            message: String::new(),
        },
        wall_time: 0.0,
        rhs_evals: 0,
    };
    match sim.run() {
        Ok(traj) => {
            cell.wall_time = traj.wall_time;
            cell.rhs_evals = traj.stats.rhs_evals;
            let error = traj
                .states
                .last()
                .map_or(f64::INFINITY, |s| state_error(s, reference));
            let energy_drift = traj.energy_drift();
            let allowed = match integration {
                Integration::OwnFixedStep => case.fixed_step_tol,
                Integration::Rk45 | Integration::Adams => 1e3 * case.tol,
            };
            cell.outcome = if error <= allowed {
                Outcome::Right {
                    error,
                    energy_drift,
                }
            } else {
                Outcome::Wrong {
                    error,
                    energy_drift,
                    allowed,
                }
            };
        }
        Err(e) => {
            if let Some(t) = e.partial_trajectory() {
                cell.wall_time = t.wall_time;
                cell.rhs_evals = t.stats.rhs_evals;
            }
            cell.outcome = Outcome::NamedError {
                message: e.to_string(),
            };
        }
    }
    cell
}

/// Every method name of [`crate::method::names`] with its defaults.
pub fn all_methods() -> Vec<Method> {
    crate::method::names()
        .filter_map(|(name, _)| Method::from_name(name).ok())
        .collect()
}

/// The whole matrix: every case × `methods` × [`Integration::ALL`], cells in that
/// order. Cells run in parallel (rayon); each cell is sequential inside, so the
/// result does not depend on the thread count. The fixed-step cells start first:
/// the implicit rules (a Newton iteration per step with forward-difference
/// Jacobians) are the longest cells, and a long cell started last would leave the
/// other threads idle. A case whose reference cannot be computed gives an error
/// naming it.
pub fn run_matrix(cases: &[Case], methods: &[Method]) -> Result<Vec<Cell>, Error> {
    use rayon::prelude::*;
    let references = cases
        .par_iter()
        .map(reference)
        .collect::<Result<Vec<State>, Error>>()?;
    let jobs: Vec<(usize, &Method, Integration)> = (0..cases.len())
        .flat_map(|c| {
            methods
                .iter()
                .flat_map(move |m| Integration::ALL.into_iter().map(move |i| (c, m, i)))
        })
        .collect();
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&k| jobs[k].2 != Integration::OwnFixedStep);
    let mut cells: Vec<(usize, Cell)> = order
        .par_iter()
        .map(|&k| {
            let (c, m, i) = jobs[k];
            (k, run_cell(&cases[c], &references[c], m, i))
        })
        .collect();
    cells.sort_by_key(|(k, _)| *k);
    Ok(cells.into_iter().map(|(_, cell)| cell).collect())
}

/// Counts of right, named-error and wrong cells.
pub fn tally(cells: &[Cell]) -> (usize, usize, usize) {
    cells
        .iter()
        .fold((0, 0, 0), |(r, e, w), c| match c.outcome {
            Outcome::Right { .. } => (r + 1, e, w),
            Outcome::NamedError { .. } => (r, e + 1, w),
            Outcome::Wrong { .. } => (r, e, w + 1),
        })
}
