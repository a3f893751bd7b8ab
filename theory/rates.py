"""The rate table of Sterge et al. 2020, Corollaries 4.2 (polynomial) and 4.3 (exponential decay).

Up to constants, natural logs (the paper's corollaries and Remark 1, collected):

==============  ===============  ===================  ==========================  =======================
decay, regime   ell              rate of R_{C_n,ell}  m, uniform                  m, ALS
                                 and R^nys
==============  ===============  ===================  ==========================  =======================
poly, theta<1   n^(theta/alpha)  n^(-theta(1-1/a))    n^theta ln n                n^(theta/alpha) ln n
poly, theta>=1  n^(theta/alpha)  (ln n/n)^(1-1/a)     (n/ln n) ln(n/ln n)         n^(1/a) (ln n)^(1-1/a)
exp, theta<1    (theta/tau) ln n n^-theta ln n        n^theta ln n                (ln n)^2
exp, theta>=1   (theta/tau) ln n n^-1 (ln n)^2        (n/ln n) ln(n/ln n)         ln n ln(n/ln n)
==============  ===============  ===================  ==========================  =======================

The population optimum R_{C,ell} is n^(-theta(1-1/alpha)) (poly) or n^-theta
(exp) in every regime. :func:`poly_grid` / :func:`exp_grid` invert ell(n) so
that ell is an integer on the grid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kpca_suite.kernels.validation import check_positive

from .population import check_decay

SAMPLINGS = ("uniform", "als")


@dataclass(frozen=True)
class RateRow:
    """One row of the rate table for (decay, theta, rate, sampling).

    Attributes
    ----------
    exponent, log_exponent : float
        The rate of EKPCA and NY-KPCA is n^exponent (ln n)^log_exponent.
    population_exponent : float
        R_{C,ell} is of order n^population_exponent (Cor. 4.2(i) / 4.3(i)).
    """

    decay: str
    theta: float
    rate: float
    sampling: str
    exponent: float
    log_exponent: float
    population_exponent: float

    def ell(self, n: int) -> int:
        """ell(n) = round(n^(theta/alpha)) (poly) or round((theta/tau) ln n) (exp), at least 1."""
        n = check_positive(n, "n", integer=True)
        raw = n ** (self.theta / self.rate) if self.decay == "poly" else self.theta / self.rate * math.log(n)
        return max(1, round(raw))

    def m_required(self, n: int, c: float = 1.0) -> int:
        """ceil(c f(n)) with f the row's landmark requirement (module table), capped at n."""
        n = check_positive(n, "n", integer=True)
        if n < 3:
            raise ValueError(f"n must be >= 3 (ln ln n > 0), got {n}")
        c = check_positive(c, "c")
        L = math.log(n)
        if self.theta >= 1 and self.sampling == "uniform":
            f = n / L * math.log(n / L)
        elif self.sampling == "uniform":
            f = n**self.theta * L
        elif self.decay == "poly":
            f = n ** (self.theta / self.rate) * L if self.theta < 1 else n ** (1 / self.rate) * L ** (1 - 1 / self.rate)
        else:
            f = L**2 if self.theta < 1 else L * math.log(n / L)
        return min(n, math.ceil(c * f))


def rate_row(decay: str, theta: float, rate: float, sampling: str = "uniform") -> RateRow:
    """The row of the table of Corollaries 4.2 / 4.3 (Sterge et al. 2020) for these parameters.

    Parameters
    ----------
    decay : {"poly", "exp"}
    theta : float
        > 0; theta >= 1 is the variance-dominated regime.
    rate : float
        alpha > 1 (poly) or tau > 0 (exp).
    sampling : {"uniform", "als"}
        Landmark sampling of NY-KPCA.
    """
    rate = check_decay(decay, rate)
    theta = check_positive(theta, "theta")
    if sampling not in SAMPLINGS:
        raise ValueError(f"sampling must be one of {SAMPLINGS}, got {sampling!r}")
    if decay == "poly":
        population = -theta * (1 - 1 / rate)
        exponent, log_exponent = (population, 0.0) if theta < 1 else (-(1 - 1 / rate), 1 - 1 / rate)
    else:
        population = -theta
        exponent, log_exponent = (-theta, 1.0) if theta < 1 else (-1.0, 2.0)
    return RateRow(decay, theta, rate, sampling, exponent, log_exponent, population)


def _ells(ells) -> np.ndarray:
    arr = np.asarray(ells)
    if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iu" or (arr < 1).any():
        raise ValueError(f"ells must be a non-empty 1-D sequence of integers >= 1, got {ells!r}")
    return arr.astype(np.float64)


def poly_grid(ells, alpha: float, theta: float) -> np.ndarray:
    """n = round(ell^(alpha/theta)) for each ell, so ell(n) = n^(theta/alpha) = ell.

    Exact integers when alpha/theta is an integer (alpha = 2, theta = 0.5: n = ell^4).
    """
    alpha = check_decay("poly", alpha, "alpha")
    theta = check_positive(theta, "theta")
    return np.rint(_ells(ells) ** (alpha / theta)).astype(np.int64)


def exp_grid(ells, tau: float, theta: float) -> np.ndarray:
    """n = round(e^(tau ell / theta)) for each ell, so (theta/tau) ln n rounds to ell."""
    tau = check_decay("exp", tau, "tau")
    theta = check_positive(theta, "theta")
    return np.rint(np.exp(tau * _ells(ells) / theta)).astype(np.int64)


def smallest_n(budget_rule, m: int) -> int:
    """The smallest n >= 2 with ``budget_rule(n) >= m``, for a nondecreasing rule such as
    m(n) = ceil(sqrt(n) ln n) (doubling, then bisection): a role factory is given its
    budget, not n, and a near-miss budget that follows another law of n needs n back."""
    m = check_positive(m, "m", integer=True)
    lo, hi = 2, 2
    while budget_rule(hi) < m:
        lo, hi = hi, 2 * hi
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (mid + 1, hi) if budget_rule(mid) < m else (lo, mid)
    return lo
