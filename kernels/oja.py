"""Numba-jitted Oja updates on random-feature rows (RF-Oja of Ullah et al. 2018,
App. D.2; the paper gives only the step sizes, so the update is the standard
Allen-Zhu & Li form below, Q_0 = qr of a Gaussian m x k matrix).

For each row z_t of Z, with step eta_t,

.. math::  Q \\leftarrow Q + \\eta_t\\, z_t (z_t^T Q),

and every ``qr_every`` rows Q <- qr(Q) with diag(R) > 0. Because the update is
linear in Q and QR only right-multiplies by an upper-triangular k x k matrix,
the span (and, with the positive-diagonal convention, Q itself) does not depend
on when the QR happens, up to round-off.
"""

import numpy as np
from numba import njit


@njit(cache=True)
def orthonormalize(Q):
    """Q <- the Q factor of Q with diag(R) >= 0, in place."""
    q, r = np.linalg.qr(Q)
    for j in range(Q.shape[1]):
        s = 1.0 if r[j, j] >= 0.0 else -1.0
        for i in range(Q.shape[0]):
            Q[i, j] = s * q[i, j]
    return Q


@njit(cache=True)
def oja_updates(Q, Z, eta, qr_every, since_qr):
    """Apply the rows of Z to Q (m x k) in place with steps eta; re-orthonormalise
    after every ``qr_every`` updates counting ``since_qr`` already pending.
    Returns the updates pending since the last QR."""
    m, k = Q.shape
    s = np.empty(k)
    for t in range(Z.shape[0]):
        z = Z[t]
        for j in range(k):
            acc = 0.0
            for i in range(m):
                acc += z[i] * Q[i, j]
            s[j] = eta[t] * acc
        for i in range(m):
            zi = z[i]
            for j in range(k):
                Q[i, j] += zi * s[j]
        since_qr += 1
        if since_qr >= qr_every:
            orthonormalize(Q)
            since_qr = 0
    return since_qr
