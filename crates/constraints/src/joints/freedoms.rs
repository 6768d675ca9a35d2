//! The relative motions a joint leaves free between the frames of its markers: the
//! complement of its rows in the table of [`super`]. Joint-coordinate formulations
//! (the motion subspace H and constrained subspace D of each joint, Chadaj, Malczyk
//! & Frączek 2017, eqs 9–16) are built from this description, so that the joint
//! catalog is this crate's.
//!
//! A joint of a fixed-axis kind is a translational part times a rotational part,
//! each given by the rows that constrain it (xᵢ, yᵢ, zᵢ the axes of marker i, zⱼ,
//! yⱼ those of marker j, d = Pⱼ − Pᵢ):
//!
//! | kind | [`Translation`] (rows) | [`Rotation`] (rows) | free |
//! |---|---|---|---|
//! | spherical | `Locked` (d = 0) | `Free` (—) | 3 |
//! | universal | `Locked` (d = 0) | `Pins` (zᵢ·zⱼ = 0) | 2 |
//! | revolute | `Locked` (d = 0) | `AboutZ` (zⱼ·xᵢ = zⱼ·yᵢ = 0) | 1 |
//! | cylindrical | `AlongZ` (xᵢ·d = yᵢ·d = 0) | `AboutZ` (zⱼ·xᵢ = zⱼ·yᵢ = 0) | 2 |
//! | prismatic | `AlongZ` (xᵢ·d = yᵢ·d = 0) | `Locked` (zⱼ·xᵢ = zⱼ·yᵢ = yⱼ·xᵢ = 0) | 1 |
//! | planar | `InPlane` (zᵢ·d = 0) | `AboutZ` (zⱼ·xᵢ = zⱼ·yᵢ = 0) | 3 |
//! | rigid | `Locked` (d = 0) | `Locked` (zⱼ·xᵢ = zⱼ·yᵢ = yⱼ·xᵢ = 0) | 0 |
//! | distance | `Sphere` (dᵀd − L² = 0) | `Free` (—) | 5 |
//!
//! Rolling joints (nonholonomic no-slip rows) and the sine path (a curved path whose
//! tangent turns with the position) have no such description ([`NoFreedoms`]).

use mbs_model::JointKind;

/// The translation of marker j's origin relative to marker i's frame that a joint
/// leaves free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Translation {
    /// None: the origins coincide (rows d = 0).
    Locked,
    /// Along the common z axis zᵢ (rows xᵢ·d = yᵢ·d = 0).
    AlongZ,
    /// Along xᵢ and yᵢ, in the plane normal to zᵢ (row zᵢ·d = 0).
    InPlane,
    /// On the sphere of radius L about marker i's origin, the two directions
    /// perpendicular to d (row dᵀd − L² = 0).
    Sphere,
    /// Any (no translational row): the virtual joint of a free-floating body.
    Free,
}

/// The rotation of marker j's frame relative to marker i's frame that a joint
/// leaves free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// None (rows zⱼ·xᵢ = zⱼ·yᵢ = yⱼ·xᵢ = 0).
    Locked,
    /// About the common z axis zᵢ = zⱼ (rows zⱼ·xᵢ = zⱼ·yᵢ = 0).
    AboutZ,
    /// About zᵢ and about zⱼ, the two pins kept perpendicular (row zᵢ·zⱼ = 0).
    Pins,
    /// Any (no rotational row).
    Free,
}

impl Translation {
    /// Number of free translations.
    pub fn n_free(self) -> usize {
        match self {
            Translation::Locked => 0,
            Translation::AlongZ => 1,
            Translation::InPlane | Translation::Sphere => 2,
            Translation::Free => 3,
        }
    }
}

impl Rotation {
    /// Number of free rotations.
    pub fn n_free(self) -> usize {
        match self {
            Rotation::Locked => 0,
            Rotation::AboutZ => 1,
            Rotation::Pins => 2,
            Rotation::Free => 3,
        }
    }
}

/// The free relative motions of a joint: a translational and a rotational part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Freedoms {
    /// Free translations.
    pub translation: Translation,
    /// Free rotations.
    pub rotation: Rotation,
}

/// Why a joint kind has no description by free relative motions about fixed axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoFreedoms {
    /// Rolling without slip: the no-slip rows are nonholonomic (no joint coordinate
    /// has their rates) and the contact point moves over both bodies.
    Nonholonomic,
    /// A point on a curved path: the free direction turns with the position along
    /// the path.
    CurvedPath,
}

impl Freedoms {
    /// Six free relative motions: the virtual joint between ground and a
    /// free-floating body (no model joint has it).
    pub const FREE: Freedoms = Freedoms {
        translation: Translation::Free,
        rotation: Rotation::Free,
    };

    /// The free relative motions of `kind` (module table), or why it has none.
    pub fn of(kind: &JointKind) -> Result<Self, NoFreedoms> {
        let (translation, rotation) = match kind {
            JointKind::Spherical => (Translation::Locked, Rotation::Free),
            JointKind::Universal => (Translation::Locked, Rotation::Pins),
            JointKind::Revolute => (Translation::Locked, Rotation::AboutZ),
            JointKind::Cylindrical => (Translation::AlongZ, Rotation::AboutZ),
            JointKind::Prismatic => (Translation::AlongZ, Rotation::Locked),
            JointKind::Planar => (Translation::InPlane, Rotation::AboutZ),
            JointKind::Rigid => (Translation::Locked, Rotation::Locked),
            JointKind::Distance { .. } => (Translation::Sphere, Rotation::Free),
            JointKind::RollingSphere { .. } | JointKind::RollingDisc { .. } => {
                return Err(NoFreedoms::Nonholonomic);
            }
            JointKind::SinePath { .. } => return Err(NoFreedoms::CurvedPath),
        };
        Ok(Self {
            translation,
            rotation,
        })
    }

    /// Number of free relative motions (columns of H).
    pub fn n_free(self) -> usize {
        self.translation.n_free() + self.rotation.n_free()
    }

    /// Number of constrained relative motions, 6 − [`Self::n_free`] (columns of D;
    /// the joint's rows).
    pub fn n_constrained(self) -> usize {
        6 - self.n_free()
    }
}
