//! URDF and MJCF import: robots and mechanisms described for ROS, Pinocchio or MuJoCo,
//! as mbs models.
//!
//! Both formats are parsed into one [`LinkGraph`] (links, joints in their order, loop
//! closures, visuals, and notes on everything not honoured), which `build` turns into a
//! [`mbs_model::Model`]: links attached by fixed joints merge into one body (mass
//! properties combined), every moving joint becomes an mbs joint between markers at the
//! joint frame, several joints of one MJCF body become one compound joint (universal,
//! spherical, cylindrical, …), damping and springs become force elements, and the
//! bodies start at the pose the initial joint positions give.

mod deep;
mod error;
mod graph;
mod options;

pub use error::ImportError;
pub use graph::{
    ClosureKind, GraphJoint, ImportNote, Inertial, JointDynamics, JointLimit, JointMotion, Link,
    LinkGraph, LinkRef, LoopClosure, Mimic, Visual, VisualGeometry,
};
pub use options::ImportOptions;

mod build;
pub mod mesh;
pub mod mjcf;
pub mod urdf;

pub use build::{Imported, build};

use std::path::Path;

/// The formats this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceFormat {
    /// URDF (`<robot>` root element).
    Urdf,
    /// MJCF (`<mujoco>` root element).
    Mjcf,
}

impl SourceFormat {
    /// The format of `path`: `.urdf` is URDF; `.xml` and `.mjcf` are decided by the
    /// root element (`<robot>` or `<mujoco>`); `None` for anything else.
    pub fn of(path: &Path) -> Option<SourceFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "urdf" => Some(SourceFormat::Urdf),
            "xml" | "mjcf" => {
                let head = std::fs::read(path).ok()?;
                let text = String::from_utf8_lossy(&head[..head.len().min(1 << 16)]);
                root_element(&text).map(|root| match root {
                    "robot" => SourceFormat::Urdf,
                    _ => SourceFormat::Mjcf,
                })
            }
            _ => None,
        }
    }
}

/// The name of the first element of an XML text that is not a declaration or comment
/// (`robot`, `mujoco`, …); only those two are recognised.
fn root_element(text: &str) -> Option<&'static str> {
    let mut rest = text;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        if let Some(comment) = rest.strip_prefix("!--") {
            // a comment may hold `<` (e.g. a model's description): skip it whole
            rest = comment.split_once("-->").map_or("", |(_, after)| after);
            continue;
        }
        if rest.starts_with('?') || rest.starts_with('!') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        return match name.as_str() {
            "robot" => Some("robot"),
            "mujoco" => Some("mujoco"),
            _ => None,
        };
    }
    None
}

/// Reads and builds the URDF or MJCF file at `path`.
pub fn load(path: &Path, options: &ImportOptions) -> Result<Imported, ImportError> {
    let graph = match SourceFormat::of(path) {
        Some(SourceFormat::Urdf) => urdf::parse(path, options)?,
        Some(SourceFormat::Mjcf) => mjcf::parse(path, options)?,
        None => {
            return Err(ImportError::Syntax {
                path: path.to_path_buf(),
                message: "is neither URDF (`.urdf`, or `.xml` with a <robot> root) nor MJCF \
                          (`.xml`/`.mjcf` with a <mujoco> root)"
                    .into(),
            });
        }
    };
    deep::with_deep_stack(|| build(&graph, options))
}
