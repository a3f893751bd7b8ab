"""RF-Oja (methods/rf_oja.py, kernels/oja.py), RF-ERM against exact PCA of Z, the
RF evaluation objective (theory/rf_objective.py) and the lemmas and assumption
quantities of Ullah et al. 2018 (theory/ullah_lemmas.py)."""

import numpy as np
import pytest
from scipy.linalg import eigh

from kpca_suite.kernels import Kernel
from kpca_suite.methods.rf_erm import RFERM
from kpca_suite.methods.rf_oja import ConstantSchedule, InverseSchedule, RFOja, ThreePhaseSchedule
from kpca_suite.theory.mehler import MehlerModel
from kpca_suite.theory.rf_objective import (esl_first_order, esl_quantity, heldout_grams, lemma_e1_rotation, lifted_objective,
                                 population_grams, procrustes_rotation, projected_objective)
from kpca_suite.theory.ullah_lemmas import b_k, c_prime_spectrum, kappa, lemma_c6, lemma_c7, lemma_c8, lemma_c9, lemma_f1

GAMMA = 1.0 / (2 * 0.7**2)
MODEL = MehlerModel(GAMMA, (1.0,), n_nodes=100)


def _X(n, seed=0):
    return MODEL.sample(n, seed)


def test_rf_erm_is_exact_pca_of_the_features():
    X = _X(500)
    est = RFERM(3, 40, kernel=Kernel("gaussian", gamma=GAMMA), random_state=1).fit(X)
    Z = est.features(X)
    e, V = np.linalg.eigh(Z.T @ Z / len(X))
    assert esl_quantity(V[:, ::-1][:, :3], est.components_) < 1e-20
    np.testing.assert_allclose(est.eigenvalues_, e[::-1][:3], rtol=1e-12)


def test_oja_with_a_small_constant_step_converges_to_the_erm_subspace():
    # sin^2 distance to the RF-ERM subspace of the same rows and map: 0.03 after
    # 20000 rows at eta = 0.02 (seeds 0-2: 0.018-0.034); the random start is ~ k (1 - k/m) = 1.9
    X = _X(20000)
    oja = RFOja(2, 30, kernel=Kernel("gaussian", gamma=GAMMA), learning_rate=ConstantSchedule(0.02), random_state=0).fit(X)
    erm = RFERM(2, 30, kernel=Kernel("gaussian", gamma=GAMMA), random_state=0).fit(X)
    np.testing.assert_array_equal(oja.feature_map_.omega, erm.feature_map_.omega)
    Q = oja.components_
    np.testing.assert_allclose(Q.T @ Q, np.eye(2), atol=1e-12)
    assert esl_quantity(erm.components_, Q) < 0.1
    Q0 = RFOja(2, 30, kernel=Kernel("gaussian", gamma=GAMMA), random_state=0).partial_fit(X[:1]).components_
    assert esl_quantity(erm.components_, Q0) > 0.3


def test_span_does_not_depend_on_qr_timing_or_chunking():
    X = _X(3000)
    a = RFOja(3, 50, kernel=Kernel("gaussian", gamma=GAMMA), qr_every=1, random_state=2).fit(X).components_
    b = RFOja(3, 50, kernel=Kernel("gaussian", gamma=GAMMA), qr_every=37, block_size=256, random_state=2).fit(X).components_
    c = RFOja(3, 50, kernel=Kernel("gaussian", gamma=GAMMA), qr_every=5, random_state=2)
    for chunk in np.array_split(X, 7):
        c.partial_fit(chunk)
    np.testing.assert_allclose(a, b, atol=1e-9)
    np.testing.assert_allclose(a, c.components_, atol=1e-9)
    assert c.n_samples_seen_ == 3000 and c.space_ == 50 * 3 + 50 + 50


@pytest.mark.parametrize("q", [4, 16, 64])
def test_span_for_qr_every_q_equals_qr_every_1(q):
    # The update Q + eta z z^T Q commutes with right-multiplication by R^{-1}, so q steps
    # before a QR give the span of q steps with a QR after each (kernels/oja.py); the
    # default InverseSchedule's large early steps (eta_1 = 0.4) are the hard case.
    X = _X(2000, 3)
    kern = Kernel("gaussian", gamma=GAMMA)
    ref = RFOja(4, 60, kernel=kern, qr_every=1, block_size=300, random_state=5).fit(X).components_
    est = RFOja(4, 60, kernel=kern, qr_every=q, block_size=300, random_state=5).fit(X).components_
    np.testing.assert_allclose(est.T @ est, np.eye(4), atol=1e-12)
    # sines of the principal angles: singular values of (I - ref ref^T) est (arccos of the
    # cosines cannot resolve angles below ~1e-8)
    sines = np.linalg.svd(est - ref @ (ref.T @ est), compute_uv=False)
    assert sines.max() < 1e-8
    np.testing.assert_allclose(est, ref, atol=1e-9)  # positive-diagonal QR: the same basis, not only the span
    assert RFOja(4, 60).qr_every == 64


def test_schedules():
    np.testing.assert_allclose(InverseSchedule(10.0, 5.0).steps(1, 3), 10 / np.array([6.0, 7.0, 8.0]))
    s = ThreePhaseSchedule(gap=0.1, Lambda=0.5, k=2)
    assert (s.T0, s.T1) == (100, 50)
    eta = s.steps(1, 400)
    assert np.allclose(eta[:100], 2.5 / (0.1 * 100)) and np.allclose(eta[100:150], 2.5 / (0.1 * 50))
    np.testing.assert_allclose(eta[150:], 2.5 / (0.1 * (np.arange(151, 401) - 100)))  # continuous at T0 + T1


def test_bad_input_is_rejected_and_leaves_the_model_unchanged():
    with pytest.raises(ValueError, match="n_components"):
        RFOja(11, 10, random_state=0).fit(_X(5))
    with pytest.raises(ValueError, match="eta0"):
        InverseSchedule(eta0=0.0)
    with pytest.raises(ValueError, match="eta"):
        ConstantSchedule(-1.0)
    with pytest.raises(ValueError, match="gap"):
        ThreePhaseSchedule(gap=0.0, Lambda=1.0, k=1)
    with pytest.raises(TypeError, match="learning_rate"):
        RFOja(2, 10, learning_rate=0.1).fit(_X(5))
    est = RFOja(2, 10, kernel=Kernel("gaussian", gamma=GAMMA), random_state=0).fit(_X(50))
    Q, seen = est.components_.copy(), est.n_samples_seen_
    bad = _X(20, 1)
    bad[7, 0] = np.nan
    with pytest.raises(ValueError, match="NaN or inf"):
        est.partial_fit(bad)
    with pytest.raises(ValueError, match="d = 1"):
        est.partial_fit(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="overflowed"):
        RFOja(2, 10, kernel=Kernel("gaussian", gamma=GAMMA), learning_rate=ConstantSchedule(1e200), qr_every=50, random_state=0).fit(_X(50))
    np.testing.assert_array_equal(est.components_, Q)
    assert est.n_samples_seen_ == seen
    with pytest.raises(RuntimeError, match="not fitted"):
        RFOja(2, 10).transform(_X(3))


# -- the evaluation objective -----------------------------------------------------------

def test_J_equals_the_top_eigenvalues_of_K_over_N_for_exact_eigenvectors():
    X = _X(300, 4)
    kern = Kernel("gaussian", GAMMA)
    Kn = kern.block(X, X) / 300
    mu, V = eigh(Kn)
    F = V[:, ::-1][:, :4] * np.array([1.0, 3.0, 0.2, 7.0])  # any scaling of the columns
    G, H = heldout_grams(F, X, kern, block_size=64)
    assert np.isclose(lifted_objective(G, H), mu[::-1][:4].sum(), rtol=1e-10)
    # the 1/N^2 normalisation of H matters: 1/N would be 300x too large
    assert np.isclose(projected_objective(G, H), mu[::-1][:4].sum(), rtol=1e-10)
    rng = np.random.default_rng(0)
    for _ in range(20):  # J_proj <= optimum for any subspace; J itself need not be
        G, H = heldout_grams(rng.standard_normal((300, 4)), X, kern)
        assert projected_objective(G, H) <= mu[::-1][:4].sum() + 1e-12


def test_population_objective_is_bounded_by_the_optimum_and_lifted_can_exceed_it():
    est = RFOja(3, 60, kernel=Kernel("gaussian", gamma=GAMMA), random_state=3).fit(_X(300))
    pop = MODEL.feature_population(est.feature_map_.transform)
    e, V = np.linalg.eigh(pop.C)
    Phi = V[:, ::-1][:, :3]
    rng = np.random.default_rng(1)
    over = 0
    for _ in range(30):
        U = np.linalg.qr(Phi + 0.3 * rng.standard_normal(Phi.shape))[0]
        G, H = population_grams(U @ procrustes_rotation(U, Phi), pop.C, pop.M)
        assert projected_objective(G, H) <= MODEL.optimum(3) + 1e-12
        over += lifted_objective(G, H) > MODEL.optimum(3)
    assert over > 0  # J is basis-dependent and can exceed the optimum (so the rates use J_proj)


def test_esl_first_order_constant_against_monte_carlo():
    """n E[ESL] -> q for the top-k eigenvectors of the sample covariance of n rows drawn from
    a discrete law (rows of F with probabilities w), where the expectation is exact: the mean
    of n ESL over 400 samples of n = 4000 rows is within 5 standard errors of q, and a sample
    of n/2 rows (every other row) sits near 2q."""
    rng = np.random.default_rng(7)
    N, m, k, n, reps = 60, 6, 2, 4000, 400
    F = rng.normal(size=(N, m)) * np.array([3.0, 2.0, 1.0, 0.7, 0.5, 0.3])
    w = rng.dirichlet(np.ones(N))
    q = esl_first_order(F, w, k)
    lam, V = np.linalg.eigh(F.T @ (F * w[:, None]))
    Phi = V[:, ::-1][:, :k]

    def scaled_esl(rows):
        e, U = np.linalg.eigh(F[rows].T @ F[rows] / len(rows))
        return len(rows) * esl_quantity(Phi, U[:, ::-1][:, :k])

    full = np.array([scaled_esl(rng.choice(N, n, p=w)) for _ in range(reps)])
    assert abs(full.mean() - q) < 5 * full.std(ddof=1) / np.sqrt(reps), (full.mean(), q)
    half = np.array([2 * scaled_esl(rng.choice(N, n, p=w)[::2]) for _ in range(reps)])  # n ESL with n/2 rows
    assert abs(half.mean() / (2 * q) - 1) < 0.15, (half.mean(), q)
    with pytest.raises(ValueError, match="k must be in"):
        esl_first_order(F, w, m)
    with pytest.raises(ValueError, match="eigengap"):
        esl_first_order(np.vstack([np.eye(3)] * 2), np.full(6, 1 / 6), 1)  # C = I / 3: no gap


def test_procrustes_is_orthogonal_and_optimal_lemma_e1_is_not():
    rng = np.random.default_rng(5)
    A, B = (np.linalg.qr(rng.standard_normal((20, 4)))[0] for _ in range(2))
    R = procrustes_rotation(A, B)
    np.testing.assert_allclose(R.T @ R, np.eye(4), atol=1e-12)
    for _ in range(20):
        Q = np.linalg.qr(rng.standard_normal((4, 4)))[0]
        assert np.linalg.norm(A @ R - B) <= np.linalg.norm(A @ Q - B) + 1e-12
    E1 = lemma_e1_rotation(A, B)
    assert np.linalg.norm(E1.T @ E1 - np.eye(4)) > 0.1


# -- the lemmas and the assumption quantities ------------------------------------------------

def test_lemmas_on_random_matrices():
    rng = np.random.default_rng(7)
    for _ in range(10):
        phi = rng.standard_normal(15)
        lhs, rhs = lemma_c6(phi, phi + 0.3 * rng.standard_normal(15))
        assert lhs <= rhs
        U, V = (np.linalg.qr(rng.standard_normal((15, 3)))[0] for _ in range(2))
        lhs, rhs = lemma_c8(U, V)
        assert lhs <= rhs
        c9 = lemma_c9(U, V)
        assert np.ptp(c9) < 1e-12
        B = rng.standard_normal((15, 15))
        A = B @ B.T
        E = 0.1 * rng.standard_normal((15, 15))
        for norm in ("spectral", "fro"):
            lhs, rhs = lemma_f1(A, A + E + E.T, 5.0, 2.0, norm)
            assert lhs <= rhs
        e, W = np.linalg.eigh(A)
        lhs, rhs, applies = lemma_c7(A, 0, W[:, -1] + 1e-3 * rng.standard_normal(15))
        assert applies and lhs <= rhs
    # C.8 is about the optimal rotation: a rotation that is off by a sign breaks it
    U = np.linalg.qr(rng.standard_normal((15, 3)))[0]
    lhs, rhs = lemma_c8(U, U, rotation=lambda V, W: -procrustes_rotation(V, W))
    assert lhs > rhs


def test_assumption_quantities_on_the_mehler_oracle():
    from kpca_suite.kernels import draw_rff
    fmap = draw_rff(1, 200, "gaussian", GAMMA, "cos", random_state=0)
    g = 200 * MODEL.feature_population(fmap.transform).C  # <z_a, z_b>_rho of single features
    lam_c = c_prime_spectrum(g)
    assert np.all(lam_c >= 0) and np.all(np.diff(lam_c) <= 1e-15)
    # Cor. 4.3's assumption: lambda_j(C') decays geometrically; log-linear fit of
    # the top 8 has R^2 > 0.95 on this model
    j = np.arange(8)
    coef = np.polyfit(j, np.log(lam_c[:8]), 1)
    resid = np.log(lam_c[:8]) - np.polyval(coef, j)
    assert coef[0] < 0 and 1 - resid.var() / np.log(lam_c[:8]).var() > 0.95
    B = b_k(g, MODEL.eigenvalues, 3)
    gap = MODEL.eigenvalues[2] - MODEL.eigenvalues[3]
    assert np.isclose(B, np.sqrt(np.mean(np.diag(g) ** 4)) / gap)
    kap = kappa(B, 3, 200, lam_c)
    assert 0 < kap <= np.sqrt(3 / 200 * lam_c.sum())  # h = 0 is a candidate
    assert kappa(B, 3, 2000, lam_c) < kap
    with pytest.raises(ValueError, match="k"):
        b_k(g, MODEL.eigenvalues[:3], 3)
