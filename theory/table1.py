"""Table 1 of Bach (2013), the literal rank of Eq. (6) and the bound of Lemma B.1.

Table 1 (all Theta, beta, delta > 1/2; rho, kappa > 0; the bias uses lambda^2 sum nu_i / (mu_i + lambda)^2,
not App. C's expression, which has a spurious factor n):
kernel eigenvalues mu_i and signal coefficients nu_i decide lambda*, the risk at
lambda* and d_ave(lambda*). Each quantity is n^a (log n)^b and is stored as (a, b):

====  ==========  ==========  =====================  ===================  ==============  ============
line  mu_i        nu_i        lambda*                risk                 d_ave           condition
====  ==========  ==========  =====================  ===================  ==============  ============
1     i^-2beta    i^-2delta   n^(-2beta/(4beta+1))   n^(1/(4beta+1)-1)    n^(1/(4beta+1))  2delta > 4beta+1
2     i^-2beta    i^-2delta   n^(-beta/delta)        n^(1/(2delta)-1)     n^(1/(2delta))   2delta < 4beta+1
3     i^-2beta    e^-kappa i  n^(-2beta/(4beta+1))   n^(1/(4beta+1)-1)    n^(1/(4beta+1))  -
4     e^-rho i    i^-2delta   exp(-n^(1/(2delta)))   n^(1/(2delta)-1)     n^(1/(2delta))   -
5     e^-rho i    e^-kappa i  n^(-1/2)               n^-1 log n           log n            kappa > 2 rho
6     e^-rho i    e^-kappa i  n^(-rho/kappa)         n^-1 log n           log n            kappa < 2 rho
====  ==========  ==========  =====================  ===================  ==============  ============

Line 4's lambda* is not a power of n (``lam`` is None there).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from kpca_suite.kernels.validation import check_positive

from .effective_dimension import check_levels


@dataclass(frozen=True)
class Table1Line:
    """One line of Table 1 for given rates: each entry (a, b) means n^a (log n)^b."""

    line: int
    lam: Optional[tuple]
    risk: tuple
    d_ave: tuple
    condition: str


def table1_line(kernel_decay: str, kernel_rate: float, signal_decay: str, signal_rate: float) -> Table1Line:
    """The line of Table 1 that applies to mu_i (``kernel_decay`` "poly": i^(-2 beta), "exp":
    e^(-rho i)) and nu_i ("poly": i^(-2 delta), "exp": e^(-kappa i)). Boundary cases
    (2 delta = 4 beta + 1, kappa = 2 rho) are outside the table and raise."""
    a = check_positive(kernel_rate, "kernel_rate")
    b = check_positive(signal_rate, "signal_rate")
    for decay, name in ((kernel_decay, "kernel_decay"), (signal_decay, "signal_decay")):
        if decay not in ("poly", "exp"):
            raise ValueError(f"{name} must be 'poly' or 'exp', got {decay!r}")
    if kernel_decay == "poly" and (a <= 0.5 or (signal_decay == "poly" and b <= 0.5)):
        raise ValueError("Table 1 needs beta > 1/2 and delta > 1/2")
    if kernel_decay == "poly":
        slow = (2 * a / (4 * a + 1), 1 / (4 * a + 1))
        if signal_decay == "exp":
            return Table1Line(3, (-slow[0], 0), (slow[1] - 1, 0), (slow[1], 0), "-")
        if 2 * b == 4 * a + 1:
            raise ValueError("2 delta = 4 beta + 1 is the boundary between lines 1 and 2")
        if 2 * b > 4 * a + 1:
            return Table1Line(1, (-slow[0], 0), (slow[1] - 1, 0), (slow[1], 0), "2 delta > 4 beta + 1")
        return Table1Line(2, (-a / b, 0), (1 / (2 * b) - 1, 0), (1 / (2 * b), 0), "2 delta < 4 beta + 1")
    if signal_decay == "poly":
        return Table1Line(4, None, (1 / (2 * b) - 1, 0), (1 / (2 * b), 0), "-")
    if b == 2 * a:
        raise ValueError("kappa = 2 rho is the boundary between lines 5 and 6")
    if b > 2 * a:
        return Table1Line(5, (-0.5, 0), (-1, 1), (0, 1), "kappa > 2 rho")
    return Table1Line(6, (-a / b, 0), (-1, 1), (0, 1), "kappa < 2 rho")


def reference_slope(rate: tuple, ns) -> float:
    """Least-squares slope of log(n^a (log n)^b) against log n on the grid ``ns``: the slope a
    log-log fit of a quantity of that order should find there (a + b / log n locally)."""
    ns = np.asarray(ns, dtype=np.float64)
    u = np.log(ns)
    return float(np.polyfit(u, rate[0] * u + rate[1] * np.log(u), 1)[0])


def eq6_rank(d, n: int, R2: float, lam, delta: float = 0.25):
    """The literal sufficient rank of Theorem 4.1, Eq. (6): p = (32 d / delta + 2) log(n R^2 / (delta lambda)).

    ``d`` is the maximal marginal df of Eq. (5), R^2 = max_i K_ii, ``delta`` the
    approximation slack of Eq. (7) (delta = 1/4: risk within a factor 2). The proof's
    constant inside the log should be (1 + R^2/lambda)^2 (bias(K) >= (1/n) z^T z (1 + R^2/lambda)^-2),
    which about doubles the log; this is the paper's literal formula.
    """
    n = check_positive(n, "n", integer=True)
    R2 = check_positive(R2, "R2")
    delta = check_positive(delta, "delta")
    if delta >= 1:
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")
    lam = check_levels(lam, "lam")
    d = np.asarray(d, dtype=np.float64)
    out = (32.0 * d / delta + 2.0) * np.log(n * R2 / (delta * lam))
    return float(out) if out.ndim == 0 else out


def lemma_b1_bound(t, p: int, r: int, lam_max: float, R2: float):
    """Lemma B.1: P(lambda_max[(1/n) Psi^T Psi - (1/p) Psi_I^T Psi_I] > t)
    <= r exp(-(p t^2 / 2) / (lambda_max((1/n) Psi^T Psi) (R^2 + t / 3))), for Psi in R^(n x r)
    with rows of squared norm <= R^2 and I uniform without replacement, |I| = p. Capped at 1."""
    t = check_levels(t, "t")
    p = check_positive(p, "p", integer=True)
    r = check_positive(r, "r", integer=True)
    lam_max = check_positive(lam_max, "lam_max")
    R2 = check_positive(R2, "R2")
    out = np.minimum(1.0, r * np.exp(-(p * t**2 / 2.0) / (lam_max * (R2 + t / 3.0))))
    return float(out) if out.ndim == 0 else out


def first_nonvacuous_n(ns, p) -> Optional[int]:
    """The smallest n of the grid where the rank p(n) < n, or None."""
    for n, pn in zip(ns, p):
        if pn < n:
            return int(n)
    return None

