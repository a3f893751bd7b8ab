"""The shared judging recipes, and the helpers they are built from.

A recipe is a small frozen object called as ``rule(results, profile) -> Outcome``.
A claim declares one (or :class:`AllOf` several) with its numbers:

:class:`SlopeInBand`       the bootstrap CI of the log-log slope of a metric lies in a band;
:class:`AllWithin`         every cell's metric is at most a tolerance (identities, inequalities);
:class:`UnderBound`        every cell's metric is at most its bound, drawn under the bound;
:class:`CoverageAtLeast`   a bound covers the observed value at least as often as promised;
:class:`OrderingHolds`     per-size means of several methods keep a declared order;
:class:`CurvesClose`       the mean curves of two methods differ by at most a tolerance;
:class:`MeanAtMost`        the largest per-size seed mean of a metric is at most a tolerance;
:class:`Where`             a rule applied to the cells with one parameter value only;
:class:`SlopeDifference`   the slopes of two metrics differ by an amount in a band;
:class:`WithErratum`       a rule, with the paper's literal form of a bound reported beside it;
:class:`WhereExposed`      a rule on the cells where an optional metric could be computed;
:class:`NoWorseThanBaseline` no method significantly worse than a baseline (paired ratio CIs);
:class:`ProbableBound`     a bound that may fail with probability delta per cell (binomial test);
:class:`ForEachMethod`     one rule per method present, combined.

Each recipe says which metrics it reads (``reads``), so that a claim declaring its
metrics is checked when it is declared: a misspelt name fails at import, not after
the sweep. Each says too whether its outcome holds a judged slope (``judges_slope``,
read by :func:`judges_a_slope`): a :class:`SlopeInBand`, through the combinators; a
claim's own judge function says so with :func:`slope_judge`. asv tracks the slope of
exactly those claims, found by declaration, without running one.

Statuses combine as: ``fails`` if any part fails, ``holds`` if all hold, else
``inconclusive``. A slope whose CI straddles its band is ``inconclusive``.

Interim looks (:func:`interim_look`, run by :mod:`suites.pipeline`): a claim judged by
recipes only is judged first on a prefix of its seeds, and stops there when that look
settles it. At an interim look every recipe judges at :data:`INTERIM_LEVEL`: a CI over S
seeds is widened by :func:`interim_widening`, a binomial test uses
``1 - INTERIM_LEVEL``, and a status that a prefix cannot settle (every cell under a
threshold while cells are still to come; a point estimate such as a seed mean) reads
``inconclusive``: the next look decides. The final look, on every seed, judges at the
nominal level as if no look had been taken.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Callable, Optional, Sequence, Union

import numpy as np

from kpca_suite.theory import fit_loglog, loglog_line, octaves, verdict_from_ci

from .claim import Fit, Outcome, judged_metrics


# ---------------------------------------------------------------------- helpers

def collect(results, metric: str, method=None, key=lambda c: c.n):
    """Group a metric into sorted sizes x and a (len(x), n_seeds) array Y.

    Missing (size, seed) pairs are NaN. ``key`` picks the abscissa from the
    cell (default n); ``method`` filters cells.
    """
    rows = [r for r in results if method is None or r.cell.method == method]
    xs = sorted({key(r.cell) for r in rows})
    seeds = sorted({r.cell.seed for r in rows})
    Y = np.full((len(xs), len(seeds)), np.nan)
    xi = {x: i for i, x in enumerate(xs)}
    si = {s: j for j, s in enumerate(seeds)}
    for r in rows:
        Y[xi[key(r.cell)], si[r.cell.seed]] = r.metrics[metric]
    return np.asarray(xs, dtype=float), Y


def combine(statuses) -> str:
    """fails if any part fails, holds if all hold, else inconclusive."""
    statuses = list(statuses)
    if "fails" in statuses:
        return "fails"
    if statuses and all(s == "holds" for s in statuses):
        return "holds"
    return "inconclusive"


def _num(x: float) -> str:
    """Three decimals, or three significant digits below 0.01 (a small mean reads as itself, not 0.000)."""
    return f"{x:.3f}" if not abs(x) < 0.01 else f"{x:.2e}"


def fmt_ci(fit) -> str:
    return f"{fit.slope:+.3f} [{fit.ci[0]:+.3f}, {fit.ci[1]:+.3f}]"


def fmt_band(band) -> str:
    lo, hi = band
    if not np.isfinite(lo):
        return f"<= {hi:+.3f}"
    if not np.isfinite(hi):
        return f">= {lo:+.3f}"
    return f"[{lo:+.3f}, {hi:+.3f}]"


def reference_slope(x, Yref) -> tuple:
    """OLS slope of a deterministic reference curve (per-size mean of ``Yref``)
    on log-log axes, and that mean curve."""
    ref = np.nanmean(Yref, axis=1)
    return loglog_line(x, ref)[0], ref


def nonfinite(results, metrics, name: str) -> Optional[Outcome]:
    """``fails`` naming the first cell where a judged metric is NaN (or holds a NaN
    or inf entry), or None when every value is finite: no verdict rests on a number
    that is not finite (a NaN from an estimator is a defect, not a pass). Missing
    cells are the pipeline's business (inconclusive on incomplete data)."""
    bad = [(r, m) for r in results for m in metrics
           if m in r.metrics and not np.all(np.isfinite(r.metrics[m]))]
    if not bad:
        return None
    r, m = bad[0]
    summary = (f"{name}: NOT FINITE: {m} is NaN or inf in {len(bad)} of {len(results)} cell value(s), first at "
               f"{r.cell.method} n = {r.cell.n} seed {r.cell.seed}; no verdict from a number that is not finite")
    return Outcome("fails", summary, [], {f"{name}_nonfinite": len(bad)}, {f"{name}_nonfinite_at_most": 0})


def cellwise_rule(rule):
    """The part of ``rule`` that judges each cell on its own (every cell within a
    threshold, every cell under its bound), through :class:`AllOf`, :class:`Where`,
    :class:`WithErratum` and :class:`WhereExposed`; None when it has none. A violation
    it finds cannot be undone by cells that are missing, so a sweep with missing cells
    already fails on it."""
    part = getattr(rule, "cellwise", None)
    return part() if callable(part) else None


# ---------------------------------------------------------------------- interim looks

#: The two-sided level of an interim look. Each interim look can turn a verdict the final
#: look would give at most 1 - INTERIM_LEVEL = 0.2% of the time (0.1% per side), and the
#: final look keeps its nominal 95%: over the two interim looks of a claim the error is at
#: most 0.4% above the final look's (a Bonferroni sum over the looks; Haybittle and Peto's
#: rule of a strict level at interim looks and the nominal one at the last).
INTERIM_LEVEL = 0.998

_INTERIM: ContextVar = ContextVar("interim", default=False)


@contextmanager
def interim_look(interim: bool = True):
    """Judge inside this block as at an interim look (see the module docstring), or as
    at the final look with ``interim=False``."""
    token = _INTERIM.set(interim)
    try:
        yield
    finally:
        _INTERIM.reset(token)


def interim() -> bool:
    """True inside :func:`interim_look`."""
    return _INTERIM.get()


def interim_widening(seeds: int) -> float:
    """The factor that turns a percentile-bootstrap 95% half-width over ``seeds`` seeds
    into a half-width at :data:`INTERIM_LEVEL`:

    .. math::  k(S) = t_{S-1}(1 - a/2)\\,\\sqrt{S / (S - 1)} \\,/\\, z_{0.975},
               \\quad a = 1 - \\mathrm{INTERIM\\_LEVEL}.

    The bootstrap's half-width is about z_{0.975} sd_ML / sqrt(S), sd_ML the spread of the
    seeds with divisor S; a half-width at level 1 - a that holds over few seeds is
    t_{S-1}(1 - a/2) sd / sqrt(S), sd with divisor S - 1 (Student's t, since the spread is
    itself estimated from S seeds). k(5) = 4.09, k(10) = 2.31, k(25) = 1.81."""
    from scipy.special import ndtri  # the normal quantile scipy.stats' norm.ppf calls

    return float(interim_t(seeds) * np.sqrt(seeds / (seeds - 1)) / ndtri(0.975))


def interim_t(seeds: int) -> float:
    """t_{S-1}(1 - a/2), a = 1 - INTERIM_LEVEL: the two-sided Student quantile of an
    interim look over ``seeds`` values (S >= 2)."""
    if seeds < 2:
        raise ValueError(f"an interim look needs at least 2 seeds, got {seeds}")
    from scipy.special import stdtrit  # scipy.stats' t.ppf, to the bit, without its second of imports

    return float(stdtrit(seeds - 1, 1 - (1 - INTERIM_LEVEL) / 2))


def interim_interval(values) -> tuple:
    """The t interval of an interim look on the mean of ``values`` (k of them):
    mean -+ t_{k-1}(1 - a/2) sd / sqrt(k), a = 1 - INTERIM_LEVEL; unbounded for k < 2 and
    NaN for none."""
    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return (-np.inf, np.inf) if len(values) else (np.nan, np.nan)
    half = interim_t(len(values)) * np.std(values, ddof=1) / np.sqrt(len(values))
    return float(np.mean(values) - half), float(np.mean(values) + half)


def at_look(point: float, ci: tuple, seeds: int) -> tuple:
    """``ci`` (a 95% CI around ``point`` over ``seeds`` seeds) as the look judges it:
    itself at the final look, widened by :func:`interim_widening` at an interim one."""
    if not interim():
        return tuple(ci)
    k = interim_widening(seeds)
    return (point - k * (point - ci[0]), point + k * (ci[1] - point))


def settled(outcome: Outcome) -> Outcome:
    """``outcome`` as an interim look reads it, for a rule whose ``holds`` a prefix of the
    seeds cannot settle (a threshold every cell must meet, a test that only rejects): that
    ``holds`` reads ``inconclusive``. A ``fails`` is kept: the rules call this only where a
    failure on a prefix stands (a cell over its threshold stays over it)."""
    if interim() and outcome.status == "holds":
        outcome.status = "inconclusive"
        outcome.summary += " (so far: every seed must be in)"
    return outcome


def unsettled(outcome: Outcome) -> Outcome:
    """A point-estimate rule at an interim look: neither status is settled by a prefix."""
    if interim() and outcome.status != "inconclusive":
        outcome.status = "inconclusive"
        outcome.summary += " (a point estimate: judged on every seed)"
    return outcome


def takes_looks(rule) -> bool:
    """Whether ``rule`` may be judged at interim looks: a recipe of this module (they
    all say how), through its combinators; a claim's own judge function may not."""
    part = getattr(rule, "looks", None)
    return bool(part()) if callable(part) else False


def judges_a_slope(rule) -> bool:
    """Whether ``rule`` judges a slope: its outcome holds a fit of kind ``"rate"`` with a
    tolerance band (:meth:`~.claim.Verdict.judged_slope`) whenever it judges cells. Read
    from the declaration (``judges_slope``), not from a verdict."""
    return bool(getattr(rule, "judges_slope", False))


def slope_judge(judge: Callable) -> Callable:
    """Declare that a claim's own judge function judges a slope (:func:`judges_a_slope`);
    returns ``judge``, marked."""
    judge.judges_slope = True
    return judge


def _recipe(self) -> bool:
    """``looks`` of a leaf recipe: it judges at interim looks (:func:`takes_looks`)."""
    return True


def _alpha(alpha: float) -> float:
    """A test's level ``alpha`` as the look judges it: at most 1 - INTERIM_LEVEL at an interim look."""
    return min(alpha, 1.0 - INTERIM_LEVEL) if interim() else alpha


def _level(seeds: int) -> str:
    """What a summary says of an interim CI ("" at the final look)."""
    return f" (interim look: {INTERIM_LEVEL:.1%} over {seeds} seeds)" if interim() else ""


# ---------------------------------------------------------------------- recipes

def detectable(fit, band) -> list:
    """The slopes a :class:`SlopeInBand` rule fails at the spread of ``fit``: a list of
    ("<", low - b) and (">", high + a) for the finite ends of ``band``, where the CI is
    slope - a .. slope + b (empty when the CI is not finite)."""
    a, b = fit.slope - fit.ci[0], fit.ci[1] - fit.slope
    if not (np.isfinite(a) and np.isfinite(b)):
        return []
    return [(op, float(v)) for op, v in (("<", band[0] - b), (">", band[1] + a)) if np.isfinite(v)]


@dataclass(frozen=True)
class SlopeInBand:
    """The slope of log(mean metric) against log(x) over seeds, with its
    bootstrap 95% CI (``theory.fit_loglog``), lies in ``band``.

    ``band``       (low, high) on the slope (``-inf`` / ``inf`` for one-sided), or
                   a function of the reference slope when ``reference`` is given;
    ``reference``  a metric holding a deterministic reference curve (e.g. the
                   exact R_{C,l} on the same grid); its OLS slope is the
                   predicted slope and is drawn beside the fit, labelled
                   ``reference_label``;
    ``predicted``  the predicted slope when there is no reference curve;
    ``x``          the abscissa: a cell param name, or "n";
    ``method``     restrict to one method's cells;
    ``impossible`` optional ``(floor, why)``: a cell value below ``floor`` cannot
                   come from a correct implementation (e.g. a negative excess risk
                   of a valid basis), so the rule fails and says what was
                   impossible, instead of a slope of logs that would be NaN
                   (inconclusive) or fitted on nonsense.

    The power of the check is reported with the verdict: a method whose slope is s',
    measured with the same spread (CI s' - a .. s' + b where this run's is s - a .. s + b),
    fails when s' - a > high or s' + b < low, so the rule detects every slope outside
    [low - b, high + a] (``detects``; the finite ends only).
    """

    metric: str
    band: Union[tuple, Callable[[float], tuple]]
    label: str
    ylabel: str = "metric"
    reference: Optional[str] = None
    predicted: Optional[float] = None
    x: str = "n"
    method: Optional[str] = None
    name: str = "slope"
    reference_label: str = "exact reference curve"
    impossible: Optional[tuple] = None

    looks = _recipe
    judges_slope = True

    @property
    def reads(self) -> frozenset:
        return frozenset(m for m in (self.metric, self.reference) if m is not None)

    def __call__(self, results, profile) -> Outcome:
        mine = [r for r in results if self.method is None or r.cell.method == self.method]
        bad = nonfinite(mine, self.reads, self.name)
        if bad is not None:
            return bad
        key = (lambda c: c.n) if self.x == "n" else (lambda c: c.p[self.x])
        x, Y = collect(results, self.metric, self.method, key)
        if self.impossible is not None:
            floor, why = self.impossible
            below = Y < floor
            if below.any():
                worst = float(np.nanmin(Y))
                summary = (f"{self.name}: IMPOSSIBLE {self.metric} = {worst:.3g} < {floor:g} in {int(below.sum())} "
                           f"of {int(np.isfinite(Y).sum())} cells ({why})")
                return Outcome("fails", summary, [Fit(self.label, x, Y, kind="measured", xlabel=self.x,
                                                      ylabel=self.ylabel)],
                               {f"{self.name}_impossible_min": worst}, {f"{self.name}_floor": floor})
        fit = fit_loglog(x, Y)
        fit = replace(fit, ci=at_look(fit.slope, fit.ci, Y.shape[1]))
        predicted, ref = self.predicted, None
        if self.reference is not None:
            _, Yr = collect(results, self.reference, self.method, key)
            predicted, ref = reference_slope(x, Yr)
        band = self.band(predicted) if callable(self.band) else tuple(self.band)
        status = verdict_from_ci(fit.ci, band)
        summary = f"{self.name} {fmt_ci(fit)}{_level(Y.shape[1])} vs band {fmt_band(band)}"
        detects = detectable(fit, band)
        if self.reference is not None:
            summary += f" (reference slope {predicted:+.3f})"
        if detects:
            summary += f" (fails a slope {' or '.join(f'{op} {v:+.2f}' for op, v in detects)} at this spread)"
        measured = {self.name: fit.slope, f"{self.name}_ci_low": fit.ci[0], f"{self.name}_ci_high": fit.ci[1],
                    "octaves": octaves(x), **{f"{self.name}_detects_{'below' if op == '<' else 'above'}": v
                                              for op, v in detects}}
        pred = {f"{self.name}_band": [float(b) for b in band]}
        if predicted is not None:
            pred[f"{self.name}_predicted"] = float(predicted)
        fits = [Fit(self.label, x, Y, fit.slope, fit.ci, fit.intercept, predicted=predicted, band=band,
                    reference=ref, xlabel=self.x, ylabel=self.ylabel, reference_label=self.reference_label)]
        return Outcome(status, summary, fits, measured, pred)


@dataclass(frozen=True)
class AllWithin:
    """Every cell's value of each metric is at most ``tol`` (NaN fails).

    For identities (relative deviations) and inequalities written as
    "excess <= tol" (positive means violated). ``metrics`` defaults to every
    metric the cells report; ``what`` names the unit in the summary.

    ``per_eps`` makes the threshold follow the precision of the implementation under
    test: a cell's limit is max(tol, per_eps * eps), eps its metric ``eps`` (the machine
    epsilon of what the implementation returned, :attr:`suites.roles.Checked.eps_`), so a
    float32 implementation is held to float32 round-off and a float64 one to ``tol``.
    ``hint`` is appended to a failing summary: what a correct implementation reads there
    and what usually causes a larger value.
    """

    tol: float
    metrics: Optional[Sequence[str]] = None
    what: str = ""
    per_eps: Optional[float] = None
    hint: str = ""

    looks = _recipe

    @property
    def reads(self) -> frozenset:
        return frozenset(self.metrics or ()) | ({"eps"} if self.per_eps is not None else set())

    def cellwise(self):
        return self

    def __call__(self, results, profile) -> Outcome:
        bad = nonfinite(results, self.reads or sorted(results[0].metrics), "within")
        if bad is not None:
            return bad
        keys = list(self.metrics) if self.metrics is not None else sorted(results[0].metrics)
        limits = np.array([self.tol if self.per_eps is None else max(self.tol, self.per_eps * r.metrics["eps"])
                           for r in results])
        worst = {k: float(np.max([r.metrics[k] for r in results])) for k in keys}  # NaN propagates, and fails
        over = {k: [r.metrics[k] > lim for r, lim in zip(results, limits)] for k in keys}
        bad = [k for k in keys if not worst[k] <= limits.max() or any(over[k])]
        limit = float(limits.min()) if not bad else float(min(lim for r, lim in zip(results, limits)
                                                              if any(r.metrics[k] > lim for k in bad)))
        unit = f" {self.what}" if self.what else ""
        precision = ""
        if limit > self.tol:
            eps = limit / self.per_eps
            precision = (f" (the implementation's output in {'float32' if abs(eps - 2**-23) < 1e-12 else 'low'} "
                         f"precision, eps {eps:.2g}: limit {limit:.2g} = {self.per_eps:g} eps)")
        if bad:
            summary = "violated: " + ", ".join(f"{k} = {worst[k]:.2e}{unit}" for k in bad) + precision
            summary += f" > {limit:g}" if not precision else ""
            summary += f"; {self.hint}" if self.hint else ""
        else:
            what = keys[0] if len(keys) == 1 else f"{len(keys)} checks"
            summary = f"{what} <= {limit:g}{unit} (worst {max(worst.values()):.1e}){precision}"
        return settled(Outcome("fails" if bad else "holds", summary, [], worst,
                               {f"{k}_at_most": limit for k in keys}))


@dataclass(frozen=True)
class UnderBound:
    """Every cell's ``metric`` is at most its ``bound`` (another metric of the
    cell; NaN fails). Reports the worst excess metric - bound (positive =
    violated) and the median slack bound / metric, and draws the measured
    values under the bound (a ``Fit`` of kind ``"bound"`` whose reference is each
    cell's bound, drawn as the per-x mean, labelled ``bound_label``)."""

    metric: str
    bound: str
    label: str
    bound_label: str
    ylabel: str = "metric"
    name: str = "bound"

    looks = _recipe

    @property
    def reads(self) -> frozenset:
        return frozenset((self.metric, self.bound))

    def cellwise(self):
        return self

    def __call__(self, results, profile) -> Outcome:
        bad = nonfinite(results, self.reads, self.name)
        if bad is not None:
            return bad
        value = np.array([r.metrics[self.metric] for r in results], dtype=float)
        bound = np.array([r.metrics[self.bound] for r in results], dtype=float)
        excess = value - bound
        worst = float(np.max(excess))  # NaN propagates, and fails
        violations = int(np.sum(~(excess <= 0)))
        with np.errstate(divide="ignore", invalid="ignore"):
            slack = float(np.median(bound / value))
        x, Y = collect(results, self.metric)
        _, B = collect(results, self.bound)
        fit = Fit(self.label, x, Y, kind="bound", reference=B, reference_label=self.bound_label,
                  ylabel=self.ylabel)
        summary = (f"{self.metric} <= {self.bound_label} in {len(value) - violations}/{len(value)} cells "
                   f"(worst excess {worst:.2g}, median slack bound/{self.metric} {slack:.3g})")
        return settled(Outcome("fails" if violations else "holds", summary, [fit],
                               {f"{self.name}_excess": worst, f"{self.name}_violations": violations,
                                f"{self.name}_median_slack": slack},
                               {f"{self.name}_excess_at_most": 0.0}))


@dataclass(frozen=True)
class CoverageAtLeast:
    """A bound covers the observed value in at least a ``level`` fraction of
    cells, up to sampling noise: with v violations among N cells the claim
    fails when the binomial probability of v or more violations at rate
    ``1 - level`` is below ``alpha``.

    ``covered`` is a metric that is 1.0 where the bound held and 0.0 where not;
    ``method`` restricts the rule to one method's cells.
    """

    covered: str
    level: float
    alpha: float = 0.01
    name: str = "coverage"
    method: Optional[str] = None

    looks = _recipe

    @property
    def reads(self) -> frozenset:
        return frozenset((self.covered,))

    def __call__(self, results, profile) -> Outcome:
        if self.method is not None:
            results = [r for r in results if r.cell.method == self.method]
        bad = nonfinite(results, self.reads, self.name)
        if bad is not None:
            return bad
        hits = np.array([r.metrics[self.covered] for r in results], dtype=float)
        N, v = len(hits), int((hits < 0.5).sum())
        from scipy.stats import binom  # about a second to import: only when judging

        p = float(binom.sf(v - 1, N, 1.0 - self.level)) if v else 1.0
        status = "fails" if p < _alpha(self.alpha) else "holds"
        summary = (f"{self.name} {1 - v / N:.3f} ({v}/{N} violations; binomial p = {p:.3g} "
                   f"at level {self.level:g})")
        return settled(Outcome(status, summary, [], {self.name: 1 - v / N, f"{self.name}_violations": v,
                                                     f"{self.name}_p": p}, {f"{self.name}_at_least": self.level}))


@dataclass(frozen=True)
class OrderingHolds:
    """Per size, the seed means of ``metric`` for ``methods`` (listed from
    largest to smallest expected) keep that order, up to a slack of ``tol``
    times the largest mean."""

    metric: str
    methods: tuple
    tol: float = 0.0
    name: str = "order"

    looks = _recipe

    @property
    def reads(self) -> frozenset:
        return frozenset((self.metric,))

    def __call__(self, results, profile) -> Outcome:
        bad = nonfinite([r for r in results if r.cell.method in self.methods], self.reads, self.name)
        if bad is not None:
            return bad
        means = {}
        for m in self.methods:
            x, Y = collect(results, self.metric, m)
            means[m] = dict(zip(x, np.nanmean(Y, axis=1)))
        sizes = sorted(set.intersection(*(set(v) for v in means.values())))
        worst = -np.inf
        for n in sizes:
            vals = [means[m][n] for m in self.methods]
            scale = max(abs(v) for v in vals) or 1.0
            worst = max(worst, max((b - a) / scale for a, b in zip(vals, vals[1:])))
        status = "holds" if worst <= self.tol else "fails"
        summary = f"{' >= '.join(self.methods)} at {len(sizes)} size(s): worst excess {worst:.2e} (<= {self.tol:g})"
        return unsettled(Outcome(status, summary, [], {f"{self.name}_worst_excess": float(worst)},
                                 {f"{self.name}_excess_at_most": self.tol}))


@dataclass(frozen=True)
class CurvesClose:
    """The seed-mean curves of ``metric`` for methods ``a`` and ``b`` differ by
    at most ``tol`` (absolute) at every size."""

    metric: str
    a: str
    b: str
    tol: float
    name: str = "gap"

    looks = _recipe

    @property
    def reads(self) -> frozenset:
        return frozenset((self.metric,))

    def __call__(self, results, profile) -> Outcome:
        bad = nonfinite([r for r in results if r.cell.method in (self.a, self.b)], self.reads, self.name)
        if bad is not None:
            return bad
        xa, Ya = collect(results, self.metric, self.a)
        xb, Yb = collect(results, self.metric, self.b)
        ma, mb = dict(zip(xa, np.nanmean(Ya, axis=1))), dict(zip(xb, np.nanmean(Yb, axis=1)))
        common = sorted(set(ma) & set(mb))
        gap = max(abs(ma[x] - mb[x]) for x in common)
        status = "holds" if gap <= self.tol else "fails"
        return unsettled(Outcome(status, f"max |{self.a} - {self.b}| of {self.metric} {gap:.3g} (<= {self.tol:g})",
                                 [], {f"{self.name}_max": float(gap)}, {f"{self.name}_at_most": self.tol}))


@dataclass(frozen=True)
class MeanAtMost:
    """The largest seed mean of ``metric`` over the values of ``x`` (a cell param
    name, or "n") is at most ``tol``; ``x=None`` pools every cell into one mean (for
    a metric whose expectation is the same in every cell, e.g. a ratio to its exact
    expected value, or a level pooled over a sweep). ``name`` keys the measured
    number when a claim judges the same metric twice (default ``mean_<metric>`` or
    ``max_mean_<metric>``); ``method`` restricts the rule to one method's cells;
    ``min_x`` to the values of ``x`` at least ``min_x`` (past a burn-in)."""

    metric: str
    tol: float
    what: str
    x: Optional[str] = "n"
    name: Optional[str] = None
    method: Optional[str] = None
    min_x: Optional[float] = None
    hint: str = ""  # appended to a failing summary: what correct implementations read, the usual causes

    looks = _recipe

    @property
    def reads(self) -> frozenset:
        return frozenset((self.metric,))

    def __call__(self, results, profile) -> Outcome:
        if self.method is not None:
            results = [r for r in results if r.cell.method == self.method]
        bad = nonfinite(results, self.reads, self.name or f"mean_{self.metric}")
        if bad is not None:
            return bad
        if self.x is None:
            values = np.array([r.metrics[self.metric] for r in results], dtype=float)
            worst = float(np.mean(values))  # NaN propagates, and fails
            key = self.name or f"mean_{self.metric}"
            return Outcome(self._status(worst, [values]),
                           f"mean {self.what} {_num(worst)} over {len(values)} cells (<= {self.tol:g})"
                           + self._hint(worst) + self._look([values]), [], {key: worst}, {f"{key}_at_most": self.tol})
        key = (lambda c: c.n) if self.x == "n" else (lambda c: c.p[self.x])
        if self.min_x is not None:
            results = [r for r in results if key(r.cell) >= self.min_x]
        xs, Y = collect(results, self.metric, key=key)
        means = np.nanmean(Y, axis=1)
        worst = float(np.nanmax(means))
        key = self.name or f"max_mean_{self.metric}"
        groups = [row[np.isfinite(row)] for row in Y]
        return Outcome(self._status(worst, groups),
                       f"max mean {self.what} {_num(worst)} at {self.x} = {xs[int(np.nanargmax(means))]:g} "
                       f"(<= {self.tol:g})" + self._hint(worst) + self._look(groups),
                       [], {key: worst}, {f"{key}_at_most": self.tol})

    @staticmethod
    def _look(groups) -> str:
        """What the summary says of an interim look's t intervals ("" at the final look)."""
        return f" (interim look: {INTERIM_LEVEL:.1%} t intervals over {min(map(len, groups))}+ values)" \
            if interim() else ""

    def _status(self, worst: float, groups) -> str:
        """holds when the largest mean is at most ``tol``. At an interim look, each group's
        mean m over its k values gets the t interval m -+ t_{k-1}(1 - a/2) sd / sqrt(k),
        a = 1 - INTERIM_LEVEL: the rule fails when some interval lies above ``tol``, holds
        when every one lies at or below it, and is inconclusive otherwise."""
        if not interim():
            return "holds" if worst <= self.tol else "fails"
        ends = [interim_interval(g) for g in groups]
        if any(lo > self.tol for lo, _ in ends):
            return "fails"
        return "holds" if all(hi <= self.tol for _, hi in ends) else "inconclusive"

    def _hint(self, worst: float) -> str:
        return f" [{self.hint}]" if self.hint and not worst <= self.tol else ""


@dataclass(frozen=True)
class Where:
    """``rule`` applied to the cells whose param ``name`` equals ``value``
    (a claim that sweeps two settings judges each on its own)."""

    name: str
    value: object
    rule: Callable

    @property
    def reads(self) -> frozenset:
        return judged_metrics(self.rule)

    @property
    def judges_slope(self) -> bool:
        return judges_a_slope(self.rule)

    def cellwise(self):
        inner = cellwise_rule(self.rule)
        return None if inner is None else Where(self.name, self.value, inner)

    def looks(self) -> bool:
        return takes_looks(self.rule)

    def __call__(self, results, profile) -> Outcome:
        return self.rule([r for r in results if r.cell.p.get(self.name) == self.value], profile)


@dataclass(frozen=True)
class AllOf:
    """Several rules; the statuses combine (fails > inconclusive > holds) and
    summaries, fits and numbers are joined."""

    rules: tuple = field(default_factory=tuple)

    def __init__(self, *rules):
        object.__setattr__(self, "rules", tuple(rules))

    @property
    def reads(self) -> frozenset:
        return frozenset().union(*(judged_metrics(r) for r in self.rules))

    @property
    def judges_slope(self) -> bool:
        return any(map(judges_a_slope, self.rules))

    def cellwise(self):
        inner = [c for c in map(cellwise_rule, self.rules) if c is not None]
        return AllOf(*inner) if inner else None

    def looks(self) -> bool:
        return all(map(takes_looks, self.rules))

    def __call__(self, results, profile) -> Outcome:
        outs = [rule(results, profile) for rule in self.rules]
        fits, measured, predicted = [], {}, {}
        for o in outs:
            fits += o.fits
            measured.update(o.measured)
            predicted.update(o.predicted)
        first = {"fails": 0, "inconclusive": 1}  # the summary opens with what decided the verdict
        ordered = sorted(outs, key=lambda o: first.get(o.status, 2))
        return Outcome(combine(o.status for o in outs), "; ".join(o.summary for o in ordered), fits, measured,
                       predicted)


@dataclass(frozen=True)
class SlopeDifference:
    """Two metrics' log-log slopes against the same abscissa differ as declared.

    Each slope is fitted with its bootstrap 95% CI [lo, hi] (``theory.fit_loglog``);
    the conservative CI of the difference,

    .. math::  [\\mathrm{lo}_a - \\mathrm{hi}_b,\\; \\mathrm{hi}_a - \\mathrm{lo}_b],

    must lie in ``band`` (inside: holds, outside: fails, straddling: inconclusive).
    ``labels`` and ``predicted`` label and annotate the two drawn fits; ``x`` is a
    cell param name or "n".
    """

    a: str
    b: str
    band: tuple
    labels: tuple
    predicted: tuple = (None, None)
    x: str = "n"
    ylabel: str = "metric"
    name: str = "slope_difference"

    looks = _recipe

    @property
    def reads(self) -> frozenset:
        return frozenset((self.a, self.b))

    def __call__(self, results, profile) -> Outcome:
        bad = nonfinite(results, self.reads, self.name)
        if bad is not None:
            return bad
        key = (lambda c: c.n) if self.x == "n" else (lambda c: c.p[self.x])
        fits, drawn = [], []
        for metric, label, pred in zip((self.a, self.b), self.labels, self.predicted):
            x, Y = collect(results, metric, key=key)
            fit = fit_loglog(x, Y)
            fit = replace(fit, ci=at_look(fit.slope, fit.ci, Y.shape[1]))
            fits.append(fit)
            drawn.append(Fit(label, x, Y, fit.slope, fit.ci, fit.intercept, predicted=pred, xlabel=self.x,
                             ylabel=self.ylabel))
        fa, fb = fits
        diff = (fa.ci[0] - fb.ci[1], fa.ci[1] - fb.ci[0])
        status = verdict_from_ci(diff, tuple(self.band))
        summary = (f"{self.a} slope {fmt_ci(fa)}, {self.b} slope {fmt_ci(fb)}; difference CI "
                   f"[{diff[0]:+.3f}, {diff[1]:+.3f}] vs band {fmt_band(self.band)}")
        return Outcome(status, summary, drawn,
                       {f"{self.a}_slope": fa.slope, f"{self.b}_slope": fb.slope, f"{self.name}_ci": list(diff)},
                       {f"{self.name}_band": [float(v) for v in self.band]})


@dataclass(frozen=True)
class WithErratum:
    """A judging rule, plus a number reported and never judged: in how many cells (those
    whose param ``only = (name, value)``, or all) a paper's literal (erroneous) form of a
    bound is exceeded by more than ``tol``, and by how much at most, so that a reader sees
    the paper's version beside the corrected one the rule judges. A NaN in the reported
    metric is reported as such. It is said of the claim's own runs only: a run with another
    implementation in place of the claim's (``claim[name]``) is about that implementation,
    not about the paper's literal statement, and its summary does not repeat it."""

    rule: Callable
    metric: str
    tol: float
    what: str
    only: Optional[tuple] = None

    @property
    def reads(self) -> frozenset:
        return judged_metrics(self.rule) | {self.metric}

    @property
    def judges_slope(self) -> bool:
        return judges_a_slope(self.rule)

    def cellwise(self):
        return cellwise_rule(self.rule)

    def looks(self) -> bool:
        return takes_looks(self.rule)

    def __call__(self, results, profile) -> Outcome:
        out = self.rule(results, profile)
        if any("[" in r.cell.claim for r in results):
            return out
        rows = [r for r in results if self.only is None or r.cell.p.get(self.only[0]) == self.only[1]]
        values = np.array([r.metrics[self.metric] for r in rows], dtype=float)
        over = int(np.sum(values > self.tol))
        worst = float(np.max(values)) if values.size else float("nan")
        out.summary += (f"; {self.what} is exceeded in {over}/{len(rows)} cells (by up to {worst:.3f}; "
                        "erratum, not judged)")
        out.measured[self.metric] = worst
        out.measured[f"{self.metric}_violations"] = float(over)
        return out


@dataclass(frozen=True)
class WhereExposed:
    """``rule`` on the cells where the optional ``metric`` is finite: a metric that needs
    more than a role gives (e.g. an estimator's own features and sketch) is NaN for an
    implementation that does not expose it, and only the exposing cells are judged by
    ``rule``; with none, it holds and says the metric was not judged (the claim's other
    rules still judge the implementation)."""

    metric: str
    rule: Callable
    why: str = "the implementation does not expose what it needs"

    @property
    def reads(self) -> frozenset:
        return judged_metrics(self.rule) | {self.metric}

    @property
    def judges_slope(self) -> bool:
        return judges_a_slope(self.rule)

    def cellwise(self):
        inner = cellwise_rule(self.rule)
        return None if inner is None else WhereExposed(self.metric, inner, self.why)

    def looks(self) -> bool:
        return takes_looks(self.rule)

    def __call__(self, results, profile) -> Outcome:
        kept = [r for r in results if np.isfinite(r.metrics[self.metric])]
        if not kept:
            return settled(Outcome("holds", f"{self.metric}: not judged ({self.why})", [], {}, {}))
        return self.rule(kept, profile)


def ratio_ci(Y, Yb, n_boot: int = 2000, random_state=0) -> tuple:
    """Ratio of seed means mean(Y) / mean(Yb) of paired (seeds,) arrays and its
    bootstrap 95% percentile CI (seeds resampled jointly, with replacement)."""
    Y, Yb = np.asarray(Y, float), np.asarray(Yb, float)
    ok = np.isfinite(Y) & np.isfinite(Yb)
    Y, Yb = Y[ok], Yb[ok]
    rng = np.random.default_rng(random_state)
    idx = rng.integers(0, len(Y), size=(n_boot, len(Y)))
    boot = Y[idx].mean(axis=1) / Yb[idx].mean(axis=1)
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return float(Y.mean() / Yb.mean()), float(lo), float(hi)


def _ratio_at_look(Y, Yb, n_boot: int) -> tuple:
    """:func:`ratio_ci` with its CI as the look judges it (:func:`at_look`, over the seeds
    where both are finite)."""
    r, lo, hi = ratio_ci(Y, Yb, n_boot)
    return (r, *at_look(r, (lo, hi), int(np.sum(np.isfinite(Y) & np.isfinite(Yb)))))


def _effect(cls, r, lo, hi) -> str:
    """'17% [13%, 21%]': the gain (beats) or loss (worse) against the baseline, in
    percent with 0, 1 or 2 decimals as the effect is >= 10%, >= 1% or smaller."""
    v = (1 - r, 1 - hi, 1 - lo) if cls == "beats" else (r - 1, lo - 1, hi - 1)
    d = 0 if abs(v[0]) >= 0.095 else 1 if abs(v[0]) >= 0.0095 else 2
    a, b, c = (f"{100 * x:.{d}f}%" for x in v)
    return f"{a} [{b}, {c}]"


def describe_ratios(method, xs, stats, base, x: str = "m") -> str:
    """Where ``method`` beats ``base`` (CI of the ratio below 1), loses (above 1) or
    ties, as runs of consecutive x: 'kmeans beats uniform at m = 8-64, by 17% [13%, 21%]
    at m = 8 to 4.0% [3.1%, 4.9%] at m = 64; ties at m = 128 (ratio 0.998)'."""
    classes = ["beats" if hi < 1 else "worse" if lo > 1 else "ties" for _, lo, hi in stats]
    parts, start = [], 0
    for i in range(1, len(xs) + 1):
        if i < len(xs) and classes[i] == classes[start]:
            continue
        cls, a, b = classes[start], start, i - 1
        where = f"{x} = {xs[a]}" if a == b else f"{x} = {xs[a]}-{xs[b]}"
        if cls == "ties":
            rs = [stats[j][0] for j in range(a, b + 1)]
            lo, hi = f"{min(rs):.3f}", f"{max(rs):.3f}"
            span = lo if lo == hi else f"{lo}-{hi}"
            parts.append(f"ties at {where} (ratio {span})")
        else:
            verb = "beats" if cls == "beats" else "is worse than"
            by = (f"by {_effect(cls, *stats[a])}" if a == b else
                  f"by {_effect(cls, *stats[a])} at {x} = {xs[a]} to {_effect(cls, *stats[b])} at {x} = {xs[b]}")
            parts.append(f"{verb} {base} at {where}, {by}")
        start = i
    return f"{method} " + "; ".join(parts)


@dataclass(frozen=True)
class NoWorseThanBaseline:
    """Every method's seed-mean ``metric`` falls at each step of ``x`` (when ``falls``),
    and no method is significantly worse than the baseline ``base`` by more than ``margin``.

    Per method S and value of x, the paired ratio r = mean_seeds metric_S / mean_seeds
    metric_base with its bootstrap 95% CI [lo, hi] (:func:`ratio_ci`, seeds resampled
    jointly). The rule

    * fails if some method's seed mean does not fall from one x to the next, or some CI
      lies above 1 + margin (lo > 1 + margin: significantly worse by more than the margin);
    * holds otherwise (a point ratio above 1 + margin whose CI reaches below it is not
      significant; the summary shows it).

    At an interim look (:func:`interim_look`) each part must be settled at
    :data:`INTERIM_LEVEL`: a ratio part holds when its widened CI (:func:`at_look`) lies at
    or below 1 + margin and fails when it lies above; a step of x falls when the t interval
    of the paired per-seed differences d = metric(x_{j+1}) - metric(x_j),
    mean(d) -+ t_{S-1}(1 - a/2) sd(d) / sqrt(S), lies below 0 (the seed means then fall at
    the last look too, since mean(d) < 0 is exactly that) and fails to fall when it lies
    above 0; anything else waits for the next look.

    The summary states, per method, where it beats the baseline (hi < 1), loses (lo > 1)
    or ties, with the effect and its CI. ``methods`` fixes the order (only those present
    are judged); by default every method present, in order of appearance.
    """

    base: str
    metric: str
    margin: float
    x: str = "m"
    falls: bool = True
    methods: tuple = ()
    n_boot: int = 2000

    looks = _recipe

    @property
    def reads(self) -> frozenset:
        return frozenset((self.metric,))

    def __call__(self, results, profile) -> Outcome:
        bad = nonfinite(results, self.reads, "baseline")
        if bad is not None:
            return bad
        present = list(dict.fromkeys(r.cell.method for r in results))
        methods = [s for s in (self.methods or present) if s in present]
        key = (lambda c: c.n) if self.x == "n" else (lambda c: c.p[self.x])
        curves = {s: collect(results, self.metric, s, key=key) for s in methods}
        xs, Yb = curves[self.base]
        parts, measured, falls, texts, stats_of = ["holds"], {}, [], [], {}
        for s in methods:
            x, Y = curves[s]
            mean = np.nanmean(Y, axis=1)
            steps = mean[1:] / mean[:-1]
            measured["max_step"] = max(measured.get("max_step", 0.0), float(np.max(steps)))
            if self.falls:
                fall = ([_falls_at_look(Y[j + 1] - Y[j]) for j in range(len(x) - 1)] if interim()
                        else ["holds" if step < 1 else "fails" for step in steps])
                parts += fall
                if any(f != "holds" for f in fall):
                    j = next(i for i, f in enumerate(fall) if f != "holds")
                    falls.append(f"{s} does not {'yet surely ' if fall[j] == 'inconclusive' else ''}fall from "
                                 f"{self.x} = {x[j]:g} to {x[j + 1]:g} (mean {mean[j]:.4g} -> {mean[j + 1]:.4g})")
            if s == self.base:
                continue
            stats = [_ratio_at_look(Y[j], Yb[j], self.n_boot) for j in range(len(x))]
            stats_of[s] = stats
            measured[f"{s}_best_ratio"] = min(r for r, _, _ in stats)
            measured[f"{s}_max_lower_ci"] = max(lo for _, lo, _ in stats)
            parts += [_at_most_at_look(lo, hi, 1 + self.margin) for _, lo, hi in stats]
            texts.append(describe_ratios(s, [int(v) for v in x], stats, self.base, self.x))
        worst = max(((s, int(xj), st) for s, sts in stats_of.items() for xj, st in zip(xs, sts)),
                    key=lambda t: t[2][1], default=None)
        head = (f"every method's {self.metric} falls with {self.x}" if not falls else "; ".join(falls))
        if worst is not None:
            s, xj, (r, lo, hi) = worst
            head += (f"; largest lower CI end of {self.metric}/{self.metric}_{self.base}: {s} at {self.x} = {xj}, "
                     f"{r:.3f} [{lo:.3f}, {hi:.3f}] (fails above {1 + self.margin:.2f})")
        if interim():
            head += f" (interim look: {INTERIM_LEVEL:.1%} intervals)"
        return Outcome(combine(parts), head + ". " + ". ".join(texts), [], measured,
                       {"max_lower_ci_at_most": 1 + self.margin, "max_step_below": 1.0})


def _falls_at_look(d) -> str:
    """A step of :class:`NoWorseThanBaseline` at an interim look, from its per-seed
    differences ``d``: the t interval at :data:`INTERIM_LEVEL` holds below 0, fails above 0,
    else is inconclusive."""
    d = np.asarray(d, dtype=float)
    lo, hi = interim_interval(d[np.isfinite(d)])
    return "holds" if hi < 0 else "fails" if lo > 0 else "inconclusive"


def _at_most_at_look(lo: float, hi: float, limit: float) -> str:
    """A ratio part of :class:`NoWorseThanBaseline`: fails when the CI lies above ``limit``;
    at the last look holds otherwise, at an interim one only when the CI lies at or below it."""
    if not (np.isfinite(lo) and np.isfinite(hi)):  # a baseline mean of 0: no ratio to judge
        return "inconclusive"
    if lo > limit:
        return "fails"
    return "holds" if not interim() or hi <= limit else "inconclusive"


@dataclass(frozen=True)
class ProbableBound:
    """A bound that holds with probability at least 1 - ``delta`` per cell: ``metric`` <=
    ``bound`` may fail in a few cells, and the rule fails only when the number of
    violations v among N cells is implausible, i.e. when the binomial probability of v or
    more violations at rate ``delta`` is below ``alpha``. ``bound`` is another metric of the
    cell or a number, the same for every cell. It is inconclusive when the
    bound is vacuous (>= the cell's ``ceiling`` metric, the largest value the quantity can
    take) in every cell. Draws the values under the bound (a ``Fit`` of kind "bound") and
    reports the median slack bound / metric."""

    metric: str
    bound: Union[str, float]
    delta: float
    label: str
    bound_label: str
    ceiling: Optional[str] = None
    ylabel: str = "metric"
    alpha: float = 0.01
    name: str = "bound"

    looks = _recipe

    @property
    def reads(self) -> frozenset:
        return frozenset(m for m in (self.metric, self.bound, self.ceiling) if isinstance(m, str))

    def _bounds(self, results) -> np.ndarray:
        if isinstance(self.bound, str):
            return np.array([r.metrics[self.bound] for r in results], dtype=float)
        return np.full(len(results), float(self.bound))

    def __call__(self, results, profile) -> Outcome:
        bad = nonfinite(results, self.reads, self.name)
        if bad is not None:
            return bad
        from scipy.stats import binom  # about a second to import: only when judging

        value = np.array([r.metrics[self.metric] for r in results], dtype=float)
        bound = self._bounds(results)
        v = int(np.sum(value > bound))
        p = float(binom.sf(v - 1, len(value), self.delta)) if v else 1.0
        informative = len(value) if self.ceiling is None else int(np.sum(
            bound < np.array([r.metrics[self.ceiling] for r in results], dtype=float)))
        status = "fails" if p < _alpha(self.alpha) else "inconclusive" if informative == 0 else "holds"
        slack = float(np.median(bound / value))
        x, Y = collect(results, self.metric)
        B = collect(results, self.bound)[1] if isinstance(self.bound, str) else np.full_like(Y, float(self.bound))
        fit = Fit(self.label, x, Y, kind="bound", reference=B, reference_label=self.bound_label,
                  ylabel=self.ylabel)
        summary = (f"{self.metric} > {self.bound_label} in {v}/{len(value)} cells (binomial p = {p:.3g} at rate "
                   f"{self.delta:g}); median slack bound/{self.metric} {slack:.3g}"
                   + (f"; non-vacuous (< {self.ceiling}) in {informative}/{len(value)} cells" if self.ceiling else ""))
        return settled(Outcome(status, summary, [fit],
                               {f"{self.name}_violations": v, f"{self.name}_p": p, f"{self.name}_median_slack": slack,
                                f"{self.name}_nonvacuous_cells": informative},
                               {f"{self.name}_violation_rate_at_most": self.delta}))


@dataclass(frozen=True)
class ForEachMethod:
    """``rule_for(method)`` applied to every method present in the results (in the order of
    ``methods``, those absent skipped; by default every method present, in order of
    appearance), the statuses combined as by :class:`AllOf`: the same statement judged for
    each of several implementations, of which a planted fault may run only some. It judges a
    slope when the rule of one of ``methods`` does (none declared: not known, so it does not)."""

    rule_for: Callable
    methods: tuple = ()

    @property
    def reads(self) -> frozenset:
        return frozenset().union(*(judged_metrics(self.rule_for(m)) for m in self.methods))

    @property
    def judges_slope(self) -> bool:
        return any(judges_a_slope(self.rule_for(m)) for m in self.methods)

    def looks(self) -> bool:
        return bool(self.methods) and all(takes_looks(self.rule_for(m)) for m in self.methods)

    def __call__(self, results, profile) -> Outcome:
        present = list(dict.fromkeys(r.cell.method for r in results))
        methods = [m for m in (self.methods or present) if m in present]
        return AllOf(*(self.rule_for(m) for m in methods))(results, profile)
