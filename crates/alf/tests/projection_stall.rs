//! The convergence criterion of the linear (velocity) projection on two-row systems
//! with M = I: a residual left along a numerically vanishing singular value of Φ_q
//! (a near-singular configuration) is a stall at round-off and converges; an
//! infeasible target (inconsistent rows) fails with the numbers in the message.

use mbs_alf::{
    AlfError, Descriptor, DescriptorData, Level, ProjectionKind, ProjectionParams, Projector,
};
use nalgebra::{DMatrix, DVector};

/// Velocity constraints Φ_q q̇ + Φ_t = 0 only (no holonomic rows), M = I.
struct Rows(DescriptorData);

impl Rows {
    fn new(jac: [[f64; 2]; 2], phi_t: [f64; 2]) -> Self {
        let mut d = DescriptorData::new(2, 2, 0);
        d.mass = DMatrix::identity(2, 2);
        d.phi_q = DMatrix::from_row_slice(2, 2, &[jac[0][0], jac[0][1], jac[1][0], jac[1][1]]);
        d.phi_t = DVector::from_column_slice(&phi_t);
        Self(d)
    }
}

impl Descriptor for Rows {
    fn n(&self) -> usize {
        2
    }
    fn m(&self) -> usize {
        2
    }
    fn m_holonomic(&self) -> usize {
        0
    }
    fn evaluate(&mut self, _t: f64, _q: &[f64], _v: &[f64], _l: Level) -> Result<(), AlfError> {
        Ok(())
    }
    fn data(&self) -> &DescriptorData {
        &self.0
    }
    fn row_label(&self, row: usize) -> String {
        format!("joint `J{row}`")
    }
}

fn kinds() -> [ProjectionKind; 2] {
    [
        ProjectionKind::AugmentedLagrangian,
        ProjectionKind::Kkt { min_norm: true },
    ]
}

#[test]
fn a_residual_along_a_vanishing_singular_value_is_a_stall_and_converges() {
    // rows v_x = 1 and v_x + δ v_y = 1 + r: the second singular value δ/√2 ≈ 7e-10
    // is below the solvers' resolution, so r/2 stays in each row
    let (delta, r) = (1e-9, 1e-11);
    for kind in kinds() {
        let mut sys = Rows::new([[1.0, 0.0], [1.0, delta]], [-1.0, -(1.0 + r)]);
        let mut p = Projector::new(2, 2, 0, kind, ProjectionParams::default());
        let mut v = [1.0, 0.0];
        let (_, viol) = p
            .project_velocities(0.0, &mut sys, &[0.0, 0.0], &mut v)
            .unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        assert!(viol <= 1e-11 && viol > 1e-13, "{kind:?}: {viol:e}");
        // the resolvable row combination holds: v_x ≈ 1 + r/2
        assert!((v[0] - 1.0 - 0.5 * r).abs() < 1e-15, "{kind:?}: {v:?}");
    }
}

#[test]
fn an_infeasible_target_fails_with_the_numbers() {
    // v_x = 1 and v_x = 2: the least-squares solution leaves 0.5 in each row
    for kind in kinds() {
        let mut sys = Rows::new([[1.0, 0.0], [1.0, 0.0]], [-1.0, -2.0]);
        let mut p = Projector::new(2, 2, 0, kind, ProjectionParams::default());
        let mut v = [0.0, 0.0];
        let e = p
            .project_velocities(0.0, &mut sys, &[0.0, 0.0], &mut v)
            .expect_err("inconsistent rows cannot be satisfied");
        let msg = e.to_string();
        assert!(
            matches!(e, AlfError::NotConverged { violation, .. } if (violation - 0.5).abs() < 1e-9),
            "{kind:?}: {msg}"
        );
        assert!(
            msg.contains("velocity projection")
                && msg.contains("5.000e-1")
                && msg.contains("joint `J"),
            "{kind:?}: {msg}"
        );
    }
}
