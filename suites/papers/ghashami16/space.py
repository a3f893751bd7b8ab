"""ghashami16.space: the space SKPCA keeps, counted and traced, against the paper's SPACE."""

from __future__ import annotations


import numpy as np

from kpca_suite.methods.rf_erm import RFERM as RNCA
from kpca_suite.methods.skpca import SKPCA
from kpca_suite.methods.streaming_nystrom import StreamingNystrom
from kpca_suite.theory.ghashami16 import paper_space

from ...claim import Cell, Claim, Fault, PerProfile, Tolerance
from ...counting import traced_peak
from ...judging import AllOf, AllWithin, SlopeInBand
from ._common import _make, _warm, crossed, single_threaded

# -- ghashami16.space ----------------------------------------------------------------------------

SPACE_D, SPACE_ELL, SPACE_BLOCK = 16, 10, 16


SPACE_BANDS = {"skpca": (0.8, 1.2), "rnca": (1.8, 2.2), "nystrom": (1.8, 2.2)}


#: Peak traced bytes of a fit over 8 x the floats it says it holds, at most. Evidence: see
#: the claim's tolerance.
PEAK_OVER_SPACE_MAX = 6.0


@single_threaded
def space_experiment(cell: Cell, estimators) -> dict:
    """Floats held (``space_``) and traced peak bytes of one fit, versus m; the level:
    ``space_off`` = |space_ - the paper's SPACE count| (:func:`theory.ghashami16.paper_space`)
    and ``peak_over_space`` = peak bytes / (8 space_), how far the fit's memory exceeds
    what it says it holds."""
    _warm()
    X = cell.rng().standard_normal((cell.n, SPACE_D))
    est = _make(estimators, cell.method, cell.p["m"], 1.0 / (2 * SPACE_D), cell.rng("method"), SPACE_ELL,
                block_size=SPACE_BLOCK)
    peak = traced_peak(lambda: est.fit(X))
    space = float(est.space_)
    return {"space": space, "peak_bytes": float(peak),
            "space_off": abs(space - paper_space(cell.method, cell.p["m"], SPACE_D, SPACE_ELL)),
            "peak_over_space": float(peak) / (8.0 * space)}


def _space_sweep(n, skpca_exps, other_exps, seeds):
    """m = 2^i per method: SKPCA's grid starts higher (see the tolerance evidence)."""
    exps = {"skpca": skpca_exps, "rnca": other_exps, "nystrom": other_exps}
    common = f"Gaussian data n = {n}, d = {SPACE_D}, ell = {SPACE_ELL}, block {SPACE_BLOCK}, {seeds} seeds: "
    return tuple(crossed(f"{common if i == 0 else ''}{method} m = 2^{e.start}..2^{e.stop - 1}", (method,), (n,),
                         seeds, axes=(("m", tuple(2**j for j in e)),))
                 for i, (method, e) in enumerate(exps.items()))


def _space_rule(method, metric):
    band = SPACE_BANDS[method]
    return SlopeInBand(metric, band, label=f"{method} {'floats held' if metric == 'space' else 'traced peak bytes'}",
                       ylabel=metric, predicted=float(np.mean(band)), x="m", method=method,
                       name=f"{method}_{metric}_slope")


class CovarianceSKPCA(SKPCA):
    """Gets W from eigh(B^T B), an m x m matrix: the same W, quadratic memory."""

    def _components(self, fd):
        C = fd.covariance()
        e, V = np.linalg.eigh(C)
        r = min(self.sketch_size, fd.n_filled_)
        return np.ascontiguousarray(V[:, ::-1][:, :r]), np.sqrt(np.maximum(e[::-1][:r], 0.0))


CLAIMS = [
    Claim(
        id="ghashami16.space",
        source="Ghashami et al. 2016, Sec. 2 (SPACE: O(dm + ell m)), Sec. 1.2 and Table 1 (SPACE column), Sec. 3 "
               "(SPACE counted as md + m ell, m^2 + md, c^2 + cd)",
        statement="SKPCA holds O(dm + ell m), RNCA O(dm + m^2), streaming Nyström O(cd + c^2) (Table 1, with m = c "
                  "= O(log n / eps^2), ell = O(1/eps)); section 3 counts md + m ell, m^2 + md and c^2 + cd: linear "
                  "in Sample Size for SKPCA, quadratic for RNCA and Nyström. Checked against m at fixed d and ell "
                  "(n and eps not varied); the suite's count adds the cos map's m phases for SKPCA and RNCA",
        prediction="space and peak memory linear in m for SKPCA, quadratic for RNCA and Nyström",
        data=f"standard Gaussian data, d = {SPACE_D}, gamma = 1/(2d) (the bandwidth does not change the memory)",
        metric="floats held (space_) and peak traced bytes (tracemalloc) of one fit, versus m",
        metrics=("peak_bytes", "peak_over_space", "space", "space_off"),
        estimators={"skpca": SKPCA, "rnca": RNCA, "nystrom": StreamingNystrom},
        experiment=space_experiment,
        grid=PerProfile(ci=_space_sweep(512, range(7, 13), range(5, 11), 2),
                        quick=_space_sweep(1024, range(7, 13), range(5, 11), 3),
                        full=_space_sweep(8192, range(8, 15), range(6, 13), 5)),
        judge=AllOf(*(_space_rule(method, metric) for method in SPACE_BANDS for metric in ("space", "peak_bytes")),
                    AllWithin(0.0, metrics=("space_off",), what="floats from the paper's SPACE"),
                    AllWithin(PEAK_OVER_SPACE_MAX, metrics=("peak_over_space",), what="(peak bytes / 8 space_)")),
        tolerance=Tolerance(
            rule="bootstrap 95% CIs of the log-log slopes in m inside [0.8, 1.2] (SKPCA) and [1.8, 2.2] (RNCA, "
                 "Nyström); the level: space_ equals the paper's SPACE count plus the cos map's m phases exactly (d m + m + "
                 f"ell m, d m + m + m^2; Nyström's m d + m^2 as printed) and peak traced bytes <= {PEAK_OVER_SPACE_MAX:g} x 8 space_ in every cell",
            evidence="no measurement recorded for the 0.2 width (the ci run, seeds 0-1, n = 512, gives slopes "
                     "space / peak bytes: SKPCA 1.000 / 0.960, RNCA 1.888 / 1.908, Nyström 1.893 / 1.832); SKPCA's m grid starts at 128 because its state is "
                     "so small (about 360 m bytes) that a fixed ~30 kB of Python objects per fit (measured, "
                     "n = 1024, after warm-up) flattens the slope below m ~ 100 (m = 32..1024: 0.80); RNCA's and "
                     "Nyström's m x m eigh caps theirs at 1024 (ci, quick). Peak bytes / 8 space_: ci 2.23-4.36, "
                     "quick 2.23-4.37 (largest for Nyström at m = 64, where Python objects weigh most; 2.23 for SKPCA "
                     "at large m), hence 6; the m-by-m-covariance fault reaches 11.8 at m = 128 and 305 at m = 4096"),
        faults=(Fault("m-by-m-covariance", "SKPCA that gets W from eigh(B^T B), an m x m matrix",
                      {"skpca": CovarianceSKPCA}, keep=lambda c: c.method != "skpca" or c.p["m"] <= 1024),),
    ),
]
