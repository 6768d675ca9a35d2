//! Applied forces of the force elements (thesis sec 4.7) as per-body loads: a force f
//! (global) and a torque n' (body frame) about the centre of mass; and the potential
//! energy of the conservative ones.
//!
//! - Gravity (4.7.1): f = m g, V = −m gᵀr.
//! - Point force at a marker (4.7.2.1–2): f = F (global) or Aₖ Mₖ F (marker frame, moving
//!   with the body), moment about the centre of mass n' = s' × (Aᵀ f).
//! - Torque (4.7.2.3): n' = Aᵀ n (global components) or Mₖ n (marker frame).
//! - Translational spring–damper–actuator (4.7.3–4.7.5): l = ‖Pⱼ − Pᵢ‖, u = (Pⱼ − Pᵢ)/l,
//!   l̇ = uᵀ(Ṗⱼ − Ṗᵢ), tension f = k(l − l₀) + c l̇ + f_a(t); body i gets +f u at Pᵢ, body j
//!   −f u at Pⱼ; V = ½ k (l − l₀)². **Zero length recovery**: for l < 1e-12 the direction
//!   is undefined and the element applies no force (its potential is still ½ k l₀²).
//! - Rotational spring–damper–actuator about a revolute/cylindrical joint's zᵢ:
//!   θ − θ₀ is taken as atan2(sin(θ−θ₀), cos(θ−θ₀)) ∈ (−π, π] with sin θ = xⱼ·yᵢ,
//!   cos θ = xⱼ·xᵢ (as `DriverKind::JointAngle`), θ̇ = zᵢ·(ωⱼ − ωᵢ),
//!   τ = −k(θ − θ₀) − c θ̇ + τ_a(t) on body j about zᵢ, −τ on body i; V = ½ k (θ − θ₀)².
//! - Compression-only spring: f = k(l₀ − l) − c l̇ pushes the ends apart while l < l₀ and
//!   f > 0; V = ½ k (l₀ − l)² for l < l₀, else 0. Zero length: no force, as above.

use mbs_model::{BodyRef, ForceElement, LoadFrame, Marker, Model};
use nalgebra::Vector3;

use crate::frame::{BodyFrame, frame_of};
use crate::workspace::Workspace;

/// Below this length a two-point element has no direction and applies no force.
pub const MIN_SPRING_LENGTH: f64 = 1e-12;

/// Adds a global force `f` applied at the global point `at` to body `b`'s load.
fn add_force(
    loads: &mut [(Vector3<f64>, Vector3<f64>)],
    frames: &[BodyFrame],
    b: BodyRef,
    f: Vector3<f64>,
    at: Vector3<f64>,
) {
    if let BodyRef::Body(id) = b {
        let fr = &frames[id.0];
        loads[id.0].0 += f;
        loads[id.0].1 += fr.a.transpose() * (at - fr.r).cross(&f);
    }
}

/// Adds a global torque `n` to body `b`'s load.
fn add_torque(
    loads: &mut [(Vector3<f64>, Vector3<f64>)],
    frames: &[BodyFrame],
    b: BodyRef,
    n: Vector3<f64>,
) {
    if let BodyRef::Body(id) = b {
        loads[id.0].1 += frames[id.0].a.transpose() * n;
    }
}

/// Positions and velocities of two markers: (Pᵢ, Pⱼ, Ṗᵢ, Ṗⱼ).
pub(crate) fn two_points(
    mi: &Marker,
    mj: &Marker,
    fi: &BodyFrame,
    fj: &BodyFrame,
) -> (Vector3<f64>, Vector3<f64>, Vector3<f64>, Vector3<f64>) {
    (
        fi.point(&mi.position),
        fj.point(&mj.position),
        fi.point_velocity(&mi.position),
        fj.point_velocity(&mj.position),
    )
}

/// A prismatic or cylindrical joint's translation s = zᵢ·(Pⱼ − Pᵢ), its rate
/// ṡ = zᵢ·(Ṗⱼ − Ṗᵢ) + (ωᵢ × zᵢ)·(Pⱼ − Pᵢ), the axis zᵢ and the point Pⱼ (global).
pub(crate) fn joint_translation(
    model: &Model,
    frames: &[BodyFrame],
    ground: &BodyFrame,
    joint: mbs_model::JointId,
) -> (f64, f64, Vector3<f64>, Vector3<f64>) {
    let jt = model.joint(joint);
    let (mi, mj) = (model.marker(jt.marker_i), model.marker(jt.marker_j));
    let (fi, fj) = (
        frame_of(frames, ground, mi.body),
        frame_of(frames, ground, mj.body),
    );
    let (pi, pj, vi, vj) = two_points(mi, mj, fi, fj);
    let zi = fi.a * mi.z_axis();
    let d = pj - pi;
    (
        zi.dot(&d),
        zi.dot(&(vj - vi)) + fi.omega.cross(&zi).dot(&d),
        zi,
        pj,
    )
}

/// The global vector of a point force or torque with components `comp(t)` in `frame`,
/// at marker `mk` on body frame `fr`.
pub(crate) fn load_vector(
    comp: &[mbs_model::TimeFunction; 3],
    frame: LoadFrame,
    mk: &Marker,
    fr: &BodyFrame,
    t: f64,
) -> Vector3<f64> {
    let c = Vector3::new(comp[0].value(t), comp[1].value(t), comp[2].value(t));
    match frame {
        LoadFrame::Global => c,
        LoadFrame::Marker => fr.a * (mk.orientation * c),
    }
}

impl Workspace {
    /// Computes the per-body applied loads and the potential energy at the frames and
    /// time of the last [`Workspace::update_frames`] / `evaluate_constraints`.
    pub fn evaluate_forces(&mut self, model: &Model) {
        let t = self.t;
        let frames = &self.frames;
        let ground = &self.ground;
        let loads = &mut self.loads;
        let g = model.gravity();
        let mut v = 0.0;
        for (k, (b, fr)) in model.bodies().iter().zip(frames).enumerate() {
            loads[k] = (b.mass * g, Vector3::zeros());
            v -= b.mass * g.dot(&fr.r);
        }
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
                    add_force(loads, frames, mk.body, f, fr.point(&mk.position));
                }
                ForceElement::Torque {
                    marker,
                    torque,
                    frame,
                    ..
                } => {
                    let mk = model.marker(*marker);
                    let fr = frame_of(frames, ground, mk.body);
                    let n = load_vector(torque, *frame, mk, fr, t);
                    add_torque(loads, frames, mk.body, n);
                }
                ForceElement::SpringDamper {
                    marker_i,
                    marker_j,
                    stiffness,
                    damping,
                    free_length,
                    actuator,
                    ..
                } => {
                    let (mi, mj) = (model.marker(*marker_i), model.marker(*marker_j));
                    let (fi, fj) = (
                        frame_of(frames, ground, mi.body),
                        frame_of(frames, ground, mj.body),
                    );
                    let (pi, pj, vi, vj) = two_points(mi, mj, fi, fj);
                    let d = pj - pi;
                    let l = d.norm();
                    v += 0.5 * stiffness * (l - free_length).powi(2);
                    if l < MIN_SPRING_LENGTH {
                        continue;
                    }
                    let u = d / l;
                    let ldot = u.dot(&(vj - vi));
                    let tension =
                        stiffness * (l - free_length) + damping * ldot + actuator.value(t);
                    add_force(loads, frames, mi.body, tension * u, pi);
                    add_force(loads, frames, mj.body, -tension * u, pj);
                }
                ForceElement::UnilateralSpring {
                    marker_i,
                    marker_j,
                    stiffness,
                    damping,
                    free_length,
                    ..
                } => {
                    let (mi, mj) = (model.marker(*marker_i), model.marker(*marker_j));
                    let (fi, fj) = (
                        frame_of(frames, ground, mi.body),
                        frame_of(frames, ground, mj.body),
                    );
                    let (pi, pj, vi, vj) = two_points(mi, mj, fi, fj);
                    let d = pj - pi;
                    let l = d.norm();
                    if l >= *free_length {
                        continue;
                    }
                    v += 0.5 * stiffness * (free_length - l).powi(2);
                    if l < MIN_SPRING_LENGTH {
                        continue;
                    }
                    let u = d / l;
                    let ldot = u.dot(&(vj - vi));
                    let push = stiffness * (free_length - l) - damping * ldot;
                    if push > 0.0 {
                        add_force(loads, frames, mi.body, -push * u, pi);
                        add_force(loads, frames, mj.body, push * u, pj);
                    }
                }
                ForceElement::RotationalSpringDamper {
                    joint,
                    stiffness,
                    damping,
                    free_angle,
                    actuator,
                    ..
                } => {
                    let jt = model.joint(*joint);
                    let (mi, mj) = (model.marker(jt.marker_i), model.marker(jt.marker_j));
                    let (fi, fj) = (
                        frame_of(frames, ground, mi.body),
                        frame_of(frames, ground, mj.body),
                    );
                    let xi = fi.a * mi.x_axis();
                    let yi = fi.a * mi.y_axis();
                    let zi = fi.a * mi.z_axis();
                    let xj = fj.a * mj.x_axis();
                    let theta = xj.dot(&yi).atan2(xj.dot(&xi));
                    let dev = (theta - free_angle).sin().atan2((theta - free_angle).cos());
                    let theta_dot = zi.dot(&(fj.omega - fi.omega));
                    v += 0.5 * stiffness * dev * dev;
                    let tau = -stiffness * dev - damping * theta_dot + actuator.value(t);
                    add_torque(loads, frames, mj.body, tau * zi);
                    add_torque(loads, frames, mi.body, -tau * zi);
                }
                ForceElement::PrismaticSpringDamper {
                    joint,
                    stiffness,
                    damping,
                    free_length,
                    actuator,
                    ..
                } => {
                    let (s, s_dot, zi, pj) = joint_translation(model, frames, ground, *joint);
                    let dev = s - free_length;
                    v += 0.5 * stiffness * dev * dev;
                    let f = -stiffness * dev - damping * s_dot + actuator.value(t);
                    let jt = model.joint(*joint);
                    let (bi, bj) = (
                        model.marker(jt.marker_i).body,
                        model.marker(jt.marker_j).body,
                    );
                    add_force(loads, frames, bj, f * zi, pj);
                    add_force(loads, frames, bi, -f * zi, pj);
                }
            }
        }
        self.potential = v;
    }

    /// Potential energy (gravity and springs) of the last [`Workspace::evaluate_forces`].
    pub fn potential_energy(&self) -> f64 {
        self.potential
    }

    /// Applied load of body b: (force, global; torque n', body frame, about the centre of
    /// mass), quadratic-velocity terms excluded.
    pub fn body_load(&self, b: usize) -> (Vector3<f64>, Vector3<f64>) {
        self.loads[b]
    }
}
