//! The `mbs` command-line program.
//!
//! Exit codes: 0 success, 1 a simulation that failed (or output that could not be
//! written), 2 bad input (model, method, integrator, parameters, a method not
//! implemented yet, command-line syntax, an output directory that cannot be used),
//! 130 / 143 a run stopped by SIGINT / SIGTERM (its samples up to then written, status
//! `interrupted`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mbs::chart::columns::Outputs;
use mbs::joints::{JointResults, MultiplierSource};
use mbs::output::OutputDir;
use mbs::{Error, IntegratorRequest, Method, Simulation, StopHandle, Trajectory};
use mbs::{general, sci};

/// `println!` that ignores a closed stdout (e.g. `mbs list | head`).
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

/// `print!` that ignores a closed stdout.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($t)*);
    }};
}

#[derive(Parser, Debug)]
#[command(
    name = "mbs",
    version,
    about = "Constrained rigid multibody dynamics: run, check and compare formulations"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the built-in mechanisms, generators, methods (every parameter with its
    /// default and meaning) and integrators; with flags, only the chosen sections.
    List {
        /// Built-in mechanisms and generators.
        #[arg(long)]
        mechanisms: bool,
        /// Methods with their parameters.
        #[arg(long)]
        methods: bool,
        /// Integrators.
        #[arg(long)]
        integrators: bool,
    },
    /// Validate a model and report its topology, mobility, redundant constraints and
    /// initial consistency. Exit status 1 when the initial state violates the
    /// constraints (or they cannot be evaluated), 2 when the model is invalid.
    Check {
        /// A built-in mechanism, a generator spec (`chain:n=256`), a model file (.json or
        /// .toml) or a URDF/MJCF file (.urdf, .xml).
        model: String,
        #[command(flatten)]
        import: ImportArgs,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Simulate a model with one method and write CSV, JSON (and plots) to a directory.
    Run {
        #[command(flatten)]
        common: Common,
        /// Method: a name with optional `:key=value` parameters (see `mbs list`).
        /// Default: the method recommended for the model's class (open chain/tree,
        /// closed loop, large closed loop, nonholonomic), printed before the run.
        #[arg(long, short = 'm')]
        method: Option<String>,
        /// Output directory: created, or an earlier mbs output directory, which is
        /// replaced as a whole when the run ends (checked before the run starts).
        #[arg(long, short = 'o', default_value = "mbs-out")]
        out: PathBuf,
        /// Also write PNG and SVG plots.
        #[arg(long)]
        plot: bool,
        /// Columns to plot, by their names in trajectory.csv and joints.csv (unit
        /// optional), e.g. `link1.x,pivot.force_y,drive.effort,phi_norm`; multipliers as
        /// in joints.json (`pivot.point_x`). Default: x and y of the first body; in the
        /// animation: energies and ‖Φ‖.
        #[arg(long, value_name = "NAME,…")]
        coords: Option<String>,
        /// Also write animation.html: the motion in 3-D with plots, one self-contained
        /// file that opens offline in a web browser.
        #[arg(long)]
        animate: bool,
    },
    /// Run the same simulation with several methods and print one table.
    Compare {
        #[command(flatten)]
        common: Common,
        /// Comma-separated methods, e.g. `lagrange-baumgarte,alf,alf-index1` (a
        /// method's parameters may be separated by `,` too: `alf:kappa=1e4,mu=1,lagrange`).
        #[arg(long, required = true)]
        methods: Vec<String>,
        /// Optional directory: one sub-directory of CSV/JSON per method (replaced as a
        /// whole, like `run --out`).
        #[arg(long, short = 'o')]
        out: Option<PathBuf>,
        /// Also write comparison plots (PNG and SVG) into the output directory: the
        /// chosen coordinates of every method overlaid and their distance from the
        /// first method (log scale), energy error and ‖Φ‖ per method.
        #[arg(long, requires = "out")]
        plot: bool,
        /// Columns to plot, named as for `run --coords` (trajectory.csv, joints.csv,
        /// multipliers), e.g. `link1.x,pivot.force_y`. Default: x and y of the first body.
        #[arg(long, value_name = "NAME,…", requires = "plot")]
        coords: Option<String>,
    },
    /// Write a model (URDF, MJCF, built-in mechanism, generator spec or model file) as
    /// an mbs model file to read and edit; it loads back to the same model, bit for
    /// bit. A TOML file starts with comments listing what an import did not honour.
    Convert {
        /// The model to convert, as for `run`.
        model: String,
        #[command(flatten)]
        import: ImportArgs,
        /// Output format; default: from the extension of `--out`, else TOML.
        #[arg(long, value_enum)]
        to: Option<ModelFormat>,
        /// Output file (`.toml` or `.json`); default: standard output. An existing file
        /// is not replaced without `--force`.
        #[arg(long, short = 'o')]
        out: Option<PathBuf>,
        /// Replace an existing output file.
        #[arg(long, requires = "out")]
        force: bool,
    },
}

/// A model-file format on the command line.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum ModelFormat {
    Toml,
    Json,
}

/// Initial joint values and search paths of a URDF or MJCF import.
#[derive(Args, Debug)]
struct ImportArgs {
    /// URDF/MJCF: initial joint positions by joint name, e.g. `shoulder=0.3,elbow=-0.7`
    /// (a ball or floating joint takes its values in a row: `base=0,0,1,1,0,0,0`).
    #[arg(long, value_name = "JOINT=VALUE,…")]
    q0: Option<String>,
    /// URDF/MJCF: initial joint velocities by joint name, as `--q0`.
    #[arg(long, value_name = "JOINT=VALUE,…")]
    v0: Option<String>,
    /// URDF/MJCF: a TOML file with tables `[q0]` and `[v0]` of `joint = value` or
    /// `joint = [values]` (`--q0`/`--v0` override it joint by joint).
    #[arg(long, value_name = "FILE")]
    initial: Option<PathBuf>,
    /// URDF/MJCF: a directory searched for `package://NAME/…` meshes (as DIR/NAME/…);
    /// repeatable.
    #[arg(long, value_name = "DIR")]
    package_path: Vec<PathBuf>,
    /// URDF: attach the root link with a floating joint instead of fixing it to the world.
    #[arg(long)]
    floating_base: bool,
}

impl ImportArgs {
    /// The model of `spec` with these import options.
    fn load(&self, spec: &str) -> Result<mbs::LoadedModel, Error> {
        let options = mbs::import::options_from(
            self.q0.as_deref(),
            self.v0.as_deref(),
            self.initial.as_deref(),
            &self.package_path,
            self.floating_base,
        )?;
        mbs::load_model_with(spec, &options)
    }
}

#[derive(Args, Debug)]
struct Common {
    /// A built-in mechanism, a generator spec (`chain:n=256`), a model file (.json or
    /// .toml) or a URDF/MJCF file (.urdf, .xml).
    model: String,
    #[command(flatten)]
    import: ImportArgs,
    /// Integrator: rk45, rk23, dop853, adams, radau5, bdf, generalized-alpha (implicit, for
    /// stiff models), midpoint, trapezoidal, central-difference, staggered.
    /// Default: rk45 when a method is named, else the recommended method's integrator.
    #[arg(long, short = 'i')]
    integrator: Option<String>,
    /// Relative tolerance (adaptive integrators).
    #[arg(long)]
    rtol: Option<f64>,
    /// Absolute tolerance (adaptive integrators; default: rtol).
    #[arg(long)]
    atol: Option<f64>,
    /// Step (fixed-step integrators).
    #[arg(long)]
    h: Option<f64>,
    /// End time [s].
    #[arg(long, default_value_t = 1.0)]
    t_end: f64,
    /// Number of output intervals (samples − 1).
    #[arg(long, default_value_t = 200)]
    samples: usize,
    /// Largest number of steps of an adaptive integrator before the run stops with a
    /// "step limit reached" error; a fixed step `--h` that needs more steps to reach
    /// `--t-end` is refused before the run.
    #[arg(long, default_value_t = mbs::DEFAULT_MAX_STEPS)]
    max_steps: usize,
    /// Turn off the wrong-motion guard: by default a run of a model whose energy is
    /// conserved stops when its energy drifts beyond what the integrator's accuracy
    /// allows (a jump to another branch at a singular configuration, or a drift off
    /// the true motion).
    #[arg(long)]
    no_energy_guard: bool,
    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

impl Common {
    /// The simulation of the common options with `method` (`None`: the model's
    /// recommendation, whose integrator is then the default too).
    fn simulation(&self, method: Option<Method>) -> Result<Simulation, Error> {
        let integrator = IntegratorRequest {
            spec: self.integrator.clone(),
            rtol: self.rtol,
            atol: self.atol,
            h: self.h,
        };
        let loaded = self.import.load(&self.model)?;
        if let Some(report) = &loaded.import
            && !report.notes.is_empty()
        {
            eprintln!(
                "note: {} element(s) of {} not honoured (limits, friction, …): `mbs check {}` lists them",
                report.notes.len(),
                self.model,
                self.model
            );
        }
        let sim = Simulation::new(loaded.model)
            .t_end(self.t_end)
            .choose(method, &integrator)?
            .samples(self.samples)
            .max_steps(self.max_steps)
            .guard(!self.no_energy_guard);
        sim.output_times()?;
        Ok(sim)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(cli: Cli) -> Result<u8, Error> {
    match cli.command {
        Command::List {
            mechanisms,
            methods,
            integrators,
        } => {
            let all = !(mechanisms || methods || integrators);
            if all || mechanisms {
                list_mechanisms();
            }
            if all || methods {
                list_methods();
            }
            if all || integrators {
                outln!("Integrators (--integrator NAME):");
                for (n, d) in mbs::INTEGRATOR_NAMES {
                    outln!("  {n:<28} {d}");
                }
            }
            Ok(0)
        }
        Command::Check {
            model,
            import,
            json,
        } => {
            let loaded = import.load(&model)?;
            let report = mbs::check(&loaded.model);
            if json {
                let mut value = serde_json::to_value(&report).unwrap_or_default();
                if let (Some(map), Some(imp)) = (value.as_object_mut(), &loaded.import) {
                    map.insert(
                        "import".into(),
                        serde_json::to_value(imp).unwrap_or_default(),
                    );
                }
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&value).unwrap_or_default()
                );
            } else {
                out!("{report}");
                if let Some(imp) = &loaded.import {
                    out!("{imp}");
                }
            }
            // Exit status 1: the model is valid but its initial state is not
            // consistent or cannot be evaluated.
            let usable = report.initial_state_consistent() && !report.initial_phi.is_nan();
            Ok(if usable { 0 } else { 1 })
        }
        Command::Convert {
            model,
            import,
            to,
            out,
            force,
        } => {
            let format = match (
                to,
                out.as_deref().and_then(mbs_model::FileFormat::from_path),
            ) {
                (Some(ModelFormat::Json), _) => mbs_model::FileFormat::Json,
                (Some(ModelFormat::Toml), _) => mbs_model::FileFormat::Toml,
                (None, Some(f)) => f,
                (None, None) => match &out {
                    Some(path) => {
                        return Err(Error::Output {
                            path: path.display().to_string(),
                            message: "has neither a .toml nor a .json extension; name the format with --to".into(),
                        });
                    }
                    None => mbs_model::FileFormat::Toml,
                },
            };
            let loaded = import.load(&model)?;
            let text = mbs::convert::model_file_text(&loaded, &model, format);
            match &out {
                Some(path) => {
                    mbs::convert::write_file_atomically(path, &text, force)?;
                    eprintln!("wrote {} ({} bytes)", path.display(), text.len());
                }
                None => out!("{text}"),
            }
            if let (Some(report), mbs_model::FileFormat::Json) = (&loaded.import, format)
                && !report.notes.is_empty()
            {
                eprintln!("not honoured by the model ({}):", report.notes.len());
                for n in &report.notes {
                    eprintln!("  {}: {}", n.element, n.note);
                }
            }
            Ok(0)
        }
        Command::Run {
            common,
            method,
            out,
            plot,
            coords,
            animate,
        } => {
            let method: Option<Method> = method.map(|m| m.parse()).transpose()?;
            let sim = common.simulation(method)?.stop_handle(stop_on_signals());
            if let Some(reason) = sim.method_reason() {
                outln!("method: {} ({reason})", sim.get_method());
            }
            if let Some(reason) = sim.integrator_reason() {
                outln!("integrator: {} ({reason})", sim.get_integrator());
            }
            // A misspelt column is an error before the run, not after it.
            let columns = match coords {
                Some(c) => mbs::chart::columns::Catalog::of_model(sim.model()).parse(&c)?,
                _ => Vec::new(),
            };
            // So is an output directory that cannot be used.
            let dir = OutputDir::prepare(&out)?;
            let bar = progress_bar(common.quiet);
            let progress = |p: mbs::Progress| bar.set_position((p.fraction() * 1000.0) as u64);
            let result = sim.run_with_progress(progress);
            bar.finish_and_clear();
            let (traj, failure, code) = match result {
                Ok(t) => (t, None, 0),
                Err(Error::SimulationFailed(f)) => {
                    let msg = format!(
                        "simulation failed: {} (the samples before the failure were written)",
                        f.error
                    );
                    (f.trajectory, Some(msg), 1)
                }
                Err(Error::Interrupted { reason, trajectory }) => {
                    let msg = format!(
                        "{} (the samples up to then were written, status `interrupted`)",
                        trajectory.failure.as_deref().unwrap_or("interrupted")
                    );
                    (*trajectory, Some(msg), reason.exit_code())
                }
                Err(e) => return Err(e),
            };
            let mut files = traj.write_all(dir.path())?;
            let joints = if traj.is_empty() {
                None
            } else {
                Some(JointResults::compute(
                    sim.model(),
                    &traj,
                    MultiplierSource::Recovered,
                )?)
            };
            if let Some(jr) = &joints {
                for f in mbs::joints::write_all_with(dir.path(), sim.model(), &traj, jr)? {
                    if !files.contains(&f) {
                        files.push(f);
                    }
                }
            }
            if plot && !traj.is_empty() {
                let outputs = Outputs {
                    traj: &traj,
                    joints: joints.as_ref(),
                };
                files.extend(mbs::plot::write_plots(outputs, dir.path(), &columns)?);
            }
            if animate && !traj.is_empty() {
                let path = dir.path().join(mbs::animate::FILE_NAME);
                let options = mbs::animate::AnimateOptions {
                    columns,
                    joints: joints.as_ref(),
                };
                for note in mbs::animate::write_html(&traj, sim.model(), &path, &options)? {
                    eprintln!("note: animation: {note}");
                }
                files.push(path);
            }
            files.push(mbs::manifest::write(
                dir.path(),
                &traj,
                sim.model(),
                &files,
            )?);
            let out = dir.finish()?;
            print_summary(&traj);
            if let Some(a) = &traj.initial_assembly {
                outln!("{a}");
            }
            outln!("files:");
            for f in files.iter().filter_map(|f| f.file_name()) {
                outln!("  {}", out.join(f).display());
            }
            if let Some(msg) = failure {
                eprintln!("error: {msg}");
            }
            Ok(code)
        }
        Command::Compare {
            common,
            methods,
            out,
            plot,
            coords,
        } => {
            let methods: Vec<Method> = methods
                .iter()
                .flat_map(|list| mbs::split_method_list(list))
                .map(|m| m.parse())
                .collect::<Result<_, _>>()?;
            let sim = common
                .simulation(methods.first().cloned())?
                .stop_handle(stop_on_signals());
            let columns = match coords {
                Some(c) => mbs::chart::columns::Catalog::of_model(sim.model()).parse(&c)?,
                None => Vec::new(),
            };
            let mut dir = out.as_deref().map(OutputDir::prepare).transpose()?;
            let bar = progress_bar(common.quiet);
            let n = methods.len() as f64;
            let cmp = mbs::compare_with_progress(&sim, &methods, |k, p| {
                bar.set_position((1000.0 * (k as f64 + p.fraction()) / n) as u64)
            })?;
            bar.finish_and_clear();
            outln!(
                "{} with {}, t_end = {}",
                sim.model().name(),
                sim.get_integrator(),
                general(sim.get_t_end())
            );
            out!("{cmp}");
            if let Some(dir) = dir.take() {
                let mut files = Vec::new();
                for (m, o) in &cmp.runs {
                    let t = match o {
                        mbs::Outcome::Done(t) => t,
                        mbs::Outcome::Failed { partial, .. } => partial,
                        mbs::Outcome::Skipped(_) => continue,
                    };
                    let sub = dir.path().join(m.to_string().replace([':', '='], "_"));
                    let written = t.write_all(&sub)?;
                    mbs::manifest::write(&sub, t, sim.model(), &written)?;
                    files.push(sub);
                }
                if plot {
                    files.extend(mbs::plot::write_comparison_plots(
                        &cmp,
                        sim.model(),
                        dir.path(),
                        &columns,
                    )?);
                }
                mbs::manifest::write_comparison(dir.path(), &cmp, &files)?;
                outln!("files in {}", dir.finish()?.display());
            }
            if cmp.completed().next().is_none() {
                eprintln!("error: no method completed the run");
                let all_skipped = cmp
                    .runs
                    .iter()
                    .all(|(_, o)| matches!(o, mbs::Outcome::Skipped(_)));
                return Ok(if all_skipped { 2 } else { 1 });
            }
            Ok(if cmp.all_completed() { 0 } else { 1 })
        }
    }
}

/// A stop handle that SIGINT and SIGTERM trigger: the run ends at its next step and
/// writes what it has. A second signal ends the process at once (exit 128 + signal),
/// leaving the output directory as it was before the run.
fn stop_on_signals() -> StopHandle {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let stop = StopHandle::new();
    let second = Arc::new(AtomicBool::new(false));
    for sig in [SIGINT, SIGTERM] {
        // registration fails only for forbidden signals; these two are allowed
        let _ =
            signal_hook::flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&second));
        let _ = signal_hook::flag::register_usize(sig, stop.slot(), sig as usize);
        let _ = signal_hook::flag::register(sig, Arc::clone(&second));
    }
    stop
}

fn list_mechanisms() {
    outln!("Built-in mechanisms:");
    for b in mbs::builtins() {
        outln!("  {:<28} {}", b.name, b.description);
    }
    outln!(
        "\nGenerators (NAME or NAME:key=value…, `,` or `:` between parameters, e.g. chain:n=256,length=0.2):"
    );
    for g in mbs::generators() {
        outln!("  {:<28} {}", g.name, g.description);
        for (key, default, meaning) in &g.parameters {
            outln!("      {key:<10} default {default:<12} {meaning}");
        }
    }
    outln!();
}

fn list_methods() {
    outln!(
        "Methods (--method NAME[:key=value…], `:` or `,` between parameters; each parameter with its default):"
    );
    for m in mbs::registry::methods() {
        outln!("  {:<28} {}", m.name, m.summary);
        for p in m.defaults.specs() {
            let key = match p.default {
                Some(d) => format!("{}={d}", p.key),
                None => format!("{} (no default)", p.key),
            };
            outln!("      {key:<24} {}", p.meaning);
        }
    }
    outln!();
}

fn progress_bar(quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    // Drawn only when stderr is a terminal.
    let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% ETA {eta}",
    ) {
        bar.set_style(style);
    }
    bar
}

fn print_summary(t: &Trajectory) {
    let s = &t.stats;
    let mut rows: Vec<(&str, String)> = vec![
        ("model", t.model.clone()),
        ("method", t.method.clone()),
        ("integrator", t.integrator.clone()),
        (
            "samples",
            format!(
                "{} (t = {} … {})",
                t.len(),
                general(*t.t.first().unwrap_or(&0.0)),
                general(*t.t.last().unwrap_or(&0.0))
            ),
        ),
        ("wall time", format!("{:.4} s", t.wall_time)),
        (
            "steps",
            format!(
                "{} accepted, {} rejected",
                s.accepted_steps, s.rejected_steps
            ),
        ),
        ("RHS evaluations", s.rhs_evals.to_string()),
        ("Newton iterations", s.newton_iterations.to_string()),
    ];
    if s.jacobian_evals > 0 || s.lu_decompositions > 0 {
        rows.push((
            "Jacobians, LU",
            format!("{}, {}", s.jacobian_evals, s.lu_decompositions),
        ));
    }
    rows.extend([
        ("projections", s.projections.to_string()),
        ("max ‖Φ‖", sci(t.max_phi())),
        ("max ‖Φ̇‖", sci(t.max_phi_dot())),
        ("max ‖Φ̈‖", sci(t.max_phi_ddot())),
        ("energy balance residual", sci(t.energy_drift())),
        (
            "… in % of max T",
            sci(t.energy_error_percent_of_max_kinetic()),
        ),
    ]);
    let kw = rows.iter().map(|(k, _)| width(k)).max().unwrap_or(0);
    let vw = rows.iter().map(|(_, v)| width(v)).max().unwrap_or(0);
    let rule = |l: &str, m: &str, r: &str| {
        format!("{l}{}{m}{}{r}", "─".repeat(kw + 2), "─".repeat(vw + 2))
    };
    outln!("{}", rule("┌", "┬", "┐"));
    for (k, v) in &rows {
        let (pk, pv) = (" ".repeat(kw - width(k)), " ".repeat(vw - width(v)));
        outln!("│ {k}{pk} │ {v}{pv} │");
    }
    outln!("{}", rule("└", "┴", "┘"));
    if let Some(note) = t.stiffness_note() {
        outln!("{note}");
    }
}

/// Terminal columns of `s`: characters without the combining marks (the dot of
/// Φ̇ and Φ̈ combines with Φ into one column).
fn width(s: &str) -> usize {
    s.chars()
        .filter(|c| !matches!(*c as u32, 0x300..=0x36F | 0x20D0..=0x20FF))
        .count()
}
