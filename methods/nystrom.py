"""Nyström kernel PCA, NY-KPCA of Sterge et al. 2020 (Sec. 3.2, Proposition 3.4).

Problem (8): maximise <f, C_n f> over unit-norm f in H_m = span{k(., x~_r)}.
With a whitening W of K_mm (W^T K_mm W = I_r on its numerical range),

    M = W^T K_mn K_nm W,   (1/n) M u_j = lambda_hat_{j,m} u_j,   A = W U_k,

so that A^T K_mm A = I_k. The paper writes W = K_mm^{-1/2} (symmetric); any
whitening gives the same projector, since two of them differ by an orthogonal
factor on the right (W_2 = W_1 Q with Q orthogonal, so M_2 = Q^T M_1 Q and
A_2 A_2^T = A_1 A_1^T; not stated in the paper):

* ``"eigh"`` (default): K_mm = V diag(s) V^T, W = V_r diag(s_r^{-1/2}) keeping
  s > rcond * max(s); r is ``effective_rank_``. This is the pseudo-inverse
  square root that the paper's literal K_mm^{-1/2} becomes when K_mm is
  numerically singular (smooth kernels, exponential decay, duplicated ALS
  landmarks). The literal, unregularised inverse square root is what turns the
  in-sample order upside down: in exact arithmetic K~ <= K gives
  R_nys(l) >= R_ekpca(l) for every l, so the paper's observation (Sec. 5) of
  NY-KPCA "better than EKPCA" can only be a numerical artefact.
  When K_mm is well conditioned (LAPACK's condition estimate after a Cholesky
  factorisation K_mm = L L^T puts every eigenvalue above ``WELL_CONDITIONED``
  times the cut-off), no direction is cut and W = L^{-T} gives the same
  projector for an O(m^3 / 3) factorisation instead of a full eigh:
  M = L^{-1} K_mn K_nm L^{-T} by LAPACK's ``sygst``, A = L^{-T} U.
* ``"cholesky"``: K_mm = R^T R, W = R^{-1}; needs K_mm numerically positive definite.
* ``"generalized"``: eq. (20), (1/n) K_mn K_nm a = lambda K_mm a solved by
  LAPACK's generalized symmetric eigensolver, which returns A^T K_mm A = I.

K_mn K_nm is accumulated blockwise (:func:`kernels.gram_accumulate`): memory
O(m^2 + b m), never the n x m block; time O(n m d + n m^2 + m^3). When the "eigh"
whitening keeps r <= 0.4 m directions (a Gaussian K_mm is often of low numerical rank),
W is computed first and M = sum_b (K_bm W)^T (K_bm W) accumulated directly
(:func:`kernels.gram_accumulate` with ``right=W``): O(n m r) instead of O(n m^2), the same M up to
round-off (:meth:`NystromKPCA._eigh_whitener`).

Only the top k eigenpairs of M are solved for in ``fit`` (:func:`top_eigenpairs`);
``all_eigenvalues_`` (all r of them, for the in-sample error curve) is computed
from the stored M on first access. The m^3 steps (K_mm's factor or whitening before the
pass, the solve after it; K_mm is factored once) run LAPACK on one thread, which was
faster than two for every step on a loaded machine, and keeps the bits independent of
the core count; a two-threaded factor before the pass also slowed the pass
(:meth:`NystromKPCA._eigh_whitener`; perf.nystrom-kpca measures the fit).
In-sample error by eq. (19): (1/n) tr K - sum_{j <= l} lambda_hat_{j,m}.

A float32 X (in memory; a dask array's chunks are fitted in float64) is fitted in single
precision where that is safe: the pass over X forms each kernel block and its K_bm^T K_bm in
float32 (:func:`kernels.gram_accumulate`) and adds them into float64 sums; K_mm, the whitening
and the eigen solve are float64 (on the landmarks' float32 values), and so are ``transform``'s
scores. The blocks' round-off, eps_32 ~ 6e-8 against 1e-16, is amplified by ~1 / s along a
kept direction of K_mm with eigenvalue s, so the cut-off is raised to ``rcond_`` =
max(rcond, FLOAT32_RCOND) = 1e-4 for it (measured, see FLOAT32_RCOND). On a smooth kernel that
cut drops directions the float64 fit keeps, so the top eigenvalues can differ by more than the
round-off (4.4e-4 relative at gamma = 0.1, d = 10, m = 500; 5.7e-8 at the same cut-off);
perf.float32 measures the speed-up.

A ``dask.array`` X is fitted chunk by chunk (:meth:`NystromKPCA.fit`,
:mod:`kernels.dask_arrays`): K_mn K_nm, K_mn 1 and tr K are sums over row chunks,
added in a tree; uncentred, with landmarks drawn from n alone.
"""

from __future__ import annotations

import functools

import numpy as np
import scipy.linalg as sla
from scipy.linalg import lapack
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence, eigsh

from kpca_suite.kernels import Kernel, check_array, gram_accumulate
from kpca_suite.kernels.dask_arrays import add_terms, check_dask_array, gather_rows, is_dask_array, tree_reduce
from kpca_suite.kernels.psd_eigh import eigh_above
from kpca_suite.kernels.threads import blas_single_thread

from .base import KPCABase, check_choice, check_components_rank
from .landmarks import FixedLandmarks, UniformLandmarks, landmark_strategy, select_landmarks

WHITENINGS = ("eigh", "cholesky", "generalized")
# Relative cut-off of K_mm's eigenvalues for the "eigh" whitening. A kept direction with
# eigenvalue s amplifies round-off by ~eps/s, which can lift a Nyström eigenvalue above
# the exact one (the impossible "better than EKPCA" noted above). Measured on
# Gaussian gamma = 1, X ~ U[0,1]^2, n = 300, nested m in {10, 25, 50, 100}, seeds 0-4:
# worst R_ekpca(l) - R_nys(l) = 1.3e-7 (rcond 1e-10), 2.1e-9 (1e-9), -9.5e-11 (1e-8,
# no violation), while R_nys(l = m) was unchanged up to 1e-7 and grew 37% at 1e-6.
DEFAULT_RCOND = 1e-8
#: The cut-off for float32 X (``rcond_`` = max(rcond, FLOAT32_RCOND)), whose kernel blocks carry
#: a relative round-off of about eps_32 = 6e-8 that a kept direction amplifies by ~1 / s. Measured
#: as DEFAULT_RCOND was, X ~ U[0,1]^2 rounded to float32, Gaussian gamma = 1 and 10, n = 300, nested
#: m in {10, 25, 50, 100}, seeds 0-4, R_ekpca(l) (float64 on the same points) - R_nys(l) for l <= 40:
#: at gamma = 1 worst 0.93 (rcond 1e-8), 2.3e-2 (1e-6), 3.9e-3 (1e-5), 4.9e-4 (3e-5) and no violation
#: at 1e-4 (-4.0e-7, gamma = 10: -1.5e-6); about sqrt(eps_32), as 1e-8 is about sqrt(eps_64).
FLOAT32_RCOND = 1e-4
#: The "eigh" whitening takes the Cholesky route when LAPACK's estimate of
#: 1 / cond_1(K_mm) is at least this many times rcond. cond_2 <= cond_1 for a symmetric
#: matrix, and the estimate is rarely off by more than a factor 3 (Gaussian K_mm, m =
#: 100..1000: estimate / exact 1 / cond_1 = 1.0-1.2), so every eigenvalue of K_mm is then
#: above the cut-off and the eigh whitening would keep all m directions. The 1-norm is
#: pessimistic here (1 / cond_1 = 5.8e-7 for 1 / cond_2 = 6.0e-6 at m = 1000, d = 10).
WELL_CONDITIONED = 10.0
#: ARPACK (not LAPACK's O(r^3) tridiagonalisation) solves M's top k when M has at least
#: this many rows and k <= r / 4.
ARPACK_MIN_ROWS = 256
#: The landmark strategies that choose rows from n alone, so a dask array X can be fitted with
#: them: the other strategies read the rows of X (scores, centres, pivots).
CHUNKED_LANDMARKS = (UniformLandmarks, FixedLandmarks)


class NystromKPCA(KPCABase):
    """Nyström KPCA with a landmark strategy (an int m means uniform sampling).

    Parameters
    ----------
    n_components : int
        k, 1 <= k <= m.
    kernel : kernels.Kernel
    landmarks : int or landmark strategy
        An int m draws m landmarks uniformly without replacement; a strategy with
        ``select(X, kernel, rng)`` (:class:`UniformLandmarks`,
        :class:`LeverageScoreLandmarks`, :class:`FixedLandmarks`) chooses them itself.
    whitening : {"eigh", "cholesky", "generalized"}
        See the module docstring.
    rcond : float in [0, 1)
        Relative eigenvalue cut-off of K_mm for ``"eigh"``; for float32 X the cut-off is
        ``rcond_`` = max(rcond, FLOAT32_RCOND) (see the module docstring).
    center : bool
        Centre with the full-data mean: M = W^T (K_mn K_nm - s s^T / n) W
        with s = K_mn 1_n (the column sums from the same blocked pass).
    block_size : int or None
        Rows of a kernel block at a time.
    random_state : int, Generator or None
        The landmark draw.

    Fitted attributes, besides those of :class:`KPCABase`: ``landmark_indices_``,
    ``effective_rank_`` (r, the rank kept by the whitening), ``rcond_`` (the cut-off used), and
    ``all_eigenvalues_`` (the r eigenvalues of M / n).

    Extension points
    ----------------
    A subclass (another landmark rule, a variant of the solve, a planted fault) may
    override these methods, each with this one signature; ``fit`` calls nothing else
    that a subclass is meant to replace:

    ``_strategy(self)``
        The landmark strategy object (:mod:`methods.landmarks`).
    ``_whitener(self, Kmm, landmarks) -> W``
        An m x r matrix with W^T K_mm W = I_r, setting ``effective_rank_`` = r;
        ``landmarks`` are the landmark rows (m x d). Used by the "eigh" whitening
        whenever K_mm is not well conditioned enough for its Cholesky factor, and
        always for explicit features with d < m.
    ``_eig(self, Gn, Kmm, landmarks) -> (mu, A)``
        From Gn = K_mn K_nm / n (centred when ``center``), the eigenvalues mu of
        (1/n) M, descending, and the coefficients A (m x len(mu)), with
        ``effective_rank_`` set. Return at least ``n_components`` pairs; when every
        pair is returned, ``all_eigenvalues_`` are ``mu`` (the default keeps M in
        ``_M_`` and solves for the top ``n_components`` only).
    """

    def __init__(self, n_components: int, kernel: Kernel = Kernel(), landmarks=100,
                 whitening: str = "eigh", rcond: float = DEFAULT_RCOND, center: bool = False,
                 block_size=None, random_state=None):
        super().__init__(n_components, kernel, center, block_size)
        self.landmarks = landmarks
        self.whitening = whitening
        self.rcond = rcond
        self.random_state = random_state

    def _strategy(self):
        """The landmark strategy (:func:`~methods.landmarks.landmark_strategy`); a hook
        for subclasses that choose landmarks another way."""
        return landmark_strategy(self.landmarks)

    def _validate_fit(self, X):
        chunked = is_dask_array(X)  # its chunks are fitted in float64 (kernels.dask_arrays.check_chunk)
        X = (self._validate_chunked(X) if chunked
             else super()._validate_fit(X, check=functools.partial(check_array, allow_float32=True)))
        self.rcond_ = max(self.rcond, FLOAT32_RCOND) if X.dtype == np.float32 and not chunked else self.rcond
        check_choice(self.whitening, "whitening", WHITENINGS)
        return X

    def _validate_chunked(self, X):
        """:meth:`KPCABase._validate_fit` for a dask array X (its rows are checked
        where the pass reads them), and what the chunked path cannot do: a landmark
        strategy that reads X, or ``center=True``."""
        X = super()._validate_fit(X, check=check_dask_array)
        strategy = self._strategy()
        if not isinstance(strategy, CHUNKED_LANDMARKS):
            raise ValueError(f"landmarks: {type(strategy).__name__} reads the rows of X to choose its landmarks, "
                             "which a dask array X does not hold in memory; pass an int m (uniform) or "
                             "FixedLandmarks, or X.compute() if X fits in memory")
        if self.center:
            raise ValueError(f"center=True: {type(self).__name__}'s centred trace_ needs 1^T K 1, a pass over "
                             "all n^2 pairs of rows, which the chunked path of a dask array X does not make; "
                             "fit with center=False, or pass X.compute() if X fits in memory")
        return X

    def fit(self, X):
        """Fit on X (n x d). A ``dask.array`` X takes the chunked path: landmark
        indices drawn from n alone as in memory (an int m, :class:`UniformLandmarks`
        or :class:`FixedLandmarks`: the same ``random_state`` gives the same
        landmarks), their rows gathered, then K_mn K_nm = sum_c K_cm^T K_cm,
        K_mn 1 = sum_c K_cm^T 1 and tr K = sum_c tr K_cc summed over the row chunks
        X_c in a tree (:mod:`kernels.dask_arrays`); the rest as in memory. Equal to
        the in-memory fit up to the order of the additions. ``center=True`` and
        strategies that read X are ValueErrors there (:meth:`_validate_chunked`)."""
        X = self._validate_fit(X)
        if is_dask_array(X):
            return self._fit_chunked(X)
        n = X.shape[0]
        idx = select_landmarks(self._strategy(), X, self.kernel, self.random_state, self.n_components)
        # The pass over X runs in X's precision (gram_accumulate); K_mm, the whitening and the
        # eigen solve in float64, on the landmarks' float32 values when X is float32.
        Xm = X[idx]
        L = Xm.astype(np.float64, copy=False)
        with blas_single_thread():  # an m^3 step, on one thread like the others (see _eigh_whitener)
            W, chol = self._eigh_whitener(self.kernel.block(L, validate=False), L)
        if W is None:
            G, colsum = gram_accumulate(X, Xm, self.kernel, self.block_size)
            self._fit_gram(G, colsum, n, idx, L, chol)
        elif 5 * W.shape[1] <= 2 * W.shape[0]:  # r <= 0.4 m: 2 n m r + n r^2 flops beat the n m^2 of K_mn K_nm
            M, colsum = gram_accumulate(X, Xm, self.kernel, self.block_size, right=W)
            M /= n
            self._fit_whitened(M, W, colsum, n, idx, L)
        else:
            G, colsum = gram_accumulate(X, Xm, self.kernel, self.block_size)
            G /= n
            self._fit_whitened(W.T @ G @ W, W, colsum, n, idx, L)
        self._set_trace(X)
        if self.center:
            self._score_offset_ = (colsum / n) @ self.coefficients_
        return self

    def _fit_chunked(self, X):
        """The dask path of :meth:`fit` (uncentred): one tree of per-chunk sums."""
        n = X.shape[0]
        idx = select_landmarks(self._strategy(), X, self.kernel, self.random_state, self.n_components)
        L = gather_rows(X, idx, "X")
        G, colsum, diag_sum = tree_reduce(X, functools.partial(gram_terms, L, self.kernel, self.block_size),
                                          add_terms)
        self._fit_gram(G, colsum, n, idx, L)
        self.trace_ = float(diag_sum) / n
        return self

    def _eigh_whitener(self, Kmm, landmarks):
        """(W, chol) before the pass over X, when the default solve whitens by eigh: chol, the
        Cholesky factor of K_mm, when K_mm is well conditioned enough for it (W None: the pass
        forms K_mn K_nm, and the solve reuses chol instead of factoring K_mm again after the
        pass); else W (m x r) from :meth:`_whitener` (chol None). (None, None) for another
        whitening, an overridden ``_eig`` or explicit features: the pass forms K_mn K_nm for
        :meth:`_eig`, which makes K_mm again after the pass.

        ``fit`` runs this on one BLAS thread, as the module docstring says of every m^3 step.
        A two-threaded Cholesky here slowed the pass that follows. The fit at n = 6000 and 25000
        (m = 1000, d = 10, perf.nystrom-kpca's sizes; idle machine, best of 5, 2026-11-26) ran at
        0.43-0.44 and 0.73-0.75 of its floor (the pass alone), 0.55 and 0.83 with this step on one
        thread, and 0.66-0.67 and 0.86-0.87 with chol reused. Keeping chol through the pass
        holds one m x m array more there: the fit's peak RSS growth at n = 25000 and 100000 went
        from 1.44 to 1.56 x 8(m^2 + b m) (the goal is 2).

        With W known first, ``fit`` accumulates M = W^T K_mn K_nm W directly as
        sum_b (K_bm W)^T (K_bm W) (:func:`kernels.gram_accumulate`) when r <= 0.4 m: 2 n m r + n r^2
        flops instead of the n m^2 of K_mn K_nm (2 r / m + (r / m)^2 < 1). A Gaussian K_mm
        is often of low numerical rank: sterge20.cor43-gaussian's m = 2052 landmarks on the
        line at n = 37877 keep r = 34, and the pass was 4 s of a 5 s fit. A subclass that
        overrides ``_eig`` gets K_mn K_nm / n as documented."""
        if (self.whitening != "eigh" or type(self)._eig is not NystromKPCA._eig
                or self._explicit_features(landmarks)):
            return None, None
        chol = self._cholesky(Kmm, self.rcond_ * WELL_CONDITIONED)
        return (None, chol) if chol is not None else (self._whitener(Kmm, landmarks), None)

    def _fit_whitened(self, Mn, W, colsum, n, idx, L):
        """:meth:`_fit_gram` for Mn = W^T K_mn K_nm W / n already whitened (centred:
        Mn - (W^T s)(W^T s)^T / n^2): its top k, A = W U_k, Mn kept for ``all_eigenvalues_``."""
        if self.center:
            t = W.T @ colsum
            Mn -= np.outer(t, t) / n**2
        self.effective_rank_ = W.shape[1]
        k = self.n_components
        check_components_rank(k, self.effective_rank_, "K_mm", len(idx), self.rcond_)
        for stale in ("_M_", "_all_eigenvalues_"):
            vars(self).pop(stale, None)
        Mn = (Mn + Mn.T) / 2
        with blas_single_thread():
            mu, U = top_eigenpairs(Mn, k)
        self._M_ = Mn
        self.landmark_indices_, self.basis_points_, self.n_samples_ = idx, L, n
        self.eigenvalues_ = np.clip(mu, 0.0, None)
        self.coefficients_ = W @ U

    def _fit_gram(self, G, colsum, n, idx, L, chol=None):
        """Everything after the pass over X: from G = K_mn K_nm and s = K_mn 1 (centred:
        G - s s^T / n) to the eigenvalues and coefficients, for the landmarks ``idx`` / L;
        ``chol``, K_mm's Cholesky factor from :meth:`_eigh_whitener`, when it made one."""
        if self.center:
            G -= np.outer(colsum, colsum) / n
        G /= n  # in place: one m x m copy less at the fit's peak memory (perf.nystrom-kpca)
        k = self.n_components
        for stale in ("_M_", "_all_eigenvalues_"):
            vars(self).pop(stale, None)
        with blas_single_thread():
            if chol is None:
                mu, A = self._eig(G, self.kernel.block(L, validate=False), L)
            else:
                self.effective_rank_ = len(idx)
                mu, A, self._M_ = self._cholesky_top_eig(G, chol, k)
        check_components_rank(k, self.effective_rank_, "K_mm", len(idx), self.rcond_)
        self.landmark_indices_ = idx
        self.basis_points_ = L
        self.n_samples_ = n
        if "_M_" not in vars(self):  # _eig returned every eigenpair
            self.all_eigenvalues_ = np.clip(mu, 0.0, None)
        self.eigenvalues_ = np.clip(mu[:k], 0.0, None)
        self.coefficients_ = A[:, :k]

    @property
    def all_eigenvalues_(self):
        """(r,) all eigenvalues of (1/n) M, descending, clipped at 0. ``fit`` solves
        for the top k only; the rest come from one ``eigvalsh`` of the stored M on first
        access (its top k are the fitted ``eigenvalues_``)."""
        fitted = vars(self)
        if "_all_eigenvalues_" not in fitted:
            if "_M_" not in fitted:
                raise AttributeError(f"{type(self).__name__} has no all_eigenvalues_: it is not fitted")
            with blas_single_thread():
                e = np.clip(sla.eigvalsh(fitted["_M_"])[::-1], 0.0, None)
            k = len(self.eigenvalues_)
            e[:k] = self.eigenvalues_
            self._all_eigenvalues_ = e
            del self._M_
        return self._all_eigenvalues_

    @all_eigenvalues_.setter
    def all_eigenvalues_(self, value):
        self._all_eigenvalues_ = value

    def _top_eig(self, Gn, Kmm, k, landmarks):
        """The top-k eigenvalues (descending) of (1/n) M, the coefficients A = W U_k and
        M itself (r x r), with effective_rank_ set; the whitening as in ``_whitener``,
        taking the Cholesky route for "eigh" when K_mm is well conditioned."""
        m = Kmm.shape[0]
        if self.whitening == "cholesky":
            self._check_nonsingular(Kmm)
            chol = self._cholesky(Kmm)
            if chol is None:
                raise ValueError("K_mm is not numerically positive definite; use whitening='eigh'")
        elif self._explicit_features(landmarks):
            chol = None  # K_mm = L L^T has rank <= d < m: the SVD route of _whitener
        else:
            chol = self._cholesky(Kmm, self.rcond_ * WELL_CONDITIONED)
        if chol is not None:
            self.effective_rank_ = m
            return self._cholesky_top_eig(Gn, chol, k)
        W = self._whitener(Kmm, landmarks)
        M = W.T @ Gn @ W
        M = (M + M.T) / 2
        if k > M.shape[0]:
            return np.zeros(0), np.zeros((m, 0)), M
        mu, U = top_eigenpairs(M, k)
        return mu, W @ U, M

    @staticmethod
    def _cholesky_top_eig(Gn, chol, k):
        """The Cholesky route of :meth:`_top_eig`, K_mm = L L^T: M = L^{-1} Gn L^{-T} (LAPACK's
        ``sygst``), its top k and A = L^{-T} U_k."""
        m = Gn.shape[0]
        M = lapack.dsygst(Gn, chol, itype=1, lower=1)[0]  # L^{-1} Gn L^{-T}, lower triangle
        M = np.tril(M) + np.tril(M, -1).T
        if k > m:
            return np.zeros(0), np.zeros((m, 0)), M
        mu, U = top_eigenpairs(M, k)
        return mu, sla.solve_triangular(chol, U, lower=True, trans="T"), M

    @staticmethod
    def _cholesky(Kmm, min_rcond=None):
        """The lower Cholesky factor of K_mm, or None if LAPACK finds it not positive
        definite or (``min_rcond`` given) its 1-norm reciprocal condition estimate is
        below ``min_rcond``."""
        chol, info = lapack.dpotrf(Kmm, lower=1, clean=1)
        if info != 0:
            return None
        if min_rcond is not None:
            rc, info = lapack.dpocon(chol, float(np.abs(Kmm).sum(axis=0).max()), uplo="L")
            if info != 0 or not rc >= min_rcond:
                return None
        return chol

    def _eig(self, Gn, Kmm, landmarks):
        """The eigen solve (an extension point, see the class docstring): eigenvalues
        (descending) of (1/n) M = W^T Gn W and the coefficients A = W U, with
        ``effective_rank_`` set. "generalized" solves Gn a = mu K_mm a for every pair;
        "eigh" and "cholesky" solve for the top ``n_components`` (:meth:`_top_eig`) and
        keep M, from which ``all_eigenvalues_`` come on first access."""
        if self.whitening == "generalized":
            self._check_nonsingular(Kmm)
            try:
                mu, A = sla.eigh(Gn, Kmm)
            except np.linalg.LinAlgError:
                raise ValueError("K_mm is not numerically positive definite; "
                                 "use whitening='eigh'") from None
            self.effective_rank_ = Kmm.shape[0]
            return mu[::-1], A[:, ::-1]
        mu, A, self._M_ = self._top_eig(Gn, Kmm, self.n_components, landmarks)
        return mu, A

    def _check_nonsingular(self, Kmm):
        """Cholesky and the generalized solver trust K_mm to be positive definite;
        LAPACK does not always notice when it is not (duplicated landmarks can pass
        with a condition number of 1e17 and a wrong spectrum), so check the
        eigenvalue ratio against rcond first."""
        s = np.linalg.eigvalsh(Kmm)
        if not s[0] > self.rcond_ * s[-1]:
            raise ValueError(f"K_mm is numerically singular (eigenvalue ratio {s[0] / s[-1]:.1e} <= rcond = "
                             f"{self.rcond_}); use whitening='eigh', which cuts such directions off")

    def _explicit_features(self, landmarks) -> bool:
        """The linear kernel on rows with fewer columns than landmarks (d < m)."""
        return (landmarks is not None and getattr(self.kernel, "name", None) == "linear"
                and landmarks.shape[1] < landmarks.shape[0])

    def _whitener(self, Kmm, landmarks):
        """The whitening (an extension point, see the class docstring): W with
        W^T K_mm W = I_r on the kept directions (eigenvalues above rcond x the largest):
        K_mm = V diag(s) V^T, W = V_r diag(s_r^{-1/2}), with ``effective_rank_`` = r; only the
        kept pairs are computed when a pivoted Cholesky probe shows r to be small
        (:func:`kernels.psd_eigh.eigh_above`).

        For the linear kernel on explicit features with fewer columns than
        landmarks (d < m, given ``landmarks``), K_mm = L L^T has rank <= d, and its
        nonzero eigenpairs come from the thin SVD L = U S V^T (O(m d^2) instead of
        the O(m^3) eigh of K_mm, which cannot take the Cholesky route there): the
        eigenvalues are S^2 and the eigenvectors U, so W = U_r diag(1 / S_r). The
        same W up to round-off and the signs of its columns; more accurate, since
        the SVD of L does not square its condition number."""
        if self.whitening == "eigh" and self._explicit_features(landmarks):
            U, sv, _ = np.linalg.svd(landmarks, full_matrices=False)
            keep = sv ** 2 > self.rcond_ * (sv[0] ** 2 if sv.size else 0.0)
            self.effective_rank_ = int(keep.sum())
            return U[:, keep] / sv[keep]
        if self.whitening == "cholesky":
            self._check_nonsingular(Kmm)
            try:
                R = np.linalg.cholesky(Kmm).T
            except np.linalg.LinAlgError:
                raise ValueError("K_mm is not numerically positive definite; "
                                 "use whitening='eigh'") from None
            self.effective_rank_ = Kmm.shape[0]
            return sla.solve_triangular(R, np.eye(R.shape[0]))
        s, V = eigh_above(Kmm, self.rcond_)  # MRRR on the kept range when K_mm's rank is small
        self.effective_rank_ = s.size
        return V / np.sqrt(s)


class RankCappedNystromKPCA(NystromKPCA):
    """NystromKPCA that fits rank min(k, r), r the effective rank of K_mm: landmarks that
    span fewer than k directions give at best a projector of rank r, and that is what it
    fits, where NystromKPCA refuses k > r. ``n_components_`` is the rank fitted;
    ``n_components`` stays as given (a refit on other data asks for k again)."""

    def fit(self, X, y=None):
        k = self.n_components
        try:
            super().fit(X)
        except ValueError:
            r = getattr(self, "effective_rank_", k)
            if r >= k:
                raise
            self.n_components = r
            try:
                super().fit(X)
            finally:
                self.n_components = k
        self.n_components_ = min(k, self.effective_rank_)
        return self


def gram_terms(landmarks, kernel, block_size, X):
    """(K_Xm^T K_Xm, K_Xm^T 1, tr K_XX) for the rows X: one chunk's terms of the
    chunked fit (:func:`kernels.gram_accumulate` and the kernel's diagonal)."""
    G, colsum = gram_accumulate(X, landmarks, kernel, block_size)
    return G, colsum, float(kernel.diag(X, validate=False).sum())


def top_eigenpairs(M, k: int):
    """The k largest eigenvalues of the symmetric r x r matrix M (descending) and their
    orthonormal eigenvectors. ARPACK for r >= ARPACK_MIN_ROWS and k <= r / 4 (a few
    dozen O(r^2) products; a fixed start vector, so the result is deterministic),
    LAPACK's ``eigh(subset_by_index=...)`` otherwise or if ARPACK does not converge, and
    the full divide-and-conquer ``eigh`` if that fails: the subset drivers (MRRR ``evr``,
    bisection ``evx``) can stop with an "Internal Error" on a tight cluster of equal
    eigenvalues (hypothesis found a 7 x 7 near-diagonal M with six equal diagonal values
    and off-diagonal terms of 1e-19 to 1e-129 where both failed and ``evd`` did not)."""
    r = M.shape[0]
    if r >= ARPACK_MIN_ROWS and 4 * k <= r:
        try:
            mu, U = eigsh(M, k=k, which="LA", v0=np.random.default_rng(0).uniform(-1.0, 1.0, r))
            order = np.argsort(mu)[::-1]
            return mu[order], U[:, order]
        except (ArpackNoConvergence, ArpackError):
            pass
    return lapack_top_eigenpairs(M, k)


def lapack_top_eigenpairs(M, k: int):
    """:func:`top_eigenpairs` without ARPACK: LAPACK's ``eigh(subset_by_index=...)``, and the
    full divide-and-conquer ``eigh`` where the subset drivers stop on a tight cluster."""
    r = M.shape[0]
    try:
        mu, U = sla.eigh(M, subset_by_index=[r - k, r - 1])
    except np.linalg.LinAlgError:
        mu, U = sla.eigh(M, driver="evd")
        mu, U = mu[r - k:], U[:, r - k:]
    return mu[::-1], U[:, ::-1]
