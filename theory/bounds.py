"""The finite-sample bounds of Sterge et al. 2020, Theorem 4.1 and eq. (17), and their conditions.

* eq. (15), plain Nyström, w.p. >= 1 - 2 delta: R^nys_{C_n,ell} <= N_C(t) (6 lambda_ell + 42 t);
* eq. (17), EKPCA, w.p. >= 1 - delta: R_{C_n,ell} <= 9 N_C(t) (lambda_ell + t).

The bounds are vectorised over t (pass N_C(t) for the same levels). The literal
constants of the conditions (:func:`theorem41_conditions`) are not met at
benchmark sizes (e.g. the ALS part asks m >= 334 log(8n/delta) and
n >= 1655 kappa): report which hold rather than assume them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kpca_suite.kernels.validation import check_positive

from .effective_dimension import check_levels


def _bound_args(n_c, lambda_ell, t):
    """n_c finite, >= 0 and of the shape of t (one N_C(t) per level); lambda_ell >= 0; t > 0."""
    n_c = np.asarray(n_c, dtype=np.float64)
    if not np.isfinite(n_c).all():
        raise ValueError("n_c contains NaN or inf")
    if (n_c < 0).any():
        raise ValueError(f"n_c must be >= 0, got a minimum of {float(n_c.min())!r}")
    lambda_ell = check_positive(lambda_ell, "lambda_ell", allow_zero=True)
    t = check_levels(t)
    if n_c.shape != t.shape:
        raise ValueError(f"n_c must have the shape of t (one N_C(t) per level), got {n_c.shape} and {t.shape}")
    return n_c, lambda_ell, t


def nystrom_bound_eq15(n_c, lambda_ell, t):
    """N_C(t) (6 lambda_ell + 42 t): Sterge et al. 2020, Theorem 4.1(i), eq. (15).

    Parameters
    ----------
    n_c : float or array
        N_C(t) at the levels ``t`` (:func:`theory.effective_dimension.effective_dimension`).
    lambda_ell : float
        The ell-th population eigenvalue.
    t : float or array
        Levels, > 0.
    """
    n_c, lambda_ell, t = _bound_args(n_c, lambda_ell, t)
    return n_c * (6.0 * lambda_ell + 42.0 * t)


def ekpca_bound_eq17(n_c, lambda_ell, t):
    """9 N_C(t) (lambda_ell + t): Sterge et al. 2020, eq. (17) (EKPCA; Rudi et al.).
    Arguments as eq. (15)."""
    n_c, lambda_ell, t = _bound_args(n_c, lambda_ell, t)
    return 9.0 * n_c * (lambda_ell + t)


@dataclass(frozen=True)
class Theorem41Conditions:
    """Which conditions of Theorem 4.1(i) hold, with the thresholds.

    t_low = (9 kappa / n) log(n / delta), t_high = lambda_1,
    m_required = max(67, 5 N_{C,inf}(t)) log(4 kappa / (t delta)).
    """

    n_ok: bool
    delta_ok: bool
    t_ok: bool
    m_ok: bool
    t_low: float
    t_high: float
    m_required: float

    @property
    def all(self) -> bool:
        """True when every condition holds, so the bound (15) is guaranteed."""
        return self.n_ok and self.delta_ok and self.t_ok and self.m_ok


def theorem41_conditions(n: int, m: int, t: float, delta: float, kappa: float, lambda_1: float,
                         n_inf: float) -> Theorem41Conditions:
    """Conditions of Sterge et al. 2020, Theorem 4.1(i) (and of eq. (17) without the m one).

    n > 3; 0 < delta < 1; (9 kappa / n) log(n / delta) <= t <= lambda_1;
    m >= (67 v 5 N_{C,inf}(t)) log(4 kappa / (t delta)).

    Parameters
    ----------
    n, m : int
        Sample size and number of landmarks.
    t : float
        Level, > 0.
    delta : float
        Confidence parameter, > 0 (the record says whether it is < 1).
    kappa : float
        sup_x k(x, x) (e.g. :attr:`theory.population.FourierModel.kappa`).
    lambda_1 : float
        Largest population eigenvalue.
    n_inf : float
        N_{C,inf}(t) (:func:`theory.effective_dimension.max_effective_dimension`).
    """
    n = check_positive(n, "n", integer=True)
    m = check_positive(m, "m", integer=True)
    t = check_positive(t, "t")
    delta = check_positive(delta, "delta")
    kappa = check_positive(kappa, "kappa")
    lambda_1 = check_positive(lambda_1, "lambda_1")
    n_inf = check_positive(n_inf, "n_inf", allow_zero=True)
    t_low = 9.0 * kappa / n * math.log(n / delta)
    m_required = max(67.0, 5.0 * n_inf) * math.log(4.0 * kappa / (t * delta))
    return Theorem41Conditions(n_ok=n > 3, delta_ok=delta < 1, t_ok=t_low <= t <= lambda_1,
                               m_ok=m >= m_required, t_low=t_low, t_high=lambda_1, m_required=m_required)


def corollary_t(n: int, theta: float) -> float:
    """The level t of the proofs of Corollaries 4.2 / 4.3: n^-theta for theta < 1, ln(n) / n for theta >= 1."""
    n = check_positive(n, "n", integer=True)
    if n < 2:
        raise ValueError(f"n must be >= 2 (ln n > 0), got {n}")
    theta = check_positive(theta, "theta")
    return n ** -theta if theta < 1 else math.log(n) / n
