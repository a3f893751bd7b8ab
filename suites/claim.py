"""The declaration types of a claim: what it checks, on which data, with which
estimators, over which sweep, judged by which rule, and which planted faults
must make it fail.

A claim is data, in the manner of benchopt's objective / dataset / solver split:

``data``        the population model or data set, in words;
``estimators``  ``{name: factory}``: everything the experiment runs that a
                planted fault or another implementation may replace (an
                estimator class or factory, or a theory routine the claim
                checks); a cell's ``method`` names one of them;
``experiment``  ``experiment(cell, estimators) -> {metric: value}``, a
                module-level function (a process pool pickles it by reference);
                a value is a float, or a 1-D array of floats for a curve;
``metrics``     the names the experiment returns (every cell returns a subset);
                a judging recipe may read only declared names, checked when the
                claim is declared, and a cell returning an undeclared name stops
                the sweep at the first cell (:mod:`suites.runner`);
``grid``        the sweep per profile: a :class:`PerProfile` of :class:`Grid`,
                or, for a sweep that depends on the user's data, a function
                ``(profile, options) -> [Cell]``;
``judge``       a recipe of :mod:`suites.judging` (or, as the exception, a
                function ``(results, profile) -> Outcome``);
``tolerance``   the rule in words and the measurement behind its numbers;
``faults``      the planted faults: estimator substitutions with the verdict
                they must produce, run by the tests, ``kpca-suite run --fault``
                and :func:`suites.faults.check_faults` (:meth:`Claim.for_fault`);
``subject``     optionally, the role through which another implementation
                can take the place of the claim's estimator
                (:class:`suites.roles.Subject`; :meth:`Claim.for_estimator`).

A claim never mutates: :meth:`Claim.with_estimators` returns a new one, which is
how a planted fault or someone else's implementation is plugged in.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Mapping, Optional, TypeVar

from .cell import Cell, Result  # noqa: F401 - re-exported: declarations name them

PROFILES = ("ci", "quick", "full")
STATUSES = ("holds", "fails", "inconclusive")

T = TypeVar("T")


def check_profile(profile: str) -> str:
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
    return profile


@dataclass(frozen=True)
class PerProfile(Generic[T]):
    """One value per profile: ``ci`` (seconds, run by pytest), ``quick`` (the
    default of ``kpca-suite run``) and ``full`` (paper scale)."""

    ci: T
    quick: T
    full: T

    def __getitem__(self, profile: str) -> T:
        return getattr(self, check_profile(profile))

    @classmethod
    def same(cls, value: T) -> "PerProfile[T]":
        """The same value at every profile."""
        return cls(value, value, value)

    def map(self, f: Callable[[T], Any]) -> "PerProfile":
        return PerProfile(f(self.ci), f(self.quick), f(self.full))

    def items(self):
        return [(p, self[p]) for p in PROFILES]


# ---------------------------------------------------------------------- results and fits

FIT_KINDS = ("rate", "bound", "measured")


@dataclass
class Fit:
    """A measured curve drawn on the claim's plot and listed in the report.

    ``label`` names the method, optionally followed by ``": "`` and the quantity
    (``"line 1: risk at λ*"``); the part before ``": "`` picks the method's colour,
    the same in every panel. ``x`` are the abscissae, ``y`` a (len(x), seeds)
    array of the metric (NaN where a seed is missing). ``kind`` says what the
    curve is checked against:

    ``"rate"``      a log-log slope: ``slope`` / ``ci`` the fitted slope and its
                    bootstrap 95% interval (lo == hi for a deterministic curve),
                    ``band`` the tolerance band on it (or None), ``predicted`` the
                    predicted slope (or None) and ``reference`` optionally a
                    curve on the same x (e.g. the exact R_{C,l});
    ``"bound"``     an upper bound: ``reference`` holds the bound on the same x, or
                    each cell's own (the shape of ``y``, drawn as the per-x mean);
                    the measured values are drawn under it with the slack
                    bound / measured, each cell against its own, and nothing is fitted;
    ``"measured"``  the curve alone, for claims judged point by point (nothing fitted).

    ``reference_label`` says what ``reference`` is ("exact reference curve",
    "bound (eq. 15)", ...).
    """

    label: str
    x: Any
    y: Any
    slope: float = math.nan
    ci: tuple = (math.nan, math.nan)
    intercept: float = 0.0
    predicted: Optional[float] = None
    band: Optional[tuple] = None
    reference: Any = None
    xlabel: str = "n"
    ylabel: str = "metric"
    kind: str = "rate"
    reference_label: str = "exact reference curve"

    def __post_init__(self):
        if self.kind not in FIT_KINDS:
            raise ValueError(f"Fit kind must be one of {FIT_KINDS}, got {self.kind!r}")


@dataclass
class Outcome:
    """What a judging rule returns: a status in STATUSES, a one-line summary,
    the fits for the plot, and measured / predicted numbers for the report."""

    status: str
    summary: str
    fits: list = field(default_factory=list)
    measured: dict = field(default_factory=dict)
    predicted: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")


#: A claim's verdict may also be ``n/a``: the claim says nothing about the implementation
#: that ran it (it refused the claim's setting, :class:`suites.roles.Unsupported`). No judging
#: rule returns it.
VERDICT_STATUSES = (*STATUSES, "n/a")


@dataclass
class Verdict(Outcome):
    """The outcome of one claim, with the claim's id; its status is one of
    :data:`VERDICT_STATUSES`. ``seeds`` is ``(N, M)`` for a claim judged in looks
    (:mod:`suites.pipeline`): decided on its first N of M seeds; () otherwise."""

    claim: str = ""
    seeds: tuple = ()

    def __post_init__(self):
        if self.status not in VERDICT_STATUSES:
            raise ValueError(f"status must be one of {VERDICT_STATUSES}, got {self.status!r}")

    @classmethod
    def of(cls, claim_id: str, outcome: Outcome) -> "Verdict":
        return cls(outcome.status, outcome.summary, list(outcome.fits), dict(outcome.measured),
                   dict(outcome.predicted), claim=claim_id)

    def judged_slope(self) -> Optional[Fit]:
        """The first fit whose slope is judged (kind ``"rate"`` with a tolerance band and
        a finite slope), or None: what asv tracks and the conformance matrix shows."""
        return next((f for f in self.fits
                     if f.kind == "rate" and f.band is not None and math.isfinite(f.slope)), None)


# ---------------------------------------------------------------------- declarations

@dataclass(frozen=True)
class Tolerance:
    """The judging rule in words, and the measurement its numbers come from
    (the run, the seeds, the observed spread), so that a reader can see why a
    tolerance is what it is."""

    rule: str
    evidence: str


#: The tag of a planted fault's run in a claim id: ``<claim id>[fault:<name>]``
#: (:meth:`Claim.for_fault`).
FAULT_TAG = "fault:"


def fault_name_of(claim_id: str) -> Optional[str]:
    """The fault in a planted fault's claim id ``<id>[fault:<name>]``, or None for any
    other id (a claim's own, or ``<id>[<name>]`` of another implementation)."""
    suffix = claim_id.partition("[")[2]
    return suffix[len(FAULT_TAG):-1] if suffix.startswith(FAULT_TAG) else None


@dataclass(frozen=True)
class Fault:
    """A planted fault: the estimators it substitutes and the verdict it must
    produce (``fails`` for a fault; a negative-control claim may declare the
    other way round). ``keep`` optionally restricts the cells run for it (to
    keep the test fast), ``profile`` is the profile it runs at unless one is given
    (the tests and :func:`suites.faults.check_faults`; ``kpca-suite run --fault``
    runs it at the command line's)."""

    name: str
    description: str
    estimators: Mapping[str, Callable]
    expect: str = "fails"
    keep: Optional[Callable[[Cell], bool]] = None
    profile: str = "ci"


@dataclass(frozen=True)
class Grid:
    """The sweep of a claim at one profile: every method x size x seed.

    ``sizes``     the sample sizes n;
    ``seeds``     the number of seeds (0 .. seeds-1);
    ``params``    settings shared by every cell;
    ``per_size``  optional ``n -> {name: value}``, settings that follow n (m = n^θ ln n);
    ``methods``   the methods to run, each cell's ``method`` (default: every estimator of
                  the claim). A claim with a role and more than one estimator must name
                  them (refused when declared otherwise): its other estimators are often
                  references beside the subject (exact KRR, a bound), called inside the
                  subject's cells, and swept by default they would run as methods of
                  their own, again for every implementation checked;
    ``describe``  the sweep in words for the catalogue (default: generated).
    """

    sizes: tuple
    seeds: int
    params: Mapping = field(default_factory=dict)
    per_size: Optional[Callable[[int], dict]] = None
    methods: Optional[tuple] = None
    describe: str = ""

    def cells(self, claim_id: str, methods, options: dict) -> list:
        chosen = self.methods if self.methods is not None else tuple(methods)
        return [Cell.make(claim_id, method, n, seed, **self.params, **(self.per_size(n) if self.per_size else {}))
                for method in chosen for n in self.sizes for seed in range(self.seeds)]

    def text(self) -> str:
        if self.describe:
            return self.describe
        sizes = list(self.sizes)
        span = f"n = {sizes[0]}" if len(sizes) == 1 else f"n = {sizes[0]}..{sizes[-1]} ({len(sizes)} sizes)"
        return f"{span}, {self.seeds} seeds"


@dataclass(frozen=True)
class CellList:
    """A sweep that is not a product of sizes and seeds, or that depends on the
    user's data (``--data`` decides n): ``build(claim_id, options) -> [Cell]``.
    Raise ``ValueError`` for unusable options; the CLI reports it before any
    cell runs."""

    build: Callable[[str, dict], list]
    describe: str

    def cells(self, claim_id: str, methods, options: dict) -> list:
        return list(self.build(claim_id, options))

    def text(self) -> str:
        return self.describe


def grid_cells(grid, claim_id: str, methods, options: dict) -> list:
    """Cells of one profile's grid: a :class:`Grid`, a :class:`CellList`, or a
    tuple of them (concatenated)."""
    if isinstance(grid, tuple):
        return [c for g in grid for c in g.cells(claim_id, methods, options)]
    return grid.cells(claim_id, methods, options)


def grid_text(grid) -> str:
    if isinstance(grid, tuple):
        return "; ".join(g.text() for g in grid)
    return grid.text()


def judged_metrics(judge) -> frozenset:
    """The metric names a judging rule reads: a recipe's ``reads`` (see
    :mod:`suites.judging`); a judge function of a claim's own reads only the
    claim's declared metrics, which the sweep checks, so it contributes nothing."""
    return frozenset(getattr(judge, "reads", ()))


def run_experiment(experiment: Callable, estimators: Mapping, cell: Cell) -> dict:
    """``experiment(cell, estimators)``: module-level so that a process pool can
    pickle ``functools.partial(run_experiment, experiment, estimators)``."""
    return experiment(cell, estimators)


@dataclass(frozen=True)
class Claim:
    """A declared claim; see the module docstring for the fields."""

    id: str
    source: str
    statement: str
    prediction: str
    data: str
    metric: str
    estimators: Mapping[str, Callable]
    experiment: Callable[[Cell, Mapping], dict]
    grid: PerProfile  # of Grid, CellList, or a tuple of them
    judge: Callable[[list, str], Outcome]
    tolerance: Tolerance
    faults: tuple = ()
    figure: Optional[Callable] = None  # figure(results, verdict, outdir) -> list[Path]
    takes_data: bool = False           # the sweep reads a user's --data file
    subject: Any = None                # suites.roles.Subject, or None: only our estimators
    metrics: Optional[tuple] = None    # the names the experiment returns; None: undeclared
    implementation: Optional[str] = None  # the fingerprint of another implementation's code

    def __post_init__(self):
        if "." not in self.id:
            raise ValueError(f"claim id {self.id!r} must be 'paper.name'")
        if self.metrics is not None:
            object.__setattr__(self, "metrics", tuple(self.metrics))
            unread = judged_metrics(self.judge) - set(self.metrics)
            if unread:
                raise ValueError(f"claim {self.id!r}: its judge reads metric(s) {sorted(unread)}, which the claim "
                                 f"does not declare; it declares {sorted(self.metrics)}")
        if self.subject is not None and self.subject.estimator not in self.estimators:
            raise ValueError(f"claim {self.id!r}: its subject names estimator {self.subject.estimator!r}; "
                             f"it has {sorted(self.estimators)}")
        if self.subject is not None and (wrong_probe := self.subject.probe_problem()):
            raise ValueError(f"claim {self.id!r}: {wrong_probe}")
        if self.subject is not None and len(self.estimators) > 1:  # a reference beside the subject: not swept
            grids = [(p, g) for p, grid in self.grid.items() for g in (grid if isinstance(grid, tuple) else (grid,))]
            unnamed = [p for p, g in grids if isinstance(g, Grid) and g.methods is None]
            if unnamed:
                raise ValueError(f"claim {self.id!r}: a claim with a role and several estimators "
                                 f"({', '.join(sorted(self.estimators))}) names the ones its grid sweeps, "
                                 f"Grid(methods=...), at every profile; not at {', '.join(unnamed)}")
        for fault in self.faults:
            if not fault.name or "[" in fault.name or "]" in fault.name:
                raise ValueError(f"claim {self.id!r}: a fault's name must be non-empty without brackets (it is "
                                 f"part of the id its run is stored under), got {fault.name!r}")
            unknown = set(fault.estimators) - set(self.estimators)
            if unknown:
                raise ValueError(f"claim {self.id!r}: fault {fault.name!r} substitutes unknown "
                                 f"estimator(s) {sorted(unknown)}; the claim has {sorted(self.estimators)}")

    @property
    def paper(self) -> str:
        return self.id.split(".", 1)[0]

    def cells(self, profile: str, options: Optional[dict] = None) -> list:
        """The sweep at ``profile`` (``options`` carries CLI choices such as ``--data``).
        Every cell carries the identity of the code that computes it (param ``code``;
        ``implementation`` too, run with another implementation: :mod:`suites.identity`),
        so results of changed code never stand for the new code's."""
        from .identity import IDENTITY_PARAMS, identity_params

        cells = grid_cells(self.grid[profile], self.id, self.estimators, dict(options or {}))
        ident = identity_params(self)
        for c in cells:
            taken = [k for k, _ in c.params if k in IDENTITY_PARAMS]
            if taken:
                raise ValueError(f"claim {self.id!r}: its sweep sets the param(s) {taken}, which name the identity "
                                 "of a cell's code; call them otherwise")
        return [dataclasses.replace(c, params=tuple(sorted(c.params + ident))) for c in cells]

    @property
    def run_cell(self) -> Callable[[Cell], dict]:
        """The experiment bound to this claim's estimators, picklable when they are."""
        return functools.partial(run_experiment, self.experiment, dict(self.estimators))

    def with_estimators(self, **substitutes: Callable) -> "Claim":
        """The same claim with some estimators replaced (a planted fault, or
        another implementation of the same role). Names must exist."""
        unknown = set(substitutes) - set(self.estimators)
        if unknown:
            raise KeyError(f"claim {self.id!r} has no estimator(s) {sorted(unknown)}; "
                           f"it has {sorted(self.estimators)}")
        return dataclasses.replace(self, estimators={**self.estimators, **substitutes})

    def for_estimator(self, name: str, factory: Optional[Callable], fingerprint: Optional[str] = None) -> "Claim":
        """The claim run with the role factory ``factory`` (named ``name``) in place
        of its own estimator: id ``<id>[<name>]`` (its own cells in a store), the
        same data streams, no planted faults (they are faults of ours); ``fingerprint``
        identifies the factory's code in every cell (:mod:`suites.fingerprint`).
        ``factory=None`` gives a claim that can only judge stored results."""
        if self.subject is None:
            raise ValueError(f"claim {self.id!r} declares no role: only its own estimators run it")
        if "[" in name or "]" in name or not name or name.startswith(FAULT_TAG):
            raise ValueError(f"estimator name must be non-empty without brackets and not start with {FAULT_TAG!r} "
                             f"(the runs of planted faults), got {name!r}")
        estimators = dict(self.estimators)
        estimators[self.subject.estimator] = factory
        return dataclasses.replace(self, id=f"{self.base_id}[{name}]", estimators=estimators, faults=(),
                                   implementation=fingerprint)

    @property
    def base_id(self) -> str:
        """The registered id (without an estimator's or a planted fault's suffix)."""
        return self.id.split("[", 1)[0]

    @property
    def estimator_name(self) -> Optional[str]:
        """The name in ``<id>[<name>]``, or None for the claim's own estimator (a
        planted fault's run, ``<id>[fault:<name>]``, included)."""
        if "[" not in self.id or self.fault_name is not None:
            return None
        return self.id[len(self.base_id) + 1:-1]

    @property
    def fault_name(self) -> Optional[str]:
        """The fault in ``<id>[fault:<name>]`` (:meth:`for_fault`), or None."""
        return fault_name_of(self.id)

    def with_fault(self, name: str) -> "Claim":
        """The claim with the planted fault ``name`` substituted."""
        return self.with_estimators(**self.fault(name).estimators)

    def for_fault(self, name: str) -> "Claim":
        """The claim with its planted fault ``name`` substituted, as a claim of its own:
        id ``<id>[fault:<name>]``, so that a store keeps the fault's cells apart from the
        claim's (the data streams follow the base id, :attr:`Cell.base_claim`), and no
        planted faults of its own. KeyError when the claim declares no such fault."""
        return dataclasses.replace(self.with_fault(name), id=f"{self.base_id}[{FAULT_TAG}{name}]", faults=())

    def fault(self, name: str) -> Fault:
        for f in self.faults:
            if f.name == name:
                return f
        raise KeyError(f"claim {self.id!r} has no fault {name!r}; it has {[f.name for f in self.faults]}")

    def verdict(self, results: list, profile: str) -> Verdict:
        """Judge finished cells: the declared rule, wrapped with the claim's id."""
        outcome = self.judge(results, profile)
        if not isinstance(outcome, Outcome):
            raise TypeError(f"claim {self.id!r}: judge returned {type(outcome).__name__}, not an Outcome")
        if self.estimator_name is not None:  # the plot names the implementation that ran
            for fit in outcome.fits:
                fit.label = f"{self.estimator_name} in place of {fit.label}"
        return Verdict.of(self.id, outcome)

    def sizes(self, profile: str) -> str:
        """The sweep at ``profile`` in words."""
        return grid_text(self.grid[profile])


@dataclass(frozen=True)
class Paper:
    """A paper module's header: its key (the claim-id prefix), the citation,
    and its errata and pitfalls in the project's own words (Markdown)."""

    key: str
    citation: str
    errata: str = ""
