//! Acceptance 2 and 3 on the paper's cases 1–3 (sec 3.1): velocity-level loop closure
//! at round-off along RK45 runs (tol 1e-6); position drift and energy error reported.

use std::sync::Arc;

use mbs_hdca::run_report;
use mbs_mechanisms::hdca::{HdcaParams as CaseParams, hdca_case1, hdca_case2, hdca_case3};

fn check(name: &str, model: mbs_model::Model, t_end: f64) {
    let r = run_report(Arc::new(model), t_end, 1e-6, 50).unwrap();
    println!(
        "{name}: t_end {t_end} s, max |ΔE| {:.3e}, max ‖Φ̇‖ {:.3e}, max ‖Φ‖ {:.3e}, RHS {}, steps {}",
        r.max_energy_error, r.max_phi_dot, r.max_phi, r.rhs_evaluations, r.steps
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
