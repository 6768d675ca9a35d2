"""Running a simulation: any method × integrator, with the strings of the CLI."""

from __future__ import annotations

import numbers
from typing import Any, List, Optional, Sequence

from . import _mbs
from ._errors import MethodError
from .model import ModelLike, as_model
from .trajectory import Trajectory

__all__ = ["simulate"]


def simulate(
    model: ModelLike,
    method: Optional[str] = None,
    integrator: Optional[str] = None,
    *,
    rtol: Optional[float] = None,
    atol: Optional[float] = None,
    h: Optional[float] = None,
    t_end: float = 1.0,
    samples: int = 200,
    times: Optional[Sequence[float]] = None,
    max_steps: Optional[int] = None,
    guard: bool = True,
) -> Trajectory:
    """Simulates `model` and returns its :class:`~mbs.Trajectory`.

    Args:
        model: a :class:`~mbs.Model`, a built-in name (``"five-bar"``), a ``.json`` /
            ``.toml`` model file, or a dict in the model-file schema.
        method: a method with optional parameters, as ``mbs run --method`` reads it:
            ``"alf-index1"``, ``"alf:alpha=1e6:mu=1:omega=10"``,
            ``"lagrange-baumgarte:alpha_hat=5:beta_hat=5"`` (``mbs.methods()``).
            ``None`` (the default): the method recommended for the model's class and
            its integrator, as ``mbs run`` without ``--method`` (``traj.method`` and
            ``traj.integrator`` say which ran).
        integrator: ``"rk45"``, ``"rk45:rtol=1e-8:atol=1e-8"``, ``"trapezoidal:h=0.01"``
            … (``mbs.integrators()``); or a bare name with `rtol`/`atol`/`h`, like the
            CLI's ``--integrator NAME --rtol … --atol … --h …``. ``None`` (the
            default): RK45 when a method is named, else the recommended integrator,
            at 1e-6 unless `rtol`/`atol` say otherwise — the CLI's defaults, chosen by
            the same function of the Rust facade (``Simulation::choose``).
        t_end: end time [s] (the run starts at t = 0).
        samples: number of output intervals (``samples + 1`` equally spaced samples).
        times: explicit output times instead (increasing, inside [0, t_end]).
        max_steps: step limit of the adaptive integrators (the CLI's ``--max-steps``).
        guard: the wrong-motion guard (``False`` = the CLI's ``--no-energy-guard``).

    Raises:
        ModelError, MethodError: bad input, with the CLI's message (a run option out
            of range: ``MethodError`` naming it, e.g. ``samples=-5``).
        TypeError: an argument of the wrong Python type (a string for `t_end`, a
            float for `samples`…), naming the argument.
        SimulationError: the run failed; ``.t``, ``.location`` and ``.trajectory`` (the
            samples before the failure) say when, where and how far it got.

    The GIL is released while the simulation runs: threads run simulations in parallel.
    """
    # arguments of the wrong Python type first, named; then the CLI's order of checks:
    # method, model, then the integrator (in _mbs.simulate)
    if integrator is not None:
        _text("integrator", integrator)
    if method is not None:
        _mbs.parse_method(_text("method", method))
    text = as_model(model).to_json()
    raw = _mbs.simulate(
        text,
        method,
        integrator,
        rtol=_real("rtol", rtol),
        atol=_real("atol", atol),
        h=_real("h", h),
        t_end=_real("t_end", t_end),
        samples=_count("samples", samples),
        times=None if times is None else _reals("times", times),
        max_steps=_count("max_steps", max_steps),
        guard=bool(guard),
    )
    return Trajectory._from_raw(raw)


def _text(name: str, value: Any) -> str:
    """`value` if it is a string; ``TypeError`` naming `name` otherwise (the
    extension's own message would name neither)."""
    if not isinstance(value, str):
        raise TypeError(f"run: parameter `{name}` must be a string, got {value!r} ({type(value).__name__})")
    return value


def _real(name: str, value: Any) -> Any:
    """`value` as a float (``None`` stays ``None``); ``TypeError`` naming `name` for
    anything that is not a real number (range checks are the Rust side's)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"run: parameter `{name}` must be a number, got {value!r} ({type(value).__name__})")
    return float(value)


def _reals(name: str, values: Any) -> List[float]:
    """A sequence of real numbers as floats; ``TypeError`` naming `name` otherwise."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"run: parameter `{name}` must be a sequence of numbers, got {values!r}")
    return [_real(name, v) for v in values]


def _count(name: str, value: Any) -> Any:
    """`value` as an int (``None`` stays ``None``): ``TypeError`` for a non-integer,
    ``MethodError`` for a negative one, each naming `name` (the Rust side takes
    unsigned integers and would raise an ``OverflowError`` naming nothing)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"run: parameter `{name}` must be an integer, got {value!r} ({type(value).__name__})")
    if value < 0:
        raise MethodError(f"run: parameter `{name}` must be at least 1, got `{value}`")
    return int(value)
