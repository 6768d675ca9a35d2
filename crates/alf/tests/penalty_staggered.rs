//! Penalty constraint stabilization with the two-stage staggered procedure
//! (Chiou sec 5.5): dense vs Schur-complement PCG, thread-count independence,
//! bounded constraint violation, errors.

use std::sync::Arc;

use mbs_alf::AlfError;
use mbs_alf::{
    InitialMultipliers, LambdaBackend, LambdaUpdate, PenaltyParams, PenaltyStats, PenaltySystem,
};
use mbs_integrators::{PartitionedSystem, Recorder, StaggeredParams, TwoStageStaggered};
use mbs_linalg::Par;
use mbs_linalg::pcg::{PcgParams, Preconditioner};
use mbs_mechanisms::chiou;
use mbs_model::Model;

fn crank_slider() -> Arc<Model> {
    Arc::new(chiou::crank_slider(&Default::default()).unwrap())
}

fn three_link() -> Arc<Model> {
    Arc::new(chiou::three_link_manipulator(&Default::default()).unwrap())
}

fn pcg(preconditioner: Preconditioner, par: Par) -> LambdaBackend {
    LambdaBackend::Pcg(PcgParams {
        tol: 1e-12,
        warm_start: true,
        preconditioner,
        par,
        ..PcgParams::default()
    })
}

struct Run {
    /// Every step's [x, v].
    rec: Recorder,
    /// Largest max|Φ| over the steps, and where.
    max_phi: f64,
    location: String,
    stats: PenaltyStats,
    lambda: Vec<f64>,
}

fn run(model: Arc<Model>, params: PenaltyParams, h: f64, t_end: f64) -> Run {
    let mut sys = PenaltySystem::new(model, params).unwrap();
    let (x0, v0) = sys.initial_state();
    let (nx, nv) = (x0.len(), v0.len());
    let mut integ = TwoStageStaggered::new(nx, nv, StaggeredParams::new(h));
    let mut rec = Recorder::new();
    rec.record_steps = true;
    integ
        .integrate(&mut sys, 0.0, &x0, &v0, t_end, &[], &mut rec)
        .unwrap();
    let stats = sys.stats();
    let lambda = sys.lambda().to_vec();
    let (mut max_phi, mut location) = (0.0, String::new());
    for (k, &t) in rec.t.iter().enumerate() {
        let y = rec.state(k);
        let v = sys.violation(t, &y[..nx], &y[nx..nx + nv]).unwrap();
        if v.max_abs > max_phi {
            max_phi = v.max_abs;
            location = v.location;
        }
    }
    Run {
        rec,
        max_phi,
        location,
        stats,
        lambda,
    }
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// Acceptance: PCG and dense give the same trajectory to 1e-8 over 2 s (> 2 crank
/// cycles of ≈ 0.82 s) on the crank-slider, every preconditioner; iterations reported.
#[test]
fn crank_slider_pcg_matches_dense() {
    let (h, t_end) = (2e-3, 2.0);
    let dense = run(crank_slider(), PenaltyParams::default(), h, t_end);
    assert_eq!(dense.stats.last_pcg, None);
    for pre in [
        Preconditioner::None,
        Preconditioner::Diagonal,
        Preconditioner::Scaled,
    ] {
        let p = run(
            crank_slider(),
            PenaltyParams {
                backend: pcg(pre, Par::Seq),
                ..PenaltyParams::default()
            },
            h,
            t_end,
        );
        let diff = max_diff(&dense.rec.y, &p.rec.y);
        let dl = max_diff(&dense.lambda, &p.lambda);
        println!(
            "crank-slider h = {h}, {t_end} s, PCG {pre:?}: {} solves, mean {:.2} / max {} iterations; max |x,v dense − PCG| over all steps = {diff:.2e}, final |Δλ| = {dl:.2e}",
            p.stats.stage_solves,
            p.stats.mean_pcg_iterations(),
            p.stats.pcg_max_iterations
        );
        assert!(diff < 1e-8, "{pre:?}: trajectory differs by {diff:e}");
        assert_eq!(p.stats.stage_solves, dense.stats.stage_solves);
        assert!(p.stats.pcg_iterations > 0);
        // m = 11 rows: CG in exact arithmetic needs at most 11.
        assert!(p.stats.pcg_max_iterations <= 11 + 2, "{:?}", p.stats);
    }
    // Without the warm start (λ₀ = 0 at every solve).
    let cold = run(
        crank_slider(),
        PenaltyParams {
            backend: LambdaBackend::Pcg(PcgParams {
                tol: 1e-12,
                warm_start: false,
                preconditioner: Preconditioner::Diagonal,
                ..PcgParams::default()
            }),
            ..PenaltyParams::default()
        },
        h,
        t_end,
    );
    let diff = max_diff(&dense.rec.y, &cold.rec.y);
    println!(
        "crank-slider PCG Diagonal, cold start: mean {:.2} / max {} iterations, max |dense − PCG| = {diff:.2e}",
        cold.stats.mean_pcg_iterations(),
        cold.stats.pcg_max_iterations
    );
    assert!(diff < 1e-8);
}

/// Acceptance: identical results for any rayon thread count (and for `Par::Seq`).
#[test]
fn pcg_results_independent_of_threads() {
    let (h, t_end) = (5e-3, 0.5);
    let reference = run(
        three_link(),
        PenaltyParams {
            backend: pcg(Preconditioner::Scaled, Par::Seq),
            ..PenaltyParams::default()
        },
        h,
        t_end,
    );
    for threads in [1, 2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let r = pool.install(|| {
            run(
                three_link(),
                PenaltyParams {
                    backend: pcg(Preconditioner::Scaled, Par::Rayon),
                    ..PenaltyParams::default()
                },
                h,
                t_end,
            )
        });
        assert_eq!(r.rec.y, reference.rec.y, "{threads} threads");
        assert_eq!(r.lambda, reference.lambda, "{threads} threads");
        assert_eq!(r.stats, reference.stats, "{threads} threads");
    }
}

/// Acceptance: the violation stays bounded and small for ε = 1e-6, h = 1e-3.
/// Measured (max over every step): crank-slider max|Φ| = 9.8e-5 m over 1 s (one
/// crank cycle ≈ 0.82 s), three-link 4.7e-6 m over 2 s. The bounds leave a factor 2–3.
#[test]
fn violation_bounded_and_small() {
    let h = 1e-3;
    let crank = run(crank_slider(), PenaltyParams::default(), h, 1.0);
    println!(
        "crank-slider, eps = 1e-6, h = {h}, 1 s: max|Phi| = {:.3e} at {}",
        crank.max_phi, crank.location
    );
    assert!(
        crank.max_phi < 2e-4,
        "{} at {}",
        crank.max_phi,
        crank.location
    );
    let links = run(three_link(), PenaltyParams::default(), h, 2.0);
    println!(
        "three-link, eps = 1e-6, h = {h}, 2 s: max|Phi| = {:.3e} at {}",
        links.max_phi, links.location
    );
    assert!(
        links.max_phi < 1.5e-5,
        "{} at {}",
        links.max_phi,
        links.location
    );
    // Convergence in h: the violation shrinks with the step.
    let coarse = run(three_link(), PenaltyParams::default(), 4e-3, 2.0);
    assert!(coarse.max_phi > 2.0 * links.max_phi);
    // λ stays finite and of the size of the joint loads (a few N).
    assert!(links.lambda.iter().all(|l| l.is_finite() && l.abs() < 1e3));
}

/// λ⁰ = Lagrange multipliers starts without the penalty transient of λ⁰ = 0: the
/// violation at the first 0.1 s is much smaller.
#[test]
fn lagrange_start_avoids_the_transient() {
    let first = |initial| {
        run(
            crank_slider(),
            PenaltyParams {
                initial,
                ..PenaltyParams::default()
            },
            1e-3,
            0.1,
        )
        .max_phi
    };
    let (lagrange, zero) = (
        first(InitialMultipliers::Lagrange),
        first(InitialMultipliers::Zero),
    );
    println!("first 0.1 s: max|Phi| Lagrange start {lagrange:.2e}, zero start {zero:.2e}");
    assert!(lagrange < 0.1 * zero);
}

/// The literal reading of procedure 5.5.6 (extrapolated λ at integer stations) is
/// unstable for ε = 1e-6; the default is not.
#[test]
fn extrapolated_multipliers_are_unstable() {
    let p = PenaltyParams {
        update: LambdaUpdate::Extrapolate,
        ..PenaltyParams::default()
    };
    let r = run(crank_slider(), p, 5e-3, 1.5);
    println!(
        "extrapolated λ, h = 5e-3, 1.5 s: max|Phi| = {:.2e}",
        r.max_phi
    );
    assert!(r.max_phi > 1e-2);
}

/// A reused system gives the same run twice after `reset` (no hidden history).
#[test]
fn reset_reproduces_the_run() {
    let mut sys = PenaltySystem::new(three_link(), PenaltyParams::default()).unwrap();
    let (x0, v0) = sys.initial_state();
    let mut integ = TwoStageStaggered::new(x0.len(), v0.len(), StaggeredParams::new(1e-2));
    integ
        .integrate(&mut sys, 0.0, &x0, &v0, 0.3, &[], &mut ())
        .unwrap();
    let (x1, l1) = (integ.x().to_vec(), sys.lambda().to_vec());
    sys.reset();
    integ
        .integrate(&mut sys, 0.0, &x0, &v0, 0.3, &[], &mut ())
        .unwrap();
    assert_eq!(integ.x(), &x1[..]);
    assert_eq!(sys.lambda(), &l1[..]);
    let mut forces = vec![0.0; v0.len()];
    sys.constraint_forces(&mut forces).unwrap();
    assert!(forces.iter().any(|f| f.abs() > 0.0));
}

#[test]
fn errors_say_what_and_where() {
    let e = PenaltySystem::new(
        crank_slider(),
        PenaltyParams {
            epsilon: 0.0,
            ..PenaltyParams::default()
        },
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            AlfError::InvalidParameter {
                name: "epsilon",
                ..
            }
        ),
        "{e}"
    );
    // A non-finite state names the body and the time.
    let mut sys = PenaltySystem::new(crank_slider(), PenaltyParams::default()).unwrap();
    let (mut x0, v0) = sys.initial_state();
    x0[7] = f64::NAN;
    let mut a = vec![0.0; v0.len()];
    let msg = sys
        .accelerations(0.25, &x0, &v0, &mut a)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("rod") && msg.contains("0.25"), "{msg}");
    // Row labels name the joint.
    assert!(sys.row_label(5).contains("pin"), "{}", sys.row_label(5));
}

/// Nonholonomic rows (rolling ball, thesis sec 7.4): eq 5.3.3 rows with D = ϱε,
/// i.e. the PCG row scaling S = diag(1 | 1/√ϱ), agree with the dense solve.
#[test]
fn bowling_ball_nonholonomic_pcg_matches_dense() {
    let model = Arc::new(chiou::bowling_ball(&Default::default()).unwrap());
    let dense = run(model.clone(), PenaltyParams::default(), 2e-3, 0.5);
    let p = run(
        model,
        PenaltyParams {
            backend: pcg(Preconditioner::Diagonal, Par::Seq),
            ..PenaltyParams::default()
        },
        2e-3,
        0.5,
    );
    let diff = max_diff(&dense.rec.y, &p.rec.y);
    println!(
        "bowling ball, 0.5 s: max|Phi| {:.2e} at {}, PCG mean {:.2} iterations, |dense − PCG| {diff:.2e}",
        dense.max_phi,
        dense.location,
        p.stats.mean_pcg_iterations()
    );
    assert!(diff < 1e-8, "{diff:e}");
    assert!(
        dense.max_phi < 1e-3,
        "{} at {}",
        dense.max_phi,
        dense.location
    );
}
