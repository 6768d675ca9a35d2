//! Suite `conformance`: every method × {rk45, adams, the method's own fixed-step rule}
//! on six mechanisms written as model files in `examples/models/`, each cell right
//! (agrees with the reference), a named error, or WRONG (finished on another motion).
//! The reference is the exact motion of the IFToMM N-four-bar and `lagrange-projection`
//! at a 100 times tighter tolerance for the others (`mbs::conformance`).

use mbs::conformance::{Case, Cell, Integration, Outcome, all_methods, run_matrix, tally};
use mbs::mechanisms::iftomm::NFourBar;

use crate::report::{Suite, Table};
use crate::runner::{Ctx, fixed, sci};

fn model_file(name: &str) -> Result<mbs::Model, String> {
    let path = format!("{}/../examples/models/{name}", env!("CARGO_MANIFEST_DIR"));
    mbs::load_model(&path).map_err(|e| format!("{path}: {e}"))
}

/// The cases: in full mode the settings users reported (10 s, tolerance 1e-10); in
/// quick mode those of the test suite (short horizons that still pass the four-bar's
/// singular configuration twice, tolerance 1e-7).
fn cases(quick: bool) -> Result<Vec<Case>, String> {
    let (tol, h) = if quick { (1e-7, 2e-3) } else { (1e-10, 1e-3) };
    let pick = |full: f64, q: f64| if quick { q } else { full };
    let four_bar_end = pick(10.0, 2.0);
    let squeezer_h = pick(2e-5, 1e-5);
    Ok(vec![
        Case::new(
            "N-four-bar (N = 2)",
            model_file("n_four_bar.toml")?,
            four_bar_end,
            tol,
            h,
        )
        .with_exact_end(NFourBar::default().exact_state(four_bar_end)),
        Case::new(
            "Bricard",
            model_file("bricard.toml")?,
            pick(10.0, 1.5),
            tol,
            h,
        ),
        // the crank turns at 6 rad/s: fixed steps measured against (h / 0.2 s)²
        Case::new(
            "spatial slider-crank",
            model_file("spatial_slider_crank.toml")?,
            pick(5.0, 1.0),
            tol,
            h,
        )
        .with_fixed_step_tol(1e3 * (h / 0.2).powi(2)),
        Case::new(
            "double pendulum",
            model_file("double_pendulum.toml")?,
            pick(2.0, 1.0),
            tol,
            h,
        ),
        Case::new(
            "Cartesian pendulum",
            model_file("cartesian_pendulum.toml")?,
            pick(10.0, 2.0),
            tol,
            h,
        ),
        Case::new(
            "Andrew's squeezer",
            model_file("andrews_squeezer.toml")?,
            pick(0.03, 0.01),
            tol,
            squeezer_h,
        )
        .with_fixed_step_tol(1e3 * (squeezer_h / 1e-3).powi(2)),
    ])
}

fn describe(c: &Cell) -> String {
    match &c.outcome {
        Outcome::Right {
            error,
            energy_drift,
        } => format!("right (error {error:.1e}, ΔE {energy_drift:.1e} J)"),
        Outcome::Wrong {
            error,
            energy_drift,
            allowed,
        } => format!("**WRONG** (error {error:.1e} > {allowed:.0e}, ΔE {energy_drift:.1e} J)"),
        Outcome::NamedError { message } => {
            let short: String = message.chars().take(110).collect();
            let dots = if message.chars().count() > 110 {
                "…"
            } else {
                ""
            };
            format!("error: {short}{dots}")
        }
    }
}

/// Runs of the default-method benchmark (the median is reported).
const DEFAULT_METHOD_REPEATS: usize = 5;

/// The default method of `Simulation::new` on Andrew's squeezer at RK45
/// rtol = atol = 1e-10 to t = 0.03 (the IVP test set's end time): solver time over
/// [`DEFAULT_METHOD_REPEATS`] runs and the crank angle β against the test set's
/// reference solution, β(0.03) = 15.81077119629904 rad.
fn default_method_on_the_squeezer(s: &mut Suite) {
    const BETA: f64 = 15.81077119629904;
    let model = match model_file("andrews_squeezer.toml") {
        Ok(m) => m,
        Err(e) => {
            s.notes.push(format!("default-method benchmark: {e}"));
            return;
        }
    };
    let sim = mbs::Simulation::new(model)
        .integrator(mbs::IntegratorChoice::Rk45 {
            rtol: 1e-10,
            atol: 1e-10,
        })
        .t_end(0.03)
        .samples(3);
    let method = sim.get_method().to_string();
    let mut t = Table::new(
        "conformance_default_method_squeezer",
        &format!(
            "Default method ({method}) on Andrew's squeezer, RK45 rtol = atol = 1e-10, t = 0 … 0.03 s ({DEFAULT_METHOD_REPEATS} runs)"
        ),
        &[
            "solver time, median [s]",
            "min … max [s]",
            "steps",
            "RHS evaluations",
            "|β − β_ref| [rad]",
        ],
    );
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..DEFAULT_METHOD_REPEATS {
        match sim.run() {
            Ok(traj) => {
                times.push(traj.wall_time);
                last = Some(traj);
            }
            Err(e) => {
                t.note(format!("failed: {e}"));
                break;
            }
        }
    }
    if let Some(traj) = last {
        times.sort_by(f64::total_cmp);
        let p = traj.euler_params(traj.len() - 1, 0);
        let beta = 2.0 * p[3].atan2(p[0]);
        let d = (beta - BETA).sin().atan2((beta - BETA).cos()).abs();
        t.row(vec![
            fixed(times[times.len() / 2], 3),
            format!(
                "{} … {}",
                fixed(times[0], 3),
                fixed(times[times.len() - 1], 3)
            ),
            traj.stats.accepted_steps.to_string(),
            traj.stats.rhs_evals.to_string(),
            sci(d),
        ]);
        s.set(
            "default_method_squeezer",
            serde_json::json!({
                "method": method,
                "solver_time_median_s": times[times.len() / 2],
                "solver_times_s": times,
                "steps": traj.stats.accepted_steps,
                "rhs_evals": traj.stats.rhs_evals,
                "beta_error_rad": d,
            }),
        );
    }
    t.note("Solver time: the integration's wall time (Trajectory::wall_time), without model set-up and output.");
    s.tables.push(t);
}

pub fn run(ctx: &mut Ctx) -> Suite {
    let mut s = Suite::new(
        "conformance",
        "Conformance — every method right on every mechanism it accepts, or a named error",
    );
    default_method_on_the_squeezer(&mut s);
    let cases = match cases(ctx.quick) {
        Ok(c) => c,
        Err(e) => {
            s.notes.push(format!("the cases could not be built: {e}"));
            return s;
        }
    };
    let methods = all_methods();
    let cells = match run_matrix(&cases, &methods) {
        Ok(c) => c,
        Err(e) => {
            s.notes.push(format!("a reference run failed: {e}"));
            return s;
        }
    };
    let (right, named, wrong) = tally(&cells);
    s.notes.push(format!(
        "{} cells: {right} right, {named} stopped with a named error, {wrong} wrong. A cell is right when its end state is within 1e3 × tolerance (adaptive) or the case's fixed-step bound of the reference; the reference is the exact parallelogram motion for the N-four-bar and `lagrange-projection` under RK45 at a 100 times tighter tolerance otherwise.",
        cells.len()
    ));
    let per_case = methods.len() * Integration::ALL.len();
    let mut json = Vec::new();
    for (case, chunk) in cases.iter().zip(cells.chunks(per_case)) {
        let mut t = Table::new(
            &format!(
                "conformance_{}",
                case.name.replace([' ', '(', ')', '=', '\''], "_")
            ),
            &format!(
                "{} — {} s, rk45/adams at rtol = atol = {:.0e}, fixed step h = {:.0e}",
                case.name, case.t_end, case.tol, case.h
            ),
            &["method", "rk45", "adams", "own fixed-step rule"],
        );
        for row in chunk.chunks(Integration::ALL.len()) {
            let mut cells = vec![row[0].method.clone()];
            cells.extend(row.iter().map(|c| {
                let rule = if c.integration == Integration::OwnFixedStep {
                    format!("{}: ", c.integrator)
                } else {
                    String::new()
                };
                format!("{rule}{}", describe(c))
            }));
            t.row(cells);
        }
        let (r, e, w) = tally(chunk);
        t.note(format!("{r} right, {e} named errors, {w} wrong"));
        s.tables.push(t);
        for c in chunk {
            json.push(serde_json::json!({
                "case": c.case,
                "method": c.method,
                "integrator": c.integrator,
                "outcome": c.outcome.label(),
                "detail": describe(c),
                "wall_time_s": c.wall_time,
                "rhs_evals": c.rhs_evals,
            }));
        }
    }
    s.set("cells", serde_json::Value::Array(json));
    s.set(
        "tally",
        serde_json::json!({"right": right, "named_error": named, "wrong": wrong}),
    );
    s
}
