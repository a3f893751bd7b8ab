"""sterge20.thm41-bound: the bounds (15) and (17) of Theorem 4.1 against the observed errors."""

from __future__ import annotations

import math

import numpy as np

from kpca_suite.methods import NystromKPCA, UniformLandmarks
from kpca_suite.theory import default_J, ekpca_population_error
from kpca_suite.theory.bounds import ekpca_bound_eq17, nystrom_bound_eq15
from kpca_suite.theory.effective_dimension import effective_dimension, max_effective_dimension

from ...claim import Cell, Claim, Fault, Grid, PerProfile, Tolerance
from ...judging import AllOf, ProbableBound
from ...roles import Subject
from ._common import RATE_DATA, _population_R, _sample_features, uniform_nystrom

BOUND_TAU, BOUND_ELL, BOUND_DELTA = 2.0, 4, 0.05


BOUND_NS = PerProfile(ci=tuple(2**k for k in range(15, 21)), quick=tuple(2**k for k in range(15, 21)),
                      full=tuple(2**k for k in range(15, 23)))


BOUND_SEEDS = PerProfile(ci=5, quick=10, full=50)


def _bound_setting(n, model):
    """The admissible t minimising eq. (15), and the m that Theorem 4.1(i) asks for at it.

    Admissible: (9 kappa / n) log(n / delta) <= t <= lambda_1. m is the literal
    (67 v 5 N_{C,inf}(t)) log(4 kappa / (t delta)), capped at n; N_{C,inf} is the sup over
    x of the model's basis functions weighted by lambda / (lambda + t) (the zero-mean twin
    has no constant among them).
    """
    lam, kappa = model.eigenvalues, model.kappa
    t_lo = 9 * kappa / n * math.log(n / BOUND_DELTA)
    ts = np.geomspace(t_lo, lam[0], 200)
    lam_l = lam[BOUND_ELL - 1]
    b15 = nystrom_bound_eq15(effective_dimension(lam, ts), lam_l, ts)
    b17 = ekpca_bound_eq17(effective_dimension(lam, ts), lam_l, ts)
    t = float(ts[np.argmin(b15)])
    n_inf = float(max_effective_dimension(model.basis_weights, np.array([t]))[0])
    m = min(n, math.ceil(max(67.0, 5 * n_inf) * math.log(4 * kappa / (t * BOUND_DELTA))))
    return t, m, float(b15.min()), float(b17.min())


def bound_experiment(cell: Cell, estimators) -> dict:
    """R of uniform Nyström and of EKPCA against eqs. (15) and (17) at the best admissible t."""
    model, Phi = _sample_features(cell)
    t, m, b15, b17 = _bound_setting(cell.n, model)
    R, _ = _population_R(cell, model, Phi, BOUND_ELL, m, estimators["nystrom"])
    R_e = ekpca_population_error(Phi, BOUND_ELL, model.eigenvalues)
    return {"R_nys": R, "R_ekpca": R_e, "bound15": b15, "bound17": b17, "t": t, "m": float(m),
            "trace": float(model.eigenvalues.sum())}


class RandomSubspaceNystrom(NystromKPCA):
    """A valid projector (orthonormal in the RKHS) onto a random k-dimensional
    subspace of the landmark span instead of the top principal one."""

    def _eig(self, Gn, Kmm, landmarks):
        W = self._whitener(Kmm, landmarks)
        mu, U = np.linalg.eigh(W.T @ Gn @ W)
        rng = np.random.default_rng(0)
        R, _ = np.linalg.qr(rng.normal(size=(U.shape[1], U.shape[1])))
        return mu[::-1], W @ U[:, ::-1] @ R


def random_subspace_nystrom(n_components, budget, kernel, random_state):
    """:class:`RandomSubspaceNystrom` on ``budget`` uniform landmarks."""
    return RandomSubspaceNystrom(n_components, kernel, landmarks=UniformLandmarks(budget), random_state=random_state)


CLAIMS = [
    Claim(
        id="sterge20.thm41-bound",
        source="Sterge et al. 2020, Theorem 4.1(i) eq. (15); eq. (17)",
        statement="R_nys <= N_C(t)(6 λ_l + 42 t) w.p. >= 1-2δ; R_ekpca <= 9 N_C(t)(λ_l + t) w.p. >= 1-δ",
        prediction="violations no more frequent than 2δ (15) and δ (17); slack reported",
        data=RATE_DATA.format(spec=f"e^(-{BOUND_TAU:g} i)") + f"; l = {BOUND_ELL}, δ = {BOUND_DELTA}, the "
             "admissible t minimising eq. (15) and the literal m of Theorem 4.1(i) capped at n",
        metric="population R of uniform Nyström and EKPCA against the bounds (15) and (17)",
        metrics=("R_ekpca", "R_nys", "bound15", "bound17", "m", "t", "trace"),
        estimators={"nystrom": uniform_nystrom},
        experiment=bound_experiment,
        subject=Subject("kpca-projection", "nystrom", centred=False, kernel="linear",
                        budget="the literal m of Theorem 4.1(i), capped at n; rank l = 4"),
        grid=PerProfile(*(Grid(sizes=BOUND_NS[pr], seeds=BOUND_SEEDS[pr],
                               params=dict(decay="exp", rate=BOUND_TAU, J=default_J("exp", BOUND_TAU), ell=BOUND_ELL,
                                           delta=BOUND_DELTA), methods=("uniform",))
                          for pr in ("ci", "quick", "full"))),
        judge=AllOf(ProbableBound("R_nys", "bound15", 2 * BOUND_DELTA, "uniform Nyström: R(P)", "bound (eq. 15)",
                                  ceiling="trace", ylabel="population R(P)", name="eq15"),
                    ProbableBound("R_ekpca", "bound17", BOUND_DELTA, "EKPCA: R(P)", "bound (eq. 17)",
                                  ceiling="trace", ylabel="population R(P)", name="eq17")),
        tolerance=Tolerance("binomial p >= 0.01 for the violation counts; inconclusive if every bound is vacuous",
                            "no measurement recorded"),
        faults=(Fault("random-subspace", "a valid projector onto a random subspace of the landmark span, "
                      "not the principal one", {"nystrom": random_subspace_nystrom}),),
    ),
]
