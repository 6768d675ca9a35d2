"""``mbs``: dynamics of constrained rigid multibody systems, from Python.

Python bindings of the ``mbs`` Rust workspace: every method (Lagrange, ALF, penalty,
ALF-DCA, HDCA, the complement family…) × every integrator on built-in mechanisms or
model files, results as NumPy arrays, parameter studies on Dask.

>>> import mbs
>>> traj = mbs.simulate("five-bar", "alf-index1", "rk45:rtol=1e-8:atol=1e-8", t_end=1.0)
>>> traj.max_phi < 1e-6
True
"""

from ._errors import MbsError, MethodError, ModelError, SimulationError
from ._mbs import __version__
from .joint_space import JointSpaceDynamics, joint_space_dynamics
from .model import Model
from .simulate import simulate
from .sweep import grid, sample, sweep
from .trajectory import COMPONENTS, Trajectory

__all__ = [
    "COMPONENTS",
    "JointSpaceDynamics",
    "MbsError",
    "MethodError",
    "Model",
    "ModelError",
    "SimulationError",
    "Trajectory",
    "__version__",
    "builtins",
    "grid",
    "integrators",
    "joint_space_dynamics",
    "load",
    "methods",
    "sample",
    "simulate",
    "sweep",
]


def load(spec, **options) -> Model:
    """:meth:`Model.load`: a built-in name, a model file, or a URDF/MJCF file with
    ``q0``, ``v0``, ``package_path`` and ``floating_base``."""
    return Model.load(spec, **options)


def builtins() -> "list[tuple[str, str]]":
    """The built-in mechanisms: ``(name, description)``, as ``mbs list`` prints them."""
    from ._mbs import builtins as _b

    return _b()


def methods() -> "list[tuple[str, str]]":
    """The method names: ``(name, description)``."""
    from ._mbs import methods as _m

    return _m()


def integrators() -> "list[tuple[str, str]]":
    """The integrator names: ``(name, description)``."""
    from ._mbs import integrators as _i

    return _i()
