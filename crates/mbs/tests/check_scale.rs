//! `mbs check` scales like `mbs run`: its rank of Φ_q (sparse elimination) equals
//! the dense reference on every built-in mechanism (the over-constrained ones
//! included) and on the generators, and a 20 000-link chain — whose dense Φ_q
//! would take 96 GB — is checked in the test. The report lists mass properties and
//! names the joints an inconsistent state violates.

use mbs::constraints::{SystemLayout, mobility_dense, mobility_with};
use mbs::{Layout, Model, State};

fn sparse_and_dense(model: &Model) -> (mbs::constraints::Mobility, mbs::constraints::Mobility) {
    let sys = SystemLayout::new(model, Layout::EulerParamsOmega);
    let s = State::initial(model, Layout::EulerParamsOmega);
    (
        mobility_with(model, &sys, &s, mbs::RANK_TOL).unwrap(),
        mobility_dense(model, &sys, &s, mbs::RANK_TOL).unwrap(),
    )
}

#[test]
fn builtins_and_generators_have_the_dense_rank_and_dependent_rows() {
    let mut redundant_models = 0;
    let names = mbs::builtins().into_iter().map(|b| b.name).chain(
        [
            "chain:n=12",
            "chain:n=9,joint=spherical",
            "loop:n=9",
            "ladder:n=5",
            "tree:n=15",
            "random-loop:n=7",
        ]
        .map(String::from),
    );
    for name in names {
        let model = mbs::builtin(&name).unwrap();
        if model.n_bodies() > 100 {
            continue;
        }
        let (sparse, dense) = sparse_and_dense(&model);
        assert_eq!(
            (sparse.rank, sparse.rank_holonomic, &sparse.dependent),
            (dense.rank, dense.rank_holonomic, &dense.dependent),
            "{name}"
        );
        if dense.redundant > 0 {
            redundant_models += 1;
        }
    }
    assert!(
        redundant_models >= 3,
        "{redundant_models} over-constrained models"
    );
}

#[test]
fn a_20000_link_chain_is_checked_with_storage_proportional_to_its_length() {
    let n = 20_000;
    let model = mbs::builtin(&format!("chain:n={n}")).unwrap();
    let r = mbs::check(&model);
    assert_eq!(r.jacobian_rank, Some(5 * n));
    assert_eq!((r.rank_mobility, r.redundant), (Some(n as i64), Some(0)));
    assert!(r.initial_state_consistent());
    assert_eq!(r.body_masses.len(), n);
    let text = r.to_string();
    assert!(
        text.contains(&format!("and {} more bodies", n - 20)),
        "{text}"
    );
    assert!(text.lines().count() < 80, "{} lines", text.lines().count());
    // the elimination's work counter: the rows of Φ_q and nothing of rows × columns
    let (sys, s) = (
        SystemLayout::new(&model, Layout::EulerParamsOmega),
        State::initial(&model, Layout::EulerParamsOmega),
    );
    let mb = mobility_with(&model, &sys, &s, mbs::RANK_TOL).unwrap();
    assert!(mb.peak_entries <= 60 * n, "{}", mb.peak_entries);
}

#[test]
fn ladders_and_loops_name_their_redundant_joints() {
    let r = mbs::check(&mbs::builtin("ladder:n=64").unwrap());
    assert_eq!(r.redundant, Some(3 * 64));
    assert_eq!(
        r.redundant_constraints.len(),
        64,
        "{:?}",
        r.redundant_constraints
    );
    assert!(r.redundant_constraints.iter().all(|(_, k)| *k == 3));
    let text = r.to_string();
    assert!(
        text.contains("(3 rows) and 44 more (`--json` lists all)"),
        "{text}"
    );
    let r = mbs::check(&mbs::builtin("loop:n=256").unwrap());
    assert_eq!(r.redundant, Some(3));
    assert_eq!(r.loops, 1);
}

#[test]
fn mass_properties_say_whether_computed_from_shapes_or_given() {
    let m = mbs::load_model(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/models/pendulum_with_shapes.toml"
    ))
    .unwrap();
    let r = mbs::check(&m);
    let arm = &r.body_masses[0];
    assert_eq!(arm.source, mbs::MassSource::ComputedFromShapes);
    // the steel bar alone: 7850 kg/m³ × 0.5 × 0.04 × 0.02 m³, plus the two pins
    assert!(arm.mass > 7850.0 * 0.5 * 0.04 * 0.02, "{}", arm.mass);
    assert_eq!(arm.centre_of_mass, [0.0; 3]);
    assert!((arm.centre_of_mass_global[0] - 0.25).abs() < 1e-12);
    let text = r.to_string();
    assert!(text.contains("(computed from shapes)"), "{text}");
    let r = mbs::check(&mbs::builtin("five-bar").unwrap());
    assert!(
        r.body_masses
            .iter()
            .all(|b| b.source == mbs::MassSource::Given)
    );
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["body_masses"][0]["source"], "given");
    assert!(json["body_masses"][0]["inertia"][2][2].as_f64().unwrap() > 0.0);
}
