//! The adversarial suite: bad model files, bad command lines and interrupted runs
//! must end in a clear error (naming the element and the value, exit code 2 for bad
//! input) or a whole output directory, never in a panic, an abort, a hang or a
//! half-written directory.
//!
//! - `fuzz_models`: a few thousand deterministic mutations of the example models and
//!   the built-ins written out (`mutate`), judged by the named-error rule (`rule`);
//! - `cli_cases`: named bad inputs through the real binary, with exit codes and
//!   messages;
//! - `output_dir`: the output-directory contract (`support::assert_output_dir_whole`).

mod cli_cases;
mod fuzz_models;
mod mutate;
mod output_dir;
mod rule;
mod support;
