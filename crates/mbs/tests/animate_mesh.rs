//! Mesh shapes in the animation page: the mesh's triangles are embedded (welded,
//! scaled, f32 positions and u32 indices in base64), the shape refers to them with its
//! pose, the scene's bounds hold the mesh, and a file that cannot be read is a note,
//! not an error. The helpers here also serve `animate_browser.rs`'s mesh test.

mod mesh_common;

use mbs::animate::{AnimateOptions, page};
use mesh_common::{cube_model, f32s, page_data, run, u32s};

#[test]
fn the_page_embeds_a_mesh_shape() {
    let work = std::env::temp_dir().join(format!("mbs-animate-mesh-{}", std::process::id()));
    let model = cube_model(&work, 0.5);
    let traj = run(&model);
    let p = page(&traj, &model, &AnimateOptions::default()).unwrap();
    assert!(p.notes.is_empty(), "{:?}", p.notes);
    let data = page_data(&p.html);
    let shapes = data["bodies"][0]["shapes"].as_array().unwrap();
    assert_eq!(shapes.len(), 2, "{shapes:?}");
    let s = &shapes[0];
    assert_eq!(s["kind"], "mesh");
    assert_eq!(s["mesh"], 0);
    assert_eq!(s["position"][0].as_f64().unwrap(), 0.25);
    let part = &data["meshes"][0]["parts"][0];
    // the STL gives three vertices per triangle; welded, a cube has 8, scaled by 0.5
    // from [-1, 1]³ to [-0.5, 0.5]³
    let pos = f32s(part["positions"].as_str().unwrap());
    let idx = u32s(part["indices"].as_str().unwrap());
    assert_eq!((pos.len(), idx.len()), (8 * 3, 12 * 3));
    assert!(pos.iter().all(|x| x.abs() == 0.5), "{pos:?}");
    assert!(idx.iter().all(|k| *k < 8));
    // the scene holds the mesh: its diagonal is at least the cube's
    assert!(
        data["size"].as_f64().unwrap() >= 3f64.sqrt(),
        "{}",
        data["size"]
    );
    // the second shape's file is missing: a note, and the shape is not drawn
    std::fs::remove_file(work.join("cube.stl")).unwrap();
    let p = page(&traj, &model, &AnimateOptions::default()).unwrap();
    let data = page_data(&p.html);
    assert_eq!(data["bodies"][0]["shapes"].as_array().unwrap().len(), 1);
    assert!(
        p.notes.len() == 1 && p.notes[0].contains("cube.stl") && p.notes[0].contains("not drawn"),
        "{:?}",
        p.notes
    );
    assert_eq!(data["notes"][0].as_str().unwrap(), p.notes[0]);
    let _ = std::fs::remove_dir_all(&work);
}
