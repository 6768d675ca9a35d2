//! The animation page in a real headless browser (Debian's chromium, installed by
//! `scripts/setup/chromium.sh`): the page loads and draws without errors, screenshots
//! at two times differ where the mechanism moved (the falling second link of the double
//! pendulum goes down the screen), and two screenshots at the same time agree; a mesh
//! shape (a green cube from an STL file) is drawn.
//!
//! Without chromium the test is skipped with a message on stderr, unless
//! `MBS_REQUIRE_BROWSER=1`, when it fails. `MBS_CHROMIUM` may name the browser binary.

mod mesh_common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mbs::animate::{AnimateOptions, write_html};
use mbs::{IntegratorChoice, Simulation};

/// Width and height of the browser window, CSS pixels (device scale factor 1).
const WIDTH: usize = 1000;
const HEIGHT: usize = 700;
/// The page's side panel (plots) and control bar, CSS pixels (animation.html).
const SIDE_PANEL: usize = 380;
const CONTROLS: usize = 40;

fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("MBS_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

/// The browser, or `None` after a loud message when the test may be skipped.
fn chromium_or_skip() -> Option<PathBuf> {
    let found = find_chromium();
    let required = std::env::var("MBS_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
    match (found, required) {
        (Some(p), _) => Some(p),
        (None, true) => {
            panic!("MBS_REQUIRE_BROWSER=1 but no chromium on PATH: run scripts/setup/chromium.sh")
        }
        (None, false) => {
            eprintln!(
                "\n*** SKIPPED animate_browser: chromium is not installed, so the HTML animation \
                 was NOT tested in a browser. Run scripts/setup/chromium.sh (or set MBS_CHROMIUM); \
                 set MBS_REQUIRE_BROWSER=1 to make this a failure. ***\n"
            );
            None
        }
    }
}

/// Runs chromium headless on `url` with `extra` flags and a fresh profile; returns its
/// standard output. Fails the test after 90 s.
fn chromium(browser: &Path, work: &Path, url: &str, extra: &[String]) -> String {
    let profile = work.join(format!("profile-{}", extra.len() + url.len()));
    let _ = std::fs::remove_dir_all(&profile);
    let mut cmd = Command::new(browser);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--use-angle=swiftshader",
        "--enable-unsafe-swiftshader",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        &format!("--window-size={WIDTH},{HEIGHT}"),
        &format!("--user-data-dir={}", profile.display()),
    ])
    .args(extra)
    .arg(url);
    // stdout to a file: the DOM is larger than a pipe's buffer, and chromium would
    // block on a pipe that is read only after it exits
    let stdout_path = work.join("stdout.txt");
    let stdout = std::fs::File::create(&stdout_path).expect("stdout file");
    cmd.stdin(Stdio::null())
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::null());
    let mut child = cmd.spawn().expect("chromium starts");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait for chromium").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            panic!("chromium did not finish within 90 s on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_dir_all(&profile);
    let out = std::fs::read(&stdout_path).expect("chromium's output");
    String::from_utf8_lossy(&out).into_owned()
}

/// RGB pixels of a PNG, row by row.
struct Image {
    width: usize,
    height: usize,
    rgb: Vec<[u8; 3]>,
}

fn read_png(path: &Path) -> Image {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut decoder = png::Decoder::new(file);
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("a PNG frame");
    let channels = info.color_type.samples();
    assert!(
        channels >= 3,
        "colour PNG expected, got {:?}",
        info.color_type
    );
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    Image {
        width: info.width as usize,
        height: info.height as usize,
        rgb,
    }
}

/// The 3-D view: the page minus the side panel and the control bar.
fn in_view(img: &Image, x: usize, y: usize) -> bool {
    x + SIDE_PANEL < img.width && y + CONTROLS < img.height
}

/// Pixels of the view whose largest channel difference exceeds 40 of 255.
fn differing_pixels(a: &Image, b: &Image) -> usize {
    assert_eq!((a.width, a.height), (b.width, b.height));
    let mut n = 0;
    for y in 0..a.height {
        for x in 0..a.width {
            let (p, q) = (a.rgb[y * a.width + x], b.rgb[y * a.width + x]);
            let d = (0..3).map(|c| p[c].abs_diff(q[c])).max().unwrap_or(0);
            if in_view(a, x, y) && d > 40 {
                n += 1;
            }
        }
    }
    n
}

/// Count and centroid (x, y) of the view's pixels of the second body's colour (the
/// page's palette entry 1, an orange #d0603a, shaded by the lights).
fn orange(img: &Image) -> (usize, f64, f64) {
    let (mut n, mut sx, mut sy) = (0usize, 0.0, 0.0);
    for y in 0..img.height {
        for x in 0..img.width {
            let [r, g, b] = img.rgb[y * img.width + x].map(i32::from);
            if in_view(img, x, y) && r > g + 40 && r > b + 60 {
                n += 1;
                sx += x as f64;
                sy += y as f64;
            }
        }
    }
    (n, sx / n.max(1) as f64, sy / n.max(1) as f64)
}

#[test]
fn animation_plays_in_a_headless_browser() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let work = std::env::temp_dir().join(format!("mbs-animate-browser-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    // The double pendulum released horizontally: by t = 0.8 s the second link hangs down.
    let model = mbs::builtin("double-pendulum").unwrap();
    let traj = Simulation::new(model.clone())
        .integrator(IntegratorChoice::Rk45 {
            rtol: 1e-8,
            atol: 1e-8,
        })
        .t_end(1.0)
        .samples(100)
        .run()
        .unwrap();
    let page = work.join("animation.html");
    write_html(&traj, &model, &page, &AnimateOptions::default()).unwrap();
    let url = |fragment: &str| format!("file://{}#{fragment}", page.display());

    // 1. loads, runs its script to the end, reports no error
    let dom = chromium(&browser, &work, &url("t=0&paused"), &["--dump-dom".into()]);
    let body = body_tag(&dom);
    assert!(
        body.contains("data-ready=\"1\""),
        "the page did not finish drawing: {body}\n{}",
        tail(&dom)
    );
    assert!(
        !body.contains("data-errors"),
        "the page reported errors:\n{}",
        errors_of(&dom)
    );
    assert!(
        dom.contains("<h1 id=\"model-name\">double-pendulum</h1>"),
        "{}",
        tail(&dom)
    );

    // 2. screenshots at t = 0 (twice) and t = 0.8 s, paused
    let shot = |name: &str, fragment: &str| {
        let png = work.join(name);
        let _ = std::fs::remove_file(&png);
        chromium(
            &browser,
            &work,
            &url(fragment),
            &[format!("--screenshot={}", png.display())],
        );
        read_png(&png)
    };
    let a = shot("t0.png", "t=0&paused");
    let a2 = shot("t0-again.png", "t=0&paused");
    let b = shot("t08.png", "t=0.8&paused");
    assert_eq!((a.width, a.height), (WIDTH, HEIGHT));
    let moved = differing_pixels(&a, &b);
    let same = differing_pixels(&a, &a2);
    let (na, _, ya) = orange(&a);
    let (nb, _, yb) = orange(&b);
    eprintln!(
        "animate_browser: {moved} view pixels differ between t = 0 and t = 0.8 s, {same} between two \
         screenshots at t = 0; second link: {na} px centred at screen y = {ya:.0} at t = 0, {nb} px at \
         y = {yb:.0} at t = 0.8 s; page {} bytes",
        std::fs::metadata(&page).map(|m| m.len()).unwrap_or(0)
    );
    assert!(
        moved > 2000,
        "only {moved} pixels changed while the pendulum fell"
    );
    assert!(
        same * 50 <= moved,
        "two screenshots at one time differ in {same} pixels"
    );
    // the second link is drawn at both times, and it fell (down the screen)
    assert!(
        na > 300 && nb > 300,
        "second link not drawn: {na} and {nb} pixels"
    );
    assert!(
        yb > ya + 40.0,
        "second link did not move down: y {ya:.0} → {yb:.0}"
    );
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn a_mesh_shape_is_drawn_in_a_headless_browser() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let work =
        std::env::temp_dir().join(format!("mbs-animate-mesh-browser-{}", std::process::id()));
    let model = mesh_common::cube_model(&work, 0.5);
    let traj = mesh_common::run(&model);
    let page = work.join("animation.html");
    let notes = write_html(&traj, &model, &page, &AnimateOptions::default()).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    let url = format!("file://{}#t=0&paused", page.display());
    let dom = chromium(&browser, &work, &url, &["--dump-dom".into()]);
    let body = body_tag(&dom);
    assert!(
        !body.contains("data-errors"),
        "errors:\n{}",
        errors_of(&dom)
    );
    assert!(
        body.contains("data-ready=\"1\""),
        "not drawn: {body}\n{}",
        tail(&dom)
    );
    let png = work.join("mesh.png");
    chromium(
        &browser,
        &work,
        &url,
        &[format!("--screenshot={}", png.display())],
    );
    let img = read_png(&png);
    // the cube's green (#20c020, shaded) in the view
    let mut green = 0;
    for y in 0..img.height {
        for x in 0..img.width {
            let [r, g, b] = img.rgb[y * img.width + x].map(i32::from);
            if in_view(&img, x, y) && g > r + 60 && g > b + 60 {
                green += 1;
            }
        }
    }
    eprintln!("animate_browser: the cube mesh covers {green} green pixels");
    assert!(green > 5000, "mesh not drawn: {green} green pixels");
    let _ = std::fs::remove_dir_all(&work);
}

/// The `<body …>` tag of the dumped DOM (its attributes say whether the page finished
/// drawing and whether it reported errors).
fn body_tag(dom: &str) -> String {
    match dom.find("<body") {
        Some(i) => dom[i..].chars().take_while(|c| *c != '>').collect(),
        None => String::new(),
    }
}

/// The last 2000 characters of `s`.
fn tail(s: &str) -> String {
    let n = s.chars().count();
    s.chars().skip(n.saturating_sub(2000)).collect()
}

/// The page's error box and what follows it (2000 characters).
fn errors_of(dom: &str) -> String {
    match dom.find("<pre id=\"errors\"") {
        Some(i) => dom[i..].chars().take(2000).collect(),
        None => tail(dom),
    }
}
