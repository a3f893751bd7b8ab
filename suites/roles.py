"""Roles: the protocol through which any implementation (ours, scikit-learn's,
nystrompca's, a user's own) plugs into a claim.

A claim that can check someone else's code declares a :class:`Subject`: the
role its estimator fills, which entry of its ``estimators`` is that estimator,
and whether the claim's estimand is centred. An implementation fills a role
through a *factory*::

    make(n_components, budget, kernel, random_state) -> estimator

``n_components``  the k of the fitted projection or approximation (None: the
                  whole feature map, for ``kernel-approximation``);
``budget``        the number of landmarks, random features or sketch rows the
                  claim grants (an exact method may ignore it);
``kernel``        a :class:`kpca_suite.kernels.Kernel` (``name``, ``gamma``;
                  ``block(X, Y)`` evaluates it) or another ``KernelLike``;
``random_state``  a non-negative int seed, below 2^63 (scikit-learn takes seeds
                  below 2^32: the built-in adapters reduce it modulo 2^32).

The estimator has the shape of a scikit-learn transformer; the
role lists the methods the claims call, and the metrics use nothing else:

================== ============================ ===========================================
role               methods                      what the claims read
================== ============================ ===========================================
kpca-projection    fit(X), transform(X)         the fitted k-dimensional projection
kernel-approximation fit(X), transform(X)       Z = transform(X), with Z Z^T ≈ K
streaming-kpca     partial_fit(chunk), transform one pass over chunks, then the projection
================== ============================ ===========================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Role:
    """A role: its name, the methods an estimator must have, and what ``budget`` means."""

    name: str
    methods: tuple
    budget: str
    description: str


ROLES = {r.name: r for r in (
    Role("kpca-projection", ("fit", "transform"), "landmarks or random features",
         "a fitted k-dimensional projection: fit(X), then transform(X) gives the k scores"),
    Role("kernel-approximation", ("fit", "transform"), "landmarks, random features or sketch rows",
         "a feature map whose Gram matrix transform(X) transform(X)^T approximates K"),
    Role("streaming-kpca", ("partial_fit", "transform"), "random features or sketch rows",
         "one pass of partial_fit over chunks of the stream, then transform(X) gives the k scores"),
)}


class EstimatorError(Exception):
    """An implementation that cannot fill its role: the factory cannot be imported,
    or what it returns lacks the role's methods. The message names the estimator
    and the claim."""


@dataclass(frozen=True)
class Subject:
    """What a claim checks, as a role: ``role`` (a key of :data:`ROLES`),
    ``estimator`` (the key of the claim's ``estimators`` that fills it; the
    experiment calls it as a role factory), ``centred`` (whether the claim's
    estimand is centred in feature space), ``budget`` (what the claim grants, in
    words) and ``needs`` (what the metric needs beyond the role's methods, in
    words, or ""); ``probe`` the settings (``n_components``, ``budget``) of the
    up-front check that a factory builds an object of the role, before any cell runs;
    ``kinds`` restricts the built-in adapters the conformance matrix runs (a
    Monte Carlo rate is a statement about random features, not about Nyström)."""

    role: str
    estimator: str
    centred: bool
    kernel: str
    budget: str
    needs: str = ""
    probe: tuple = (("n_components", 3), ("budget", 16))
    kinds: tuple = ()  # the kinds of approximation the claim is about ("random-features", ...); () any

    def __post_init__(self):
        if self.role not in ROLES:
            raise ValueError(f"role must be one of {sorted(ROLES)}, got {self.role!r}")


def check_conforms(est, role: str, claim: str):
    """``est`` if it has every method of ``role``; otherwise :class:`EstimatorError`
    naming the claim (whose id ``<id>[<name>]`` names the estimator) and what is missing."""
    missing = [m for m in ROLES[role].methods if not callable(getattr(est, m, None))]
    if missing:
        raise EstimatorError(f"{claim}: the estimator's factory returned {type(est).__name__}, which lacks "
                             f"{', '.join(missing)} of role {role!r} (needs {', '.join(ROLES[role].methods)})")
    return est


def build(factory: Callable, role: str, cell, **settings):
    """Call a role factory with the role's settings (``n_components``, ``budget``,
    ``kernel``, ``random_state``) and check what it returns."""
    return check_conforms(factory(**settings), role, cell.claim)
