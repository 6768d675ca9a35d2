//! URDF through the facade and the CLI: a damped slider against its closed-form
//! motion (the joint damper of a prismatic joint), a damped pendulum's decay against
//! the energy balance, `check`'s import report, `run` with `--q0`/`--v0`/`--initial`,
//! and the refusals of bad input naming the element and the value.

use std::path::{Path, PathBuf};
use std::process::Command;

use mbs::{ImportOptions, Method, Simulation, load_model_with};

/// A slider along −z under gravity with joint damping c, mass m, from rest, and a
/// pendulum with hinge damping: both from one URDF.
const URDF: &str = r#"<?xml version="1.0"?>
<robot name="slider_and_pendulum">
  <link name="world"/>
  <link name="carriage">
    <inertial><origin xyz="0 0 0"/><mass value="2.0"/>
      <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><box size="0.2 0.2 0.1"/></geometry></visual>
  </link>
  <joint name="slide" type="prismatic">
    <parent link="world"/><child link="carriage"/>
    <origin xyz="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-10" upper="10" effort="100" velocity="10"/>
    <dynamics damping="3.0"/>
  </joint>
  <link name="arm">
    <inertial><origin xyz="0.5 0 0"/><mass value="1.0"/>
      <inertia ixx="0.001" iyy="0.08" izz="0.08" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="hinge" type="continuous">
    <parent link="world"/><child link="arm"/>
    <origin xyz="3 0 0"/><axis xyz="0 1 0"/>
    <dynamics damping="0.05"/>
  </joint>
  <link name="tip">
    <inertial><origin xyz="0 0 0"/><mass value="0.5"/>
      <inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="weld" type="fixed">
    <parent link="arm"/><child link="tip"/><origin xyz="1 0 0"/>
  </joint>
</robot>
"#;

fn write_urdf(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join("robot.urdf");
    std::fs::write(&p, URDF).unwrap();
    p
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mbs-import-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn mbs(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mbs"))
        .args(args)
        .output()
        .expect("mbs runs")
}

#[test]
fn a_damped_slider_follows_its_closed_form_and_the_pendulum_dissipates_what_its_damper_takes() {
    let dir = scratch("slider");
    let path = write_urdf(&dir);
    let loaded = load_model_with(path.to_str().unwrap(), &ImportOptions::default()).unwrap();
    let model = loaded.model;
    assert_eq!(
        model.n_bodies(),
        2,
        "carriage, and arm with the tip welded on"
    );
    assert_eq!(
        model.forces().len(),
        2,
        "a prismatic and a rotational damper"
    );
    // m z̈ = −m g − c ż from rest: z(t) = −(m g/c) t + (m² g/c²)(1 − e^(−c t/m))
    let (m, c, g, t_end): (f64, f64, f64, f64) = (2.0, 3.0, 9.81, 1.0);
    let z_exact = -(m * g / c) * t_end + (m * m * g / (c * c)) * (1.0 - (-c * t_end / m).exp());
    for method in ["aba", "alf-index1"] {
        let sim = Simulation::new(model.clone())
            .choose(
                Some(method.parse::<Method>().unwrap()),
                &mbs::IntegratorRequest {
                    spec: Some("dop853".into()),
                    rtol: Some(1e-11),
                    atol: Some(1e-11),
                    h: None,
                },
            )
            .unwrap()
            .t_end(t_end)
            .samples(400);
        let traj = sim.run().unwrap();
        let k = traj.len() - 1;
        let carriage = model.body_by_name("carriage").unwrap().index();
        let z = traj.position(k, carriage).z;
        assert!(
            (z - z_exact).abs() < 1e-8,
            "{method}: z = {z}, exact {z_exact}"
        );
        // the pendulum loses energy only to its damper: the balance closes
        assert!(
            traj.energy_drift().abs() < 1e-5,
            "{method}: energy balance residual {}",
            traj.energy_drift()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_reports_the_import_and_run_takes_initial_joint_values() {
    let dir = scratch("cli");
    let path = write_urdf(&dir);
    let p = path.to_str().unwrap();
    let out = mbs(&["check", p]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("imported from URDF: 3 links → 2 bodies"),
        "{text}"
    );
    assert!(text.contains("link tip → body arm"), "{text}");
    assert!(text.contains("rank-based mobility  2"), "{text}");
    assert!(text.contains("position limits [-10, 10] ignored"), "{text}");
    // JSON carries the report too
    let out = mbs(&["check", p, "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["import"]["format"], "urdf");

    // --q0 and --v0 on the command line, --initial from a side file
    let out_dir = dir.join("out");
    let o = out_dir.to_str().unwrap();
    let run = mbs(&[
        "run",
        p,
        "--q0",
        "hinge=0.5,slide=0.1",
        "--v0",
        "hinge=-1",
        "--t-end",
        "0.01",
        "--samples",
        "2",
        "--out",
        o,
        "-q",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stderr).contains("not honoured"));
    let csv = std::fs::read_to_string(out_dir.join("trajectory.csv")).unwrap();
    assert!(csv.lines().count() >= 3);
    let init = dir.join("init.toml");
    std::fs::write(
        &init,
        "[q0]\nhinge = 0.5\nslide = [0.1]\n[v0]\nhinge = -1\n",
    )
    .unwrap();
    let from_file = load_model_with(
        p,
        &mbs::import::options_from(None, None, Some(&init), &[], false).unwrap(),
    )
    .unwrap();
    let from_flags = load_model_with(
        p,
        &mbs::import::options_from(
            Some("hinge=0.5,slide=0.1"),
            Some("hinge=-1"),
            None,
            &[],
            false,
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(from_file.model, from_flags.model);
    let arm = from_flags.model.body_by_name("arm").unwrap();
    let init = &from_flags.model.body(arm).initial;
    assert!(init.omega.y + 1.0 < 1e-15 && init.omega.y + 1.0 > -1e-15);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_names_the_element_and_the_value() {
    let dir = scratch("bad");
    let path = write_urdf(&dir);
    let p = path.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["check", p, "--q0", "elbow=1"], "joint `elbow`"),
        (&["check", p, "--q0", "hinge=1,2"], "joint `hinge`"),
        (&["check", p, "--q0", "hinge=abc"], "hinge=abc"),
        (
            &["check", "five-bar", "--q0", "hinge=1"],
            "URDF and MJCF files only",
        ),
        (
            &["check", p, "--initial", "/nonexistent/init.toml"],
            "/nonexistent/init.toml",
        ),
    ];
    for (args, needle) in cases {
        let out = mbs(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // a malformed file and a negative mass
    let broken = dir.join("broken.urdf");
    std::fs::write(&broken, "<robot name=\"x\"><link name=\"a\"></robot>").unwrap();
    let out = mbs(&["check", broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.urdf"));
    let negative = dir.join("negative.urdf");
    std::fs::write(
        &negative,
        URDF.replace("<mass value=\"2.0\"/>", "<mass value=\"-2.0\"/>"),
    )
    .unwrap();
    let out = mbs(&["check", negative.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("carriage") && err.contains("-2"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `convert` of a URDF, an MJCF file, a built-in mechanism and a generator: the model
/// file reads back to the same model and writes the same text again (bit for bit).
#[test]
fn converted_models_read_back_bit_identically() {
    use mbs_model::{FileFormat, Model};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = scratch("convert-roundtrip");
    let urdf = write_urdf(&dir);
    let specs = [
        urdf.to_str().unwrap().to_string(),
        root.join("examples/models/arm.urdf").display().to_string(),
        root.join("examples/models/four_bar_mjcf.xml")
            .display()
            .to_string(),
        "andrews-squeezer".to_string(),
        "chain:n=4".to_string(),
    ];
    for spec in &specs {
        let loaded = load_model_with(spec, &ImportOptions::default()).unwrap();
        for format in [FileFormat::Toml, FileFormat::Json] {
            let text = mbs::convert::model_file_text(&loaded, spec, format);
            let back = Model::from_str_as(&text, format)
                .unwrap_or_else(|e| panic!("{spec} as {format:?} does not read back: {e}"));
            assert!(back == loaded.model, "{spec} as {format:?}: model differs");
            assert_eq!(
                back.to_string_as(format),
                loaded.model.to_string_as(format),
                "{spec} as {format:?}: text differs"
            );
        }
    }
    let toml = mbs::convert::model_file_text(
        &load_model_with(urdf.to_str().unwrap(), &ImportOptions::default()).unwrap(),
        "robot.urdf",
        FileFormat::Toml,
    );
    assert!(toml.starts_with("# mbs model converted from robot.urdf"));
    assert!(
        toml.contains("# not honoured") && toml.contains("limit"),
        "the header lists the URDF limits the model does not honour:\n{}",
        &toml[..toml.find("\n\n").unwrap_or(toml.len())]
    );
}

/// `mbs convert` writes a file that `check` accepts with the same mobility, never
/// replaces an existing file without `--force`, and refuses an unusable output path.
#[test]
fn convert_writes_an_editable_model_file_and_never_overwrites_by_accident() {
    let dir = scratch("convert-cli");
    let urdf = write_urdf(&dir);
    let urdf = urdf.to_str().unwrap();
    let out = dir.join("robot.toml");
    let out_s = out.to_str().unwrap();
    let o = mbs(&["convert", urdf, "-o", out_s]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mobility = |spec: &str| {
        let o = mbs(&["check", spec, "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["rank_mobility"].clone()
    };
    assert_eq!(mobility(out_s), mobility(urdf));
    assert_eq!(mobility(out_s).as_i64(), Some(2));

    // an existing file stays as it was
    std::fs::write(&out, "precious").unwrap();
    let o = mbs(&["convert", urdf, "-o", out_s]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("exists") && err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious");
    let o = mbs(&["convert", urdf, "-o", out_s, "--force"]);
    assert!(o.status.success());
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .contains("[[bodies]]")
    );

    // JSON by extension or by --to; standard output without -o
    let o = mbs(&["convert", urdf, "--to", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["bodies"].as_array().is_some_and(|b| b.len() == 2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not honoured"));

    // unusable output paths: missing directory, unknown extension; nothing written
    let missing = dir.join("no/such/dir/robot.toml");
    let o = mbs(&["convert", urdf, "-o", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not exist"));
    let odd = dir.join("robot.urdf2");
    let o = mbs(&["convert", urdf, "-o", odd.to_str().unwrap()]);
    assert_ne!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--to"));
    assert!(!odd.exists());
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".partial"))
        .collect();
    assert!(leftovers.is_empty());
}
