"""Parameter studies on Dask: every case is a row, failures included."""

from __future__ import annotations


import numpy as np
import pandas as pd
import pytest

import mbs
from mbs.sweep import METRICS, run_case

GROUND = "markers[joint5.j].position[0]"


def lengthen(model, scale):
    """Scales the ground side of the five-bar (the distance of its ground joints)."""
    x = model.get(GROUND)
    model.set(GROUND, x * scale)


def broken_edit(model, scale):
    raise RuntimeError("this edit fails on purpose")


def test_grid_and_sample():
    g = mbs.grid({"a": [1, 2]}, b=["x", "y", "z"])
    assert len(g) == 6 and g[0] == {"a": 1, "b": "x"} and g[-1] == {"a": 2, "b": "z"}
    s = mbs.sample(16, {"k": (1.0, 2.0), "m": (1e-3, 1e3), "method": ["alf", "penalty"]}, seed=3, log=["m"])
    assert len(s) == 16 and all(1.0 <= c["k"] < 2.0 and 1e-3 <= c["m"] < 1e3 for c in s)
    # Latin hypercube: one sample in each sixteenth of the range
    strata = sorted(int((c["k"] - 1.0) * 16) for c in s)
    assert strata == list(range(16))
    assert s == mbs.sample(16, {"k": (1.0, 2.0), "m": (1e-3, 1e3), "method": ["alf", "penalty"]}, seed=3, log=["m"])


def test_sweep_on_local_cluster_keeps_every_row(dask_client, tmp_path):
    """Two workers; among the cases a negative mass (model error), an unknown method
    (method error), a step limit (failed simulation) and an edit that raises."""
    cases = [{GROUND: 0.2 * s} for s in (0.96, 0.98, 1.0, 1.02, 1.04)]
    cases += [
        {GROUND: 0.2, "bodies[body2].mass": -1.0},
        {GROUND: 0.2, "method": "alf-index9"},
        {GROUND: 0.2, "max_steps": 20, "integrator": "rk45:rtol=1e-12"},
    ]
    df = mbs.sweep("five-bar", cases, method="alf-index1", t_end=0.3, samples=30,
                   client=dask_client, trajectories=tmp_path / "traj")
    assert isinstance(df, pd.DataFrame)
    assert list(df["case"]) == list(range(len(cases)))
    assert list(df.columns[:4]) == ["case", GROUND, "bodies[body2].mass", "method"]
    for m in METRICS:
        assert m in df.columns
    status = list(df["status"])
    assert status[:5] == ["ok"] * 5
    assert status[5:] == ["model_error", "method_error", "simulation_error"]
    assert "body `body2`" in df.loc[5, "error"] and "-1" in df.loc[5, "error"]
    assert "alf-index9" in df.loc[6, "error"]
    assert "step limit" in df.loc[7, "error"] and df.loc[7, "failure_time"] > 0
    assert df.loc[7, "samples"] >= 1  # the partial trajectory's metrics
    ok = df[df.status == "ok"]
    assert ok["error"].isna().all()
    assert (ok["max_phi"] < 1e-5).all() and (ok["rhs_evals"] > 0).all()
    assert (ok["samples"] == 31).all() and np.allclose(ok["t_final"], 0.3)
    # the work was spread over the two workers' processes
    assert df["worker"].nunique() == 2
    # results do not depend on where a case ran: same bits as in this process
    direct = mbs.Model.builtin("five-bar").copy().update(cases[1]).simulate("alf-index1", t_end=0.3, samples=30)
    assert df.loc[1, "energy_drift"] == direct.energy_drift
    assert df.loc[1, "final_q_norm"] == float(np.linalg.norm(direct.q[-1]))
    # trajectories on Parquet
    frame = pd.read_parquet(df.loc[1, "trajectory_file"])
    pd.testing.assert_frame_equal(frame, direct.to_pandas())
    assert pd.isna(df.loc[5, "trajectory_file"])


def test_edit_function_and_failing_edit(dask_client):
    df = mbs.sweep("five-bar", {"scale": [0.98, 1.0, 1.02]}, edit=lengthen, t_end=0.2,
                   samples=10, client=dask_client)
    assert list(df["status"]) == ["ok"] * 3
    assert df["energy_drift"].notna().all()
    bad = mbs.sweep("five-bar", {"scale": [1.0, 1.01]}, edit=broken_edit, t_end=0.2,
                    samples=10, client=dask_client, metrics=lambda tr: {"e_end": tr.total_energy[-1]})
    assert list(bad["status"]) == ["error", "error"]
    assert (bad["error"] == "RuntimeError: this edit fails on purpose").all()
    assert "e_end" not in bad.columns or bad["e_end"].isna().all()


def test_sync_matches_dask_and_metrics_hook(dask_client):
    cases = mbs.sample(4, {"scale": (0.97, 1.03)}, seed=1)
    kw = dict(edit=lengthen, t_end=0.2, samples=10, metrics=lambda tr: {"e_end": float(tr.total_energy[-1])})
    a = mbs.sweep("five-bar", pd.DataFrame(cases), client="sync", **kw)
    b = mbs.sweep("five-bar", cases, client=dask_client, **kw)
    for col in ("energy_drift", "max_phi", "rhs_evals", "final_q_norm", "final_v_norm", "e_end"):
        assert list(a[col]) == list(b[col]), col


def test_run_case_never_raises():
    row = run_case(3, {"bodies[nobody].mass": 1.0}, mbs.Model.builtin("five-bar").to_dict())
    assert row["status"] == "model_error" and "nobody" in row["error"] and row["case"] == 3
    assert row["max_phi"] is None and row["samples"] is None
