//! Test cases of the ALF-DCA paper (Malczyk & Frączek 2012, `seeds/000_…`, sec 4):
//! the five-bar mechanism (sec 4.2, Fig 4) and the double loop of two coupled pentagons
//! (sec 4.3, Fig 8).
//!
//! Both are planar mechanisms modelled as spatial ones: every joint is a revolute about
//! the global z axis, so each closed loop carries 3 redundant constraints (the paper's
//! point: Grübler gives w = 6·4 − 5·5 = −1 for the five-bar, true mobility 2).
//!
//! The regular pentagons of the paper's text never come near a singular configuration
//! (Φ_q loses rank only when all joints of a loop are collinear). For acceptance 3
//! ("pass their singular configurations") [`five_bar_singular`] and
//! [`double_loop_singular`] use lengths chosen so that they do (Figs 4 and 8 did not
//! survive; the choices are documented there).

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

/// Joint axes P₁, P₂, P₃ of the singular five-bar (see [`five_bar_singular`]) in
/// its mirror-symmetric one-DOF family, at angle `phi` ∈ [0, 2π) of link 1 (from the
/// x axis, about z): ground joints A = (0, 0) and B = (2a, 0), links of lengths a,
/// 2a, 2a, a. P₁ = a(cos φ, sin φ), P₃ is its mirror image across x = a and
/// P₂ = (a, y₂) lies on the mirror line, on the smooth branch through the flat
/// configuration (φ = π) that carries the "tent" (φ < π: every joint above the ground
/// line, P₂ highest) into the hanging pentagon (φ > π, every joint below it):
/// y₂ = a sin φ ± a√(4 − (1 − cos φ)²), + for φ < π and − for φ ≥ π
/// (y₂ ≈ −(1 + √2) a (φ − π) near the flat configuration).
pub fn singular_five_bar_pose(a: f64, phi: f64) -> [Vector3<f64>; 3] {
    let p1 = Vector3::new(a * phi.cos(), a * phi.sin(), 0.0);
    let dx = a - p1.x;
    let root = (4.0 * a * a - dx * dx).max(0.0).sqrt();
    let y2 = if phi < std::f64::consts::PI {
        p1.y + root
    } else {
        p1.y - root
    };
    let p2 = Vector3::new(a, y2, 0.0);
    let p3 = Vector3::new(2.0 * a - p1.x, p1.y, 0.0);
    [p1, p2, p3]
}

/// Initial angle of link 1 of [`five_bar_singular`]:
/// φ₀ = π − 0.6 rad (a choice: the "tent", 0.6 rad before the flat configuration:
/// P₁ = (−0.83a, 0.56a), P₂ = (a, 1.38a), P₃ = (2.83a, 0.56a), a convex pentagon).
pub const SINGULAR_PHI0: f64 = std::f64::consts::PI - 0.6;

/// A five-bar of sec 4.2 that passes through its singular configuration (the
/// variant of [`five_bar`] for acceptance 3: "passes its singular configurations").
///
/// A planar five-bar loop loses rank of Φ_q (beyond the 3 permanent redundant rows)
/// only when all five joint axes are collinear, which a regular pentagon (all sides
/// equal) can never reach (±1 ± 1 ± 1 ± 1 ≠ 1). Fig 4 of the paper, which shows "the
/// five-bar mechanism, its singular configuration", did not survive, so the lengths
/// are a **choice**: ground joints A = (0, 0, 0) (joint 1) and B = (2a, 0, 0)
/// (joint 5), outer links (bodies 1 and 4) of length a, inner links (bodies 2 and 3)
/// of length 2a (a = 0.2 m, masses and inertias of [`AlfDcaParams`]). The
/// configuration P₁ = (−a, 0), P₂ = (a, 0), P₃ = (3a, 0) is flat (−a + 2a + 2a − a =
/// 2a): there the rank of Φ_q drops by one. In the mirror-symmetric one-DOF family
/// (P₃ the image of P₁ across x = a, P₂ on that line) it is a node where two smooth
/// branches cross (y₂ ≈ (−1 ± √2) a (φ − π)), and on both branches the potential
/// energy has a nonzero slope there, so a symmetric motion under gravity goes
/// straight through it. In the full two-DOF configuration space the flat
/// configuration is the apex of a cone whose two nappes meet only there (the tent and
/// the hanging pentagon lie on opposite nappes): only an exactly symmetric motion
/// passes it; once round-off has broken the symmetry (after the first pass) the
/// mechanism returns to it only approximately (near misses, σ_min of Φ_q ≈ 1e-4, see
/// `mbs-dca/tests/singular_configurations.rs`). [`double_loop_singular`] has a loop
/// whose singular set is crossed without any symmetry.
///
/// Initial pose (**choice**): at rest on the branch of [`singular_five_bar_pose`] at
/// φ₀ = [`SINGULAR_PHI0`] (an irregular convex pentagon, every joint above the
/// ground line); released, it falls through the flat configuration into the hanging
/// pentagon, swings back up through it towards the tent, and so passes the
/// singular configuration twice per period (measured: at t ≈ 0.39 s and 1.96 s). Body frames, centres of mass and gravity as in [`five_bar`]. Expected
/// figures at the initial pose: Grübler −1, mobility 2, 3 redundant constraints.
pub fn five_bar_singular(p: &AlfDcaParams) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new("five-bar-singular");
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let a = p.length;
    let [p1, p2, p3] = singular_five_bar_pose(a, SINGULAR_PHI0);
    let v = [
        Vector3::zeros(),
        p1,
        p2,
        p3,
        Vector3::new(2.0 * a, 0.0, 0.0),
    ];
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

/// Initial half-opening of the lower loop of [`double_loop_singular`] (rad, a choice).
pub const LOWER_BETA0: f64 = 0.6;

/// A double loop of sec 4.3 whose lower loop passes its singular configuration (the
/// variant of [`double_loop`] for acceptance 3).
///
/// **Choices** (Fig 8 did not survive): the upper loop (ground, bodies 1–4,
/// joints 1–5) is the regular pentagon of [`five_bar`] (it stays far from singular);
/// the lower loop (bodies 5–8, joints 6–10) is a rhombus of four links of length a
/// hung from body 3 at its first joint P₂ (the lowest apex of the pentagon, on its
/// mirror line x = a/2): joint 6 (body 3 – body 5) and joint 10 (body 8 – body 3) are
/// both coaxial with joint 3, i.e. the lower "pentagon" has a side of length zero on
/// body 3. A five-joint loop whose two ends sit at distinct points has isolated
/// singular configurations (all joints collinear), which only an exactly symmetric
/// motion reaches (see [`five_bar_singular`]); with the ends coaxial, the flat
/// (folded) rhombus is singular at every orientation, a set of codimension one that
/// the motion crosses without any symmetry, twice per oscillation of the rhombus
/// (whose hanging equilibrium is flat). Initial pose: the rhombus hangs symmetric
/// about the vertical through P₂ with half-opening [`LOWER_BETA0`]
/// (joints at P₂, P₂ + a(∓sin β₀, −cos β₀), P₂ − 2a cos β₀ ŷ), at rest. Expected
/// figures at the initial pose: Grübler −2, mobility 4, 6 redundant constraints.
pub fn double_loop_singular(p: &AlfDcaParams) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new("double-loop-singular");
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let a = p.length;
    let v = hanging_polygon(5, a);
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
    let p2 = v[2];
    let (s, c) = LOWER_BETA0.sin_cos();
    let path = [
        p2,
        p2 + Vector3::new(-a * s, -a * c, 0.0),
        p2 + Vector3::new(0.0, -2.0 * a * c, 0.0),
        p2 + Vector3::new(a * s, -a * c, 0.0),
        p2,
    ];
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn singular_five_bar_pose_closes_the_loop_and_stays_on_one_branch() {
        let a = 0.2;
        let b = Vector3::new(2.0 * a, 0.0, 0.0);
        let mut prev: Option<[Vector3<f64>; 3]> = None;
        for k in 0..=400 {
            let phi = std::f64::consts::PI - 1.0 + 2.0 * k as f64 / 400.0;
            let [p1, p2, p3] = singular_five_bar_pose(a, phi);
            assert!((p1.norm() - a).abs() < 1e-14);
            assert!(((p2 - p1).norm() - 2.0 * a).abs() < 1e-14);
            assert!(((p3 - p2).norm() - 2.0 * a).abs() < 1e-14);
            assert!(((b - p3).norm() - a).abs() < 1e-14);
            if let Some(q) = prev {
                // one smooth branch through φ = π (y₂ ≈ −(1 + √2) a (φ − π)): P₂ keeps
                // falling; on the other branch it would turn back up
                assert!(p2.y < q[1].y, "P₂ turns at φ = {phi}");
            }
            prev = Some([p1, p2, p3]);
        }
        let [p1, p2, p3] = singular_five_bar_pose(a, std::f64::consts::PI);
        assert!(p1.y.abs() < 1e-15 && p2.y.abs() < 1e-15 && p3.y.abs() < 1e-15);
    }
}
