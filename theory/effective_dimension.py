"""Effective dimensions of Sterge et al. 2020 (Theorem 4.1, Props. A.1 / A.2).

* N_C(t) = tr((C + t I)^{-1} C) = sum_i lambda_i / (lambda_i + t);
* N_{C,inf}(t) = sup_x <k(., x), (C + t I)^{-1} k(., x)>, in closed form for the
  Fourier model of :mod:`theory.population`;
* the empirical counterpart sum_i l_i(t) = tr(K (K + n t I)^{-1})
  = sum_i lhat_i / (lhat_i + t), lhat = eig(K) / n (an identity, not in the paper);
* the asymptotic forms: N_C(t) ~ t^{-1/alpha} for lambda_i ~ i^-alpha (Prop. A.1)
  and N_C(t) = (1/tau) ln(1/t) + O(1) for lambda_i ~ e^{-tau i} (Prop. A.2).

Every function is vectorised over the level t: a scalar t gives a float, an
array of levels an array of the same shape.
"""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels.validation import check_array, check_positive


def check_eigenvalues(eigenvalues, name: str = "eigenvalues") -> np.ndarray:
    """A 1-D finite float64 array of nonnegative values, else ValueError naming it."""
    lam = check_array(eigenvalues, name, ndim=1)
    if (lam < 0).any():
        raise ValueError(f"{name} must be >= 0, got a minimum of {lam.min()!r}")
    return lam


def check_levels(t, name: str = "t") -> np.ndarray:
    """Levels t > 0 (scalar or array, finite) as a float64 array of the same shape."""
    try:
        arr = np.asarray(t, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a real number or an array of them, got {t!r}") from None
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or inf")
    if (arr <= 0).any():
        raise ValueError(f"{name} must be > 0, got a minimum of {arr.min()!r}")
    return arr


def _ratio_sum(lam, t):
    """sum_i lambda_i / (lambda_i + t) for each level; the shape of t."""
    return (lam / (lam + t[..., None])).sum(axis=-1)


def effective_dimension(eigenvalues, t):
    """N_C(t) = sum_i lambda_i / (lambda_i + t) (Sterge et al. 2020, Theorem 4.1).

    Parameters
    ----------
    eigenvalues : array of shape (J,)
        Spectrum of C, >= 0.
    t : float or array
        Levels, > 0.

    Returns
    -------
    float or ndarray shaped like ``t``; non-increasing in t, <= J and <= tr(C)/t.
    """
    lam = check_eigenvalues(eigenvalues)
    tt = check_levels(t)
    out = _ratio_sum(lam, tt)
    return float(out) if out.ndim == 0 else out


def fourier_sup(weights: np.ndarray) -> float | np.ndarray:
    """sup_x sum_i w_i psi_i(x)^2 = w_1 + 2 sum_j w_{2j} for pairwise ordered weights.

    Proof (1-based i): psi_{2j}^2 + psi_{2j+1}^2 = 2, so
    sum_i w_i psi_i(x)^2 = w_1 + sum_j [2 w_{2j+1} + 2 (w_{2j} - w_{2j+1}) cos^2(2 pi j x)]
    (a last unpaired cos term, J even, has w_{J+1} = 0). When w_{2j} >= w_{2j+1}
    each bracket is largest where cos^2 = 1, and x = 0 maximises all of them at
    once; the sup is attained there. ``weights`` has shape (..., J).
    """
    return weights[..., 0] + 2.0 * weights[..., 1::2].sum(axis=-1)


def check_pairwise_ordered(lam: np.ndarray, name: str = "eigenvalues") -> None:
    """lambda_{2j} >= lambda_{2j+1} (1-based) for every j, the condition of :func:`fourier_sup`."""
    cos, sin = lam[1::2], lam[2::2]
    if (cos[: sin.size] < sin).any():
        raise ValueError(f"{name} must satisfy lambda_2j >= lambda_2j+1 (the cos weight of each "
                         f"frequency at least its sin weight) for the x = 0 supremum")


def max_effective_dimension(eigenvalues, t):
    """N_{C,inf}(t) = sup_x sum_i lambda_i psi_i(x)^2 / (lambda_i + t) for the Fourier model.

    In feature coordinates k(., x) = Phi(x) and C = diag(lambda), so
    <k(., x), (C + t I)^{-1} k(., x)> = sum_i lambda_i psi_i(x)^2 / (lambda_i + t)
    (Sterge et al. 2020, Theorem 4.1). The weights lambda_i / (lambda_i + t) increase with
    lambda_i, so pairwise ordered eigenvalues give pairwise ordered weights and
    the sup is at x = 0 (proof in :func:`fourier_sup`):
    N_{C,inf}(t) = w_1 + 2 sum_j w_{2j}. Always <= kappa / t.

    Parameters
    ----------
    eigenvalues : array of shape (J,)
        >= 0, with lambda_{2j} >= lambda_{2j+1} (true for any non-increasing spectrum).
    t : float or array
        Levels, > 0.
    """
    lam = check_eigenvalues(eigenvalues)
    check_pairwise_ordered(lam)
    tt = check_levels(t)
    out = fourier_sup(lam / (lam + tt[..., None]))
    return float(out) if out.ndim == 0 else out


def empirical_effective_dimension(gram_eigenvalues, t):
    """sum_i l_i(t) = tr(K (K + n t I)^{-1}) = sum_i lhat_i / (lhat_i + t).

    The sum of the ridge leverage scores l_i(t) = [K (K + n t I)^{-1}]_ii
    (Sterge et al. 2020, Sec. 3.2.1), which estimates N_C(t).

    Parameters
    ----------
    gram_eigenvalues : array of shape (n,)
        lhat = eig(K) / n, finite; round-off negatives are clipped to 0.
    t : float or array
        Levels, > 0.
    """
    lhat = np.clip(check_array(gram_eigenvalues, "gram_eigenvalues", ndim=1), 0.0, None)
    tt = check_levels(t)
    out = _ratio_sum(lhat, tt)
    return float(out) if out.ndim == 0 else out


def poly_effdim_slope(alpha) -> float:
    """Predicted slope of log N_C(t) against log t for lambda_i ~ i^-alpha: -1/alpha (Prop. A.1).

    Finite-t correction: N_C(t) = c t^{-1/alpha} - 1/2 + o(1) with
    c = (pi/alpha) / sin(pi/alpha), so the local slope is slightly steeper than
    -1/alpha where N_C is small.
    """
    alpha = check_positive(alpha, "alpha")
    if alpha <= 1:
        raise ValueError(f"alpha must be > 1, got {alpha!r}")
    return -1.0 / alpha


def exp_effdim_asymptote(tau, t):
    """Leading term (1/tau) ln(1/t) of N_C(t) for lambda_i ~ e^{-tau i} (Prop. A.2).

    N_C(t) - (1/tau) ln(1/t) stays bounded as t -> 0, so N_C plotted against
    ln(1/t) has slope 1/tau.
    """
    tau = check_positive(tau, "tau")
    tt = check_levels(t)
    out = np.log(1.0 / tt) / tau
    return float(out) if out.ndim == 0 else out
