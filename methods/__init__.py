"""Estimators built from kernels/: exact and Nyström kernel PCA (uncentred, and
Hallgren's centred form), landmark strategies, subset PCA, RF-ERM / RNCA, RF-Oja, SKPCA, streaming Nyström,
kernel ridge regression and Nyström KRR, KPCR."""

from .base import NotFittedError, check_is_fitted, reset_fitted
from .centered_nystrom import CenteredNystromKPCA
from .exact import ExactKPCA
from .kpcr import KPCR, CenteredNystromKRR
from .krr import KernelRidge, NystromFeatures, NystromKRR
from .landmarks import (FixedLandmarks, KMeansLandmarks, LeverageScoreLandmarks, PivotedCholeskyLandmarks,
                        RecursiveLeverageLandmarks, UniformLandmarks, select_landmarks)
from .nystrom import NystromKPCA, RankCappedNystromKPCA
from .rf_erm import RFERM
from .rf_oja import ConstantSchedule, InverseSchedule, RFOja, ThreePhaseSchedule
from .skpca import SKPCA
from .streaming_nystrom import StreamingNystrom
from .subset_pca import SubsetPCA, WilliamsSeegerKPCA

__all__ = [
    "ExactKPCA", "NystromKPCA", "RankCappedNystromKPCA", "CenteredNystromKPCA", "SubsetPCA", "WilliamsSeegerKPCA",
    "UniformLandmarks", "LeverageScoreLandmarks", "FixedLandmarks", "RecursiveLeverageLandmarks",
    "KMeansLandmarks", "PivotedCholeskyLandmarks",
    "RFERM", "RFOja", "SKPCA", "StreamingNystrom", "InverseSchedule", "ConstantSchedule", "ThreePhaseSchedule",
    "KernelRidge", "NystromKRR", "NystromFeatures", "KPCR", "CenteredNystromKRR",
    "NotFittedError", "check_is_fitted", "reset_fitted", "select_landmarks",
]
