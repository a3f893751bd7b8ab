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
``random_state``  a non-negative int seed below 2^32, the range scikit-learn takes
                  (a claim draws it with ``Cell.seed_int``; :func:`build` refuses
                  any other).

The estimator has the shape of a scikit-learn transformer; the
role lists the methods the claims call, and the metrics use nothing else:

================== ============================ ===========================================
role               methods                      what the claims read
================== ============================ ===========================================
kpca-projection    fit(X), transform(X)         the fitted k-dimensional projection
kernel-approximation fit(X), transform(X)       Z = transform(X), with Z Z^T ≈ K
streaming-kpca     partial_fit(chunk), transform one pass over chunks, then the projection
matrix-sketch      partial_fit(rows), sketch_   one pass over row chunks, then the rows of B
krr                fit(X, y), predict(X)        the smoother S of the training points (S y = fitted values)
================== ============================ ===========================================

A ``matrix-sketch`` sketches the rows themselves (``kernel`` is None, ``n_components``
None, ``budget`` the number of sketch rows ell); after the pass, ``sketch_`` holds the
rows of B (at most ell of them, zero rows allowed), with B^T B approximating A^T A. Two
optional attributes sharpen the Frequent Directions claims: ``shrink_index`` (the j of
its shrink rule; without it, Algorithm 1's halving j = ell // 2, whose bound a correct
sketch of either rule meets, so a standard sketch exposes ell to be judged against its
own) and ``delta_`` (its certified Delta); ``merge(other)``,
returning the sketch of both streams, is what ``ghashami16.fd-merge`` needs.

A ``krr`` (kernel ridge regression) factory has its own signature::

    make(budget, kernel, ridge, random_state) -> regressor

``budget`` the number of sampled columns (landmarks), ``ridge`` the penalty of
min_f ||y - f(X)||^2 + ridge ||f||_H^2, scikit-learn's ``alpha``: full KRR solves
(K + ridge I) alpha = y. The papers, :mod:`kpca_suite.methods` (``KernelRidge``,
``NystromKRR``) and :mod:`kpca_suite.theory` write the same estimator with lambda,
min_f (1/n) ||y - f(X)||^2 + lambda ||f||_H^2, which solves (K + n lambda I) alpha = y:
the role's ridge is n lambda. A claim at the paper's lambda passes
``ridge=n * lam`` to the factory and ``ridge=lam`` to ``methods.KernelRidge``; an
adapter of a ``methods`` estimator divides by n (``adapters.NystromKRRRole``). The
regressor is linear in y, so its smoother S (f(X) = S y on the training points) is
read from one fit on the n x n identity targets, ``fit(X, I_n)`` then
``predict(X)``, or, where ``fit`` refuses 2-D targets, from n fits on its columns;
the claims judge the exact risk of S.

A factory says what kind of implementation it is, in one way: the decorator
:func:`implementation` (or the same attributes set by hand). Claims about another
kind, or about another estimand (centred against uncentred), then give ``n/a`` with
the reason instead of a verdict that means nothing::

    @implementation(kind="nystrom", centred=False)
    def make(n_components, budget, kernel, random_state): ...

``kind``      one of :data:`KINDS`: ``random-features``, ``nystrom`` (column
              sampling), ``sketch`` (a matrix sketch of the data or features),
              ``exact``; None (undeclared): every claim of the role runs;
``centred``   whether it centres in feature space; None: undeclared;
``budgeted``  whether it honours ``budget``; False: it ignores the budget (an exact
              method, or one that picks its own size); it says nothing about the kind;
``roles``     optionally, the roles it fills (keys of :data:`ROLES`); a claim of another
              role is then ``n/a`` ("not a krr factory"). Undeclared, the roles are read
              from the factory's signature and the methods of what it builds;
``version``   optionally, a version string of the code behind it, part of the
              fingerprint that keeps results of changed code apart
              (:mod:`suites.fingerprint`).

A setting the implementation cannot honour (a sketch that cannot make ell <= d rows, a
kernel it has no formula for, k above what it can fit) is refused by raising
:class:`Unsupported` (``raise Unsupported("ell must exceed d")``) from the factory or
from any method the claim calls: the claim is then ``n/a`` with that reason, in
``run``, ``check`` and ``conformance`` alike, instead of a crash.
"""

from __future__ import annotations

import importlib.util
import inspect
import math
import numbers
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

#: The kernel of a claim about the rows themselves (a matrix sketch): none.
NO_KERNEL = "none"


#: The kinds of implementation a claim can be about.
KINDS = ("random-features", "nystrom", "sketch", "exact")


@dataclass(frozen=True)
class Role:
    """A role: its name, the methods an estimator must have, what ``budget`` means,
    and its factory: ``args``, the keyword arguments a factory is called with, and
    ``probe``, the default settings of the up-front build of :class:`Subject`: every
    argument but ``kernel`` and ``random_state``, which the build supplies (a kernel of
    the subject's, seed 0: ``suites.conformance.check_up_front``)."""

    name: str
    methods: tuple
    budget: str
    description: str
    args: tuple = ("n_components", "budget", "kernel", "random_state")
    probe: tuple = (("n_components", 3), ("budget", 16))


ROLES = {r.name: r for r in (
    Role("kpca-projection", ("fit", "transform"), "landmarks or random features",
         "a fitted k-dimensional projection: fit(X), then transform(X) gives the k scores"),
    Role("kernel-approximation", ("fit", "transform"), "landmarks, random features or sketch rows",
         "a feature map whose Gram matrix transform(X) transform(X)^T approximates K",
         probe=(("n_components", None), ("budget", 16))),
    Role("streaming-kpca", ("partial_fit", "transform"), "random features or sketch rows",
         "one pass of partial_fit over chunks of the stream, then transform(X) gives the k scores"),
    Role("matrix-sketch", ("partial_fit",), "sketch rows",
         "one pass of partial_fit over row chunks of A, then sketch_ holds the rows of B, B^T B ≈ A^T A",
         probe=(("n_components", None), ("budget", 4))),
    Role("krr", ("fit", "predict"), "sampled columns",
         "kernel ridge regression make(budget, kernel, ridge, random_state): fit(X, y), then predict(X); "
         "ridge is scikit-learn's alpha, n lambda: (K + ridge I) alpha = y",
         args=("budget", "kernel", "ridge", "random_state"), probe=(("budget", 16), ("ridge", 1e-2))),
)}


class Unsupported(Exception):
    """The public refusal: an implementation cannot honour a claim's setting.

    Raised by a factory, or by any method a claim calls (``fit``, ``partial_fit``,
    ``transform``, ...), with the reason in words. The claim is ``n/a`` for that
    implementation, with the reason, wherever it runs (``kpca-suite run``, ``check``,
    ``conformance``, the report); it is never read as a failure or a crash. The
    remaining cells of the claim are not run."""

    def __init__(self, reason: str = ""):
        super().__init__(reason)
        self.reason = str(reason) or type(self).__name__


class UnsupportedKernel(Unsupported, NotImplementedError):
    """An implementation cannot express the claim's kernel: a case of :class:`Unsupported`."""


DECLARED = (("kind", None), ("centred", None), ("budgeted", True), ("version", None), ("roles", None))


def implementation(kind: Optional[str] = None, centred: Optional[bool] = None, budgeted: bool = True,
                   version: Optional[str] = None, roles=None):
    """Decorator declaring what a role factory is (module docstring); returns the
    factory itself with the attributes ``kind``, ``centred``, ``budgeted``,
    ``version`` and ``roles`` set, after checking them."""
    declared = check_declaration({"kind": kind, "centred": centred, "budgeted": budgeted, "version": version,
                                  "roles": roles}, "implementation()")

    def declare(factory):
        for attr, value in declared.items():
            setattr(factory, attr, value)
        return factory
    return declare


def check_declaration(values: dict, where: str) -> dict:
    """The declaration ``values`` (kind, centred, budgeted, version, roles) checked; an
    :class:`EstimatorError` naming ``where`` and the attribute otherwise. ``roles`` comes
    back as a tuple (a single role name is a one-role tuple) or None."""
    kind, centred = values.get("kind"), values.get("centred")
    budgeted, version = values.get("budgeted", True), values.get("version")
    roles = values.get("roles")
    if isinstance(roles, str):
        roles = (roles,)
    if roles is not None:
        try:
            roles = tuple(roles)
        except TypeError:
            raise EstimatorError(f"{where}: roles must be role names or None, got {roles!r}") from None
        if not all(isinstance(r, str) for r in roles):
            raise EstimatorError(f"{where}: roles must be role names (strings) or None, got {roles!r}")
        unknown = [r for r in roles if r not in ROLES]
        if unknown or not roles:
            raise EstimatorError(f"{where}: roles must be a non-empty selection of {tuple(ROLES)}, got {roles!r}")
    if kind is not None and kind not in KINDS:
        raise EstimatorError(f"{where}: kind must be one of {KINDS} or None, got {kind!r}")
    if centred is not None and not isinstance(centred, bool):
        raise EstimatorError(f"{where}: centred must be True, False or None, got {centred!r}")
    if not isinstance(budgeted, bool):
        raise EstimatorError(f"{where}: budgeted must be True or False, got {budgeted!r}")
    if version is not None and not isinstance(version, str):
        raise EstimatorError(f"{where}: version must be a string or None, got {version!r}")
    return {"kind": kind, "centred": centred, "budgeted": budgeted, "version": version, "roles": roles}


def declaration(factory, where: str) -> dict:
    """What ``factory`` declares about itself (:func:`implementation`), checked."""
    return check_declaration({a: getattr(factory, a, d) for a, d in DECLARED}, where)


@dataclass(frozen=True)
class Estimator:
    """A resolved implementation: its name, factory, what it declares (``centred``,
    ``kind``: None when undeclared; ``budgeted``; ``kernels`` it supports, None: any;
    ``roles``, None: undeclared), the fingerprint of its code and what it covers
    (:mod:`suites.fingerprint`) and where it comes from."""

    name: str
    factory: Callable
    centred: Optional[bool] = None
    kind: Optional[str] = None
    budgeted: bool = True
    kernels: Optional[tuple] = None
    fingerprint: str = ""
    source: str = ""
    roles: Optional[tuple] = None  # the roles it fills; None: whichever its objects' methods fit
    requires: str = ""             # an optional package it needs
    hashed: str = ""               # what its fingerprint covers, in words (Identity.hashed)

    def supports(self, kernel_name: str) -> bool:
        return self.kernels is None or kernel_name in self.kernels

    def available(self) -> bool:
        return not self.requires or importlib.util.find_spec(self.requires) is not None


class EstimatorError(Exception):
    """An implementation that cannot fill its role: the factory cannot be imported,
    or what it returns fills no role at all. The message names the estimator
    and the claim."""


class NotOfRole(EstimatorError):
    """An implementation of another role than the claim's: its factory's signature is
    another role's, it declares other ``roles``, or what it builds has another role's
    methods (a krr regressor, a matrix sketch, an in-sample-only ``fit_transform``).
    The claim is ``n/a`` for it; ``reason`` says why in a few words."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


class NoRole(EstimatorError):
    """A factory built an object with the methods of no role at all (a factory that
    returns the wrong thing): an error wherever it is named, never an ``n/a``."""


class FactoryRaised(EstimatorError):
    """A factory of the claim's role (by its signature and declared roles) raised when built
    with the claim's settings, and not by the public refusal :class:`Unsupported`: a crash
    of the implementation, which fails every claim it reaches, named; never an ``n/a``.
    ``reason`` is the exception in one line."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


def factory_role_mismatch(factory, role: str, roles: Optional[tuple]) -> Optional[str]:
    """Why ``factory`` is not a factory of ``role`` (the reason of an ``n/a``), or None:
    it declares other ``roles``, or its signature cannot take the role's arguments
    (``Role.args``). A factory whose signature cannot be read is given the benefit."""
    if roles is not None and role not in roles:
        return f"not a {role} factory (it declares roles {', '.join(roles)})"
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(**dict.fromkeys(ROLES[role].args))
    except TypeError:
        return (f"not a {role} factory: it takes {signature}, a {role} factory is called as "
                f"make({', '.join(ROLES[role].args)})")
    return None


def roles_filled(est) -> list:
    """The roles whose methods ``est`` has, and "in-sample kpca" when it has ``fit_transform``."""
    have = [name for name, r in ROLES.items() if all(callable(getattr(est, m, None)) for m in r.methods)]
    if callable(getattr(est, "fit_transform", None)):
        have.append("in-sample kpca (fit_transform)")
    return have


@dataclass(frozen=True)
class Subject:
    """What a claim checks, as a role: ``role`` (a key of :data:`ROLES`),
    ``estimator`` (the key of the claim's ``estimators`` that fills it; the
    experiment calls it as a role factory), ``centred`` (whether the claim's
    estimand is centred in feature space; None when centred and uncentred
    implementations share it, as on a zero-mean model), ``budget`` (what the claim grants, in
    words) and ``needs`` (what the metric needs beyond the role's methods, in
    words, or ""); ``probe`` the settings of the up-front check that a factory builds an
    object of the role, before any cell runs: ``(name, value)`` pairs of every factory
    argument but ``kernel`` and ``random_state`` (``n_components`` and ``budget``; for
    ``krr``, ``budget`` and ``ridge``), by default the role's (``Role.probe``), and
    checked when the claim is declared (:meth:`probe_problem`); ``kinds`` restricts the
    built-in adapters the conformance matrix runs (a Monte Carlo rate is a statement
    about random features, not about Nyström);
    ``methods`` the methods the metric needs beyond the role's, checked up front;
    ``in_sample`` whether the metric reads only the scores of the rows the estimator was
    fitted on (``fit_transform(X)``), so that an implementation without an out-of-sample
    ``transform`` runs it too."""

    role: str
    estimator: str
    centred: Optional[bool]
    kernel: str
    budget: str
    needs: str = ""
    probe: Optional[tuple] = None  # None: the role's default settings (Role.probe)
    kinds: tuple = ()  # the kinds of approximation the claim is about ("random-features", ...); () any
    methods: tuple = ()  # methods the metric needs beyond the role's (e.g. "merge")
    in_sample: bool = False  # the metric reads only the fitted rows' scores: fit_transform suffices

    def __post_init__(self):
        if self.role not in ROLES:
            raise ValueError(f"role must be one of {sorted(ROLES)}, got {self.role!r}")
        if self.probe is None:
            object.__setattr__(self, "probe", ROLES[self.role].probe)

    def probe_problem(self) -> Optional[str]:
        """What makes ``probe`` wrong for the role, in words, or None. A probe names
        exactly the role's settings (a krr factory takes no ``n_components``: probing it
        so would blame the implementation for the claim's mistake), each valid
        (:data:`PROBE_VALUES`)."""
        try:
            given = dict(self.probe)
        except (TypeError, ValueError):
            return f"its subject's probe {self.probe!r} is not (name, value) pairs"
        role = ROLES[self.role]
        expected = [name for name, _ in role.probe]
        if sorted(given) != sorted(expected) or len(given) != len(self.probe):
            return (f"its subject's probe sets {', '.join(name for name, _ in self.probe) or 'nothing'}; a "
                    f"{self.role} factory, make({', '.join(role.args)}), is probed with {', '.join(expected)} "
                    f"(leave probe out for the role's default, {role.probe})")
        bad = [f"{name} = {value!r} (expected {PROBE_VALUES[name][1]})" for name, value in given.items()
               if not PROBE_VALUES[name][0](value)]
        return f"its subject's probe has {'; '.join(bad)}" if bad else None


def _positive_int(value) -> bool:
    """An int above 0 (a bool is no count)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and value > 0


def _positive_number(value) -> bool:
    """A real number, finite and above 0 (a bool is no number)."""
    number = _as_number(value)
    return math.isfinite(number) and number > 0


#: What each probe setting may be: a test of the value and its description.
PROBE_VALUES = {
    "n_components": (lambda v: v is None or _positive_int(v), "None or a positive int"),
    "budget": (_positive_int, "a positive int"),
    "ridge": (_positive_number, "a positive finite number"),
}


def check_conforms(est, role: str, claim: str, methods: tuple = (), in_sample: bool = False):
    """``est`` if it has every method of ``role`` and ``methods`` (for an ``in_sample``
    claim, ``fit_transform`` stands for ``fit`` and ``transform``); otherwise
    :class:`EstimatorError` naming the claim (whose id ``<id>[<name>]`` names the
    estimator) and what is missing."""
    needed = (*ROLES[role].methods, *methods)
    if in_sample and callable(getattr(est, "fit_transform", None)):
        needed = tuple(m for m in needed if m not in ("fit", "transform"))
    missing = [m for m in needed if not callable(getattr(est, m, None))]
    if missing:
        message = (f"{claim}: the estimator's factory returned {type(est).__name__}, which lacks "
                   f"{', '.join(missing)} (role {role!r} and this claim need {', '.join(needed)})")
        other = roles_filled(est)
        if not other:  # fills no role at all: a factory that returns the wrong thing
            err = NoRole(message + "; it has the methods of no role")
            err.reason = f"lacks {', '.join(missing)}"
            raise err
        if "transform" in missing and callable(getattr(est, "fit_transform", None)):
            reason = "no out-of-sample transform (fit_transform only); the claim reads new points"
        elif set(missing) <= set(methods):  # the role is filled; the claim needs more
            reason = f"lacks {', '.join(missing)}"
        else:
            reason = f"lacks {', '.join(missing)} (it has the methods of {', '.join(other)})"
        raise NotOfRole(message, reason)
    return est


class EstimatorDefect(ValueError):
    """What an implementation returned cannot be read as its role promises (not finite,
    not 2-D, another number of rows than it was given, more columns than asked): a
    finding about the estimator, which fails the claim and names the defect."""


class EstimatorRaised(EstimatorDefect):
    """The implementation under test raised on a valid cell (anything but the public
    refusal :class:`Unsupported`): a crash of that implementation, which fails the claim
    naming the method and the exception, instead of leaving it inconclusive on the cells
    that did not crash."""


#: The slack of the score-norm check (:class:`Checked`) for feature maps that approximate phi:
#: random Fourier features with phases have ||z(x)||^2 = (2/m) sum_j cos^2(w_j^T x + b_j) <= 2 =
#: 2 k(x, x) (cos/sin pairs: exactly 1); a Nystrom or exact projection stays within 1. Measured on
#: the 20 kpca-projection and streaming-kpca variants of tests/variants/ (Gaussian gamma 0.5 and 5,
#: Laplacian, linear; m = 16, 64, 256; 3 seeds; training and 2x-spread new points): the largest
#: ||scores(x)||^2 / (sqrt k(x, x) + sqrt kappa)^2 is 0.484 (exact-arpack), a quarter of the limit;
#: scores scaled by m/2 reach (m/2) times the captured share, 2.4 at m = 16 and about 40 at m = 256.
SCORE_NORM_SLACK = 2.0

#: The machine epsilon of float64: what an output of integers or float64 is judged at.
EPS64 = float(np.finfo(np.float64).eps)
EPS32 = float(np.finfo(np.float32).eps)


def precision_eps(dtype) -> float:
    """The machine epsilon a precision-aware threshold uses for an output of ``dtype``:
    float32's (1.19e-7) for float32, float64's for float64 and integers, and float32's
    for anything coarser. A float16 output's eps (9.8e-4) times a claim's ``per_eps``
    (1e4) would be a limit near 10, which no bug exceeds, so it is held to float32's."""
    dtype = np.dtype(dtype)
    return min(float(np.finfo(dtype).eps), EPS32) if dtype.kind == "f" else EPS64


class Checked:
    """An estimator seen through its role. ``fit`` and ``partial_fit`` return this
    wrapper; ``transform`` and ``fit_transform`` check what the estimator returns once,
    before any metric reads it: a real 2-D array with one row per input row, at most
    ``n_components`` columns (when the claim asked for a number) and every entry finite;
    ``merge`` merges the estimators behind two wrappers. A violation raises
    :class:`EstimatorDefect` naming the claim, the method and the defect; an exception
    of the estimator's own (but :class:`Unsupported`) raises :class:`EstimatorRaised`.
    ``eps_`` is the largest machine epsilon of the outputs read so far (float32 output:
    1.19e-7), for the claims whose thresholds follow the implementation's precision.
    Every other attribute is the estimator's own.

    Given the ``kernel`` of a projection role (kpca-projection, streaming-kpca), the
    scores are also checked to be coordinates in an orthonormal basis, which cannot
    lengthen a vector: ||scores(x)||^2 <= ||phi(x) - c||^2 <= (sqrt(k(x, x)) +
    sqrt(kappa))^2, kappa = max k(x_i, x_i) over the rows fitted (c = 0 uncentred, or the
    mean of the fitted rows' features), times :data:`SCORE_NORM_SLACK` for a feature map
    that only approximates phi, with a relative eps_ for round-off. Scores scaled by m/2
    (random features left unnormalised) exceed it a hundredfold at m = 256."""

    def __init__(self, est, claim: str, n_components: Optional[int], kernel=None):
        self._est, self._claim, self._k = est, claim, n_components
        self._kernel, self._kappa = kernel, 0.0
        self.eps_ = EPS64

    def __getattr__(self, name):
        return getattr(self._est, name)

    def _call(self, method: str, *args, **kw):
        """``self._est.<method>(*args, **kw)``; its own exceptions become :class:`EstimatorRaised`."""
        try:
            return getattr(self._est, method)(*args, **kw)
        except (Unsupported, EstimatorDefect, MemoryError):
            raise
        except Exception as e:  # noqa: BLE001 - the implementation under test crashed on a valid cell
            raise EstimatorRaised(f"{self._claim}: the estimator's {method} raised {type(e).__name__}: {e}") from e

    def _saw_rows(self, X) -> None:
        """Note kappa, the largest k(x, x) over the rows fitted (for the score-norm check)."""
        if self._kernel is not None and len(X):
            self._kappa = max(self._kappa, float(np.max(self._kernel.diag(np.asarray(X, dtype=np.float64)))))

    def fit(self, X, *args, **kw):
        self._call("fit", X, *args, **kw)
        self._kappa = 0.0
        self._saw_rows(X)
        return self

    def partial_fit(self, X, *args, **kw):
        self._call("partial_fit", X, *args, **kw)
        self._saw_rows(X)
        return self

    def merge(self, other):
        """The estimator's ``merge`` with ``other`` unwrapped, seen through this wrapper."""
        return Checked(self._call("merge", other._est if isinstance(other, Checked) else other), self._claim, self._k)

    def transform(self, X):
        return self.scores_checked(self.checked(self._call("transform", X), len(X), "transform"), X, "transform")

    def predict(self, X):
        """The estimator's predictions as an (n, outputs) array (1-D ones as a column), checked."""
        out = self._call("predict", X)
        return self.checked(np.reshape(out, (-1, 1)) if np.ndim(out) == 1 else out, len(X), "predict")

    def fit_transform(self, X):
        if callable(getattr(self._est, "fit_transform", None)):
            Z = self.checked(self._call("fit_transform", X), len(X), "fit_transform")
            self._kappa = 0.0
            self._saw_rows(X)
            return self.scores_checked(Z, X, "fit_transform")
        return self.fit(X).transform(X)

    def scores_checked(self, Z, X, method: str) -> np.ndarray:
        """``Z`` unless some row is longer than an orthonormal basis allows (class
        docstring): then :class:`EstimatorDefect` naming the worst row's ratio."""
        if self._kernel is None or not self._kappa or not len(Z):
            return Z
        k_xx = np.asarray(self._kernel.diag(np.asarray(X, dtype=np.float64)), dtype=np.float64)
        bound = SCORE_NORM_SLACK * (np.sqrt(k_xx) + np.sqrt(self._kappa)) ** 2 * (1 + 64 * self.eps_)
        ratio = np.einsum("ij,ij->i", Z, Z) / bound
        worst = int(np.argmax(ratio))
        if ratio[worst] > 1.0:
            raise EstimatorDefect(
                f"{self._claim}: the estimator's {method} returned scores of squared norm {ratio[worst] * bound[worst]:.3g} "
                f"at row {worst}, {ratio[worst]:.3g} times what coordinates in an orthonormal basis allow "
                f"({SCORE_NORM_SLACK:g} (sqrt k(x, x) + sqrt max k(x_i, x_i))^2 = {bound[worst]:.3g}): scaled scores "
                f"(unnormalised features? whitened?)")
        return Z

    def saw(self, dtype) -> None:
        """Note the dtype of an output read (:attr:`eps_`)."""
        self.eps_ = max(self.eps_, precision_eps(dtype))

    def checked(self, out, rows: int, method: str) -> np.ndarray:
        """``out`` as a float array, or :class:`EstimatorDefect` (class docstring)."""
        where = f"{self._claim}: the estimator's {method}"
        try:
            Z = np.asarray(out)
        except ValueError as e:  # ragged lists
            raise EstimatorDefect(f"{where} returned {type(out).__name__} that is no array ({e})") from None
        if Z.dtype.kind not in "fiu":
            raise EstimatorDefect(f"{where} returned an array of dtype {Z.dtype}, not of real numbers")
        if Z.ndim != 2:
            raise EstimatorDefect(f"{where} returned a {Z.ndim}-D array of shape {Z.shape}; "
                                  f"an (n_samples, n_components) array is expected")
        if Z.shape[0] != rows:
            hint = " (transposed?)" if Z.shape[1] == rows else ""
            raise EstimatorDefect(f"{where} returned {Z.shape[0]} rows for {rows} input rows{hint}")
        if Z.shape[1] == 0 and rows:
            raise EstimatorDefect(f"{where} returned an array of shape {Z.shape}: no columns")
        if self._k is not None and Z.shape[1] > self._k:
            raise EstimatorDefect(f"{where} returned {Z.shape[1]} columns; the claim asked for "
                                  f"n_components = {self._k}")
        bad = int(Z.size - np.count_nonzero(np.isfinite(Z)))
        if bad:
            raise EstimatorDefect(f"{where} returned NaN or inf in {bad} of {Z.size} entries")
        self.saw(Z.dtype)
        return Z.astype(np.float64, copy=False)


def sketch_rows(est, claim: str, d: int, budget: int) -> np.ndarray:
    """The rows of B that a fitted ``matrix-sketch`` holds in ``sketch_``, as a float
    array, or :class:`EstimatorDefect`: missing, not a real 2-D array of d columns, more
    than ``budget`` rows, or not finite."""
    where = f"{claim}: the estimator's sketch_"
    if not hasattr(est, "sketch_"):
        raise EstimatorDefect(f"{where} is missing after partial_fit (role 'matrix-sketch' reads it)")
    B = np.asarray(est.sketch_)
    if B.dtype.kind not in "fiu" or B.ndim != 2 or B.shape[1] != d:
        raise EstimatorDefect(f"{where} is {B.dtype} of shape {B.shape}; a real (rows, {d}) array is expected")
    if B.shape[0] > budget:
        raise EstimatorDefect(f"{where} has {B.shape[0]} rows; the claim granted {budget}")
    if not np.isfinite(B).all():
        raise EstimatorDefect(f"{where} holds NaN or inf")
    if isinstance(est, Checked):
        est.saw(B.dtype)
    return B.astype(np.float64, copy=False)


def _as_number(value) -> float:
    """A declared attribute as a float; NaN for what is no real number (a bool included)."""
    if isinstance(value, bool):
        return math.nan
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def declared_index(est, name: str, claim: str, low: int, high: int, default: int) -> int:
    """An optional integer attribute of an estimator (a sketch's ``shrink_index``), checked
    like an output: an integer (a float with an integer value too) in [low, high], else
    :class:`EstimatorDefect` naming the attribute; ``default`` when it is absent."""
    value = getattr(est, name, None)
    number = _as_number(value)
    if value is not None and not (math.isfinite(number) and number == int(number) and low <= number <= high):
        raise EstimatorDefect(f"{claim}: the estimator's {name} is {value!r}; an integer in {low}..{high} is expected")
    return default if value is None else int(number)


def declared_number(est, name: str, claim: str, low: float = 0.0) -> Optional[float]:
    """An optional real attribute of an estimator (a sketch's ``delta_``): a finite number
    at least ``low``, else :class:`EstimatorDefect` naming the attribute; None when absent."""
    value = getattr(est, name, None)
    number = _as_number(value)
    if value is not None and not (math.isfinite(number) and number >= low):
        raise EstimatorDefect(f"{claim}: the estimator's {name} is {value!r}; a finite number >= {low:g} is expected")
    return None if value is None else number


def build(factory: Callable, role: str, cell, in_sample: bool = False, **settings) -> Checked:
    """Call a role factory with the role's settings (``n_components``, ``budget``,
    ``kernel``, ``random_state``), check that what it returns has the role's methods
    (``in_sample``: :func:`check_conforms`), and return it seen through :class:`Checked`.
    A factory that raises (but :class:`Unsupported`) raises :class:`EstimatorRaised`. A
    ``random_state`` outside [0, 2^32) is the claim's defect (scikit-learn refuses it, so a
    correct factory would fail): a ValueError, never the implementation's failure."""
    seed = settings.get("random_state")
    if seed is not None and not (isinstance(seed, numbers.Integral) and 0 <= seed < 2**32):
        raise ValueError(f"{cell.claim}: a role factory's random_state must be an int in [0, 2^32) "
                         f"(Cell.seed_int), got {seed!r}")
    try:
        made = factory(**settings)
    except (Unsupported, MemoryError):
        raise
    except Exception as e:  # noqa: BLE001 - the implementation under test crashed on a valid cell
        raise EstimatorRaised(f"{cell.claim}: the estimator's factory raised {type(e).__name__}: {e}") from e
    kernel = settings.get("kernel") if role in ("kpca-projection", "streaming-kpca") else None
    return Checked(check_conforms(made, role, cell.claim, in_sample=in_sample), cell.claim,
                   settings.get("n_components"), kernel if callable(getattr(kernel, "diag", None)) else None)
