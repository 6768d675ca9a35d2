//! Hairer's stiffness detection in the explicit Dormand–Prince pairs (`dopri5.f`,
//! `dop853.f`; Hairer–Wanner II sec IV.2): it fires on a problem whose step is
//! held by stability and stays silent on non-stiff ones.

mod common;
use common::*;
use mbs_integrators::*;

/// Prothero–Robinson: `y' = λ (y − cos t) − sin t`, `y(0) = 1`, solution `cos t`
/// for every `λ`; with `λ = −1e4` an explicit step is bounded by `|hλ| ≲ 3.3`
/// (DOPRI5) or `≲ 6` (DOP853) long after the (absent) transient.
struct ProtheroRobinson {
    lambda: f64,
}

impl OdeSystem for ProtheroRobinson {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&mut self, t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        d[0] = self.lambda * (y[0] - t.cos()) - t.sin();
        Ok(())
    }
}

fn pairs() -> [(RkMethod, f64); 2] {
    [
        (RkMethod::DormandPrince45, stiffness::DOPRI5_BOUNDARY),
        (RkMethod::Dop853, stiffness::DOP853_BOUNDARY),
    ]
}

/// λ = −1e4 over t = 0 … 10: both pairs report stiffness within the first 0.5 %,
/// on most of their steps, with a mean `h|λ|` near the stability boundary (the
/// estimate is of `|hλ|` with `|λ| = 1e4`, known here: it must lie within 25 % of
/// `|h| · 1e4` averaged over those steps, which in turn sits at the boundary).
#[test]
fn stiff_linear_problem_is_detected() {
    for (m, boundary) in pairs() {
        for tol in [1e-3, 1e-6] {
            let mut rk = EmbeddedRk::new(m, 1, RkParams::with_tol(tol, tol));
            let mut sys = ProtheroRobinson { lambda: -1e4 };
            let info = rk
                .integrate(&mut sys, 0.0, &[1.0], 10.0, &[], &mut ())
                .unwrap();
            let r = info
                .stiffness
                .unwrap_or_else(|| panic!("{m:?} tol {tol:e}: not detected, {info:?}"));
            println!(
                "{m:?} tol {tol:e}: {r:?}, {} accepted, {} rejected",
                info.accepted_steps, info.rejected_steps
            );
            assert_eq!(r.boundary, boundary);
            assert!(r.first_t < 0.05, "{m:?}: fired late, at t = {}", r.first_t);
            assert!(
                r.steps_at_boundary * 4 > info.accepted_steps,
                "{m:?}: {} of {} steps at the boundary",
                r.steps_at_boundary,
                info.accepted_steps
            );
            // the mean step is 10 / accepted: |h λ| on average
            let mean_h_lambda = 10.0 / info.accepted_steps as f64 * 1e4;
            assert!(
                r.h_lambda > boundary && r.h_lambda < 1.5 * boundary,
                "{m:?}: h|λ| = {}",
                r.h_lambda
            );
            assert!(
                (mean_h_lambda / boundary - 1.0).abs() < 0.25,
                "{m:?}: mean |hλ| = {mean_h_lambda}"
            );
            assert!((rk.y()[0] - 10f64.cos()).abs() < 100.0 * tol);
        }
    }
}

/// Non-stiff problems: the harmonic oscillator (eigenvalues ±i) over ten periods
/// and the Kepler orbit (e = 0.6) over one, at loose and tight tolerances: no
/// report, while the same estimate is computed after every step.
#[test]
fn non_stiff_problems_are_not_reported() {
    for (m, _) in pairs() {
        for tol in [1e-3, 1e-6, 1e-10] {
            let mut rk = EmbeddedRk::new(m, 2, RkParams::with_tol(tol, tol));
            let info = rk
                .integrate(
                    &mut Oscillator,
                    0.0,
                    &[1.0, 0.0],
                    20.0 * std::f64::consts::PI,
                    &[],
                    &mut (),
                )
                .unwrap();
            assert_eq!(info.stiffness, None, "{m:?} oscillator tol {tol:e}");
            let mut rk = EmbeddedRk::new(m, 4, RkParams::with_tol(tol, tol));
            let info = rk
                .integrate(
                    &mut Kepler::default(),
                    0.0,
                    &Kepler::initial(0.6),
                    2.0 * std::f64::consts::PI,
                    &[],
                    &mut (),
                )
                .unwrap();
            assert_eq!(info.stiffness, None, "{m:?} Kepler tol {tol:e}");
        }
    }
}

/// RK23 has no two stages at `c = 1` and Adams none at all: never reported, even
/// on the stiff problem (documented as not detected).
#[test]
fn rk23_and_adams_do_not_detect() {
    let mut rk = EmbeddedRk::rk23(1, RkParams::with_tol(1e-3, 1e-3));
    let info = rk
        .integrate(
            &mut ProtheroRobinson { lambda: -1e4 },
            0.0,
            &[1.0],
            1.0,
            &[],
            &mut (),
        )
        .unwrap();
    assert!(info.accepted_steps > 1000, "stability-bound: {info:?}");
    assert_eq!(info.stiffness, None);
}
