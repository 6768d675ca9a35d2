"""The README's Python example runs as written (and does what its comments say)."""

from __future__ import annotations

import re


def test_readme_example_runs(root, capsys):
    text = (root / "README.md").read_text()
    section = text[text.index("## From Python"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) <= 10
    scope: dict = {}
    exec(compile(code, "README.md", "exec"), scope)
    traj, study = scope["traj"], scope["study"]
    assert traj.max_phi < 1e-6 and len(traj) == 201
    assert len(study) == 6 and (study["status"] == "ok").all()
    assert "energy_drift" in capsys.readouterr().out
