"""Numba-jitted compute: kernel blocks, blocked Gram products, leverage scores,
the explicit Fourier feature map of the population model, and random Fourier
features, pivoted incomplete Cholesky, the Oja update, Frequent Directions."""

from .bandwidth import mean_distance_gamma, median_gamma, pairwise_sq_distances
from .cholesky import CholeskyFactor, incomplete_cholesky
from .fourier import fourier_features
from .frequent_directions import FrequentDirections
from .gram import centred_trace, default_block_size, gram_accumulate, kernel_matmat
from .leverage import approximate_leverage_scores, exact_leverage_scores
from .oja import oja_updates, orthonormalize
from .periodic import PeriodicKernel
from .protocol import KernelLike
from .random_features import RandomFourierFeatures, draw_rff
from .spec import KERNELS, Kernel
from .validation import check_array, check_positive, check_random_state, check_rank, check_same_width

__all__ = [
    "KERNELS", "Kernel", "KernelLike", "PeriodicKernel", "gram_accumulate", "centred_trace", "kernel_matmat", "default_block_size", "fourier_features",
    "exact_leverage_scores", "approximate_leverage_scores", "RandomFourierFeatures", "draw_rff",
    "incomplete_cholesky", "CholeskyFactor", "oja_updates", "orthonormalize", "FrequentDirections",
    "median_gamma", "mean_distance_gamma", "pairwise_sq_distances",
    "check_array", "check_positive", "check_random_state", "check_rank", "check_same_width",
]
