"""A matrix of bad inputs against every public estimator and helper that takes data:
``python -m tests.bad_input_matrix`` prints one line per (target, input) that is not
refused with a clear error, and the counts by outcome.

Outcomes: ``clear`` (ValueError or TypeError whose message names the parameter),
``unclear`` (a ValueError or TypeError that does not name it), ``crash`` (any other
exception), ``silent`` (no error: a bad input accepted). tests/test_bad_input.py
asserts that the matrix has no ``silent``, ``unclear`` or ``crash`` case.
"""

from __future__ import annotations

import sys
import warnings
from collections import Counter

import numpy as np
import scipy.sparse as sp

from kpca_suite.kernels import (FrequentDirections, Kernel, approximate_leverage_scores, exact_leverage_scores,
                                incomplete_cholesky, median_gamma, pairwise_sq_distances)
from kpca_suite.methods import (RFERM, SKPCA, CenteredNystromKPCA, ExactKPCA, KernelRidge, NystromKPCA, NystromKRR,
                                RFOja, StreamingNystrom, SubsetPCA)

GOOD = np.random.default_rng(0).standard_normal((40, 3))
KERN = Kernel("gaussian", gamma=0.5)


def _x(name):
    """The bad data matrices, each named by what is wrong with it."""
    X = GOOD.copy()
    bad = {"nan": X.copy(), "inf": X.copy()}
    bad["nan"][3, 1] = np.nan
    bad["inf"][5, 0] = np.inf
    return {**bad, "empty": np.empty((0, 3)), "no columns": np.empty((40, 0)), "1-D": X[:, 0],
            "3-D": X[None], "complex": X.astype(complex), "object": X.astype(object).tolist() + [["a", 1, 2]],
            "ragged": [[1.0, 2.0], [1.0]], "sparse": sp.csr_matrix(X), "overflow": X * 1e200,
            "strings": np.array([["a", "b", "c"]] * 40)}[name]


def _rows(X) -> int:
    """Rows of any of the bad matrices (a target y of that length)."""
    return X.shape[0] if sp.issparse(X) else len(X)


BAD_X = ("nan", "inf", "empty", "no columns", "1-D", "3-D", "complex", "object", "ragged", "sparse", "overflow",
         "strings")

FITS = {
    "ExactKPCA.fit": lambda X: ExactKPCA(2, KERN).fit(X),
    "NystromKPCA.fit": lambda X: NystromKPCA(2, KERN, landmarks=10, random_state=0).fit(X),
    "CenteredNystromKPCA.fit": lambda X: CenteredNystromKPCA(2, KERN, landmarks=10, random_state=0).fit(X),
    "SubsetPCA.fit": lambda X: SubsetPCA(2, KERN, landmarks=10, random_state=0).fit(X),
    "RFERM.fit": lambda X: RFERM(2, 20, KERN, random_state=0).fit(X),
    "RFOja.partial_fit": lambda X: RFOja(2, 20, KERN, random_state=0).partial_fit(X),
    "SKPCA.fit": lambda X: SKPCA(sketch_size=4, n_features=20, kernel=KERN, random_state=0).fit(X),
    "StreamingNystrom.fit": lambda X: StreamingNystrom(10, KERN, random_state=0).fit(X),
    "FrequentDirections.fit": lambda X: FrequentDirections(4).fit(X),
    "KernelRidge.fit": lambda X: KernelRidge(KERN, 0.1).fit(X, np.ones(_rows(X))),
    "NystromKRR.fit": lambda X: NystromKRR(KERN, 0.1, 10, random_state=0).fit(X, np.ones(_rows(X))),
    "Kernel.block": lambda X: KERN.block(X),
    "pairwise_sq_distances": lambda X: pairwise_sq_distances(X),
    "median_gamma": lambda X: median_gamma(X),
    "exact_leverage_scores": lambda X: exact_leverage_scores(X, KERN, 0.1),
    "approximate_leverage_scores": lambda X: approximate_leverage_scores(X, KERN, 0.1, 10, random_state=0),
    "incomplete_cholesky": lambda X: incomplete_cholesky(X, KERN, 5),
}

PARAMS = {  # bad settings with good data: (target, what, call, the parameter the message must name)
    "gamma <= 0": (lambda: Kernel("gaussian", gamma=0.0), "gamma"),
    "gamma nan": (lambda: Kernel("gaussian", gamma=float("nan")), "gamma"),
    "k > m": (lambda: NystromKPCA(20, KERN, landmarks=10, random_state=0).fit(GOOD), "n_components"),
    "m > n": (lambda: NystromKPCA(2, KERN, landmarks=100, random_state=0).fit(GOOD), "landmarks"),
    "k = 0": (lambda: ExactKPCA(0, KERN).fit(GOOD), "n_components"),
    "k float": (lambda: ExactKPCA(2.5, KERN).fit(GOOD), "n_components"),
    "features 0": (lambda: RFERM(2, 0, KERN, random_state=0).fit(GOOD), "n_features"),
    "sketch 1": (lambda: FrequentDirections(1).fit(GOOD), "sketch_size"),
    "ridge < 0": (lambda: KernelRidge(KERN, -1.0).fit(GOOD, np.ones(40)), "ridge"),
    "y short": (lambda: KernelRidge(KERN, 0.1).fit(GOOD, np.ones(39)), "y"),
    "y nan": (lambda: KernelRidge(KERN, 0.1).fit(GOOD, np.r_[np.ones(39), np.nan]), "y"),
    "random_state text": (lambda: NystromKPCA(2, KERN, landmarks=10, random_state="a").fit(GOOD), "random_state"),
    "transform width": (lambda: ExactKPCA(2, KERN).fit(GOOD).transform(GOOD[:, :2]), "X"),
    "s <= 0": (lambda: exact_leverage_scores(GOOD, KERN, 0.0), "s"),
    "rank > n": (lambda: incomplete_cholesky(GOOD, KERN, 100), "rank"),
}


def outcome(call, names):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call()
    except (ValueError, TypeError) as e:
        return "clear" if any(n in str(e) for n in names) else "unclear", f"{type(e).__name__}: {e}"
    except Exception as e:  # noqa: BLE001 - what the matrix classifies
        return "crash", f"{type(e).__name__}: {e}"
    return "silent", "accepted"


def matrix() -> list:
    """[(target, input, outcome, message)] for every cell of the matrix."""
    rows = []
    for target, fit in FITS.items():
        for name in BAD_X:
            got, msg = outcome(lambda: fit(_x(name)), ("X", "A", "x"))
            rows.append((target, name, got, msg))
    for what, (call, param) in PARAMS.items():
        got, msg = outcome(call, (param,))
        rows.append(("settings", what, got, msg))
    return rows


def main() -> int:
    rows = matrix()
    for target, name, got, msg in rows:
        if got != "clear":
            print(f"{got.upper():8} {target} <- {name}: {msg[:150]}")
    counts = Counter(got for *_, got, _ in rows)
    print(f"{len(rows)} bad inputs: " + ", ".join(f"{counts[k]} {k}" for k in ("clear", "unclear", "crash", "silent")))
    return 0 if counts["clear"] == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
