"""hallgren21.cost: the costs the paper states (Sec. 4, Sec. 6, Sec. 7.1), counted from the running
code, never timed.

Counted operations of one fit (an eigendecomposition of a size-s matrix counted as s^3, its order;
the kernel entries counted by a counting kernel passed to the method, p the input dimension):

- centred Nyström KPCA (Theorem 1, the cheaper form): every kernel entry it evaluates costs p
  (the distance) plus, since each block K_bm feeds K_mn K_nm (b m^2) or the scores, m more;
  then two m x m eigendecompositions (K_mm^{-1/2} and the matrix of Eq. (2)):
  ``nystrom_ops = entries (p + m) + 2 m^3``, O(nm^2) at fixed p once n m^2 dominates m^3;
- exact centred KPCA (dense): its entries times p (the n^2 entries of K) plus the n^3 eigh;
- Theorem 3's bound: the entries of K_mm it needs times p plus the m^3 eigh
  (``bound_ops``), and its peak traced memory (``bound_peak``, tracemalloc bytes).

Sec. 4: O(nm^2) time, so the count is linear in n at fixed m and quadratic in m once n m^2
dominates. Sec. 6: the bound takes O(m^3) time and O(m^2) memory and needs only the m subset
points and n: its entries and memory do not grow with n. Sec. 7.1: Nyström KPCA (m = 100) was
faster than full KPCA at n = 500 on the eight sets (0.988 s against 2.753 s, a ratio of 2.8): here
the ratio of counted operations, never seconds."""

from __future__ import annotations

import numpy as np

from kpca_suite.methods.centered_nystrom import CenteredNystromKPCA
from kpca_suite.methods.exact import ExactKPCA
from kpca_suite.theory.hallgren_bounds import theorem3_bound

from ...claim import Cell, Claim, Fault, Grid, PerProfile, Tolerance
from ...counting import CountingKernel, traced_peak
from ...datasets import HALLGREN_DATASETS, load_uci
from ...judging import AllOf, AllWithin, SlopeInBand, Where

COST_P, COST_K, COST_D = 8, 10, 10       # input dimension of the sweeps, components, the bound's d
COST_M, RACE_N, RACE_M = 50, 500, 100    # m of the sweep in n; Sec. 7.1's n and m


def _kernel(p: int) -> CountingKernel:
    return CountingKernel("gaussian", gamma=1.0 / p, counts={})


def subset_bound(X, idx, kernel, n, d):
    """Theorem 3's bound from the m subset points alone: K_mm = k(X_S, X_S), then
    :func:`theory.hallgren_bounds.theorem3_bound` (K_mm and n)."""
    return theorem3_bound(kernel.block(X[idx]), n, d)


def nystrom_ops(X, kernel, m, est, rng) -> float:
    """Counted operations of one centred Nyström fit (module docstring)."""
    est(COST_K, kernel, landmarks=m, random_state=rng).fit(X)
    return float(kernel.counts["entries"] * (X.shape[1] + m) + 2 * m**3)


def cost_experiment(cell: Cell, est) -> dict:
    """By ``sweep``: "n" or "m", Gaussian data (p = 8): the centred Nyström fit's ``nystrom_ops`` and
    the bound's ``bound_ops``, ``bound_entries`` and ``bound_peak`` on a uniform subset of m; "race",
    data set ``data`` (its first 500 rows): ``nystrom_over_exact``, the Nyström fit's counted operations
    over exact centred KPCA's (Sec. 7.1)."""
    p, n = cell.p, cell.n
    rng = cell.rng("landmarks")
    if p["sweep"] == "race":
        X, _ = load_uci(p["data"], n=n)
        ny = nystrom_ops(X, _kernel(X.shape[1]), RACE_M, est["nystrom"], rng)
        kern = _kernel(X.shape[1])
        est["exact"](COST_K, kern, center=True, solver="dense").fit(X)
        exact = float(kern.counts["entries"] * X.shape[1] + n**3)
        return {"nystrom_ops": ny, "exact_ops": exact, "nystrom_over_exact": ny / exact}
    m = p["m"]
    X = cell.rng().standard_normal((n, COST_P))
    idx = np.sort(rng.choice(n, m, replace=False))
    est["bound"](X, idx, _kernel(COST_P), n, COST_D)  # once untraced: first-call imports are no cost of the bound
    kern = _kernel(COST_P)
    peak = traced_peak(lambda: est["bound"](X, idx, kern, n, COST_D))
    entries = kern.counts["entries"]
    return {"nystrom_ops": nystrom_ops(X, _kernel(COST_P), m, est["nystrom"], rng),
            "bound_entries": float(entries), "bound_ops": float(entries * COST_P + m**3),
            "bound_peak": float(peak)}


class EagerTraceNystrom(CenteredNystromKPCA):
    """A planted fault: the fit also forms the full kernel matrix, for the exact (1/n) Tr K' of
    Eq. (4) (n^2 entries; the suite sums it lazily, blockwise, only when read)."""

    def fit(self, X):
        K = self.kernel.block(np.asarray(X, dtype=np.float64))
        self.exact_trace_ = float(np.mean(np.diag(K)) - K.mean())
        return super().fit(X)


def bound_from_full_gram(X, idx, kernel, n, d):
    """A planted fault: K_mm read off the full n x n kernel matrix of the data."""
    return theorem3_bound(kernel.block(X)[np.ix_(idx, idx)], n, d)


def _cost_grids(ns, ms, n_m, sets):
    return (Grid(sizes=tuple(ns), seeds=1, params={"sweep": "n", "m": COST_M}, methods=("nystrom",),
                 describe=f"in n = {ns[0]}..{ns[-1]} at m = {COST_M}, N(0, I_{COST_P})"),
            *(Grid(sizes=(n_m,), seeds=1, params={"sweep": "m", "m": m}, methods=("nystrom",),
                   describe=f"m = {m}, n = {n_m}") for m in ms),
            *(Grid(sizes=(RACE_N,), seeds=1, params={"sweep": "race", "data": s}, methods=("nystrom",),
                   describe=f"{s}, n = {RACE_N}, m = {RACE_M}, against exact KPCA") for s in sets))


#: slope bands of the counted costs (evidence in the Tolerance)
N_BAND, M_BAND, BOUND_M_BAND, FLAT_BAND, PEAK_M_BAND = (0.9, 1.1), (1.6, 2.2), (2.5, 3.1), (-0.05, 0.05), (1.7, 2.3)


def _slope(metric, band, x, label, sweep, name):
    return Where("sweep", sweep, SlopeInBand(metric, band=band, label=label, ylabel="count", x=x, name=name))


COST = Claim(
    id="hallgren21.cost",
    source="Hallgren 2021, Sec. 4 (complexity of Nyström KPCA), Sec. 6 (cost of the bound), Sec. 7.1 (timing)",
    statement="centred Nyström KPCA costs O(nm^2) (centring adds O(m^3 + nm)); Theorem 3's bound costs O(m^3) "
              "time and O(m^2) memory and needs only the m subset points and n; at n = 500, m = 100 Nyström KPCA "
              "is cheaper than full KPCA on the eight sets (the paper times 0.988 s against 2.753 s)",
    prediction="counted operations, never seconds: Nyström's slope in n about 1 and in m about 2; the bound's "
               "kernel entries and memory flat in n, its memory about m^2 and its operations about m^3; Nyström's "
               "count below exact KPCA's on every set at n = 500, m = 100",
    data=f"N(0, I_{COST_P}) with the Gaussian kernel γ = 1/{COST_P} for the sweeps (m = {COST_M} in n; n fixed in "
         f"m), the first {RACE_N} rows of the UCI sets (γ = 1/p) for Sec. 7.1; d = {COST_K} components, the bound "
         f"at d = {COST_D}, α = 0.9",
    metric="counted operations (kernel entries from a counting kernel times their cost, eigendecompositions "
           "s^3), the bound's kernel entries and peak traced bytes (tracemalloc)",
    metrics=("bound_entries", "bound_ops", "bound_peak", "exact_ops", "nystrom_ops", "nystrom_over_exact"),
    estimators={"nystrom": CenteredNystromKPCA, "exact": ExactKPCA, "bound": subset_bound},
    experiment=cost_experiment,
    grid=PerProfile(ci=_cost_grids((500, 1000, 2000), (25, 50, 100, 200), 2000, ("yeast", "magic")),
                    quick=_cost_grids((2000, 4000, 8000, 16000, 32000), (25, 50, 100, 200, 400), 32000,
                                      HALLGREN_DATASETS),
                    full=_cost_grids((4000, 8000, 16000, 32000, 64000, 128000), (25, 50, 100, 200, 400, 800), 128000,
                                     HALLGREN_DATASETS)),
    judge=AllOf(_slope("nystrom_ops", N_BAND, "n", "centred Nyström fit, counted ops vs n", "n", "slope_n"),
                _slope("nystrom_ops", M_BAND, "m", "centred Nyström fit, counted ops vs m", "m", "slope_m"),
                _slope("bound_entries", FLAT_BAND, "n", "bound: kernel entries vs n", "n", "bound_entries_n"),
                _slope("bound_peak", FLAT_BAND, "n", "bound: peak traced bytes vs n", "n", "bound_peak_n"),
                _slope("bound_peak", PEAK_M_BAND, "m", "bound: peak traced bytes vs m", "m", "bound_peak_m"),
                _slope("bound_ops", BOUND_M_BAND, "m", "bound: counted ops vs m", "m", "bound_ops_m"),
                Where("sweep", "race", AllWithin(1.0, metrics=("nystrom_over_exact",),
                                                 what="(Nyström's counted operations over exact KPCA's)"))),
    tolerance=Tolerance(
        rule=f"slopes (deterministic counts, one seed) inside: Nyström in n {list(N_BAND)}, in m {list(M_BAND)}; "
             f"the bound's entries and peak in n {list(FLAT_BAND)}, its peak in m {list(PEAK_M_BAND)}, its ops in m "
             f"{list(BOUND_M_BAND)}; Nyström over exact KPCA <= 1 on every set at n = {RACE_N}, m = {RACE_M}",
        evidence="counts are deterministic (identical under every root). ci (n = 500-2000 at m = 50; m = 25-200 at "
                 "n = 2000): Nyström slope 0.932 in n (the 2 m^3 term keeps it below 1; the band's closest margin, "
                 "0.032), 1.944 in m (entries p + m with p = 8: n m^2 dominates from m = 25), the bound's entries and "
                 "peak exactly flat in n (0.000), its peak 1.958 and its operations 2.887 in m, Nyström over exact "
                 "KPCA 0.116 (yeast) and 0.111 (magic); quick (n to 32000): 0.989, 1.916, 0.000, 0.000, 1.971, "
                 "2.910, and 0.111-0.138 on the six low-dimensional sets, 0.414 and 0.425 on dailykos and "
                 "nips; full (n to 128000, m to 800): 0.996, 1.930, 0.000, 0.000, 1.977, 2.927, the same ratios; on dailykos and "
                 "nips the p = 6906 / 12419 distance costs dominate and the fit evaluates K_nm twice (fit "
                 "and scores): the paper's measured ratio, 0.988 / 2.753 = 0.36, is of the same order. The faults: "
                 "eager-trace slope 1.889 in n and 0.972 in m at ci; bound-from-full-gram slopes 2.000 (entries) and "
                 "1.981 (peak) in n. The bound's first call imports scipy pieces (15 MB traced): it is called once "
                 "untraced first"),
    faults=(Fault("eager-trace", "the Nyström fit forms the full n x n kernel matrix for the exact Tr K' of Eq. (4)",
                  {"nystrom": EagerTraceNystrom}),
            Fault("bound-from-full-gram", "the bound reads K_mm off the full kernel matrix of the data",
                  {"bound": bound_from_full_gram})),
)


CLAIMS = [
    COST,
]
