mod common;
use mbs_dca::{AlfDca, DcaParams};
use mbs_integrators::OdeSystem;
#[test]
fn dbg() {
    let model = common::mechanism(0, 1, 300);
    let mut dca = AlfDca::new(model.clone(), DcaParams::default());
    let state = common::random_state(&model, 11, 0.02);
    eprintln!("state q0 {:?}", &state.q.as_slice()[..7]);
    let y = dca.from_state(&state);
    eprintln!("y {:?} len {} dim {}", &y[..7], y.len(), dca.dim());
    let mut dy = vec![0.0; dca.dim()];
    dca.rhs(0.1, &y, &mut dy).unwrap();
}
