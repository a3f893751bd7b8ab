"""The mutants: realistic bugs, one text replacement each, with the unit tests and the
claims that should notice them. :mod:`tests.mutations.run` applies each to a scratch copy.

Each ``old`` snippet occurs exactly once in its file (:func:`check_snippets`); ``path``
is relative to the repository root (``kernels/...``, ``methods/...``, ``theory/...``,
``suites/...``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Mutant:
    name: str          # short kebab-case id
    path: str          # repository-relative file, e.g. "kernels/frequent_directions.py"
    old: str           # an exact snippet that occurs exactly once in that file
    new: str           # its replacement (the bug)
    why: str           # one sentence: the realistic mistake, in plain words
    tests: tuple       # the unit-test files (tests/test_*.py) that exercise this code
    claims: tuple      # the claim ids whose experiments run this code

    @property
    def area(self) -> str:
        return self.path.split("/", 1)[0]


MUTANTS = (
    # ------------------------------------------------------------------ kernels/
    Mutant(
        "rff-omega-scale", "kernels/random_features.py",
        "omega = rng.normal(0.0, np.sqrt(2.0 * gamma), size=(d, m))",
        "omega = rng.normal(0.0, np.sqrt(gamma), size=(d, m))",
        "Frequencies drawn from N(0, gamma I) instead of N(0, 2 gamma I): the paper's sigma^-2 convention "
        "read as scikit-learn's gamma, so the features estimate exp(-gamma ||x - y||^2 / 2).",
        ("tests/test_random_features.py",),
        ("ghashami16.rff-unbiased", "ghashami16.rff-rate"),
    ),
    Mutant(
        "rff-cos-scale", "kernels/random_features.py",
        "return _cos_features(P, self.phase, np.sqrt(2.0 / m))",
        "return _cos_features(P, self.phase, np.sqrt(1.0 / m))",
        "The sqrt 2 of the Rahimi-Recht map sqrt(2/m) cos(omega^T x + b) dropped in the jitted path "
        "(the libm fallback keeps it), so Z Z^T estimates K / 2.",
        ("tests/test_random_features.py",),
        ("ghashami16.rff-unbiased", "ghashami16.rff-rate"),
    ),
    Mutant(
        "gaussian-distance-factor", "kernels/_jit.py",
        "            d2 = xi + y_sq[j] - (G[i, j] + G[i, j])\n"
        "            G[i, j] = -gamma * max(d2, zero)",
        "            d2 = xi + y_sq[j] - G[i, j]\n"
        "            G[i, j] = -gamma * max(d2, zero)",
        "The factor 2 of -2 x^T y forgotten in the expansion of ||x - y||^2 for the Gaussian block, so every "
        "Gaussian kernel matrix is wrong (it is still symmetric with a unit diagonal-ish look).",
        ("tests/test_kernels.py",),
        ("ghashami16.rff-unbiased", "hallgren21.cor61"),
    ),
    Mutant(
        "fd-eigh-ascending", "kernels/frequent_directions.py",
        "    lam, Y = np.linalg.eigh(sketch_gram(B, n_orthogonal))  # ascending\n"
        "    lam, Y = lam[::-1], Y[:, ::-1]\n",
        "    lam, Y = np.linalg.eigh(sketch_gram(B, n_orthogonal))\n",
        "Forgot that eigh returns eigenvalues in ascending order, so the shrink keeps the smallest "
        "directions of the sketch and shrinks by a small sigma^2.",
        ("tests/test_frequent_directions.py",),
        ("ghashami16.fd-bound", "ghashami16.fd-merge"),
    ),
    Mutant(
        "fd-rank-one-ascending", "kernels/frequent_directions.py",
        "    lam, V = lam[::-1], np.ascontiguousarray(U[:, ::-1].T)  # V's rows: the u_i, descending\n",
        "    lam, V = lam, np.ascontiguousarray(U.T)\n",
        "The standard shrink's rank-one route forgets that its eigenvalues come in ascending order, so "
        "every shrink after the first keeps the smallest directions.",
        ("tests/test_frequent_directions.py",),
        ("ghashami16.fd-bound", "ghashami16.fd-merge"),
    ),
    Mutant(
        "rank-one-no-loewner", "kernels/rank_one_eigh.py",
        "                w[i] *= delta[i, J] / (d[i] - d[J])\n",
        "                w[i] *= 1.0\n",
        "The eigenvectors built from the original z instead of Loewner's z-hat (w_i = d_i - lambda_i "
        "alone), which loses their orthogonality where roots lie close to poles.",
        ("tests/test_rank_one_eigh.py",),
        ("ghashami16.fd-bound",),
    ),
    Mutant(
        "fd-delta-overwritten", "kernels/frequent_directions.py",
        "        self.delta_ += delta\n",
        "        self.delta_ = delta\n",
        "The certificate Delta keeps only the last shrink's delta (= instead of +=), so it no longer bounds "
        "||A^T A - B^T B||_2.",
        ("tests/test_frequent_directions.py",),
        ("ghashami16.fd-bound", "ghashami16.fd-merge"),
    ),
    Mutant(
        "fd-orthogonal-rows-off-by-one", "kernels/frequent_directions.py",
        "        self.n_filled_ = self.n_orthogonal_ = j - 1\n",
        "        self.n_filled_, self.n_orthogonal_ = j - 1, j\n",
        "After a shrink the first new row is counted among the orthogonal ones, so the next Gram drops "
        "its products with the rows before it.",
        ("tests/test_frequent_directions.py",),
        ("ghashami16.fd-bound", "ghashami16.fd-merge"),
    ),
    Mutant(
        "fd-merge-drops-delta", "kernels/frequent_directions.py",
        "        out.delta_ += other.delta_\n"
        "        out.n_shrinks_ += other.n_shrinks_\n",
        "        out.n_shrinks_ += other.n_shrinks_\n",
        "merge() forgets to add the other sketch's Delta, so a merged sketch certifies too small an error.",
        ("tests/test_frequent_directions.py",),
        ("ghashami16.fd-merge",),
    ),
    Mutant(
        "oja-block-missing-term", "kernels/oja.py",
        "s3 = e3 * (u[3, j] + g30 * s0 + g31 * s1 + g32 * s2)",
        "s3 = e3 * (u[3, j] + g30 * s0 + g31 * s1)",
        "In the four-row blocked Oja update the correction of the fourth row for the third row's step "
        "(g32 s2) is left out, so the blocked update is no longer four sequential steps.",
        ("tests/test_rf_oja.py",),
        ("ullah18.rate-oja",),
    ),
    Mutant(
        "cholesky-pivot-no-sqrt", "kernels/cholesky.py",
        "    pivot = np.sqrt(residual[i])\n",
        "    pivot = residual[i]\n",
        "The new column of the incomplete Cholesky is divided by the pivot's residual instead of its square "
        "root (exact whenever the residual is 1, as at the first step of a unit-diagonal kernel).",
        ("tests/test_krr.py", "tests/test_bach13.py"),
        ("bach13.dof-identities", "bach13.pivoting", "bach13.fig1"),
    ),
    Mutant(
        "cholesky-batch-no-schur", "kernels/cholesky.py",
        "            C -= G @ G[batch].T\n",
        "            pass\n",
        "The kernel columns of a later batch of candidates are not projected off the columns factored "
        "before it, so once a batch skipped a candidate the next batch's columns are wrong.",
        ("tests/test_krr.py",),
        ("bach13.dof-identities",),
    ),
    Mutant(
        "leverage-pilot-ridge", "kernels/leverage.py",
        "    C[np.diag_indices_from(C)] += s * M\n",
        "    C[np.diag_indices_from(C)] += s * n\n",
        "The pilot system of the approximate ridge leverage scores is regularised with n s (the exact scores' "
        "regulariser) instead of s M, which flattens the scores.",
        ("tests/test_kernels.py", "tests/test_landmarks.py"),
        ("sterge20.als",),
    ),
    Mutant(
        "dask-tree-drops-chunk", "kernels/dask_arrays.py",
        "*parts[i:i + split_every]) for i in range(0, len(parts), split_every)]",
        "*parts[i:i + split_every - 1]) for i in range(0, len(parts), split_every)]",
        "Off-by-one in the tree reduction's grouping: every split_every-th partial result is dropped when "
        "there are more chunks than split_every - 1.",
        ("tests/test_dask_arrays.py",),
        ("sterge20.identities",),
    ),
    # ------------------------------------------------------------------ methods/
    Mutant(
        "centred-trace-uncentred", "methods/base.py",
        "            self._trace_ = centred_trace(X, kernel, block_size)",
        "            self._trace_ = float(kernel.diag(X, validate=False).mean())",
        "The centred trace summed on first read forgets the (1/n^2) 1^T K 1 term, so trace_ (and the in-sample "
        "error of every centred Nyström-type fit) is (1/n) tr K instead of (1/n) tr(H K H).",
        ("tests/test_methods.py", "tests/test_hallgren21.py"),
        ("hallgren21.identities",),
    ),
    Mutant(
        "nystrom-whitening-inverse", "methods/nystrom.py",
        "        return V / np.sqrt(s)\n",
        "        return V / s\n",
        "The eigh whitening uses K_mm^{-1} instead of K_mm^{-1/2} (square root forgotten), so W^T K_mm W is "
        "not the identity on an ill-conditioned K_mm.",
        ("tests/test_methods.py",),
        ("sterge20.identities", "sterge20.insample-order", "hallgren21.identities"),
    ),
    Mutant(
        "nystrom-eigenvalues-not-over-n", "methods/nystrom.py",
        "        G /= n  # in place: one m x m copy less at the fit's peak memory (perf.nystrom-kpca)\n",
        "",
        "The Nyström eigenproblem is solved on K_mn K_nm instead of K_mn K_nm / n, so the eigenvalues "
        "(and the in-sample error) are n times too large.",
        ("tests/test_methods.py",),
        ("sterge20.identities", "sterge20.insample-order", "sterge20.cor42-poly"),
    ),
    Mutant(
        "nystrom-centring-factor", "methods/nystrom.py",
        "            G -= np.outer(colsum, colsum) / n\n",
        "            G -= np.outer(colsum, colsum) / n**2\n",
        "Centring subtracts c c^T with c = s / n instead of n c c^T = s s^T / n (the mean's outer product "
        "without its weight n), so the Nyström fit is barely centred.",
        ("tests/test_methods.py", "tests/test_hallgren21.py"),
        ("hallgren21.identities", "hallgren21.table3"),
    ),
    Mutant(
        "nystrom-whitened-centring-factor", "methods/nystrom.py",
        "            Mn -= np.outer(t, t) / n**2\n",
        "            Mn -= np.outer(t, t) / n**3\n",
        "The same centring slip on the whitened route (an ill-conditioned K_mm, whitened before the pass): "
        "(W^T s)(W^T s)^T / n^3 subtracted from M / n instead of / n^2.",
        ("tests/test_methods.py",),
        ("sterge20.cor43-gaussian-centred",),
    ),
    Mutant(
        "gram-pass-drops-colsum", "kernels/gram.py",
        "            G += F.T @ F\n            colsum += Kb.sum(axis=0, dtype=np.float64)\n",
        "            G += F.T @ F\n            colsum += Kb.sum(axis=0, dtype=np.float64) * (sl.stop < X.shape[0])\n",
        "The blocked Gram pass drops the last block's column sums, so a centred fit subtracts a wrong mean.",
        ("tests/test_methods.py",),
        ("sterge20.cor43-gaussian-centred",),
    ),
    Mutant(
        "float32-rcond-of-float64", "methods/nystrom.py",
        "self.rcond_ = max(self.rcond, FLOAT32_RCOND) if X.dtype == np.float32 and not chunked else self.rcond",
        "self.rcond_ = self.rcond",
        "float32 rows are whitened with the float64 cut-off rcond = 1e-8, which keeps directions of K_mm "
        "whose float32 round-off, amplified by 1 / s, swamps them.",
        ("tests/test_float32.py",),
        (),
    ),
    Mutant(
        "rf-erm-ascending", "methods/rf_erm.py",
        "e, U = lapack_top_eigenpairs(S / seen, self.n_components)",
        "e, U = lapack_top_eigenpairs(-S / seen, self.n_components)",
        "the eigenpairs taken from the wrong end of the spectrum (the top k of -C_m), so RF-ERM returns the "
        "bottom-k eigenvectors of the feature covariance.",
        ("tests/test_rf_erm.py",),
        ("ullah18.rate-erm", "ullah18.estimation", "ghashami16.randomnoisy"),
    ),
    Mutant(
        "rf-oja-schedule-restarts", "methods/rf_oja.py",
        "eta = schedule.steps(seen + start + 1, Z.shape[0])",
        "eta = schedule.steps(start + 1, Z.shape[0])",
        "The step schedule counts samples from the start of each partial_fit call, not of the stream, so a "
        "chunked pass restarts with large steps at every chunk.",
        ("tests/test_rf_oja.py",),
        ("ullah18.rate-oja",),
    ),
    Mutant(
        "rf-oja-no-final-qr", "methods/rf_oja.py",
        "                    start += Z.shape[0]\n"
        "                if pending:\n"
        "                    orthonormalize(Q)\n",
        "                    start += Z.shape[0]\n",
        "The QR pending at the end of a chunk is skipped, so components_ is not orthonormal unless the chunk "
        "length is a multiple of qr_every.",
        ("tests/test_rf_oja.py",),
        ("ullah18.rate-oja",),
    ),
    Mutant(
        "skpca-ignores-shrink", "methods/skpca.py",
        "            fd = FrequentDirections(ell, self.shrink)\n",
        "            fd = FrequentDirections(ell)\n",
        "SKPCA builds its sketch without passing its shrink parameter, so shrink='standard' silently runs "
        "the halving rule.",
        ("tests/test_skpca.py",),
        ("ghashami16.randomnoisy", "ghashami16.digits", "ghashami16.lemma22"),
    ),
    Mutant(
        "centred-cross-no-inverse", "methods/centered_nystrom.py",
        "    a = Knm @ (terms[\"Kinv\"] @ terms[\"c\"])\n",
        "    a = Knm @ terms[\"c\"]\n",
        "Hallgren's a = K_nm K_mm^{-1} c computed without the K_mm^{-1}, so the literal form's K'_nm is "
        "centred with the wrong projection of the mean.",
        ("tests/test_hallgren21.py",),
        ("hallgren21.identities", "hallgren21.prop1-2"),
    ),
    Mutant(
        "krr-ridge-not-times-n", "methods/krr.py",
        "        K[np.diag_indices(n)] += n * self.ridge\n",
        "        K[np.diag_indices(n)] += self.ridge\n",
        "Full KRR solves (K + lambda I) alpha = y, scikit-learn's alpha read as the paper's lambda, so it is "
        "regularised n times too little.",
        ("tests/test_krr.py",),
        ("bach13.dof-identities", "bach13.rank-rule"),
    ),
    Mutant(
        "exact-centring-sign", "methods/exact.py",
        "            K += colmean.mean()\n",
        "            K -= colmean.mean()\n",
        "Double centring H K H subtracts the grand mean instead of adding it back (a sign), so the centred "
        "dense Gram matrix is off by -2 mean(K) everywhere.",
        ("tests/test_methods.py", "tests/test_hallgren21.py"),
        ("hallgren21.cor61-centred", "hallgren21.identities", "hallgren21.table3"),
    ),
    Mutant(
        "exact-eigenvalues-n-minus-1", "methods/exact.py",
        "        self.all_eigenvalues_ = np.clip(e, 0.0, None) / n\n",
        "        self.all_eigenvalues_ = np.clip(e, 0.0, None) / (n - 1)\n",
        "Exact KPCA's eigenvalues divided by n - 1 out of a sample-covariance habit, while the papers' "
        "empirical covariance C_n divides by n.",
        ("tests/test_methods.py",),
        ("sterge20.identities", "sterge20.insample-order", "hallgren21.cor61"),
    ),
    # ------------------------------------------------------------------ theory/
    Mutant(
        "slope-ci-percentiles", "theory/slopes.py",
        "lo, hi = np.percentile(boot, [2.5, 97.5])",
        "lo, hi = np.percentile(boot, [5.0, 95.0])",
        "The two-sided 95% bootstrap interval taken at the one-sided percentiles 5 and 95 (a 90% CI), so "
        "every slope claim judges with too narrow an interval.",
        ("tests/test_theory.py", "tests/test_judging.py"),
        ("selfcheck.recipes", "ghashami16.rff-unbiased"),
    ),
    Mutant(
        "verdict-overlap-holds", "theory/slopes.py",
        "    if b_lo <= c_lo and c_hi <= b_hi:\n",
        "    if b_lo <= c_hi and c_lo <= b_hi:\n",
        "verdict_from_ci says 'holds' when the CI merely overlaps the band instead of lying inside it, so "
        "a straddling CI is never inconclusive.",
        ("tests/test_theory.py",),
        ("selfcheck.recipes",),
    ),
    Mutant(
        "krr-risk-bias-square", "theory/dof.py",
        "    bias = (residual_energy + ((1.0 - s) ** 2 * c).sum(-1)) / n\n",
        "    bias = (residual_energy + ((1.0 - s) * c).sum(-1)) / n\n",
        "The squared shrinkage (n lambda / (e + n lambda))^2 of the KRR bias written without its square.",
        ("tests/test_bach13_theory.py", "tests/test_bach13.py"),
        ("bach13.dof-identities", "bach13.rank-rule", "bach13.fig1"),
    ),
    Mutant(
        "hallgren-d-missing-sqrt", "theory/hallgren_bounds.py",
        "(B * math.sqrt(2 * delta) / math.sqrt(n - m) + B**2 / math.sqrt(m) * C_STAR)",
        "(B * math.sqrt(2 * delta) / (n - m) + B**2 / math.sqrt(m) * C_STAR)",
        "The square root of n - m dropped in the first term of Theorem 3's D, which makes the bound smaller.",
        ("tests/test_hallgren21.py",),
        ("hallgren21.thm3-coverage",),
    ),
    Mutant(
        "fd-bound-tail-off-by-one", "theory/ghashami16.py",
        "    return float(s2[k:].sum() / (j - k))\n",
        "    return float(s2[k + 1:].sum() / (j - k))\n",
        "The tail sum_{i > k} sigma_i^2 read with 1-based i on 0-based arrays, so ||A - A_k||_F^2 misses "
        "sigma_{k+1}^2 and the FD bound is too small.",
        ("tests/test_ghashami16.py", "tests/test_frequent_directions.py"),
        ("ghashami16.fd-bound", "ghashami16.fd-merge"),
    ),
    Mutant(
        "thm21-missing-sqrt", "theory/ghashami16.py",
        "return float(C * np.sqrt(np.log(n / delta) / m) + 4.0 / ell)",
        "return float(C * np.log(n / delta) / m + 4.0 / ell)",
        "The square root of log(n / delta) / m left out of Theorem 2.1's bound, which then shrinks like 1/m.",
        ("tests/test_ghashami16.py", "tests/test_input_guards.py"),
        ("ghashami16.thm21",),
    ),
    # ------------------------------------------------------------------ suites/
    Mutant(
        "cell-key-drops-seed", "suites/cell.py",
        "[self.claim, self.method, self.n, self.seed, [list(kv) for kv in self.params]]",
        "[self.claim, self.method, self.n, [list(kv) for kv in self.params]]",
        "The cell's store key leaves out the seed, so the cells of every seed after the first are taken "
        "for duplicates and never run.",
        ("tests/test_cell_key.py", "tests/test_store.py", "tests/test_runner.py"),
        ("selfcheck.recipes", "ghashami16.fd-bound"),
    ),
    Mutant(
        "ordering-sign", "suites/judging.py",
        "max((b - a) / scale for a, b in zip(vals, vals[1:]))",
        "max((a - b) / scale for a, b in zip(vals, vals[1:]))",
        "OrderingHolds measures the excess the wrong way round, so a declared order holds exactly when it "
        "is reversed.",
        ("tests/test_judging.py",),
        ("selfcheck.recipes",),
    ),
    Mutant(
        "slope-ignores-method", "suites/judging.py",
        "        x, Y = collect(results, self.metric, self.method, key)\n",
        "        x, Y = collect(results, self.metric, key=key)\n",
        "SlopeInBand forgets to pass its method filter to collect(), so a per-method slope is fitted on the "
        "pooled cells of every method.",
        ("tests/test_judging.py",),
        ("ghashami16.space", "landmarks.rate"),
    ),
    Mutant(
        "mean-at-most-best-size", "suites/judging.py",
        "        worst = float(np.nanmax(means))\n",
        "        worst = float(np.nanmin(means))\n",
        "MeanAtMost compares the smallest per-size mean with the tolerance instead of the largest, so a "
        "level exceeded at some sizes still holds.",
        ("tests/test_judging.py",),
        ("selfcheck.recipes", "ullah18.rate-oja", "sterge20.cor42-poly"),
    ),
    Mutant(
        "coverage-binomial-off-by-one", "suites/judging.py",
        "p = float(binom.sf(v - 1, N, 1.0 - self.level)) if v else 1.0",
        "p = float(binom.sf(v, N, 1.0 - self.level)) if v else 1.0",
        "CoverageAtLeast's p-value is P(X > v) instead of P(X >= v) (binom.sf is strict), so it fails "
        "coverage claims on fewer violations than it should.",
        ("tests/test_judging.py",),
        ("selfcheck.recipes", "hallgren21.cor61"),
    ),
    Mutant(
        "checked-inf-passes", "suites/roles.py",
        "bad = int(Z.size - np.count_nonzero(np.isfinite(Z)))",
        "bad = int(np.count_nonzero(np.isnan(Z)))",
        "The role boundary counts NaN entries only, so an estimator output holding inf reaches the metrics "
        "unchecked.",
        ("tests/test_estimator_output.py",),
        ("selfcheck.recipes", "ghashami16.rff-unbiased"),
    ),
)


def by_name(names) -> list:
    """The mutants called ``names`` (all for an empty selection); an unknown name raises KeyError."""
    table = {m.name: m for m in MUTANTS}
    unknown = [n for n in names or () if n not in table]
    if unknown:
        raise KeyError(f"unknown mutant(s) {unknown}; known: {sorted(table)}")
    return [table[n] for n in names] if names else list(MUTANTS)


def check_snippets(root: Path = ROOT) -> None:
    """Assert that the names are unique, every ``old`` occurs exactly once in its file, and
    every ``new`` differs from it."""
    names = [m.name for m in MUTANTS]
    assert len(names) == len(set(names)), "duplicate mutant names"
    for m in MUTANTS:
        text = (root / m.path).read_text(encoding="utf-8")
        count = text.count(m.old)
        assert count == 1, f"{m.name}: its snippet occurs {count} times in {m.path}"
        assert m.new != m.old, f"{m.name}: new equals old"
        for t in m.tests:
            assert (root / t).is_file(), f"{m.name}: no test file {t}"
