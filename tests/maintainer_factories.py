"""Factories a library maintainer writes outside kpca_suite, for the situations where an
implementation does not fit a claim: a sketch whose API cannot make ell <= d rows (it says
so with the public refusal, and one that says so with a plain exception); a Nyström KPCA
that gives only the scores of the rows it is fitted on (as a binding of a compiled library
does), correct, with too few landmarks, and centred."""

import numpy as np

from kpca_suite.suites.roles import Unsupported, implementation

from .external_estimators import PlainFrequentDirections


class LargeSketchOnly(PlainFrequentDirections):
    """A Frequent Directions sketch whose API needs more rows than columns (ell > d)."""

    refusal = Unsupported

    def partial_fit(self, A):
        d = np.shape(A)[1]
        if self.sketch_size <= d:
            raise self.refusal(f"this sketch needs ell > d rows; given ell = {self.sketch_size}, d = {d}")
        return super().partial_fit(A)


class _PlainError(LargeSketchOnly):
    refusal = ValueError


@implementation(kind="sketch")
def large_sketch_only(n_components, budget, kernel, random_state):
    """Refuses ell <= d through kpca_suite.suites.roles.Unsupported."""
    return LargeSketchOnly(budget)


@implementation(kind="sketch")
def large_sketch_only_value_error(n_components, budget, kernel, random_state):
    """The same API, refusing with a ValueError: a crash of the implementation."""
    return _PlainError(budget)


class InSampleNystrom:
    """Nyström KPCA that gives only the training rows' scores: F = K_nm K_mm^{-1/2} (on
    K_mm's numerical range), centred F - mean(F) when ``centred``, and its projection on the
    top-k right singular vectors, scores = F V_k (coordinates in an orthonormal basis of
    feature space). No ``transform`` of new points."""

    def __init__(self, n_components, n_landmarks, kernel, random_state=None, centred=False):
        self.n_components, self.n_landmarks = n_components, n_landmarks
        self.kernel, self.random_state, self.centred = kernel, random_state, centred

    def fit_transform(self, X):
        rng = np.random.default_rng(self.random_state)
        landmarks = X[rng.choice(len(X), self.n_landmarks, replace=False)]
        s, V = np.linalg.eigh(self.kernel.block(landmarks))
        keep = s > 1e-10 * s.max()
        F = self.kernel.block(X, landmarks) @ (V[:, keep] / np.sqrt(s[keep]))
        if self.centred:
            F = F - F.mean(axis=0)
        _, _, Vt = np.linalg.svd(F, full_matrices=False)
        return F @ Vt[:self.n_components].T


@implementation(kind="nystrom", centred=False)
def in_sample_nystrom(n_components, budget, kernel, random_state):
    """A correct in-sample-only Nyström KPCA."""
    return InSampleNystrom(n_components, budget, kernel, random_state)


@implementation(kind="nystrom", centred=False)
def in_sample_nystrom_few(n_components, budget, kernel, random_state):
    """The bug: keeps n_components + 2 landmarks whatever the budget."""
    return InSampleNystrom(n_components, n_components + 2, kernel, random_state)


@implementation(kind="nystrom", centred=True)
def in_sample_nystrom_centred(n_components, budget, kernel, random_state):
    """A correct in-sample-only centred Nyström KPCA (centring the Nyström features)."""
    return InSampleNystrom(n_components, budget, kernel, random_state, centred=True)


class ChattyInSampleNystrom(InSampleNystrom):
    """A correct in-sample Nyström that prints a line to stderr and warns in every fit, as
    many packages do (a progress line, a deprecation)."""

    def fit_transform(self, X):
        import sys
        import warnings
        print("chatty: fitting", file=sys.stderr)
        warnings.warn("chatty: this option is deprecated", DeprecationWarning)
        return super().fit_transform(X)


@implementation(kind="nystrom", centred=False)
def chatty_in_sample_nystrom(n_components, budget, kernel, random_state):
    """A correct in-sample Nyström that prints and warns in every cell."""
    return ChattyInSampleNystrom(n_components, budget, kernel, random_state)


class _NativeLogBinding(LargeSketchOnly):
    """A compiled binding's habit: it writes its fatal reason to file descriptor 2 itself (not
    through sys.stderr) and raises a RuntimeError that only points at that log."""

    def partial_fit(self, A):
        import os
        os.write(2, b"[Fatal] New dimensionality (10) cannot be greater than existing dimensionality (1)!\n")
        raise RuntimeError("fatal error; see Log::Fatal output")


@implementation(kind="sketch")
def native_log_binding(n_components, budget, kernel, random_state):
    """A sketch whose partial_fit logs its reason natively and raises an opaque error."""
    return _NativeLogBinding(budget)
