//! Test cases of the ALF-DCA paper (Malczyk & Frączek 2012, *A divide and conquer
//! algorithm for constrained multibody system dynamics based on augmented Lagrangian
//! method with projections-based error correction*, Nonlinear Dynamics 70, sec 4):
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
//! [`double_loop_singular`] use geometries chosen so that they do, both with a
//! rhombus loop whose flat configurations form a set of codimension one (Figs 4 and 8
//! did not survive; the choices and their reasons are documented there).
//!
//! Data (sec 4.1–4.3) next to ours:
//!
//! | quantity | paper | ours |
//! |---|---|---|
//! | characteristic length a | 0.2 m | 0.2 m (side of the pentagons: distance between a body's joint axes) |
//! | masses | 1 kg each | 1 kg |
//! | J′ about the centre of mass | diag(0.25) kg m² | diag(0.25) kg m² |
//! | joints | revolute, parallel axes, at the apexes of pentagons | revolute about z at the apexes of regular pentagons |
//! | gravity | "under gravity forces", no value | **choice**: 9.81 m/s² along −y |
//! | initial position | "shown in figures" (Figs 4, 8, lost) | **choice**: pentagons hanging below a horizontal ground side, see [`five_bar`], [`double_loop`] |
//! | centres of mass, body frames | origin of the local frames at the centres of mass | **choice**: mid-side, body x along the side |
//! | initial velocities | zero | zero |
//! | five-bar / double loop mobility | w = −1, true 2 / w = −2, true 4 | the same |
//! | singular variants | — | **choices**, see [`five_bar_singular`], [`double_loop_singular`] |
//!
//! Independent values: the paper publishes plots only (constraint errors and energies,
//! Figs 5–7, 9–11), no number of the motion. Our five-bar layout is mirror-symmetric
//! about x = a/2, so its motion must stay symmetric (checked in the facade's
//! `published_values` tests); the double loop (lower pentagon on body 3, off the axis)
//! and the singular variants have no symmetry and no published value: energy
//! conservation is their only check.

use mbs_model::{BodyId, BodyRef, Model, ModelBuilder, ModelError};
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

/// A builder with the test cases' gravity (−y).
fn builder(name: &str, p: &AlfDcaParams) -> ModelBuilder {
    let mut b = ModelBuilder::new(name);
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    b
}

/// The closed loop of 4 links along `path` (5 joint axes, first and last on
/// `anchor`): bodies `body{k}`…`body{k+3}`, joints `joint{j}`…`joint{j+4}`, every
/// link with the test cases' mass and inertia. Returns the 4 bodies.
fn add_loop(
    b: &mut ModelBuilder,
    path: &[Vector3<f64>],
    first_body: usize,
    first_joint: usize,
    anchor: BodyRef,
    p: &AlfDcaParams,
) -> Vec<BodyId> {
    add_planar_path(
        b,
        path,
        &numbered("body", first_body, 4),
        &numbered("joint", first_joint, 5),
        anchor,
        anchor,
        p.mass,
        p.inertia,
    )
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
    let mut b = builder("five-bar", p);
    add_loop(
        &mut b,
        &hanging_polygon(5, p.length),
        1,
        1,
        BodyRef::Ground,
        p,
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
    let mut b = builder("double-loop", p);
    let v = hanging_polygon(5, p.length);
    let upper = add_loop(&mut b, &v, 1, 1, BodyRef::Ground, p);
    // Lower pentagon: the upper one mirrored across the side of body 3 (v₂ → v₃);
    // traversed from v₃ along that side it is again counter-clockwise.
    let side = v[2] - v[3];
    let q = regular_polygon(5, p.length, v[3], side.y.atan2(side.x), true);
    // path v₂ = q₁ → q₂ → q₃ → q₄ → q₀ = v₃
    let path = [q[1], q[2], q[3], q[4], q[0]];
    add_loop(&mut b, &path, 5, 6, BodyRef::Body(upper[2]), p);
    b.build()
}

/// Joint axes of a rhombus of side `a` hung from `pivot`: the path pivot → Q₁ → Q₂ →
/// Q₃ → pivot, with its axis (pivot → Q₂) at angle `tilt` from −y (positive towards
/// +x) and half-opening `beta` (the angle between the axis and each side at the
/// pivot): Q₁ = pivot + a u(tilt − β), Q₃ = pivot + a u(tilt + β), Q₂ = Q₁ + Q₃ − pivot,
/// with u(ψ) = (sin ψ, −cos ψ). At β = 0 it is folded flat (all joint axes on one
/// line, Q₁ = Q₃), a singular configuration of the loop at every tilt.
pub(crate) fn hanging_rhombus(
    pivot: Vector3<f64>,
    a: f64,
    tilt: f64,
    beta: f64,
) -> [Vector3<f64>; 5] {
    let u = |psi: f64| Vector3::new(a * psi.sin(), -a * psi.cos(), 0.0);
    let (q1, q3) = (pivot + u(tilt - beta), pivot + u(tilt + beta));
    [pivot, q1, q1 + q3 - pivot, q3, pivot]
}

/// Initial tilt of the rhombus of [`five_bar_singular`] from the downward vertical
/// (rad, a choice: non-symmetric, so that the passes do not rely on symmetry).
pub const SINGULAR_TILT0: f64 = 0.3;

/// Initial half-opening of the rhombus of [`five_bar_singular`] (rad, a choice).
pub const SINGULAR_BETA0: f64 = 0.6;

/// A five-bar of sec 4.2 that passes through its singular configuration (the
/// variant of [`five_bar`] for acceptance 3: "passes its singular configurations").
///
/// The rank of Φ_q of a planar five-bar loop drops (beyond its 3 permanent redundant
/// rows) only when all five joint axes are collinear. Fig 4 of the paper ("the
/// five-bar mechanism, its singular configuration") did not survive, so the geometry
/// is a **choice**, made for the following reasons:
/// - the regular pentagon of the text (all sides equal, ground side a) never reaches
///   such a configuration (±1 ± 1 ± 1 ± 1 ≠ 1);
/// - with distinct ground joints (ground side > 0) and link lengths allowing it (e.g.
///   a, 2a, 2a, a on a 2a base), the collinear configurations are isolated points of
///   the two-DOF configuration space (the apex of a cone there), which only an
///   exactly symmetric motion reaches: once round-off has broken the symmetry the
///   mechanism comes back only to near misses (σ ≈ 1e-4), in which an exact
///   projection acts as an inelastic impact of tolerance-dependent size;
/// - with the two ground joints coaxial (a ground side of length zero) the
///   collinear configurations form a set of codimension one, which a motion crosses
///   generically, without any symmetry.
///
/// So: ground joints 1 (ground – body 1) and 5 (body 4 – ground) both at the origin;
/// bodies 1–4 are four links of length a (a = 0.2 m, masses and inertias of
/// [`AlfDcaParams`]) forming a rhombus that hangs from that point (the lower loop of
/// [`double_loop_singular`], pinned to ground instead of body 3). Bodies 1 and 3 stay
/// parallel, and so do bodies 2 and 4; the rhombus is singular when folded flat
/// (half-opening β = 0, joints 2 and 4 coaxial, all joints on one line) at any
/// tilt. The potential energy, −2mga (cos ψ₁ + cos ψ₄) with ψ₁, ψ₄ the angles of
/// bodies 1 and 4 from −y, is least at the flat hanging configuration, so the
/// rhombus swings and folds flat twice per oscillation of its opening, crossing
/// the singular set transversally (measured: 8 passes in 10 s at each RK45 tolerance
/// rtol = atol ∈ [0.8, 1.25]·1e-6, `mbs-dca/tests/singular_configurations.rs`).
///
/// Initial pose (**choice**): at rest, axis tilted by [`SINGULAR_TILT0`] from the
/// downward vertical, half-opening [`SINGULAR_BETA0`] (joints as in `hanging_rhombus`;
/// not symmetric about the vertical). Body frames, centres of mass and gravity as in
/// [`five_bar`]. Expected figures at the initial pose: Grübler −1, mobility 2,
/// 3 redundant constraints.
pub fn five_bar_singular(p: &AlfDcaParams) -> Result<Model, ModelError> {
    let mut b = builder("five-bar-singular", p);
    let v = hanging_rhombus(Vector3::zeros(), p.length, SINGULAR_TILT0, SINGULAR_BETA0);
    add_loop(&mut b, &v, 1, 1, BodyRef::Ground, p);
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
/// motion reaches (see the reasons at [`five_bar_singular`]); with the ends coaxial, the flat
/// (folded) rhombus is singular at every orientation, a set of codimension one that
/// the motion crosses without any symmetry, twice per oscillation of the rhombus
/// (whose hanging equilibrium is flat). Initial pose: the rhombus hangs symmetric
/// about the vertical through P₂ with half-opening [`LOWER_BETA0`]
/// (joints at P₂, P₂ + a(∓sin β₀, −cos β₀), P₂ − 2a cos β₀ ŷ), at rest. Expected
/// figures at the initial pose: Grübler −2, mobility 4, 6 redundant constraints.
pub fn double_loop_singular(p: &AlfDcaParams) -> Result<Model, ModelError> {
    let mut b = builder("double-loop-singular", p);
    let v = hanging_polygon(5, p.length);
    let upper = add_loop(&mut b, &v, 1, 1, BodyRef::Ground, p);
    let path = hanging_rhombus(v[2], p.length, 0.0, LOWER_BETA0);
    add_loop(&mut b, &path, 5, 6, BodyRef::Body(upper[2]), p);
    b.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hanging_rhombus_closes_the_loop_and_folds_flat_at_zero_opening() {
        let a = 0.2;
        let pivot = Vector3::new(0.1, -0.3, 0.0);
        for (tilt, beta) in [(0.0, 0.6), (0.3, 0.6), (-1.1, 0.2), (0.7, -0.4)] {
            let v = hanging_rhombus(pivot, a, tilt, beta);
            assert_eq!(v[0], pivot);
            assert_eq!(v[4], pivot);
            for k in 0..4 {
                assert!(((v[k + 1] - v[k]).norm() - a).abs() < 1e-15);
            }
            // axis at `tilt` from −y, of length 2a cos β
            let d = v[2] - pivot;
            assert!((d.norm() - 2.0 * a * beta.cos()).abs() < 1e-15);
            assert!((d.x.atan2(-d.y) - tilt).abs() < 1e-14);
            // opposite sides parallel (bodies 1 ∥ 3, 2 ∥ 4)
            assert!((v[1] - v[0] + (v[3] - v[2])).norm() < 1e-15);
            assert!((v[2] - v[1] + (v[4] - v[3])).norm() < 1e-15);
        }
        // flat: all joints on one line, joints 2 and 4 coaxial
        let v = hanging_rhombus(pivot, a, 0.3, 0.0);
        assert!((v[1] - v[3]).norm() < 1e-15);
        let d = v[2] - v[0];
        for q in &v {
            assert!((q - v[0]).cross(&d).norm() < 1e-15);
        }
    }

    #[test]
    fn five_bar_singular_starts_tilted_with_coaxial_ground_joints() {
        let p = AlfDcaParams::default();
        let v = hanging_rhombus(Vector3::zeros(), p.length, SINGULAR_TILT0, SINGULAR_BETA0);
        // not symmetric about the vertical through the ground point
        assert!((v[1].x + v[3].x).abs() > 0.1 * p.length);
        let m = five_bar_singular(&p).unwrap();
        assert_eq!(m.name(), "five-bar-singular");
    }
}
