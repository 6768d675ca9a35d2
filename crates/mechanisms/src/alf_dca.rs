//! Test cases of the ALF-DCA paper (Malczyk & Frączek 2012, `seeds/000_…`, sec 4):
//! the five-bar mechanism (sec 4.2, Fig 4) and the double loop of two coupled pentagons
//! (sec 4.3, Fig 8).
//!
//! Both are planar mechanisms modelled as spatial ones: every joint is a revolute about
//! the global z axis, so each closed loop carries 3 redundant constraints (the paper's
//! point: Grübler gives w = 6·4 − 5·5 = −1 for the five-bar, true mobility 2).

use mbs_model::{BodyRef, Model, ModelBuilder, ModelError};
use nalgebra::{Matrix3, Vector3};

use crate::util::{add_planar_path, numbered, regular_polygon};

/// Data of the ALF-DCA test cases (sec 4.1): every body has characteristic length
/// a = 0.2 m, mass 1 kg and J' = diag(0.25) kg m².
#[derive(Clone, Debug, PartialEq)]
pub struct AlfDcaParams {
    /// Side of the pentagons = distance between the joint axes of a body, a (m).
    pub length: f64,
    /// Mass of every body (kg).
    pub mass: f64,
    /// Centroidal inertia of every body, J' (kg m²).
    pub inertia: Matrix3<f64>,
    /// Gravitational acceleration, along −y (m/s²) (the paper gives no value: 9.81 is
    /// a choice).
    pub gravity: f64,
}

impl Default for AlfDcaParams {
    fn default() -> Self {
        Self {
            length: 0.2,
            mass: 1.0,
            inertia: Matrix3::from_diagonal_element(0.25),
            gravity: 9.81,
        }
    }
}

/// The joint axes of the pentagon hanging from the ground side: P₀ = (0, 0), then
/// counter-clockwise down and around to P₄ = (a, 0).
pub(crate) fn hanging_polygon(sides: usize, a: f64) -> Vec<Vector3<f64>> {
    let pts = regular_polygon(
        sides,
        a,
        Vector3::new(a, 0.0, 0.0),
        std::f64::consts::PI,
        true,
    );
    let mut path: Vec<_> = pts[1..].to_vec();
    path.push(pts[0]);
    path
}

/// The five-bar mechanism of sec 4.2 (Fig 4): ground (body 0) and bodies 1–4 joined in
/// one loop by 5 revolute joints with parallel axes; joints 1 and 5 tie bodies 1 and 4
/// to ground.
///
/// Geometry: the joint axes sit at the apexes of a regular pentagon of side a, as the
/// paper states. **Choices** (Fig 4 only draws it): the pentagon hangs below its ground
/// side, which is horizontal with the ground joints at (0, 0, 0) (joint 1) and
/// (a, 0, 0) (joint 5); the plane of motion is z = 0; each body's centre of mass is the
/// midpoint of its side and its body x axis points along the side (from joint k to
/// joint k+1); gravity 9.81 m/s² along −y. Released from rest. Expected figures:
/// Grübler −1, mobility 2, 3 redundant constraints.
pub fn five_bar(p: &AlfDcaParams) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new("five-bar");
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let v = hanging_polygon(5, p.length);
    add_planar_path(
        &mut b,
        &v,
        &numbered("body", 1, 4),
        &numbered("joint", 1, 5),
        BodyRef::Ground,
        BodyRef::Ground,
        p.mass,
        p.inertia,
    );
    b.build()
}

/// The double loop of sec 4.3 (Fig 8): 8 bodies, 10 revolute joints; the upper loop
/// (ground, bodies 1–4, joints 1–5) is the five-bar of [`five_bar`]; body 3 is shared
/// with the lower loop (bodies 5–8; joint 6 ties body 3 to body 5, joints 7–9 the
/// chain 5–6–7–8, joint 10 ties body 8 back to body 3).
///
/// Geometry: the joint axes sit at the apexes of two regular pentagons of side a that
/// share the side of body 3. **Choices** (Fig 8 only draws it): the upper pentagon is
/// the one of [`five_bar`]; the lower pentagon is its mirror image across the side of
/// body 3, so that joints 6 and 10 are coaxial with joints 3 and 4; centres of mass
/// at side midpoints; gravity 9.81 m/s² along −y. Released from rest. Expected
/// figures: Grübler −2, mobility 4, 6 redundant constraints.
pub fn double_loop(p: &AlfDcaParams) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new("double-loop");
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let v = hanging_polygon(5, p.length);
    let upper = add_planar_path(
        &mut b,
        &v,
        &numbered("body", 1, 4),
        &numbered("joint", 1, 5),
        BodyRef::Ground,
        BodyRef::Ground,
        p.mass,
        p.inertia,
    );
    // Lower pentagon: the upper one mirrored across the side of body 3 (v₂ → v₃);
    // traversed from v₃ along that side it is again counter-clockwise.
    let side = v[2] - v[3];
    let q = regular_polygon(5, p.length, v[3], side.y.atan2(side.x), true);
    // path v₂ = q₁ → q₂ → q₃ → q₄ → q₀ = v₃
    let path = [q[1], q[2], q[3], q[4], q[0]];
    let body3 = BodyRef::Body(upper[2]);
    add_planar_path(
        &mut b,
        &path,
        &numbered("body", 5, 4),
        &numbered("joint", 6, 5),
        body3,
        body3,
        p.mass,
        p.inertia,
    );
    b.build()
}
