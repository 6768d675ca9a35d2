//! The link graph: what URDF and MJCF have in common, before it becomes an mbs
//! [`mbs_model::Model`].
//!
//! Both formats describe a mechanism as *links* (URDF `<link>`, MJCF `<body>`) whose
//! frames are placed relative to their parent's by *joints*, plus (MJCF `<equality>`)
//! loop closures. The parsers (`crate::urdf`, `crate::mjcf`) produce a [`LinkGraph`];
//! `crate::build` turns it into bodies (rigidly attached links merged), markers,
//! joints, force elements and initial conditions.
//!
//! Frames. Every link has a frame (URDF: the link frame; MJCF: the body frame). A
//! joint maps the frame *before* it to the frame *after* it:
//!
//! after = before · `origin` · M(q) · `offset`
//!
//! where M(q) is the joint's motion at its position q (a rotation about `axis` by q, a
//! translation q·`axis`, …, identity at q = 0), expressed in the joint frame
//! before · `origin`. The joints whose `child` is link c are applied in the order of
//! [`LinkGraph::joints`]: the first one's *before* is the parent link's frame, each
//! next one's *before* is the previous one's *after*, and the last one's *after* is the
//! child link's frame. So
//! - URDF: one joint per child link, `origin` = the joint's `<origin>`, `offset` = I;
//! - MJCF: a body with pose P and hinge/slide joints with anchor pᵢ and axis aᵢ (body
//!   frame) gives joints with `origin` = P·T(p₁), `offset` = T(−p₁) for the first and
//!   `origin` = T(pᵢ), `offset` = T(−pᵢ) for each next; a body without joints gives
//!   one [`JointMotion::Fixed`] joint with `origin` = P.
//!
//! Units are SI (m, kg, rad, N, N·m, s), angles already converted by the parsers.

use std::collections::BTreeMap;
use std::path::PathBuf;

use nalgebra::{Isometry3, Matrix3, Unit, Vector3};

/// A link or the world frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkRef {
    /// The fixed world (inertial) frame.
    World,
    /// `LinkGraph::links[i]`.
    Link(usize),
}

/// A mechanism as URDF and MJCF describe it.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkGraph {
    /// Model name (URDF `robot name`, MJCF `model`).
    pub name: String,
    /// Gravitational acceleration in the world frame (URDF has none: the parser
    /// gives (0, 0, −9.81) as Pinocchio and Gazebo do).
    pub gravity: Vector3<f64>,
    /// Every link (URDF links, MJCF bodies; MJCF's `worldbody` itself is
    /// [`LinkRef::World`], its geoms are world visuals in [`LinkGraph::world_visuals`]).
    pub links: Vec<Link>,
    /// Joints, in the order in which they are applied (see the module doc).
    pub joints: Vec<GraphJoint>,
    /// Loop closures (MJCF `<equality>` `connect` and `weld`).
    pub closures: Vec<LoopClosure>,
    /// Geometry fixed in the world frame.
    pub world_visuals: Vec<Visual>,
    /// What the source holds that the import does not honour, by name (URDF
    /// transmissions, gazebo tags, MJCF contacts, tendons, actuators, sensors, …).
    pub notes: Vec<ImportNote>,
    /// The source's own initial joint positions by joint name, in the layout of
    /// [`crate::ImportOptions::q0`] (MJCF: `ref` of hinges and slides, i.e. `qpos0`,
    /// with the parser folding R(axis, −ref) or T(−ref·axis) into the joint's
    /// `origin` so that q = ref gives the pose written in the file; URDF: none). [`crate::ImportOptions::q0`] overrides them; joints in neither
    /// start at q = 0 (identity for ball and floating joints).
    pub q0: BTreeMap<String, Vec<f64>>,
}

/// A rigid link.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// Unique name (URDF link name; MJCF body name, or a generated one for an
    /// unnamed body, e.g. `body7`).
    pub name: String,
    /// Mass properties; `None` for a massless frame (URDF link without `<inertial>`,
    /// MJCF body with mass 0).
    pub inertial: Option<Inertial>,
    /// Geometry to draw, in the link frame.
    pub visuals: Vec<Visual>,
}

/// Mass properties of a link, in its frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Inertial {
    /// Mass m ≥ 0 (kg).
    pub mass: f64,
    /// Centre of mass in the link frame.
    pub com: Vector3<f64>,
    /// Inertia tensor about the centre of mass, in the *link* axes (the parsers
    /// rotate URDF's `<inertial><origin rpy>` and MJCF's `quat`/`fullinertia` into
    /// link axes).
    pub inertia: Matrix3<f64>,
}

/// Geometry of a link, for drawing.
#[derive(Clone, Debug, PartialEq)]
pub struct Visual {
    /// Element name, if the source gives one.
    pub name: Option<String>,
    /// Pose of the geometry frame in the link frame.
    pub origin: Isometry3<f64>,
    /// The geometry in its own frame.
    pub geometry: VisualGeometry,
    /// Colour (red, green, blue, alpha in 0…1), if given.
    pub rgba: Option<[f64; 4]>,
}

/// Geometry in its own frame (centred at its centroid, symmetry axis along z).
#[derive(Clone, Debug, PartialEq)]
pub enum VisualGeometry {
    /// Box with full side lengths along x, y, z.
    Box {
        /// Side lengths (URDF `size`; MJCF gives half sizes, the parser doubles them).
        size: Vector3<f64>,
    },
    /// Solid cylinder along z.
    Cylinder {
        /// Radius.
        radius: f64,
        /// Full length.
        length: f64,
    },
    /// Sphere.
    Sphere {
        /// Radius.
        radius: f64,
    },
    /// Cylinder of `length` along z with hemispherical caps of `radius`.
    Capsule {
        /// Radius.
        radius: f64,
        /// Length of the cylindrical part.
        length: f64,
    },
    /// Ellipsoid with semi-axes along x, y, z (MJCF).
    Ellipsoid {
        /// Semi-axes.
        radii: Vector3<f64>,
    },
    /// A mesh file, path resolved by the parser (`package://`, relative paths and the
    /// search path of [`crate::ImportOptions`]); `None` if it could not be found
    /// (the parser adds an [`ImportNote`] then).
    Mesh {
        /// The file as written in the source.
        uri: String,
        /// The resolved file, if found.
        path: Option<PathBuf>,
        /// Scale factors along x, y, z.
        scale: Vector3<f64>,
    },
}

/// A joint between a parent link (or the world) and a child link.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphJoint {
    /// Unique name (URDF joint name; MJCF joint name or a generated one such as
    /// `body7_fixed` for a body without joints).
    pub name: String,
    /// The parent link.
    pub parent: LinkRef,
    /// Index of the child link.
    pub child: usize,
    /// Joint frame relative to the frame before the joint (see the module doc).
    pub origin: Isometry3<f64>,
    /// What the joint lets move.
    pub motion: JointMotion,
    /// Frame after the motion relative to the moved joint frame (identity for URDF).
    pub offset: Isometry3<f64>,
    /// Damping, friction and spring of the joint.
    pub dynamics: JointDynamics,
    /// Position limits and effort/velocity limits, if the source gives them.
    pub limit: Option<JointLimit>,
    /// URDF `<mimic>`: this joint's position is `multiplier · q(joint) + offset`.
    pub mimic: Option<Mimic>,
}

/// The motion M(q) of a joint, axes in the joint frame.
#[derive(Clone, Debug, PartialEq)]
pub enum JointMotion {
    /// No relative motion (URDF `fixed`, an MJCF body without joints).
    Fixed,
    /// Rotation by q about `axis` (URDF `revolute`/`continuous`, MJCF `hinge`).
    Revolute {
        /// Unit axis.
        axis: Unit<Vector3<f64>>,
    },
    /// Translation q·`axis` (URDF `prismatic`, MJCF `slide`).
    Prismatic {
        /// Unit axis.
        axis: Unit<Vector3<f64>>,
    },
    /// Translation in the plane normal to `normal` and rotation about it (URDF
    /// `planar`).
    Planar {
        /// Unit plane normal.
        normal: Unit<Vector3<f64>>,
    },
    /// Any rotation about the joint frame's origin (MJCF `ball`).
    Ball,
    /// Six degrees of freedom (URDF `floating`, MJCF `free`).
    Floating,
}

/// Passive joint dynamics; all zero when the source gives none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JointDynamics {
    /// Viscous damping c (N·m·s/rad or N·s/m): τ = −c q̇.
    pub damping: f64,
    /// Coulomb friction (kept as data; not a smooth force, never honoured).
    pub friction: f64,
    /// Spring stiffness k (MJCF `stiffness`): τ = −k (q − `spring_ref`).
    pub stiffness: f64,
    /// Spring reference position (MJCF `springref`).
    pub spring_ref: f64,
    /// Rotor inertia added to the joint (MJCF `armature`; kept as data).
    pub armature: f64,
}

/// Limits of a joint as the source gives them.
#[derive(Clone, Debug, PartialEq)]
pub struct JointLimit {
    /// Lower position limit (rad or m), if limited below.
    pub lower: Option<f64>,
    /// Upper position limit, if limited above.
    pub upper: Option<f64>,
    /// Effort limit (N·m or N), if given.
    pub effort: Option<f64>,
    /// Velocity limit, if given.
    pub velocity: Option<f64>,
}

/// URDF `<mimic joint multiplier offset>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Mimic {
    /// The joint followed.
    pub joint: String,
    /// Multiplier (default 1).
    pub multiplier: f64,
    /// Offset (default 0).
    pub offset: f64,
}

/// A loop-closing constraint between two links (or a link and the world).
#[derive(Clone, Debug, PartialEq)]
pub struct LoopClosure {
    /// Name (MJCF equality name, or a generated one such as `connect0`).
    pub name: String,
    /// What it holds together.
    pub kind: ClosureKind,
    /// First link and the constraint frame in it.
    pub link_a: LinkRef,
    /// Constraint frame in `link_a`'s frame.
    pub frame_a: Isometry3<f64>,
    /// Second link.
    pub link_b: LinkRef,
    /// Constraint frame in `link_b`'s frame. MJCF's `connect` gives only the anchor in
    /// body 1; the parser sets `frame_b` from the initial configuration.
    pub frame_b: Isometry3<f64>,
}

/// The kind of a loop closure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClosureKind {
    /// The two frame origins coincide (MJCF `connect`: a spherical joint).
    Point,
    /// The two frames coincide (MJCF `weld`: a rigid joint).
    Weld,
}

/// Something of the source that the import keeps only as data or leaves out, named so
/// that `mbs check` can list it (never silently dropped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportNote {
    /// The element, e.g. "joint `elbow`", "actuator `motor1`", "contact".
    pub element: String,
    /// What happened to it, e.g. "position limits [-2.6, 2.6] rad ignored: no unilateral
    /// joint-limit force".
    pub note: String,
}
