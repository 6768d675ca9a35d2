//! Random trees for the acceptance tests: every joint kind, free-floating components,
//! consistent random velocities (deterministic in the seed).

use mbs_kinematics::euler_params;
use mbs_model::{BodyRef, JointKind, Model, ModelBuilder};
use nalgebra::{Matrix3, Vector3, Vector4};

/// A linear congruential generator (deterministic test data).
pub struct Rng(pub u64);
impl Rng {
    /// Uniform in [0, 1).
    pub fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64) / ((1u64 << 53) as f64)
    }
    /// Uniform in [lo, hi).
    pub fn u(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
    /// A random unit vector.
    pub fn unit(&mut self) -> Vector3<f64> {
        loop {
            let v = Vector3::new(self.u(-1.0, 1.0), self.u(-1.0, 1.0), self.u(-1.0, 1.0));
            if v.norm() > 0.2 && v.norm() < 1.0 {
                return v.normalize();
            }
        }
    }
}

/// A random tree of `n` bodies with joints from `kinds`, consistent random velocities.
pub fn random_tree(seed: u64, n: usize, kinds: &[JointKind], free: bool) -> Model {
    let mut rng = Rng(seed.wrapping_mul(2654435761).wrapping_add(7));
    let mut b = ModelBuilder::new("tree");
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    // (position, velocity of CM, omega) per body
    let mut st: Vec<(Vector3<f64>, Vector3<f64>, Vector3<f64>)> = Vec::new();
    for k in 0..n {
        let parent = if k == 0 {
            None
        } else {
            Some((rng.next() * k as f64) as usize)
        };
        let parent = if k > 0 && rng.next() < 0.15 {
            None
        } else {
            parent
        };
        // a free-floating root: no joint, random velocity
        if free && parent.is_none() && (k == 0 || rng.next() < 0.5) {
            let m = rng.u(0.5, 2.0);
            let id = b.body(
                format!("b{k}"),
                m,
                Matrix3::from_diagonal(&Vector3::new(0.3, 0.4, 0.5)),
            );
            let r = 2.0 * rng.unit();
            let e = euler_params::normalize(&Vector4::new(
                rng.u(-1.0, 1.0),
                rng.u(-1.0, 1.0),
                rng.u(-1.0, 1.0),
                rng.u(-1.0, 1.0),
            ));
            b.set_initial_pose(id, r, e);
            let (v, w) = (rng.unit(), rng.unit());
            b.set_initial_velocity(id, v, w);
            st.push((r, v, w));
            continue;
        }
        let (pr, pv, pw) = parent.map_or(
            (Vector3::zeros(), Vector3::zeros(), Vector3::zeros()),
            |p| st[p],
        );
        let point = pr + 0.6 * rng.unit();
        let r = point + 0.5 * rng.unit();
        let kind = kinds[(rng.next() * kinds.len() as f64) as usize % kinds.len()].clone();
        let axis = rng.unit();
        let m = rng.u(0.5, 2.0);
        let (a, bb, c) = (rng.u(0.1, 1.0), rng.u(0.1, 1.0), rng.u(0.1, 1.0));
        let j = Matrix3::from_diagonal(&Vector3::new(
            m * (bb * bb + c * c) / 12.0,
            m * (a * a + c * c) / 12.0,
            m * (a * a + bb * bb) / 12.0,
        ));
        let id = b.body(format!("b{k}"), m, j);
        let e = euler_params::normalize(&Vector4::new(
            rng.u(-1.0, 1.0),
            rng.u(-1.0, 1.0),
            rng.u(-1.0, 1.0),
            rng.u(-1.0, 1.0),
        ));
        b.set_initial_pose(id, r, e);
        let pref = parent.map_or(BodyRef::Ground, |p| BodyRef::Body(mbs_model::BodyId(p)));
        // the child pin of a universal joint: perpendicular to the parent pin
        let pin = rng.unit().cross(&axis).normalize();
        // a distance joint: the child's marker at the end of a random link from
        // `point` (`point` is then moved there: the child's handle)
        let mut point = point;
        let mut link = Vector3::zeros();
        if let JointKind::Distance { .. } = kind {
            link = rng.u(0.3, 0.8) * rng.unit();
            let mi = b.marker_at_global(format!("j{k}.i"), pref, point, axis, None);
            point += link;
            let mj = b.marker_at_global(format!("j{k}.j"), BodyRef::Body(id), point, axis, None);
            let length = link.norm();
            b.joint(format!("j{k}"), JointKind::Distance { length }, mi, mj);
        } else if kind == JointKind::Universal {
            let mi = b.marker_at_global(format!("j{k}.i"), pref, point, axis, None);
            let mj = b.marker_at_global(format!("j{k}.j"), BodyRef::Body(id), point, pin, None);
            b.joint(format!("j{k}"), kind.clone(), mi, mj);
        } else {
            b.joint_at(
                format!("j{k}"),
                kind.clone(),
                pref,
                BodyRef::Body(id),
                point,
                axis,
            );
        }
        // relative twist at `point`
        let (dv, dw) = match kind {
            JointKind::Revolute => (Vector3::zeros(), axis * rng.u(-1.0, 1.0)),
            JointKind::Prismatic => (axis * rng.u(-1.0, 1.0), Vector3::zeros()),
            JointKind::Cylindrical => (axis * rng.u(-1.0, 1.0), axis * rng.u(-1.0, 1.0)),
            JointKind::Spherical => (
                Vector3::zeros(),
                Vector3::new(rng.u(-1.0, 1.0), rng.u(-1.0, 1.0), rng.u(-1.0, 1.0)),
            ),
            JointKind::Rigid => (Vector3::zeros(), Vector3::zeros()),
            JointKind::Planar => {
                let t = rng.unit();
                let t = t - axis * axis.dot(&t);
                (t * rng.u(-1.0, 1.0), axis * rng.u(-1.0, 1.0))
            }
            JointKind::Universal => (
                Vector3::zeros(),
                axis * rng.u(-1.0, 1.0) + pin * rng.u(-1.0, 1.0),
            ),
            JointKind::Distance { .. } => (
                link.cross(&rng.unit()),
                Vector3::new(rng.u(-1.0, 1.0), rng.u(-1.0, 1.0), rng.u(-1.0, 1.0)),
            ),
            _ => unreachable!(),
        };
        let vpoint = pv + pw.cross(&(point - pr)) + dv;
        let w = pw + dw;
        let v = vpoint + w.cross(&(r - point));
        b.set_initial_velocity(id, v, w);
        st.push((r, v, w));
    }
    b.build().unwrap()
}
