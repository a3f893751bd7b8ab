"""ullah18: the checks beyond "every claim gives its verdict at ci and every
planted fault makes its claim fail" (tests/test_claims.py runs those): the
claims at ci that must stay inconclusive, what the planted faults break, and
the helpers the claims are built on."""

import math

import numpy as np
import pytest

import kpca_suite.suites.papers.ullah18 as ul
from kpca_suite.suites.papers.ullah18 import _common as ul_common
from kpca_suite.suites.papers.ullah18 import digits as ul_digits
from kpca_suite.suites.papers.ullah18 import estimation as ul_estimation
from kpca_suite.suites.papers.ullah18 import rates as ul_rates
from kpca_suite.kernels import median_gamma
from kpca_suite.suites.claim import Cell
from kpca_suite.theory.rf_objective import lemma_e1_rotation, lifted_objective, population_grams, procrustes_rotation
from tests.claims import run_claim


def test_the_ullah18_claims_are_declared():
    assert [c.id for c in ul.CLAIMS] == ["ullah18." + s for s in (
        "rate-erm", "rate-oja", "fixed-m-plateau", "rate-erm-centred", "rate-oja-centred",
        "fixed-m-plateau-centred", "estimation", "oja-esl", "objective-vs-subspace", "lemmas", "digits-curves",
        "decay-assumption", "approximation-bound", "covariance-bound", "cost", "pass-cost")]


def test_m_rule_is_sqrt_n_ln_n():
    # Cor. 4.3 with the natural log: n = 8192 gives the pilot's m = 816.
    assert [ul_rates.m_rule(n) for n in (128, 4096, 8192)] == [55, 533, 816]


def test_quarter_power_budget_recovers_n_from_the_theorem_budget():
    """The near-miss control's budget: m = m_rule(n) -> ceil(n^(1/4)) (at least k)."""
    for j in range(5, 20):
        n = 2**j
        assert ul_rates.quarter_power_budget(ul_rates.m_rule(n)) == max(ul_common.K, math.ceil(n ** 0.25)), n


def test_estimation_judges_eps_e_at_the_first_order_rate():
    """|eps_e| is judged against n^(-1/2) (its first-order term in Phi_hat - Phi_k does not
    vanish, L != L_m), the ESL quantity against the 1/n of the proof; the rule names both."""
    estimation = next(c for c in ul.CLAIMS if c.id == "ullah18.estimation")
    rules = {getattr(r, "name", None) or r.metric: r for r in estimation.judge.rules}
    assert rules["eps_e_abs_slope"].band == (-np.inf, ul_estimation.EPS_E_SLOPE_MAX) and ul_estimation.EPS_E_SLOPE_MAX > -0.5
    assert rules["esl_slope"].band == (-1.3, -0.7)
    assert rules["esl_level"].tol == ul_estimation.ESL_LEVEL_MAX and rules["esl_level"].x is None  # pooled over cells
    # Thm 4.2(b): the distance to a projection at least as fast as sqrt(q/n), one-sided
    assert rules["gram_dev_slope"].band == (-np.inf, ul_estimation.GRAM_DEV_SLOPE_MAX)
    assert ul_estimation.GRAM_DEV_SLOPE_MAX > -0.5


def test_a_loosely_orthonormal_basis_fails_through_the_distance_to_a_projection():
    """RF-ERM's own span in a basis orthonormal only to 2e-3: the ESL quantity keeps its rate and
    level, but the lifted output stays off the rank-k projections (Thm 4.2(b))."""
    v = run_claim("ullah18.estimation", fault="loose-basis")
    assert v.status == "fails", v.summary
    assert v.measured["gram_dev_slope_ci_low"] > ul_estimation.GRAM_DEV_SLOPE_MAX, v.summary
    assert v.measured["mean_esl_level"] <= ul_estimation.ESL_LEVEL_MAX, v.summary


def test_lemma_e1_rotation_fails_through_the_rotation_check():
    v = run_claim("ullah18.lemmas", fault="lemma-e1-rotation")
    assert v.status == "fails" and "rotation_err" in v.summary, v.summary


def test_frozen_oja_fails_the_quality_part_of_digits_curves():
    # The memory fault leaves the curves intact; this one leaves the memory intact.
    v = run_claim("ullah18.digits-curves", fault="frozen-oja")
    assert v.status == "fails", v.summary
    assert v.measured["rf-oja_k5"] > ul_digits.DIGITS_CLOSE >= v.measured["rf-erm_k5"]
    assert "state constant" in v.summary
    # ... and it never reaches the level, so its counted work to reach it is infinite
    assert math.isinf(v.measured["oja_over_rferm_to_level_k5"])


def test_feature_storing_oja_fails_the_memory_part_of_digits_curves():
    v = run_claim("ullah18.digits-curves", fault="feature-storing-oja")
    assert v.status == "fails", v.summary
    assert v.measured["rf-oja_k5"] <= ul_digits.DIGITS_CLOSE and "state grows with n" in v.summary


def test_the_pass_cost_counts_the_rows_the_map_transforms():
    # RF-Oja maps each row once; the refitting fault maps the rows seen again on every chunk
    # (256, 512, 768, 1024 rows for n = 1024); RF-ERM maps each row once in its one fit.
    from kpca_suite.suites.papers.ullah18 import cost as ul_cost

    n = 1024
    for method, factory, rows in (("rf-oja", ul_rates.rf_oja, n), ("rf-oja", ul_cost.rf_oja_refitting, 2560),
                                  ("rf-erm", ul_common.rf_erm, n)):
        cell = Cell.make("ullah18.pass-cost", method, n, 0, m=ul_rates.m_rule(n))
        out = ul_cost.pass_cost_experiment(cell, {method: factory})
        assert out["rows_mapped"] == rows, (factory, out)
    m, k, d = ul_rates.m_rule(n), ul_common.K, 1
    # one QR at the start, then ceil(256 / qr_every) per chunk of 256 rows
    assert ul_cost.oja_ops(n, d, m, k, 8, [256] * 4) == n * (d * m + m + 2 * m * k) + 2 * m * k * k * (1 + 4 * 32)


def test_the_estimation_experiment_evaluates_the_estimators_own_feature_map():
    # A planted fault that changes m (or the frequencies) is evaluated on the map it drew: its
    # eps_a is that of its own 32 frequencies, not of the m_rule(256) = 89 the cell grants.
    cell = Cell.make("ullah18.estimation", "rf-erm", 256, 0, m=ul_rates.m_rule(256))
    fixed = ul_estimation.estimation_experiment(cell, {"rf-erm": ul_rates.rf_erm_fixed_m})
    ours = ul_estimation.estimation_experiment(cell, {"rf-erm": ul_common.rf_erm})
    model, est = ul_common._fitted(cell, ul_rates.rf_erm_fixed_m, "kpca-projection",
                                   ul_common._seed_int(cell, "features"))
    assert est.feature_map_.n_frequencies == ul_rates.PLATEAU_M
    pop, Phi = ul_common._population(model, est.feature_map_)
    own = model.optimum(ul_common.K) - lifted_objective(*population_grams(Phi, pop.C, pop.M))
    assert fixed["eps_a"] == pytest.approx(own, rel=1e-12)
    assert fixed["eps_a"] > ours["eps_a"] > 0
    assert ours["excess_proj"] >= 0 and fixed["excess_proj"] >= 0


@pytest.mark.parametrize("method, role", [("rf-erm", "kpca-projection"), ("rf-oja", "streaming-kpca")])
def test_the_rate_experiment_through_transform_equals_the_evaluation_on_the_internals(method, role):
    # J_proj by quadrature of transform (role only) = J_proj of (feature_map_, components_).
    cell = Cell.make("ullah18.rate-erm", method, 512, 1, m=ul_rates.m_rule(512))
    factories = {"rf-erm": ul_common.rf_erm, "rf-oja": ul_rates.rf_oja}
    probed = ul_rates.rate_experiment(cell, factories)["excess_proj"]
    model, est = ul_common._fitted(cell, factories[method], role, ul_common._seed_int(cell, "features"))
    pop, Phi = ul_common._population(model, est.feature_map_)
    internal = ul_estimation._evaluate(model, pop, Phi, est.components_)["excess_proj"]
    assert probed > 0
    assert abs(probed - internal) <= 1e-9 * model.optimum(ul_common.K)


def test_a_factory_that_hands_random_state_to_scikit_learn_runs():
    """The feature seed is an int below 2^32, as every role factory's is: a maintainer's
    RBFSampler + PCA, which passes it on, fits (scikit-learn refuses 2^32 and above)."""
    from sklearn.decomposition import PCA
    from sklearn.kernel_approximation import RBFSampler
    from sklearn.pipeline import make_pipeline

    def sk_rf_pca(n_components, budget, kernel, random_state):
        return make_pipeline(RBFSampler(gamma=kernel.gamma, n_components=budget, random_state=random_state),
                             PCA(n_components, svd_solver="full"))

    for seed in range(5):
        cell = Cell.make("ullah18.rate-erm-centred", "rf-erm", 128, seed, m=ul_rates.m_rule(128))
        assert 0 <= ul_common._seed_int(cell, "features") < 2**32
    assert ul_rates.rate_experiment(cell, {"rf-erm": sk_rf_pca})["excess_proj"] > 0


@pytest.mark.parametrize("factory, m", [(ul_rates.rf_erm_fixed_m, ul_rates.PLATEAU_M), (ul_rates.rf_erm_growing_m, ul_rates.m_rule(300))])
def test_the_m_faults_ignore_the_m_they_are_given(factory, m):
    X = np.random.default_rng(0).standard_normal((300, 1))
    est = factory(ul_common.K, 100, ul_common.KERNEL, 0).fit(X)
    assert est.feature_map_.omega.shape == (1, m)


def test_the_def_3_6_rotation_is_orthogonal_and_lemma_e1s_is_not():
    rng = np.random.default_rng(1)
    U, V = (np.linalg.qr(rng.standard_normal((20, 4)))[0] for _ in range(2))
    R, R1 = procrustes_rotation(U, V), lemma_e1_rotation(U, V)
    assert np.allclose(R.T @ R, np.eye(4))
    assert not np.allclose(R1.T @ R1, np.eye(4))


def test_digits_gamma_is_the_median_heuristic_or_the_papers_sigma():
    X = np.random.default_rng(2).random((50, 64))
    assert ul_digits.digits_gamma(X) == median_gamma(X, scale=1.0)
    assert ul_digits.digits_gamma(np.full((3, 784), 255.0)) == pytest.approx(0.01 / 255.0**2)
    assert ul_digits.digits_gamma(np.full((3, 784), 0.5)) == pytest.approx(0.01)
