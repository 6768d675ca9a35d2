//! Reference mechanisms of the project's five reference papers and parametric
//! generators.
//!
//! Every builder returns a validated [`mbs_model::Model`] whose initial state is
//! consistent: position and velocity constraints hold to rounding (joints are placed at
//! the bodies' initial poses with `ModelBuilder::joint_at` / `marker_at_global`,
//! initial velocities are propagated through the joints). Planar mechanisms are
//! modelled in 3-D with revolute joints about the global z axis, so each of their
//! closed loops carries 3 redundant constraints.
//!
//! Where a paper omits a value or only draws a geometry, the builder's doc comment says
//! which value was chosen: each module lists the source's data next to ours and marks
//! every value that is our choice, and names the independent published values (a
//! reference solution, a period, a symmetry) that the facade's `published_values` tests
//! check, or says that the source gives none. [`builtin`] lists every mechanism with its kebab-case name,
//! description, reference and expected mobility figures (what `mbs list` prints).
//!
//! | family | module |
//! |---|---|
//! | ALF-DCA (Malczyk & Frączek 2012): five-bar, double loop | [`alf_dca`] |
//! | HDCA (Chadaj, Malczyk & Frączek 2017): cases 1–3 | [`hdca`] |
//! | Bayo & Ledesma 1996: double pendulum, Cartesian pendulum, two four-bars, five-link chain | [`bayo_ledesma`] |
//! | Bayo & Ledesma 1996: Andrew's squeezer (+ stiff-spring variant) | [`andrews`] |
//! | Chiou 1990: crank-slider, three-link manipulator, bowling ball, spatial four-bar, space crane | [`chiou`] |
//! | Chiou 1990: vehicle | [`vehicle`](mod@vehicle) |
//! | Pękal & Frączek: McPherson struts | [`mcpherson`] |
//! | rolling disc on a plane, steady circular or straight rolling (Routh art. 244) | [`rolling_disc`](mod@rolling_disc) |
//! | synthetic chain/loop linear systems (mass and joint blocks, no model) for the linear-algebra tests and benches | [`synthetic`] |
//! | IFToMM benchmark A02: N-four-bar with its exact motion | [`iftomm`] |
//! | stiff mechanisms for the implicit integrators: bushing chain (and the stiff-spring squeezer, stiff-tyre vehicle) | [`stiff`] |
//! | generators: chains, loops, ladders, random trees and loops | [`mod@generators`] |
//! | the generators by name with parameters (`chain:n=256`, `loop:n=64`, …) | [`named`] |
//!
//! ```
//! use mbs_mechanisms::{Mechanism, builtin, five_bar, AlfDcaParams};
//! let model = five_bar(&AlfDcaParams::default()).unwrap();
//! assert_eq!(model.n_bodies(), 4);
//! assert_eq!(model.topology().grubler_mobility(), -1);
//! for b in builtin() {
//!     println!("{:28} {}  [{}]", b.name, b.description, b.reference);
//! }
//! let m: Mechanism = "double-loop".parse().unwrap();
//! assert_eq!(m.build().unwrap().n_bodies(), 8);
//! ```

pub mod alf_dca;
pub mod andrews;
pub mod bayo_ledesma;
pub mod chiou;
pub mod generators;
pub mod hdca;
pub mod iftomm;
pub mod mcpherson;
pub mod named;
pub mod registry;
pub mod rolling_disc;
pub mod stiff;
#[cfg(feature = "proptest")]
pub mod strategy;
pub mod synthetic;
mod util;
pub mod vehicle;

pub use alf_dca::{AlfDcaParams, double_loop, double_loop_singular, five_bar, five_bar_singular};
pub use andrews::{AndrewsParams, andrews_squeezer};
pub use bayo_ledesma::{
    CartesianPendulumParams, ChainParams, TwoFourBarsParams, cartesian_pendulum, double_pendulum,
    five_link_chain, two_four_bars,
};
pub use chiou::{
    BowlingBallParams, CrankSliderParams, SpaceCraneParams, SpatialFourBarParams, ThreeLinkParams,
    bowling_ball, crank_slider, space_crane, spatial_four_bar, three_link_manipulator,
};
pub use generators::{
    ChainJoint, GeneratorParams, SplitMix64, closed_loop, closed_loop_with, loop_ladder,
    loop_ladder_with, open_chain, open_chain_with, random_loop_mechanism, random_tree,
};
pub use hdca::{HdcaParams, hdca_case1, hdca_case2, hdca_case3};
pub use mcpherson::{McPhersonParams, mcpherson_overconstrained, mcpherson_simplified};
pub use named::{GeneratorError, NamedGenerator, generators};
pub use registry::{BuiltIn, Mechanism, Mobility, builtin, find};
pub use stiff::{BushingChainParams, bushing_chain};
pub use vehicle::{VehicleParams, vehicle, vehicle_named};
