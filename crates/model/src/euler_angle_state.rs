//! Absolute coordinates with Euler angles (ARCHITECTURE.md: the non-singular mass
//! matrix of the Wang–Huston variant, Pękal–Frączek), as a conversion to and from a
//! [`State`] in one of the Euler-parameter layouts.
//!
//! Body i (0-based), sequence `seq` (see `mbs_kinematics::euler_angles`):
//! - positions `q[6i..6i+3]` = r, `q[6i+3..6i+6]` = θ = [α, β, γ];
//! - velocities `v[6i..6i+3]` = ṙ, `v[6i+3..6i+6]` = θ̇, with ω' = B'(θ) θ̇.
//!
//! Going to Euler angles fails at gimbal lock (|sin β| or |cos β| below `tol`), where
//! θ̇ is not defined; coming back never fails.

use mbs_kinematics::euler_angles::{
    from_euler_params, omega_body_from_rates, rates_from_omega_body, to_euler_params,
};
use mbs_kinematics::{EulerSequence, KinematicsError};
use nalgebra::{DVector, Vector3};

use crate::state::{Layout, State};

/// Time, positions [r, θ] and velocities [ṙ, θ̇] of every body, 6 + 6 per body.
#[derive(Clone, Debug, PartialEq)]
pub struct EulerAngleState {
    /// The rotation sequence of θ.
    pub sequence: EulerSequence,
    /// Time.
    pub t: f64,
    /// Positions [r, θ] per body.
    pub q: DVector<f64>,
    /// Velocities [ṙ, θ̇] per body.
    pub v: DVector<f64>,
}

impl EulerAngleState {
    /// Number of bodies.
    pub fn n_bodies(&self) -> usize {
        self.q.len() / 6
    }

    /// Euler angles θ of body i.
    pub fn angles(&self, i: usize) -> Vector3<f64> {
        self.q.fixed_rows::<3>(6 * i + 3).into_owned()
    }

    /// Angle rates θ̇ of body i.
    pub fn rates(&self, i: usize) -> Vector3<f64> {
        self.v.fixed_rows::<3>(6 * i + 3).into_owned()
    }

    /// The same physical state in an Euler-parameter layout (p from θ, ω' = B'(θ) θ̇).
    pub fn to_state(&self, layout: Layout) -> State {
        let n = self.n_bodies();
        let mut s = State::zeros(layout, n);
        s.t = self.t;
        for i in 0..n {
            let r = self.q.fixed_rows::<3>(6 * i).into_owned();
            let (angles, rates) = (self.angles(i), self.rates(i));
            s.set_pose(i, &r, &to_euler_params(self.sequence, &angles));
            let rdot = self.v.fixed_rows::<3>(6 * i).into_owned();
            s.set_velocity(
                i,
                &rdot,
                &omega_body_from_rates(self.sequence, &angles, &rates),
            );
        }
        s
    }
}

impl State {
    /// The same physical state in Euler angles of `sequence`.
    ///
    /// # Errors
    /// [`KinematicsError::GimbalLock`] if a body is within `tol` of the singular
    /// orientation of the sequence.
    pub fn to_euler_angles(
        &self,
        sequence: EulerSequence,
        tol: f64,
    ) -> Result<EulerAngleState, KinematicsError> {
        let n = self.n_bodies();
        let mut out = EulerAngleState {
            sequence,
            t: self.t,
            q: DVector::zeros(6 * n),
            v: DVector::zeros(6 * n),
        };
        for i in 0..n {
            let angles = from_euler_params(sequence, &self.euler_params(i), tol)?;
            let rates = rates_from_omega_body(sequence, &angles, &self.omega_body(i), tol)?;
            out.q
                .fixed_rows_mut::<3>(6 * i)
                .copy_from(&self.position(i));
            out.q.fixed_rows_mut::<3>(6 * i + 3).copy_from(&angles);
            out.v
                .fixed_rows_mut::<3>(6 * i)
                .copy_from(&self.velocity(i));
            out.v.fixed_rows_mut::<3>(6 * i + 3).copy_from(&rates);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mbs_kinematics::euler_params::from_axis_angle;

    #[test]
    fn euler_angles_round_trip_both_layouts() {
        for layout in [Layout::EulerParamsPdot, Layout::EulerParamsOmega] {
            let mut s = State::zeros(layout, 2);
            s.t = 0.25;
            s.set_pose(
                0,
                &Vector3::new(1.0, 2.0, 3.0),
                &from_axis_angle(&Vector3::new(1.0, -2.0, 0.5), 0.7),
            );
            s.set_pose(
                1,
                &Vector3::new(-1.0, 0.0, 0.5),
                &from_axis_angle(&Vector3::new(0.2, 0.1, 1.0), -1.1),
            );
            s.set_velocity(
                0,
                &Vector3::new(0.1, 0.2, 0.3),
                &Vector3::new(-1.0, 0.5, 2.0),
            );
            s.set_velocity(
                1,
                &Vector3::new(0.0, -0.2, 0.0),
                &Vector3::new(0.3, 0.0, -0.4),
            );
            for seq in EulerSequence::ALL {
                let e = s.to_euler_angles(seq, 1e-8).unwrap();
                let back = e.to_state(layout);
                assert_eq!(back.t, s.t);
                for i in 0..2 {
                    assert!((back.position(i) - s.position(i)).norm() < 1e-14);
                    // p and −p are the same rotation
                    let (p, q) = (back.euler_params(i), s.euler_params(i));
                    assert!((p - q).norm().min((p + q).norm()) < 1e-12, "{seq}");
                    assert!(
                        (back.omega_body(i) - s.omega_body(i)).norm() < 1e-12,
                        "{seq}"
                    );
                    assert!((back.velocity(i) - s.velocity(i)).norm() < 1e-15);
                }
            }
        }
    }

    #[test]
    fn gimbal_lock_is_an_error() {
        // identity: β = 0, singular for every proper sequence
        let s = State::zeros(Layout::EulerParamsOmega, 1);
        assert!(s.to_euler_angles(EulerSequence::Zxz, 1e-8).is_err());
        assert!(s.to_euler_angles(EulerSequence::Zyx, 1e-8).is_ok());
    }
}
