"""The inventory of Bach (2013): every numbered result of the paper (theorem, lemma, the
equations that state a bound, rate or identity, Table 1 by groups of lines, each figure or
panel) and the unnumbered statements a reader would want checked (the three contributions of
the introduction, the remarks of Secs. 4.1-4.4 and 5), each with the bach13 claims that check
it and how, the reason it is out of reach, or what a claim would measure (a gap). Where the
paper is wrong, ``says`` gives what it states and ``how`` / ``reason`` / ``gap`` what is right."""

from __future__ import annotations

from kpca_suite.suites.coverage import Stated

RESULTS = (
    # -- the introduction's contributions ---------------------------------------------------
    Stated("Contribution 1", "contribution",
           "In fixed-design least-squares regression, the rank p of uniform column sampling can be chosen linear "
           "in the degrees of freedom (Sec. 4.2), for the problem instance at hand, not only in the worst case.",
           claims=("bach13.rank-rule", "bach13.rank-rule-gaussian"),
           how="qualitative: the practical rule, not the theorem's budget: the mean E_I risk ratio "
               "risk(L)/risk(K) is <= 1.01 at p = ⌈d ln n⌉ and ⌈4d⌉ and > 1.01 at ⌈d/4⌉ at every (kernel, n) "
               "(periodic B_2, B_4, exp(ρ=1) kernels; and, beyond the paper's experiments, a Gaussian kernel), so "
               "p_1%/d stays in [1/4, 4] as n grows (n = 50..3200); Eq. (6) itself is vacuous there (bach13.eq6)"),
    Stated("Contribution 2", "contribution",
           "Simple algorithms (Sec. 4.4) run in sub-quadratic time O(p² n) and, for the square loss, provably "
           "predict as well as the classical algorithms that run in quadratic time or more.",
           claims=("bach13.krr-cost",),
           how="cost: one fit of NystromKRR at p = ⌈2 d(λ*)⌉ (grid design, B_2 kernel, ν_i = i^-4: d ∝ n^(1/4), "
               "λ* and d from the exact FFT), n = 1000..8000 (ci) to 128000 (full), counted, never timed: kernel "
               "entries evaluated (a counting kernel) log-log slope 1.254-1.256 (band [1.1, 1.45]; p n ∝ n^(5/4)), "
               "counted operations (entries + the code's multiply-adds from its shapes, n r²/2 + n r² + n r + r³/3) "
               "1.507-1.513 (band [1.3, 1.8]; p² n ∝ n^(3/2)), peak traced memory 1.10-1.20 (band [0.95, 1.5]): "
               "sub-quadratic, against n² entries for exact KRR (the planted full-gram fault reads 1.974). The "
               "'same performance' half is Contribution 1's"),
    Stated("Contribution 3", "contribution",
           "Sec. 4.3 gives the optimal regularisation parameter and the resulting degrees of freedom as functions "
           "of the eigenvalue decay of K; with fast spectrum decays (e.g. the Gaussian kernel), computational "
           "limits may keep the relevant λ out of reach, leading to underfitting.",
           claims=("bach13.table1", "bach13.dof-decay", "bach13.fig2-rates"),
           how="rate: table1 fits λ*, the risk at λ* and d_ave(λ*) against n on the grid for all six lines of "
               "Table 1, and dof-decay the df against λ (see those entries); the underfitting at machine precision "
               "(Fig. 2, β = 8) is fig2-rates' erratum (its own entry): with the kernel of the series λ* = σ²/n never "
               "nears eps at feasible n"),
    # -- Sec. 2-3: formulations and the approximation -------------------------------------------
    Stated("Eq. (2)", "equation",
           "By the representer theorem the solution of Eq. (1) is f = Σ_i α_i φ(x_i), with α minimising "
           "(1/n) Σ_i ℓ(y_i, (Kα)_i) + (λ/2) α^T K α.",
           reason="quoted: the representer theorem (Wahba 1990; Schölkopf and Smola 2002); for the square loss it "
                  "gives α = (K + nλI)^-1 y, the KRR that every claim runs"),
    Stated("Eq. (3), App. A", "equation",
           "For convex losses the dual max_α -g(-λα) - (λ/2) α^T K α, g the Fenchel conjugate of the empirical "
           "risk, gives f = Σ_i α_i φ(x_i) again (the SVM dual for the hinge loss); for the square or logistic "
           "loss its solution is unique and also solves Eq. (2).",
           reason="quoted: Lagrangian duality for kernel learning as in Rifkin and Lippert (2007), re-derived in "
                  "App. A; the suite runs the square loss only, where the solution is in closed form"),
    Stated("Eq. (4)", "equation",
           "The column-sampling approximation L = K(V,I) K(I,I)^† K(I,V) is the only symmetric matrix with column "
           "space spanned by K(V,I) and L(V,I) = K(V,I) (Bach and Jordan 2005), and the kernel matrix of the "
           "projections of all points onto the (printed: 'affine') subspace spanned by the points of I; an "
           "incomplete Cholesky factor of it costs O(p² n).",
           claims=("bach13.dof-identities",),
           how="identity: L ≼ K, as the projection reading implies (onto the linear span of {φ(x_i), i in I}: "
               "'affine' should read 'linear', the Gram matrix of projections onto the affine hull is not L), within "
               "1e-8 of ||K|| for p = 15 uniform columns and 1e-3 for n/2 columns in random order; the fitted Nyström "
               "smoother matches L's exact spectral risk within eps cond(W). L(V,I) = K(V,I) and the uniqueness are "
               "not asserted"),
    # -- Sec. 4.1 ---------------------------------------------------------------------------------
    Stated("Sec. 4.1 (bias/variance)", "equation",
           "(1/n) E_ε ||ẑ - z||² = bias(K) + variance(K), bias(K) = nλ² z^T (K + nλI)^-2 z, variance(K) = "
           "(1/n) tr C K² (K + nλI)^-2, for zero-mean noise of any finite covariance C (not necessarily "
           "independent or identically distributed).",
           claims=("bach13.dof-identities",),
           how="identity: the exact bias + variance of full and Nyström KRR agree with a Monte Carlo over "
               "heteroscedastic noise (sd ~ U[0.5, 1.5]) within 4 standard errors, and with the fitted estimators' "
               "smoothers within 1e-8 (KRR) and eps cond(W) (Nyström)"),
    Stated("Sec. 4.1 (monotonicity)", "section",
           "The bias term is a matrix-decreasing function of K/λ (so increasing in λ) and the variance term a "
           "matrix-increasing function of K/λ and of the noise covariance C.",
           claims=("bach13.dof-identities",),
           how="erratum: only the scalar readings hold: the bias increases with λ for a fixed K, and "
               "variance(L) <= variance(K) for C = σ² I (Weyl), which the claim asserts per instance (relative "
               "violation <= 1e-8). As functions of the matrix K neither is monotone (t -> t^-2 and "
               "t -> (t/(t + c))² are not operator monotone): bias(L) < bias(K) happens (PAPER.errata), and with a "
               "rank-one noise covariance, variance(L) > variance(K) in 64 of 3000 random 8 x 8 instances (up to "
               "32%), so App. B's variance step needs C = σ² I too; neither is asserted"),
    Stated("Eq. (5)", "equation",
           "The maximal marginal degrees of freedom d = n ||diag(K (K + nλI)^-1)||_∞ bound the usual ones: "
           "tr K² (K + nλI)^-2 <= tr K (K + nλI)^-1 = ||diag(K (K + nλI)^-1)||_1 <= d; d can be much larger when "
           "that diagonal is far from uniform (outliers).",
           claims=("bach13.dof-identities",),
           how="bound: d_ave <= df1 <= d in every cell (relative violation <= 1e-8), with two relations of ours: "
               "d <= n R²/(R² + nλ), and d == df1 on the circulant grid; the 'much larger with outliers' remark is "
               "not measured"),
    Stated("Sec. 4.1 (λ* and df against n)", "section",
           "The best λ decreases with n and is 'typically smaller than a constant times 1/√n'; the degrees of "
           "freedom grow slowly with n.",
           claims=("bach13.table1",),
           how="erratum: table1 measures λ* ∝ n^(-2/5) on Table 1's line 1 (β = 1, δ = 4; slope within ± 0.045), "
               "eventually above any c/√n: the statement fails on lines 1 and 3, where λ* ∝ n^(-2β/(4β+1)) and "
               "2β/(4β+1) < 1/2 (PAPER.errata); d_ave(λ*) grows as n^(1/5), n^(1/4) and log n (lines 1, 2, 5-6), as "
               "stated"),
    # -- Sec. 4.2: Theorem 4.1 and its remarks ------------------------------------------------------
    Stated("Thm. 4.1, Eq. (7)", "theorem",
           "For deterministic z, PSD K, λ > 0, zero-mean noise of any finite covariance, I uniform of size p "
           "without replacement and δ in (0, 1): if p >= (32d/δ + 2) log(nR²/(δλ)) (Eq. (6)), then "
           "(1/n) E_I E_ε ||ẑ_L - z||² <= (1 + 4δ) (1/n) E_ε ||ẑ_K - z||²; δ = 1/4 gives a factor 2.",
           reason="vacuous: at λ* on the grid (B_2 kernel, ν_i = i^-4, δ = 1/4) Eq. (6) asks for p >= n at every "
                  "n up to 2^17 = 131072 (p_6/n = 15.3 at n = 4096, 1.56 at 2^17) and first drops below n at "
                  "n = 2^18 = 262144 (p_6/n = 0.98; bach13.eq6 reports it), so wherever exact KRR runs the "
                  "guarantee is met by L = K; its practical content, p ∝ d, is Contribution 1's (bach13.rank-rule). "
                  "The proof's (1 + R²/λ) in Eq. (11) should be (1 + R²/λ)², which doubles the log"),
    Stated("Eq. (6)", "equation",
           "The sufficient rank p >= (32d/δ + 2) log(nR²/(δλ)), R² = max_i K_ii: linear in the maximal marginal "
           "df d up to a log factor, and only logarithmic in 1/λ (no 1/λ or 1/λ² factors as in earlier bounds).",
           claims=("bach13.eq6",),
           how="bound: the printed p_6 evaluated at λ* on the grid (B_2 kernel, ν_i = i^-4, σ² = 1, δ = 1/4, d = df1 "
               "there, R² = π²/3) and checked against a direct evaluation to 1e-12: p_6 >= n at every n <= 4096 "
               "(p_6/n = 15.3 at n = 4096), first < n at n = 2^18 (ours: the paper does not say that its budget "
               "exceeds n at practical sizes)"),
    Stated("Eq. (13)", "equation",
           "High probability over I: P_I((1/n) E_ε ||ẑ_L - z||² >= (1 - δ/2)^-2 (1/n) E_ε ||ẑ_K - z||²) "
           "<= n exp(-p / (32d/δ + 2)).",
           reason="vacuous: the bound is below 1 only for p > (32d/δ + 2) ln n; with δ = 1/4 at λ* on the grid "
                  "problem of bach13.eq6 that exceeds n up to n = 2^16 and first drops below n at n = 2^17 = 131072 "
                  "(0.89 n), beyond exact KRR"),
    Stated("Sec. 4.2 (lower bounds)", "section",
           "Necessary lower bounds on p are not proven, but since d is of the order of the minimax rate in some "
           "settings, d is expected to be necessary too, up to constants and logarithms.",
           claims=("bach13.rank-rule", "bach13.rank-rule-gaussian"),
           how="qualitative: at p = ⌈d/4⌉ the mean risk ratio exceeds 1.01 at every (kernel, n) (at least 1.99 for "
               "the periodic kernels and 1.08 for the Gaussian one at ci): far fewer than d columns do lose risk, "
               "as the paper expects without proof"),
    Stated("Sec. 4.2 (earlier bounds)", "section",
           "Earlier prediction bounds carry 1/λ or 1/λ² factors: Cortes et al. (2010, Eq. (5)) 1/λ_min(K + λI)², "
           "their Thm. 2 1/(λ² p), which needs p > 1/λ², 'typically larger than n' as λ decays at least as 1/√n; "
           "Jin et al. need p = n^(2γ/(γ²-1)) where d = n^(1/(γ+1)) suffices here.",
           reason="quoted: the bounds of Cortes et al. (2010) and Jin et al. (arXiv 1111.2262, 2011; printed "
                  "'2001'); the step 1/λ*² > n inherits Sec. 4.1's λ* <= c/√n, false on Table 1's lines 1 and 3 "
                  "(1/λ*² ∝ n^(4/5) < n on line 1 with β = 1)"),
    Stated("Sec. 4.2 (additional regularization)", "section",
           "The low-rank approximation may have an additional regularising effect, predicting better than the "
           "full kernel matrix (App. B: the approximated prediction error may be smaller).",
           claims=("bach13.rank-rule",),
           how="ordering: for column samplers, the smallest mean risk ratio E_I risk(L)/risk(K) at λ* over (kernel, "
               "n) at p = ⌈2d⌉, ⌈4d⌉, ⌈d ln n⌉ is judged <= 0.995: L predicts better than K, with the same λ*. "
               "Measured 0.955-0.975 at ci and 0.953-0.976 at quick (roots 0-4), always the B_2 kernel (β = 1; B_4 and exp(ρ = 1) read "
               "0.996-1.001, so the effect is problem-dependent: 'may'); the planted fault exact-from-sixteenth (exact "
               "KRR once p >= n/16) reads 1.0000 and fails. Exact solvers are not judged on it"),
    # -- App. B: the proof ----------------------------------------------------------------------------
    Stated("Lemma B.1", "lemma",
           "For Ψ in R^(n×r) with rows of ℓ2-norm <= R and I a uniform p-subset without replacement (printed "
           "I ⊂ {1, ..., p}, for {1, ..., n}): P(λ_max[(1/n) Ψ^T Ψ - (1/p) Ψ_I^T Ψ_I] > t) <= "
           "r exp(-(p t²/2) / (λ_max((1/n) Ψ^T Ψ) (R² + t/3))) for all t > 0.",
           claims=("bach13.lemmaB1",),
           how="probable bound: the Clopper-Pearson 99% lower limit of the empirical tail is at or below the bound "
               "at 16 levels t in [0.2, 0.95] (n = 400, Ψ from the r = 40 top eigen-features of the B_2 kernel, "
               "γ = 0.3, p = 100 and 200, 200 to 5000 draws of I), and the bound matches a direct evaluation of the "
               "printed formula to 1e-12"),
    Stated("Eq. (8)", "equation",
           "L_γ = K(V,I) [K(I,I) + pγI]^-1 K(I,V) = Φ N_γ Φ^T with N_γ = Φ_I^T (Φ_I Φ_I^T + pγI)^-1 Φ_I = "
           "I - γ (Φ_I^T Φ_I / p + γI)^-1 (matrix inversion lemma), and L_0 = L.",
           reason="proof step: the matrix inversion lemma; not asserted (note the inner regulariser p γ: "
                  "PAPER.errata)"),
    Stated("Eq. (9)", "equation",
           "bias(L_γ) = nλ² z^T (Φ N_γ Φ^T + nλI)^-2 z is non-decreasing in γ (N_γ being matrix-non-increasing), "
           "so a bound for γ > 0 bounds γ = 0.",
           reason="proof step: false as stated for non-commuting matrices (t -> t^-2 is not operator monotone; "
                  "bias(L_γ) was non-monotone in γ in 5 of 3000 random 8 x 8 instances: PAPER.errata); never "
                  "asserted"),
    Stated("Eq. (10)", "equation",
           "If λ_max((1/n) Ψ^T Ψ - (1/p) Ψ_I^T Ψ_I) <= t then I - N_γ ≼ γ/(1-t) ((1/n) Φ^T Φ + γI)^-1 and "
           "K - L_γ ≼ nγ/(1-t) (K + nγI)^-1 K ≼ nγ/(1-t) I.",
           reason="proof step: not asserted (its γ = 0 consequence L ≼ K is: see Eq. (4))"),
    Stated("Eq. (11)", "equation",
           "E_I bias(L_γ) <= B bias(K), B = π_t (1 + R²/λ) + (1 - π_t)(1 - (γ/λ)/(1-t))^-2, using "
           "(1/n) z^T z <= (1 + R²/λ) bias(K).",
           reason="proof step: the factor should be (1 + R²/λ)², since the paper's own inequality is "
                  "bias(K) >= (1/n) z^T z (1 + R²/λ)^-2 (PAPER.errata: about doubles the log of Eq. (6)); it also "
                  "relies on Eq. (9)'s monotonicity"),
    Stated("Eq. (12)", "equation",
           "For γ <= λ: π_t <= n exp(-(p t²/2) / (λ d/γ + t/3)), i.e. Lemma B.1 with r = n, "
           "λ_max((1/n) Ψ^T Ψ) <= 1 and squared row norms max_i (Ψ Ψ^T)_ii <= λ d/γ.",
           reason="proof step: Lemma B.1 (bach13.lemmaB1) with the row-norm bound; not evaluated on its own"),
    # -- Sec. 4.3, Table 1, App. C ------------------------------------------------------------------------
    Stated("App. C.1", "section",
           "With eigenvalues nμ_i, the renormalised variance Σ μ_i²/(μ_i + λ)² and tr K (K + nλI)^-1 are both "
           "O(λ^(-1/(2β))) for μ_i = i^(-2β) (β > 1/2) and O(log(1/λ)) for μ_i = e^(-ρi): the two df "
           "definitions have the same asymptotic equivalents.",
           claims=("bach13.dof-decay",),
           how="rate: df1(λ) on the grid (exact FFT, n = 2^16..2^20) has log-log slope -1/(2β) ± 0.02 and level "
               "within 1% of 2[c1 λ^(-1/(2β)) - 1/2] for β = 1, 2, and is within 0.1 of (2/ρ) ln(1/λ) - 1 for "
               "ρ = 0.5, 1 (the levels, with the factor 2 of the cos/sin pairs, are ours: the paper states orders "
               "only); d_ave against λ is not fitted (table1 fits d_ave(λ*) against n)"),
    Stated("App. C.2, Eq. (14)", "section",
           "Bias terms (printed with a factor n, nλ² Σ ν_i/(μ_i + λ)²): for μ_i = i^(-2β), ν_i = i^(-2δ), O(λ²) if "
           "2δ - 4β > 1 and O(λ^((2δ-1)/(2β))) if < 1 (Eq. (14)); for μ_i = e^(-ρi), ν_i = e^(-κi), O(λ²) if "
           "κ > 2ρ and O(λ^(κ/ρ)) if κ < 2ρ; λ² for polynomial μ with exponential ν; O((log 1/λ)^(1-2δ)) for "
           "exponential μ with polynomial ν.",
           claims=("bach13.bias-decay",),
           how="rate: the bias (1/n) Σ_j (nλ/(e_j + nλ))² c_j from the grid's exact FFT spectrum and signal "
               "energies (Sec. 4.1's bias, λ² Σ ν_i/(μ_i + λ)², without the printed spurious n: PAPER.errata; a "
               "factor n moves no slope) at 24 levels λ in [1e-8, 1e-2], n = 2^16..2^20: log-log slopes 1.999 "
               "(B_2, ν_i = i^-8: λ²), 1.494 (B_2, i^-4: λ^((2δ-1)/(2β)) = λ^1.5), 1.995 (B_2, e^-2i: λ²), 1.995 "
               "(exp(1), e^-3i: κ > 2ρ, λ²), 1.492 (exp(1), e^-1.5i: λ^(κ/ρ)) within ± 0.03, and against "
               "ln(1/λ) -3.087 (exp(1), i^-4: (log 1/λ)^(1-2δ) = -3) within ± 0.15"),
    Stated("Table 1, lines 1-2 (App. C.3)", "table",
           "μ_i = i^(-2β), ν_i = i^(-2δ): variance n^-1 λ^(-1/(2β)); line 1 (2δ > 4β + 1): bias λ², "
           "λ* = n^(-1/(2 + 1/(2β))), risk n^(1/(4β+1) - 1), d_ave n^(1/(4β+1)); line 2 (2δ < 4β + 1): bias "
           "λ^((2δ-1)/(2β)), λ* = n^(-β/δ), risk n^(1/(2δ) - 1), d_ave n^(1/(2δ)) (all Θ).",
           claims=("bach13.table1",),
           how="rate: on the grid, σ² = 1, B_2 kernel (β = 1): line 1 with δ = 4 (λ* -2/5, risk -4/5, d_ave 1/5) and "
               "line 2 with δ = 2 (-1/2, -3/4, 1/4): log-log slopes against n = 2^8..2^20 of λ* (exact risk minimised "
               "over λ), the risk there and d_ave(λ*), within ± 0.045 of the least-squares slope of the Table 1 "
               "order (the paper gives no numbers for Table 1: β, δ are the suite's); the var. and bias columns are "
               "not fitted against λ (App. C.1, C.2)"),
    Stated("Table 1, line 3", "table",
           "μ_i = i^(-2β), ν_i = e^(-κi): as line 1, λ* = n^(-1/(2 + 1/(2β))), risk n^(1/(4β+1) - 1), d_ave "
           "n^(1/(4β+1)).",
           claims=("bach13.table1",),
           how="rate: on the grid, B_2 kernel (β = 1), ν_i = e^(-2i), noise σ² = 1e-3: log-log slopes against n = "
               "2^8..2^20 of λ*, the risk there and d_ave(λ*) within ± 0.045 of -2/5, -4/5, 1/5 (measured -0.412, "
               "-0.796, +0.208 at ci, -0.405, -0.797, +0.205 at full). The small σ² is ours: the λ² bias regime "
               "needs λ* << 1/i² over the frequencies carrying the signal, and at σ² = 1 λ* = 0.10..0.018 on "
               "n = 2^8..2^13, where the λ* slope reads -0.49 (-0.45 up to 2^20)"),
    Stated("Table 1, line 4", "table",
           "μ_i = e^(-ρi), ν_i = i^(-2δ): variance n^-1 log(1/λ), bias (log 1/λ)^(1-2δ), λ* = exp(-n^(1/(2δ))), "
           "risk n^(1/(2δ) - 1), d_ave n^(1/(2δ)).",
           claims=("bach13.table1",),
           how="rate: on the grid, exp(ρ = 1) kernel, ν_i = i^-4 (δ = 2), σ² = 1: the log-log slope against n of "
               "ln(1/λ*) (λ* = exp(-Θ(n^(1/4))) is no power of n), of the risk at λ* and of d_ave(λ*) within ± 0.12 "
               "of 1/4, -3/4, 1/4 (measured +0.194, -0.729, +0.252 at ci, n = 2^8..2^13; +0.235, -0.724, +0.275 at "
               "full, to 2^20; ln(1/λ*) ≈ 0.955 n^(1/4) + 0.8, the offset flattening the slope at small n). λ* falls "
               "to 2.9e-14 at n = 2^20, where nλ* = 3.0e-8 is three orders above the FFT's round-off eigenvalues "
               "(<= 2.6e-11): measured, not round-off"),
    Stated("Table 1, lines 5-6 (App. C.3)", "table",
           "μ_i = e^(-ρi), ν_i = e^(-κi): variance n^-1 log(1/λ); line 5 (κ > 2ρ): bias λ², λ* = n^(-1/2); line 6 "
           "(κ < 2ρ): bias λ^(κ/ρ), λ* = n^(-ρ/κ); both risk log n / n and d_ave log n.",
           claims=("bach13.table1",),
           how="rate: line 5 with exp(ρ = 0.5), ν_i = e^(-2i) (λ* ∝ n^(-1/2)) and line 6 with exp(ρ = 1), "
               "ν_i = e^(-1.5i) (λ* ∝ n^(-2/3)): slopes of λ*, risk and d_ave within ± 0.12 of the least-squares "
               "slopes of these orders on the same grid (log factors included), a log n d_ave at least half its "
               "reference slope"),
    Stated("Sec. 4.3 and App. D (minimax rates)", "section",
           "The best possible risk is O(n^(1/(2δ) - 1)) for ν_i = O(i^(-2δ)), attained 'if the RKHS is large "
           "enough (lines 2 and 4)', and O(log n / n) for exponential ν; the β-Sobolev link of the kernels "
           "(App. D) gives the minimax rate printed as O(n^(1/(2δ_0))).",
           reason="quoted: the minimax rates of Speckman (1985), Johnstone (1994), Caponnetto and De Vito (2007), "
                  "Steinwart et al. (2009) and the Sobolev link of Wahba (1990); 'large enough' should read 'small "
                  "enough' (lines 2 and 4 are the fast-decay cases, as the next paragraph and App. D's 'β large "
                  "enough' say), and App. D's O(n^(1/(2δ_0))) should be O(n^(1/(2δ_0) - 1))"),
    Stated("Sec. 4.3 (regimes)", "section",
           "For a given signal, an RKHS too large (lines 1, 3) gives a suboptimal rate; one too small (lines 2, 4, "
           "6) the optimal rate, but with λ* 'much smaller than O(n^-1)', hence ill-conditioned systems (condition "
           "number ∝ 1/λ, exponential in n on line 4).",
           claims=("bach13.table1",),
           how="erratum: table1's line 1 (β = 1, δ = 4) has a risk slope of -4/5 ± 0.045, away from the optimal "
               "-7/8: suboptimal as stated; but its line 2 (β = 1, δ = 2) has λ* ∝ n^(-1/2) (± 0.045), not below "
               "1/n: λ* = n^(-β/δ) is below 1/n on line 2 only when δ < β, and n^(-ρ/κ) on line 6 only when κ < ρ; "
               "condition numbers are not measured"),
    # -- Sec. 4.4: the algorithm -----------------------------------------------------------------------------
    Stated("Sec. 4.4 (algorithm)", "algorithm",
           "Take p columns uniformly without replacement, compute Φ in R^(n×p) with Φ Φ^T = L by incomplete "
           "Cholesky, and minimise (1/n) Σ ℓ(y_i, (Φw)_i) + (λ/2)||w||² by Newton's method (one linear system for "
           "the square loss): O(p² n) in all, robust to small λ (not below machine precision).",
           claims=("bach13.dof-identities",),
           how="identity: for the square loss the fitted Nyström KRR ((Φ^T Φ + nλI) w = Φ^T y) has a smoother whose "
               "exact risk matches L's spectral risk within eps cond(W), and the 'columns' solver "
               "C (C^T C + nλW)^-1 C^T y agrees with it within eps cond(W)²; planted faults (λ for nλ, an "
               "unorthogonalised Cholesky) fail; the O(p² n) time is Contribution 2's gap"),
    # -- Sec. 5 and App. D: the experiments ------------------------------------------------------------------
    Stated("Sec. 5 and App. D (kernels on [0, 1])", "section",
           "k(x, y) = Σ_i 2μ_i cos 2iπ(x - y); for μ_i = i^(-2β) the paper prints k = B_2β(x - y - ⌊x - y⌋)/(2β)!; "
           "for μ_i = e^(-ρi), k = 2(e^ρ cos 2π(x - y) - 1)/(e^(2ρ) - 2e^ρ cos 2π(x - y) + 1).",
           claims=("bach13.dof-decay",),
           how="erratum: the series is (-1)^(β+1) (2π)^(2β) B_2β(t)/(2β)!, so the printed form is negative "
               "semidefinite for even β and scaled by (2π)^(-2β) (PAPER.errata); the suite's corrected kernels give "
               "a PSD grid spectrum whose df1 is within 1% (poly) or 0.1 (exp) of the μ_i asymptotics, and the "
               "printed Bernoulli formula (planted fault literal-bernoulli) fails those checks; the exponential "
               "closed form is right"),
    Stated("App. D (grid spectrum)", "section",
           "On the grid x_i = (i-1)/n, K is circulant, diagonal in the Fourier basis, with eigenvalues "
           "nμ_i + n Σ_h μ_(i+hn) + n Σ_h μ_(-i+hn) ≈ nμ_i, and z's coordinates are √n(ν_i^(1/2) + aliases) "
           "≈ (nν_i)^(1/2); similar equivalents hold for uniform random points (Harchaoui et al. 2008).",
           claims=("bach13.dof-identities",),
           how="identity: df1 and d_ave from the FFT of K's first column agree with those from eigh within 1e-8, "
               "and d == df1 on the grid (constant diagonal of K (K + nλI)^-1: ours) within 1e-8; the alias sums are "
               "not compared term by term, and the random-design equivalents are not measured"),
    Stated("Fig. 1", "figure",
           "With n = 400 and a low-order polynomial eigen-decay, the relative prediction gap (risk(L) - risk(K)) / "
           "risk(K) falls with p much faster than ||K - L||/||K|| in trace and operator norms, for random columns "
           "(left) and pivoted incomplete Cholesky (right); the gap curve stops where L predicts better than K.",
           claims=("bach13.fig1",),
           how="ordering: n = 400, B_2 kernel (eigenvalues ~ i^-2), signal ν_i = i^-4 and λ* (the paper gives "
               "neither): on the mean over 6-20 designs, the p from which the gap stays <= 1% is below the p for a 1% "
               "operator-norm error, uniform (3 draws averaged) and pivoted; the trace norm, which needs still more "
               "columns here (1% at p = 198 vs 107 for the operator norm uniform, 142 vs 38 pivoted, one design), "
               "is reported, not judged"),
    Stated("Fig. 2 (left, middle), β = 1 and 4", "figure",
           "With ν_i = i^-16 (δ = 8), the kernel with β = 1 attains line 1's rate n^(1/(4β+1) - 1) = n^(-4/5), slower "
           "than the optimal n^(-15/16), which β = 4 attains (line 2); left: λ* against n, middle: the risk.",
           claims=("bach13.fig2-rates",),
           how="rate: on the grid (exact FFT risks, σ² = 1, n = 2^8..2^13 at ci, ..2^20 at full), ν_i = i^-16: the "
               "risk at λ* has log-log slope -0.775..-0.785 for β = 1 (line 1: -4/5) and -0.910..-0.923 for β = 4 "
               "(line 2: -15/16), each judged within ± 0.045, so the two bands are disjoint (β = 1 slower, as "
               "stated); λ* slope -0.407..-0.416 for β = 1 (-2/5, judged). β = 4's λ* slope approaches -1/2 slowly "
               "next to the boundary 2δ = 16 vs 4β + 1 = 17 (-0.379 at ci, -0.427 to 2^16, -0.486 to 2^20): "
               "reported, not judged"),
    Stated("Fig. 2 (left, middle), β = 8", "figure",
           "For β = 8 the rate should be n^(-15/16) (line 2), but λ* saturates at machine precision as n grows and "
           "numerical errors make the risk worse: the problem is too ill-conditioned for the matrix inversion.",
           claims=("bach13.fig2-rates",),
           how="erratum: with the kernel of the series (k(x, x) = 2ζ(16)) λ* = σ²/n exactly (ν_i = μ_i: KRR is then "
               "the Wiener filter of every frequency; ours), slope -1.000 judged within ± 0.045 (line 2: -β/δ), "
               "risk slope -0.906..-0.971 within ± 0.045 of -15/16, λ* >= 9.5e-7 at n = 2^20, never on the eps "
               "floor of its λ range (judged), and KRR solved in float64 (Cholesky of K + nλ*I, n <= 2048) within "
               "8.8e-9 of the exact risk, the B_16 closed form's own round-off (1.3e-11) times cond: no saturation "
               "and no numerical loss at any n measured (λ* = σ²/n reaches eps near n = 4.5e15). The paper's "
               "saturation comes from the printed kernel's scale (2π)^-16 = 1.7e-13 (PAPER.errata): λ* scales "
               "with it exactly and reaches eps from n = 1024 on the grid; the planted fault printed-scale, on a λ "
               "range floored at eps, reproduces it (λ* slope -0.275) and fails"),
    Stated("Fig. 2 (right)", "figure",
           "On random designs with Fig. 2's kernels and signal (β = 1, 4, 8; δ = 8), the rank p_1% for a risk at "
           "most 1% worse than with p = n, over d and over d_ave, stays close to one as n grows, for random "
           "columns (plain) and pivoted incomplete Cholesky (dashed).",
           claims=("bach13.rank-rule", "bach13.pivoting"),
           how="qualitative: on other problems: signal ν_i = i^-4 (δ = 2, not 8), kernels B_2, B_4 (β = 1, 2) and "
               "exp(ρ = 1), not β = 1, 4, 8; rank-rule brackets p_1%/d by the mean risk ratio at p = ⌈d/4⌉ "
               "(> 1.01) and ⌈4d⌉ (<= 1.01) at every (kernel, n), measured brackets (1/2, 4], instead of scanning "
               "every p; pivoting scans every prefix for p_1%, uniform and pivoted; p_1%/d_ave is plotted, not "
               "judged"),
    Stated("Sec. 3 and Sec. 5 (pivoting)", "section",
           "Greedy column selection (incomplete Cholesky with pivoting) may do better than random sampling; in "
           "the experiments it 'does not change significantly the results, but may sometimes reduce the number "
           "of required columns by a constant factor'.",
           claims=("bach13.pivoting",),
           how="ordering: one-sided: the bootstrap 95% CI of the pooled ratio p_1%(pivoted)/p_1%(uniform) lies "
               "below 1.5 (B_2 and exp(ρ = 1) kernels, δ = 2 signal, n = 100..3200, paired designs); whether "
               "pivoting reduces p is reported, not judged"),
    Stated("Secs. 4.4 and 5 (d against d_ave)", "section",
           "d is in practice close to the traditional d_ave (Sec. 4.4); the two 'are within a factor of 2' on all "
           "data sets (Sec. 5).",
           claims=("bach13.d-vs-dave",),
           how="erratum: on uniform random designs at λ* (δ = 2 signal, n = 100..800 at ci/quick, 200..3200 at "
               "full), the mean d/d_ave per (kernel, n) is <= 3.5 (judged; roots 0-4 at ci and quick read at most "
               "2.86 for B_2, 2.02 for B_4, 1.75 for B_8, 2.08 for exp(ρ = 1); full 2.76, 1.84, 1.54, 1.81): "
               "'close', as Sec. 4.4 says. But 'within a factor of 2' (Sec. 5) fails for β = 1, the kernel of the "
               "paper's own Fig. 2: d/d_ave > 2 on every B_2 design (judged; min 2.39 at quick, 2.25 at full, n = "
               "3200), since df1/d_ave = (c1 x - 1/2)/(c1 x/2 - 1/2) > 2 for β = 1 (x = λ^(-1/2); 2.01-2.08 "
               "measured) and d >= df1; for β >= 2 it holds on average"),
    Stated("Fig. 3", "figure",
           "On the pumadyn 32fh, 32nh and 32nm data sets (test error on unseen points, λ by cross-validation), "
           "p_1%/d and p_1%/d_ave stay close to one for random and pivoted columns; the sudden increases (by less "
           "than 2) come from the unstable 1% criterion.",
           reason="no data: the pumadyn-32 sets (Delve; the paper says UCI) ship with no installed package and "
                  "cannot be fetched here; kernel, bandwidth, splits and the cross-validation protocol are not "
                  "reported either"),
)
