//! IFToMM benchmark A02 (N-four-bar, N = 2) for 10 s through its ten singular passes
//! (`examples/models/n_four_bar.toml`): the reference B0 position checked on its own
//! (energy relation, published values), and a representative subset of the matrix of
//! `cargo run --release -p mbs --example a02_matrix` (which runs every cell: ALF family
//! × rk45, rk23, dop853, adams × tolerances 1e-4…1e-10, alf-index3 with its implicit
//! rules): the methods with projections match the reference B0 position, the methods
//! that cannot pass a singular position stop naming it.

use mbs::a02::{A02Outcome, reference_b0_x, run_cell};
use mbs::integrators::IntegratorChoice;
use mbs::mechanisms::iftomm::NFourBar;

const T_END: f64 = 10.0;

fn model() -> mbs::Model {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/models/n_four_bar.toml"
    );
    mbs::load_model(path).expect("n_four_bar.toml loads")
}

fn rk45(tol: f64) -> IntegratorChoice {
    IntegratorChoice::Rk45 {
        rtol: tol,
        atol: tol,
    }
}

/// The reference is the scalar equation 3 θ̈ = −3.5 g cos θ on its own: its energy
/// 1.5 θ̇² + 3.5 g sin θ is conserved to round-off, and B0 at t = 10 agrees with the
/// values in the model file's header and with Exudyn's published generalized-α values
/// (fourBarMechanismIftomm.py): 0.3284573768 at h = 1.25e-4 (a second-order rule,
/// 1.3e-6 away), Richardson-extrapolated with h = 2.5e-4 to within 1e-7.
#[test]
fn reference_b0_position_is_the_exact_motion_and_agrees_with_published_values() {
    let a02 = NFourBar::default();
    let (th, w) = a02.crank_angle(T_END);
    let energy = |th: f64, w: f64| 1.5 * w * w + 3.5 * a02.g * th.sin();
    let de = energy(th, w) - energy(std::f64::consts::FRAC_PI_2, -1.0);
    assert!(de.abs() < 1e-9, "energy drift of the reference {de:e}");
    let x = reference_b0_x(T_END);
    assert!((x - 0.328458111541).abs() < 1e-11, "x_B0(10) = {x}");
    assert!((th.sin() - 0.944518538178).abs() < 1e-11);
    let (h125, h250) = (0.3284573768, 0.3284552113);
    assert!((x - h125).abs() < 2e-6, "{x} vs Exudyn h = 1.25e-4");
    let extrapolated = h125 + (h125 - h250) / 3.0;
    assert!((x - extrapolated).abs() < 1e-7, "{x} vs {extrapolated}");
}

/// Methods with projections pass all ten singular positions and end within
/// max(1e-5 m, 1e3 · tol) of the reference B0 position.
#[test]
fn projected_alf_methods_match_the_reference_after_ten_singular_passes() {
    let model = model();
    let cells = [
        ("alf-index1", rk45(1e-8)),
        // the cells that collapsed with κ = 1e4 (`mbs_alf::DEFAULT_KAPPA`)
        ("alf-index1", rk45(1e-10)),
        (
            "alf-index1",
            IntegratorChoice::Dop853 {
                rtol: 1e-10,
                atol: 1e-10,
            },
        ),
        (
            "alf-index1",
            IntegratorChoice::Adams {
                rtol: 1e-10,
                atol: 1e-10,
            },
        ),
        (
            "alf-dca-proj",
            IntegratorChoice::Dop853 {
                rtol: 1e-10,
                atol: 1e-10,
            },
        ),
        ("alf-dca-proj", rk45(1e-6)),
    ];
    for (method, integrator) in cells {
        let outcome = run_cell(&model, method, integrator, T_END, 0.0).unwrap();
        assert!(
            matches!(outcome, A02Outcome::Match(_)),
            "{method} {integrator}: {outcome:?}"
        );
    }
}

/// The methods whose leading matrix becomes singular with Φ_q stop at the first
/// singular position (θ = 0 at t ≈ 0.714 s or θ = −π at t ≈ 1.228 s) and say so.
#[test]
fn methods_that_cannot_pass_singular_positions_stop_by_name() {
    let model = model();
    for method in [
        "lagrange",
        "natural-partitioning",
        "complement-zero-eigenvalue",
    ] {
        match run_cell(&model, method, rk45(1e-8), T_END, 0.0).unwrap() {
            A02Outcome::Stop(msg) => {
                assert!(msg.contains("singular configuration"), "{method}: {msg}")
            }
            other => panic!("{method}: {other:?}"),
        }
    }
}
