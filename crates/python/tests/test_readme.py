"""The README's Python blocks and the scripts in crates/python/examples run as a user
runs them: saved as a file and run with this environment's ``python`` in a fresh
directory (a Dask cluster started at import time, without ``if __name__ ==
"__main__":``, fails there and not under ``exec``). The shell blocks are run by
crates/mbs/tests/readme.rs, the Rust blocks by ``cargo test --doc``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[3]

# ``<!-- not run: why -->`` on the line before a block exempts it (as readme.rs reads it)
BLOCK = re.compile(r"^(?P<marker>[ \t]*<!--[^\n]*-->[ \t]*\n)?[ \t]*```python\n(?P<code>.*?)^[ \t]*```",
                   re.S | re.M)


def python_blocks() -> List[Tuple[int, str]]:
    """(line, code) of every Python block of README.md that is not marked ``not run``."""
    text = (ROOT / "README.md").read_text()
    out = []
    for m in BLOCK.finditer(text):
        if m.group("marker") and "not run:" in m.group("marker"):
            continue
        out.append((text.count("\n", 0, m.start("code")), m.group("code")))
    return out


def run_script(path: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(path), *args], cwd=path.parent,
                          capture_output=True, text=True, timeout=timeout)


def test_readme_has_python_blocks():
    assert python_blocks(), "README.md has no ```python block"


@pytest.mark.parametrize("how", ["file", "stdin"])
@pytest.mark.parametrize("line,code", python_blocks(), ids=lambda v: f"README.md:{v}" if isinstance(v, int) else "")
def test_readme_block_runs_as_a_script(tmp_path, line, code, how):
    """``python example.py`` and ``python - < example.py``."""
    script = tmp_path / "example.py"
    script.write_text(code)
    if how == "file":
        r = run_script(script)
    else:
        with open(script) as stdin:
            r = subprocess.run([sys.executable, "-"], stdin=stdin, cwd=tmp_path,
                               capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"README.md:{line} as {script} ({how}):\n{r.stdout}\n{r.stderr}"
    assert r.stdout.strip(), f"README.md:{line} printed nothing"
    # what the example's comments promise: the sweep's rows all ran
    if "mbs.sweep" in code:
        assert re.search(r"\bok\b", r.stdout) and "_error" not in r.stdout, r.stdout
    # a plotting example writes the PNG it names
    for name in re.findall(r'savefig\("([^"]+)"', code):
        png = (tmp_path / name).read_bytes()
        assert png.startswith(b"\x89PNG") and len(png) > 10_000, f"{name}: {len(png)} bytes"


EXAMPLES = {
    # script: arguments that keep it short
    "sweep_five_bar.py": ["--cases", "4", "--workers", "2", "--t-end", "0.2"],
}


def test_every_example_has_short_arguments():
    names = sorted(p.name for p in (ROOT / "crates/python/examples").glob("*.py"))
    assert names == sorted(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_runs_as_a_script(tmp_path, name):
    script = tmp_path / name
    script.write_text((ROOT / "crates/python/examples" / name).read_text())
    r = run_script(script, *EXAMPLES[name])
    assert r.returncode == 0, f"{name}:\n{r.stdout}\n{r.stderr}"
    assert "4 cases" in r.stdout, r.stdout
