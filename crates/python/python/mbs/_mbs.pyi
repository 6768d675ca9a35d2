"""Type stubs of the Rust extension module ``mbs._mbs`` (PyO3; ``src/*.rs``).

Users call the pure-Python API of :mod:`mbs`; these are its building blocks.
"""

from typing import Any, Dict, List, Optional, Sequence, Tuple

__version__: str

def simulate(
    model_json: str,
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
) -> Dict[str, Any]:
    """Runs a model given as JSON with the GIL released; returns the raw trajectory
    (``mbs.Trajectory._from_raw`` reads it). Among its keys, ``joints`` is a dict
    ``"<joint>.<quantity> [unit]" → bytes`` (n native f64 each: joint coordinates,
    reactions, driver efforts, and ``"lambda.<joint>.<row> [unit]"`` multipliers solved
    at every sample) or ``None``, and ``energy_balance`` a dict of such buffers
    (``kinetic``, ``potential``, ``work_drivers``, ``work_dampers``, ``work_applied``,
    ``residual``) plus the float ``quadrature_error``, or ``None``. Raises
    ``mbs.ModelError``, ``mbs.MethodError`` or ``mbs.SimulationError`` with the CLI's
    messages."""

def load_model(spec: str) -> str:
    """A built-in mechanism name or a .json/.toml model file, as model JSON."""

def load_model_with(
    spec: str,
    q0: Optional[Dict[str, List[float]]] = None,
    v0: Optional[Dict[str, List[float]]] = None,
    package_path: Optional[List[str]] = None,
    floating_base: bool = False,
) -> Tuple[str, Optional[str]]:
    """A model spec or URDF/MJCF file with initial joint values: (model JSON, import
    report JSON or None)."""

def validate_model(model_json: str) -> str:
    """Reads and validates model JSON; returns the model as ``mbs`` writes it."""

def check_model(model_json: str) -> Tuple[str, str]:
    """The ``mbs check`` report: (JSON, text)."""

def parse_method(method: str) -> str:
    """The method in canonical form, or ``mbs.MethodError``."""

def parse_integrator(
    integrator: Optional[str] = None,
    rtol: Optional[float] = None,
    atol: Optional[float] = None,
    h: Optional[float] = None,
) -> str:
    """The integrator in canonical form, or ``mbs.MethodError``."""

def builtins() -> List[Tuple[str, str]]:
    """The built-in mechanisms: (name, description)."""

def methods() -> List[Tuple[str, str]]:
    """The method names: (name, description)."""

def integrators() -> List[Tuple[str, str]]:
    """The integrator names: (name, description)."""

def joint_space_dynamics(
    model_json: str,
) -> Tuple[List[str], List[float], List[List[float]], List[float]]:
    """H and C of a tree at its initial state (Pinocchio's ``crba``/``nle``
    convention): (one name per quasi-velocity, u, H as rows, C). Raises
    ``mbs.ModelError`` for an invalid model or one that is not a tree."""
