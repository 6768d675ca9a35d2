//! What each row of a joint or driver means and the unit of its multiplier (the table
//! of [`super`]; `mbs_model::DriverKind`). The multiplier's unit is the unit of the
//! generalized force conjugate to the row: N for rows in metres (point coincidence,
//! xᵢ·d), N·m for dimensionless orientation rows (zⱼ·xᵢ), N/m for dᵀd − L².

use mbs_model::{DriverKind, JointKind};

/// Meaning (short label) and multiplier unit of one constraint row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowMeaning {
    /// Short label, e.g. `point_x` (x component of Pⱼ − Pᵢ = 0) or `zj.xi`.
    pub label: &'static str,
    /// Unit of the row's multiplier.
    pub unit: &'static str,
}

const fn row(label: &'static str, unit: &'static str) -> RowMeaning {
    RowMeaning { label, unit }
}

const POINT: [RowMeaning; 3] = [
    row("point_x", "N"),
    row("point_y", "N"),
    row("point_z", "N"),
];

/// The meanings of the rows of a joint of `kind`, in row order.
pub fn joint_rows(kind: &JointKind) -> Vec<RowMeaning> {
    let dot = |l| row(l, "N·m");
    let mut v = Vec::with_capacity(kind.rows());
    match kind {
        JointKind::Spherical => v.extend(POINT),
        JointKind::Universal => {
            v.extend(POINT);
            v.push(dot("zi.zj"));
        }
        JointKind::Revolute => {
            v.extend(POINT);
            v.extend([dot("zj.xi"), dot("zj.yi")]);
        }
        JointKind::Cylindrical | JointKind::Prismatic => {
            v.extend([
                dot("zj.xi"),
                dot("zj.yi"),
                row("xi.d", "N"),
                row("yi.d", "N"),
            ]);
            if *kind == JointKind::Prismatic {
                v.push(dot("yj.xi"));
            }
        }
        JointKind::Planar => v.extend([dot("zj.xi"), dot("zj.yi"), row("zi.d", "N")]),
        JointKind::Rigid => {
            v.extend(POINT);
            v.extend([dot("zj.xi"), dot("zj.yi"), dot("yj.xi")]);
        }
        JointKind::Distance { .. } => v.push(row("distance", "N/m")),
        JointKind::RollingSphere { .. } | JointKind::RollingDisc { .. } => v.extend([
            row("contact", "N"),
            row("no_slip_1", "N"),
            row("no_slip_2", "N"),
        ]),
        JointKind::SinePath { .. } => v.push(row("path", "N")),
    }
    v
}

/// The meaning of a driver's one row.
pub fn driver_row(kind: &DriverKind) -> RowMeaning {
    match kind {
        DriverKind::JointAngle { .. } => row("angle", "N·m"),
        DriverKind::JointTranslation { .. } => row("translation", "N"),
        DriverKind::PointCoordinate { .. } => row("coordinate", "N"),
    }
}
