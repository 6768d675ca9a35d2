//! Suite `complement` (BENCHMARKS.md, Pękal–Frączek Figs 2–5): the McPherson
//! struts with every null-space method × stabilization (none, Baumgarte
//! α̂ = β̂ = 10, Newton–Raphson) × RK45 tolerance.
//!
//! * criterion: one right-hand-side evaluation per method and strut, and the
//!   10-s run at RelTol = AbsTol = 1e-6 per method × stabilization;
//! * a one-shot sweep over the paper's four tolerances, printed to stderr and
//!   written to `target/criterion/complement-strut-sweep.csv` (wall time, steps,
//!   RHS evaluations, largest ‖Φ‖ and ‖Φ̇‖, re-selections, status).

#[allow(dead_code)] // a shared fixture: each user takes part of it
#[path = "../../crates/complement/tests/common/strut.rs"]
mod strut;

use std::hint::black_box;
use std::io::Write;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use mbs_complement::{Complement, ComplementParams, Coordinates, NullSpaceMethod, Stabilization};
use mbs_integrators::OdeSystem;
use mbs_mechanisms::{McPhersonParams, mcpherson_overconstrained, mcpherson_simplified};
use mbs_model::Model;
use strut::{PAPER_T_END, PAPER_TOLERANCES, run, sweep};

const NR_TOL: f64 = 1e-8;

fn struts() -> Vec<(&'static str, Arc<Model>)> {
    let p = McPhersonParams::default();
    vec![
        (
            "simplified",
            Arc::new(mcpherson_simplified(&p).expect("strut")),
        ),
        (
            "overconstrained",
            Arc::new(mcpherson_overconstrained(&p).expect("strut")),
        ),
    ]
}

fn rhs(c: &mut Criterion) {
    let mut group = c.benchmark_group("complement/rhs");
    for (name, model) in struts() {
        for method in NullSpaceMethod::ALL {
            let params = ComplementParams::with_method(method);
            let Ok(mut sys) = Complement::new(model.clone(), params) else {
                continue;
            };
            let y = sys.initial_state();
            let mut dy = vec![0.0; y.len()];
            group.bench_function(format!("{}/{name}", method.name()), |b| {
                b.iter(|| black_box(sys.rhs(0.0, black_box(&y), &mut dy).ok()))
            });
        }
    }
    group.finish();
}

fn strut_runs(c: &mut Criterion) {
    let mut group = c.benchmark_group("complement/strut-10s-1e-6");
    group.sample_size(10);
    for (name, model) in struts() {
        for method in NullSpaceMethod::ALL {
            for stabilization in Stabilization::paper_cases(NR_TOL) {
                let params = ComplementParams {
                    method,
                    stabilization,
                    ..ComplementParams::default()
                };
                group.bench_function(
                    format!("{name}/{}/{}", method.name(), stabilization.name()),
                    |b| {
                        b.iter(|| {
                            black_box(
                                run(model.clone(), params, 1e-6, PAPER_T_END, false).completed(),
                            )
                        })
                    },
                );
            }
        }
    }
    group.finish();
}

fn strut_sweep(_c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion");
    let _ = std::fs::create_dir_all(&path);
    let mut csv = std::fs::File::create(path.join("complement-strut-sweep.csv")).ok();
    let header = "strut,coordinates,method,stabilization,tol,wall_s,steps,rejected,rhs,max_phi,max_phi_dot,reselections,status";
    eprintln!("{header}");
    if let Some(f) = csv.as_mut() {
        let _ = writeln!(f, "{header}");
    }
    for (name, model) in struts() {
        for coordinates in [
            Coordinates::EulerParams,
            Coordinates::EulerAngles(mbs_complement::EulerSequence::Zyx),
        ] {
            for r in sweep(
                model.clone(),
                coordinates,
                &NullSpaceMethod::ALL,
                &PAPER_TOLERANCES,
                NR_TOL,
                PAPER_T_END,
                true,
            ) {
                let line = format!(
                    "{name},{},{},{},{:e},{:.4},{},{},{},{:.3e},{:.3e},{},{}",
                    coordinates.name(),
                    r.params.method.name(),
                    r.params.stabilization.name(),
                    r.tol,
                    r.wall.as_secs_f64(),
                    r.info.accepted_steps,
                    r.info.rejected_steps,
                    r.info.rhs_evals,
                    r.max_position_violation,
                    r.max_velocity_violation,
                    r.stats.reselections,
                    r.error.as_deref().unwrap_or("ok").replace(',', ";"),
                );
                eprintln!("{line}");
                if let Some(f) = csv.as_mut() {
                    let _ = writeln!(f, "{line}");
                }
            }
        }
    }
}

criterion_group!(benches, rhs, strut_runs, strut_sweep);
criterion_main!(benches);
