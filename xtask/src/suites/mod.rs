//! The suites of BENCHMARKS.md, one module per paper (plus scaling and consistency),
//! and the optional comparison with other engines (`peers`).

pub mod alf;
pub mod chiou;
mod chiou_staggered;
pub mod complement;
pub mod conformance;
pub mod dca;
pub mod guide;
mod guide_defaults;
pub mod hdca;
pub mod peers;
mod sampling_cost;
pub mod scaling;
pub mod stiff;
pub mod sweep;

use crate::report::Suite;
use crate::runner::Ctx;

/// Every suite: name and runner, in report order.
pub const ALL: [(&str, fn(&mut Ctx) -> Suite); 11] = [
    ("alf", alf::run),
    ("dca", dca::run),
    ("hdca", hdca::run),
    ("chiou", chiou::run),
    ("complement", complement::run),
    ("scaling", scaling::scaling),
    ("consistency", scaling::consistency),
    ("guide", guide::run),
    ("conformance", conformance::run),
    ("sweep", sweep::run),
    ("stiff", stiff::run),
];

/// Suites run only when named with `--suite` (never by default nor in quick mode):
/// `peers` and `stiff-peers` install third-party engines into `target/peers-venv`.
pub const OPTIONAL: [(&str, fn(&mut Ctx) -> Suite); 2] =
    [("peers", peers::run), ("stiff-peers", stiff::peers::run)];
