"""hallgren21.intro-digits: the figure of Sec. 1, the first two principal scores of Nyström KPCA
beside those of full KPCA on the handwritten digits."""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels import Kernel, mean_distance_gamma
from kpca_suite.methods.exact import ExactKPCA

from ...claim import Cell, Claim, Fault, Grid, PerProfile, Tolerance
from ...datasets import load_uci
from ...judging import AllWithin
from ._common import centred_nystrom
from .identities import _lstsq_residual
from .table3 import TABLE_M, uncentred_nystrom

INTRO_K = 2  # the figure shows the first two scores

#: the largest least-squares residual between the two score pairs (evidence in the Tolerance)
INTRO_RESIDUAL = 0.15


def intro_experiment(cell: Cell, est) -> dict:
    """The first n rows of scikit-learn's digits (standardised as Table 3's code does), the Gaussian
    kernel exp(-||x - y||^2 / σ^2) with σ the mean distance of a uniform subset of m = 100 (the code's
    rule, ``mean_distance_gamma``); a centred Nyström KPCA (``est["nystrom"]``, m = 100 uniform landmarks
    of its own) and exact centred KPCA, two components each. ``residual`` = the larger of the two
    least-squares residuals of one score pair on the other (and a constant), 0 when the two
    two-dimensional pictures are affine images of each other; ``min_corr`` = the smaller |correlation|
    of score j with KPCA's score j (signs are arbitrary)."""
    X, _ = load_uci("digits", n=cell.n)
    idx = np.sort(cell.rng("bandwidth").choice(cell.n, TABLE_M, replace=False))
    kern = Kernel("gaussian", gamma=mean_distance_gamma(X[idx]))
    ny = est["nystrom"](INTRO_K, TABLE_M, kern, cell.seed_int("landmarks"))
    W = ny.fit(X).transform(X)
    S = est["exact"](INTRO_K, kern, center=True, random_state=cell.seed_int("solver")).fit(X).transform(X)
    corr = [abs(np.corrcoef(W[:, j], S[:, j])[0, 1]) for j in range(INTRO_K)]
    return {"residual": max(_lstsq_residual(W, S), _lstsq_residual(S, W)), "min_corr": float(min(corr))}


INTRO = Claim(
    id="hallgren21.intro-digits",
    source="Hallgren 2021, Sec. 1, the unnumbered figure beside the introduction (digits)",
    statement="the first two principal scores of Nyström KPCA and of full KPCA on the handwritten digits give "
              "alike two-dimensional pictures (the paper shows them, with no number, m or kernel given)",
    prediction=f"the least-squares residual of one score pair on the other at most {INTRO_RESIDUAL} (ours: a "
               "number for 'alike'); the per-score |correlation| reported",
    data="scikit-learn's digits (1797 x 64, as the paper's code; first n rows), standardised; Gaussian kernel "
         "with σ the mean distance of 100 random points (the code's rule for Table 3); m = 100 uniform landmarks",
    metric="max of the two least-squares residuals ||Y - [1, X] B||_F / ||Y - mean Y||_F between the score pairs",
    metrics=("min_corr", "residual"),
    estimators={"nystrom": centred_nystrom, "exact": ExactKPCA},
    experiment=intro_experiment,
    grid=PerProfile(ci=Grid(sizes=(600,), seeds=3, methods=("nystrom",)),
                    quick=Grid(sizes=(1797,), seeds=10, methods=("nystrom",)),
                    full=Grid(sizes=(1797,), seeds=30, methods=("nystrom",))),
    judge=AllWithin(INTRO_RESIDUAL, metrics=("residual",), what="least-squares residual"),
    tolerance=Tolerance(f"residual <= {INTRO_RESIDUAL} in every cell", "ci (n = 600, seeds 0-2), roots 0-4: worst residual 0.034-0.068 (n = 1000: 0.036-0.057, "
                        "|corr| >= 0.989); quick (n = 1797, "
                        "seeds 0-9): 0.030-0.065, |corr| >= 0.986 (roots 0-4: worst 0.052-0.074); full (30 seeds): worst "
                        "0.065, |corr| >= 0.986; the fault uncentred reads 0.665 (n = 1000), so 0.15 is "
                        "x2.0 above the worst correct value and x4.4 below the fault"),
    faults=(Fault("uncentred", "a Nyström KPCA that does not centre, presented as centred: its first score is "
                  "the mean direction", {"nystrom": uncentred_nystrom}),),
)


CLAIMS = [
    INTRO,
]
