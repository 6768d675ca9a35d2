//! Assembly of inconsistent initial states (robustness: initial conditions).

use std::sync::Arc;

use mbs_alf::{AlfError, AssemblyParams, assemble};
use mbs_constraints::{SystemLayout, Workspace};
use mbs_mechanisms::alf_dca::{AlfDcaParams, five_bar};
use mbs_model::{Layout, State};
use nalgebra::Vector3;

fn violations(model: &mbs_model::Model, s: &State) -> (f64, f64) {
    let sys = SystemLayout::new(model, s.layout);
    let mut ws = Workspace::new(&sys);
    ws.evaluate(model, &sys, s).unwrap();
    let mut phi = vec![0.0; sys.n_rows()];
    ws.phi(&sys, &mut phi).unwrap();
    let mut phid = vec![0.0; sys.n_rows()];
    ws.phi_dot(&sys, &mut phid).unwrap();
    let amax = |x: &[f64]| x.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    (amax(&phi[..sys.n_holonomic()]), amax(&phid))
}

#[test]
fn inconsistent_five_bar_is_assembled() {
    let model = Arc::new(five_bar(&AlfDcaParams::default()).unwrap());
    for layout in [Layout::EulerParamsOmega, Layout::EulerParamsPdot] {
        let mut s = State::initial(&model, layout);
        // move body 2 by 1 cm and give every body a velocity that breaks the joints
        let r = s.position(1) + Vector3::new(0.01, -0.007, 0.003);
        let p = s.euler_params(1);
        s.set_pose(1, &r, &p);
        for b in 0..model.n_bodies() {
            s.set_velocity(
                b,
                &Vector3::new(0.1 * b as f64, 0.2, -0.05),
                &Vector3::new(0.0, 0.3, 1.0),
            );
        }
        let (phi0, phid0) = violations(&model, &s);
        assert!(phi0 > 1e-3 && phid0 > 1e-2);
        let (a, report) = assemble(model.clone(), &s, &AssemblyParams::default()).unwrap();
        let (phi, phid) = violations(&model, &a);
        eprintln!("{layout:?}: {report:?}");
        assert!(phi <= 1e-12, "‖Φ‖ = {phi:e}");
        assert!(phid <= 1e-12, "‖Φ̇‖ = {phid:e}");
        assert!(report.moved() && report.position_change < 0.05);
        assert_eq!(a.layout, layout);
    }
}

#[test]
fn far_state_gives_the_documented_error() {
    let model = Arc::new(five_bar(&AlfDcaParams::default()).unwrap());
    let mut s = State::initial(&model, Layout::EulerParamsPdot);
    let r = s.position(2) + Vector3::new(3.0, 5.0, 0.0);
    let p = s.euler_params(2);
    s.set_pose(2, &r, &p);
    let err = assemble(model.clone(), &s, &AssemblyParams::default()).unwrap_err();
    let msg = err.to_string();
    eprintln!("{msg}");
    assert!(
        matches!(err, AlfError::InconsistentInitialState { .. }),
        "{err:?}"
    );
    assert!(msg.contains("joint `"), "{msg}");
}
