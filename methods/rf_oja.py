"""RF-Oja (Ullah et al. 2018, App. D.2, Cor. 4.4(b)): Oja's algorithm on random
Fourier features in one pass.

Draw the feature map z once (:func:`kernels.draw_rff`), start from
Q_0 = qr(G), G an m' x k standard Gaussian matrix, and for each sample

.. math::  Q_t = \\mathrm{qr}\\big(Q_{t-1} + \\eta_t\\, z(x_t) z(x_t)^T Q_{t-1}\\big)

(the standard Allen-Zhu & Li form; the paper states only the step schedule).
The output is the rank-k projection Q_n Q_n^T in feature space. The
state is Q (m' x k) plus the frequencies (d x m) and phases: O(m k + m d),
never O(n). QR every step or every ``qr_every`` steps gives the same span
(:mod:`kernels.oja`); the per-step cost is O(m k) for the update plus O(m k^2)
per QR (the paper's "O(mk) per iteration" leaves out the QR and the O(m d)
feature map, and its "O(mk) memory" the O(m d) frequencies).

The default ``qr_every`` = 64 is a measured choice (perf.rf-oja's sizes, time per
sample over the feature map's own, best of interleaved rounds): about 5.9 at
qr_every = 1, 2.4 at 4 and 1.5 at 16. Between 32 and 128 the QR's 4 k^2 m flops per
qr_every samples against the update's 4 k m per sample still show: a pass over
n = 100000 (d = 64, m = 750, k = 10, one thread, best of 5) took 0.594 s at 32, 0.556 s
at 64 and 0.535 s at 128, against 0.388 s for the map alone (1.53x, 1.43x, 1.38x).
Beyond 64 the basis drifts further from orthonormal between QRs (the round-off of the
span, ~1e-14 up to 64, reached 2e-8 at 256 on the test problem of
tests/test_rf_oja.py).

Step schedules (``learning_rate``), t = 1, 2, ... counting every sample seen:

:class:`InverseSchedule`     eta_t = eta0 / (t + t0)
:class:`ConstantSchedule`    eta_t = eta
:class:`ThreePhaseSchedule`  Allen-Zhu & Li (2016), restated as Thm D.3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kpca_suite.kernels import Kernel, check_array, check_positive, check_random_state, check_rank
from kpca_suite.kernels.threads import blas_single_thread
from kpca_suite.kernels.oja import oja_updates, orthonormalize

from .base import reset_fitted
from .rf_subspace import RandomFeatureSubspace


@dataclass(frozen=True)
class InverseSchedule:
    """eta_t = eta0 / (t + t0). The default eta0 = 40, t0 = 100 comes from a small
    pilot run on the Gaussian-kernel Mehler model, where it worked (about
    2.5 / (gap t) for gap = 0.063)."""

    eta0: float = 40.0
    t0: float = 100.0

    def __post_init__(self):
        check_positive(self.eta0, "eta0")
        check_positive(self.t0, "t0", allow_zero=True)

    def steps(self, t_first: int, count: int) -> np.ndarray:
        """eta_t for t = t_first .. t_first + count - 1."""
        return self.eta0 / (np.arange(t_first, t_first + count, dtype=np.float64) + self.t0)


@dataclass(frozen=True)
class ConstantSchedule:
    """eta_t = eta (converges to a neighbourhood of the top-k subspace whose size
    shrinks with eta)."""

    eta: float = 1e-3

    def __post_init__(self):
        check_positive(self.eta, "eta")

    def steps(self, t_first: int, count: int) -> np.ndarray:
        return np.full(count, float(self.eta))


@dataclass(frozen=True)
class ThreePhaseSchedule:
    """Allen-Zhu & Li's schedule (Ullah et al. 2018, Thm D.3) with explicit constants.

    With gap = lambda_k(C_m) - lambda_{k+1}(C_m) and Lambda = sum_{i<=k} lambda_i(C_m),

    - T_0 = ceil(c_T0 k Lambda / gap^2)   (Thm D.3: Theta(4 k Lambda / (gap^2 delta^2));
      delta is folded into c_T0),
    - T_1 = ceil(c_T1 Lambda / gap^2),
    - eta_t = c_eta / (gap T_0)           for t <= T_0,
    - eta_t = c_eta / (gap T_1)           for T_0 < t <= T_0 + T_1 (the paper's
      1/(gap^2 T_1) is read as a typo for 1/(gap T_1): this value joins phase 3,
      1/(gap (t - T_0)) at t = T_0 + T_1, continuously),
    - eta_t = c_eta / (gap (t - T_0))     afterwards.

    The paper gives no constants (every Theta hides them); the defaults c_eta = 2.5
    (the 2.5 / (gap t) of :class:`InverseSchedule`'s pilot), c_T0 = c_T1 = 1 are
    ours. gap and Lambda are
    properties of the population C_m, so they must be supplied (estimates).
    """

    gap: float
    Lambda: float
    k: int
    c_eta: float = 2.5
    c_T0: float = 1.0
    c_T1: float = 1.0

    def __post_init__(self):
        for name in ("gap", "Lambda", "c_eta", "c_T0", "c_T1"):
            check_positive(getattr(self, name), name)
        check_positive(self.k, "k", integer=True)

    @property
    def T0(self) -> int:
        return math.ceil(self.c_T0 * self.k * self.Lambda / self.gap**2)

    @property
    def T1(self) -> int:
        return math.ceil(self.c_T1 * self.Lambda / self.gap**2)

    def steps(self, t_first: int, count: int) -> np.ndarray:
        t = np.arange(t_first, t_first + count, dtype=np.float64)
        T0, T1 = self.T0, self.T1
        late = self.c_eta / (self.gap * np.maximum(t - T0, 1.0))
        return np.where(t <= T0, self.c_eta / (self.gap * T0),
                        np.where(t <= T0 + T1, self.c_eta / (self.gap * T1), late))


SCHEDULES = (InverseSchedule, ConstantSchedule, ThreePhaseSchedule)


class RFOja(RandomFeatureSubspace):
    """Streaming top-k PCA of uncentred random features by Oja's algorithm.

    Parameters
    ----------
    n_components : int
        k, at most the number of features.
    n_features : int
        m, the number of frequencies (features: m for ``"cos"``, 2m for ``"paired"``).
    kernel : kernels.Kernel
        Gaussian exp(-gamma ||x - y||^2) or Laplacian (the kernels with a spectral
        measure for :func:`kernels.draw_rff`); any other kernel is a ValueError at ``fit``.
    variant : {"cos", "paired"}
        As in :func:`kernels.draw_rff`.
    learning_rate : InverseSchedule, ConstantSchedule or ThreePhaseSchedule
        The step sizes eta_t (module docstring); default ``InverseSchedule()``.
    qr_every : int
        Re-orthonormalise after this many updates (1: every step, the textbook
        form; default 64, see the module docstring); the fitted span does not
        depend on it, up to round-off. ``components_`` is always orthonormal (a
        pending QR is applied at the end of each chunk).
    block_size : int
        Rows mapped to features at a time; memory O(block_size m).
    random_state : int, Generator or None
        Seeds the frequencies and Q_0, drawn on the first ``partial_fit``.

    Attributes
    ----------
    feature_map_ : RandomFourierFeatures
    components_ : (m', k) Q_t, orthonormal columns.
    n_samples_seen_ : int
    """

    def __init__(self, n_components: int, n_features: int, kernel: Kernel = Kernel("gaussian", gamma=1.0),
                 variant: str = "cos", learning_rate=None, qr_every: int = 64, block_size: int = 4096,
                 random_state=None):
        self.n_components = n_components
        self.n_features = n_features
        self.kernel = kernel
        self.variant = variant
        self.learning_rate = learning_rate
        self.qr_every = qr_every
        self.block_size = block_size
        self.random_state = random_state

    def _schedule(self):
        lr = InverseSchedule() if self.learning_rate is None else self.learning_rate
        if not isinstance(lr, SCHEDULES):
            raise TypeError(f"learning_rate must be one of {[s.__name__ for s in SCHEDULES]}, "
                            f"got {type(lr).__name__}")
        return lr

    def fit(self, X) -> "RFOja":
        """Forget any previous pass and run one pass over the rows of X."""
        reset_fitted(self)
        return self.partial_fit(X)

    def partial_fit(self, X) -> "RFOja":
        """Continue the pass with the rows of X (in order). Everything is validated
        before any update, so a rejected chunk (non-finite rows, a different d,
        bad parameters) leaves the model unchanged."""
        X = check_array(X, "X")
        schedule = self._schedule()
        qr_every = check_positive(self.qr_every, "qr_every", integer=True)
        block_size = check_positive(self.block_size, "block_size", integer=True)
        if not hasattr(self, "feature_map_"):
            rng = check_random_state(self.random_state)
            fmap = self._draw_feature_map(X.shape[1], rng)
            k = check_rank(self.n_components, "n_components", fmap.n_features, "the number of features")
            Q, seen = orthonormalize(rng.standard_normal((fmap.n_features, k))), 0
        else:
            fmap, Q, seen = self.feature_map_, self.components_.copy(), self.n_samples_seen_
            if X.shape[1] != fmap.omega.shape[0]:
                raise ValueError(f"X must have d = {fmap.omega.shape[0]} columns like the earlier chunks, "
                                 f"got {X.shape[1]}")
        pending, start = 0, 0
        try:
            # BLAS on one thread for the whole pass: the update's products are small (q x m
            # times m x k), and switching threads between the map's GEMM and the update
            # leaves OpenBLAS workers spinning against the update (about 2.6x slower per sample
            # with the map on two threads, perf.rf-oja's sizes).
            with blas_single_thread():
                for Z in fmap.blocks(X, block_size):
                    eta = schedule.steps(seen + start + 1, Z.shape[0])  # per block: O(block_size) memory
                    pending = oja_updates(Q, Z, eta, qr_every, pending)
                    start += Z.shape[0]
                if pending:
                    orthonormalize(Q)
            finite = np.isfinite(Q).all()
        except (ValueError, np.linalg.LinAlgError):  # the jitted QR met inf / NaN
            finite = False
        if not finite:
            raise ValueError("the Oja iterate overflowed: the step sizes are too large for these features "
                             "(lower eta0 / eta or c_eta); the model is unchanged")
        self.feature_map_, self.components_, self.n_samples_seen_ = fmap, Q, seen + X.shape[0]
        return self

    @property
    def space_(self) -> int:
        """Floats held: Q (m' x k), the d x m frequencies and m phases."""
        self._check_fitted()
        fmap = self.feature_map_
        return self.components_.size + fmap.omega.size + fmap.phase.size
