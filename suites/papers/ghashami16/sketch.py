"""ghashami16.fd-bound and fd-merge: the Frequent Directions guarantee and its merge."""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels.frequent_directions import FrequentDirections
from kpca_suite.theory.ghashami16 import fd_bound

from ...claim import Cell, Claim, Fault, PerProfile, Tolerance
from ...judging import AllOf, AllWithin, WithErratum
from ...roles import NO_KERNEL, Subject, build, declared_index, declared_number, sketch_rows
from ._common import _digits, crossed, single_threaded

# -- ghashami16.fd-bound / fd-merge --------------------------------------------------------

FD_ELLS = (2, 5, 10, 20)


FD_KINDS = ("random", "lowrank", "equal", "repeated", "zero", "short", "digits")


FD_CHECKS = ("psd", "err_bound", "err_delta", "delta_bound", "exact")


FD_TOL = 1e-9  # relative to ||A||_F^2

#: A sketch stored in low precision is judged at FD_PER_EPS times its machine epsilon
#: (float32: 1.2e-3 of ||A||_F^2), float64 at FD_TOL (see _FD_EVIDENCE).
FD_PER_EPS = 1e4

FD_HINT = ("a correct sketch reads below 1e-14 of ||A||_F^2 in float64 and 1.3e-6 in float32; shrinking Sigma "
           "instead of Sigma^2, a merge that loses Delta or a shrink index that is not the rule's read 0.1 and more")


#: |the bound judged - its direct evaluation| (direct_fd_bound), relative to ||A||_F^2.
FD_FORMULA_TOL = 1e-12


FD_FORMULA_EVIDENCE = ("A bound with too large a constant only loosens the inequalities judged, so the bound is "
                       "also evaluated directly from the printed formula (direct_fd_bound: A_k from an SVD, the "
                       "residual A - A_k summed entrywise, a loop over k): at ci it agreed to 1.4e-15 of "
                       "||A||_F^2 (fd-bound and fd-merge alike), so 1e-12 is round-off headroom; a bound 10% "
                       "too large (bound-off-by-10%, random and digits kinds) deviates by 0.10 of ||A||_F^2 "
                       "(the j = 1 cell, where the bound is ||A||_F^2) and fails")


def _fd_matrix(cell: Cell) -> np.ndarray:
    """The matrix A of one cell, by ``kind``: decaying spectrum, rank 3, all singular
    values equal, one repeated row, zero, fewer rows than ell, or 600 digits."""
    kind, rng = cell.p["kind"], cell.rng()
    if kind == "random":
        return rng.standard_normal((400, 40)) * np.geomspace(1.0, 0.01, 40)
    if kind == "lowrank":
        return rng.standard_normal((300, 3)) @ rng.standard_normal((3, 40))
    if kind == "equal":  # every singular value equal: stacked scaled orthonormal blocks
        Q = np.linalg.qr(rng.standard_normal((40, 40)))[0]
        return np.vstack([Q * 3.0] * 8)
    if kind == "repeated":
        return np.repeat(rng.standard_normal((1, 40)), 300, axis=0)
    if kind == "zero":
        return np.zeros((100, 40))
    if kind == "short":  # n < ell for the larger ell: no shrink, B^T B = A^T A
        return rng.standard_normal((4, 40))
    X, _ = _digits()
    return X[rng.permutation(len(X))[:600]]


def direct_fd_tails(A, k_max: int) -> list:
    """||A - A_k||_F^2 for k = 0 .. k_max - 1, by a second route independent of
    :func:`theory.ghashami16.fd_bound` (which sums the tail sigma_{k+1}^2 + ...): A_k =
    U_k diag(sigma_1..sigma_k) V_k^T from an SVD of A, the residual A - A_k formed and its
    squared entries summed, one k at a time."""
    U, s, Vt = np.linalg.svd(A, full_matrices=False)
    tails = []
    for k in range(k_max):
        residual = A - (U[:, :k] * s[:k]) @ Vt[:k]
        tails.append(float(np.sum(residual**2)))
    return tails


def direct_fd_bound(tails, j: int) -> float:
    """The FD bound as printed, min_{0 <= k < j} ||A - A_k||_F^2 / (j - k), from
    :func:`direct_fd_tails` by a plain loop over k."""
    best = np.inf
    for k in range(j):
        best = min(best, tails[k] / (j - k))
    return float(best)


def _fd_check(A, B, ell: int, j: int, delta, bound_fn, tails):
    """Deviations of the FD guarantees of a sketch B of A with ``ell`` rows, shrink
    index j and certified ``delta`` (None: not exposed), relative to ||A||_F^2
    (positive = violated): psd: -lambda_min(A^T A - B^T B); err_bound:
    ||A^T A - B^T B||_2 - min_{k<j} ||A - A_k||_F^2 / (j - k) (each term by ``bound_fn``,
    :func:`theory.ghashami16.fd_bound`); err_delta: the error - Delta; delta_bound: Delta -
    the same minimum (-inf where Delta is not exposed: the check does not apply); exact: the
    error where it must be 0 (n < ell or rank(A) < j); literal: the error against the
    paper's (ell - k) denominator (Lemma 2.1); formula: |that minimum - the one evaluated
    directly from ``tails`` (:func:`direct_fd_tails`)|."""
    fro = max(float(np.sum(A**2)), 1e-300)
    ev = np.linalg.eigvalsh(A.T @ A - B.T @ B)
    err = float(np.max(np.abs(ev)))
    s2 = np.linalg.svd(A, compute_uv=False) ** 2
    bound = float(np.min([bound_fn(s2, j, k) for k in range(j)]))  # np.min: a NaN stays NaN
    rank = int((s2 > s2[0] * max(A.shape) * np.finfo(float).eps).sum()) if s2[0] > 0 else 0
    exact = err / fro if (A.shape[0] < ell or rank < j) else -np.inf
    literal = max(err - bound_fn(s2, ell, k) for k in range(ell)) / fro
    exposed = delta is not None
    formula = abs(bound - direct_fd_bound(tails, j)) / fro
    return {"psd": float(-ev.min() / fro), "err_bound": (err - bound) / fro,
            "err_delta": (err - delta) / fro if exposed else -np.inf,
            "delta_bound": (delta - bound) / fro if exposed else -np.inf, "exact": exact, "literal": literal,
            "formula": formula}


def _sketched(cell: Cell, factory, A, ell: int, chunks: int = 1):
    """A ``matrix-sketch`` built by ``factory`` with ``ell`` rows after one pass of
    partial_fit over ``chunks`` consecutive row chunks of A."""
    sk = build(factory, "matrix-sketch", cell, n_components=None, budget=ell, kernel=None,
               random_state=cell.seed_int("sketch"))
    for part in np.array_split(A, chunks):
        if len(part):
            sk.partial_fit(part)
    return sk


def _checked(cell: Cell, A, sk, ell: int, bound_fn, tails):
    """:func:`_fd_check` of a fitted sketch, read through its role: ``sketch_``, and the
    optional ``shrink_index`` and ``delta_``; the bound by ``bound_fn``, cross-checked
    against ``tails``.

    Without ``shrink_index`` the sketch is judged at j = ell // 2, Algorithm 1's halving
    rule: its bound ||A - A_k||_F^2 / (j - k) is met by a correct sketch of either rule (the
    standard rule's j = ell gives the smaller right-hand side). A default of ell failed a
    correct halving sketch that does not say it halves (a maintainer's plain NumPy one
    read 1.0 of ||A||_F^2 against the standard bound). A standard sketch that exposes
    shrink_index = ell is judged against its own, twice as strong, bound."""
    B = sketch_rows(sk, cell.claim, A.shape[1], ell)
    j = declared_index(sk, "shrink_index", cell.claim, 1, ell, ell // 2)
    delta = declared_number(sk, "delta_", cell.claim)
    return {**_fd_check(A, B, ell, j, delta, bound_fn, tails), "eps": sk.eps_}


def _worst(rows):
    """The largest deviation per check over ``rows``. -inf (the check does not apply, as
    ``exact`` on a matrix of full rank) becomes -1.0; a NaN or +inf deviation stays NaN,
    so the judge fails it as not finite instead of reading it as no violation."""
    out = {}
    for row in rows:
        for key, v in row.items():
            prev = out.get(key, -np.inf)
            out[key] = np.nan if np.isnan(v) or np.isnan(prev) else max(prev, v)
    return {key: (-1.0 if v == -np.inf else float(v) if np.isfinite(v) else np.nan) for key, v in out.items()}


@single_threaded
def fd_experiment(cell: Cell, estimators) -> dict:
    """Each sketch (``fd``: the standard rule, or any matrix-sketch in its place;
    ``fd-halving``: Algorithm 1's rule) on one matrix, streamed in 4 chunks, every
    ell <= d; worst deviations. ``halving_literal`` is the halving rule against the
    paper's (ell - k). ``bound_formula``: the largest |bound - its direct evaluation|
    (:func:`direct_fd_tails`, :func:`direct_fd_bound`) over every (rule, ell), relative to
    ||A||_F^2."""
    A = _fd_matrix(cell)
    ells = [ell for ell in FD_ELLS if ell <= A.shape[1]]
    tails = direct_fd_tails(A, max(ells))
    out = {"bound_formula": -1.0, "eps": 0.0}
    for slot, rule in (("fd", "standard"), ("fd-halving", "halving")):
        worst = _worst(_checked(cell, A, _sketched(cell, estimators[slot], A, ell, 4), ell, estimators["bound"], tails)
                       for ell in ells)
        out["bound_formula"] = float(np.max([out["bound_formula"], worst.pop("formula")]))  # NaN stays NaN
        out["eps"] = max(out["eps"], worst.pop("eps"))
        out.update({f"{rule}_{k}": v for k, v in worst.items() if rule == "halving" or k != "literal"})
    return out


def _merged(cell: Cell, factory, A, ell):
    """Sketch 4 chunks of A separately and merge them in a tree ((1+2)+(3+4))."""
    parts = [_sketched(cell, factory, P, ell) for P in np.array_split(A, 4) if len(P)]
    while len(parts) > 1:
        parts = [parts[i].merge(parts[i + 1]) if i + 1 < len(parts) else parts[i] for i in range(0, len(parts), 2)]
    return parts[0]


@single_threaded
def merge_experiment(cell: Cell, estimators) -> dict:
    """The FD deviations of the merged sketch against the concatenated matrix,
    worst over both sketches (``fd``, ``fd-halving``) and every ell <= d, and
    ``bound_formula`` as in :func:`fd_experiment`."""
    A = _fd_matrix(cell)
    tails = direct_fd_tails(A, max(FD_ELLS))
    rows = []
    for slot in ("fd", "fd-halving"):
        for ell in FD_ELLS:
            if ell <= A.shape[1]:
                row = _checked(cell, A, _merged(cell, estimators[slot], A, ell), ell, estimators["bound"], tails)
                row.pop("literal")
                rows.append(row)
    out = _worst(rows)
    out["bound_formula"] = out.pop("formula")
    return out


def _fd_sweep(seeds, what=""):
    return crossed(f"{len(FD_KINDS)} matrix kinds x {seeds} seeds{what}, ell in {FD_ELLS}", ("fd",), (0,), seeds,
                   axes=(("kind", FD_KINDS),))


def _two_kinds(cell: Cell) -> bool:
    """Faults run on the random and digits matrices only."""
    return cell.p["kind"] in ("random", "digits")


_FD_EVIDENCE = ("quick profile (seeds 0-4, all kinds, both rules, ell in (2, 5, 10, 20)): worst psd 9.7e-15, "
                "err - Delta 9.7e-15, Delta - bound 7.0e-16, exact 9.7e-15 of ||A||_F^2 (merged sketches: "
                "4.4e-15), so 1e-9 is round-off headroom for float64. Correct variants written outside "
                "(tests/variants, ci, roots 0-2): a 2 ell buffer 5.2e-15, the halving rule 4.7e-15, merges in "
                "the other order 3.4e-15; a buffer stored in float32 1.3e-6 (fd-bound) and 4.8e-7 (fd-merge), "
                "about 11 eps_32, judged at 1e4 eps = 1.2e-3 (x900 above it). Bugs: Sigma shrunk instead of "
                "Sigma^2 0.59 (err - bound), a merge that drops Delta 0.48 (err - Delta): x400 above the float32 "
                "limit, the geometric middle of 1.3e-6 and 0.48 being 7.9e-4. " + FD_FORMULA_EVIDENCE)


def standard_fd(n_components, budget, kernel, random_state):
    """Frequent Directions with ``budget`` rows, the standard rule (a matrix-sketch factory)."""
    return FrequentDirections(budget, "standard")


def halving_fd(n_components, budget, kernel, random_state):
    """Frequent Directions with ``budget`` rows, Algorithm 1's halving rule."""
    return FrequentDirections(budget, "halving")


class SigmaShrinkFD(FrequentDirections):
    """Shrinks the singular values linearly, Sigma - sigma_j, instead of
    sqrt(Sigma^2 - sigma_j^2), while booking delta = sigma_j^2: more mass is
    removed than Delta certifies, so ||A^T A - B^T B||_2 > Delta."""

    def _shrink(self, j):
        _, s, Vt = np.linalg.svd(self.sketch_, full_matrices=False)
        keep = j - 1
        self.sketch_[:keep] = (s[:keep] - s[j - 1])[:, None] * Vt[:keep]
        self.sketch_[keep:] = 0.0
        self.n_filled_ = keep
        self.delta_ += float(s[j - 1] ** 2)
        self.n_shrinks_ += 1


def sigma_shrink_fd(n_components, budget, kernel, random_state):
    return SigmaShrinkFD(budget, "standard")


def sigma_shrink_halving(n_components, budget, kernel, random_state):
    return SigmaShrinkFD(budget, "halving")


class DeltaDroppingFD(FrequentDirections):
    """``merge`` forgets the other sketch's Delta."""

    def merge(self, other):
        out = super().merge(other)
        out.delta_ -= other.delta_
        return out


def delta_dropping_fd(n_components, budget, kernel, random_state):
    return DeltaDroppingFD(budget, "standard")


def delta_dropping_halving(n_components, budget, kernel, random_state):
    return DeltaDroppingFD(budget, "halving")


def loose_fd_bound(sq_singular_values, j, k):
    """A planted fault: the FD bound 10% larger than ||A - A_k||_F^2 / (j - k) (a wrong
    constant, which no inequality of the claim can see: it only loosens them)."""
    return 1.1 * fd_bound(sq_singular_values, j, k)


FD_LOOSE_BOUND = Fault("bound-off-by-10%", "the FD bound 10% larger than printed (a wrong constant, which "
                       "loosens every inequality judged and is seen only by the direct evaluation)",
                       {"bound": loose_fd_bound}, keep=_two_kinds)


FD_FORMULA_JUDGE = AllWithin(FD_FORMULA_TOL, metrics=("bound_formula",),
                             what="of ||A||_F^2, the bound against its direct evaluation")


FD_RULE = (f"every deviation <= {FD_TOL:g} of ||A||_F^2 (a sketch stored in lower precision: {FD_PER_EPS:g} times its "
           "machine epsilon); the bound min_(k<j) ||A - A_k||_F^2 / (j - k) judged "
           f"within {FD_FORMULA_TOL:g} of ||A||_F^2 of its direct evaluation (A_k from an SVD, the residual "
           "summed entrywise, a loop over k)")


SKETCH_SUBJECT = dict(role="matrix-sketch", estimator="fd", centred=None, kernel=NO_KERNEL,
                      probe=(("n_components", None), ("budget", 4)), kinds=("sketch",))


CLAIMS = [
    Claim(
        id="ghashami16.fd-bound",
        source="Ghashami et al. 2016, Lemma 2.1 (the FD bound of Ghashami & Phillips 2014 its proof uses) with "
               "Algorithm 1's shrink; Sec. 1.1 (Liberty 2013: ell = 2/eps rows give eps ||A||_F^2)",
        statement="The Frequent Directions bound behind Lemma 2.1, which the paper states as ||Ax||^2 - ||Bx||^2 <= "
                  "||A - A_k||_F^2 / (ell - k) for every unit x: with shrink index j (j = ell for the standard shrink "
                  "by sigma_ell^2, j = floor(ell/2) for Algorithm 1's shrink by sigma_{ell/2}^2), 0 <= A^T A - B^T B "
                  "and ||A^T A - B^T B||_2 <= Delta <= ||A - A_k||_F^2 / (j - k) for all k < j, Delta the total "
                  "shrinkage; exact (error 0) when n < ell or rank(A) < j",
        prediction="exact inequalities (j = ell or floor(ell/2)); the paper's (ell - k) holds for the standard "
                   "shrink and is an erratum for Algorithm 1's, reported and not judged",
        data="seven matrix kinds (40 columns): Gaussian with column scales decaying 1..0.01, rank 3, all singular "
             "values equal, one repeated row, zero, 4 rows, and 600 rows of digits; no kernel, no bandwidth",
        metric="worst deviation of each guarantee over ell in (2, 5, 10, 20), relative to ||A||_F^2, for both "
               "shrink rules (positive = violated)",
        metrics=tuple(f"{rule}_{k}" for rule in ("standard", "halving") for k in FD_CHECKS)
        + ("halving_literal", "bound_formula", "eps"),
        estimators={"fd": standard_fd, "fd-halving": halving_fd, "bound": fd_bound},
        subject=Subject(**SKETCH_SUBJECT, budget="ell sketch rows, ell in (2, 5, 10, 20)",
                        needs="sketch_ after partial_fit over 4 row chunks; shrink_index and delta_ where exposed"),
        experiment=fd_experiment,
        grid=PerProfile(ci=_fd_sweep(2), quick=_fd_sweep(5), full=_fd_sweep(30)),
        judge=AllOf(WithErratum(AllWithin(FD_TOL, metrics=tuple(f"{rule}_{k}" for rule in ("standard", "halving")
                                                                for k in FD_CHECKS), what="of ||A||_F^2",
                                          per_eps=FD_PER_EPS, hint=FD_HINT),
                                metric="halving_literal", tol=FD_TOL,
                                what="the paper's (ell - k) denominator for the halving rule"),
                    FD_FORMULA_JUDGE),
        tolerance=Tolerance(rule=FD_RULE, evidence=_FD_EVIDENCE),
        faults=(Fault("sigma-shrink", "shrinks Sigma instead of Sigma^2 while booking sigma_j^2 in Delta",
                      {"fd": sigma_shrink_fd, "fd-halving": sigma_shrink_halving}, keep=_two_kinds),
                FD_LOOSE_BOUND),
    ),
    Claim(
        id="ghashami16.fd-merge",
        source="not in Ghashami et al. 2016, which never merges sketches: the suite's addition, for SKPCA's chunked "
               "(dask) fit; FD's mergeability: Liberty 2013 ('sketching sketches'), Ghashami, Liberty, Phillips & "
               "Woodruff 2016",
        statement="Beyond the paper: a sketch merged from the sketches of row chunks (a tree of merges) keeps the "
                  "FD guarantees of ghashami16.fd-bound (Lemma 2.1's bound) for the concatenated matrix",
        prediction="exact inequalities",
        data="the seven matrix kinds of ghashami16.fd-bound, each split into 4 chunks sketched separately and "
             "merged as (1+2)+(3+4); no kernel, no bandwidth",
        metric="worst deviation of each FD guarantee of the merged sketch over both shrink rules and ell in "
               "(2, 5, 10, 20), relative to ||A||_F^2",
        metrics=FD_CHECKS + ("bound_formula", "eps"),
        estimators={"fd": standard_fd, "fd-halving": halving_fd, "bound": fd_bound},
        subject=Subject(**SKETCH_SUBJECT, budget="ell sketch rows, ell in (2, 5, 10, 20)", methods=("merge",),
                        needs="merge(other), the sketch of both streams; sketch_, and shrink_index and delta_ "
                              "where exposed"),
        experiment=merge_experiment,
        grid=PerProfile(ci=_fd_sweep(2, ", 4 chunks"), quick=_fd_sweep(5, ", 4 chunks"),
                        full=_fd_sweep(30, ", 4 chunks")),
        judge=AllOf(AllWithin(FD_TOL, metrics=FD_CHECKS, what="of ||A||_F^2", per_eps=FD_PER_EPS, hint=FD_HINT),
                    FD_FORMULA_JUDGE),
        tolerance=Tolerance(rule=FD_RULE, evidence=_FD_EVIDENCE),
        faults=(Fault("merge-drops-delta", "merge forgets the other sketch's Delta",
                      {"fd": delta_dropping_fd, "fd-halving": delta_dropping_halving}, keep=_two_kinds),
                FD_LOOSE_BOUND),
    ),
]
