//! Time per right-hand-side evaluation of every method on the over-constrained
//! McPherson strut (Euler parameters and Euler angles ZYX, no stabilization and
//! Baumgarte; natural partitioning with its cut joints by QR or penalty), at a state 0.2 s into the motion (best of 10 batches). Also writes the accelerations
//! (as bit patterns) to the file given as first argument, to compare builds.
//!
//! `cargo run --release -p mbs-complement --example rhs_timing -- [out.txt] [evaluations] [method]`

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

use mbs_complement::{
    Complement, ComplementParams, Coordinates, CutTreatment, EulerSequence, NaturalParams,
    NaturalPartitioning, NullSpaceMethod, Stabilization,
};
use mbs_integrators::{EmbeddedRk, OdeSystem, RkParams};
use mbs_linalg::Par;
use mbs_mechanisms::{McPhersonParams, mcpherson_overconstrained};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = args.first().cloned();
    let evals: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let only = args.get(2).cloned();
    let model = Arc::new(mcpherson_overconstrained(&McPhersonParams::default()).unwrap());
    let mut dump = String::new();
    println!(
        "{:14} {:24} {:10} {:>12}",
        "coordinates", "method", "stab", "µs / rhs"
    );
    for coordinates in [
        Coordinates::EulerParams,
        Coordinates::EulerAngles(EulerSequence::Zyx),
    ] {
        // a generic state: 0.2 s of motion
        let mut sys = Complement::new(
            model.clone(),
            ComplementParams {
                coordinates,
                ..Default::default()
            },
        )
        .unwrap();
        let y0 = sys.initial_state();
        let mut rk = EmbeddedRk::rk45(y0.len(), RkParams::with_tol(1e-8, 1e-8));
        rk.integrate(&mut sys, 0.0, &y0, 0.2, &[], &mut ()).unwrap();
        let y = rk.y().to_vec();
        for method in NullSpaceMethod::ALL {
            if only.as_ref().is_some_and(|o| o != method.name()) {
                continue;
            }
            for stabilization in [Stabilization::None, Stabilization::PAPER_BAUMGARTE] {
                let params = ComplementParams {
                    method,
                    coordinates,
                    stabilization,
                    ..Default::default()
                };
                let mut c = Complement::new(model.clone(), params).unwrap();
                let mut dy = vec![0.0; c.dim()];
                c.rhs(0.2, &y, &mut dy).unwrap();
                let _ = writeln!(
                    dump,
                    "{} {} {} {:?}",
                    coordinates.name(),
                    method.name(),
                    stabilization.name(),
                    dy.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
                );
                // best of 10 batches (the machine may be shared)
                let mut us = f64::INFINITY;
                for _ in 0..10 {
                    let start = Instant::now();
                    for _ in 0..evals {
                        c.rhs(0.2, &y, &mut dy).unwrap();
                    }
                    us = us.min(start.elapsed().as_secs_f64() * 1e6 / evals as f64);
                }
                println!(
                    "{:14} {:24} {:10} {:12.2}",
                    coordinates.name(),
                    method.name(),
                    stabilization.name(),
                    us
                );
            }
        }
    }
    // natural partitioning (cut joints by a second null space, QR), 0.2 s in
    let mut np = NaturalPartitioning::new(model.clone(), NaturalParams::default()).unwrap();
    let y0 = np.initial_state();
    let mut rk = EmbeddedRk::rk45(y0.len(), RkParams::with_tol(1e-8, 1e-8));
    rk.integrate(&mut np, 0.0, &y0, 0.2, &[], &mut ()).unwrap();
    let y = rk.y().to_vec();
    for parallel in [false, true] {
        for cut in [
            CutTreatment::NullSpace {
                method: NullSpaceMethod::Qr,
            },
            CutTreatment::Penalty {
                alpha: 1e7,
                xi: 1.0,
                omega: 10.0,
            },
        ] {
            let params = NaturalParams {
                cut,
                par: Par::from_flag(parallel),
                ..Default::default()
            };
            let mut c = NaturalPartitioning::new(model.clone(), params).unwrap();
            let mut dy = vec![0.0; c.dim()];
            c.rhs(0.2, &y, &mut dy).unwrap();
            let name = match cut {
                CutTreatment::Penalty { .. } => "penalty",
                CutTreatment::NullSpace { .. } => "null-space-qr",
            };
            let par = if parallel { "parallel" } else { "sequential" };
            let _ = writeln!(
                dump,
                "natural {name} {par} {:?}",
                dy.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            );
            let mut us = f64::INFINITY;
            for _ in 0..10 {
                let start = Instant::now();
                for _ in 0..evals {
                    c.rhs(0.2, &y, &mut dy).unwrap();
                }
                us = us.min(start.elapsed().as_secs_f64() * 1e6 / evals as f64);
            }
            println!("{:14} {:24} {:10} {:12.2}", "natural", name, par, us);
        }
    }
    if let Some(path) = out {
        std::fs::write(path, dump).unwrap();
    }
}
