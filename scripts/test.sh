#!/usr/bin/env bash
# The test command of README.md (and of CI): installs what the tests need with the
# project's own scripts, then runs every test.
#   1. Debian's chromium for the browser test of the 3-D animation (scripts/setup/chromium.sh);
#   2. `cargo test --workspace` with the browser test required (MBS_REQUIRE_BROWSER=1),
#      then `cargo doc` with warnings as errors;
#   3. the Python package in a virtual environment under target/py-venv (maturin, NumPy,
#      pandas, Dask) and its pytest suite, Dask LocalCluster included
#      (scripts/test-python.sh).
# Extra arguments go to `cargo test` (e.g. `scripts/test.sh -p mbs-alf`); with
# arguments the Python tests are skipped.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash scripts/setup/chromium.sh
export MBS_REQUIRE_BROWSER=1
if [ "$#" -gt 0 ]; then
    exec cargo test "$@"
fi
cargo test --workspace
# the API documentation builds without a warning (broken or private links, bare units)
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
bash scripts/test-python.sh
