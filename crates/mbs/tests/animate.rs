//! The animation page's content without a browser: self-contained (no external
//! resource), three.js licence included, the embedded data decodes to the trajectory's
//! poses and the model's shapes; `mbs run --animate` writes it and lists it, with every
//! other file, in `manifest.json`.

use std::path::PathBuf;
use std::process::Command;

use mbs::animate::{AnimateOptions, html};
use mbs::chart::columns::Catalog;
use mbs::model::Model;
use mbs::{IntegratorChoice, Simulation, Trajectory};
use serde_json::Value;

fn example(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/models")
        .join(file)
}

fn run(model: &Model, t_end: f64, samples: usize) -> Trajectory {
    Simulation::new(model.clone())
        .integrator(IntegratorChoice::Rk45 {
            rtol: 1e-8,
            atol: 1e-8,
        })
        .t_end(t_end)
        .samples(samples)
        .run()
        .unwrap()
}

/// The JSON embedded in the page.
fn page_data(page: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"mbs-data\">";
    let start = page.find(open).expect("data element") + open.len();
    let end = start + page[start..].find("</script>").expect("end of data");
    serde_json::from_str(&page[start..end]).expect("valid JSON")
}

/// Little-endian f32 values from base64.
fn f32s(b64: &str) -> Vec<f32> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => u32::from(c - b'A'),
        b'a'..=b'z' => u32::from(c - b'a') + 26,
        b'0'..=b'9' => u32::from(c - b'0') + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let mut bytes = Vec::new();
    for chunk in b64.as_bytes().chunks(4) {
        let n = chunk.iter().take_while(|c| **c != b'=').count();
        let mut acc = 0u32;
        for (k, c) in chunk.iter().take(n).enumerate() {
            acc |= value(*c) << (18 - 6 * k);
        }
        bytes.extend(acc.to_be_bytes()[1..n].iter());
    }
    bytes
        .chunks(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

#[test]
fn the_page_embeds_everything_it_draws() {
    let model = Model::load(example("pendulum_with_shapes.toml")).unwrap();
    let traj = run(&model, 0.5, 20);
    let page = html(&traj, &model, &AnimateOptions::default()).unwrap();
    // offline: no external script, style sheet, image or font
    for needle in ["src=\"http", "href=\"http", "<link", "import(", "@import"] {
        assert!(
            !page.contains(needle),
            "the page refers to an external resource: {needle}"
        );
    }
    assert!(
        page.contains("Copyright © 2010-2026 three.js authors"),
        "three.js licence missing"
    );
    assert!(page.contains("Permission is hereby granted"));
    let data = page_data(&page);
    // poses: x, y, z, qx, qy, qz, qw per body and sample, equal to the trajectory's
    let poses = f32s(data["poses"].as_str().unwrap());
    let nb = traj.n_bodies();
    assert_eq!(poses.len(), traj.len() * nb * 7);
    for k in [0, 7, traj.len() - 1] {
        for i in 0..nb {
            let r = traj.position(k, i);
            let p = traj.euler_params(k, i);
            let got = &poses[(k * nb + i) * 7..][..7];
            let want = [r.x, r.y, r.z, p[1], p[2], p[3], p[0]];
            for (g, w) in got.iter().zip(want) {
                assert!(
                    (f64::from(*g) - w).abs() < 1e-6,
                    "sample {k} body {i}: {got:?} vs {want:?}"
                );
            }
        }
    }
    let t = f32s(data["t"].as_str().unwrap());
    assert_eq!(t.len(), traj.len());
    assert!((f64::from(t[traj.len() - 1]) - 0.5).abs() < 1e-6);
    // shapes: the arm's bar and pins, the bob's rod and sphere, with colours
    let bodies = data["bodies"].as_array().unwrap();
    let kinds = |b: &Value| -> Vec<String> {
        b["shapes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["kind"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(kinds(&bodies[0]), ["box", "cylinder", "cylinder"]);
    assert_eq!(kinds(&bodies[1]), ["cylinder", "sphere"]);
    assert_eq!(bodies[1]["shapes"][1]["color"], "#d4a017");
    let bar = &bodies[0]["shapes"][0]["dims"];
    assert_eq!([bar[0].as_f64(), bar[1].as_f64()], [Some(0.25), Some(0.02)]);
    // default plots: energies and ‖Φ‖
    let titles: Vec<&str> = data["plots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles.len(), 2, "{titles:?}");
    assert!(
        titles[0].starts_with("energy") && titles[1].contains("‖Φ‖"),
        "{titles:?}"
    );
    // the ground pivot
    assert_eq!(data["ground"][0]["name"], "O.ground");
}

#[test]
fn bodies_without_shapes_get_sticks_and_chosen_columns_are_plotted() {
    let model = mbs::builtin("five-bar").unwrap();
    let traj = run(&model, 0.2, 10);
    let name0 = &traj.body_names[0];
    let joint = &model.joints()[0].name;
    let columns = Catalog::of_model(&model)
        .parse(&format!(
            "{name0}.x, {}.wz, {joint}.force_y",
            traj.body_names[2]
        ))
        .unwrap();
    let page = html(
        &traj,
        &model,
        &AnimateOptions {
            columns,
            joints: None,
        },
    )
    .unwrap();
    let data = page_data(&page);
    for b in data["bodies"].as_array().unwrap() {
        assert!(b["shapes"].as_array().unwrap().is_empty());
        assert!(
            b["markers"].as_array().unwrap().len() >= 2,
            "a link has two joint markers: {b}"
        );
    }
    let plots = data["plots"].as_array().unwrap();
    assert_eq!(plots.len(), 3);
    assert_eq!(plots[0]["title"], format!("{name0}.x [m]"));
    assert!(plots[1]["title"].as_str().unwrap().ends_with(".wz [rad/s]"));
    assert_eq!(plots[2]["title"], format!("{joint}.force_y [N]"));
    let x = f32s(plots[0]["series"][0]["values"].as_str().unwrap());
    assert!((f64::from(x[3]) - traj.position(3, 0).x).abs() < 1e-6);
    // the reaction is the one of joints.csv
    let jr =
        mbs::joints::JointResults::compute(&model, &traj, mbs::joints::MultiplierSource::Recovered)
            .unwrap();
    let fy = jr.column(&format!("{joint}.force_y [N]")).unwrap();
    let plotted = f32s(plots[2]["series"][0]["values"].as_str().unwrap());
    assert!((f64::from(plotted[5]) - fy[5]).abs() <= 1e-5 * fy[5].abs().max(1.0));
}

/// ABA works in joint coordinates: ‖Φ‖ may be exactly 0, and its log panel says so
/// instead of drawing empty axes; ticks and styles come with the data.
#[test]
fn an_all_zero_log_panel_says_exactly_zero_and_ticks_come_with_the_data() {
    let model = mbs::builtin("chain:n=4").unwrap();
    let mut traj = Simulation::new(model.clone())
        .method("aba".parse().unwrap())
        .t_end(0.2)
        .samples(10)
        .run()
        .unwrap();
    // ‖Φ‖ of a joint-coordinate method is round-off or exactly 0: make it 0
    traj.phi_norm.iter_mut().for_each(|v| *v = 0.0);
    let data = page_data(&html(&traj, &model, &AnimateOptions::default()).unwrap());
    let phi = &data["plots"][1];
    assert!(phi["log"].as_bool().unwrap());
    assert_eq!(phi["note"], "exactly 0");
    assert!(phi["ticks"].as_array().unwrap().is_empty());
    let energy = &data["plots"][0];
    assert!(energy["note"].is_null());
    let labels: Vec<&str> = energy["ticks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["label"].as_str().unwrap())
        .collect();
    assert!(labels.len() >= 2, "{labels:?}");
    let mut distinct = labels.clone();
    distinct.dedup();
    assert_eq!(distinct, labels);
    let styles: Vec<(String, String)> = energy["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["color"].to_string(), s["marker"].to_string()))
        .collect();
    assert_eq!(styles.len(), 3);
    assert!(styles[0] != styles[1] && styles[1] != styles[2] && styles[0] != styles[2]);
    let time: Vec<&str> = data["time_ticks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["label"].as_str().unwrap())
        .collect();
    assert_eq!(time.first(), Some(&"0"), "{time:?}");
}

#[test]
fn a_model_that_is_not_the_trajectorys_is_an_error() {
    let traj = run(&mbs::builtin("double-pendulum").unwrap(), 0.1, 5);
    let other = mbs::builtin("five-bar").unwrap();
    let err = html(&traj, &other, &AnimateOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("animation") && err.contains("link1"), "{err}");
    let err = Catalog::of_model(&mbs::builtin("double-pendulum").unwrap())
        .parse("link1.speed")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`link1.speed`") && err.contains("closest: link1."),
        "{err}"
    );
}

#[test]
fn run_animate_writes_the_page_and_a_manifest_of_every_file() {
    let dir = std::env::temp_dir().join(format!("mbs-animate-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let model = example("pendulum_with_shapes.toml");
    let out = Command::new(env!("CARGO_BIN_EXE_mbs"))
        .args([
            "run",
            model.to_str().unwrap(),
            "--t-end",
            "0.2",
            "--samples",
            "10",
            "--animate",
            "--plot",
            "--coords",
            "bob.y",
            "-q",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(dir.join("animation.html")).unwrap();
    assert_eq!(page_data(&page)["plots"][0]["title"], "bob.y [m]");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let listed: Vec<&str> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    // every file in the directory is listed, with a description
    let mut present: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    present.sort();
    let mut sorted: Vec<String> = listed.iter().map(|s| s.to_string()).collect();
    sorted.sort();
    assert_eq!(sorted, present);
    assert!(listed.contains(&"animation.html") && listed.contains(&"energy.png"));
    for f in manifest["files"].as_array().unwrap() {
        assert!(f["description"].as_str().unwrap().len() > 10, "{f}");
        assert_ne!(f["description"], "written by mbs", "{f}");
    }
    // trajectory.csv: every header column is described with its unit
    let csv = std::fs::read_to_string(dir.join("trajectory.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let entry = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == "trajectory.csv")
        .unwrap();
    let columns: Vec<&str> = entry["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(columns, header);
    let unit = |name: &str| {
        entry["columns"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap()["unit"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(unit("t"), "s");
    assert_eq!(unit("total_energy"), "J");
    assert_eq!(unit("bob.vy"), "m/s");
    assert_eq!(unit("arm.wz"), "rad/s");
    let _ = std::fs::remove_dir_all(&dir);
}
