//! Power of the non-conservative parts of the force elements (thesis sec 4.7, the
//! elements of [`crate::forces`]): what an energy balance
//! T + V − W_dampers − W_applied − W_drivers = T₀ + V₀ integrates.
//!
//! Per element, the power of its forces on the bodies, P = Σ (f·Ṗ + n·ω), minus the
//! rate of its potential, −V̇ (conservative part):
//!
//! - point force F at P: P = F·Ṗ (applied); torque n: P = n·ω (applied);
//! - spring–damper–actuator with tension f = k(l − l₀) + c l̇ + f_a: body i gets +f u at
//!   Pᵢ, body j −f u, so P = −f l̇ and −V̇ = −k(l − l₀) l̇: damper −c l̇², actuator
//!   −f_a l̇;
//! - compression-only spring pushing with p = k(l₀ − l) − c l̇ while p > 0 and l < l₀:
//!   P = p l̇ when it pushes, 0 otherwise, −V̇ = k(l₀ − l) l̇ while l < l₀: the
//!   difference P + V̇ is dissipation (the damper, and the clipped spring force);
//! - rotational spring–damper–actuator with τ = −k(θ − θ₀) − c θ̇ + τ_a: P = τ θ̇,
//!   −V̇ = −k(θ − θ₀) θ̇: damper −c θ̇², actuator τ_a θ̇.
//!
//! Gravity is conservative (in V).

use mbs_model::{ForceElement, MarkerId, Model};

use crate::forces::{MIN_SPRING_LENGTH, load_vector, two_points};
use crate::frame::frame_of;
use crate::workspace::Workspace;

/// Non-conservative powers of the force elements \[W\].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ElementPowers {
    /// Dampers (≤ 0), including a compression-only spring's clipped force.
    pub damping: f64,
    /// Applied point forces, torques and actuator forces of spring–damper elements.
    pub applied: f64,
}

impl Workspace {
    /// The [`ElementPowers`] at the frames and time of the last evaluation (module docs).
    pub fn element_powers(&self, model: &Model) -> ElementPowers {
        let t = self.t;
        let (frames, ground) = (&self.frames, &self.ground);
        let mut p = ElementPowers::default();
        for fe in model.forces() {
            match fe {
                ForceElement::PointForce {
                    marker,
                    force,
                    frame,
                    ..
                } => {
                    let mk = model.marker(*marker);
                    let fr = frame_of(frames, ground, mk.body);
                    let f = load_vector(force, *frame, mk, fr, t);
                    p.applied += f.dot(&fr.point_velocity(&mk.position));
                }
                ForceElement::Torque {
                    marker,
                    torque,
                    frame,
                    ..
                } => {
                    let mk = model.marker(*marker);
                    let fr = frame_of(frames, ground, mk.body);
                    p.applied += load_vector(torque, *frame, mk, fr, t).dot(&fr.omega);
                }
                ForceElement::SpringDamper {
                    marker_i,
                    marker_j,
                    damping,
                    actuator,
                    ..
                } => {
                    let Some((_, ldot)) = self.stretch(model, *marker_i, *marker_j) else {
                        continue;
                    };
                    p.damping -= damping * ldot * ldot;
                    p.applied -= actuator.value(t) * ldot;
                }
                ForceElement::UnilateralSpring {
                    marker_i,
                    marker_j,
                    stiffness,
                    damping,
                    free_length,
                    ..
                } => {
                    let Some((l, ldot)) = self.stretch(model, *marker_i, *marker_j) else {
                        continue;
                    };
                    if l >= *free_length {
                        continue;
                    }
                    let spring = stiffness * (free_length - l);
                    let push = (spring - damping * ldot).max(0.0);
                    // P + V̇ = push·l̇ − spring·l̇
                    p.damping += (push - spring) * ldot;
                }
                ForceElement::RotationalSpringDamper {
                    joint,
                    damping,
                    actuator,
                    ..
                } => {
                    let jt = model.joint(*joint);
                    let (mi, mj) = (model.marker(jt.marker_i), model.marker(jt.marker_j));
                    let fi = frame_of(frames, ground, mi.body);
                    let fj = frame_of(frames, ground, mj.body);
                    let zi = fi.a * mi.z_axis();
                    let theta_dot = zi.dot(&(fj.omega - fi.omega));
                    p.damping -= damping * theta_dot * theta_dot;
                    p.applied += actuator.value(t) * theta_dot;
                }
                ForceElement::PrismaticSpringDamper {
                    joint,
                    damping,
                    actuator,
                    ..
                } => {
                    let (_, s_dot, _, _) =
                        crate::forces::joint_translation(model, frames, ground, *joint);
                    p.damping -= damping * s_dot * s_dot;
                    p.applied += actuator.value(t) * s_dot;
                }
            }
        }
        p
    }

    /// Length l and rate l̇ of the line between two markers, `None` below
    /// [`MIN_SPRING_LENGTH`] (no direction, no force).
    fn stretch(&self, model: &Model, i: MarkerId, j: MarkerId) -> Option<(f64, f64)> {
        let (mi, mj) = (model.marker(i), model.marker(j));
        let fi = frame_of(&self.frames, &self.ground, mi.body);
        let fj = frame_of(&self.frames, &self.ground, mj.body);
        let (pi, pj, vi, vj) = two_points(mi, mj, fi, fj);
        let l = (pj - pi).norm();
        (l >= MIN_SPRING_LENGTH).then(|| (l, ((pj - pi) / l).dot(&(vj - vi))))
    }
}
