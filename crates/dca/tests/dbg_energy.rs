mod common;
use mbs_constraints::{SystemLayout, Workspace};
use mbs_dca::{AlfDca, DcaParams};
use mbs_integrators::{EmbeddedRk, OdeSystem, Recorder, RkParams};
use mbs_model::Layout;
#[test]
fn dbg() {
    for kind in [5u8, 6] {
      for w0 in [5.0, 10.0, 20.0] {
        for proj in [true, false] {
        let model = common::mechanism(kind, 0, 4);
        let mut dca = AlfDca::new(model.clone(), DcaParams { projections: proj, ..DcaParams::default() });
        let mut y0 = dca.initial_state();
        let n = model.n_bodies();
        y0[7 * n + 5] = w0; // ω'_z of body 1
        dca.project_state(0.0, &mut y0).unwrap();
        let e0 = dca.energy(0.0, &y0).unwrap();
        let mut rk = EmbeddedRk::rk45(dca.dim(), RkParams::with_tol(1e-6, 1e-6));
        let mut rec = Recorder { record_steps: true, ..Recorder::new() };
        let r = rk.integrate(&mut dca, 0.0, &y0, 10.0, &[], &mut rec);
        let sys = SystemLayout::new(&model, Layout::EulerParamsOmega);
        let mut ws = Workspace::new(&sys);
        let mut jac = nalgebra::DMatrix::zeros(sys.n_rows(), sys.n_v());
        let rank = if kind == 5 { 22 } else { 44 };
        let (mut smin, mut emax, mut phimax): (f64, f64, f64) = (1e9, 0.0, 0.0);
        for i in 0..rec.t.len() {
            let s = dca.to_state(rec.t[i], rec.state(i));
            ws.evaluate(&model, &sys, &s).unwrap();
            ws.phi_q_dense(&sys, &mut jac).unwrap();
            let mut sv = jac.clone().svd(false, false).singular_values.as_slice().to_vec();
            sv.sort_by(|a, b| b.partial_cmp(a).unwrap());
            smin = smin.min(sv[rank - 1]);
            emax = emax.max((dca.energy(rec.t[i], rec.state(i)).unwrap() - e0).abs());
            phimax = phimax.max(dca.constraint_errors(rec.t[i], rec.state(i)).unwrap().0);
        }
        eprintln!("kind {kind} w0 {w0} proj {proj}: ok {} steps {} smin {smin:.1e} dE {emax:.2e} phi {phimax:.1e} E0 {e0:.3}", r.is_ok(), rec.t.len());
        }
      }
    }
}
