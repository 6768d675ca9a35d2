"""Models from names, files and dicts; parameter edits reach the simulation."""

from __future__ import annotations

import numpy as np
import pytest

import mbs


def test_sources_agree(root):
    by_name = mbs.Model.load("five-bar")
    assert by_name.name == "five-bar" and len(by_name.body_names) == 4
    d = by_name.to_dict()
    from_dict = mbs.Model.from_dict(d)
    assert from_dict.to_dict() == d
    f = mbs.Model.load(root / "examples" / "models" / "double_pendulum.toml")
    assert f.body_names and f.data["bodies"][0]["mass"] > 0
    names = [n for n, _ in mbs.builtins()]
    assert "five-bar" in names and "mcpherson-simplified" in names
    assert "alf-index1" in [n for n, _ in mbs.methods()]
    assert "rk45" in [n for n, _ in mbs.integrators()]


def test_builtin_and_its_dict_simulate_identically():
    a = mbs.simulate("five-bar", "alf-index1", t_end=0.2, samples=10)
    b = mbs.simulate(mbs.Model.builtin("five-bar").to_dict(), "alf-index1", t_end=0.2, samples=10)
    np.testing.assert_array_equal(a.q, b.q)
    np.testing.assert_array_equal(a.total_energy, b.total_energy)


def test_get_set_paths():
    m = mbs.Model.builtin("five-bar").copy()
    x = m.get("markers[joint5.j].position[0]")
    assert x > 0
    m.set("markers[joint5.j].position[0]", 2 * x)
    assert m.marker("joint5.j")["position"][0] == 2 * x
    m.set("bodies[body1].velocity[1]", 0.5)
    assert m.body("body1")["velocity"] == [0.0, 0.5, 0.0]
    m.set("gravity[1]", -1.62)
    assert m.get("gravity") == [0.0, -1.62, 0.0]
    m.update({"bodies[body2].mass": np.float64(3.0), "bodies[body3].inertia": np.array([0.1, 0.2, 0.3])})
    assert m.body("body2")["mass"] == 3.0 and m.body("body3")["inertia"] == [0.1, 0.2, 0.3]
    m.validate()


def test_mass_edit_changes_energy_as_expected():
    """Doubling every mass (and inertia) of a gravity-only mechanism doubles its energies
    and leaves the motion unchanged."""
    base = mbs.Model.builtin("double-pendulum")
    heavy = base.copy()
    for b in heavy.body_names:
        heavy.set_mass(b, 2 * heavy.body(b)["mass"])
        inertia = heavy.body(b)["inertia"]
        heavy.set_inertia(b, np.multiply(2.0, inertia))
    kw = dict(method="alf-index1", integrator="rk45:rtol=1e-10:atol=1e-10", t_end=0.3, samples=6)
    a, b = base.simulate(**kw), heavy.simulate(**kw)
    np.testing.assert_allclose(b.position, a.position, atol=1e-8)
    np.testing.assert_allclose(b.kinetic_energy, 2 * a.kinetic_energy, rtol=1e-7, atol=1e-9)


def test_spring_constant_edit_reaches_the_run():
    """Andrews' squeezer: a stiffer spring changes the motion and the spring energy."""
    m = mbs.Model.builtin("andrews-squeezer")
    k = m.force("spring-DC")["stiffness"]
    assert k == m.get("forces[spring-DC].stiffness") == 4530.0
    stiff = m.copy().set_force("spring-DC", stiffness=4 * k)
    kw = dict(method="alf-index1", t_end=1e-3, samples=5)
    a, b = m.simulate(**kw), stiff.simulate(**kw)
    assert not np.array_equal(a.q, b.q)
    assert m.force("spring-DC")["stiffness"] == k  # the original is unchanged


def test_initial_velocity_edit_and_check():
    m = mbs.Model.builtin("double-pendulum").copy()
    first = m.body_names[0]
    report = m.check()
    assert report["bodies"] == len(m.body_names)
    assert "bodies" in m.check_text().lower()
    still = m.simulate("alf-index1", t_end=0.05, samples=1)
    m.set_initial(first, omega=[0.0, 0.0, 3.0])
    moving = m.simulate("alf-index1", t_end=0.05, samples=1)
    assert moving.kinetic_energy[0] > still.kinetic_energy[0] + 1e-3


def test_trajectory_arrays_are_consistent():
    tr = mbs.simulate("double-pendulum", "alf-index3", "trapezoidal:h=0.01", t_end=0.2, samples=20)
    n, nb = len(tr), tr.n_bodies
    assert tr.q.shape == (n, 7 * nb) and tr.v.shape == (n, 7 * nb)
    assert tr.position.shape == (n, nb, 3) and tr.euler_params.shape == (n, nb, 4)
    np.testing.assert_array_equal(tr.q[:, 0:3], tr.position[:, 0, :])
    np.testing.assert_array_equal(tr.q[:, 3:7], tr.euler_params[:, 0, :])
    np.testing.assert_allclose(np.linalg.norm(tr.euler_params, axis=2), 1.0, atol=1e-9)
    np.testing.assert_array_equal(tr.total_energy, tr.kinetic_energy + tr.potential_energy)
    assert tr.multipliers.shape[0] == n and tr.multipliers.shape[1] > 0
    df = tr.to_pandas()
    assert len(df) == n and f"{tr.body_names[1]}.wz" in df and "lambda_0" in df
    assert tr.joints is not None and all(v.shape == (n,) for v in tr.joints.values())
    assert not tr.q.flags.writeable


def test_joint_results_balance_the_ground_pivot():
    """The reaction of the ground pivot of the double pendulum plus gravity equals the
    rate of the bodies' momentum (central differences of the sampled velocities)."""
    model = mbs.Model.builtin("double-pendulum")
    d = model.to_dict()
    on_ground = {m["name"] for m in d["markers"] if m["body"] == "ground"}
    pivot = next(j for j in d["joints"] if j["marker_i"] in on_ground or j["marker_j"] in on_ground)
    tr = mbs.simulate(model, "alf-index1", "rk45", rtol=1e-11, atol=1e-11, t_end=0.5, samples=500)
    j = tr.joints
    name = pivot["name"]
    for q in ("angle [rad]", "angle_rate [rad/s]", "force_x [N]", "torque_joint_z [N·m]"):
        assert f"{name}.{q}" in j, sorted(j)
    assert any(k.startswith(f"lambda.{name}.point_x") for k in j)
    force = np.stack([j[f"{name}.force_{c} [N]"] for c in "xyz"], axis=1)
    if pivot["marker_i"] not in on_ground:  # the reaction is on body j: make it on the chain
        force = -force
    masses = np.array([b["mass"] for b in d["bodies"]])
    g = np.array(d.get("gravity", [0.0, -9.81, 0.0]))
    momentum = np.einsum("b,kbc->kc", masses, tr.velocity)
    rate = (momentum[2:] - momentum[:-2]) / (tr.t[2:] - tr.t[:-2])[:, None]
    balance = force[1:-1] + masses.sum() * g
    scale = np.abs(balance).max()
    assert np.abs(rate - balance).max() < 1e-3 * scale, np.abs(rate - balance).max() / scale
    b = tr.energy_balance
    assert b is not None and abs(tr.summary["energy_drift"] - np.abs(b["residual"]).max()) == 0.0


def test_mass_properties_computed_from_shapes_and_given(root):
    shaped = mbs.Model.load(root / "examples" / "models" / "pendulum_with_shapes.toml")
    props = shaped.mass_properties()
    assert set(props) == set(shaped.body_names)
    computed = [p for p in props.values() if p["source"] == "computed_from_shapes"]
    assert computed, props
    for p in computed:
        assert p["mass"] > 0
        inertia = np.array(p["inertia"])
        assert inertia.shape == (3, 3) and np.all(np.linalg.eigvalsh(inertia) > 0)
    given = mbs.Model.load("five-bar")
    link = given.body_names[0]
    p = given.mass_properties(link)
    assert p["source"] == "given" and p["mass"] == given.body(link)["mass"]
    with pytest.raises(mbs.ModelError, match="nope"):
        given.mass_properties("nope")
