//! Prints the conformance matrix (every method × {rk45, adams, own fixed-step rule}) on
//! the model files given as arguments `path:t_end:tol:h`, e.g.
//! `cargo run --release -p mbs --example conformance -- examples/models/bricard.toml:10:1e-10:1e-3`
//! (`MBS_NO_GUARD=1`: without the wrong-motion guard).

use mbs::conformance::{Case, Integration, Outcome, all_methods, reference, run_cell};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for arg in std::env::args().skip(1) {
        let parts: Vec<&str> = arg.split(':').collect();
        let [path, t_end, tol, h] = parts[..] else {
            return Err(format!("expected path:t_end:tol:h, got {arg}").into());
        };
        let model = mbs::load_model(path)?;
        let t_end: f64 = t_end.parse()?;
        let mut case = Case::new(path, model, t_end, tol.parse()?, h.parse()?);
        case.guard = std::env::var_os("MBS_NO_GUARD").is_none();
        if path.contains("andrews") {
            // millisecond time scale, as in tests/conformance.rs
            let tol = 1e3 * (case.h / 1e-3).powi(2);
            case = case.with_fixed_step_tol(tol);
        }
        if path.ends_with("n_four_bar.toml") {
            let exact = mbs::mechanisms::iftomm::NFourBar::default().exact_state(t_end);
            case = case.with_exact_end(exact);
        }
        let reference = reference(&case)?;
        println!("== {path} (t_end {t_end}, tol {tol}, h {h})");
        let (mut right, mut named, mut wrong) = (0, 0, 0);
        for method in all_methods() {
            for integration in Integration::ALL {
                let c = run_cell(&case, &reference, &method, integration);
                let detail = match &c.outcome {
                    Outcome::Right {
                        error,
                        energy_drift,
                    } => {
                        right += 1;
                        format!("err {error:.2e} dE {energy_drift:.2e}")
                    }
                    Outcome::Wrong {
                        error,
                        energy_drift,
                        allowed,
                    } => {
                        wrong += 1;
                        format!("err {error:.2e} > {allowed:.1e} dE {energy_drift:.2e}")
                    }
                    Outcome::NamedError { message } => {
                        named += 1;
                        message.chars().take(160).collect()
                    }
                };
                println!(
                    "{:<28} {:<22} {:<6} {:>8.3}s  {}",
                    c.method,
                    c.integrator,
                    c.outcome.label(),
                    c.wall_time,
                    detail
                );
            }
        }
        println!("-- right {right}, named error {named}, wrong {wrong}");
    }
    Ok(())
}
