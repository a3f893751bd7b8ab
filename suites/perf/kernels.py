"""Perf declarations of the kernel routines: the Gaussian block and pivoted incomplete Cholesky."""

from __future__ import annotations

import math

import numpy as np

from .data import bach13_kernel, gamma_for, gaussian_data
from .harness import Goal, PerfClaim, PerfRecord

# -- perf.gaussian-block ----------------------------------------------------------------

def _block_data(n, m, d, dtype="float64"):
    return gaussian_data(n, d, 0, dtype), gaussian_data(m, d, 1, dtype)


def _block_ours(data, d, **_):
    from kpca_suite.kernels import Kernel
    X, Y = data
    kern = Kernel("gaussian", gamma=gamma_for(d))
    return lambda: kern.block(X, Y)


def _block_sklearn(data, d, **_):
    from sklearn.metrics.pairwise import rbf_kernel
    X, Y = data
    return lambda: rbf_kernel(X, Y, gamma=gamma_for(d))


def _block_floor(data, **_):
    X, Y = data

    def floor():
        G = X @ Y.T
        np.exp(G, out=G)
        return G
    return floor


def _block_check(data, d, **_):
    from sklearn.metrics.pairwise import rbf_kernel

    from kpca_suite.kernels import Kernel
    X, Y = data
    err = np.abs(Kernel("gaussian", gamma=gamma_for(d)).block(X, Y) - rbf_kernel(X, Y, gamma=gamma_for(d))).max()
    return f"max |ours - sklearn| = {float(err):.1e}"


def _block_derive(records):
    """float32 against float64 of our block at the same (n, m, d)."""
    ours = {(r.params["n"], r.params["m"], r.params["dtype"]): r for r in records
            if r.contender == "ours" and r.measure == "time" and r.seconds}
    out = []
    for (n, m, dt), r64 in ours.items():
        r32 = ours.get((n, m, "float32"))
        if dt != "float64" or r32 is None:
            continue
        goal = Goal(lo=1.7)
        v = r64.seconds / r32.seconds
        out.append(PerfRecord("perf.gaussian-block", f"n={n} m={m}: float64 / float32 time", "ours",
                              ratio=v, goal=str(goal), met=goal.met(v), load=r32.load,
                              measure="float32 speed-up"))
    return out


GAUSSIAN_BLOCK = PerfClaim(
    id="perf.gaussian-block",
    goal="Gaussian kernel block K(X, Y): at least as fast as scikit-learn's rbf_kernel; at most 1.3x the "
         "floor of one BLAS GEMM X Y^T plus one in-place exp; float32 at least 1.7x faster than float64",
    data=_block_data,
    contenders={"ours": _block_ours, "sklearn rbf_kernel": _block_sklearn, "floor GEMM + exp": _block_floor},
    reference="ours",
    goals={"sklearn rbf_kernel": Goal(lo=1.0), "floor GEMM + exp": Goal(lo=1 / 1.3)},
    sizes={
        "ci": (dict(n=400, m=40, d=20, dtype="float64"),),
        "quick": (dict(n=5000, m=500, d=20, dtype="float64"), dict(n=5000, m=500, d=20, dtype="float32")),
        "full": (dict(n=20000, m=1000, d=20, dtype="float64"), dict(n=20000, m=1000, d=20, dtype="float32")),
    },
    warm=dict(n=16, m=4),
    check=_block_check,
    derive=_block_derive,
)


def numpy_incomplete_cholesky(X, kernel, rank):
    """The pivoted incomplete Cholesky in NumPy (one BLAS GEMV per column):
    G[:, j] = (K[:, i] - G[:, :j] G[i, :j]) / sqrt(res_i)."""
    n = X.shape[0]
    res = kernel.diag(X).astype(float)
    G = np.zeros((n, rank))
    for j in range(rank):
        i = int(np.argmax(res))
        G[:, j] = (kernel.block(X, X[i:i + 1], validate=False)[:, 0] - G[:, :j] @ G[i, :j]) / math.sqrt(res[i])
        res = np.clip(res - G[:, j] ** 2, 0.0, None)
        res[i] = 0.0
    return G


def _chol_data(n, **_):
    from kpca_suite.theory.periodic import uniform_design
    return uniform_design(n, 0)


def _chol_ours(X, p, **_):
    from kpca_suite.kernels import incomplete_cholesky
    kern, _ = bach13_kernel()
    return lambda: incomplete_cholesky(X, kern, p, "pivot")


def _chol_numpy(X, p, **_):
    kern, _ = bach13_kernel()
    return lambda: numpy_incomplete_cholesky(X, kern, p)


def _chol_floor(X, p, **_):
    """The p n kernel evaluations of the selected columns plus LAPACK on the p x p block."""
    import scipy.linalg as sla

    from kpca_suite.kernels import incomplete_cholesky
    kern, _ = bach13_kernel()
    idx = incomplete_cholesky(X, kern, p, "pivot").indices

    def floor():
        C = kern.block(X, X[idx], validate=False)
        sla.cholesky(C[idx], lower=True)
    return floor


def _chol_check(X, p, **_):
    from kpca_suite.kernels import incomplete_cholesky
    kern, _ = bach13_kernel()
    same = np.allclose(numpy_incomplete_cholesky(X, kern, p), incomplete_cholesky(X, kern, p, "pivot").factor)
    return f"same factor as the NumPy version: {bool(same)}"


PIVOTED_CHOLESKY = PerfClaim(
    id="perf.pivoted-cholesky",
    goal="jitted pivoted incomplete Cholesky of rank p (B_2 periodic kernel, uniform points) no slower than "
         "the same algorithm in NumPy (ratio >= 1) and at most 3x the floor (the p n kernel evaluations of "
         "the chosen columns plus LAPACK on the p x p block)",
    data=_chol_data,
    contenders={"ours": _chol_ours, "NumPy pivoted Cholesky": _chol_numpy,
                "floor columns + scipy cholesky": _chol_floor},
    reference="ours",
    goals={"NumPy pivoted Cholesky": Goal(lo=1.0), "floor columns + scipy cholesky": Goal(lo=1 / 3)},
    sizes={
        "ci": (dict(n=1000, p=20),),
        "quick": (dict(n=5000, p=50),),
        "full": tuple(dict(n=n, p=p) for n in (5000, 20000) for p in (50, 200)),
    },
    warm=dict(n=100, p=5),
    check=_chol_check,
)
