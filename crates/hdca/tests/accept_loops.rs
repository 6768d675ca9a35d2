//! Acceptance 2 and 3 on the paper's cases 1–3 (sec 3.1): velocity-level loop closure
//! at round-off along RK45 runs (tol 1e-6); position drift and energy error reported.

#[allow(dead_code)] // a shared fixture: each user takes part of it
#[path = "common/report.rs"]
mod report;

use std::sync::Arc;

use mbs_mechanisms::hdca::{HdcaParams as CaseParams, hdca_case1, hdca_case2, hdca_case3};
use report::run_report;

fn check(name: &str, model: mbs_model::Model, t_end: f64) {
    let r = run_report(Arc::new(model), t_end, 1e-6, 50).unwrap();
    println!(
        "{name}: t_end {t_end} s, max |ΔE| {:.3e}, max ‖Φ̇‖ {:.3e}, max ‖Φ‖ {:.3e}, max |σ| {:.3e}, RHS {}, steps {}",
        r.max_energy_error, r.max_phi_dot, r.max_phi, r.max_abs_sigma, r.rhs_evaluations, r.steps
    );
    assert!(
        r.max_phi_dot <= 1e-12,
        "{name}: velocity closure {}",
        r.max_phi_dot
    );
    assert!(
        r.max_energy_error < 1e-3,
        "{name}: energy {}",
        r.max_energy_error
    );
}

#[test]
fn case1_loop_closure() {
    check("case 1", hdca_case1(&CaseParams::default()).unwrap(), 10.0);
}

#[test]
fn case2_loop_closure() {
    check("case 2", hdca_case2(&CaseParams::default()).unwrap(), 10.0);
}

#[test]
fn case3_loop_closure() {
    check("case 3", hdca_case3(&CaseParams::default()).unwrap(), 10.0);
}

/// Position drift of HDCA against the acceleration-based Lagrange formulation in
/// absolute coordinates without projection (both RK45, tol 1e-6, 10 s, case 1).
#[test]
fn case1_drift_far_below_acceleration_based() {
    use mbs_alf::{Formulation, Index1, MechanismDescriptor, Projection};
    use mbs_constraints::{SystemLayout, Workspace};
    use mbs_integrators::{EmbeddedRk, Recorder, RkParams};
    use mbs_model::{Layout, State};
    use nalgebra::DVector;

    let model = Arc::new(hdca_case1(&CaseParams::default()).unwrap());
    let hd = run_report(model.clone(), 10.0, 1e-6, 50).unwrap();

    let desc = MechanismDescriptor::new(model.clone());
    let (q0, v0) = desc.initial();
    let n = q0.len();
    let mut sys = Index1::new(
        desc,
        Formulation::Lagrange {
            baumgarte: None,
            min_norm: true,
        },
        Projection::None,
    );
    let y0: Vec<f64> = q0.iter().chain(&v0).copied().collect();
    let t_out: Vec<f64> = (0..=50).map(|k| 0.2 * k as f64).collect();
    let mut rk = EmbeddedRk::rk45(2 * n, RkParams::with_tol(1e-6, 1e-6));
    let mut rec = Recorder::default();
    rk.integrate(&mut sys, 0.0, &y0, 10.0, &t_out, &mut rec)
        .unwrap();
    let layout = SystemLayout::new(&model, Layout::EulerParamsPdot);
    let mut ws = Workspace::new(&layout);
    let mut phi = vec![0.0; layout.n_rows()];
    let skip = layout.normalization_start().unwrap_or(layout.n_holonomic());
    let mut lag_max = 0.0_f64;
    let mut e0 = None;
    let mut lag_de = 0.0_f64;
    for (i, &t) in rec.t.iter().enumerate() {
        let y = rec.state(i);
        let s = State {
            layout: Layout::EulerParamsPdot,
            t,
            q: DVector::from_column_slice(&y[..n]),
            v: DVector::from_column_slice(&y[n..]),
        };
        ws.evaluate(&model, &layout, &s).unwrap();
        ws.phi(&layout, &mut phi).unwrap();
        let e = ws.total_energy(&layout);
        lag_de = lag_de.max((e - *e0.get_or_insert(e)).abs());
        lag_max = phi[..skip].iter().fold(lag_max, |m, x| m.max(x.abs()));
    }
    println!(
        "case 1 over 10 s: position drift HDCA {:.3e}, Lagrange (acceleration level, no projection) {lag_max:.3e}; energy error HDCA {:.3e}, Lagrange {lag_de:.3e}",
        hd.max_phi, hd.max_energy_error
    );
    assert!(
        hd.max_phi < 0.1 * lag_max,
        "HDCA {} vs Lagrange {lag_max}",
        hd.max_phi
    );
}
