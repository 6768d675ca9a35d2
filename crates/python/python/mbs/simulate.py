"""Running a simulation: any method × integrator, with the strings of the CLI."""

from __future__ import annotations

from typing import Optional, Sequence

from . import _mbs
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
        ModelError, MethodError: bad input, with the CLI's message.
        SimulationError: the run failed; ``.t``, ``.location`` and ``.trajectory`` (the
            samples before the failure) say when, where and how far it got.

    The GIL is released while the simulation runs: threads run simulations in parallel.
    """
    # the CLI's order of checks: method, model, then the integrator (in _mbs.simulate)
    if method is not None:
        _mbs.parse_method(method)
    text = as_model(model).to_json()
    raw = _mbs.simulate(
        text,
        method,
        integrator,
        rtol=rtol,
        atol=atol,
        h=h,
        t_end=float(t_end),
        samples=int(samples),
        times=None if times is None else [float(t) for t in times],
        max_steps=None if max_steps is None else int(max_steps),
        guard=bool(guard),
    )
    return Trajectory._from_raw(raw)
