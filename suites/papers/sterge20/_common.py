"""What several sterge20 families share: the Fourier population model's helpers (the exact ridge
leverage scores' total among them), the Nyström estimators read through the kpca-projection role,
and the planted faults used by more than one claim."""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels import Kernel
from kpca_suite.kernels.leverage import inverse_cholesky_factor
from kpca_suite.methods import NystromKPCA, RankCappedNystromKPCA, UniformLandmarks
from kpca_suite.theory import FourierModel, smaller_gram

from ...claim import Cell, PerProfile
from ...probes import fitted_subspace
from ...roles import build

LINEAR = Kernel("linear")


ALPHA = 2.0  # polynomial decay lambda_i = i^-alpha (Corollary 4.2)


TAU = 0.25  # exponential decay lambda_i = e^{-tau i} (Corollary 4.3)


SEEDS = PerProfile(ci=5, quick=10, full=20)  # at least 5 seeds for every rate fit


# quick's largest poly cell (l = 10, R_C,l = 0.095) is 1.0% above the infinite model's at J = 1024, 0.5% at 2048
POLY_J = PerProfile(ci=1024, quick=1024, full=4096)


def _model(p) -> FourierModel:
    """The cell's Fourier model; its zero-mean twin when the cell says ``zero_mean``."""
    return FourierModel(p["decay"], p["rate"], p["J"], zero_mean=p.get("zero_mean", False))


def _sample_features(cell: Cell):
    """The cell's model, its sample x (n,) and the feature rows Phi = Phi(x) (n x J)."""
    model = _model(cell.p)
    x = model.sample(cell.n, cell.rng())
    return model, x, model.features(x)


def reference_gram(model, x, Phi):
    """The Gram of the sample's features on their smaller side, for the EKPCA error and the
    exact scores: Phi^T Phi from x's trigonometric moments when n >= J
    (:meth:`theory.FourierModel.sample_gram`, O(n J + J^2)), else Phi Phi^T."""
    return model.sample_gram(x) if len(x) >= model.J else smaller_gram(Phi)


def centring_term(cell: Cell, model, Phi) -> dict:
    """On the zero-mean twin (:mod:`.centred`), ``centring`` = ||mu_n||^2 / R_{C,l} of the
    sample (mu_n the mean feature row, l the cell's); nothing on the original model. The
    experiments add it from the sample they fit on, so a twin's cell samples once."""
    if not model.zero_mean:
        return {}
    mu = Phi.mean(axis=0)
    return {"centring": float(mu @ mu) / model.tail(cell.p["ell"])}


def _population_R(cell: Cell, model, Phi, ell, m, factory):
    """Population error of a fitted rank-l projection, read through the kpca-projection
    role only: Q = an orthonormal basis of the subspace transform projects on
    (:func:`suites.probes.fitted_subspace`), R = sum_i lambda_i (1 - ||Q_i||^2).
    Returns R and the dimension of the fitted subspace."""
    est = build(factory, "kpca-projection", cell, n_components=ell, budget=m, kernel=LINEAR,
                random_state=cell.seed_int("landmarks")).fit(Phi)
    Q = fitted_subspace(est, Phi.shape[1], cell.rng("probe"))
    return model.reconstruction_error(Q), Q.shape[1]


def uniform_nystrom(n_components, budget, kernel, random_state):
    """Plain Nyström KPCA (Sec. 3.2): ``budget`` landmarks uniform without replacement.
    If K_mm of the drawn landmarks has numerical rank r < l (possible for m = l), the
    best Nyström projector has rank r, and that is what it fits."""
    return RankCappedNystromKPCA(n_components, kernel, landmarks=UniformLandmarks(budget), random_state=random_state)


# Relative to tr K / n. Measured (n = 300, seeds 0-29): worst order -9.9e-11, gap 7.8e-16,
# mono_l 0, mono_m -3.1e-10; the unregularised K_mm^{-1/2} fault gives order up to 62 and gap up to 46.
ORDER_ATOL = 1e-9


class UnwhitenedNystrom(NystromKPCA):
    """Skips K_mm^{-1/2}: eigenvectors of K_mn K_nm / n used as coefficients, so
    A^T K_mm A != I (not orthonormal in the RKHS) and the eigenvalues overstate
    the captured variance."""

    def _eig(self, Gn, Kmm, landmarks):
        self.effective_rank_ = Kmm.shape[0]
        mu, U = np.linalg.eigh(Gn)
        return mu[::-1], U[:, ::-1]


RATE_DATA = ("Fourier explicit-feature model on U[0,1): lambda_i = {spec}, J features, linear kernel on the "
             "feature rows (no bandwidth); exact population R(P) = sum_i lambda_i (1 - ||Q_i||^2)")


def exact_score_mass(gram, n: int, s: float) -> float:
    """The total of the exact ridge leverage scores of the linear kernel on n feature rows Phi
    (n x J), sum_i l_i(s) = tr(K (K + n s I)^{-1}) with K = Phi Phi^T. K's nonzero eigenvalues
    mu_i are those of Phi^T Phi, so ``gram`` G is the smaller of the two (shared with the EKPCA
    error), r x r, and

    .. math::  \\sum_i \\frac{\\mu_i}{\\mu_i + n s} = r - n s\\, \\mathrm{tr}\\,(G + n s I)^{-1}
               = r - n s\\, \\|L^{-1}\\|_F^2, \\qquad G + n s I = L L^T,

    a Cholesky factor and its triangular inverse, (2/3) r^3 flops, where the eigenvalues cost
    an eigvalsh (0.20 s against 0.57 s on a poly cell of n = 10^4, J = 2048, one
    thread) and the per-point scores also the eigenvectors and an n x J product. Every term of
    the trace is positive and G + n s I has condition number <= 1 + ||G|| / (n s); the
    subtraction loses log10(r / sum) digits: against the eigvalsh total, 2e-15 (relative) on a
    sample of that cell's size and 2.6e-13 at n = 2401; test_sterge20 checks it against the
    per-point scores."""
    Linv = inverse_cholesky_factor(gram, n * s)
    return float(Linv.shape[0] - n * s * np.einsum("ij,ij->", Linv, Linv))
