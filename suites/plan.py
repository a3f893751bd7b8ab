"""``kpca-suite plan``: what a profile costs before it runs.

For every cell of the profile an estimate of its CPU seconds (the cell's wall time
on one worker, BLAS on one thread: :func:`suites.runner.execute_cell`) and of its
peak traced memory (:mod:`tracemalloc` bytes: Python and NumPy allocations, not
the worker's interpreter and libraries); per claim and in total the sums, and the
wall time of the whole profile on W workers.

The estimate of one cell
------------------------
1. **Measured**: a results store holds the cell (the same ``Cell.key()``): its
   recorded wall time, from the first store that holds it (the ``--store``
   directories in the order given, then the calibration store), and its peak from
   the first of them that traced it (``kpca-suite run --trace-memory``; the
   calibration traces every cell; an untraced cell's peak is fitted). A
   stored cell counts only while its claim still makes it (its key is in the
   claim's ci, quick or full sweep): a cell of an older sweep ran older code and
   is ignored, and the plan says how many were.
2. **Fitted**: the law of the cell's claim and method, for y = seconds and for
   y = peak bytes,

       y = t0 + exp(a) · Π_f x_f^(b_f),

   over the cell's sizes x_f: n when n > 0 (``ghashami16.fd-*`` have n = 0: no
   size) and the parameters named in :data:`SIZE_PARAMS` (m, ell, d, J, ...).
   The data are *points*: the median y of the measured cells of one (claim,
   method, sizes), weighted by ``cells x (y / largest y)^``:data:`WEIGHT_POWER`,
   so that the sizes that make up the cost steer the fit and the flat, fixed
   cost of the smallest cells (and a worker's first cell, which compiles Numba
   code) does not bend it.

   *Exponents* b_f: weighted least squares of log y on log x with one intercept
   per (claim, method), on the points of the finest group in which x_f varies:
   the claim and method, else the claim, else the paper, else every measured
   claim. Sizes enter a fit in the order n, then :data:`SIZE_PARAMS`; one whose
   log stays within :data:`INDEPENDENT` of a linear function of the logs of those
   before it (m = n^θ ln n against n) gets no exponent of its own (b_f = 0: its
   effect is in theirs, which holds while the target keeps the relation). A size
   that varies in no group gets :data:`ASSUMED_EXPONENT`: linear in time (a
   count of repetitions, test points or dimensions multiplies the work) and
   none in memory (it rarely sizes the largest array: ghashami16's n x n Gram
   does not grow with d), a guess the plan names. Exponents are clipped to
   :data:`EXPONENT_RANGE`.

   *Level*: a is the weighted mean of log y - Σ_f b_f log x_f over the points of
   the claim and method (of the claim when the method has none), with t0 = 0.
   Then, when the claim and method's own points have at least 3 distinct n
   and at least k + 3 points for the k exponents fitted on them, t0 (between 0
   and the smallest point), a and those k exponents are refitted together:
   weighted least squares of log y - log(t0 + exp(a) Π x^b)
   (:func:`fit_overhead`). With two values of n, t0 and n's exponent are
   confounded (ghashami16.randomnoisy, measured at n = 500 and 2000, got t0 =
   the n = 500 time and n^2.6: 4.6x too slow at n = 20000).

Extrapolated far in n, a law fitted on small cells can be far off either way (:func:`probe_cells`);
``plan --probe`` first times, per claim and method, the largest cell of the planned profile and the
smallest at its largest n, and a plan that extrapolates in n says so in its totals. Fitted on the
quick cells alone, the full profile's plan once put ghashami16.randomnoisy at 33.5 CPU-h (it took
1.06 h: no cell at n = 20000 took more than 36 s) and sterge20.insample-nystrom's cells at
0.5 s (14x short of the 7 s measured: its exact eigendecomposition grows faster than the paper's
pooled n^0.86). Checked against the full profile's run of 2026-11-28 (13,234 cells of the 60 claims,
4.01 CPU-h, nothing else running): fitted on a quick store alone the plan was 1.18x the total but
0.09x-3.5x per claim above one CPU-minute; with both probes 1.17x the total and 0.73x-1.47x per
claim. Where one power law per method is strained, as for ghashami16.rff-rate (an n^2 d Gram that
does not grow with m plus a part that does), the plan is least sure: 1.36x probed here, 1.52x
against an earlier run of the same claim.

The timings of any finished store serve (a quick or ci run, a partial full run); peak memory
is estimated only from traced cells, else the plan says "not traced". A claim with no
measured cell in any store is **calibrated** when allowed: its
ci-profile cells (the sweep pytest runs, seconds per claim) run into the
calibration store (:func:`calibrate`), then are fitted as above.

Per claim the plan also says how far it extrapolates: max target n / max
measured n; the sizes whose exponent came from a coarser group or was assumed,
with the factor by which the target exceeds the measured range; categorical
parameters (data sets, kernels) with values no measured cell had; and methods
with no measured cell.

Wall time on W workers: the makespan of longest-processing-time-first list
scheduling of the cell estimates (each cell, longest first, goes to the
least-loaded worker; within 4/3 of the optimum), and the lower bound
max(total / W, longest cell) that no schedule beats.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from .claim import PROFILES, Cell

#: Cell parameters that are sizes (sketch or landmark count m, rank ell, input
#: dimension d, truncation J, components k, subset size p, repetitions reps and R,
#: test points): numeric and > 0 they enter the law beside n.
SIZE_PARAMS = ("m", "ell", "d", "J", "k", "p", "reps", "R", "test")
#: Groups whose measured cells may fit an exponent, finest first.
LEVELS = ("method", "claim", "paper", "all")
#: Clip range of the fitted exponents, per quantity.
EXPONENT_RANGE = {"seconds": (0.0, 3.0), "peak": (0.0, 2.0)}
#: Exponent of a size that varies in no measured group, per quantity (a stated guess).
ASSUMED_EXPONENT = {"seconds": 1.0, "peak": 0.0}
#: A size enters a fit when its log differs by at least this much (max over the
#: points, about 10 %) from the best linear function of the logs of those in it.
INDEPENDENT = 0.1
#: Weight of a point: cells x (y / largest y of the fit)^WEIGHT_POWER.
WEIGHT_POWER = 0.5
QUANTITIES = ("seconds", "peak")


@dataclass(frozen=True)
class Timing:
    """A measured cell: wall seconds and peak traced bytes (None: not traced,
    ``kpca-suite run`` without ``--trace-memory``)."""

    cell: Cell
    seconds: float
    peak: Optional[int]


def sizes(cell: Cell) -> dict:
    """The sizes of a cell: ``n`` when positive, and the positive numeric
    parameters named in :data:`SIZE_PARAMS`."""
    out = {"n": float(cell.n)} if cell.n > 0 else {}
    for name, v in cell.params:
        if (name in SIZE_PARAMS and isinstance(v, (int, float)) and not isinstance(v, bool)
                and math.isfinite(v) and v > 0):
            out[name] = float(v)
    return out


# ---------------------------------------------------------------------- the fit

@dataclass(frozen=True)
class Point:
    """The measured cells of one (claim, method) at one size: their median value."""

    group: tuple
    sizes: tuple
    value: float
    cells: int

    @property
    def x(self) -> dict:
        return dict(self.sizes)


def points(timings, quantity: str) -> list:
    """The :class:`Point` of every (claim, method, sizes) among ``timings``, over
    the cells with a finite positive ``quantity``."""
    bins = defaultdict(list)
    for t in timings:
        y = getattr(t, quantity)
        if y is not None and math.isfinite(y) and y > 0:
            bins[(t.cell.claim, t.cell.method), tuple(sorted(sizes(t.cell).items()))].append(y)
    return [Point(g, s, float(np.median(v)), len(v)) for (g, s), v in bins.items()]


def weights(pts) -> np.ndarray:
    """cells x (value / largest value)^:data:`WEIGHT_POWER` per point."""
    v = np.array([p.value for p in pts])
    return np.array([p.cells for p in pts]) * (v / v.max()) ** WEIGHT_POWER


def _demean(a: np.ndarray, groups: list, w: np.ndarray) -> np.ndarray:
    """``a`` minus its ``w``-weighted mean over the rows of each group."""
    out = np.array(a, dtype=float)
    index = defaultdict(list)
    for i, g in enumerate(groups):
        index[g].append(i)
    for rows in index.values():
        out[rows] -= np.average(out[rows], axis=0, weights=w[rows])
    return out


def within_exponents(timings, quantity: str) -> tuple:
    """``({size: exponent}, absorbed)``: weighted least squares of log y on log x_f
    with one intercept per (claim, method), over the sizes that vary
    independently (:data:`INDEPENDENT`) within the groups, each clipped to
    :data:`EXPONENT_RANGE`; ``absorbed``: the sizes that vary, but not
    independently of those before them. Sizes that do not vary are in neither."""
    pts = points(timings, quantity)
    if len(pts) < 2:
        return {}, set()
    names = [f for f in ("n",) + SIZE_PARAMS if any(f in p.x for p in pts)]
    groups = [p.group for p in pts]
    w = weights(pts)
    X = _demean(np.log([[p.x.get(f, 1.0) for f in names] for p in pts]).reshape(len(pts), -1), groups, w)
    y = _demean(np.log([p.value for p in pts]), groups, w)
    chosen, absorbed = [], set()
    for j, f in enumerate(names):
        if np.max(np.abs(X[:, j])) < INDEPENDENT:
            continue
        r = X[:, j]
        if chosen:
            r = r - X[:, chosen] @ np.linalg.lstsq(X[:, chosen], r, rcond=None)[0]
        if np.max(np.abs(r)) >= INDEPENDENT:
            chosen.append(j)
        else:
            absorbed.add(f)
    if not chosen:
        return {}, absorbed
    sw = np.sqrt(w)
    b = np.linalg.lstsq(X[:, chosen] * sw[:, None], y * sw, rcond=None)[0]
    lo, hi = EXPONENT_RANGE[quantity]
    return {names[j]: float(np.clip(bj, lo, hi)) for j, bj in zip(chosen, b)}, absorbed


@dataclass
class Law:
    """y = overhead + exp(level) · Π_f x_f^exponents[f], for ``quantity``;
    ``sources[f]`` is the group that fitted exponent f (one of :data:`LEVELS`)
    or ``"assumed"``; ``basis`` the group whose points set the level
    (``"method"``, or ``"claim"`` when the method has none)."""

    quantity: str
    exponents: dict
    sources: dict
    basis: str
    level: float = 0.0
    overhead: float = 0.0

    def log_scale(self, x: dict) -> float:
        """Σ_f b_f log x_f."""
        return sum(b * math.log(x.get(f, 1.0)) for f, b in self.exponents.items())

    def __call__(self, cell: Cell) -> float:
        return self.overhead + math.exp(self.level + self.log_scale(sizes(cell)))

    def formula(self) -> str:
        terms = "".join(f" {f}^{b:.2f}" for f, b in sorted(self.exponents.items()) if b)
        return (f"{self.overhead:.3g} + " if self.overhead else "") + f"{math.exp(self.level):.3g}{terms}"

    def as_dict(self) -> dict:
        return {"formula": self.formula(), "overhead": self.overhead, "level": self.level,
                "exponents": self.exponents, "sources": self.sources, "basis": self.basis}


def fit_level(law: Law, pts) -> Law:
    """``law`` with t0 = 0 and a = the weighted mean of log y - Σ_f b_f log x_f over ``pts``."""
    law.overhead = 0.0
    law.level = float(np.average([math.log(p.value) - law.log_scale(p.x) for p in pts], weights=weights(pts)))
    return law


def fit_overhead(law: Law, pts, free) -> Law:
    """``law`` refitted with an overhead: weighted least squares of
    log y - log(t0 + exp(a) Π_f x_f^b_f) over ``pts`` in t0 (0 .. the smallest
    value), a and the exponents of ``free`` (within :data:`EXPONENT_RANGE`), the
    other exponents held; the best of three starts (t0 = 0, 1/2 and 9/10 of the
    smallest value), kept only if it fits better than ``law`` as it is."""
    from scipy.optimize import least_squares
    logy = np.log([p.value for p in pts])
    sw = np.sqrt(weights(pts))
    held = np.array([sum(b * math.log(p.x.get(f, 1.0)) for f, b in law.exponents.items() if f not in free)
                     for p in pts])
    logx = np.log([[p.x.get(f, 1.0) for f in free] for p in pts]).reshape(len(pts), len(free))
    smallest = float(np.exp(logy.min()))
    lo_b, hi_b = EXPONENT_RANGE[law.quantity]
    lo = np.r_[0.0, -np.inf, [lo_b] * len(free)]
    hi = np.r_[smallest, np.inf, [hi_b] * len(free)]

    def residual(theta):
        return sw * (logy - np.log(theta[0] + np.exp(theta[1] + held + logx @ theta[2:])))

    plain = np.r_[0.0, law.level, [law.exponents[f] for f in free]]
    best, cost = plain, 0.5 * np.sum(residual(plain) ** 2)
    for share in (0.0, 0.5, 0.9):
        start = np.r_[share * smallest, law.level + math.log1p(-share), [law.exponents[f] for f in free]]
        fit = least_squares(residual, np.clip(start, lo, np.nextafter(hi, -np.inf)), bounds=(lo, hi))
        if fit.cost < cost:
            best, cost = fit.x, fit.cost
    law.overhead, law.level = float(best[0]), float(best[1])
    law.exponents.update({f: float(b) for f, b in zip(free, best[2:])})
    return law


class CostModel:
    """The laws of the module docstring, fitted on ``timings`` (measured cells of
    any claims); ``papers`` maps a claim id to its paper."""

    def __init__(self, timings, papers: dict):
        self.papers = papers
        self.groups = {level: defaultdict(list) for level in LEVELS}
        for t in timings:
            for level, key in zip(LEVELS, self._keys(t.cell.claim, t.cell.method)):
                self.groups[level][key].append(t)
        self._exponents: dict = {}

    def _keys(self, claim: str, method: str) -> tuple:
        return (claim, method), claim, self.papers.get(claim, claim.split(".", 1)[0]), None

    def measured(self, claim: str) -> list:
        """The measured cells of ``claim``."""
        return self.groups["claim"].get(claim, [])

    def exponents(self, level: str, key, quantity: str) -> tuple:
        """:func:`within_exponents` of one group, cached."""
        k = (level, key, quantity)
        if k not in self._exponents:
            self._exponents[k] = within_exponents(self.groups[level].get(key, []), quantity)
        return self._exponents[k]

    def law(self, claim: str, method: str, quantity: str, features) -> Optional[Law]:
        """The law of (claim, method) over ``features`` (size names), or None
        when the claim has no measured cell with a positive ``quantity``."""
        keys = self._keys(claim, method)
        basis, pts = "method", points(self.groups["method"].get(keys[0], []), quantity)
        if not pts:
            basis, pts = "claim", points(self.measured(claim), quantity)
        if not pts:
            return None
        exps, sources = {}, {}
        for f in features:
            for level, key in zip(LEVELS, keys):
                fitted, absorbed = self.exponents(level, key, quantity)
                if f in fitted or f in absorbed:
                    exps[f], sources[f] = fitted.get(f, 0.0), level
                    break
            else:
                exps[f], sources[f] = ASSUMED_EXPONENT[quantity], "assumed"
        law = fit_level(Law(quantity, exps, sources, basis), pts)
        free = [f for f in self.exponents("method", keys[0], quantity)[0] if f in exps]
        if basis == "method" and "n" in free and len({p.x["n"] for p in pts}) >= 3 and len(pts) >= len(free) + 3:
            law = fit_overhead(law, pts, free)
        return law


# ---------------------------------------------------------------------- the plan

@dataclass
class ClaimPlan:
    """One claim of the plan: per-cell estimates (None: no timings), how many
    cells were measured, the laws per method and quantity, the n extrapolation
    factor (None when n is no size or nothing was measured) and notes on the guesses.
    ``first_look`` marks the cells of the claim's first look (:func:`suites.pipeline.seed_looks`;
    None: the claim runs every seed), all it costs when that look decides it."""

    claim: str
    cells: int
    measured: int
    seconds: Optional[list] = None
    peaks: Optional[list] = None
    extrapolation: Optional[float] = None
    notes: list = field(default_factory=list)
    laws: dict = field(default_factory=dict)
    first_look: Optional[list] = None

    @property
    def timed(self) -> bool:
        return self.seconds is not None

    @property
    def max_peak(self) -> Optional[float]:
        return max(self.peaks) if self.peaks else None

    @property
    def least_seconds(self) -> Optional[float]:
        """CPU seconds if the first look decides the claim (every seed's when it has one look)."""
        if not self.timed:
            return None
        return float(sum(s for s, first in zip(self.seconds, self.first_look or [True] * self.cells) if first))

    def as_dict(self) -> dict:
        d = {"claim": self.claim, "cells": self.cells, "measured": self.measured, "timed": self.timed,
             "n_extrapolation": self.extrapolation, "notes": self.notes,
             "laws": {m: {q: law.as_dict() for q, law in laws.items() if law is not None}
                      for m, laws in self.laws.items()}}
        if self.timed:
            d.update(cpu_seconds=float(sum(self.seconds)), first_look_cpu_seconds=self.least_seconds,
                     median_seconds=float(np.median(self.seconds)),
                     max_seconds=float(max(self.seconds)), max_peak_bytes=self.max_peak)
        return d


def lpt_makespan(times, workers: int) -> float:
    """Makespan of longest-processing-time-first list scheduling: each time, the
    longest first, goes to the worker with the least load so far."""
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    times = list(times)
    loads = [0.0] * min(workers, max(len(times), 1))  # workers beyond one per task stay idle
    for t in sorted(times, reverse=True):
        heapq.heapreplace(loads, loads[0] + t)
    return max(loads)


def lower_bound(times, workers: int) -> float:
    """max(total / W, longest): no schedule on W workers finishes sooner."""
    times = list(times)
    return max(sum(times) / workers, max(times, default=0.0))


@dataclass
class Plan:
    """The plan of ``profile`` on ``workers`` workers, per claim; ``sources`` says
    where the timings came from."""

    profile: str
    workers: int
    claims: list
    sources: list = field(default_factory=list)

    def totals(self) -> dict:
        """Cells, measured cells, CPU seconds, the LPT wall time and its lower bound
        on W workers, the largest per-cell peak and its claim, the claims without timings."""
        timed = [c for c in self.claims if c.timed]
        times = [s for c in timed for s in c.seconds]
        top = max(((c.max_peak, c.claim) for c in timed if c.peaks), default=(None, None))
        return {"cells": sum(c.cells for c in self.claims), "measured": sum(c.measured for c in self.claims),
                "cpu_seconds": float(sum(times)), "first_look_cpu_seconds": sum(c.least_seconds for c in timed),
                "workers": self.workers,
                "wall_seconds": lpt_makespan(times, self.workers),
                "wall_lower_bound_seconds": lower_bound(times, self.workers),
                "max_peak_bytes": top[0], "max_peak_claim": top[1],
                "untimed_claims": [c.claim for c in self.claims if not c.timed],
                "untimed_cells": sum(c.cells for c in self.claims if not c.timed)}

    def as_dict(self) -> dict:
        return {"profile": self.profile, "workers": self.workers, "timings_from": self.sources,
                "claims": [c.as_dict() for c in self.claims], "total": self.totals()}


def _extrapolation(cells, measured) -> Optional[float]:
    """max target n / max measured n (None when n is no size of the claim)."""
    tn = [c.n for c in cells if c.n > 0]
    mn = [t.cell.n for t in measured if t.cell.n > 0]
    return max(tn) / max(mn) if tn and mn else None


def _size_notes(laws: dict, cells, base) -> list:
    """Per size whose exponent came from beyond the claim (or was assumed) and whose
    target range exceeds the measured one: the factor and where the exponents came from."""
    out = []
    names = sorted({f for law in laws.values() if law is not None for f in law.exponents})
    for f in names:
        used = {q: law for q, law in laws.items() if law is not None and law.sources.get(f) not in
                (None, "method", "claim")}
        top = max((sizes(c).get(f, 1.0) for c in cells), default=1.0)
        seen = max((sizes(t.cell).get(f, 1.0) for t in base), default=1.0)
        if not used or top <= seen * (1 + 1e-9):
            continue
        how = ", ".join(f"{'time' if q == 'seconds' else 'memory'} {law.exponents[f]:.2f} "
                        f"({'assumed' if law.sources[f] == 'assumed' else law.sources[f] + ' fit'})"
                        for q, law in used.items())
        out.append(f"{f} up to {top / seen:.3g}x the measured; exponent {how}")
    return out


def _category_notes(cells, measured) -> list:
    """Non-size parameters with target values no measured cell had."""
    seen = defaultdict(set)
    for t in measured:
        for k, v in t.cell.params:
            seen[k].add(repr(v))
    new = defaultdict(set)
    for c in cells:
        for k, v in c.params:
            if k not in SIZE_PARAMS and repr(v) not in seen[k]:
                new[k].add(repr(v))
    return [f"{k} takes {len(v)} value(s) no measured cell had ({', '.join(sorted(v)[:3])}"
            f"{', ...' if len(v) > 3 else ''}): its cost is the measured values'" for k, v in sorted(new.items())]


def claim_plan(claim_id: str, cells, timings: dict, model: CostModel, ignored: int = 0,
               first_look=None) -> ClaimPlan:
    """The plan of one claim's ``cells``: measured where ``timings`` (``{key:
    Timing}``) has the key, else the model's laws per method; ``first_look`` the seeds of
    its first look (None: one look)."""
    measured = model.measured(claim_id)
    hits = [timings.get(c.key()) for c in cells]
    plan = ClaimPlan(claim_id, len(cells), sum(h is not None for h in hits),
                     extrapolation=_extrapolation(cells, measured),
                     first_look=None if first_look is None else [c.seed in first_look for c in cells])
    if ignored:
        plan.notes.append(f"{ignored} stored cell(s) of an older sweep ignored")
    if not points(measured, "seconds"):
        return plan
    todo = defaultdict(list)
    for c, h in zip(cells, hits):
        if h is None or not h.peak:
            todo[c.method].append(c)
    for method, mine in todo.items():
        base = [t for t in measured if t.cell.method == method]
        features = sorted({f for c in mine for f in sizes(c)} | {f for t in base for f in sizes(t.cell)})
        laws = plan.laws[method] = {q: model.law(claim_id, method, q, features) for q in QUANTITIES}
        if not base:
            plan.notes.append(f"method {method} has no measured cell: its level is the claim's other methods'")
        plan.notes.extend(n for n in _size_notes(laws, mine, base or measured) if n not in plan.notes)
    plan.notes.extend(_category_notes([c for c, h in zip(cells, hits) if h is None], measured))
    plan.seconds = [h.seconds if h else plan.laws[c.method]["seconds"](c) for c, h in zip(cells, hits)]
    peak = [float(h.peak) if h and h.peak else _apply(plan.laws[c.method]["peak"], c) for c, h in zip(cells, hits)]
    plan.peaks = [p for p in peak if p is not None]
    return plan


def _apply(law: Optional[Law], cell: Cell) -> Optional[float]:
    return law(cell) if law is not None else None


def make_plan(cells_by_claim: dict, profile: str, workers: int, timings: dict, papers: dict,
              ignored: Optional[dict] = None, sources=(), first_looks: Optional[dict] = None) -> Plan:
    """The plan of ``cells_by_claim`` (``{claim id: [cells]}``, as from
    :func:`suites.runner.sweep_cells`) from ``timings`` (``{key: Timing}``: every
    measured cell, of any claim and profile; all of them feed the coarser fits);
    ``ignored`` counts stale stored cells per claim; ``first_looks`` ``{claim id: seeds}``
    the first look of each claim judged in looks."""
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    model = CostModel(timings.values(), papers)
    ignored, first_looks = ignored or {}, first_looks or {}
    return Plan(profile, workers, [claim_plan(cid, cells, timings, model, ignored.get(cid, 0), first_looks.get(cid))
                                   for cid, cells in cells_by_claim.items()], list(sources))


# ---------------------------------------------------------------------- stores

def current_keys(claim, options: Optional[dict] = None) -> set:
    """Keys of every cell the claim makes at any profile."""
    return {cell.key() for p in PROFILES for cell in claim.cells(p, dict(options or {}))}


def read_timings(store, known: dict) -> tuple:
    """``({key: Timing}, {claim: stale keys})`` from the rows of ``store`` of the
    claims of ``known`` (``{claim id: current keys}``): a row whose key is
    current and whose wall time is finite is a timing; a row of another key is stale."""
    out, stale = {}, defaultdict(set)
    for claim in store.claims():
        if claim not in known:
            continue
        for r in store.results(claim):
            key = r.cell.key()
            if key not in known[claim]:
                stale[claim].add(key)
            elif math.isfinite(r.wall_time):
                out[key] = Timing(r.cell, float(r.wall_time), r.peak_mem)
    return out, dict(stale)


def probe_cells(cells) -> list:
    """Per method, the two cells of ``cells`` that pin its law at the size the profile reaches: the
    costliest-looking (the largest product of its :func:`sizes`) and the cheapest-looking among those
    at the largest n (the smallest product; one cell when they coincide), the lowest seed among
    equals. Timed before a plan (``plan --probe``), they show how a cell grows where the ci and
    quick sizes may not: bach13.pivoting's cells grew like n^1.1 up to n = 400 and like n^2.3 from
    n = 800 to 3200 (fitted on the quick cells alone, the full profile's plan was 7.6x short); and
    at full, landmarks.error-vs-m's cells grow with m as they did not at quick, where a cell's cost
    was mostly n's (with the largest cell alone the plan was 1.51x its measured 11.2 CPU-minutes,
    with both 1.29x)."""
    largest, smallest = {}, {}
    for c in cells:
        size = sizes(c)
        volume = math.prod(size.values())
        if c.method not in largest or (volume, -c.seed) > largest[c.method][0]:
            largest[c.method] = ((volume, -c.seed), c)
        rank = (size.get("n", 0.0), -volume, -c.seed)
        if c.method not in smallest or rank > smallest[c.method][0]:
            smallest[c.method] = (rank, c)
    out = [c for _, c in largest.values()]
    return out + [c for _, c in smallest.values() if c not in out]


def calibrate(claims, store, jobs: Optional[int] = None, progress: bool = True):
    """Run the ci-profile cells of ``claims`` into ``store`` with their memory traced
    (resuming: cells already there are skipped) and return the :class:`~suites.runner.Sweep`."""
    from .runner import run_sweep
    return run_sweep(claims, "ci", store, jobs=jobs, progress=progress, trace_memory=True)


# ---------------------------------------------------------------------- text

def human_seconds(s: Optional[float]) -> str:
    """Seconds as s, min or h, three significant digits."""
    if s is None or not math.isfinite(s):
        return "?"
    for unit, size in (("h", 3600.0), ("min", 60.0)):
        if s >= size:
            return f"{_sig(s / size)} {unit}"
    return f"{_sig(s)} s"


def human_bytes(b: Optional[float]) -> str:
    """Bytes as B, KiB, MiB or GiB, three significant digits."""
    if b is None or not math.isfinite(b):
        return "?"
    for unit, size in (("GiB", 2.0 ** 30), ("MiB", 2.0 ** 20), ("KiB", 2.0 ** 10)):
        if b >= size:
            return f"{_sig(b / size)} {unit}"
    return f"{b:.0f} B"


def _sig(x: float) -> str:
    """``x`` with three significant digits (more for large numbers), no exponent."""
    if x == 0:
        return "0"
    return f"{x:.{max(0, 2 - int(math.floor(math.log10(abs(x)))))}f}"


COLUMNS = ("claim", "cells", "measured", "CPU total", "first look", "median/cell", "max/cell", "peak mem/cell",
           "n extrap.")


def _row(c: ClaimPlan) -> tuple:
    ext = "-" if c.extrapolation is None else f"{_sig(c.extrapolation)}x"
    if not c.timed:
        return (c.claim, str(c.cells), str(c.measured), "no timings", "", "", "", "", ext)
    return (c.claim, str(c.cells), str(c.measured), human_seconds(sum(c.seconds)),
            "-" if c.first_look is None else human_seconds(c.least_seconds),
            human_seconds(float(np.median(c.seconds))), human_seconds(max(c.seconds)),
            "not traced" if c.max_peak is None else human_bytes(c.max_peak), ext)


def format_plan(plan: Plan) -> str:
    """The plan as text: a table per claim, the notes, the totals."""
    rows = [COLUMNS] + [_row(c) for c in plan.claims]
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    lines = [f"plan of the {plan.profile} profile; timings from {', '.join(plan.sources) or 'no store'}"]
    lines += ["  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(r, widths)))
              for r in rows]
    noted = [c for c in plan.claims if c.notes]
    if noted:
        lines.append("notes (where the estimates rest on guesses):")
        lines += [f"  {c.claim}: {note}" for c in noted for note in c.notes]
    t = plan.totals()
    lines.append(f"total: {t['cells']} cells ({t['measured']} measured), CPU {_sig(t['cpu_seconds'] / 3600)} h "
                 f"with every seed, {_sig(t['first_look_cpu_seconds'] / 3600)} h if every claim judged in looks "
                 "is decided at its first (\"first look\"; a claim in doubt takes more seeds)")
    lines.append(f"total: wall time on {plan.workers} worker(s) {human_seconds(t['wall_seconds'])} "
                 f"(longest-first schedule; lower bound {human_seconds(t['wall_lower_bound_seconds'])})")
    if t["max_peak_bytes"] is None:
        lines.append("total: peak memory: not traced (`kpca-suite run --trace-memory` records it)")
    else:
        lines.append(f"total: largest peak traced memory of a cell {human_bytes(t['max_peak_bytes'])} "
                     f"({t['max_peak_claim']}): what a worker needs beyond its interpreter and libraries")
    far = [c.extrapolation for c in plan.claims if c.extrapolation and c.extrapolation > 1]
    if far:
        lines.append(f"total: {len(far)} claim(s) extrapolated beyond their largest measured n (up to "
                     f"{_sig(max(far))}x): `plan --probe` times each method's largest cells first")
    if t["untimed_claims"]:
        lines.append(f"total: without {t['untimed_cells']} cells of {len(t['untimed_claims'])} claim(s) "
                     f"that have no timings: {', '.join(t['untimed_claims'])}")
    return "\n".join(lines) + "\n"
