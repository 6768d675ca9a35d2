//! `<link><inertial>` (wiki.ros.org/urdf/XML/link): `<origin>` is the pose of the
//! inertial frame in the link frame, its origin the centre of mass; `<mass value>`;
//! `<inertia ixx ixy ixz iyy iyz izz>` is the inertia tensor about the centre of mass
//! in the *inertial frame's* axes. [`Inertial::inertia`] is in link axes:
//! I_link = R I R^T with R the inertial frame's rotation.

use nalgebra::Matrix3;

use super::values::{finite, invalid, non_negative, pose};
use crate::{ImportError, Inertial};

/// The mass properties of link `link` in its frame.
pub(super) fn inertial(link: &str, source: &urdf_rs::Inertial) -> Result<Inertial, ImportError> {
    let element = format!("link `{link}`");
    let origin = pose(&source.origin, &format!("link `{link}` inertial"))?;
    let mass = non_negative(source.mass.value, &element, "inertial mass")?;
    let i = &source.inertia;
    let attr = |name: &str| format!("inertial inertia {name}");
    let ixx = finite(i.ixx, &element, &attr("ixx"))?;
    let ixy = finite(i.ixy, &element, &attr("ixy"))?;
    let ixz = finite(i.ixz, &element, &attr("ixz"))?;
    let iyy = finite(i.iyy, &element, &attr("iyy"))?;
    let iyz = finite(i.iyz, &element, &attr("iyz"))?;
    let izz = finite(i.izz, &element, &attr("izz"))?;
    let tensor = Matrix3::new(ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz);
    check_psd(&tensor, &element)?;
    let r = origin.rotation.to_rotation_matrix().into_inner();
    Ok(Inertial {
        mass,
        com: origin.translation.vector,
        inertia: r * tensor * r.transpose(),
    })
}

/// The URDF spec asks for a positive semi-definite inertia; eigenvalues down to
/// −1e-12·‖I‖ (round-off of the tools that write URDFs) pass.
fn check_psd(tensor: &Matrix3<f64>, element: &str) -> Result<(), ImportError> {
    let eigenvalues = tensor.symmetric_eigenvalues();
    let scale = tensor.abs().max();
    let min = eigenvalues.min();
    if min < -1e-12 * scale {
        return Err(invalid(
            element,
            "inertial inertia",
            format!(
                "[ixx {} ixy {} ixz {} iyy {} iyz {} izz {}] (smallest eigenvalue {min:e})",
                tensor[(0, 0)],
                tensor[(0, 1)],
                tensor[(0, 2)],
                tensor[(1, 1)],
                tensor[(1, 2)],
                tensor[(2, 2)]
            ),
            "must be positive semi-definite",
        ));
    }
    Ok(())
}
