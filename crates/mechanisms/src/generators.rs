//! Parametric and random mechanisms for scaling studies and property tests.
//!
//! Every generator returns a validated [`Model`] whose initial state satisfies its
//! position and velocity constraints exactly (up to rounding): joints are placed with
//! [`ModelBuilder::joint_at`] at the bodies' initial poses, and initial velocities are
//! propagated from joint rates (for loops, rates projected onto the null space of the
//! loop-closure velocity equations). Random generators are deterministic in their seed
//! ([`SplitMix64`]).

use mbs_kinematics::euler_params::rotation;
use mbs_model::{BodyId, BodyRef, JointKind, Model, ModelBuilder, ModelError};
use nalgebra::{DMatrix, DVector, Matrix3, Vector3};

use crate::util::{add_link, add_planar_path, body, numbered, revolute_z, rod_inertia, spherical};

/// The deterministic generator of the random mechanisms (one implementation, in
/// `mbs-linalg`, shared with its synthetic systems).
pub use mbs_linalg::SplitMix64;

/// Joint kind of the links of [`open_chain`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChainJoint {
    /// Revolute joints about the global z axis (planar chain).
    Revolute,
    /// Spherical joints (spatial chain).
    Spherical,
}

/// Link data of the parametric generators.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratorParams {
    /// Length of every link (m).
    pub length: f64,
    /// Mass of every link (kg).
    pub mass: f64,
    /// Gravitational acceleration along −y (m/s²).
    pub gravity: f64,
    /// Centroidal inertia of every link as J′ = inertia·I (kg m²); `None`: a slender
    /// rod, diag(0.01, 1, 1)·m l²/12. The links of the ALF-DCA test cases (Malczyk &
    /// Frączek 2012, sec 4.1) are `length` 0.2, `mass` 1, `inertia` 0.25.
    pub inertia: Option<f64>,
}

impl Default for GeneratorParams {
    fn default() -> Self {
        Self {
            length: 1.0,
            mass: 1.0,
            gravity: 9.81,
            inertia: None,
        }
    }
}

/// The links' centroidal inertia: `inertia`·I when given, else a slender rod
/// J' = diag(0.01, 1, 1)·m l²/12 (axial value a choice, as for the paper mechanisms).
fn link_inertia(p: &GeneratorParams) -> Matrix3<f64> {
    match p.inertia {
        Some(j) => Matrix3::from_diagonal_element(j),
        None => rod_inertia(p.mass, p.length, crate::bayo_ledesma::ROD_AXIAL_FRACTION),
    }
}

/// Size check of the generators: `value ≥ min`, or an error naming the generator.
fn at_least(
    generator: &str,
    parameter: &'static str,
    value: usize,
    min: usize,
) -> Result<(), ModelError> {
    if value >= min {
        Ok(())
    } else {
        Err(ModelError::InvalidParameter {
            element: generator.to_string(),
            parameter,
            requirement: ["at least 0", "at least 1", "at least 2"][min.min(2)],
            value: value as f64,
        })
    }
}

/// An open chain of `n ≥ 1` links with default [`GeneratorParams`]; see
/// [`open_chain_with`].
pub fn open_chain(n: usize, joint: ChainJoint) -> Result<Model, ModelError> {
    open_chain_with(n, joint, &GeneratorParams::default())
}

/// An open chain of `n ≥ 1` uniform links, the first jointed to ground at the origin,
/// released from rest. Revolute chains lie along +x in the plane z = 0 (joints about
/// z); spherical chains zig-zag out of that plane (link k along (1, 0, ±½),
/// normalised) so that their motion is spatial. Grübler = mobility = n (revolute) or
/// 3n (spherical; n of them idle spins of the links about their axes), none redundant.
pub fn open_chain_with(
    n: usize,
    joint: ChainJoint,
    p: &GeneratorParams,
) -> Result<Model, ModelError> {
    at_least("open_chain", "bodies n", n, 1)?;
    let mut b = ModelBuilder::new(format!("open-chain-{}-{n}", joint_label(joint)));
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let inertia = link_inertia(p);
    let mut pts = vec![Vector3::zeros()];
    for k in 0..n {
        let d = match joint {
            ChainJoint::Revolute => Vector3::x(),
            ChainJoint::Spherical => {
                Vector3::new(1.0, 0.0, if k % 2 == 0 { 0.5 } else { -0.5 }).normalize()
            }
        };
        pts.push(pts[k] + p.length * d);
    }
    let mut prev = BodyRef::Ground;
    for k in 0..n {
        let id = add_link(
            &mut b,
            &format!("link{}", k + 1),
            pts[k],
            pts[k + 1],
            p.mass,
            inertia,
        );
        let name = format!("joint{}", k + 1);
        match joint {
            ChainJoint::Revolute => revolute_z(&mut b, &name, prev, body(id), pts[k]),
            ChainJoint::Spherical => spherical(&mut b, &name, prev, body(id), pts[k]),
        };
        prev = body(id);
    }
    b.build()
}

fn joint_label(j: ChainJoint) -> &'static str {
    match j {
        ChainJoint::Revolute => "revolute",
        ChainJoint::Spherical => "spherical",
    }
}

/// One closed loop of `n ≥ 2` links and ground with default [`GeneratorParams`]; see
/// [`closed_loop_with`].
pub fn closed_loop(n: usize) -> Result<Model, ModelError> {
    closed_loop_with(n, &GeneratorParams::default())
}

/// One closed loop: `n ≥ 2` links and ground, revolute joints about z at the apexes of
/// a regular (n+1)-gon of side `length` hanging below its ground side (ground joints at
/// (0, 0, 0) and (length, 0, 0)); the HDCA test cases 1 and 2 are n = 4 and 8. From
/// rest. Grübler n − 5, planar mobility n − 2, 3 redundant constraints.
pub fn closed_loop_with(n: usize, p: &GeneratorParams) -> Result<Model, ModelError> {
    at_least("closed_loop", "bodies n", n, 2)?;
    let mut b = ModelBuilder::new(format!("closed-loop-{n}"));
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let v = crate::alf_dca::hanging_polygon(n + 1, p.length);
    add_planar_path(
        &mut b,
        &v,
        &numbered("link", 1, n),
        &numbered("joint", 1, n + 1),
        BodyRef::Ground,
        BodyRef::Ground,
        p.mass,
        link_inertia(p),
    );
    b.build()
}

/// A ladder of `k ≥ 1` coupled loops with default [`GeneratorParams`]; see
/// [`loop_ladder_with`].
pub fn loop_ladder(k: usize) -> Result<Model, ModelError> {
    loop_ladder_with(k, &GeneratorParams::default())
}

/// A ladder of `k ≥ 1` coupled four-bar loops hanging from ground: rung 0 is ground
/// (joints at (0, 0, 0) and (length, 0, 0)); loop i adds a left rail, a right rail and
/// rung i, each of length `length`, with revolute joints about z at the four corners.
/// Consecutive loops share a rung. The rails of loop i start tilted by 0.3 (−1)ⁱ rad
/// from the vertical (parallelograms), so the ladder is not in equilibrium; from rest.
/// 3k bodies, 4k joints: Grübler −2k, planar mobility k, 3k redundant constraints.
pub fn loop_ladder_with(k: usize, p: &GeneratorParams) -> Result<Model, ModelError> {
    at_least("loop_ladder", "loops k", k, 1)?;
    let mut b = ModelBuilder::new(format!("loop-ladder-{k}"));
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let inertia = link_inertia(p);
    let w = Vector3::new(p.length, 0.0, 0.0);
    let mut left = Vector3::zeros();
    let mut rung = BodyRef::Ground;
    for i in 1..=k {
        let tilt = if i % 2 == 0 { 0.3 } else { -0.3 };
        let step = p.length * Vector3::new(f64::sin(tilt), -f64::cos(tilt), 0.0);
        let (l0, r0) = (left, left + w);
        let (l1, r1) = (l0 + step, r0 + step);
        let lr = add_link(&mut b, &format!("left{i}"), l0, l1, p.mass, inertia);
        let rr = add_link(&mut b, &format!("right{i}"), r0, r1, p.mass, inertia);
        let ru = add_link(&mut b, &format!("rung{i}"), l1, r1, p.mass, inertia);
        revolute_z(&mut b, &format!("left{i}.top"), rung, body(lr), l0);
        revolute_z(&mut b, &format!("right{i}.top"), rung, body(rr), r0);
        revolute_z(&mut b, &format!("left{i}.bottom"), body(lr), body(ru), l1);
        revolute_z(&mut b, &format!("right{i}.bottom"), body(rr), body(ru), r1);
        left = l1;
        rung = body(ru);
    }
    b.build()
}

/// A joint of a random mechanism, with the rates used for its initial velocity.
#[derive(Clone, Debug)]
struct RandomJoint {
    kind: JointKind,
    /// Marker i's z axis (global), i.e. the joint axis.
    axis: Vector3<f64>,
    /// Marker j's z axis (global): = axis, except for universal joints (⊥ axis).
    axis_j: Vector3<f64>,
}

impl RandomJoint {
    fn random(rng: &mut SplitMix64, kinds: &[JointKind]) -> Self {
        let kind = kinds[rng.below(kinds.len())].clone();
        let axis = rng.unit_vector();
        let axis_j = if kind == JointKind::Universal {
            let w = rng.unit_vector();
            let perp = w - axis * axis.dot(&w);
            if perp.norm() > 1e-3 {
                perp.normalize()
            } else {
                axis.cross(&Vector3::x()).normalize()
            }
        } else {
            axis
        };
        Self { kind, axis, axis_j }
    }

    /// Number of joint rates (relative velocity freedoms).
    fn n_rates(&self) -> usize {
        match self.kind {
            JointKind::Revolute | JointKind::Prismatic => 1,
            JointKind::Universal | JointKind::Cylindrical => 2,
            JointKind::Spherical => 3,
            _ => 0,
        }
    }

    /// Relative (angular velocity, velocity of the joint point) of the child for the
    /// given rates.
    fn relative_twist(&self, rates: &[f64]) -> (Vector3<f64>, Vector3<f64>) {
        let a = self.axis;
        match self.kind {
            JointKind::Revolute => (a * rates[0], Vector3::zeros()),
            JointKind::Prismatic => (Vector3::zeros(), a * rates[0]),
            JointKind::Cylindrical => (a * rates[0], a * rates[1]),
            JointKind::Universal => (a * rates[0] + self.axis_j * rates[1], Vector3::zeros()),
            JointKind::Spherical => (Vector3::new(rates[0], rates[1], rates[2]), Vector3::zeros()),
            _ => (Vector3::zeros(), Vector3::zeros()),
        }
    }

    fn add(
        &self,
        b: &mut ModelBuilder,
        name: &str,
        parent: BodyRef,
        child: BodyRef,
        point: Vector3<f64>,
    ) {
        let mi = b.marker_at_global(format!("{name}.i"), parent, point, self.axis, None);
        let mj = b.marker_at_global(format!("{name}.j"), child, point, self.axis_j, None);
        b.joint(name, self.kind.clone(), mi, mj);
    }
}

/// Random mass and a physical (triangle-inequality) centroidal inertia: a box of
/// random sides, randomly rotated in the body frame.
fn random_mass_inertia(rng: &mut SplitMix64) -> (f64, Matrix3<f64>) {
    let m = rng.uniform(0.5, 2.0);
    let (a, b, c) = (
        rng.uniform(0.1, 1.0),
        rng.uniform(0.1, 1.0),
        rng.uniform(0.1, 1.0),
    );
    let d = Matrix3::from_diagonal(&Vector3::new(b * b + c * c, a * a + c * c, a * a + b * b))
        * (m / 12.0);
    let r = rotation(&rng.rotation());
    let j = r * d * r.transpose();
    (m, 0.5 * (j + j.transpose()))
}

/// Rigid-body data of a random mechanism before it goes into the builder.
struct RandomBody {
    id: BodyId,
    /// Parent body (None = ground) and the joint to it.
    parent: Option<usize>,
    joint: RandomJoint,
    point: Vector3<f64>,
    rate_offset: usize,
}

/// Propagates joint rates from the root to every body: returns (ω, ṙ) per body.
fn propagate(
    bodies: &[RandomBody],
    positions: &[Vector3<f64>],
    rates: &[f64],
) -> Vec<(Vector3<f64>, Vector3<f64>)> {
    let mut out: Vec<(Vector3<f64>, Vector3<f64>)> = Vec::with_capacity(bodies.len());
    for (k, rb) in bodies.iter().enumerate() {
        let (w_p, v_point) = match rb.parent {
            None => (Vector3::zeros(), Vector3::zeros()),
            Some(i) => {
                let (w, v) = out[i];
                (w, v + w.cross(&(rb.point - positions[i])))
            }
        };
        let n = rb.joint.n_rates();
        let (dw, dv) = rb
            .joint
            .relative_twist(&rates[rb.rate_offset..rb.rate_offset + n]);
        let w = w_p + dw;
        let v = v_point + dv + w.cross(&(positions[k] - rb.point));
        out.push((w, v));
    }
    out
}

const TREE_KINDS: [JointKind; 5] = [
    JointKind::Revolute,
    JointKind::Spherical,
    JointKind::Universal,
    JointKind::Cylindrical,
    JointKind::Prismatic,
];

/// A random tree of `n ≥ 1` bodies, deterministic in `seed`: body k hangs from ground or
/// from a random earlier body by a random joint (revolute, spherical, universal,
/// cylindrical or prismatic) with a random axis at a random point; random masses
/// (0.5–2 kg), random physical inertias (boxes of sides 0.1–1 m, randomly rotated),
/// random orientations; random joint rates in \[−1, 1\] give a consistent initial
/// velocity. Gravity 9.81 m/s² along −y. No loops, so none redundant.
pub fn random_tree(seed: u64, n: usize) -> Result<Model, ModelError> {
    at_least("random_tree", "bodies n", n, 1)?;
    let mut rng = SplitMix64::new(seed);
    let mut b = ModelBuilder::new(format!("random-tree-{seed}-{n}"));
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let mut bodies: Vec<RandomBody> = Vec::with_capacity(n);
    let mut positions = Vec::with_capacity(n);
    let mut n_rates = 0;
    for k in 0..n {
        let pick = rng.below(k + 1);
        let parent = (pick < k).then_some(pick);
        let point = match parent {
            None => rng.unit_vector() * rng.uniform(0.0, 1.0),
            Some(i) => positions[i] + rng.unit_vector() * rng.uniform(0.2, 0.8),
        };
        let r = point + rng.unit_vector() * rng.uniform(0.2, 0.8);
        let (m, j) = random_mass_inertia(&mut rng);
        let id = b.body(format!("body{}", k + 1), m, j);
        b.set_initial_pose(id, r, rng.rotation());
        let joint = RandomJoint::random(&mut rng, &TREE_KINDS);
        let pref = parent.map_or(BodyRef::Ground, |i| body(bodies[i].id));
        joint.add(&mut b, &format!("joint{}", k + 1), pref, body(id), point);
        let nr = joint.n_rates();
        bodies.push(RandomBody {
            id,
            parent,
            joint,
            point,
            rate_offset: n_rates,
        });
        positions.push(r);
        n_rates += nr;
    }
    let rates: Vec<f64> = (0..n_rates).map(|_| rng.uniform(-1.0, 1.0)).collect();
    for (rb, (w, v)) in bodies.iter().zip(propagate(&bodies, &positions, &rates)) {
        b.set_initial_velocity(rb.id, v, w);
    }
    b.build()
}

const LOOP_KINDS: [JointKind; 4] = [
    JointKind::Revolute,
    JointKind::Spherical,
    JointKind::Universal,
    JointKind::Cylindrical,
];

/// A random single loop of `n ≥ 2` bodies, deterministic in `seed`: a serial chain from
/// ground with random joints (revolute, spherical, universal, cylindrical), random
/// link vectors (0.5–1.5 m), masses, inertias and orientations, closed back to ground
/// at the exact end point of its last link by a spherical joint or (at random) a
/// revolute joint whose two markers share point and axis. Initial velocity: random
/// joint rates projected (least squares, SVD pseudo-inverse) onto the null space of the
/// closure's velocity equations (point velocity zero; for a revolute closure also ω of
/// the last body parallel to the axis), so Φ = 0 and Φ̇ = 0. Gravity 9.81 m/s² along −y.
pub fn random_loop_mechanism(seed: u64, n: usize) -> Result<Model, ModelError> {
    at_least("random_loop_mechanism", "bodies n", n, 2)?;
    let mut rng = SplitMix64::new(seed);
    let mut b = ModelBuilder::new(format!("random-loop-{seed}-{n}"));
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let mut bodies: Vec<RandomBody> = Vec::with_capacity(n);
    let mut positions = Vec::with_capacity(n);
    let mut n_rates = 0;
    let mut point = Vector3::zeros();
    for k in 0..n {
        let end = point + rng.unit_vector() * rng.uniform(0.5, 1.5);
        // centre of mass near the link's midpoint
        let r = 0.5 * (point + end) + rng.unit_vector() * rng.uniform(0.0, 0.1);
        let (m, j) = random_mass_inertia(&mut rng);
        let id = b.body(format!("body{}", k + 1), m, j);
        b.set_initial_pose(id, r, rng.rotation());
        let joint = RandomJoint::random(&mut rng, &LOOP_KINDS);
        let parent = k.checked_sub(1);
        let pref = parent.map_or(BodyRef::Ground, |i| body(bodies[i].id));
        joint.add(&mut b, &format!("joint{}", k + 1), pref, body(id), point);
        let nr = joint.n_rates();
        bodies.push(RandomBody {
            id,
            parent,
            joint,
            point,
            rate_offset: n_rates,
        });
        positions.push(r);
        n_rates += nr;
        point = end;
    }
    // closure at `point` (end of the last link)
    let last = n - 1;
    let revolute_closure = rng.below(2) == 1;
    let axis = rng.unit_vector();
    let frame = mbs_model::frame_from_z(&axis, None).expect("unit axis");
    let (e1, e2) = (frame.column(0).into_owned(), frame.column(1).into_owned());
    let closure_rows = |rates: &[f64]| -> Vec<f64> {
        let (w, v) = propagate(&bodies, &positions, rates)[last];
        let vp = v + w.cross(&(point - positions[last]));
        let mut rows = vec![vp.x, vp.y, vp.z];
        if revolute_closure {
            rows.push(w.dot(&e1));
            rows.push(w.dot(&e2));
        }
        rows
    };
    let m_rows = if revolute_closure { 5 } else { 3 };
    let mut jac = DMatrix::zeros(m_rows, n_rates);
    let mut unit = vec![0.0; n_rates];
    for c in 0..n_rates {
        unit[c] = 1.0;
        for (r, val) in closure_rows(&unit).into_iter().enumerate() {
            jac[(r, c)] = val;
        }
        unit[c] = 0.0;
    }
    let rates0 = DVector::from_iterator(n_rates, (0..n_rates).map(|_| rng.uniform(-1.0, 1.0)));
    let pinv = jac
        .clone()
        .pseudo_inverse(1e-10)
        .expect("SVD of a small matrix");
    // projection plus two refinement passes: with a nearly singular closure Jacobian
    // one pass leaves a residual of round-off times its condition number
    let mut rates = rates0;
    for _ in 0..3 {
        rates -= &pinv * (&jac * &rates);
    }
    for (rb, (w, v)) in bodies
        .iter()
        .zip(propagate(&bodies, &positions, rates.as_slice()))
    {
        b.set_initial_velocity(rb.id, v, w);
    }
    let last_ref = body(bodies[last].id);
    if revolute_closure {
        b.joint_at(
            "closure",
            JointKind::Revolute,
            last_ref,
            BodyRef::Ground,
            point,
            axis,
        );
    } else {
        b.joint_at(
            "closure",
            JointKind::Spherical,
            last_ref,
            BodyRef::Ground,
            point,
            axis,
        );
    }
    b.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_small_sizes_are_errors_not_panics() {
        let e = closed_loop(1).unwrap_err().to_string();
        assert!(
            e.contains("closed_loop") && e.contains("at least 2") && e.contains('1'),
            "{e}"
        );
        assert!(open_chain(0, ChainJoint::Revolute).is_err());
        assert!(loop_ladder(0).is_err());
        assert!(random_tree(1, 0).is_err());
        assert!(random_loop_mechanism(1, 1).is_err());
    }

    #[test]
    fn random_generators_are_deterministic() {
        assert_eq!(random_tree(7, 6).unwrap(), random_tree(7, 6).unwrap());
        assert_eq!(
            random_loop_mechanism(7, 5).unwrap(),
            random_loop_mechanism(7, 5).unwrap()
        );
        assert_ne!(random_tree(7, 6).unwrap(), random_tree(8, 6).unwrap());
    }
}
