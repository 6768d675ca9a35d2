//! Body frames: the pose and velocity of every body at one state, computed once per
//! evaluation and shared by all joints, drivers and force elements.
//!
//! Orientation: A = A(p/‖p‖) ([`mbs_kinematics::euler_params::rotation`]), so Φ does not
//! depend on ‖p‖. Angular velocity in the [ṙ, ṗ] layout is the exact angular velocity
//! of the normalised rotation u = p/‖p‖: ω' = 2 G(u) u̇ = 2 G(p) ṗ / ‖p‖² (since
//! G(u) u = 0), which is NOTATION's ω' = 2 G ṗ for a unit p. The matrix
//! H = 2 G(p)/‖p‖² (`omega_pdot`) maps ṗ to ω'; it is also the chain-rule factor that
//! turns a Jacobian block with respect to ω' into one with respect to ṗ:
//! Φ_p = Φ_ω' H (exact for any non-zero p, and equal to Φ_ω' · 2G(p) for unit p).

use mbs_kinematics::euler_params::{g_matrix, rotation};
use mbs_model::{BodyRef, Layout, Model, StateView};
use nalgebra::{Matrix3, Matrix3x4, Vector3, Vector4};

use crate::error::ConstraintError;

/// Pose and velocity of one body (or of ground) at one state.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyFrame {
    /// Centre-of-mass position r (global).
    pub r: Vector3<f64>,
    /// Euler parameters p as stored in the state (not normalised).
    pub p: Vector4<f64>,
    /// Rotation matrix A = A(p/‖p‖), body to global.
    pub a: Matrix3<f64>,
    /// Velocity ṙ.
    pub rdot: Vector3<f64>,
    /// Body angular velocity ω'.
    pub omega_body: Vector3<f64>,
    /// Global angular velocity ω = A ω'.
    pub omega: Vector3<f64>,
    /// ṗ (from the state in the [ṙ, ṗ] layout, ½ G(p)ᵀ ω' in the [ṙ, ω'] layout).
    pub pdot: Vector4<f64>,
    /// H = 2 G(p)/‖p‖², with ω' = H ṗ and Φ_p = Φ_ω' H.
    pub omega_pdot: Matrix3x4<f64>,
}

impl BodyFrame {
    /// The ground frame: at the origin, identity orientation, at rest.
    pub fn ground() -> Self {
        Self {
            r: Vector3::zeros(),
            p: Vector4::new(1.0, 0.0, 0.0, 0.0),
            a: Matrix3::identity(),
            rdot: Vector3::zeros(),
            omega_body: Vector3::zeros(),
            omega: Vector3::zeros(),
            pdot: Vector4::zeros(),
            omega_pdot: 2.0 * g_matrix(&Vector4::new(1.0, 0.0, 0.0, 0.0)),
        }
    }

    /// Global position of a point with body coordinates `s`: r + A s.
    #[inline]
    pub fn point(&self, s: &Vector3<f64>) -> Vector3<f64> {
        self.r + self.a * s
    }

    /// Global velocity of a point with body coordinates `s`: ṙ + ω × (A s).
    #[inline]
    pub fn point_velocity(&self, s: &Vector3<f64>) -> Vector3<f64> {
        self.rdot + self.omega.cross(&(self.a * s))
    }

    /// Fills this frame from body `i` of `state`. Errors name the body.
    pub fn set_from_state(
        &mut self,
        model: &Model,
        state: StateView<'_>,
        i: usize,
    ) -> Result<(), ConstraintError> {
        let name = || model.bodies()[i].name.clone();
        let check = |quantity: &'static str, v: &[f64]| -> Result<(), ConstraintError> {
            match v.iter().position(|x| !x.is_finite()) {
                None => Ok(()),
                Some(k) => Err(ConstraintError::NonFiniteState {
                    body: name(),
                    quantity,
                    component: k,
                    value: v[k],
                }),
            }
        };
        let q = state.body_q(i);
        check("position", &q[..3])?;
        check("Euler parameters", &q[3..])?;
        self.r = Vector3::new(q[0], q[1], q[2]);
        self.p = Vector4::new(q[3], q[4], q[5], q[6]);
        let n2 = self.p.norm_squared();
        if n2.sqrt() < 1e-8 {
            return Err(ConstraintError::DegenerateEulerParams {
                body: name(),
                norm: n2.sqrt(),
            });
        }
        self.a = rotation(&self.p);
        let g = g_matrix(&self.p);
        self.omega_pdot = (2.0 / n2) * g;
        let v = state.body_v(i);
        check("velocity", &v[..3])?;
        check("angular velocity", &v[3..])?;
        self.rdot = Vector3::new(v[0], v[1], v[2]);
        match state.layout {
            Layout::EulerParamsPdot => {
                self.pdot = Vector4::new(v[3], v[4], v[5], v[6]);
                self.omega_body = self.omega_pdot * self.pdot;
            }
            Layout::EulerParamsOmega => {
                self.omega_body = Vector3::new(v[3], v[4], v[5]);
                self.pdot = 0.5 * g.transpose() * self.omega_body;
            }
        }
        self.omega = self.a * self.omega_body;
        Ok(())
    }
}

/// The frame of a body reference: `frames[i]` for a body, `ground` for ground.
#[inline]
pub fn frame_of<'a>(frames: &'a [BodyFrame], ground: &'a BodyFrame, b: BodyRef) -> &'a BodyFrame {
    match b {
        BodyRef::Ground => ground,
        BodyRef::Body(id) => &frames[id.0],
    }
}

/// Fills `frames` (resized to the number of bodies, which allocates only on the first
/// call) from `state`. Checks sizes and finiteness; errors name the body.
pub fn update_frames(
    model: &Model,
    state: StateView<'_>,
    frames: &mut Vec<BodyFrame>,
) -> Result<(), ConstraintError> {
    let n = model.n_bodies();
    if state.q.len() != 7 * n {
        return Err(ConstraintError::DimensionMismatch {
            what: "state positions q",
            expected: 7 * n,
            got: state.q.len(),
        });
    }
    let nv = state.layout.v_per_body() * n;
    if state.v.len() != nv {
        return Err(ConstraintError::DimensionMismatch {
            what: "state velocities v",
            expected: nv,
            got: state.v.len(),
        });
    }
    if !state.t.is_finite() {
        return Err(ConstraintError::NonFiniteTime { t: state.t });
    }
    frames.resize_with(n, BodyFrame::ground);
    for (i, f) in frames.iter_mut().enumerate() {
        f.set_from_state(model, state, i)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mbs_model::{BodyRef, ModelBuilder, State};
    use nalgebra::Matrix3;

    /// The [ṙ, ṗ] frame of a non-unit p has the angular velocity of p/‖p‖, and H maps ṗ
    /// to it; the [ṙ, ω'] frame reproduces the same ω'.
    #[test]
    fn frames_agree_between_layouts() {
        let mut b = ModelBuilder::new("one");
        let body = b.body("b", 1.0, Matrix3::identity());
        b.marker(
            "m",
            BodyRef::Body(body),
            Vector3::zeros(),
            Matrix3::identity(),
        );
        let model = b.build().unwrap();
        let mut s = State::zeros(Layout::EulerParamsOmega, 1);
        let p = Vector4::new(0.3, -0.5, 0.7, 0.2).normalize();
        s.set_pose(0, &Vector3::new(1.0, 2.0, 3.0), &p);
        s.set_velocity(
            0,
            &Vector3::new(0.1, 0.2, 0.3),
            &Vector3::new(-0.4, 0.9, 0.6),
        );
        let sp = s.to_layout(Layout::EulerParamsPdot);
        let (mut fw, mut fp) = (Vec::new(), Vec::new());
        update_frames(&model, s.view(), &mut fw).unwrap();
        update_frames(&model, sp.view(), &mut fp).unwrap();
        assert!((fw[0].omega_body - fp[0].omega_body).norm() < 1e-14);
        assert!((fw[0].pdot - fp[0].pdot).norm() < 1e-14);
        assert!((fw[0].omega - fp[0].omega).norm() < 1e-14);
        // Scaling p (and ṗ) changes neither A nor ω'.
        let mut scaled = sp.clone();
        scaled.q.fixed_rows_mut::<4>(3).scale_mut(2.0);
        scaled.v.fixed_rows_mut::<4>(3).scale_mut(2.0);
        update_frames(&model, scaled.view(), &mut fp).unwrap();
        assert!((fp[0].omega_body - fw[0].omega_body).norm() < 1e-14);
        assert!((fp[0].a - fw[0].a).norm() < 1e-14);
    }
}
