"""Models: loading (built-in name, file, dict) and editing parameters.

A :class:`Model` holds the model as a dict in the schema of the JSON model files
(``crates/model/SCHEMA.md``: ``name``, ``gravity``, ``bodies``, ``markers``, ``joints``,
``forces``, ``drivers``). Edits change that dict; the Rust side validates it when it is
simulated (or on :meth:`Model.validate`), with the messages of the CLI.
"""

from __future__ import annotations

import copy
import json
import math
import os
import re
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from . import _mbs
from ._errors import ModelError

__all__ = ["Model", "ModelLike"]

#: The lists of named elements of a model dict.
KINDS = ("bodies", "markers", "joints", "forces", "drivers")
_SINGULAR = {"bodies": "body", "markers": "marker", "joints": "joint", "forces": "force", "drivers": "driver"}
#: Vector fields whose absence means zero (so that ``velocity[0]`` can be set).
_ZERO_VECTORS = ("gravity", "position", "velocity", "omega")

_TOKEN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)|\[([^\]]*)\]|(\.)")


def _parse_path(path: str) -> List[Union[str, Tuple[str]]]:
    """``"markers[B.link2].position[0]"`` → ``["markers", ("B.link2",), "position", ("0",)]``:
    plain keys as strings, bracketed selectors as 1-tuples."""
    out: List[Union[str, Tuple[str]]] = []
    pos = 0
    expect_key = True
    while pos < len(path):
        m = _TOKEN.match(path, pos)
        if m is None or (m.group(1) and not expect_key) or (m.group(3) and expect_key):
            raise ModelError(f"edit `{path}`: cannot read the path at character {pos + 1}")
        if m.group(1):
            out.append(m.group(1))
            expect_key = False
        elif m.group(2) is not None:
            if not out:
                raise ModelError(f"edit `{path}`: a path starts with a field name")
            out.append((m.group(2),))
            expect_key = False
        else:
            expect_key = True
        pos = m.end()
    if not out or expect_key:
        raise ModelError(f"edit `{path}`: incomplete path")
    return out


def _joint_values(values: Optional[Mapping[str, Any]]) -> Optional[Dict[str, List[float]]]:
    """Joint name → list of floats (a single number becomes a one-element list)."""
    if values is None:
        return None
    return {str(k): [float(x) for x in (v if isinstance(v, (list, tuple)) else [v])] for k, v in values.items()}


class Model:
    """A multibody model, held as a dict in the JSON model-file schema.

    Build one with :meth:`load` (built-in name or ``.json``/``.toml`` file),
    :meth:`builtin` or :meth:`from_dict`; edit it with the ``set_*`` methods or
    :meth:`set` (a path such as ``"bodies[link1].mass"``); run it with
    :meth:`simulate`. Editing methods change the model in place and return it, so they
    chain; :meth:`copy` first to keep the original.

    >>> m = Model.builtin("five-bar").copy()
    >>> m.set_mass("body1", 2.0).set("markers[joint2.body1].position[0]", 0.11)  # doctest: +SKIP
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        if not isinstance(data, Mapping):
            raise ModelError(f"model: expected a dict in the model-file schema, got {type(data).__name__}")
        self._data: Dict[str, Any] = copy.deepcopy(dict(data))

    # -- construction ---------------------------------------------------------------

    @classmethod
    def load(
        cls,
        spec: Union[str, "os.PathLike[str]"],
        *,
        q0: Optional[Mapping[str, Any]] = None,
        v0: Optional[Mapping[str, Any]] = None,
        package_path: Optional[Sequence[Union[str, "os.PathLike[str]"]]] = None,
        floating_base: bool = False,
    ) -> "Model":
        """A built-in mechanism name (``mbs.builtins()``), a ``.json``/``.toml`` model
        file, or a URDF (``.urdf``) or MJCF (``.xml``) file; ``ModelError`` with the
        CLI's message otherwise.

        For URDF and MJCF: `q0` and `v0` map joint names to initial positions and
        velocities (a number, or a list for ball and floating joints, as ``mbs run
        --q0``); `package_path` lists directories searched for ``package://`` meshes;
        `floating_base` attaches a URDF's root with a floating joint. The import's
        report (link → body map, what is not honoured) is :attr:`import_report`."""
        paths = None if package_path is None else [os.fspath(p) for p in package_path]
        text, report = _mbs.load_model_with(
            os.fspath(spec), _joint_values(q0), _joint_values(v0), paths, floating_base
        )
        model = cls(json.loads(text))
        model._import_report = None if report is None else json.loads(report)
        return model

    @property
    def import_report(self) -> Optional[Dict[str, Any]]:
        """For a model loaded from URDF or MJCF: ``{"format", "links": [[link, body or
        None], …], "notes": [{"element", "note"}, …]}``; else ``None``."""
        return getattr(self, "_import_report", None)

    @classmethod
    def builtin(cls, name: str) -> "Model":
        """The built-in mechanism `name` (e.g. ``"five-bar"``)."""
        return cls.load(name)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Model":
        """A model from a dict in the JSON model-file schema, validated now
        (``ModelError`` naming the element and the value)."""
        return cls(data).validate()

    @classmethod
    def from_json(cls, text: str) -> "Model":
        """A model from JSON text in the model-file schema, validated now."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ModelError(f"model: JSON model, line {e.lineno}, column {e.colno}: {e.msg}") from None
        return cls.from_dict(data)

    def copy(self) -> "Model":
        """An independent copy."""
        return Model(self._data)

    # -- access -----------------------------------------------------------------------

    @property
    def data(self) -> Dict[str, Any]:
        """The model dict itself (edits to it change the model)."""
        return self._data

    def to_dict(self) -> Dict[str, Any]:
        """A deep copy of the model dict."""
        return copy.deepcopy(self._data)

    def to_json(self) -> str:
        """The model as JSON text (every number in its shortest exact form, so the Rust
        side reads back the same ``f64``). ``ModelError`` for a non-finite number or a
        value JSON cannot hold, naming where it is."""
        bad = next(_non_finite(self._data, ""), None)
        if bad is not None:
            raise ModelError(f"model: `{bad[0]}` must be a finite number, got {bad[1]}")
        try:
            return json.dumps(self._data, default=_json_default, allow_nan=False)
        except TypeError as e:
            raise ModelError(f"model: {e}") from None

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the model as a ``.json`` model file (readable by ``mbs run FILE``)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json())

    @property
    def name(self) -> str:
        """The model name."""
        return self._data.get("name", "")

    def names(self, kind: str) -> List[str]:
        """Names of the elements of `kind` (``"bodies"``, ``"markers"``, ``"joints"``,
        ``"forces"``, ``"drivers"``)."""
        if kind not in KINDS:
            raise ModelError(f"model: no element kind `{kind}`; kinds: {', '.join(KINDS)}")
        return [e.get("name", "") for e in self._data.get(kind, [])]

    @property
    def body_names(self) -> List[str]:
        """Body names, in body order."""
        return self.names("bodies")

    def element(self, kind: str, name: str) -> Dict[str, Any]:
        """The dict of the element `name` of `kind` (live: edits change the model)."""
        for e in self._data.get(kind, []):
            if e.get("name") == name:
                return e
        if kind not in KINDS:
            raise ModelError(f"model: no element kind `{kind}`; kinds: {', '.join(KINDS)}")
        raise ModelError(
            f"model `{self.name}`: no {_SINGULAR[kind]} `{name}`; {kind}: "
            f"{', '.join(self.names(kind)) or '(none)'}"
        )

    def body(self, name: str) -> Dict[str, Any]:
        """The body `name` (live dict)."""
        return self.element("bodies", name)

    def marker(self, name: str) -> Dict[str, Any]:
        """The marker `name` (live dict)."""
        return self.element("markers", name)

    def joint(self, name: str) -> Dict[str, Any]:
        """The joint `name` (live dict)."""
        return self.element("joints", name)

    def force(self, name: str) -> Dict[str, Any]:
        """The force element `name` (live dict)."""
        return self.element("forces", name)

    # -- edits ------------------------------------------------------------------------

    def get(self, path: str) -> Any:
        """The value at `path`, e.g. ``"bodies[link1].mass"``,
        ``"markers[A.link2].position[0]"``, ``"forces[spring].stiffness"``,
        ``"gravity[1]"``: field names separated by dots, an element of ``bodies`` …
        ``drivers`` selected by ``[name]``, a vector component by ``[index]``."""
        parent, key = self._resolve(path, create=False)
        try:
            return parent[key]
        except (KeyError, IndexError):
            raise ModelError(f"edit `{path}`: no such field") from None

    def set(self, path: str, value: Any) -> "Model":
        """Sets the value at `path` (see :meth:`get`); a missing field of the element is
        added (``velocity``/``omega``/``position``/``gravity`` start from zero)."""
        parent, key = self._resolve(path, create=True)
        try:
            parent[key] = _plain(value)
        except IndexError:
            raise ModelError(f"edit `{path}`: index {key} out of range (length {len(parent)})") from None
        return self

    def update(self, edits: Mapping[str, Any]) -> "Model":
        """Applies several :meth:`set` edits ``{path: value}``."""
        for path, value in edits.items():
            self.set(path, value)
        return self

    def set_mass(self, body: str, mass: float) -> "Model":
        """Sets the mass of `body`."""
        self.body(body)["mass"] = _plain(mass)
        return self

    def set_inertia(self, body: str, inertia: Sequence[Any]) -> "Model":
        """Sets the centroidal inertia of `body`: principal moments ``[Jxx, Jyy, Jzz]``
        or the full 3×3 tensor (body frame)."""
        self.body(body)["inertia"] = _plain(inertia)
        return self

    def set_marker_position(self, marker: str, position: Sequence[float]) -> "Model":
        """Moves `marker` (body coordinates; global for ground markers): this is how
        link lengths change."""
        self.marker(marker)["position"] = _plain(position)
        return self

    def set_force(self, name: str, **fields: Any) -> "Model":
        """Sets fields of the force element `name`, e.g. ``stiffness=2e4,
        damping=1.5e3, free_length=0.35`` for a spring-damper."""
        self.force(name).update({k: _plain(v) for k, v in fields.items()})
        return self

    def set_joint(self, name: str, **fields: Any) -> "Model":
        """Sets fields of the joint `name`, e.g. ``length=0.3`` of a distance joint."""
        self.joint(name).update({k: _plain(v) for k, v in fields.items()})
        return self

    def set_initial(
        self,
        body: str,
        *,
        position: Optional[Sequence[float]] = None,
        orientation: Any = None,
        velocity: Optional[Sequence[float]] = None,
        omega: Optional[Sequence[float]] = None,
    ) -> "Model":
        """Sets initial conditions of `body` (global frame, t = 0): position of the
        centre of mass, orientation (Euler parameters ``[e0, e1, e2, e3]`` or
        ``{"axis": [...], "angle": φ}``), velocity and global angular velocity. An
        initial state that violates the constraints is moved onto them before the run
        (mass-orthogonal projection; :attr:`Trajectory.initial_assembly` says how far)."""
        b = self.body(body)
        for key, value in (("position", position), ("orientation", orientation), ("velocity", velocity), ("omega", omega)):
            if value is not None:
                b[key] = _plain(value)
        return self

    def set_gravity(self, gravity: Sequence[float]) -> "Model":
        """Sets the gravitational acceleration (global frame)."""
        self._data["gravity"] = _plain(gravity)
        return self

    # -- Rust side ---------------------------------------------------------------------

    def validate(self) -> "Model":
        """Checks the model as the CLI would (``ModelError`` naming the element and
        the value); returns it."""
        _mbs.validate_model(self.to_json())
        return self

    def check(self) -> Dict[str, Any]:
        """The ``mbs check`` report as a dict: bodies, joints, loops, Grübler and rank
        mobility, redundant constraints, initial consistency."""
        report, _ = _mbs.check_model(self.to_json())
        return json.loads(report)

    def check_text(self) -> str:
        """The ``mbs check`` report as the CLI prints it."""
        return _mbs.check_model(self.to_json())[1]

    def mass_properties(self, body: Optional[str] = None) -> Dict[str, Any]:
        """Mass (kg), centre of mass (m: ``centre_of_mass`` in the body frame, whose
        origin is the centre of mass, and ``centre_of_mass_global`` at the initial
        state), centroidal inertia J' (kg·m², body frame, rows) and their ``source``
        (``"computed_from_shapes"``, ``"given"`` or ``"point_mass"``), as ``mbs check``
        and ``manifest.json`` show them: a dict by body name, or the dict of `body`.

        >>> m = mbs.load("double-pendulum")  # doctest: +SKIP
        >>> m.mass_properties("link1")["mass"]  # doctest: +SKIP
        """
        props = {b["name"]: b for b in self.check()["body_masses"]}
        if body is None:
            return props
        if body not in props:
            self.body(body)  # raises ModelError naming the bodies
        return props[body]

    def simulate(self, method: Optional[str] = None, integrator: Optional[str] = None, **kwargs: Any):
        """:func:`mbs.simulate` of this model, with its defaults (``None``: the
        recommended method and integrator, as ``mbs run`` without ``--method``)."""
        from .simulate import simulate

        return simulate(self, method, integrator, **kwargs)

    def __repr__(self) -> str:
        counts = ", ".join(f"{len(self._data.get(k, []))} {k}" for k in KINDS if self._data.get(k))
        return f"<Model {self.name!r}: {counts}>"

    # -- internals ---------------------------------------------------------------------

    def _resolve(self, path: str, create: bool) -> Tuple[Any, Any]:
        """The container holding the last step of `path` and its key or index."""
        steps = _parse_path(path)
        node: Any = self._data
        for i, step in enumerate(steps[:-1]):
            nxt = steps[i + 1]
            node = self._step(node, step, nxt, path, create)
        last = steps[-1]
        return node, _key(node, last, path)

    def _step(self, node: Any, step: Any, nxt: Any, path: str, create: bool) -> Any:
        if isinstance(step, tuple):
            sel = step[0]
            if isinstance(node, list) and node and isinstance(node[0], dict) and "name" in node[0]:
                for e in node:
                    if e.get("name") == sel:
                        return e
                raise ModelError(f"edit `{path}`: no element `{sel}`; names: {', '.join(e.get('name', '') for e in node)}")
            return node[_key(node, step, path)]
        if not isinstance(node, dict):
            raise ModelError(f"edit `{path}`: `{step}` is not a field of a {type(node).__name__}")
        if step in KINDS and isinstance(nxt, tuple):
            return node.get(step, [])
        if step not in node:
            if create and step in _ZERO_VECTORS and isinstance(nxt, tuple):
                node[step] = [0.0, 0.0, 0.0]
            elif create and isinstance(nxt, str):
                node[step] = {}
            else:
                raise ModelError(f"edit `{path}`: no field `{step}` (fields: {', '.join(node)})")
        return node[step]


def _key(node: Any, step: Any, path: str) -> Any:
    """The dict key or list index `step` of `node`."""
    if isinstance(step, tuple):
        if not isinstance(node, list):
            raise ModelError(f"edit `{path}`: `[{step[0]}]` selects from a list, not a {type(node).__name__}")
        try:
            k = int(step[0])
        except ValueError:
            raise ModelError(f"edit `{path}`: `[{step[0]}]` must be an index") from None
        if not -len(node) <= k < len(node):
            raise ModelError(f"edit `{path}`: index {k} out of range (length {len(node)})")
        return k
    if not isinstance(node, dict):
        raise ModelError(f"edit `{path}`: `{step}` is not a field of a {type(node).__name__}")
    return step


def _plain(value: Any) -> Any:
    """NumPy scalars and arrays as plain Python numbers and lists."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _json_default(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"a {type(value).__name__} is not a number, string, list or dict")


def _non_finite(node: Any, where: str) -> Iterator[Tuple[str, float]]:
    """Paths and values of non-finite numbers (JSON cannot hold them)."""
    if isinstance(node, float) and not math.isfinite(node):
        yield where, node
    elif isinstance(node, dict):
        for k, v in node.items():
            if isinstance(v, list) and k in KINDS:
                for e in v:
                    name = e.get("name", "?") if isinstance(e, dict) else "?"
                    yield from _non_finite(e, f"{k}[{name}]")
                continue
            yield from _non_finite(v, f"{where}.{k}" if where else k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _non_finite(v, f"{where}[{i}]")


ModelLike = Union[Model, str, "os.PathLike[str]", Mapping[str, Any]]


def as_model(model: ModelLike) -> Model:
    """A :class:`Model` from a model, a built-in name or file path, or a dict."""
    if isinstance(model, Model):
        return model
    if isinstance(model, (str, os.PathLike)):
        return Model.load(model)
    if isinstance(model, Mapping):
        return Model(model)
    raise ModelError(f"model: expected a Model, a built-in name, a file path or a dict, got {type(model).__name__}")
