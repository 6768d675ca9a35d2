"""Joint-space dynamics of a tree at its initial state, for comparisons with
joint-coordinate codes such as Pinocchio.

``H(q) u̇ + C(q, u) = 0`` with H the joint-space mass matrix (composite-rigid-body
algorithm) and C the bias forces (recursive Newton–Euler): C = c(q, u) + g(q) −
τ_passive, so without force elements C is Pinocchio's ``nle(q, v)`` and H its
``crba`` (symmetrised). For revolute and prismatic trees u are the joint rates
(θ̇ about, ṡ along the joint axis). See ``mbs_hdca::joint_space`` (Rust) for the
coordinates of other joint kinds; closed loops are refused with ``mbs.ModelError``.
"""

from typing import List, NamedTuple, Union

import numpy as np

from . import _mbs
from .model import Model


class JointSpaceDynamics(NamedTuple):
    """``names``: one per quasi-velocity (the joint's name, ``name[k]`` for the k-th
    of a joint with several); ``H`` (n × n) and ``C`` (n) as NumPy arrays in that
    order; ``v``: the quasi-velocities at the initial state."""

    names: List[str]
    H: np.ndarray
    C: np.ndarray
    v: np.ndarray


def joint_space_dynamics(model: Union[Model, str]) -> JointSpaceDynamics:
    """H and C of ``model`` (a :class:`mbs.Model`, a built-in name or a model file) at
    its initial state, time 0."""
    if not isinstance(model, Model):
        model = Model.load(model)
    names, v, rows, c = _mbs.joint_space_dynamics(model.to_json())
    n = len(names)
    return JointSpaceDynamics(
        names=list(names),
        H=np.array(rows, dtype=float).reshape(n, n),
        C=np.array(c, dtype=float),
        v=np.array(v, dtype=float),
    )
