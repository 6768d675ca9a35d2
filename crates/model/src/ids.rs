//! Typed indices of the elements of a [`crate::Model`]. Names exist only for files and
//! messages; algorithms address elements by these ids.

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub struct $name(pub usize);

        impl $name {
            /// The position of the element in its list of the model.
            #[inline]
            pub fn index(self) -> usize {
                self.0
            }
        }
    };
}

id_type!(
    /// Index of a moving body in `Model::bodies`.
    BodyId
);
id_type!(
    /// Index of a marker in `Model::markers`.
    MarkerId
);
id_type!(
    /// Index of a joint (a two-marker constraint) in `Model::joints`.
    JointId
);
id_type!(
    /// Index of a force element in `Model::forces`.
    ForceId
);
id_type!(
    /// Index of a driver (rheonomic constraint) in `Model::drivers`.
    DriverId
);

/// What a marker is attached to: the fixed ground frame or a moving body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BodyRef {
    /// The inertial frame.
    Ground,
    /// A moving body.
    Body(BodyId),
}

impl BodyRef {
    /// The moving body, or `None` for ground.
    #[inline]
    pub fn body(self) -> Option<BodyId> {
        match self {
            BodyRef::Ground => None,
            BodyRef::Body(b) => Some(b),
        }
    }
}
