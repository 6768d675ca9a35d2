mod common;
use mbs_constraints::{SystemLayout, Workspace};
use mbs_dca::{AlfDca, DcaParams};
use mbs_integrators::{EmbeddedRk, OdeSystem, Recorder, RkParams};
use mbs_model::Layout;
#[test]
fn dbg() {
    for kind in [5u8, 6] {
        let model = common::mechanism(kind, 0, 4);
        let mut dca = AlfDca::new(model.clone(), DcaParams::default());
        let y0 = dca.initial_state();
        let mut rk = EmbeddedRk::rk45(dca.dim(), RkParams::with_tol(1e-6, 1e-6));
        let mut rec = Recorder { record_steps: true, ..Recorder::new() };
        rk.integrate(&mut dca, 0.0, &y0, 10.0, &[], &mut rec).unwrap();
        let sys = SystemLayout::new(&model, Layout::EulerParamsOmega);
        let mut ws = Workspace::new(&sys);
        let mut jac = nalgebra::DMatrix::zeros(sys.n_rows(), sys.n_v());
        let rank = if kind == 5 { 22 } else { 44 };
        let mut line = String::new();
        for i in (0..rec.t.len()).step_by((rec.t.len() / 40).max(1)) {
            let s = dca.to_state(rec.t[i], rec.state(i));
            ws.evaluate(&model, &sys, &s).unwrap();
            ws.phi_q_dense(&sys, &mut jac).unwrap();
            let mut sv = jac.clone().svd(false, false).singular_values.as_slice().to_vec();
            sv.sort_by(|a, b| b.partial_cmp(a).unwrap());
            line += &format!(" {:.1}:{:.1e}", rec.t[i], sv[rank - 1]);
        }
        eprintln!("kind {kind} sigma_rank:{line}");
    }
}
