//! Radau IIA (RADAU5) against the IVP Test Set references, order of convergence,
//! dense output, stiff efficiency and error paths.

mod stiff_problems;
use mbs_integrators::*;
use stiff_problems::*;

fn radau(n: usize, rtol: f64, atol: f64) -> Radau5 {
    Radau5::new(n, Radau5Params::with_tol(rtol, atol))
}

/// Largest relative error against a reference (absolute below `floor`).
fn rel_err(y: &[f64], r: &[f64], floor: f64) -> f64 {
    y.iter()
        .zip(r)
        .map(|(a, b)| (a - b).abs() / b.abs().max(floor))
        .fold(0.0, f64::max)
}

#[test]
fn van_der_pol_matches_test_set() {
    for (tol, want) in [(1e-6, 1e-5), (1e-10, 1e-7)] {
        let mut r = radau(2, tol, tol);
        let mut sys = VanDerPol::default();
        let info = r
            .integrate(
                &mut sys,
                0.0,
                &VanDerPol::Y0,
                VanDerPol::T_END,
                &[],
                &mut (),
            )
            .unwrap();
        let e = rel_err(r.y(), &VanDerPol::REFERENCE, 1e-3);
        println!("vdpol tol {tol:e}: rel err {e:.2e}, {info:?}");
        assert!(e < want, "tol {tol:e}: error {e:e}");
        assert_eq!(sys.evals, info.rhs_evals);
    }
}

#[test]
fn robertson_matches_test_set() {
    for analytic in [false, true] {
        let mut r = Radau5::new(
            3,
            Radau5Params {
                atol: AbsTol::PerComponent(vec![1e-10, 1e-14, 1e-10]),
                ..Radau5Params::with_tol(1e-8, 1e-10)
            },
        );
        let mut sys = Robertson { analytic };
        let mut rec = Recorder::new();
        let info = r
            .integrate(&mut sys, 0.0, &Robertson::Y0, 1e11, &[40.0], &mut rec)
            .unwrap();
        // y₁ ≈ 2e-8 and y₂ ≈ 8e-14 are at the scale of their absolute tolerances:
        // compared absolutely
        let e = rel_err(r.y(), &Robertson::REFERENCE_1E11, 1.0);
        println!(
            "rober analytic={analytic}: rel err at 1e11 {e:.2e}, y(40) = {:?}, {info:?}",
            rec.state(0)
        );
        assert!(e < 1e-10, "error {e:e}");
        // Hairer–Wanner II, sec IV.10: y₁(40) = 0.7158
        assert!((rec.state(0)[0] - 0.715827).abs() < 1e-5);
        let sum: f64 = r.y().iter().sum();
        assert!((sum - 1.0).abs() < 1e-12, "mass {sum}");
    }
}

#[test]
fn hires_matches_test_set() {
    for (tol, want) in [(1e-6, 1e-3), (1e-10, 1e-7)] {
        let mut r = radau(8, tol, tol * 1e-1);
        let info = r
            .integrate(&mut Hires, 0.0, &Hires::Y0, Hires::T_END, &[], &mut ())
            .unwrap();
        let e = rel_err(r.y(), &Hires::REFERENCE, 1e-4);
        println!("hires tol {tol:e}: rel err {e:.2e}, {info:?}");
        assert!(e < want, "tol {tol:e}: error {e:e}");
    }
}

/// The numbers of the report (`cargo test -p mbs-integrators --test radau5 --
/// --ignored --nocapture`): RADAU5 and BDF on the Test Set problems at
/// rtol 1e-6 and 1e-10 (vdpol atol = rtol; rober atol = (1e-10, 1e-14, 1e-10);
/// hires atol = rtol/10).
#[test]
#[ignore = "prints the measurement table"]
fn measure_test_set() {
    fn row<S: OdeSystem>(
        name: &str,
        tol: f64,
        sys: &mut S,
        y0: &[f64],
        t_end: f64,
        atol: AbsTol,
        reference: &[f64],
        floor: f64,
    ) {
        let n = y0.len();
        let mut r = Radau5::new(
            n,
            Radau5Params {
                atol: atol.clone(),
                ..Radau5Params::with_tol(tol, 0.0)
            },
        );
        let ir = r.integrate(sys, 0.0, y0, t_end, &[], &mut ()).unwrap();
        let er = rel_err(r.y(), reference, floor);
        let mut b = Bdf::new(
            n,
            BdfParams {
                atol,
                ..BdfParams::with_tol(tol, 0.0)
            },
        );
        let ib = b.integrate(sys, 0.0, y0, t_end, &[], &mut ()).unwrap();
        let eb = rel_err(b.y(), reference, floor);
        for (m, i, e) in [("radau5", ir, er), ("bdf", ib, eb)] {
            println!(
                "| {name} | {tol:.0e} | {m} | {} | {} | {} | {} | {} | {e:.1e} |",
                i.accepted_steps,
                i.rejected_steps,
                i.rhs_evals,
                i.jacobian_evals,
                i.lu_decompositions
            );
        }
    }
    for tol in [1e-6, 1e-10] {
        row(
            "vdpol",
            tol,
            &mut VanDerPol::default(),
            &VanDerPol::Y0,
            VanDerPol::T_END,
            AbsTol::Scalar(tol),
            &VanDerPol::REFERENCE,
            1e-3,
        );
        row(
            "rober",
            tol,
            &mut Robertson::default(),
            &Robertson::Y0,
            1e11,
            AbsTol::PerComponent(vec![1e-10, 1e-14, 1e-10]),
            &Robertson::REFERENCE_1E11,
            1.0,
        );
        row(
            "hires",
            tol,
            &mut Hires,
            &Hires::Y0,
            Hires::T_END,
            AbsTol::Scalar(tol * 0.1),
            &Hires::REFERENCE,
            1e-4,
        );
    }
}
