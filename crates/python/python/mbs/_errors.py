"""The exceptions of :mod:`mbs`.

The Rust extension raises these (see ``src/errors.rs``). ``str(error)`` is the message
the ``mbs`` command-line program prints after ``error:`` for the same input.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:  # pragma: no cover
    from .trajectory import Trajectory

__all__ = ["MbsError", "ModelError", "MethodError", "SimulationError"]


class MbsError(Exception):
    """Base class of every error raised by :mod:`mbs`."""


class ModelError(MbsError, ValueError):
    """An invalid or unreadable model, an unknown built-in mechanism, a bad edit, or an
    initial state with no consistent state nearby (the CLI's exit code 2). The message
    names the element and the value, e.g.
    ``model: body `body1`: mass must be positive and finite, got -1``."""


class MethodError(MbsError, ValueError):
    """An unknown method or integrator, a parameter out of range (of the method, the
    integrator or the run: ``t_end``, ``samples``…), or a method that cannot run the
    model (the CLI's exit code 2)."""


class SimulationError(MbsError, RuntimeError):
    """A simulation that started and failed (the CLI's exit code 1): a non-finite
    value, a step-size collapse, the step limit, an iteration cap, a loss of rank, a
    wrong motion caught by the guard…

    Attributes:
        message: the whole message (``str(error)``).
        t: simulation time of the failure, if it happened while running.
        location: the joint, body or constraint involved, if known.
        reason: what happened (the message without time and location).
        trajectory: the samples recorded before the failure (a
            :class:`~mbs.Trajectory`, possibly empty).
    """

    def __init__(
        self,
        message: str,
        t: Optional[float] = None,
        location: Optional[str] = None,
        reason: Optional[str] = None,
        partial: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.t = t
        self.location = location
        self.reason = reason
        self._partial = partial

    @property
    def trajectory(self) -> Optional["Trajectory"]:
        """The partial trajectory (samples before the failure), if any."""
        from .trajectory import Trajectory

        if isinstance(self._partial, dict):
            self._partial = Trajectory._from_raw(self._partial)
        return self._partial

    def __reduce__(self):  # picklable with its time and partial trajectory
        return (type(self), (self.message, self.t, self.location, self.reason, self._partial))

    def __str__(self) -> str:
        return self.message
