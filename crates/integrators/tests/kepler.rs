//! Acceptance 2: on the Kepler orbit (e = 0.6, one period) the global error of
//! the adaptive methods falls roughly in proportion to the tolerance from 1e-3
//! to 1e-10. Run with `--nocapture` to print the table quoted in the crate docs.

mod common;
use common::*;
use mbs_integrators::*;
use std::f64::consts::PI;

const E: f64 = 0.6;

#[derive(Debug, Clone, Copy)]
enum Which {
    Rk45,
    Rk23,
    Abm,
}

fn run(which: Which, tol: f64) -> (f64, Info) {
    let y0 = Kepler::initial(E);
    let t_end = 2.0 * PI;
    let mut sys = Kepler::default();
    let (y, info) = match which {
        Which::Rk45 | Which::Rk23 => {
            let m = if matches!(which, Which::Rk45) {
                RkMethod::DormandPrince45
            } else {
                RkMethod::BogackiShampine23
            };
            let mut rk = EmbeddedRk::new(m, 4, RkParams::with_tol(tol, tol));
            let info = rk
                .integrate(&mut sys, 0.0, &y0, t_end, &[], &mut ())
                .unwrap();
            (rk.y().to_vec(), info)
        }
        Which::Abm => {
            let mut ab = Adams::new(4, AdamsParams::with_tol(tol, tol));
            let info = ab
                .integrate(&mut sys, 0.0, &y0, t_end, &[], &mut ())
                .unwrap();
            // Variable order: the order rises with the demanded accuracy.
            println!(
                "ABM tol {tol:.0e}: order of the last step {}",
                ab.last_order()
            );
            if tol <= 1e-9 {
                assert!(ab.last_order() >= 7, "order {}", ab.last_order());
            }
            (ab.y().to_vec(), info)
        }
    };
    assert_eq!(
        sys.evals, info.rhs_evals,
        "RHS count must match the system's own count"
    );
    (max_err(&y, &Kepler::exact(E, t_end)), info)
}

#[test]
fn error_is_proportional_to_tolerance() {
    let tols: Vec<f64> = (3..=10).map(|k| 10f64.powi(-k)).collect();
    println!("| method | tol | global error | error/tol | steps | rejected | RHS evals |");
    println!("|---|---|---|---|---|---|---|");
    for which in [Which::Rk45, Which::Rk23, Which::Abm] {
        let mut pts = Vec::new();
        for &tol in &tols {
            // RK23 at 1e-10 needs ~10⁵ steps: fine in an optimised test build.
            let (err, info) = run(which, tol);
            println!(
                "| {which:?} | {tol:.0e} | {err:.2e} | {:.2} | {} | {} | {} |",
                err / tol,
                info.accepted_steps,
                info.rejected_steps,
                info.rhs_evals
            );
            pts.push((tol.log10(), err.log10()));
        }
        // Least-squares slope of log(err) against log(tol).
        let n = pts.len() as f64;
        let mx = pts.iter().map(|p| p.0).sum::<f64>() / n;
        let my = pts.iter().map(|p| p.1).sum::<f64>() / n;
        let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
        let sxx: f64 = pts.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
        let slope = sxy / sxx;
        println!("{which:?}: slope d log(err) / d log(tol) = {slope:.3}");
        assert!((0.75..=1.3).contains(&slope), "{which:?}: slope {slope}");
        // Each error within a band around the tolerance.
        for (lt, le) in &pts {
            assert!(
                le - lt < 3.0 && le - lt > -3.0,
                "{which:?}: err 1e{le:.1} at tol 1e{lt:.0}"
            );
        }
    }
}
