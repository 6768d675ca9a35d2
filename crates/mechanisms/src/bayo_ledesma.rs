//! Test problems of Bayo & Ledesma (1996, *Augmented Lagrangian and mass-orthogonal
//! projection methods for constrained multibody dynamics*, Nonlinear Dynamics 9, sec 5):
//! the double pendulum (Table 1), the Cartesian pendulum of Brenan–Campbell–Petzold
//! (Table 2), two four-bar linkages through singular positions (Figs 3–4) and the
//! five-link chain (Figs 5–6). Andrew's squeezing mechanism is in [`crate::andrews`].
//!
//! All are planar; they are modelled in 3-D with revolute joints about the global z
//! axis (plane of motion z = 0, gravity along −y). Links of "distributed unit mass" are
//! uniform slender rods: centre of mass at mid-length, J' = diag(ε, 1, 1)·m l²/12 with
//! body x along the rod, where the axial value ε = 0.01 is a **choice** (a slender rod
//! has none; it never enters planar motion but keeps J' positive definite).
//!
//! Data next to ours (the integration settings of the paper belong to the methods, not
//! to the models):
//!
//! | example | quantity | paper | ours |
//! |---|---|---|---|
//! | double pendulum | links | distributed unit mass, unit length | uniform rods, 1 kg, 1 m |
//! | | start | from rest, horizontal | from rest, along +x from the origin |
//! | | gravity | "under gravity effects", no value | **choice**: 9.81 m/s² |
//! | Cartesian pendulum | mass, length, g | 1, 1, 1 | 1, 1, 1 |
//! | | start | x = 1, y = 0, ẋ = 0, ẏ = −1 | the same |
//! | | point mass | point in x, y | a body at distance 1 (**choice**: bob inertia diag(1e-3)) |
//! | two four-bars | links | ℓ = 1 m, m = 1 kg uniform | the same |
//! | | gravity | 8.81 m/s², −Y (as printed) | 8.81 m/s², −y |
//! | | start | Fig 3 (lost), ẋ₁ = 1 | **choice**: cranks vertical, ẋ₁ = 1 |
//! | five-link chain | links | five links, revolute joints, self weight; 30 natural coordinates, 25 constraints (5 DOF) | **choice**: uniform 1 m, 1 kg links, 5 DOF |
//! | | start, gravity | Fig 5 (lost), no value | **choice**: from rest, horizontal, 9.81 m/s² |
//!
//! Independent values:
//! - double pendulum: none (Table 1 gives each method's energy error, a property of the
//!   method, not a value of the motion);
//! - Cartesian pendulum: the exact period 4 K(sin 60°) = 8.626062590 and turning height
//!   y = ½ that follow from the data (energy ½v² + y = ½), checked in the facade's
//!   `published_values` tests;
//! - two four-bars: "the mechanism goes through the singular position (|x₁| = 1) 10
//!   times" in 10 s: with our initial position the motion is a full revolution of a
//!   one-degree-of-freedom parallelogram whose pass times are a quadrature; the count
//!   and the times are checked in `published_values`;
//! - five-link chain: the tip acceleration peaks of ≈ 170 m/s² (Fig 6) depend on the
//!   lost geometry of Fig 5, so they are not a check of our choice; none.

use mbs_model::{BodyRef, JointKind, Model, ModelBuilder, ModelError};
use nalgebra::{Matrix3, Vector3};

use crate::util::{add_link, body, numbered, p2, revolute_z, rod_inertia, set_rigid_velocity};

/// Axial inertia of a slender rod as a fraction of its transverse inertia (choice).
pub(crate) const ROD_AXIAL_FRACTION: f64 = 0.01;

/// Data of the planar open chains (double pendulum, five-link chain).
#[derive(Clone, Debug, PartialEq)]
pub struct ChainParams {
    /// Length of each link (m).
    pub length: f64,
    /// Mass of each link (kg).
    pub mass: f64,
    /// Gravitational acceleration along −y (m/s²).
    pub gravity: f64,
}

impl Default for ChainParams {
    fn default() -> Self {
        Self {
            length: 1.0,
            mass: 1.0,
            gravity: 9.81,
        }
    }
}

fn horizontal_chain(name: &str, n: usize, p: &ChainParams) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new(name);
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let v: Vec<_> = (0..=n).map(|k| p2(k as f64 * p.length, 0.0)).collect();
    let names = numbered("link", 1, n);
    let inertia = rod_inertia(p.mass, p.length, ROD_AXIAL_FRACTION);
    let ids: Vec<_> = (0..n)
        .map(|i| add_link(&mut b, &names[i], v[i], v[i + 1], p.mass, inertia))
        .collect();
    revolute_z(&mut b, "joint1", BodyRef::Ground, body(ids[0]), v[0]);
    for i in 1..n {
        revolute_z(
            &mut b,
            &format!("joint{}", i + 1),
            body(ids[i - 1]),
            body(ids[i]),
            v[i],
        );
    }
    b.marker_at_global("tip", body(ids[n - 1]), v[n], Vector3::z(), None);
    b.build()
}

/// Double pendulum (sec 5, first example, Table 1): two uniform links of unit mass and
/// unit length, released from rest in the horizontal position under gravity.
///
/// **Choices**: ground joint at the origin, links along +x at t = 0; g = 9.81 m/s²
/// (the paper does not print it); rod inertia as in the module documentation; marker
/// `tip` at the free end. Expected figures: Grübler 2, mobility 2, none redundant.
pub fn double_pendulum(p: &ChainParams) -> Result<Model, ModelError> {
    horizontal_chain("double-pendulum", 2, p)
}

/// Five-link chain (sec 5, fourth example, Figs 5–6): five links joined by revolute
/// joints, the first pinned to ground, moving under self weight.
///
/// **Choices** (Fig 5 did not survive; the paper gives only "five links, revolute
/// joints, self weight"): uniform links of 1 m and 1 kg, released from rest in the
/// horizontal position (links along +x from the ground joint at the origin), g = 9.81
/// m/s² along −y; marker `tip` at the free end (its acceleration is the paper's
/// output). Expected figures: Grübler 5, mobility 5, none redundant.
pub fn five_link_chain(p: &ChainParams) -> Result<Model, ModelError> {
    horizontal_chain("five-link-chain", 5, p)
}

/// Data of the Cartesian pendulum (Brenan, Campbell & Petzold).
#[derive(Clone, Debug, PartialEq)]
pub struct CartesianPendulumParams {
    /// Point mass (kg).
    pub mass: f64,
    /// Pendulum length (m).
    pub length: f64,
    /// Fictitious gravity along −y.
    pub gravity: f64,
    /// Initial ẏ (ẋ = 0, at x = length, y = 0).
    pub initial_speed: f64,
    /// Centroidal inertia of the bob, J' = diag(value) (choice, see [`cartesian_pendulum`]).
    pub bob_inertia: f64,
}

impl Default for CartesianPendulumParams {
    fn default() -> Self {
        Self {
            mass: 1.0,
            length: 1.0,
            gravity: 1.0,
            initial_speed: -1.0,
            bob_inertia: 1e-3,
        }
    }
}

/// Cartesian pendulum (sec 5, second example, Table 2): a point mass of unit mass on a
/// massless rod of unit length, g = 1, starting at x = 1, y = 0 with ẋ = 0, ẏ = −1.
///
/// Modelled as one body (the bob) whose centre of mass keeps the distance 1 from the
/// ground point at the origin ([`JointKind::Distance`]): the single constraint of the
/// paper, and the bob's rotation is decoupled from its translation, so the motion of x,
/// y is exactly the point-mass one. **Choice**: the bob needs a positive definite
/// inertia, J' = diag(1e-3) kg m² (its rotation stays at rest). Out-of-plane z stays 0.
/// Expected figures: Grübler 5, mobility 5 (x–y swing, z, three rotations), none
/// redundant.
pub fn cartesian_pendulum(p: &CartesianPendulumParams) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new("cartesian-pendulum");
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let bob = b.body("bob", p.mass, Matrix3::from_diagonal_element(p.bob_inertia));
    let pos = p2(p.length, 0.0);
    b.set_initial_pose(bob, pos, mbs_kinematics::euler_params::identity());
    b.set_initial_velocity(
        bob,
        Vector3::new(0.0, p.initial_speed, 0.0),
        Vector3::zeros(),
    );
    let pivot = b.marker_at_global(
        "pivot",
        BodyRef::Ground,
        Vector3::zeros(),
        Vector3::z(),
        None,
    );
    let m = b.marker_at_global("bob.cm", body(bob), pos, Vector3::z(), None);
    b.joint("rod", JointKind::Distance { length: p.length }, pivot, m);
    b.build()
}

/// Data of the two four-bar linkages.
#[derive(Clone, Debug, PartialEq)]
pub struct TwoFourBarsParams {
    /// Length ℓ of every link (m).
    pub length: f64,
    /// Mass of every link (kg).
    pub mass: f64,
    /// Gravitational acceleration along −y (m/s²).
    pub gravity: f64,
    /// Initial ẋ₁ of point 1 (m/s).
    pub initial_x1_dot: f64,
}

impl Default for TwoFourBarsParams {
    fn default() -> Self {
        Self {
            length: 1.0,
            mass: 1.0,
            gravity: 8.81,
            initial_x1_dot: 1.0,
        }
    }
}

/// Two four-bar linkages (sec 5, third example, Fig 3): one degree of freedom,
/// position described in the paper by the three moving points 1, 2, 3 (x₁, y₁, x₂,
/// y₂, x₃, y₃); all links ℓ = 1 m, m = 1 kg uniform; gravity along −y; ẋ₁(0) = 1;
/// singular whenever the mechanism is horizontal (|x₁| = 1).
///
/// Geometry: three cranks pinned to ground at (0, 0), (ℓ, 0), (2ℓ, 0) carry the points
/// 1, 2, 3; two couplers join 1–2 and 2–3 (two parallelograms sharing the middle
/// crank; 5 bodies, 7 revolute joints: crank 2 is joined to both couplers at point 2).
/// **Choices** (Fig 3 did not survive): the initial position has the cranks vertical
/// (points at (0, ℓ), (ℓ, ℓ), (2ℓ, ℓ)), so that the motion passes the singular
/// horizontal position; with ẋ₁(0) = 1 every crank turns at ω = −ẋ₁/ℓ (clockwise) and
/// the couplers translate at (ẋ₁, 0). Gravity 8.81 m/s² as printed in the paper (likely
/// a misprint of 9.81; both give the ten passes of |x₁| = 1 in 10 s that the paper
/// reports). Rod inertia as in the module documentation. Markers `point1`–`point3`
/// on the couplers/crank 3. Expected figures: Grübler 6·5 − 5·7 = −5, mobility 1,
/// 6 redundant constraints.
pub fn two_four_bars(p: &TwoFourBarsParams) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new("two-four-bars");
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let l = p.length;
    let inertia = rod_inertia(p.mass, l, ROD_AXIAL_FRACTION);
    let ground: Vec<_> = (0..3).map(|k| p2(k as f64 * l, 0.0)).collect();
    let top: Vec<_> = (0..3).map(|k| p2(k as f64 * l, l)).collect();
    let omega = Vector3::new(0.0, 0.0, -p.initial_x1_dot / l);
    let cranks: Vec<_> = (0..3)
        .map(|k| {
            let id = add_link(
                &mut b,
                &format!("crank{}", k + 1),
                ground[k],
                top[k],
                p.mass,
                inertia,
            );
            set_rigid_velocity(&mut b, id, ground[k], Vector3::zeros(), omega);
            revolute_z(
                &mut b,
                &format!("ground{}", k + 1),
                BodyRef::Ground,
                body(id),
                ground[k],
            );
            id
        })
        .collect();
    let v_top = omega.cross(&Vector3::new(0.0, l, 0.0));
    for k in 0..2 {
        let c = add_link(
            &mut b,
            &format!("coupler{}", k + 1),
            top[k],
            top[k + 1],
            p.mass,
            inertia,
        );
        set_rigid_velocity(&mut b, c, top[k], v_top, Vector3::zeros());
        revolute_z(
            &mut b,
            &format!("crank{}-coupler{}", k + 1, k + 1),
            body(cranks[k]),
            body(c),
            top[k],
        );
        revolute_z(
            &mut b,
            &format!("coupler{}-crank{}", k + 1, k + 2),
            body(c),
            body(cranks[k + 1]),
            top[k + 1],
        );
    }
    for k in 0..3 {
        b.marker_at_global(
            format!("point{}", k + 1),
            body(cranks[k]),
            top[k],
            Vector3::z(),
            None,
        );
    }
    b.build()
}
