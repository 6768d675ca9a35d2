//! `cargo xtask`: project automation (benchmark suites and reports).

use std::process::ExitCode;

const HELP: &str = "\
cargo xtask <COMMAND>

Commands:
  bench [--suite dca|hdca|alf|chiou|complement|scaling|consistency] [--quick]
        run the paper reproductions and method comparisons, write target/bench-report/
  help  print this message
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--").collect();
    match args.first().map(String::as_str) {
        None | Some("help" | "--help" | "-h") => {
            print!("{HELP}");
            ExitCode::SUCCESS
        }
        Some("bench") => {
            eprintln!("bench: no suite is implemented yet");
            ExitCode::FAILURE
        }
        Some(other) => {
            eprintln!("unknown command `{other}`\n\n{HELP}");
            ExitCode::from(2)
        }
    }
}
