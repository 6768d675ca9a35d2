use std::sync::Arc;
use mbs_dca::DcaParams;
#[test]
fn dbg() {
    for n in [16usize, 256, 4096] {
        let model = Arc::new(mbs_mechanisms::open_chain(n, mbs_mechanisms::ChainJoint::Revolute).unwrap());
        for iters in [1usize, 10] {
            let p = DcaParams { max_iter: iters, eps_a: 0.0, parallel: false, ..DcaParams::default() };
            let t = mbs_dca::bench::time_per_rhs(model.clone(), p, 20).unwrap();
            eprintln!("n {n} iters {iters}: {:?} per rhs ({:?}/body)", t, t / n as u32);
        }
    }
}
