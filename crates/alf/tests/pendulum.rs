//! The front-ends on the analytic Cartesian pendulum (Bayo–Ledesma, second example).

#[allow(dead_code)] // a shared fixture: each test uses part of it
#[path = "common/analytic.rs"]
mod analytic;

use analytic::CartesianPendulum;
use mbs_alf::{
    AlfIndex3, AlfParams, Descriptor, Formulation, Index1, Index3Params, Level, Projection,
    ProjectionParams,
};
use mbs_integrators::descriptor::{DescriptorRule, StepControl};
use mbs_integrators::{ImplicitIntegrator, ImplicitRule, OdeSystem, drive};
use nalgebra::DVector;

fn kkt_accel(q: &[f64], v: &[f64]) -> [f64; 2] {
    // M q̈ + Φ_qᵀλ = Q, Φ_q q̈ = γ for m = g = L = 1: λ = (Φ_q Q − γ)/(Φ_q Φ_qᵀ)
    let (x, y) = (q[0], q[1]);
    let gamma = -2.0 * (v[0] * v[0] + v[1] * v[1]);
    let jq = -(2.0 * y);
    let lam = (jq - gamma) / (4.0 * (x * x + y * y));
    [-2.0 * x * lam, -1.0 - 2.0 * y * lam]
}

#[test]
fn alf_and_lagrange_accelerations_equal_the_closed_form() {
    let q = [0.6, -0.8];
    let v = [0.8 * 1.3, 0.6 * 1.3];
    let expected = kkt_accel(&q, &v);
    for formulation in [
        Formulation::Alf(AlfParams {
            mu: 0.0,
            omega: 0.0,
            ..AlfParams::default()
        }),
        Formulation::Lagrange {
            baumgarte: None,
            min_norm: false,
        },
    ] {
        let mut sys = Index1::new(
            CartesianPendulum::new(1.0, 1.0, 1.0),
            formulation,
            Projection::None,
        );
        let mut qdd = DVector::zeros(2);
        sys.accelerations(0.0, &q, &v, &mut qdd).unwrap();
        for i in 0..2 {
            assert!(
                (qdd[i] - expected[i]).abs() < 1e-9,
                "{formulation:?}: {qdd} vs {expected:?}"
            );
        }
    }
}

#[test]
fn projection_restores_position_and_velocity_constraints() {
    for kind in [
        Projection::AugmentedLagrangian(ProjectionParams::default()),
        Projection::Kkt(ProjectionParams::default()),
    ] {
        let mut sys = Index1::new(
            CartesianPendulum::new(1.0, 1.0, 1.0),
            Formulation::Alf(AlfParams::default()),
            kind,
        );
        let mut q = [0.63, -0.81];
        let mut v = [0.9, 0.4];
        sys.project_state(0.0, &mut q, &mut v).unwrap();
        let phi = q[0] * q[0] + q[1] * q[1] - 1.0;
        let phid = 2.0 * (q[0] * v[0] + q[1] * v[1]);
        assert!(phi.abs() < 1e-13, "{kind:?}: Φ = {phi}");
        assert!(phid.abs() < 1e-13, "{kind:?}: Φ̇ = {phid}");
        // mass-orthogonal: the correction of q is along Φ_qᵀ (radial)
        let cross = q[0] * -0.81 - q[1] * 0.63;
        assert!(cross.abs() < 1e-3);
    }
}

#[test]
fn index1_with_projection_keeps_the_constraint_and_energy() {
    let mut sys = Index1::new(
        CartesianPendulum::new(1.0, 1.0, 1.0),
        Formulation::Alf(AlfParams::default()),
        Projection::AugmentedLagrangian(ProjectionParams::default()),
    );
    // Newton tolerance above the ≈1e-9 relative accuracy of ALF accelerations
    let mut params = mbs_integrators::ImplicitParams::new(ImplicitRule::Trapezoidal, 0.01);
    params.newton.rtol = 1e-9;
    params.newton.atol = 1e-9;
    let mut integ = ImplicitIntegrator::new(4, params);
    let y0 = [1.0, 0.0, 0.0, -1.0];
    integ
        .integrate(&mut sys, 0.0, &y0, 20.0, &[], &mut ())
        .unwrap();
    let y = integ.y();
    let phi = y[0] * y[0] + y[1] * y[1] - 1.0;
    assert!(phi.abs() < 1e-12, "Φ = {phi}");
    let e = sys.system().energy(&y[..2], &y[2..]);
    let e0 = sys.system().energy(&y0[..2], &y0[2..]);
    assert!((e - e0).abs() < 1e-3, "ΔE = {}", e - e0);
    assert!(sys.stats().projections > 1000);
    assert_eq!(sys.dim(), 4);
}

#[test]
fn index3_trapezoidal_and_midpoint_keep_the_constraint() {
    for rule in [DescriptorRule::Trapezoidal, DescriptorRule::Midpoint] {
        let mut st = AlfIndex3::new(
            CartesianPendulum::new(1.0, 1.0, 1.0),
            Index3Params::default(),
        );
        let mut integ = st.integrator(rule, StepControl::Fixed { h: 0.01 });
        let y0 = [1.0, 0.0, 0.0, -1.0];
        let e0 = st.system().energy(&y0[..2], &y0[2..]);
        drive(&mut integ, &mut st, 0.0, &y0, 20.0, &[], &mut ()).unwrap();
        assert_eq!(integ.info().accepted_steps, 2000);
        let (q, v) = (&integ.y()[..2], &integ.y()[2..4]);
        let mut sys = CartesianPendulum::new(1.0, 1.0, 1.0);
        sys.evaluate(20.0, q, v, Level::Full).unwrap();
        assert!(sys.phi()[0].abs() < 1e-12, "{rule:?}: Φ = {}", sys.phi()[0]);
        let phid = 2.0 * (q[0] * v[0] + q[1] * v[1]);
        assert!(phid.abs() < 1e-12, "{rule:?}: Φ̇ = {phid}");
        let e = st.system().energy(q, v);
        assert!((e - e0).abs() < 2e-3, "{rule:?}: ΔE = {}", e - e0);
    }
}
