"""Bad input raises a Python exception of the small hierarchy, naming the element and
the value; a failed simulation carries its time and partial trajectory."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

import mbs


def pendulum(**body_fields):
    """A one-body pendulum in the model-file schema."""
    body = {"name": "bob", "mass": 1.0, "inertia": [0.01, 0.01, 0.01], "position": [1.0, 0.0, 0.0]}
    body.update(body_fields)
    return {
        "name": "pendulum",
        "gravity": [0.0, -9.81, 0.0],
        "bodies": [body],
        "markers": [
            {"name": "O.ground", "body": "ground", "position": [0.0, 0.0, 0.0]},
            {"name": "O.bob", "body": "bob", "position": [-1.0, 0.0, 0.0]},
        ],
        "joints": [{"type": "revolute", "name": "O", "marker_i": "O.ground", "marker_j": "O.bob"}],
    }


def test_hierarchy():
    for cls in (mbs.ModelError, mbs.MethodError, mbs.SimulationError):
        assert issubclass(cls, mbs.MbsError)
    assert issubclass(mbs.ModelError, ValueError) and issubclass(mbs.MethodError, ValueError)
    assert issubclass(mbs.SimulationError, RuntimeError)


def test_valid_dict_runs():
    traj = mbs.simulate(pendulum(), "alf-index1", "rk45:rtol=1e-9:atol=1e-9", t_end=0.5, samples=10)
    assert len(traj) == 11
    # it swings down on a circle of radius 1 about the origin
    r = np.linalg.norm(traj.position[:, 0, :2], axis=1)
    np.testing.assert_allclose(r, 1.0, atol=1e-7)
    assert traj.position[-1, 0, 1] < -0.1
    assert traj.energy_drift < 1e-6


@pytest.mark.parametrize("mass", [-2.5, 0.0])
def test_negative_mass_names_body_and_value(mass):
    with pytest.raises(mbs.ModelError) as info:
        mbs.Model.from_dict(pendulum(mass=mass))
    msg = str(info.value)
    assert "body `bob`" in msg and f"got {mass:g}" in msg, msg


def test_non_finite_mass_names_path():
    with pytest.raises(mbs.ModelError) as info:
        mbs.simulate(pendulum(mass=math.nan))
    assert "bodies[bob].mass" in str(info.value) and "nan" in str(info.value)


@pytest.mark.parametrize(
    "edit,needle",
    [
        (lambda d: d["bodies"][0].pop("mass"), "mass"),  # missing field
        (lambda d: d["bodies"][0].update(dampng=1.0), "dampng"),  # unknown field
        (lambda d: d["bodies"][0].update(mass="one"), "one"),  # wrong type
        (lambda d: d["joints"][0].update(marker_j="O.bobb"), "O.bobb"),  # unknown reference
        (lambda d: d["joints"][0].update(type="hinge"), "hinge"),  # unknown joint type
    ],
    ids=["missing-field", "unknown-field", "wrong-type", "unknown-reference", "unknown-type"],
)
def test_malformed_dict(edit, needle):
    d = pendulum()
    edit(d)
    with pytest.raises(mbs.ModelError) as info:
        mbs.Model.from_dict(d)
    assert needle in str(info.value), str(info.value)
    with pytest.raises(mbs.ModelError):
        mbs.simulate(d)


def test_not_a_dict():
    with pytest.raises(mbs.ModelError):
        mbs.Model.from_dict([1, 2, 3])  # type: ignore[arg-type]
    with pytest.raises(mbs.ModelError):
        mbs.Model.from_json("{ not json")


def test_unknown_method_lists_valid_ones():
    with pytest.raises(mbs.MethodError) as info:
        mbs.simulate(pendulum(), "alf-index9")
    msg = str(info.value)
    assert "`alf-index9`" in msg and "alf-index1" in msg and "hdca" in msg


def test_bad_method_parameter_names_it():
    with pytest.raises(mbs.MethodError) as info:
        mbs.simulate(pendulum(), "alf:alpha=-3")
    assert "alpha" in str(info.value) and "-3" in str(info.value)


def test_unknown_integrator_and_bad_step():
    with pytest.raises(mbs.MethodError, match="rk99"):
        mbs.simulate(pendulum(), "alf", "rk99")
    with pytest.raises(mbs.MethodError, match="-0.1"):
        mbs.simulate(pendulum(), "alf-index3", "trapezoidal:h=-0.1")


def test_bad_edit_paths():
    m = mbs.Model(pendulum())
    with pytest.raises(mbs.ModelError, match="no element `rod`"):
        m.set("bodies[rod].mass", 2.0)
    with pytest.raises(mbs.ModelError, match="index 5"):
        m.set("bodies[bob].position[5]", 2.0)
    with pytest.raises(mbs.ModelError, match="no body `rod`; bodies: bob"):
        m.set_mass("rod", 1.0)
    with pytest.raises(mbs.ModelError, match="cannot read"):
        m.set("bodies[bob]..mass", 1.0)


def test_simulation_error_carries_time_and_partial_trajectory():
    with pytest.raises(mbs.SimulationError) as info:
        mbs.simulate("five-bar", "alf-index1", "rk45", rtol=1e-10, t_end=1.0, samples=100, max_steps=60)
    e = info.value
    assert str(e).startswith("simulation failed: at t = ")
    assert e.t is not None and e.t > 0
    tr = e.trajectory
    assert isinstance(tr, mbs.Trajectory) and 0 < len(tr) < 101
    assert tr.t[-1] <= e.t and tr.failure is not None
    # it survives pickling (e.g. across processes) with its trajectory
    e2 = pickle.loads(pickle.dumps(e))
    assert str(e2) == str(e) and e2.t == e.t
    np.testing.assert_array_equal(e2.trajectory.q, tr.q)
