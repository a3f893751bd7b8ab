"""Numba-jitted Oja updates on random-feature rows (RF-Oja of Ullah et al. 2018,
App. D.2; the paper gives only the step sizes, so the update is the standard
Allen-Zhu & Li form below, Q_0 = qr of a Gaussian m x k matrix).

For each row z_t of Z, with step eta_t,

.. math::  Q \\leftarrow Q + \\eta_t\\, z_t (z_t^T Q),

and every ``qr_every`` rows Q <- qr(Q) with diag(R) > 0. Because the update is
linear in Q and QR only right-multiplies by an invertible upper-triangular k x k
matrix (Q R^{-1} + eta z z^T Q R^{-1} = (Q + eta z z^T Q) R^{-1}), the span (and,
with the positive-diagonal convention, Q itself) does not depend on when the QR
happens, up to round-off: the round-off of q unorthonormalised steps grows with
the condition number of Q before its QR, small for the step sizes of the
schedules (tests/test_rf_oja.py pins the span of qr_every in {4, 16, 64} to that of
qr_every = 1 within 1e-8).
"""

import numpy as np
from numba import njit


@njit(cache=True)
def _householder(Q):
    """Q <- the Q factor of Q with diag(R) >= 0, in place, by LAPACK's Householder QR."""
    q, r = np.linalg.qr(Q)
    for j in range(Q.shape[1]):
        s = 1.0 if r[j, j] >= 0.0 else -1.0
        for i in range(Q.shape[0]):
            Q[i, j] = s * q[i, j]
    return Q


@njit(cache=True, fastmath={"reassoc", "contract"})
def _gram_schmidt_rows(QT):
    """Orthonormalise the rows of QT (k x m, C order) in place by Gram-Schmidt with
    one reorthogonalisation ("twice is enough"); False if a row vanishes (Q rank
    deficient or not finite), leaving QT partly done."""
    k, m = QT.shape
    for j in range(k):
        for _ in range(2):
            for i in range(j):
                r = 0.0
                for p in range(m):
                    r += QT[i, p] * QT[j, p]
                for p in range(m):
                    QT[j, p] -= r * QT[i, p]
        nrm = 0.0
        for p in range(m):
            nrm += QT[j, p] * QT[j, p]
        if not (nrm > 0.0 and np.isfinite(nrm)):
            return False
        nrm = np.sqrt(nrm)
        for p in range(m):
            QT[j, p] /= nrm
    return True


@njit(cache=True)
def orthonormalize(Q):
    """Q <- the Q factor of Q with diag(R) >= 0, in place (m x k, m >= k).

    Gram-Schmidt twice on the columns (contiguous when Q is the transposed view of
    a C-ordered k x m array, as in :func:`oja_updates`), which gives that same Q up
    to round-off of order eps cond(Q), with fewer fixed costs than LAPACK's
    Householder QR at the thin sizes of an Oja basis.
    A rank-deficient or non-finite Q goes to the Householder QR instead."""
    QT = np.ascontiguousarray(Q.T)
    if _gram_schmidt_rows(QT):
        Q[:, :] = QT.T
        return Q
    return _householder(Q)


@njit(cache=True, fastmath={"reassoc", "contract"})
def _oja_rows(QT, Z, eta, start, stop):
    """Rows start..stop-1 of Z applied to Q^T (k x m, C order) in place, in order:
    s_t = eta_t Q^T z_t, then Q^T += s_t z_t^T. Four rows share each sweep over Q^T:
    with u = Q_0^T z for the four rows and g their inner products, the sequential
    steps are s_a = eta_a (u_a + sum_{b < a} g_ab s_b), then Q^T += sum_a s_a z_a^T
    (the same arithmetic as four single steps, reordered). Every loop runs along
    the contiguous m and vectorises; "reassoc" lets LLVM split the dot products into
    vector partial sums (round-off of the same size as BLAS's; the NaN and inf rules
    stay IEEE)."""
    k, m = QT.shape
    u = np.empty((4, k))
    t = start
    while t + 4 <= stop:
        z0, z1, z2, z3 = Z[t], Z[t + 1], Z[t + 2], Z[t + 3]
        for j in range(k):
            a0 = 0.0
            a1 = 0.0
            a2 = 0.0
            a3 = 0.0
            for i in range(m):
                q = QT[j, i]
                a0 += q * z0[i]
                a1 += q * z1[i]
                a2 += q * z2[i]
                a3 += q * z3[i]
            u[0, j] = a0
            u[1, j] = a1
            u[2, j] = a2
            u[3, j] = a3
        g10 = 0.0
        g20 = 0.0
        g21 = 0.0
        g30 = 0.0
        g31 = 0.0
        g32 = 0.0
        for i in range(m):
            g10 += z1[i] * z0[i]
            g20 += z2[i] * z0[i]
            g21 += z2[i] * z1[i]
            g30 += z3[i] * z0[i]
            g31 += z3[i] * z1[i]
            g32 += z3[i] * z2[i]
        e0, e1, e2, e3 = eta[t], eta[t + 1], eta[t + 2], eta[t + 3]
        for j in range(k):
            s0 = e0 * u[0, j]
            s1 = e1 * (u[1, j] + g10 * s0)
            s2 = e2 * (u[2, j] + g20 * s0 + g21 * s1)
            s3 = e3 * (u[3, j] + g30 * s0 + g31 * s1 + g32 * s2)
            for i in range(m):
                QT[j, i] += s0 * z0[i] + s1 * z1[i] + s2 * z2[i] + s3 * z3[i]
        t += 4
    while t < stop:
        z = Z[t]
        for j in range(k):
            acc = 0.0
            for i in range(m):
                acc += QT[j, i] * z[i]
            sj = eta[t] * acc
            for i in range(m):
                QT[j, i] += sj * z[i]
        t += 1


@njit(cache=True)
def oja_updates(Q, Z, eta, qr_every, since_qr):
    """Apply the rows of Z to Q (m x k) in place with steps eta; re-orthonormalise
    after every ``qr_every`` updates counting ``since_qr`` already pending.
    Returns the updates pending since the last QR.

    The work is done on a transposed copy Q^T (k x m), where the rank-one updates
    vectorise along m (:func:`_oja_rows`), and the QR is Gram-Schmidt on its rows
    (:func:`orthonormalize`); looping over Q (m x k, inner loop over k) with
    LAPACK's QR was slower at every ``qr_every`` (perf.rf-oja measures the pass
    against the feature map's own cost).
    """
    QT = np.ascontiguousarray(Q.T)
    n = Z.shape[0]
    t = 0
    while t < n:
        q = min(qr_every - since_qr, n - t)
        _oja_rows(QT, Z, eta, t, t + q)
        t += q
        since_qr += q
        if since_qr >= qr_every:
            orthonormalize(QT.T)
            since_qr = 0
    Q[:, :] = QT.T
    return since_qr
