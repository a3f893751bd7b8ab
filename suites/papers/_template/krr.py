"""template.krr-dof: a claim WITH A ROLE. Column sampling never adds degrees of freedom.

Copy this module (beside ``rate.py``) when a claim should also check other people's
code: it declares a :class:`~kpca_suite.suites.roles.Subject`, the role (here ``krr``)
through which any implementation (ours, scikit-learn's, yours) takes the place of
the claim's estimator (``kpca-suite run CLAIM --estimator NAME``, ``check``,
``conformance``, :meth:`Claim.for_estimator`). What changes from a plain claim:

- the experiment never builds the subject itself: it calls ``roles.build(factory,
  role, cell, **settings)`` with the role's keyword arguments; ``build`` checks that the
  object has the role's methods and every output it returns (shape, finite values),
  so a wrong output fails the claim naming the defect;
- randomness reaches the factory as ``random_state=cell.seed_int(stream)``, an int
  below 2^32 drawn from the cell, the same for every implementation;
- ``Subject(probe=...)`` is left out: the role's default settings
  (``ROLES["krr"].probe``) build each implementation once before any cell runs;
- the claim's other estimators are references beside the subject, called inside its
  cells, so ``Grid(methods=...)`` names the subject alone (required: see ``Grid``);
- the ridge: a ``krr`` factory's ``ridge`` is scikit-learn's ``alpha``, n lambda:
  (K + ridge I) alpha = y; ``kpca_suite.methods.KernelRidge`` and the papers take
  lambda: (K + n lambda I) alpha = y. The experiment passes ``ridge=n * LAM`` to the
  factory and ``LAM`` to ``methods.KernelRidge``; the first planted fault mixes them
  up.

The statement. KRR on p sampled columns replaces K by its Nyström approximation
K_p = K_nI K_II^+ K_In, and K - K_p is positive semidefinite (a Schur complement),
so the eigenvalues of K_p are at most K's (Weyl) and the degrees of freedom of the
smoother S_p = K_p (K_p + n lambda I)^-1 are at most exact KRR's,
tr S_p <= d(lambda) = tr K (K + n lambda I)^-1, with equality when p = n.
"""

import math

import numpy as np

from kpca_suite.kernels import Kernel
from kpca_suite.methods import KernelRidge, NystromKRR
from kpca_suite.suites.adapters import NystromKRRRole, ours_nystrom_krr
from kpca_suite.suites.claim import Claim, Fault, Grid, PerProfile, Tolerance
from kpca_suite.suites.judging import AllWithin
from kpca_suite.suites.roles import Subject, build

# ---------------------------------------------------------------- parameters

DIM = 5                                   # points of U[0, 1)^5
KERNEL = Kernel("gaussian", gamma=0.5)    # exp(-|x - y|^2 / 2): d(LAM) about 9
LAM = 1e-2                                # the paper's lambda; a krr factory gets ridge = n * LAM
TOL = 1e-8                                # relative to d(LAM): round-off (see the tolerance's evidence)


def columns(n):
    """The budget that follows n (``Grid(per_size=)``): p = ceil(2 sqrt(n)) sampled columns."""
    return {"p": math.ceil(2 * math.sqrt(n))}


def grid(sizes, seeds):
    """The sweep at one profile: the subject ("columns") alone; "exact" is a reference."""
    return Grid(sizes=sizes, seeds=seeds, per_size=columns, methods=("columns",),
                describe=f"n = {sizes[0]}..{sizes[-1]}, p = ⌈2√n⌉ and p = n columns, {seeds} seeds")


GRID = PerProfile(ci=grid((50, 100, 200, 400), 3),
                  quick=grid((50, 100, 200, 400, 800), 5),
                  full=grid((100, 200, 400, 800, 1600), 10))

# ---------------------------------------------------------------- estimators
# The subject is a role factory, make(budget, kernel, ridge, random_state): here ours,
# uniform columns (``adapters.ours_nystrom_krr``). The reference is no role factory: it
# is called with whatever the experiment needs, here the paper's lambda.


def exact_krr(kernel, lam):
    """The reference: full KRR at the paper's lambda, (K + n lam I) alpha = y."""
    return KernelRidge(kernel, lam)

# ---------------------------------------------------------------- experiment


def degrees_of_freedom(regressor, X) -> float:
    """tr S of a regressor linear in y (fitted values f(X) = S y): ``predict(X)`` after
    one fit on the n x n identity targets (each column of S is the fit of one unit
    target), so the regressor must accept 2-D y; ``bach13.rank.smoother`` falls back
    to n fits where it refuses them."""
    return float(np.trace(regressor.fit(X, np.eye(len(X))).predict(X)))


def subject_dof(factory, cell, X, budget: int, stream: str) -> float:
    """tr S of the subject on ``budget`` columns at ridge = n LAM: the factory is called
    through the role (``build``), its seed drawn from the cell's ``stream``."""
    est = build(factory, "krr", cell, budget=budget, kernel=KERNEL, ridge=len(X) * LAM,
                random_state=cell.seed_int(stream))
    return degrees_of_freedom(est, X)


def experiment(cell, estimators):
    """One cell: n points of U[0, 1)^DIM; d = d(LAM) from the reference; the subject's tr S
    at p columns and at p = n, as relative excesses over d (positive: more degrees of
    freedom than exact KRR)."""
    X = cell.rng().uniform(size=(cell.n, DIM))
    d = degrees_of_freedom(estimators["exact"](KERNEL, LAM), X)
    some = subject_dof(estimators["columns"], cell, X, cell.p["p"], "columns")
    every = subject_dof(estimators["columns"], cell, X, cell.n, "all-columns")
    return {"dof": d, "excess": (some - d) / d, "gap_all": abs(every - d) / d}

# ---------------------------------------------------------------- planted faults
# Each replaces the subject (a role factory) and must make the claim fail.


def ridge_as_lambda(budget, kernel, ridge, random_state):
    """A planted fault: hands the role's ridge (n lambda) to a solver that takes lambda,
    so it solves (K_p + n^2 lambda I) alpha = y: too few degrees of freedom at p = n."""
    return NystromKRR(kernel, ridge, budget, random_state=random_state)


def ridge_ignored(budget, kernel, ridge, random_state):
    """A planted fault: drops the ridge (a jitter of 1e-10 in its place), so the fit
    interpolates on its p columns: about p degrees of freedom, more than d once p > d."""
    return NystromKRRRole(budget, kernel, 1e-10, random_state)

# ---------------------------------------------------------------- declarations


CLAIMS = [
    Claim(
        id="template.krr-dof",
        source="Bach 2013, Sec. 4 (Nyström KRR; K - K_p is positive semidefinite)",
        statement="KRR on p sampled columns has at most the degrees of freedom of exact KRR, and as many "
                  "with every column",
        prediction="tr S_p <= d(λ) = tr K(K + nλI)^-1 at p = ⌈2√n⌉; tr S_n = d(λ)",
        data=f"n points of U[0, 1)^{DIM}, Gaussian kernel γ = {KERNEL.gamma:g}, λ = {LAM:g} (ridge = nλ for the "
             "subject)",
        metric="(tr S_p - d) / d at p = ⌈2√n⌉ and |tr S_n - d| / d, S read from fit(X, I_n), predict(X)",
        metrics=("dof", "excess", "gap_all"),
        estimators={"columns": ours_nystrom_krr, "exact": exact_krr},
        experiment=experiment,
        subject=Subject("krr", "columns", centred=False, kernel="gaussian",
                        budget="p = ⌈2√n⌉ columns, then p = n; ridge = nλ",
                        needs="fit(X, y) with 2-D y (the n x n identity) and predict(X): the smoother S",
                        kinds=("nystrom", "exact")),
        grid=GRID,
        judge=AllWithin(TOL, metrics=("excess", "gap_all"), what="of d(λ)"),
        tolerance=Tolerance(
            rule=f"every cell's excess and gap at most {TOL:g} of d(λ): an exact inequality and identity, round-off "
                 "only",
            evidence="the experiment on every cell of ci (seeds 0-2) and quick (seeds 0-4), n = 50..800. Correct "
                     "implementations: excess at most -0.0175 (scikit-learn's Nystroem + Ridge, quick; ours -0.0194, "
                     "exact KernelRidge 1.1e-15), gap at most 2.4e-12 (Nystroem + Ridge, which clips K_mm's "
                     "eigenvalues at 1e-12; ours 7.9e-16): the limit is 4000 times the worst. Faults at ci: "
                     "ridge-as-lambda gap >= 0.865, ridge-ignored excess >= 0.60. In 1-D with γ = 10 (a K far worse "
                     "conditioned) ours lost up to 2.6e-3 of d at p = n, hence 5-D points: an identity needs data on "
                     "which correct code meets it to round-off"),
        faults=(Fault("ridge-as-lambda", "the role's ridge nλ read as λ: (K_p + n²λI)α = y",
                      {"columns": ridge_as_lambda}),
                Fault("ridge-ignored", "no ridge (a 1e-10 jitter): interpolates on its p columns",
                      {"columns": ridge_ignored})),
    ),
]
