//! The suites of BENCHMARKS.md, one module per paper (plus scaling and consistency).

pub mod alf;
pub mod chiou;
mod chiou_staggered;
pub mod complement;
pub mod conformance;
pub mod dca;
pub mod hdca;
pub mod scaling;

use crate::report::Suite;
use crate::runner::Ctx;

/// Every suite: name and runner, in report order.
pub const ALL: [(&str, fn(&mut Ctx) -> Suite); 8] = [
    ("alf", alf::run),
    ("dca", dca::run),
    ("hdca", hdca::run),
    ("chiou", chiou::run),
    ("complement", complement::run),
    ("scaling", scaling::scaling),
    ("consistency", scaling::consistency),
    ("conformance", conformance::run),
];
