#!/usr/bin/env bash
# Installs the Python package `mbs` (crates/python: PyO3 extension + pure-Python parts)
# and its test dependencies into a virtual environment under target/py-venv.
#
#   bash scripts/setup/python.sh      # then: target/py-venv/bin/python -c 'import mbs'
#
# Idempotent: the environment is created once, the pinned requirements
# (crates/python/requirements.txt) are installed again only when that file changes,
# and `maturin develop --release` rebuilds only what cargo finds changed.
# Needs: python3 (≥ 3.9; PYTHON=… to choose), the Rust toolchain, PyPI.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/target/py-venv"
req="$root/crates/python/requirements.txt"
python="${PYTHON:-$(command -v python3.11 || command -v python3)}"

if [ ! -x "$venv/bin/python" ]; then
    echo "python: creating $venv with $("$python" --version)"
    "$python" -m venv "$venv"
fi
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$req" | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
    echo "python: installing $req"
    "$venv/bin/pip" install --disable-pip-version-check --quiet -r "$req"
    echo "$want" >"$stamp"
fi
echo "python: maturin develop --release (crates/python)"
cd "$root/crates/python"
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" "$venv/bin/maturin" develop --release --quiet
"$venv/bin/python" -c 'import mbs; print(f"python: mbs {mbs.__version__} installed in target/py-venv")'
