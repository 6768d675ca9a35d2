//! Helpers of the MJCF tests: parse a file of `tests/data/mjcf`, or a text written to
//! a fresh temporary file.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use mbs_import::mjcf::parse;
use mbs_import::{GraphJoint, ImportError, ImportOptions, Link, LinkGraph};

/// The test data file `name`.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/mjcf")
        .join(name)
}

/// Parses a data file.
pub fn parse_data(name: &str) -> LinkGraph {
    parse(&data(name), &ImportOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// Writes `text` to a new file in a per-process temporary folder (with `extra` files
/// beside it) and returns its path.
pub fn write(text: &str, extra: &[(&str, &str)]) -> PathBuf {
    let k = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("mbs-mjcf-test-{}-{k}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, content) in extra {
        std::fs::write(dir.join(name), content).unwrap();
    }
    let path = dir.join("model.xml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Parses an MJCF text.
pub fn parse_text(text: &str) -> Result<LinkGraph, ImportError> {
    parse(&write(text, &[]), &ImportOptions::default())
}

/// Parses an MJCF text that must be valid.
pub fn parse_ok(text: &str) -> LinkGraph {
    parse_text(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The error message of an MJCF text that must be refused.
pub fn error_of(text: &str) -> String {
    match parse_text(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// The link named `name`.
pub fn link<'a>(g: &'a LinkGraph, name: &str) -> &'a Link {
    g.links
        .iter()
        .find(|l| l.name == name)
        .unwrap_or_else(|| panic!("no link {name}"))
}

/// The joint named `name`.
pub fn joint<'a>(g: &'a LinkGraph, name: &str) -> &'a GraphJoint {
    g.joints
        .iter()
        .find(|j| j.name == name)
        .unwrap_or_else(|| panic!("no joint {name}"))
}

/// World pose of every link for the joint positions `q` (by joint name, MuJoCo's
/// qpos; missing joints at qpos0), composing the graph joints as the `graph` module
/// doc defines them.
pub fn world_poses(m: &LinkGraph, q: &[(&str, Vec<f64>)]) -> Vec<nalgebra::Isometry3<f64>> {
    use mbs_import::{JointMotion, LinkRef};
    use nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion, Vector3};
    let mut opts = ImportOptions::default();
    for (n, v) in q {
        opts.q0.insert(n.to_string(), v.clone());
    }
    let mut o = opts;
    for (n, v) in &m.q0 {
        o.q0.entry(n.clone()).or_insert_with(|| v.clone());
    }
    let mut x: Vec<Option<Isometry3<f64>>> = vec![None; m.links.len()];
    for j in &m.joints {
        // the first joint of a link starts at the parent, each next one at the
        // previous one's frame after
        let before = match (x[j.child], j.parent) {
            (Some(previous), _) => previous,
            (None, LinkRef::World) => Isometry3::identity(),
            (None, LinkRef::Link(i)) => x[i].expect("parent before child"),
        };
        let q = o.q0.get(&j.name).cloned().unwrap_or_default();
        let motion = match &j.motion {
            JointMotion::Fixed => Isometry3::identity(),
            JointMotion::Revolute { axis } => Isometry3::from_parts(
                Translation3::identity(),
                UnitQuaternion::from_axis_angle(axis, q[0]),
            ),
            JointMotion::Prismatic { axis } => Isometry3::from_parts(
                Translation3::from(axis.into_inner() * q[0]),
                UnitQuaternion::identity(),
            ),
            JointMotion::Ball => Isometry3::from_parts(
                Translation3::identity(),
                UnitQuaternion::from_quaternion(Quaternion::new(q[0], q[1], q[2], q[3])),
            ),
            JointMotion::Floating => Isometry3::from_parts(
                Translation3::from(Vector3::new(q[0], q[1], q[2])),
                UnitQuaternion::from_quaternion(Quaternion::new(q[3], q[4], q[5], q[6])),
            ),
            JointMotion::Planar { .. } => panic!("MJCF has no planar joint"),
        };
        x[j.child] = Some(before * j.origin * motion * j.offset);
    }
    x.into_iter()
        .map(|p| p.expect("every link has a joint"))
        .collect()
}
