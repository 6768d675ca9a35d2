//! The mechanisms of the `stiff` suite (issue #31, acceptance 3 and 4), as data.

/// One mechanism of the suite: every run of a case integrates the same formulation
/// (`method`), so the runs differ only by their integrator.
#[derive(Clone, Copy, Debug)]
pub struct StiffCase {
    /// Row label.
    pub id: &'static str,
    /// Built-in name or generator spec (`mbs run <model>`).
    pub model: &'static str,
    /// The formulation every run uses (a method name with parameters).
    pub method: &'static str,
    /// End time, full and quick mode \[s\].
    pub t_end: (f64, f64),
    /// `false`: a non-stiff control (acceptance 4: implicit at most 3× the explicit
    /// default at the same accuracy).
    pub stiff: bool,
    /// Measured in quick mode too (a cheap subset keeps `--quick` fast).
    pub quick: bool,
    /// What makes it stiff (or not), for the report.
    pub why: &'static str,
}

/// Issue #31's targets on the stiff squeezer at rtol 1e-6, against DOP853.
pub const TARGET_CASE: &str = "stiff squeezer";
/// The target case's mechanism without its stiff element (the bound row).
pub const TARGET_BOUND_MODEL: &str = "andrews-squeezer";
/// DOP853 RHS evaluations over the implicit method's, at least.
pub const TARGET_RHS_RATIO: f64 = 50.0;
/// DOP853 wall time over the implicit method's, at least.
pub const TARGET_TIME_RATIO: f64 = 20.0;
/// On a non-stiff model: implicit wall time over the explicit default's at the same
/// accuracy, at most.
pub const TARGET_NONSTIFF_RATIO: f64 = 3.0;

/// The cases, stiff ones first, then the non-stiff controls.
pub const CASES: [StiffCase; 7] = [
    StiffCase {
        id: TARGET_CASE,
        model: "andrews-squeezer-stiff-spring",
        method: "alf-dca-proj",
        t_end: (1.0, 0.01),
        stiff: true,
        quick: true,
        why: "Andrew's squeezer with rod GE replaced by a 1e8 N/m spring between bodies of 4–70 g (Bayo & Ledesma 1996 sec 5): spring frequency ≈ 1e5 rad/s against the crank's ≈ 1e2; method alf-dca-proj, the default of the issue's measurement (DOP853 at 1e-6 over 1 s: 63 028 steps, 896 834 RHS). Over 1 s the crank turns ≈ 160 times and the final positions of explicit runs at rtol 1e-3 … 1e-8 differ from the 1e-10 reference by 3e-3 … 1e-2 m, not decreasing with the tolerance (measured): the end state at 1 s is not determined to better than ≈ 1 cm, so the same-motion check is the next case, over Hairer & Wanner's 0.03 s",
    },
    StiffCase {
        id: "stiff squeezer, 0.03 s",
        model: "andrews-squeezer-stiff-spring",
        method: "alf-dca-proj",
        t_end: (0.03, 0.005),
        stiff: true,
        quick: false,
        why: "the stiff squeezer over Hairer & Wanner's interval (the IVP Test Set's), where the final positions converge with the tolerance: the same-motion check of acceptance 3",
    },
    StiffCase {
        id: "bushing chain",
        model: "bushing-chain:n=8:k=1e6:c=10",
        method: "aba",
        t_end: (2.0, 0.2),
        stiff: true,
        quick: true,
        why: "8 links of 1 m / 1 kg, free first joint, bushings k = 1e6 N m/rad, c = 10 N m s/rad at the others: bending modes ≈ 1e3–1e4 rad/s, ζ ≈ 1–5 %, against the swing's ≈ 1.4 rad/s; method aba (joint coordinates, the library's default for trees)",
    },
    StiffCase {
        id: "penalty, small ε",
        model: "five-bar",
        method: "penalty:epsilon=1e-9",
        t_end: (1.0, 0.1),
        stiff: true,
        quick: false,
        why: "the ALF-DCA five-bar under Chiou's penalty formulation with ε = 1e-9 (eq 5.3.7): the penalty oscillation √(B M⁻¹ Bᵀ/ε) ≈ 1e5 rad/s must be resolved by an explicit step",
    },
    StiffCase {
        id: "vehicle, stiff tyres",
        model: "vehicle-stiff-tyres",
        method: "alf-index1",
        t_end: (1.0, 0.6),
        stiff: true,
        quick: false,
        why: "Chiou's nine-body vehicle (sec 7.7) with 1e8 N/m tyres, dropped 1 m: free fall until t ≈ 0.45 s, then a wheel hop at ≈ 2e3 rad/s (ζ ≈ 0.6 %); method alf-index1 (measured with DOP853 over 1 s: alf-joint, the library's default for a small loop, stops at touch-down, t ≈ 0.48 s, at rtol 1e-6 and 1e-8 — its joint-space matrix H + αΦ_qᵀΦ_q loses positive definiteness —, alf-dca-proj at 1e-6 (non-finite acceleration at t ≈ 0.52 s), hdca at 1e-8 (t ≈ 0.50 s); alf-index1 runs at 1e-6 and 1e-8)",
    },
    StiffCase {
        id: "five-bar (non-stiff control)",
        model: "five-bar",
        method: "alf-joint",
        t_end: (2.0, 0.5),
        stiff: false,
        quick: true,
        why: "the ALF-DCA five-bar under gravity (sec 4.2), no stiff element; method alf-joint, the library's default for a small loop",
    },
    StiffCase {
        id: "squeezer (non-stiff control)",
        model: "andrews-squeezer",
        method: "alf-dca-proj",
        t_end: (0.03, 0.005),
        stiff: false,
        quick: false,
        why: "Andrew's squeezer with its rod GE (Hairer & Wanner VII.7), 0.03 s, the same formulation as the stiff squeezer",
    },
];
