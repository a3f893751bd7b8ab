"""Kernel functions as small immutable objects.

Conventions (the whole suite uses these forms):

===========  ==============================================================
name         k(x, y)
===========  ==============================================================
gaussian     exp(-gamma ||x - y||^2)            (scikit-learn's ``rbf_kernel``)
laplacian    exp(-gamma ||x - y||_1)            (scikit-learn's ``laplacian_kernel``)
cauchy       1 / (1 + gamma ||x - y||^2)
polynomial   (gamma x^T y + coef0)^degree, optionally normalised to
             k(x, y) / sqrt(k(x, x) k(y, y))    (Hallgren 2021, Eq. (5))
linear       x^T y
===========  ==============================================================

The papers' bandwidth forms convert explicitly: exp(-||x-y||^2 / (2 s^2))
(Ghashami et al. 2016; Ullah et al. 2018) is gamma = 1 / (2 s^2);
exp(-||x-y||^2 / s^2) (Hallgren 2021) is gamma = 1 / s^2; the sigma = 1e-7 of
Sterge et al. 2020 multiplies the squared distance and is gamma itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _jit
from .validation import check_array, check_positive, check_same_width

KERNELS = ("gaussian", "laplacian", "cauchy", "polynomial", "linear")


#: The expansion is made about the data (:func:`_expanded`) when the rows lie this many times
#: (in squared norm) further from the origin than from the mean of X.
FAR_FROM_ORIGIN = 16.0


def _expanded(X, Y):
    """(X, Y, ||x_i||^2, ||y_j||^2) for the expansion ||x - y||^2 = ||x||^2 + ||y||^2 - 2 x^T y:
    about the origin, or, when the data lie far from it (max ||z||^2 > FAR_FROM_ORIGIN max
    ||z - c||^2 over the rows of X and Y, c the mean of X's rows), about c: X - c, Y - c and
    their norms.

    The expansion's round-off is about eps (||x||^2 + ||y||^2): for data far from the origin
    it swamps the distance (300 points of spread 1e-3 shifted by 1e6, gamma = 1e4: a diagonal
    of 3.3e-9 where it is exactly 1). The kernels are translation invariant, so for such data
    the expansion is made about a point of the data instead, and its round-off is eps times
    the squared diameter about that point. Elsewhere it stays about the origin, so that every
    entry depends on its two rows alone, not on the block's other rows (a fit by chunks then
    gives the same bits as one in a single block). The decision costs one O((n + m) d)
    product, Z c, beside the norms the expansion needs anyway (perf.gaussian-block measures
    the block)."""
    x_sq = _jit.row_sq_norms(X)
    y_sq = x_sq if Y is X else _jit.row_sq_norms(Y)
    if not len(X) or not len(Y):
        return X, Y, x_sq, y_sq
    c = np.ones(len(X), X.dtype) @ X / X.dtype.type(len(X))   # a GEMV: X.mean(axis=0) took 4x as long
    cc = float(c @ c)
    far = max(float(np.max(x_sq)), float(np.max(y_sq)))
    near = max(float(np.max(q - 2 * (Z @ c) + cc)) for q, Z in ((x_sq, X), (y_sq, Y)))  # ||z - c||^2, no copy
    if not far > FAR_FROM_ORIGIN * near:
        return X, Y, x_sq, y_sq
    Xc = X - c
    Yc = Xc if Y is X else Y - c
    xc_sq = _jit.row_sq_norms(Xc)
    return Xc, Yc, xc_sq, (xc_sq if Yc is Xc else _jit.row_sq_norms(Yc))


@dataclass(frozen=True)
class Kernel:
    """A positive-definite kernel; ``block`` and ``diag`` evaluate it.

    Parameters
    ----------
    name : one of ``KERNELS``.
    gamma : float > 0, the scale (ignored by ``linear``).
    degree : int >= 1 (polynomial only).
    coef0 : float >= 0 (polynomial only).
    normalize : bool, divide the polynomial kernel by sqrt(k(x,x) k(y,y)).
    """

    name: str = "gaussian"
    gamma: float = 1.0
    degree: int = 2
    coef0: float = 1.0
    normalize: bool = False

    def __post_init__(self):
        if self.name not in KERNELS:
            raise ValueError(f"kernel name must be one of {KERNELS}, got {self.name!r}")
        object.__setattr__(self, "gamma", check_positive(self.gamma, "gamma"))
        if self.name == "polynomial":
            object.__setattr__(self, "degree", check_positive(self.degree, "degree", integer=True))
            object.__setattr__(self, "coef0", check_positive(self.coef0, "coef0", allow_zero=True))
            if self.normalize and self.coef0 == 0:
                raise ValueError("coef0 must be > 0 for the normalised polynomial kernel "
                                 "(k(x, x) would vanish at x = 0)")

    def __repr__(self) -> str:
        """The parameters the kernel reads: none for the linear kernel, gamma for the
        squared-distance and Laplacian kernels, all four for the polynomial one."""
        if self.name == "linear":
            return "Kernel('linear')"
        if self.name != "polynomial":
            return f"Kernel({self.name!r}, gamma={self.gamma!r})"
        return (f"Kernel('polynomial', gamma={self.gamma!r}, degree={self.degree!r}, coef0={self.coef0!r}"
                + (", normalize=True)" if self.normalize else ")"))

    # -- evaluation -----------------------------------------------------------
    def block(self, X, Y=None, *, validate: bool = True, out=None) -> np.ndarray:
        """The kernel block K[i, j] = k(x_i, y_j), shape (len(X), len(Y)).

        ``Y=None`` means ``Y = X``. The squared-distance kernels use one BLAS
        GEMM for X Y^T and one fused jitted pass for the rest. The block is float32,
        computed in single precision (SGEMM, float32 exp), when X and Y are both
        float32, and float64 otherwise: a float32 Gaussian block agrees with the
        float64 one to about eps_32 (1 + gamma (||x - c||^2 + ||y - c||^2)), the
        round-off of the squared distance expanded about c, the mean of X's rows
        (:func:`_expanded`; perf.gaussian-block measures both). ``out``,
        an array of that shape and dtype (a strided view of a larger matrix is fine),
        receives the block and is returned: filling a big matrix block by block then
        needs no copy (the Gaussian's exp writes straight into it).
        """
        if validate:
            X = check_array(X, "X", allow_float32=True)
            Y = X if Y is None else check_array(Y, "Y", allow_float32=True)
            check_same_width(X, Y)
        elif Y is None:
            Y = X
        if X.dtype != Y.dtype or X.dtype not in (np.float32, np.float64):
            X, Y = np.asarray(X, dtype=np.float64), np.asarray(Y, dtype=np.float64)
        if out is None:
            return self._block(X, Y, None)
        if out.shape != (X.shape[0], Y.shape[0]) or out.dtype != X.dtype:
            raise ValueError(f"out must be a {X.dtype} array of shape {(X.shape[0], Y.shape[0])}, "
                             f"got {out.dtype} {out.shape}")
        K = self._block(X, Y, out)
        if K is not out:
            out[...] = K
        return out

    def _block(self, X, Y, out):
        if self.name == "laplacian":
            return _jit.laplacian_block(X, Y, self.gamma)
        if self.name in ("gaussian", "cauchy"):
            X, Y, x_sq, y_sq = _expanded(X, Y)
        G = X @ Y.T
        if self.name == "linear":
            return G
        if self.name == "polynomial":
            if self.normalize:
                xd, yd = self._raw_poly_diag(X), self._raw_poly_diag(Y)
            else:
                xd = yd = np.empty(0)
            return _jit.polynomial_from_gram(G, self.gamma, self.coef0, int(self.degree),
                                             xd, yd, self.normalize)
        if self.name == "gaussian":
            return np.exp(_jit.neg_scaled_sq_dist_from_gram(G, x_sq, y_sq, G.dtype.type(self.gamma)),
                          out=G if out is None else out)
        return _jit.cauchy_from_gram(G, x_sq, y_sq, self.gamma)

    def diag(self, X, *, validate: bool = True) -> np.ndarray:
        """k(x_i, x_i) for every row of X, without forming a block."""
        if validate:
            X = check_array(X, "X")
        if self.name in ("gaussian", "laplacian", "cauchy") or (self.name == "polynomial" and self.normalize):
            return np.ones(X.shape[0])
        if self.name == "linear":
            return _jit.row_sq_norms(X)
        return self._raw_poly_diag(X)

    def _raw_poly_diag(self, X):
        return _jit.polynomial_diag(_jit.row_sq_norms(X), float(self.gamma), float(self.coef0), int(self.degree))

    def sup_diag(self, X=None) -> float:
        """kappa = sup_x k(x, x): 1 for the bounded translation-invariant and
        normalised kernels, else the maximum over the rows of ``X``."""
        if self.name in ("gaussian", "laplacian", "cauchy") or (self.name == "polynomial" and self.normalize):
            return 1.0
        if X is None:
            raise ValueError(f"kappa of the {self.name} kernel is data-dependent: pass X")
        return float(self.diag(X).max())
