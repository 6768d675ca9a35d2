//! The parametric generators by name with parameters: facade (`builtin`,
//! `load_model`, `Simulation::builtin`), model files naming a generator, the CLI, and
//! the error messages of bad parameters.

use std::path::PathBuf;
use std::process::{Command, Output};

use mbs::mechanisms::{ChainJoint, GeneratorParams, loop_ladder_with, open_chain_with};
use mbs::{Error, IntegratorChoice, Simulation};

fn tmp_file(name: &str, text: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mbs-generators-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn five_bar_links() -> GeneratorParams {
    GeneratorParams {
        length: 0.2,
        mass: 1.0,
        gravity: 9.81,
        inertia: Some(0.25),
    }
}

#[test]
fn specs_build_the_generators_models() {
    let m = mbs::builtin("chain:n=7,length=0.2,mass=1,inertia=0.25").unwrap();
    let direct = open_chain_with(7, ChainJoint::Revolute, &five_bar_links()).unwrap();
    assert_eq!(m, direct);
    assert_eq!(mbs::load_model("loop:n=64").unwrap().n_bodies(), 64);
    assert_eq!(mbs::load_model("ladder:n=8").unwrap().n_bodies(), 24);
    assert_eq!(
        mbs::load_model("tree:seed=7").unwrap(),
        mbs::mechanisms::random_tree(7, 8).unwrap()
    );
    // a bare generator name takes every default
    assert_eq!(mbs::load_model("chain").unwrap().n_bodies(), 16);
    let sim = Simulation::builtin("chain:n=256").unwrap();
    assert_eq!(sim.model().n_bodies(), 256);
    // every generator is listed with its parameters and defaults
    let gens = mbs::generators();
    let chain = gens.iter().find(|g| g.name == "chain").unwrap();
    assert!(
        chain
            .parameters
            .iter()
            .any(|(k, d, _)| k == "n" && d == "16")
    );
    for name in ["loop", "ladder", "tree", "random-loop"] {
        assert!(gens.iter().any(|g| g.name == name), "{name}");
    }
}

#[test]
fn model_files_may_name_a_generator() {
    let toml = tmp_file(
        "ladder.toml",
        "generator = \"ladder\"\n\n[parameters]\nn = 3\nlength = 0.2\ninertia = 0.25\n",
    );
    let json = tmp_file(
        "ladder.json",
        r#"{"generator": "ladder", "parameters": {"n": 3, "length": 0.2, "inertia": 0.25}}"#,
    );
    let direct = loop_ladder_with(3, &five_bar_links()).unwrap();
    assert_eq!(mbs::load_model(toml.to_str().unwrap()).unwrap(), direct);
    assert_eq!(mbs::load_model(json.to_str().unwrap()).unwrap(), direct);
    let bad = tmp_file("bad.toml", "generator = \"loop\"\n[parameters]\nn = 1\n");
    let e = mbs::load_model(bad.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("loop") && e.contains("`n`") && e.contains("`1`"),
        "{e}"
    );
    let extra = tmp_file("extra.toml", "generator = \"loop\"\nname = \"x\"\n");
    let e = mbs::load_model(extra.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("`name`"), "{e}");
}

#[test]
fn bad_parameters_are_errors_naming_key_and_value() {
    for (spec, key, value) in [
        ("chain:n=0", "n", "0"),
        ("chain:n=many", "n", "many"),
        ("chain:length=-1", "length", "-1"),
        ("loop:n=1", "n", "1"),
        ("ladder:rungs=3", "rungs", "3"),
        ("tree:seed=x", "seed", "x"),
        ("chain:joint=ball", "joint", "ball"),
    ] {
        match mbs::load_model(spec) {
            Err(Error::InvalidParameter {
                parameter,
                value: v,
                ..
            }) => {
                assert_eq!((parameter.as_str(), v.as_str()), (key, value), "{spec}");
            }
            other => panic!("{spec}: expected InvalidParameter, got {other:?}"),
        }
    }
    let e = mbs::load_model("chian:n=3").unwrap_err();
    assert!(matches!(e, Error::UnknownMechanism { .. }), "{e}");
    assert!(e.to_string().contains("chain:key=value"), "{e}");
}

/// The generated mechanisms move as mechanics says: a chain of the five-bar's links
/// conserves energy, and a ladder of coupled loops keeps its loops closed.
#[test]
fn generated_mechanisms_conserve_energy_and_stay_closed() {
    let run = |spec: &str| {
        Simulation::builtin(spec)
            .unwrap()
            .method("lagrange-projection".parse().unwrap())
            .integrator(IntegratorChoice::Rk45 {
                rtol: 1e-10,
                atol: 1e-10,
            })
            .t_end(1.0)
            .samples(20)
            .run()
            .unwrap()
    };
    let chain = run("chain:n=6,length=0.2,inertia=0.25");
    assert!(chain.energy_drift() < 1e-7, "{}", chain.energy_drift());
    // it falls: the links swing down from the horizontal
    let k = chain.len() - 1;
    assert!(chain.position(k, 5).y < -0.05, "{}", chain.position(k, 5).y);
    let ladder = run("ladder:n=2,length=0.2,inertia=0.25");
    assert!(ladder.max_phi() < 1e-9, "{}", ladder.max_phi());
    assert!(ladder.energy_drift() < 1e-7, "{}", ladder.energy_drift());
}

fn mbs_cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mbs"))
        .args(args)
        .output()
        .expect("spawn mbs")
}

#[test]
fn cli_lists_runs_and_rejects_generator_specs() {
    let o = mbs_cli(&["list"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0));
    for s in [
        "Generators",
        "chain",
        "ladder",
        "tree",
        "random-loop",
        "inertia",
        "9.81",
    ] {
        assert!(out.contains(s), "`{s}` missing from:\n{out}");
    }
    let dir = std::env::temp_dir().join(format!("mbs-generators-cli-{}", std::process::id()));
    let o = mbs_cli(&[
        "run",
        "chain:n=8,length=0.2",
        "--method",
        "lagrange-projection",
        "--t-end",
        "0.05",
        "--samples",
        "5",
        "--out",
        dir.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(std::fs::read_dir(&dir).unwrap().count() > 0);
    let o = mbs_cli(&["check", "loop:n=0"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("`n`") && err.contains("`0`"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
