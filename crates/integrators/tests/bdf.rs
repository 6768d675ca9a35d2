//! Variable-order BDF/NDF against the IVP Test Set references.

mod stiff_problems;
use mbs_integrators::*;
use stiff_problems::*;

fn rel_err(y: &[f64], r: &[f64], floor: f64) -> f64 {
    y.iter()
        .zip(r)
        .map(|(a, b)| (a - b).abs() / b.abs().max(floor))
        .fold(0.0, f64::max)
}

#[test]
fn van_der_pol_matches_test_set() {
    for (tol, want) in [(1e-6, 1e-3), (1e-10, 1e-7)] {
        let mut b = Bdf::new(2, BdfParams::with_tol(tol, tol));
        let mut sys = VanDerPol::default();
        let info = b
            .integrate(
                &mut sys,
                0.0,
                &VanDerPol::Y0,
                VanDerPol::T_END,
                &[],
                &mut (),
            )
            .unwrap();
        let e = rel_err(b.y(), &VanDerPol::REFERENCE, 1e-3);
        println!("bdf vdpol tol {tol:e}: rel err {e:.2e}, {info:?}");
        assert!(e < want, "tol {tol:e}: error {e:e}");
        assert_eq!(sys.evals, info.rhs_evals);
    }
}

#[test]
fn robertson_matches_test_set() {
    for analytic in [false, true] {
        let mut b = Bdf::new(
            3,
            BdfParams {
                atol: AbsTol::PerComponent(vec![1e-10, 1e-14, 1e-10]),
                ..BdfParams::with_tol(1e-8, 1e-10)
            },
        );
        let mut sys = Robertson { analytic };
        let mut rec = Recorder::new();
        let info = b
            .integrate(&mut sys, 0.0, &Robertson::Y0, 1e11, &[40.0], &mut rec)
            .unwrap();
        let e = rel_err(b.y(), &Robertson::REFERENCE_1E11, 1.0);
        println!(
            "bdf rober analytic={analytic}: abs err at 1e11 {e:.2e}, y(40) = {:?}, {info:?}",
            rec.state(0)
        );
        assert!(e < 1e-9, "error {e:e}");
        assert!((rec.state(0)[0] - 0.715827).abs() < 1e-5);
    }
}

#[test]
fn hires_matches_test_set() {
    for (tol, want) in [(1e-6, 1e-2), (1e-10, 1e-6)] {
        let mut b = Bdf::new(8, BdfParams::with_tol(tol, tol * 1e-1));
        let info = b
            .integrate(&mut Hires, 0.0, &Hires::Y0, Hires::T_END, &[], &mut ())
            .unwrap();
        let e = rel_err(b.y(), &Hires::REFERENCE, 1e-4);
        println!("bdf hires tol {tol:e}: rel err {e:.2e}, {info:?}");
        assert!(e < want, "tol {tol:e}: error {e:e}");
    }
}
