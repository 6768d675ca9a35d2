//! What the user tells the import beyond the file: initial joint positions and
//! velocities, where meshes are looked up, and how the root is attached.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// Options of an import.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportOptions {
    /// Initial joint positions by joint name (the source's own names). Missing joints
    /// start at 0 (URDF) or at MJCF's `qpos0` (`ref`, the free joint's body pose).
    /// Values per joint: revolute and prismatic 1; planar 3 (x, y along the plane's
    /// first two axes, angle); ball 4 (quaternion w, x, y, z); floating 7 (x, y, z,
    /// then the quaternion w, x, y, z), as Pinocchio and MuJoCo order them.
    pub q0: BTreeMap<String, Vec<f64>>,
    /// Initial joint velocities by joint name: revolute and prismatic 1; planar 3;
    /// ball 3 (angular velocity in the child frame); floating 6 (linear velocity of the
    /// child frame's origin in world axes, then angular velocity in the child frame, as
    /// MuJoCo's `qvel`). Missing joints start at rest.
    pub v0: BTreeMap<String, Vec<f64>>,
    /// Directories searched for `package://name/...` (as `<dir>/name/...`) and for
    /// relative mesh paths after the model file's own directory (ROS_PACKAGE_PATH).
    pub package_path: Vec<PathBuf>,
    /// URDF only: attach the root link with a floating joint instead of fixing it to
    /// the world (a URDF without a `world` link has a free root in Gazebo, a fixed one
    /// in Pinocchio's `buildModel` without a root joint; the default is fixed).
    pub floating_base: bool,
}
