"""numerics.oja-reference: the Oja update and its re-orthonormalisation within round-off of an
extended-precision reference.

RF-Oja (``kernels.oja.oja_updates``) applies Q <- Q + eta_t z_t (z_t^T Q) for each row and
every ``qr_every`` rows replaces Q by the Q factor of its QR with diag(R) > 0. The reference
repeats each block of q = qr_every steps from the same Q in np.longdouble, P = prod_t
(I + eta_t z_t z_t^T) Q, and orthonormalises P by Gram-Schmidt twice there. Rounding the q
rank-one steps perturbs P by about u q (1 + max eta_t ||z_t||^2) ||P|| and the QR of P turns a
perturbation of P into one of its Q factor amplified by at most cond(P), so

    ||Q - Q_ref||_2 <= C u q (1 + max_t eta_t ||z_t||^2) cond(P),
    ||Q^T Q - I||_2 <= C u m                    (Gram-Schmidt twice, m rows),

u = 2^-53, after every block. Edges: cos and paired random features of N(0, I_3) data, the
data at 1e4, one row repeated (P nearly of rank one: cond(P) large), features scaled by 1e3
and 1e-3 with eta scaled by their inverse squares; qr_every in (1, 8, 64); the default step
schedule eta_t = 40 / (t + 100).
"""

import numpy as np

from kpca_suite.kernels.oja import _oja_rows, oja_updates, orthonormalize
from kpca_suite.kernels.random_features import draw_rff
from kpca_suite.methods.rf_oja import InverseSchedule
from kpca_suite.suites.claim import Claim, Fault, Grid, PerProfile, Tolerance
from kpca_suite.suites.judging import AllWithin

from ._common import QUICK_NOTE, QUICK_SEEDS

# ---------------------------------------------------------------- parameters

DIM, M, K = 3, 64, 4
QR_EVERY = (1, 8, 64)
SCALES = (1e3, 1e-3)
C = 16                       # the bound's constant (see the tolerance's evidence)


def grid(n, seeds):
    return Grid(sizes=(n,), seeds=seeds,
                describe=f"T = {n} rows of m = {M} features, k = {K}: cos and paired features, data at 1e4, one row "
                         f"repeated, features scaled by {SCALES}; qr_every in {QR_EVERY}; {seeds} seeds")


GRID = PerProfile(ci=grid(256, 3), quick=grid(1024, QUICK_SEEDS), full=grid(4096, 10))

# ---------------------------------------------------------------- reference and bound


def gram_schmidt_ld(P):
    """The Q factor of P (m x k) with diag(R) > 0 in np.longdouble: modified Gram-Schmidt, twice."""
    Q = P.astype(np.longdouble).copy()
    for j in range(Q.shape[1]):
        for _ in range(2):
            for i in range(j):
                Q[:, j] -= (Q[:, i] @ Q[:, j]) * Q[:, i]
        Q[:, j] /= np.sqrt(Q[:, j] @ Q[:, j])
    return Q


def reference_block(Q, Z, eta):
    """(Q_ref, cond(P), growth): the block's steps from Q in np.longdouble, P's Q factor, the
    condition number of P and max_t eta_t ||z_t||^2."""
    P = Q.astype(np.longdouble)
    for z, e in zip(Z.astype(np.longdouble), eta):
        P += e * np.outer(z, z @ P)
    s = np.linalg.svd(P.astype(np.float64), compute_uv=False)
    return gram_schmidt_ld(P), float(s[0] / s[-1]), float(np.max(eta * np.einsum("ij,ij->i", Z, Z)))


def streams(rng, n):
    """(Z, eta) of every edge of one cell."""
    X = rng.standard_normal((n, DIM))
    eta = InverseSchedule().steps(1, n)
    cos = draw_rff(DIM, M, "gaussian", 0.5, "cos", rng).transform(X)
    yield cos, eta
    yield draw_rff(DIM, M // 2, "gaussian", 0.5, "paired", rng).transform(X), eta
    yield draw_rff(DIM, M, "gaussian", 0.5, "cos", rng).transform(X + 1e4), eta
    yield np.repeat(cos[:1], n, axis=0), eta
    for scale in SCALES:
        yield scale * cos, eta / scale ** 2

# ---------------------------------------------------------------- estimators


def ours(Q, Z, eta, qr_every):
    """The routine under test: ``oja_updates`` (updates pending from none)."""
    oja_updates(Q, Z, eta, qr_every, 0)

# ---------------------------------------------------------------- experiment


def experiment(cell, estimators):
    """One cell: every stream and qr_every, block by block, the subject's Q against the block's
    reference; ``subspace`` the worst ||Q - Q_ref|| / (u q (1 + max eta ||z||^2) cond(P)) and
    ``orth`` the worst ||Q^T Q - I|| / (u m), each over C."""
    rng, u = cell.rng(), np.finfo(np.float64).eps / 2
    start = rng.standard_normal((M, K))
    sub = orth = 0.0
    for Z, eta in streams(rng, cell.n):
        for q in QR_EVERY:
            Q = orthonormalize(start.copy())
            for t in range(0, cell.n, q):
                ref, cond, growth = reference_block(Q, Z[t:t + q], eta[t:t + q])
                estimators["updates"](Q, np.ascontiguousarray(Z[t:t + q]), eta[t:t + q], q)
                s = float(np.linalg.norm(Q - ref.astype(np.float64), 2) / (C * u * q * (1 + growth) * cond))
                o = float(np.linalg.norm(Q.T @ Q - np.eye(K), 2) / (C * u * M))
                sub, orth = (s if not s <= sub else sub), (o if not o <= orth else orth)   # NaN sticks
    return {"subspace": sub, "orth": orth}

# ---------------------------------------------------------------- planted faults


def never_orthonormalised(Q, Z, eta, qr_every):
    """A planted fault: the rank-one steps without the QR every qr_every rows."""
    QT = np.ascontiguousarray(Q.T)
    _oja_rows(QT, Z, eta, 0, Z.shape[0])
    Q[:, :] = QT.T


def classical_gram_schmidt(Q, Z, eta, qr_every):
    """A planted fault: the steps, then classical Gram-Schmidt once (no reorthogonalisation)."""
    never_orthonormalised(Q, Z, eta, qr_every)
    P = Q.copy()
    for j in range(Q.shape[1]):
        v = P[:, j] - Q[:, :j] @ (Q[:, :j].T @ P[:, j])
        Q[:, j] = v / np.linalg.norm(v)

# ---------------------------------------------------------------- declarations


CLAIMS = [
    Claim(
        id="numerics.oja-reference",
        source="kpca-suite numerics: kernels/oja.py (the blocked rank-one updates and Gram-Schmidt twice) for RF-Oja "
               "(Ullah et al. 2018, App. D.2)",
        statement="Each block of Oja updates with its re-orthonormalisation is within round-off of the same steps in "
                  "extended precision, amplified at most by the conditioning of the block's product, and leaves Q "
                  "orthonormal to round-off, for features far from the origin, scaled, and a repeated row",
        prediction=f"||Q - Q_ref||_2 <= {C} u q (1 + max η||z||²) cond(P) and ||QᵀQ - I||_2 <= {C} u m after every "
                   "block of q = qr_every rows",
        data=f"random Fourier features (m = {M}, cos and paired) of N(0, I_{DIM}) data, at 1e4, one row repeated, "
             f"features times {SCALES} with η / scale²; η_t = 40 / (t + 100); k = {K}",
        metric="worst ||Q - Q_ref|| / (C u q (1 + max η||z||²) cond(P)) and ||QᵀQ - I|| / (C u m) over every block; "
               "Q_ref from the same Q in np.longdouble, Gram-Schmidt twice",
        metrics=("subspace", "orth"),
        estimators={"updates": ours},
        experiment=experiment,
        grid=GRID,
        judge=AllWithin(1.0, metrics=("subspace", "orth"), what="of the round-off bound"),
        tolerance=Tolerance(rule=f"every block within its bound, C = {C}",
                            evidence=QUICK_NOTE + "ours (oja_updates: four rows per sweep, Gram-Schmidt twice): subspace at most "
                                     "0.138 of the bound at ci (T = 256, seeds 0-2) and 0.152 at quick (T = 1024, seeds "
                                     "0-4) over roots 0-4, i.e. 2.4 u q (1 + max η||z||²) cond(P); orth at most 0.0098 "
                                     "(0.16 u m). Faults at ci: never-orthonormalised 3.3e16 (subspace) and 5.6e49 "
                                     "(orth), classical-gram-schmidt 278-2500 and 1.3e9-1.8e10 (the repeated row, "
                                     "cond(P) large), in every cell"),
        faults=(Fault("never-orthonormalised", "the Oja steps without the QR every qr_every rows",
                      {"updates": never_orthonormalised}, keep=lambda c: c.seed == 0),
                Fault("classical-gram-schmidt", "classical Gram-Schmidt once in place of twice",
                      {"updates": classical_gram_schmidt}, keep=lambda c: c.seed == 0)),
    ),
]
