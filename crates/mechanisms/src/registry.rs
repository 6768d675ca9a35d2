//! The registry of built-in mechanisms (what `mbs list` prints).

use mbs_model::{Model, ModelError};

use crate::alf_dca::{
    AlfDcaParams, double_loop, double_loop_singular, five_bar, five_bar_singular,
};
use crate::andrews::{AndrewsParams, andrews_squeezer};
use crate::bayo_ledesma::{
    CartesianPendulumParams, ChainParams, TwoFourBarsParams, cartesian_pendulum, double_pendulum,
    five_link_chain, two_four_bars,
};
use crate::chiou::{
    BowlingBallParams, CrankSliderParams, SpaceCraneParams, SpatialFourBarParams, ThreeLinkParams,
    bowling_ball, crank_slider, space_crane, spatial_four_bar, three_link_manipulator,
};
use crate::hdca::{HdcaParams, hdca_case1, hdca_case2, hdca_case3};
use crate::mcpherson::{McPhersonParams, mcpherson_overconstrained, mcpherson_simplified};
use crate::rolling_disc::{RollingDiscParams, rolling_disc};
use crate::vehicle::{VehicleParams, vehicle, vehicle_named};

/// Mobility figures of a mechanism at its initial state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mobility {
    /// Grübler's count 6 n_bodies − Σ holonomic rows (joints and drivers).
    pub grubler: i64,
    /// True (rank-based) configuration mobility: 6 n_bodies − rank Φ_q.
    pub mobility: usize,
    /// Redundant holonomic constraints: rows − rank Φ_q.
    pub redundant: usize,
}

impl Mobility {
    const fn new(grubler: i64, mobility: usize, redundant: usize) -> Self {
        Self {
            grubler,
            mobility,
            redundant,
        }
    }
}

/// Every built-in mechanism.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mechanism {
    /// ALF-DCA sec 4.2.
    FiveBar,
    /// ALF-DCA sec 4.3.
    DoubleLoop,
    /// ALF-DCA sec 4.2 with lengths that admit the flat (singular) configuration.
    FiveBarSingular,
    /// ALF-DCA sec 4.3 with a rhombus as lower loop, which passes its singular (flat) configuration.
    DoubleLoopSingular,
    /// HDCA sec 3.1, case 1.
    HdcaCase1,
    /// HDCA sec 3.1, case 2.
    HdcaCase2,
    /// HDCA sec 3.1, case 3.
    HdcaCase3,
    /// Bayo–Ledesma, first example.
    DoublePendulum,
    /// Bayo–Ledesma, second example.
    CartesianPendulum,
    /// Bayo–Ledesma, third example.
    TwoFourBars,
    /// Bayo–Ledesma, fourth example.
    FiveLinkChain,
    /// Bayo–Ledesma, fifth example.
    AndrewsSqueezer,
    /// Bayo–Ledesma, fifth example with a stiff spring.
    AndrewsSqueezerStiffSpring,
    /// Chiou sec 7.2.
    CrankSlider,
    /// Chiou sec 7.3.
    ThreeLinkManipulator,
    /// Chiou sec 7.4, no offset.
    BowlingBall,
    /// Chiou sec 7.4, offset 0.15 cm.
    BowlingBallOffset,
    /// Chiou sec 7.5.
    SpatialFourBar,
    /// Chiou sec 7.6.
    SpaceCrane,
    /// Chiou sec 7.7.
    Vehicle,
    /// Chiou sec 7.7 with stiff tyres (issue #31's stiff suite).
    VehicleStiffTyres,
    /// Pękal–Frączek, Fig 1a.
    McPhersonSimplified,
    /// Pękal–Frączek, Fig 1b.
    McPhersonOverconstrained,
    /// Thin disc rolling without slip in steady circular motion (Routh art. 244).
    RollingDisc,
}

/// One entry of the registry.
#[derive(Clone, Copy, Debug)]
pub struct BuiltIn {
    /// Which mechanism.
    pub mechanism: Mechanism,
    /// Kebab-case name (CLI and model names).
    pub name: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// Paper and section.
    pub reference: &'static str,
    /// Expected mobility figures at the initial state.
    pub mobility: Mobility,
    /// Builds the model with its default parameters.
    pub build: fn() -> Result<Model, ModelError>,
}

macro_rules! reference {
    (ALF, $s:literal) => {
        concat!("Malczyk & Frączek 2012 (ALF-DCA), ", $s)
    };
    (HDCA, $s:literal) => {
        concat!("Chadaj, Malczyk & Frączek 2017 (HDCA), ", $s)
    };
    (BL, $s:literal) => {
        concat!("Bayo & Ledesma 1996, ", $s)
    };
    (CHIOU, $s:literal) => {
        concat!("Chiou 1990 (PhD thesis), ", $s)
    };
    (PF, $s:literal) => {
        concat!("Pękal & Frączek (natural complements), ", $s)
    };
}

static BUILTIN: [BuiltIn; 24] = [
    BuiltIn {
        mechanism: Mechanism::FiveBar,
        name: "five-bar",
        description: "planar five-bar loop, 4 bodies, revolute joints on a regular pentagon, a = 0.2 m",
        reference: reference!(ALF, "sec 4.2, Fig 4"),
        mobility: Mobility::new(-1, 2, 3),
        build: || five_bar(&AlfDcaParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::DoubleLoop,
        name: "double-loop",
        description: "two coupled pentagon loops sharing body 3, 8 bodies, 10 revolute joints",
        reference: reference!(ALF, "sec 4.3, Fig 8"),
        mobility: Mobility::new(-2, 4, 6),
        build: || double_loop(&AlfDcaParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::FiveBarSingular,
        name: "five-bar-singular",
        description: "planar five-bar, ground joints 1 and 5 coaxial, 4 links of length a = 0.2 m forming a hanging rhombus that folds flat (singular) twice per oscillation",
        reference: reference!(ALF, "sec 4.2, Fig 4 (geometry a choice)"),
        mobility: Mobility::new(-1, 2, 3),
        build: || five_bar_singular(&AlfDcaParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::DoubleLoopSingular,
        name: "double-loop-singular",
        description: "double loop: regular pentagon with a rhombus of 4 links hung from body 3, which folds flat (singular)",
        reference: reference!(ALF, "sec 4.3, Fig 8 (geometry a choice)"),
        mobility: Mobility::new(-2, 4, 6),
        build: || double_loop_singular(&AlfDcaParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::HdcaCase1,
        name: "hdca-case1",
        description: "closed loop of 4 bodies and ground, l = 1 m, J = I, symmetric",
        reference: reference!(HDCA, "sec 3.1, case 1"),
        mobility: Mobility::new(-1, 2, 3),
        build: || hdca_case1(&HdcaParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::HdcaCase2,
        name: "hdca-case2",
        description: "closed loop of 8 bodies and ground, l = 1 m, J = I, symmetric",
        reference: reference!(HDCA, "sec 3.1, case 2"),
        mobility: Mobility::new(3, 6, 3),
        build: || hdca_case2(&HdcaParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::HdcaCase3,
        name: "hdca-case3",
        description: "double loop of 8 bodies (hexagon from ground carrying a square), symmetric",
        reference: reference!(HDCA, "sec 3.1, case 3"),
        mobility: Mobility::new(-2, 4, 6),
        build: || hdca_case3(&HdcaParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::DoublePendulum,
        name: "double-pendulum",
        description: "two uniform unit links released horizontal from rest",
        reference: reference!(BL, "sec 5, example 1, Table 1"),
        mobility: Mobility::new(2, 2, 0),
        build: || double_pendulum(&ChainParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::CartesianPendulum,
        name: "cartesian-pendulum",
        description: "point-mass pendulum in Cartesian coordinates, g = 1, x = 1, y' = -1",
        reference: reference!(BL, "sec 5, example 2, Table 2"),
        mobility: Mobility::new(5, 5, 0),
        build: || cartesian_pendulum(&CartesianPendulumParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::TwoFourBars,
        name: "two-four-bars",
        description: "two parallelogram four-bars sharing a crank, singular when horizontal",
        reference: reference!(BL, "sec 5, example 3, Figs 3-4"),
        mobility: Mobility::new(-5, 1, 6),
        build: || two_four_bars(&TwoFourBarsParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::FiveLinkChain,
        name: "five-link-chain",
        description: "open chain of five uniform links released horizontal from rest",
        reference: reference!(BL, "sec 5, example 4, Figs 5-6"),
        mobility: Mobility::new(5, 5, 0),
        build: || five_link_chain(&ChainParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::AndrewsSqueezer,
        name: "andrews-squeezer",
        description: "Andrew's squeezing mechanism, 7 bodies, Hairer & Wanner data",
        reference: reference!(BL, "sec 5, example 5, Fig 7; Hairer & Wanner VII.7"),
        mobility: Mobility::new(-8, 1, 9),
        build: || andrews_squeezer(&AndrewsParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::AndrewsSqueezerStiffSpring,
        name: "andrews-squeezer-stiff-spring",
        description: "Andrew's mechanism with rod GE replaced by a 1e8 N/m spring",
        reference: reference!(BL, "sec 5, example 5 (stiff-spring variant)"),
        mobility: Mobility::new(-4, 2, 6),
        build: || andrews_squeezer(&AndrewsParams::stiff_spring()),
    },
    BuiltIn {
        mechanism: Mechanism::CrankSlider,
        name: "crank-slider",
        description: "planar crank-slider, torque on the crank, rod starting horizontal",
        reference: reference!(CHIOU, "sec 7.2"),
        mobility: Mobility::new(1, 1, 0),
        build: || crank_slider(&CrankSliderParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::ThreeLinkManipulator,
        name: "three-link-manipulator",
        description: "folded three-link manipulator deploying against coil springs",
        reference: reference!(CHIOU, "sec 7.3"),
        mobility: Mobility::new(3, 3, 0),
        build: || three_link_manipulator(&ThreeLinkParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::BowlingBall,
        name: "bowling-ball",
        description: "ball rolling without slip along y = sin x, no offset",
        reference: reference!(CHIOU, "sec 7.4"),
        mobility: Mobility::new(4, 4, 0),
        build: || bowling_ball(&BowlingBallParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::BowlingBallOffset,
        name: "bowling-ball-offset",
        description: "ball rolling without slip along y = sin x, centre of mass offset 0.15 cm",
        reference: reference!(CHIOU, "sec 7.4"),
        mobility: Mobility::new(4, 4, 0),
        build: || bowling_ball(&BowlingBallParams::with_offset()),
    },
    BuiltIn {
        mechanism: Mechanism::SpatialFourBar,
        name: "spatial-four-bar",
        description: "four bars closed by five spherical joints, lifted by two forces",
        reference: reference!(CHIOU, "sec 7.5"),
        mobility: Mobility::new(9, 9, 0),
        build: || spatial_four_bar(&SpatialFourBarParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::SpaceCrane,
        name: "space-crane",
        description: "three-link space crane, spherical joints, tip driven in time",
        reference: reference!(CHIOU, "sec 7.6"),
        mobility: Mobility::new(6, 6, 0),
        build: || space_crane(&SpaceCraneParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::Vehicle,
        name: "vehicle",
        description: "nine-body vehicle, four spring-dampers, unilateral tires, dropped 1 m",
        reference: reference!(CHIOU, "sec 7.7"),
        mobility: Mobility::new(12, 12, 0),
        build: || vehicle(&VehicleParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::VehicleStiffTyres,
        name: "vehicle-stiff-tyres",
        description: "the nine-body vehicle with stiff tyres (1e8 N/m), dropped 1 m: a stiff wheel hop",
        reference: reference!(CHIOU, "sec 7.7 (stiff-tyre variant, a choice)"),
        mobility: Mobility::new(12, 12, 0),
        build: || vehicle_named("vehicle-stiff-tyres", &VehicleParams::stiff_tyres()),
    },
    BuiltIn {
        mechanism: Mechanism::McPhersonSimplified,
        name: "mcpherson-simplified",
        description: "McPherson strut without redundant constraints, 5 bodies, 4 DOF",
        reference: reference!(PF, "sec 4.1, Fig 1a, Table 1"),
        mobility: Mobility::new(4, 4, 0),
        build: || mcpherson_simplified(&McPhersonParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::McPhersonOverconstrained,
        name: "mcpherson-overconstrained",
        description: "McPherson strut with the control arm in two coaxial revolute joints",
        reference: reference!(PF, "sec 4.1, Fig 1b, Table 1"),
        mobility: Mobility::new(-1, 4, 5),
        build: || mcpherson_overconstrained(&McPhersonParams::default()),
    },
    BuiltIn {
        mechanism: Mechanism::RollingDisc,
        name: "rolling-disc",
        description: "thin disc rolling without slip, steady circle R₀ = 1 m, tilt 0.3 rad",
        reference: "Routh, Advanced Rigid Dynamics, art. 244; McDonald & McDonald 2000 (arXiv:physics/0008227), sec 2.2",
        mobility: Mobility::new(5, 5, 0),
        build: || rolling_disc(&RollingDiscParams::default()),
    },
];

/// Every built-in mechanism with its name, description, reference and builder, in the
/// order of BENCHMARKS.md.
pub fn builtin() -> &'static [BuiltIn] {
    &BUILTIN
}

/// The built-in mechanism called `name` (kebab-case, e.g. "five-bar").
pub fn find(name: &str) -> Option<&'static BuiltIn> {
    BUILTIN.iter().find(|b| b.name == name)
}

impl Mechanism {
    /// Every mechanism, in registry order.
    pub fn all() -> impl Iterator<Item = Mechanism> {
        BUILTIN.iter().map(|b| b.mechanism)
    }

    /// Its registry entry.
    pub fn info(self) -> &'static BuiltIn {
        BUILTIN
            .iter()
            .find(|b| b.mechanism == self)
            .expect("every mechanism is registered")
    }

    /// Kebab-case name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// One-line description.
    pub fn description(self) -> &'static str {
        self.info().description
    }

    /// Paper and section.
    pub fn reference(self) -> &'static str {
        self.info().reference
    }

    /// Expected mobility figures at the initial state.
    pub fn mobility(self) -> Mobility {
        self.info().mobility
    }

    /// Builds the model with default parameters.
    pub fn build(self) -> Result<Model, ModelError> {
        (self.info().build)()
    }

    /// The mechanism called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        find(name).map(|b| b.mechanism)
    }
}

impl std::fmt::Display for Mechanism {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Mechanism {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Mechanism::from_name(s).ok_or_else(|| {
            let names: Vec<_> = BUILTIN.iter().map(|b| b.name).collect();
            format!("unknown mechanism `{s}`; known: {}", names.join(", "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_kebab_case_and_match_the_models() {
        let mut seen = std::collections::HashSet::new();
        for b in builtin() {
            assert!(seen.insert(b.name), "duplicate {}", b.name);
            assert!(
                b.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            );
            let m = (b.build)().unwrap_or_else(|e| panic!("{}: {e}", b.name));
            assert_eq!(m.name(), b.name);
            assert_eq!(Mechanism::from_name(b.name), Some(b.mechanism));
            assert_eq!(b.mechanism.info().name, b.name);
        }
        assert_eq!(Mechanism::all().count(), 24);
    }
}
