"""Adversarial inputs to the Python API: every bad input raises an exception of the
documented kind (``mbs.ModelError``/``mbs.MethodError``, both ``ValueError``;
``TypeError`` for an argument of the wrong Python type) whose message names the
thing, and never crashes or hangs the interpreter; a sweep with one failing case
still returns every other case's results."""

from __future__ import annotations

import copy
import json
import math

import pytest

import mbs

# A run short enough for many cases.
SHORT = dict(t_end=0.01, samples=2)


def pendulum():
    """A one-body pendulum in the model-file schema."""
    return {
        "name": "pendulum",
        "gravity": [0.0, -9.81, 0.0],
        "bodies": [{"name": "bob", "mass": 1.0, "inertia": [0.01, 0.01, 0.01], "position": [1.0, 0.0, 0.0]}],
        "markers": [
            {"name": "O.ground", "body": "ground", "position": [0.0, 0.0, 0.0]},
            {"name": "O.bob", "body": "bob", "position": [-1.0, 0.0, 0.0]},
        ],
        "joints": [{"type": "revolute", "name": "O", "marker_i": "O.ground", "marker_j": "O.bob"}],
    }


def raises_naming(kind, needles, fn, *args, **kwargs):
    """`fn(*args, **kwargs)` raises `kind` with every needle in its message."""
    with pytest.raises(kind) as info:
        fn(*args, **kwargs)
    msg = str(info.value)
    for n in needles:
        assert n.lower() in msg.lower(), f"`{n}` not named in: {msg}"
    return info.value


# ---- wrong Python types ----------------------------------------------------------------


@pytest.mark.parametrize("model", [42, 3.5, None, [1, 2, 3], b"five-bar"])
def test_a_model_of_the_wrong_type(model):
    raises_naming((mbs.ModelError, TypeError), [type(model).__name__], mbs.simulate, model, **SHORT)


@pytest.mark.parametrize("method", [5, 3.5, ["alf"], b"alf"])
def test_a_method_of_the_wrong_type(method):
    raises_naming(TypeError, ["method"], mbs.simulate, "five-bar", method, **SHORT)


def test_no_method_is_the_recommended_one_everywhere():
    """``None`` is the documented default, not a wrong type: ``mbs.simulate`` and
    ``Model.simulate`` both run the recommended method and integrator."""
    a = mbs.simulate("five-bar", None, **SHORT)
    b = mbs.Model.builtin("five-bar").simulate(**SHORT)
    assert a.method == b.method and a.integrator == b.integrator
    assert (a.q == b.q).all()


@pytest.mark.parametrize(
    "kwargs,needle",
    [
        (dict(t_end="long"), "t_end"),
        (dict(samples="many"), "samples"),
        (dict(samples=2.5), "samples"),
        (dict(rtol="tight"), "rtol"),
        (dict(max_steps="lots"), "max_steps"),
        (dict(times="0,1"), "times"),
    ],
    ids=["t_end", "samples-str", "samples-float", "rtol", "max_steps", "times"],
)
def test_a_run_option_of_the_wrong_type(kwargs, needle):
    raises_naming((mbs.MethodError, TypeError), [needle], mbs.simulate, "five-bar", **{**SHORT, **kwargs})


# ---- unknown names -------------------------------------------------------------------------


def test_unknown_method_integrator_and_mechanism():
    raises_naming(mbs.MethodError, ["alf-index9", "alf-index1"], mbs.simulate, "five-bar", "alf-index9", **SHORT)
    raises_naming(mbs.MethodError, ["rk99", "rk45"], mbs.simulate, "five-bar", "alf", "rk99", **SHORT)
    raises_naming(mbs.ModelError, ["six-bar"], mbs.simulate, "six-bar", **SHORT)
    raises_naming(mbs.MethodError, ["bogus"], mbs.simulate, "five-bar", "alf:bogus=1", **SHORT)


# ---- NaN and negative sizes ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs,needle",
    [
        (dict(t_end=math.nan), "t_end"),
        (dict(t_end=-1.0), "t_end"),
        (dict(t_end=math.inf), "t_end"),
        (dict(samples=-5), "samples"),
        (dict(samples=0), "samples"),
        (dict(max_steps=-1), "max_steps"),
        (dict(rtol=math.nan), "rtol"),
        (dict(rtol=-1e-6), "rtol"),
        (dict(times=[0.0, math.nan]), "output time"),
    ],
    ids=["t_end-nan", "t_end-negative", "t_end-inf", "samples-negative", "samples-zero",
         "max_steps-negative", "rtol-nan", "rtol-negative", "times-nan"],
)
def test_a_run_option_out_of_range(kwargs, needle):
    raises_naming(mbs.MethodError, [needle], mbs.simulate, "five-bar", **{**SHORT, **kwargs})


@pytest.mark.parametrize("spec,needle", [("alf:alpha=nan", "alpha"), ("alf-index1:alpha=-1", "alpha"),
                                         ("penalty:alpha=inf", "alpha")])
def test_a_nan_or_negative_method_parameter(spec, needle):
    raises_naming(mbs.MethodError, [needle], mbs.simulate, "five-bar", spec, **SHORT)


def test_a_nan_integrator_parameter():
    raises_naming(mbs.MethodError, ["`h`", "nan"], mbs.simulate, "five-bar", "alf-index3", "trapezoidal:h=nan", **SHORT)


def test_a_billion_samples_is_refused():
    raises_naming(mbs.MethodError, ["samples"], mbs.simulate, "five-bar", t_end=0.01, samples=10**9)


@pytest.mark.parametrize("field,value", [("mass", math.nan), ("mass", -1.0), ("position", [math.nan, 0.0, 0.0]),
                                         ("inertia", [0.0, 0.0, 0.0])])
def test_a_bad_body_value_names_body_and_field(field, value):
    d = pendulum()
    d["bodies"][0][field] = value
    raises_naming(mbs.ModelError, ["bob"], mbs.simulate, d, **SHORT)


# ---- missing keys -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path,needle",
    # without `bodies` the markers refer to a body that is not there
    [(("bodies",), "bob"), (("bodies", 0, "mass"), "mass"), (("bodies", 0, "name"), "name"),
     (("markers", 1, "body"), "body"), (("joints", 0, "marker_j"), "marker_j"), (("joints", 0, "type"), "type")],
    ids=lambda p: "/".join(map(str, p)) if isinstance(p, tuple) else p,
)
def test_a_missing_key_is_named(path, needle, tmp_path):
    d = pendulum()
    node = d
    for step in path[:-1]:
        node = node[step]
    del node[path[-1]]
    raises_naming(mbs.ModelError, [needle], mbs.Model.from_dict, copy.deepcopy(d))
    raises_naming(mbs.ModelError, [needle], mbs.simulate, d, **SHORT)
    # the same through a file
    f = tmp_path / "model.json"
    f.write_text(json.dumps(d))
    raises_naming(mbs.ModelError, [needle], mbs.simulate, str(f), **SHORT)


def test_an_empty_or_truncated_model_file(tmp_path):
    for name, text in [("empty.json", ""), ("cut.json", '{"name": "x", "bodies": [{"na'),
                       ("junk.toml", "\x00\x01\x02 = = =")]:
        f = tmp_path / name
        f.write_text(text)
        with pytest.raises(mbs.ModelError) as info:
            mbs.simulate(str(f), **SHORT)
        msg = str(info.value)
        assert "line" in msg or "bodies" in msg or name in msg, msg


def test_an_empty_toml_model_file_is_refused(tmp_path):
    f = tmp_path / "empty.toml"
    f.write_text("")
    raises_naming(mbs.ModelError, ["bodies"], mbs.simulate, str(f), **SHORT)


def test_a_missing_model_file_is_named(tmp_path):
    f = tmp_path / "nowhere.toml"
    raises_naming(mbs.ModelError, ["nowhere.toml"], mbs.simulate, str(f), **SHORT)


# ---- a sweep with one failing case -------------------------------------------------------------


def test_a_sweep_with_one_failing_case_keeps_the_others():
    cases = [{"bodies[bob].mass": m} for m in (1.0, 2.0, math.nan, 3.0)]
    df = mbs.sweep(pendulum(), cases, method="alf-index1", t_end=0.05, samples=5, client="sync")
    assert list(df["status"]) == ["ok", "ok", "model_error", "ok"], df[["status", "error"]]
    assert "bob" in df.loc[2, "error"] and "nan" in df.loc[2, "error"].lower(), df.loc[2, "error"]
    assert df.loc[[0, 1, 3], "samples"].tolist() == [6, 6, 6]


def test_a_sweep_with_a_bad_run_option_keeps_the_others():
    cases = [{"t_end": 0.05}, {"t_end": math.nan}, {"samples": -3}, {"method": "nope"}]
    df = mbs.sweep(pendulum(), cases, method="alf-index1", samples=5, client="sync")
    assert df.loc[0, "status"] == "ok"
    assert list(df["status"])[1:] == ["method_error"] * 3, df[["status", "error"]]
    assert "t_end" in df.loc[1, "error"] and "samples" in df.loc[2, "error"] and "nope" in df.loc[3, "error"]
