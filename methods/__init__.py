"""Estimators built from kernels/: exact and Nyström kernel PCA, landmark strategies."""

from .exact import ExactKPCA
from .landmarks import FixedLandmarks, LeverageScoreLandmarks, UniformLandmarks
from .nystrom import NystromKPCA

__all__ = ["ExactKPCA", "NystromKPCA", "UniformLandmarks", "LeverageScoreLandmarks", "FixedLandmarks"]
