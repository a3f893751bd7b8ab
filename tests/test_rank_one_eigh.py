"""kernels.rank_one_eigh against a dense eigh, and Frequent Directions' two shrink routes
against each other.

Tolerances (measured 2026-11-29 on these cases): the eigenpairs' worst error was 14 eps ||M||
(eigenvalues, U^T U - I and M U - U diag(lam)); the two shrink routes' sketches differed by at
most 132 eps ||A||_2^2 in B^T B after 400 rows, each within its own round-off of the FD bound.
The bounds below are 100 eps ||M|| and 1000 eps ||A||_2^2."""

import os
import subprocess
import sys

import numpy as np
import pytest

from kpca_suite.kernels import frequent_directions as fdm
from kpca_suite.kernels.frequent_directions import FrequentDirections
from kpca_suite.kernels.rank_one_eigh import rank_one_eigh

EPS = np.finfo(np.float64).eps


def _problem(kind, m, rng):
    e = rng.random(m) ** 3
    c = rng.standard_normal(m) * 0.3
    if kind == "repeated":
        e[: max(1, m // 2)] = e[0]
    elif kind == "zeros":
        e[m // 2:] = 0.0
    elif kind == "tiny-c":
        c[::2] *= 1e-17
    elif kind == "cluster":
        e = 1.0 + 1e-15 * rng.random(m)
    elif kind == "close-poles":  # pairs 1e-9 apart: roots between them, close to both
        e = np.repeat(np.sort(rng.random((m + 1) // 2)), 2)[:m] + np.tile([0.0, 1e-9], m)[:m]
    elif kind == "some-c-zero":
        c[m // 3:] = 0.0
    elif kind == "huge":
        e, c = e * 1e300, c * 1e150
    elif kind == "small":
        e, c = e * 1e-300, c * 1e-150
    return e, c


@pytest.mark.parametrize("kind", ["random", "repeated", "zeros", "tiny-c", "cluster", "close-poles", "some-c-zero",
                                  "huge", "small"])
@pytest.mark.parametrize("m", [1, 2, 3, 5, 20, 50])
def test_eigenpairs_match_a_dense_eigh(kind, m):
    rng = np.random.default_rng(m)
    for _ in range(5):
        e, c = _problem(kind, m, rng)
        lam, U = rank_one_eigh(e, c)
        scale = max(np.abs(e).max(), c @ c)
        M = (np.diag(e) + np.outer(c, c)) / scale
        assert np.all(np.diff(lam) >= 0)
        assert np.abs(lam / scale - np.linalg.eigvalsh(M)).max() <= 100 * EPS
        assert np.abs(U.T @ U - np.eye(m)).max() <= 100 * EPS
        assert np.abs(M @ U - U * (lam / scale)).max() <= 100 * EPS


def _gram_route(B, j, n_orthogonal):
    R, delta = fdm._gram_rows(B, j, n_orthogonal)
    B[:j - 1] = R @ B
    B[j - 1:] = 0.0
    return delta


@pytest.mark.parametrize("kind", ["gaussian", "low-rank", "duplicates", "decaying", "zero-rows", "float32"])
def test_the_rank_one_shrink_gives_the_eigh_shrinks_sketch(kind, monkeypatch):
    """A standard sketch through the rank-one route (every shrink after the first) against the same
    sketch through the Gram's eigh, and both against the FD bound ||A^T A - B^T B||_2 <= Delta."""
    rng = np.random.default_rng(3)
    n, d, ell = 400, 64, 50
    A = {"gaussian": lambda: rng.standard_normal((n, d)),
         "low-rank": lambda: rng.standard_normal((n, 3)) @ rng.standard_normal((3, d)),
         "duplicates": lambda: np.repeat(rng.standard_normal((n // 20, d)), 20, axis=0),
         "decaying": lambda: rng.standard_normal((n, d)) * 0.5 ** np.arange(d),
         "zero-rows": lambda: rng.standard_normal((n, d)) * (np.arange(n) % 3 > 0)[:, None],
         "float32": lambda: rng.standard_normal((n, d)).astype(np.float32)}[kind]()
    ours = FrequentDirections(ell, "standard").fit(A)
    monkeypatch.setattr(fdm, "shrink_rows", _gram_route)
    theirs = FrequentDirections(ell, "standard").fit(A)
    eps = np.finfo(A.dtype).eps
    A64 = A.astype(np.float64)
    scale = np.linalg.norm(A64, 2) ** 2
    covariances = [fd.covariance().astype(np.float64) for fd in (ours, theirs)]
    assert np.linalg.norm(covariances[0] - covariances[1], 2) <= 1000 * eps * scale
    assert abs(ours.delta_ - theirs.delta_) <= 1000 * eps * scale
    for fd, C in zip((ours, theirs), covariances):
        assert np.linalg.norm(A64.T @ A64 - C, 2) <= fd.delta_ + 1000 * eps * scale


def test_with_the_jit_disabled_lapack_is_called_through_ctypes():
    """NUMBA_DISABLE_JIT=1 (coverage, debugging) runs the jitted functions as Python: dlaed4 must
    then still be LAPACK's, not a Numba type that returns nothing (which gave zero eigenvalues)."""
    code = ("import numpy as np\n"
            "from kpca_suite.kernels.rank_one_eigh import rank_one_eigh\n"
            "e, c = np.array([0.1, 0.5, 0.5 + 1e-9, 0.9, 2.0]), np.array([0.3, -0.2, 0.25, 0.4, 1e-3])\n"
            "lam, U = rank_one_eigh(e, c)\n"
            "M = np.diag(e) + np.outer(c, c)\n"
            "assert np.abs(lam - np.linalg.eigvalsh(M)).max() <= 100 * np.finfo(float).eps * 2\n"
            "assert np.abs(M @ U - U * lam).max() <= 100 * np.finfo(float).eps * 2\n")
    p = subprocess.run([sys.executable, "-c", code], env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
