"""ullah18.cost and ullah18.pass-cost: Table 1's per-iteration cost and memory columns for RF-Oja
and RF-ERM, and Sec. 1's overall runtime of a pass (Contribution 1), judged on counts that do not
depend on the machine's load (never seconds).

Table 1 gives RF-Oja O~(k / eps) = O(m k) per iteration and in memory, and RF-ERM O~(k / eps^3)
per iteration and O~(1 / eps^3) memory, with m = O~(1 / eps) features (Cor. 4.3: m = O(sqrt(n)
log n), n = 1 / eps^2). App. D.1 states RF-ERM's costs as O(m^2 k) for its rank-k eigenproblem and
O(m^2) memory, i.e. O~(k / eps^2) and O~(1 / eps^2), not the table's O~(1 / eps^3), which is the
n x m feature matrix RF-ERM need not hold. In the number of features m at fixed k, so:

- state (floats held between updates, ``space_``): RF-Oja m k + m d + m, slope 1 in m;
  RF-ERM m^2 + m d + m, slope 2;
- the working memory of one update (the peak :mod:`tracemalloc` traces while ``partial_fit``
  takes STEP_ROWS rows, above what was allocated before): RF-Oja O(m (k + STEP_ROWS)), slope 1;
  RF-ERM O(m^2) (the m x m sum, its copy and its eigenproblem), slope 2.

The counts of ullah18.cost are what the running code allocates and holds, not its flops.

ullah18.pass-cost counts the work of one pass over n samples at m = ceil(sqrt(n) ln n) (Cor. 4.3),
in multiply-adds. RF-Oja's update runs in Numba and cannot be instrumented, so the count joins what
is observed from the running code, the rows its feature map transforms (a counting map,
:func:`counting`: a row mapped twice counts twice), with the multiply-adds that the code's shapes
determine, m and k read from the fitted ``components_``, d from X, qr_every from the estimator:

- RF-Oja (:func:`oja_ops`): per row mapped d m + m (x^T Omega, m cos) + 2 m k (Q^T z, then
  Q += eta z (z^T Q)); 2 m k^2 per orthonormalisation (Gram-Schmidt twice), once at the start
  and ceil(r / qr_every) times per partial_fit of r rows. About n m (d + 2k), O(k n^(3/2) log n);
- RF-ERM (ghashami16's ``train_ops``): per row mapped d m + m + m^2 (Z^T Z), and m^3 for the one
  eigh of the fit. About n m^2, O(n^2 log^2 n): Sec. 1's O(k n^(3/2) log n) for RF-ERM is RF-Oja's.
"""

from __future__ import annotations

import math

import numpy as np

from kpca_suite.kernels.oja import orthonormalize
from kpca_suite.methods.base import reset_fitted
from kpca_suite.methods.rf_oja import RFOja

from ...claim import Claim, Fault, Grid, PerProfile, Tolerance
from ...counting import counted, traced_peak
from ...judging import AllOf, SlopeInBand
from ..ghashami16.traincost import train_ops
from ._common import CHUNK, KERNEL, MEHLER, K, _model, _seed_int, rf_erm
from .contrast import _m_is_n
from .rates import m_rule, rf_oja

WARM_ROWS = 64   # rows of the first partial_fit (draws the map, allocates the state)


STEP_ROWS = 8    # rows of the traced update


def cost_experiment(cell, estimators) -> dict:
    """State floats (``space_``) and the traced working memory of one update of STEP_ROWS rows
    after a first partial_fit of WARM_ROWS rows, for the cell's method at m features, k = 3."""
    m = cell.p["m"]
    X = _model().sample(WARM_ROWS + STEP_ROWS, cell.rng())
    est = estimators[cell.method](K, m, KERNEL, _seed_int(cell, "features"))
    est.partial_fit(X[:WARM_ROWS])
    peak = traced_peak(lambda: est.partial_fit(X[WARM_ROWS:]))
    return {"state_floats": float(est.space_), "step_bytes": float(peak)}


class OuterProductOja(RFOja):
    """Oja's step written with the m x m outer product, Q <- qr(Q + eta (z z^T) Q), one row at a
    time: the same iterate as RF-Oja's z (z^T Q), but O(m^2) work and memory per step."""

    def partial_fit(self, X):
        X = np.asarray(X)
        super().partial_fit(X[:1])
        Q = self.components_.copy()
        eta = self._schedule().steps(self.n_samples_seen_ + 1, len(X) - 1)
        for z, e in zip(self.features(X[1:]), eta):
            Q = orthonormalize(Q + e * np.outer(z, z) @ Q)
        self.components_, self.n_samples_seen_ = Q, self.n_samples_seen_ + len(X) - 1
        return self


def rf_oja_outer_product(n_components, budget, kernel, random_state):
    est = rf_oja(n_components, budget, kernel, random_state)
    return OuterProductOja(n_components, budget, kernel, "cos", learning_rate=est.learning_rate,
                           random_state=random_state)


COST_MS = PerProfile(ci=(128, 256, 512, 1024), quick=(96, 192, 384, 768, 1536),
                     full=(128, 256, 512, 1024, 2048))


#: Slope bands in m: 1 for RF-Oja, 2 for RF-ERM, +- 0.2. Evidence: see the tolerance.
OJA_BAND, ERM_BAND = (0.8, 1.2), (1.8, 2.2)


def _slopes(metric: str, label: str) -> tuple:
    return (SlopeInBand(metric, OJA_BAND, label=f"RF-Oja: {label}", ylabel=label, predicted=1.0, x="m",
                        method="rf-oja", name=f"oja_{metric}_slope"),
            SlopeInBand(metric, ERM_BAND, label=f"RF-ERM: {label}", ylabel=label, predicted=2.0, x="m",
                        method="rf-erm", name=f"erm_{metric}_slope"))


COST = Claim(
    id="ullah18.cost",
    source="Ullah et al. 2018, Table 1 (per-iteration cost and memory of RF-ERM and RF-Oja), App. D.1 and D.2",
    statement="RF-Oja costs O~(k / eps) per iteration and O~(k / eps) memory in Table 1, O(m k) and O(m k) in "
              "App. D.2 (the same with m = O~(1 / eps)); RF-ERM O~(k / eps^3) per iteration and "
              "O~(1 / eps^3) memory in Table 1, O(m^2 k) and O(m^2) in App. D.1 (with m = O~(1 / eps) the "
              "latter are O~(k / eps^2) and O~(1 / eps^2): the table's 1 / eps^3 is the n x m feature matrix, "
              "which RF-ERM need not hold; an erratum). Here as counts in m at k = 3, d = 1: the floats of "
              "state and the memory one update of 8 rows allocates (tracemalloc), not its flops or seconds",
    prediction="state and per-update memory grow like m for RF-Oja (slope 1) and like m^2 for RF-ERM (slope 2)",
    data=MEHLER + "; 64 rows to start, then one traced update of 8 rows",
    metric="floats of state (space_) and traced peak bytes of one partial_fit of 8 rows, against m",
    metrics=("state_floats", "step_bytes"),
    estimators={"rf-oja": rf_oja, "rf-erm": rf_erm},
    experiment=cost_experiment,
    grid=PerProfile(*(Grid(COST_MS[p], 3, per_size=_m_is_n, methods=("rf-oja", "rf-erm"))
                      for p in ("ci", "quick", "full"))),
    judge=AllOf(*_slopes("state_floats", "floats of state"), *_slopes("step_bytes", "bytes per update")),
    tolerance=Tolerance(f"slope CIs in m inside {OJA_BAND} (RF-Oja) and {ERM_BAND} (RF-ERM)",
                        "the counts are deterministic up to allocator noise (CI widths <= 0.003). Roots 0-4 "
                        "(python -m tests.decisiveness): state slopes 1.000 (RF-Oja) and 1.993-1.995 (RF-ERM); "
                        "per-update bytes 0.956-0.968 (RF-Oja: O(m (k + 8)) plus a constant of Python objects, "
                        "which pulls the slope below 1 at small m) and 1.988-1.991 (RF-ERM) at ci (m = "
                        "128..1024) and quick (96..1536). The outer-product fault: RF-Oja's per-update bytes "
                        "1.975, outside the band by 0.78; a band of +-0.2 leaves 0.16 of room to the worst "
                        "correct"),
    faults=(Fault("outer-product-oja", "Oja's step through the m x m outer product z z^T (the same iterate, "
                  "O(m^2) per step)", {"rf-oja": rf_oja_outer_product}),),
)


# -- ullah18.pass-cost: the work of one pass at m = ceil(sqrt(n) ln n) (Sec. 1, Contribution 1) ---

def counting(est):
    """``est`` (any random-feature estimator or subclass) drawing its map as a
    :class:`~suites.papers.ghashami16.traincost.CountingFeatures`, which counts the rows it maps."""
    est.__class__ = counted(type(est))
    return est


def oja_ops(rows: float, d: int, m: int, k: int, qr_every: int, chunks) -> float:
    """Counted multiply-adds of RF-Oja over ``rows`` mapped rows (counted by its map; RF-Oja maps each
    row once, for its update): d m + m per row (x^T Omega and m cos) and 2 m k per update (Q^T z, then
    Q += eta z (z^T Q)); 2 m k^2 per orthonormalisation (Gram-Schmidt twice), done once at the start
    and ceil(r / qr_every) times in a partial_fit of r rows (:func:`kernels.oja.oja_updates`, then the
    pending QR at the end of the call), for the r in ``chunks``."""
    qrs = 1 + sum(math.ceil(r / qr_every) for r in chunks)
    return rows * (d * m + m + 2.0 * m * k) + 2.0 * m * k * k * qrs


def pass_cost_experiment(cell, estimators) -> dict:
    """One pass over n Mehler samples at m = ceil(sqrt(n) ln n), k = 3: RF-Oja streamed in chunks
    of CHUNK rows (``oja_ops``), RF-ERM fitted once as App. D.1 describes (Z^T Z summed over the
    rows, one eigh: :func:`~suites.papers.ghashami16.traincost.train_ops`, rows mapped x (d m + m)
    + rows mapped x m^2 + m^3). ``rows_mapped``: the rows the counting map transformed."""
    m, n = cell.p["m"], cell.n
    X = _model().sample(n, cell.rng())
    est = counting(estimators[cell.method](K, m, KERNEL, _seed_int(cell, "features")))
    if cell.method == "rf-oja":
        chunks = [min(CHUNK, n - s) for s in range(0, n, CHUNK)]
        for s in range(0, n, CHUNK):
            est.partial_fit(X[s:s + CHUNK])
        ops = oja_ops(est.feature_map_.counts.get("rows", 0), X.shape[1], m, K, est.qr_every, chunks)
    else:
        ops = train_ops(est.fit(X))
    return {"ops": float(ops), "rows_mapped": float(est.feature_map_.counts.get("rows", 0))}


class RefittingOja(RFOja):
    """A streaming RF-Oja that refits from the first row on every chunk (it keeps the rows seen and
    runs the whole pass again, as Fig. 2's Nystrom baseline is refit after every sample): the same
    output, O(n^2 / CHUNK) rows mapped."""

    def partial_fit(self, X):
        seen = np.vstack([getattr(self, "rows_", np.empty((0, np.asarray(X).shape[1]))), X])
        old = getattr(self, "feature_map_", None)
        reset_fitted(self)
        RFOja.partial_fit(self, seen)    # the whole pass again, on the same map (an int seed)
        if old is not None and hasattr(old, "counts"):   # keep one counting map and its count
            old.counts["rows"] = old.counts.get("rows", 0) + self.feature_map_.counts.get("rows", 0)
            self.feature_map_ = old
        self.rows_ = seen
        return self


def rf_oja_refitting(n_components, budget, kernel, random_state):
    est = rf_oja(n_components, budget, kernel, random_state)
    return RefittingOja(n_components, budget, kernel, "cos", learning_rate=est.learning_rate,
                        qr_every=est.qr_every, random_state=random_state)


def _m_rule(n: int) -> dict:
    return {"m": m_rule(n)}


PASS_NS = PerProfile(ci=tuple(256 * 2**j for j in range(5)), quick=tuple(256 * 2**j for j in range(7)),
                     full=tuple(256 * 2**j for j in range(8)))


#: Slope bands in n at m = ceil(sqrt(n) ln n): n m ~ n^1.5 ln n for RF-Oja (secant slope 1.5 + about
#: 0.15 of the log over these n), n m^2 ~ n^2 ln^2 n for RF-ERM (2 + about 0.3). Evidence: the tolerance.
OJA_PASS_BAND, ERM_PASS_BAND = (1.45, 1.85), (1.95, 2.6)


PASS_COST = Claim(
    id="ullah18.pass-cost",
    source="Ullah et al. 2018, Sec. 1, Contribution 1 (overall runtime O(k n^(3/2) log n)); App. D.1 and D.2",
    statement="With m = Omega(k sqrt(n) log n) random features, one pass over n samples costs O(k n^(3/2) log n) "
              "(Sec. 1 says it of RF-ERM). Counted from the running code at m = ceil(sqrt(n) ln n), k = 3, d = 1: "
              "that is RF-Oja's cost (n steps of O(m k) plus the O(m d) features and a QR every qr_every steps); "
              "RF-ERM as App. D.1 describes it forms C_hat_m = Z^T Z / n in O(n m^2) = O(n^2 log^2 n), which "
              "Sec. 1 does not count (an erratum: RF-ERM's pass is not O(k n^(3/2) log n))",
    prediction="log-log slope of the counted work against n: about 1.5 (+ the log's 0.15) for RF-Oja, inside "
               f"{OJA_PASS_BAND}; about 2 (+ 0.3) for RF-ERM, inside {ERM_PASS_BAND}, above the 1.85 the stated "
               "O(k n^(3/2) log n) allows",
    data=MEHLER + "; one pass over n samples, RF-Oja in chunks of 256 rows, RF-ERM in one fit",
    metric="counted multiply-adds of one pass: rows mapped by a counting feature map (d m + m each), RF-Oja's "
           "2 m k per update and 2 m k^2 per orthonormalisation, RF-ERM's m^2 per row and the m^3 eigh",
    metrics=("ops", "rows_mapped"),
    estimators={"rf-oja": rf_oja, "rf-erm": rf_erm},
    experiment=pass_cost_experiment,
    grid=PerProfile(*(Grid(PASS_NS[p], 2, per_size=_m_rule, methods=("rf-oja", "rf-erm"))
                      for p in ("ci", "quick", "full"))),
    judge=AllOf(SlopeInBand("ops", OJA_PASS_BAND, label="RF-Oja: counted work of a pass", ylabel="multiply-adds",
                            predicted=1.5, method="rf-oja", name="oja_ops_slope"),
                SlopeInBand("ops", ERM_PASS_BAND, label="RF-ERM: counted work of a pass", ylabel="multiply-adds",
                            predicted=2.0, method="rf-erm", name="erm_ops_slope")),
    tolerance=Tolerance(f"slope CIs in n inside {OJA_PASS_BAND} (RF-Oja) and {ERM_PASS_BAND} (RF-ERM)",
                        "the counts do not depend on the seed (rows mapped = n, m and the chunks fixed by n), so "
                        "every root gives the same slopes: RF-Oja 1.643 / 1.631 / 1.627 and RF-ERM 2.222 / 2.208 / "
                        "2.203 at ci (n = 256..4096) / quick (..16384) / full (..32768), against secant slopes of "
                        "n^1.5 ln n of 1.65 / 1.64 / 1.63 and of n^2 ln^2 n of 2.29 / 2.27 / 2.26 (the m d and "
                        "m^3 terms pull RF-ERM's below). Margins: RF-Oja at least 0.18 inside its band (1.627 - 1.45) "
                        "and 0.21 below its top; RF-ERM 0.25 above 1.95. The refitting fault: RF-Oja's slope 2.340 at "
                        "ci, 0.49 above the band"),
    faults=(Fault("refitting-oja", "a streaming RF-Oja that reruns the whole pass on every chunk of 256 rows "
                  "(keeps the rows, as Fig. 2's Nystrom baseline is refit)", {"rf-oja": rf_oja_refitting}),),
)

CLAIMS = [COST, PASS_COST]
