#!/usr/bin/env bash
# The Python package's tests: installs it (scripts/setup/python.sh), builds the `mbs`
# CLI the agreement tests compare with (release, like the package), runs pytest on
# crates/python/tests. Extra arguments go to pytest (e.g. -k sweep).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup/python.sh"
cargo build --release --quiet -p mbs --bin mbs
export MBS_CLI="$root/target/release/mbs"
cd "$root"
exec "$root/target/py-venv/bin/python" -m pytest crates/python/tests "$@"
