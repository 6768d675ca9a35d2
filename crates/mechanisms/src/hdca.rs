//! Test cases of the HDCA paper (Chadaj, Malczyk & Frączek 2017, *A parallel
//! Hamiltonian formulation for forward dynamics of closed-loop multibody systems*,
//! Nonlinear Dynamics, sec 3.1, Fig 4): a closed loop of 4 bodies (case 1), a closed
//! loop of 8 bodies (case 2) and a double loop of 8 bodies (case 3).
//!
//! Data (sec 3.1) next to ours:
//!
//! | quantity | paper | ours |
//! |---|---|---|
//! | masses | m = 1 kg | 1 kg |
//! | characteristic length | l = 1 m "in the plane of motion" | 1 m, the distance between a body's joint axes |
//! | J_c (centroidal) | diag(1, 1, 1) kg m² | diag(1, 1, 1) kg m² |
//! | joints | revolute | revolute about z |
//! | gravity | g = 9.81 m/s², vertical | 9.81 m/s² along −y |
//! | initial velocities | zero | zero |
//! | initial positions | Fig 4 (lost) | **choice**, below |
//! | point K of Figs 6–7 | drawn only | **choice**: marker `K`, below |
//!
//! Fig 4 (the initial positions) did not survive, so the geometry is a **choice**, made so
//! that each mechanism is mirror-symmetric about the vertical line x = l/2 and therefore
//! moves symmetrically, as the paper requires ("the mechanisms should preserve the
//! symmetry of the motion during the entire simulation"):
//! - each loop is closed to ground, whose joints are at (0, 0, 0) and (l, 0, 0);
//! - case 1 and case 2: the joint axes sit at the apexes of a regular polygon of side l
//!   (pentagon, resp. 9-gon) hanging below the ground side;
//! - case 3: a regular hexagon of side l hanging below the ground side (bodies 1–5);
//!   its horizontal bottom side is body 3, which carries a square of side l hanging
//!   below it (bodies 6–8). A symmetric double loop of 8 bodies needs one loop with an
//!   even number of links for the shared body to lie on the symmetry axis, and then the
//!   other loop (a four-bar) is locked by the symmetry: the square moves rigidly with
//!   body 3 in the symmetric motion.
//!
//! Planar, modelled in 3-D with revolute joints about z: every loop carries 3 redundant
//! constraints. Point K of Figs 6–7 (case 1) is the **chosen** marker `K` on body 2 at
//! the bottom apex of the pentagon (on the symmetry axis).
//!
//! Independent values: the paper's only statement about the motion itself is its
//! symmetry, checked for all three cases in the facade's `published_values` tests (mirror
//! images to 1e-13 over 2 s). Figs 5–9 plot energy and constraint errors and the y
//! position and velocity of K, no number we could compare with (and they depend on the
//! lost initial positions).

use mbs_model::{BodyRef, Model, ModelBuilder, ModelError};
use nalgebra::{Matrix3, Vector3};

use crate::alf_dca::hanging_polygon;
use crate::util::{add_planar_path, numbered};

/// Data of the HDCA test cases (sec 3.1).
#[derive(Clone, Debug, PartialEq)]
pub struct HdcaParams {
    /// Characteristic length l of every body (distance between its joint axes) (m).
    pub length: f64,
    /// Mass of every body (kg).
    pub mass: f64,
    /// Centroidal inertia J_c of every body (kg m²).
    pub inertia: Matrix3<f64>,
    /// Gravitational acceleration along −y (m/s²).
    pub gravity: f64,
}

impl Default for HdcaParams {
    fn default() -> Self {
        Self {
            length: 1.0,
            mass: 1.0,
            inertia: Matrix3::identity(),
            gravity: 9.81,
        }
    }
}

fn single_loop(
    name: &str,
    n: usize,
    p: &HdcaParams,
    k_vertex: Option<usize>,
) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new(name);
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let v = hanging_polygon(n + 1, p.length);
    let ids = add_planar_path(
        &mut b,
        &v,
        &numbered("body", 1, n),
        &numbered("joint", 1, n + 1),
        BodyRef::Ground,
        BodyRef::Ground,
        p.mass,
        p.inertia,
    );
    if let Some(k) = k_vertex {
        // vertex k is the end of body k (index k − 1)
        b.marker_at_global("K", BodyRef::Body(ids[k - 1]), v[k], Vector3::z(), None);
    }
    b.build()
}

/// Case 1: a closed loop of 4 bodies and ground, joint axes at the apexes of a regular
/// pentagon of side l hanging from the ground side (see the module documentation for
/// the choices). Marker `K` on body 2 at the bottom apex. Expected figures: Grübler −1,
/// mobility 2, 3 redundant constraints.
pub fn hdca_case1(p: &HdcaParams) -> Result<Model, ModelError> {
    single_loop("hdca-case1", 4, p, Some(2))
}

/// Case 2: a closed loop of 8 bodies and ground, joint axes at the apexes of a regular
/// 9-gon of side l hanging from the ground side (choice, see the module
/// documentation). Marker `K` on body 4 at the bottom apex. Expected figures: Grübler
/// 6·8 − 5·9 = 3, mobility 6, 3 redundant constraints.
pub fn hdca_case2(p: &HdcaParams) -> Result<Model, ModelError> {
    single_loop("hdca-case2", 8, p, Some(4))
}

/// Case 3: a double loop of 8 bodies and 10 revolute joints: a regular hexagon of side
/// l hanging from ground (bodies 1–5, joints 1–6) whose horizontal bottom side, body 3,
/// carries a square of side l (bodies 6–8, joints 7–10). Choice, see the module
/// documentation. Expected figures: Grübler 6·8 − 5·10 = −2, mobility 3 + 1 = 4,
/// 6 redundant constraints.
pub fn hdca_case3(p: &HdcaParams) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new("hdca-case3");
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let v = hanging_polygon(6, p.length);
    let ids = add_planar_path(
        &mut b,
        &v,
        &numbered("body", 1, 5),
        &numbered("joint", 1, 6),
        BodyRef::Ground,
        BodyRef::Ground,
        p.mass,
        p.inertia,
    );
    // body 3 runs from v₂ to v₃ (horizontal); the square hangs below it.
    let down = Vector3::new(0.0, -p.length, 0.0);
    let path = [v[3], v[3] + down, v[2] + down, v[2]];
    let body3 = BodyRef::Body(ids[2]);
    add_planar_path(
        &mut b,
        &path,
        &numbered("body", 6, 3),
        &numbered("joint", 7, 4),
        body3,
        body3,
        p.mass,
        p.inertia,
    );
    b.build()
}
