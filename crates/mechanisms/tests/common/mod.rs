//! Shared checks of the integration tests: constraint residuals at the initial state.

#![allow(dead_code)]

use mbs_constraints::{SystemLayout, Workspace};
use mbs_model::{Layout, Model, State};
use nalgebra::{DMatrix, DVector};

/// ‖Φ‖∞ and ‖Φ̇‖∞ = ‖Φ_q v + Φ_t‖∞ at the model's initial state in `layout` (the [ṙ, ṗ]
/// layout includes the Euler-parameter normalization rows; nonholonomic rows are
/// velocity-level only and enter Φ̇).
pub fn residuals(model: &Model, layout: Layout) -> (f64, f64) {
    let sys = SystemLayout::new(model, layout);
    let mut ws = Workspace::new(&sys);
    let state = State::initial(model, layout);
    ws.evaluate_constraints(model, &sys, &state)
        .expect("evaluate");
    let m = sys.n_rows();
    let nh = sys.n_holonomic();
    let mut phi = vec![0.0; m];
    ws.phi(&sys, &mut phi).expect("phi");
    let mut phi_t = vec![0.0; m];
    ws.phi_t(&sys, &mut phi_t).expect("phi_t");
    let mut jac = DMatrix::zeros(m, sys.n_v());
    ws.phi_q_dense(&sys, &mut jac).expect("phi_q");
    let phidot = &jac * &state.v + DVector::from_vec(phi_t);
    let phi_norm = phi[..nh].iter().fold(0.0f64, |a, x| a.max(x.abs()));
    (phi_norm, phidot.amax())
}

/// Asserts ‖Φ‖ ≤ 1e-10 and ‖Φ̇‖ ≤ 1e-10 in both velocity layouts.
pub fn assert_consistent(name: &str, model: &Model) {
    for layout in [Layout::EulerParamsPdot, Layout::EulerParamsOmega] {
        let (p, v) = residuals(model, layout);
        assert!(p <= 1e-10, "{name} ({layout:?}): ‖Φ‖∞ = {p:e}");
        assert!(v <= 1e-10, "{name} ({layout:?}): ‖Φ̇‖∞ = {v:e}");
    }
}

/// Asserts that the model survives JSON and TOML round trips unchanged.
pub fn assert_round_trips(name: &str, model: &Model) {
    let json = model.to_json_string();
    let back = Model::from_json_str(&json).unwrap_or_else(|e| panic!("{name}: JSON: {e}"));
    assert_eq!(&back, model, "{name}: JSON round trip");
    let toml = model.to_toml_string();
    let back = Model::from_toml_str(&toml).unwrap_or_else(|e| panic!("{name}: TOML: {e}"));
    assert_eq!(&back, model, "{name}: TOML round trip");
}
