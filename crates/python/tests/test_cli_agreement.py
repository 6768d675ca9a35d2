"""The Python package and the `mbs` CLI give the same numbers, to the last bit.

Each case runs `mbs run` (writing trajectory.csv, trajectory.json, multipliers.csv)
and `mbs.simulate` with the same inputs, then compares every column of the files with
the NumPy arrays bit for bit (the CLI writes the shortest decimal that reads back to
the same f64, so parsing its text must give the array's exact bits). Failures and bad
input give the CLI's message.
"""

from __future__ import annotations

import csv
import json
import subprocess
from pathlib import Path
from typing import Dict, List, Sequence

import numpy as np
import pytest

import mbs

# (model, method, CLI integrator arguments, Python integrator keyword arguments, t_end, samples)
CASES = [
    ("five-bar", "alf-index1", ["--integrator", "rk45", "--rtol", "1e-8", "--atol", "1e-9"],
     dict(integrator="rk45", rtol=1e-8, atol=1e-9), 0.5, 40),
    ("double-pendulum", "alf-index3", ["--integrator", "trapezoidal", "--h", "0.01"],
     dict(integrator="trapezoidal:h=0.01"), 0.5, 25),
    ("examples/models/four_bar.json", "lagrange-baumgarte:alpha_hat=5:beta_hat=5",
     ["--integrator", "adams", "--rtol", "1e-7"], dict(integrator="adams:rtol=1e-7"), 0.4, 20),
    ("mcpherson-simplified", "penalty", ["--integrator", "rk45"], dict(integrator="rk45"), 0.2, 10),
]


def run_cli(cli: Path, model: str, method: str, integ: Sequence[str], t_end: float, samples: int,
            out: Path, extra: Sequence[str] = (), cwd: Path = None) -> subprocess.CompletedProcess:
    cmd = [str(cli), "run", model, "--method", method, *integ, "--t-end", repr(t_end),
           "--samples", str(samples), "--out", str(out), "-q", *extra]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)


def read_csv(path: Path) -> Dict[str, np.ndarray]:
    """Columns of a CLI CSV file, parsed as Python floats (empty cells: NaN)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    return {h: np.array([float(r[j]) if r[j] != "" else np.nan for r in body])
            for j, h in enumerate(header)}


def assert_same_bits(expected, actual, what: str) -> None:
    """Equal to the last bit; a non-finite value on one side (written as an empty cell
    or JSON null) must be non-finite on the other."""
    e = np.asarray(expected, dtype=np.float64)
    a = np.asarray(actual, dtype=np.float64)
    assert e.shape == a.shape, f"{what}: shape {e.shape} vs {a.shape}"
    fe, fa = np.isfinite(e), np.isfinite(a)
    assert np.array_equal(fe, fa), f"{what}: non-finite entries differ"
    diff = np.flatnonzero(e[fe].view(np.uint64) != a[fa].view(np.uint64))
    assert diff.size == 0, (
        f"{what}: {diff.size} entries differ, first {e[fe][diff[0]]!r} vs {a[fa][diff[0]]!r}"
    )


def nan_for_none(x):
    if isinstance(x, list):
        return [nan_for_none(v) for v in x]
    return np.nan if x is None else x


def compare_files(out: Path, traj: mbs.Trajectory) -> int:
    """Compares the CLI's files in `out` with `traj`; returns the numbers compared."""
    compared = 0
    csv_cols = read_csv(out / "trajectory.csv")
    frame = traj.to_pandas()
    assert list(csv_cols) == [c for c in frame.columns if not c.startswith("lambda_")]
    for name, col in csv_cols.items():
        assert_same_bits(col, frame[name].to_numpy(), f"trajectory.csv `{name}`")
        compared += col.size
    doc = json.loads((out / "trajectory.json").read_text())
    assert doc["method"] == traj.method and doc["integrator"] == traj.integrator
    assert doc["model"] == traj.model and doc["failure"] == traj.failure
    assert doc["initial_assembly"] == traj.initial_assembly
    for key in ("t", "kinetic_energy", "potential_energy", "total_energy",
                "phi_norm", "phi_dot_norm", "phi_ddot_norm"):
        assert_same_bits(nan_for_none(doc[key]), getattr(traj, key), f"trajectory.json `{key}`")
        compared += len(doc[key])
    for i, body in enumerate(doc["bodies"]):
        assert body["name"] == traj.body_names[i]
        for key in ("position", "euler_params", "velocity", "omega"):
            assert_same_bits(body[key], getattr(traj, key)[:, i, :], f"{body['name']}.{key}")
            compared += getattr(traj, key)[:, i, :].size
    for key, value in doc["summary"].items():
        if key != "samples":
            assert_same_bits(nan_for_none(value), traj.summary[key], f"summary `{key}`")
    assert doc["summary"]["samples"] == len(traj)
    for key in ("accepted_steps", "rejected_steps", "rhs_evals", "newton_iterations", "projections"):
        assert doc["stats"][key] == traj.stats[key], key
    lam = [nan_for_none(l) if l is not None else [np.nan] * traj.multipliers.shape[1]
           for l in doc["multipliers"]]
    if traj.multipliers.shape[1]:
        assert_same_bits(lam, traj.multipliers, "trajectory.json multipliers")
        mcsv = read_csv(out / "multipliers.csv")
        # columns: `t [s]`, then one per row, labelled `<joint>.<row> [unit]`
        labels = list(mcsv)[1:]
        assert len(labels) == traj.multipliers.shape[1]
        for i, label in enumerate(labels):
            assert_same_bits(mcsv[label], traj.multipliers[:, i], f"multipliers.csv {label}")
            compared += traj.multipliers.shape[0]
    else:
        assert not (out / "multipliers.csv").exists()
    return compared


@pytest.mark.parametrize("model,method,cli_integ,py_integ,t_end,samples", CASES,
                         ids=[f"{c[0].split('/')[-1]}-{c[1].split(':')[0]}" for c in CASES])
def test_same_numbers_as_cli(cli, root, tmp_path, model, method, cli_integ, py_integ, t_end, samples):
    out = tmp_path / "cli"
    r = run_cli(cli, model, method, cli_integ, t_end, samples, out, cwd=root)
    assert r.returncode == 0, r.stderr
    path = root / model if model.endswith(".json") else model
    traj = mbs.simulate(path, method, t_end=t_end, samples=samples, **py_integ)
    assert len(traj) == samples + 1
    assert compare_files(out, traj) > 100


# (model, CLI arguments, mbs.simulate keyword arguments) with a method or integrator
# left out: both go through the facade's Simulation::choose and reach the same choice
DEFAULTS = [
    ("five-bar", [], {}),  # closed loop: the recommended method and its integrator
    ("double-pendulum", [], {}),  # open chain: another recommendation
    ("double-pendulum", ["--rtol", "1e-8"], dict(rtol=1e-8)),  # recommended integrator, at 1e-8
    ("five-bar", ["--method", "alf"], dict(method="alf")),  # a method without integrator: RK45
]


@pytest.mark.parametrize("model,args,kwargs", DEFAULTS,
                         ids=[f"{d[0]}{''.join(d[1]) or '-defaults'}" for d in DEFAULTS])
def test_defaults_same_as_cli(cli, tmp_path, model, args, kwargs):
    out = tmp_path / "cli"
    cmd = [str(cli), "run", model, *args, "--t-end", "0.3", "--samples", "30", "--out", str(out), "-q"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    traj = mbs.simulate(model, t_end=0.3, samples=30, **kwargs)
    assert compare_files(out, traj) > 100  # method and integrator strings included
    if "method" not in kwargs:
        assert traj.method != "alf-index1", "the recommendation, not a fixed default"
    if "rtol" in kwargs:
        assert "rtol=1e-8" in traj.integrator, traj.integrator


@pytest.mark.parametrize("t_end", [0.1, 2.0])
def test_default_integrator_follows_the_span_as_the_cli(cli, tmp_path, t_end):
    """The stiffness check of the default integrator is over the run's span: the
    bushing chain (largest |λ| ≈ 5.7e3 1/s) is stiff over 2 s (RADAU5) and not over
    0.1 s (|λ|·span ≈ 570 < 1e3), in Python as in the CLI."""
    model = "bushing-chain:n=4:k=1e6:c=10"
    out = tmp_path / "cli"
    cmd = [str(cli), "run", model, "--t-end", str(t_end), "--samples", "10", "--out", str(out), "-q"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    traj = mbs.simulate(model, t_end=t_end, samples=10)
    assert traj.integrator.startswith("radau5") == (t_end > 1.0), traj.integrator
    assert compare_files(out, traj) > 10


def test_edited_model_dict_same_as_cli_on_its_file(cli, tmp_path):
    """A model edited in Python and saved as a file: the CLI on the file and Python
    on the dict agree bit for bit (the JSON round trip is exact)."""
    m = mbs.Model.builtin("five-bar").copy()
    m.set_mass("body2", 1.37).set_inertia("body2", [0.21, 0.25, 0.3 + 1e-17])
    # a longer ground side: the initial state is assembled onto the constraints
    x = m.get("markers[joint5.j].position[0]")
    m.set("markers[joint5.j].position[0]", x * 1.01)
    path = tmp_path / "five_bar_edited.json"
    m.save(path)
    out = tmp_path / "cli"
    r = run_cli(cli, str(path), "alf", ["--integrator", "rk45", "--rtol", "1e-7"], 0.3, 30, out)
    assert r.returncode == 0, r.stderr
    traj = mbs.simulate(m.to_dict(), "alf", "rk45", rtol=1e-7, t_end=0.3, samples=30)
    assert traj.initial_assembly is not None and "assembled" in traj.initial_assembly
    assert compare_files(out, traj) > 100


def test_failed_run_same_message_and_partial_trajectory(cli, tmp_path):
    """A run that hits the step limit: exit code 1 and the samples before the failure
    on the CLI; SimulationError with the same message and the same samples in Python."""
    out = tmp_path / "cli"
    integ = ["--integrator", "rk45", "--rtol", "1e-10"]
    r = run_cli(cli, "five-bar", "alf-index1", integ, 1.0, 100, out, extra=["--max-steps", "60"])
    assert r.returncode == 1, r.stderr
    with pytest.raises(mbs.SimulationError) as info:
        mbs.simulate("five-bar", "alf-index1", "rk45", rtol=1e-10, t_end=1.0, samples=100, max_steps=60)
    e = info.value
    assert f"error: {e} (the samples before the failure were written)" in r.stderr.splitlines()
    assert e.t is not None and 0.0 < e.t < 1.0
    assert "step limit" in e.reason
    partial = e.trajectory
    assert 0 < len(partial) < 101 and partial.failure is not None
    assert compare_files(out, partial) > 10


BAD_INPUT = [
    (["five-bar", "--method", "alf-index9"], dict(model="five-bar", method="alf-index9"), mbs.MethodError),
    (["five-bar", "--method", "alf:alpha=-1"], dict(model="five-bar", method="alf:alpha=-1"), mbs.MethodError),
    (["five-bar", "--integrator", "rk99"], dict(model="five-bar", integrator="rk99"), mbs.MethodError),
    (["five-bar", "--integrator", "rk45", "--rtol=-1"], dict(model="five-bar", integrator="rk45", rtol=-1.0), mbs.MethodError),
    (["five-bar", "--integrator", "midpoint", "--rtol", "1e-6"],
     dict(model="five-bar", integrator="midpoint", rtol=1e-6), mbs.MethodError),
    (["five-bar", "--t-end=-1"], dict(model="five-bar", t_end=-1.0), mbs.MethodError),
    (["five-bars"], dict(model="five-bars"), mbs.ModelError),
    (["no/such/model.json"], dict(model="no/such/model.json"), mbs.ModelError),
]


@pytest.mark.parametrize("args,kwargs,exc", BAD_INPUT, ids=[" ".join(b[0][1:]) or b[0][0] for b in BAD_INPUT])
def test_bad_input_same_message_as_cli(cli, tmp_path, args, kwargs, exc):
    r = subprocess.run([str(cli), "run", *args, "--out", str(tmp_path / "o"), "-q"],
                       capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    model = kwargs.pop("model")
    with pytest.raises(exc) as info:
        mbs.simulate(model, **kwargs)
    assert r.stderr.strip() == f"error: {info.value}"


def test_negative_mass_file_same_message_as_cli(cli, tmp_path):
    m = mbs.Model.builtin("double-pendulum").copy().set_mass("link2", -2.5)
    path = tmp_path / "negative_mass.json"
    m.save(path)
    r = subprocess.run([str(cli), "run", str(path), "--out", str(tmp_path / "o"), "-q"],
                       capture_output=True, text=True)
    assert r.returncode == 2
    with pytest.raises(mbs.ModelError) as info:
        mbs.simulate(m)
    assert r.stderr.strip() == f"error: {info.value}"
    assert "`link2`" in str(info.value) and "-2.5" in str(info.value)
