"""Estimators built from kernels/: exact and Nyström kernel PCA, landmark strategies,
RF-ERM / RNCA."""

from .exact import ExactKPCA
from .landmarks import FixedLandmarks, LeverageScoreLandmarks, UniformLandmarks
from .nystrom import NystromKPCA
from .rf_erm import RFERM

__all__ = ["ExactKPCA", "NystromKPCA", "UniformLandmarks", "LeverageScoreLandmarks", "FixedLandmarks", "RFERM"]
