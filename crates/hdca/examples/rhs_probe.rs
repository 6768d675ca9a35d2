//! Probe of the HDCA right-hand side (developer tool, not a benchmark of record:
//! `cargo xtask bench` / criterion `benches/benches/hdca.rs` are):
//!
//! * `rhs_probe time N...`: µs per RHS on `chain:n=N` (one thread, best of 5);
//! * `rhs_probe state MODEL`: the state y after 1 s of fixed-step RK4 (h = 1 ms) for
//!   MODEL ∈ {five-bar, chain16, loop16}, one value per line, to compare two builds;
//! * `rhs_probe loop N COUNT`: COUNT evaluations on `chain:n=N` (for `perf`).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use mbs_hdca::{Hdca, HdcaParams};
use mbs_integrators::OdeSystem;
use mbs_linalg::Par;
use mbs_mechanisms::{AlfDcaParams, ChainJoint, closed_loop, five_bar, open_chain};
use mbs_model::Model;

fn hdca(model: Model) -> Hdca {
    let params = HdcaParams {
        par: Par::Seq,
        ..HdcaParams::default()
    };
    Hdca::new(Arc::new(model), params).expect("hdca")
}

fn per_rhs(n: usize) -> f64 {
    let mut h = hdca(open_chain(n, ChainJoint::Revolute).expect("chain"));
    let y = h.initial_state();
    let mut dy = vec![0.0; y.len()];
    h.rhs(0.0, &y, &mut dy).expect("rhs");
    let t0 = Instant::now();
    h.rhs(0.0, &y, &mut dy).expect("rhs");
    let once = t0.elapsed().as_secs_f64().max(1e-7);
    let reps = ((0.2 / once).ceil() as usize).max(3);
    (0..5)
        .map(|_| {
            let t0 = Instant::now();
            for _ in 0..reps {
                h.rhs(0.0, black_box(&y), &mut dy).expect("rhs");
            }
            t0.elapsed().as_secs_f64() / reps as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn rk4_state(model: Model) -> Vec<f64> {
    let mut h = hdca(model);
    let mut y = h.initial_state();
    let n = y.len();
    let (mut k1, mut k2, mut k3, mut k4) = (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let mut tmp = vec![0.0; n];
    let dt = 1e-3;
    for step in 0..1000 {
        let t = step as f64 * dt;
        h.rhs(t, &y, &mut k1).expect("rhs");
        for i in 0..n {
            tmp[i] = y[i] + 0.5 * dt * k1[i];
        }
        h.rhs(t + 0.5 * dt, &tmp, &mut k2).expect("rhs");
        for i in 0..n {
            tmp[i] = y[i] + 0.5 * dt * k2[i];
        }
        h.rhs(t + 0.5 * dt, &tmp, &mut k3).expect("rhs");
        for i in 0..n {
            tmp[i] = y[i] + dt * k3[i];
        }
        h.rhs(t + dt, &tmp, &mut k4).expect("rhs");
        for i in 0..n {
            y[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
        h.project(t + dt, &mut y).expect("project");
    }
    y
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("time") => {
            for n in args[1..].iter().map(|s| s.parse::<usize>().expect("N")) {
                let t = per_rhs(n);
                println!(
                    "chain:n={n:<5} {:10.2} us/RHS {:8.3} us/body",
                    t * 1e6,
                    t * 1e6 / n as f64
                );
            }
        }
        Some("state") => {
            let model = match args.get(1).map(String::as_str) {
                Some("five-bar") => five_bar(&AlfDcaParams::default()).expect("five-bar"),
                Some("chain16") => open_chain(16, ChainJoint::Revolute).expect("chain"),
                Some("loop16") => closed_loop(16).expect("loop"),
                other => panic!("unknown model {other:?}"),
            };
            for v in rk4_state(model) {
                println!("{v:.17e}");
            }
        }
        Some("loop") => {
            let n: usize = args[1].parse().expect("N");
            let count: usize = args[2].parse().expect("COUNT");
            let mut h = hdca(open_chain(n, ChainJoint::Revolute).expect("chain"));
            let y = h.initial_state();
            let mut dy = vec![0.0; y.len()];
            for _ in 0..count {
                h.rhs(0.0, black_box(&y), &mut dy).expect("rhs");
            }
            println!("{}", dy[0]);
        }
        _ => eprintln!("usage: rhs_probe time N... | state MODEL | loop N COUNT"),
    }
}
