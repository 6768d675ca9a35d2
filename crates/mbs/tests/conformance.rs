//! The conformance matrix (issue: every method right on every mechanism it accepts):
//! every method × {rk45, adams, the method's own fixed-step rule} on six mechanisms
//! written as model files in `examples/models/`. Each cell must agree with the
//! reference (the exact motion of the N-four-bar; `lagrange-projection` at a tight
//! tolerance for the others) or stop with a named error; none may finish on another
//! motion. The matrix printed here is the same as `cargo xtask bench --suite
//! conformance` (which runs it longer and tighter).
//!
//! Measured (tolerance 1e-7, these settings, test profile): 299 right, 61 named
//! errors, 0 wrong, 100 s of CPU time (120 s wall on 2 shared cores). Before the
//! implicit rules kept their Newton matrix across steps and the penalty method
//! stopped at its regularization error: 293 right, 56 named errors, 11 wrong, 773 s
//! of CPU time. Each printed line gives the cell's wall time and right-hand-side
//! evaluations.

use mbs::conformance::{Case, Outcome, accurate_run, all_methods, run_matrix, state_error, tally};
use mbs::mechanisms::iftomm::NFourBar;

fn model_file(name: &str) -> mbs::Model {
    let path = format!(
        "{}/../../examples/models/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    mbs::load_model(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The six mechanisms, with horizons long enough to pass the four-bar's singular
/// configuration twice (t ≈ 0.71 s and ≈ 1.6 s), a tolerance of 1e-7 and fixed steps
/// at which the second-order rules are within 1e3 · h² of the reference.
fn cases() -> Vec<Case> {
    let four_bar_end = 2.0;
    vec![
        Case::new(
            "n-four-bar",
            model_file("n_four_bar.toml"),
            four_bar_end,
            1e-7,
            2e-3,
        )
        .with_exact_end(NFourBar::default().exact_state(four_bar_end)),
        Case::new("bricard", model_file("bricard.toml"), 1.5, 1e-7, 2e-3),
        // the crank turns at 6 rad/s: the second-order rules are measured against
        // (h / 0.2 s)²
        Case::new(
            "spatial-slider-crank",
            model_file("spatial_slider_crank.toml"),
            1.0,
            1e-7,
            2e-3,
        )
        .with_fixed_step_tol(1e3 * (2e-3f64 / 0.2).powi(2)),
        Case::new(
            "double-pendulum",
            model_file("double_pendulum.toml"),
            1.0,
            1e-7,
            2e-3,
        ),
        Case::new(
            "cartesian-pendulum",
            model_file("cartesian_pendulum.toml"),
            2.0,
            1e-7,
            2e-3,
        ),
        // Andrew's squeezer moves on a millisecond scale: the second-order rules are
        // measured against (h / 1 ms)²
        Case::new(
            "andrews-squeezer",
            model_file("andrews_squeezer.toml"),
            0.01,
            1e-7,
            1e-5,
        )
        .with_fixed_step_tol(1e3 * (1e-5f64 / 1e-3).powi(2)),
    ]
}

#[test]
fn no_method_finishes_on_a_wrong_motion() {
    let cases = cases();
    let cells = run_matrix(&cases, &all_methods()).expect("references");
    let mut wrong = Vec::new();
    for c in &cells {
        let detail = match &c.outcome {
            Outcome::Right {
                error,
                energy_drift,
            } => format!("err {error:.1e}, dE {energy_drift:.1e}"),
            Outcome::Wrong {
                error,
                energy_drift,
                allowed,
            } => {
                wrong.push(format!("{} / {} / {}", c.case, c.method, c.integrator));
                format!("err {error:.1e} > {allowed:.1e}, dE {energy_drift:.1e}")
            }
            Outcome::NamedError { message } => {
                assert!(
                    message.len() > 20,
                    "{} / {} / {}: an error must say why: {message:?}",
                    c.case,
                    c.method,
                    c.integrator
                );
                message.chars().take(140).collect()
            }
        };
        println!(
            "{:<20} {:<26} {:<28} {:<5} {:>7.2} s {:>8} rhs  {}",
            c.case,
            c.method,
            c.integrator,
            c.outcome.label(),
            c.wall_time,
            c.rhs_evals,
            detail
        );
    }
    let (right, named, n_wrong) = tally(&cells);
    println!("cells: {right} right, {named} named errors, {n_wrong} wrong");
    assert!(wrong.is_empty(), "wrong motions, silently: {wrong:#?}");
    // the matrix is not vacuous: most cells compute the motion
    assert!(
        right * 2 > cells.len(),
        "only {right} of {} cells right",
        cells.len()
    );
}

/// The reference of the four-bar is its exact motion; an accurate run of a method
/// with projections agrees with it (so the exact motion is the mechanism's).
#[test]
fn n_four_bar_exact_motion_is_the_accurate_run() {
    let mut case = cases().remove(0);
    case.t_end = 1.0;
    case.tol = 1e-9;
    let exact = NFourBar::default().exact_state(case.t_end);
    let run = accurate_run(&case).expect("accurate run");
    let e = state_error(&run, &exact);
    assert!(
        e < 1e-7,
        "accurate run vs exact parallelogram motion: {e:e}"
    );
    // and a state on the other branch would be far: cranks 1 and 2 swapped in phase
    let mut other = exact.clone();
    other.q[7] += 0.1;
    assert!(state_error(&other, &exact) > 1e-2);
}

/// The guard: an ALF-DCA run without projections that leaves the
/// four-bar's motion at its singular configuration stops with a "wrong motion" error
/// naming the singular pass; with the guard off it finishes (the motion it computes is
/// not the mechanism's).
#[test]
fn energy_guard_stops_a_wrong_motion_and_names_the_singular_configuration() {
    let model = model_file("n_four_bar.toml");
    let sim = mbs::Simulation::new(model)
        .method("alf-dca".parse().unwrap())
        .integrator(mbs::IntegratorChoice::Rk45 {
            rtol: 1e-8,
            atol: 1e-8,
        })
        .t_end(3.0)
        .samples(300);
    let err = sim
        .run()
        .expect_err("lagrange jumps to another branch at 1e-8");
    let msg = err.to_string();
    assert!(msg.contains("wrong motion"), "{msg}");
    assert!(msg.contains("singular configuration"), "{msg}");
    let unguarded = sim.guard(false).run().expect("runs without the guard");
    let exact = NFourBar::default().exact_state(3.0);
    let e = state_error(unguarded.states.last().unwrap(), &exact);
    assert!(e > 1e-2, "without the guard the motion is wrong: {e:e}");
    assert!(!unguarded.singular_passes.is_empty());
    assert!(unguarded.singular_passes[0].t > 0.6 && unguarded.singular_passes[0].t < 0.8);
}
