"""Perf declaration of single precision end to end: each method that accepts float32 data
fitted on float32 rows against the same fit on the float64 rows they round from."""

from __future__ import annotations

import numpy as np

from .data import gamma_for, gaussian_data
from .harness import Goal, PerfClaim

def _data(n, d, **_):
    X = gaussian_data(n, d)
    return {np.float64: X, np.float32: X.astype(np.float32)}


def _estimator(method, d, m=None, k=None, ell=None):
    """The unfitted estimator of ``method`` ("nystrom", "rf-erm", "skpca" or "fd") at these sizes."""
    from kpca_suite.kernels import FrequentDirections, Kernel
    from kpca_suite.methods import RFERM, SKPCA, NystromKPCA
    kern = Kernel("gaussian", gamma=gamma_for(d))
    if method == "nystrom":
        return NystromKPCA(k, kern, landmarks=m, random_state=0)
    if method == "rf-erm":
        return RFERM(k, m, kernel=kern, random_state=0)
    if method == "skpca":
        return SKPCA(k, sketch_size=ell, n_features=m, kernel=kern, random_state=0)
    return FrequentDirections(ell, "halving")


def _fit(dtype):
    def make(data, method, d, m=None, k=None, ell=None, **_):
        X = data[dtype]
        return lambda: _estimator(method, d, m, k, ell).fit(X)
    return make


def _spectrum(est) -> np.ndarray:
    """The numbers a fit is judged by: its top eigenvalues (Nyström, RF-ERM), its singular
    values (SKPCA), the squared singular values of B (FD)."""
    if hasattr(est, "eigenvalues_"):
        return est.eigenvalues_
    if hasattr(est, "singular_values_"):
        return est.singular_values_
    return np.linalg.svd(est.sketch_.astype(np.float64), compute_uv=False) ** 2


def _check(data, method, d, m=None, k=None, ell=None, **_):
    s64, s32 = (_spectrum(_estimator(method, d, m, k, ell).fit(data[t])) for t in (np.float64, np.float32))
    top = min(len(s64), len(s32))
    rel = np.abs(s32[:top] - s64[:top]).max() / s64[0]
    return f"top {top} of the spectrum, float32 against float64: max abs difference / largest = {rel:.1e}"


FLOAT32 = PerfClaim(
    id="perf.float32",
    goal="float32 end to end: Nyström KPCA, RF-ERM, SKPCA and Frequent Directions fitted on float32 rows at least "
         "1.5x faster than on the float64 rows they round from (ratio float64 / float32 >= 1.5), at the sizes "
         "of their own perf declarations; the check compares the two spectra",
    data=_data,
    contenders={"float32": _fit(np.float32), "float64": _fit(np.float64)},
    reference="float32",
    goals={"float64": Goal(lo=1.5)},
    sizes={
        "ci": (dict(method="nystrom", n=2000, m=100, d=10, k=5), dict(method="rf-erm", n=1000, d=16, m=64, k=5),
               dict(method="skpca", n=2000, d=100, m=64, k=5, ell=10), dict(method="fd", n=500, d=100, ell=10)),
        "quick": (dict(method="nystrom", n=20000, m=1000, d=10, k=10),
                  dict(method="rf-erm", n=4000, d=64, m=750, k=10),
                  dict(method="skpca", n=8192, d=100, m=500, k=10, ell=20),
                  dict(method="fd", n=5000, d=1000, ell=50)),
        "full": (dict(method="nystrom", n=200000, m=1000, d=10, k=10),
                 dict(method="rf-erm", n=40000, d=64, m=750, k=10),
                 dict(method="skpca", n=50000, d=100, m=500, k=10, ell=20),
                 dict(method="fd", n=100000, d=1000, ell=50)),
    },
    warm=dict(n=1200),  # at least Nyström's m
    check=_check,
)
