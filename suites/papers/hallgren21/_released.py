"""The paper's released code (the author's nystrompca package, imported when first run) as
a reference for hallgren21.table3: its methods experiment's columns on the same rows, split
and subset."""

from __future__ import annotations

import warnings

import numpy as np


def released_code_table3(Xtr, Xte, m: int, d: int, seed: int) -> dict:
    """The paper's released code on standardised training and test rows: the Subset PCA,
    Nyström and KPCA columns of nystrompca's methods experiment (its ``run_nystrom_kpca``
    and ``run_kernel_pca``, RBF kernel, subset of ``m`` drawn with ``seed``) and its Linear
    PCA column (:func:`released_linear_pca`), each the cumulative held-out variance fraction
    for d = 1..``d``."""
    from nystrompca.experiments import methods_experiments as code

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the package's own deprecation noise
        sub, nys, _, sigma = code.run_nystrom_kpca(Xtr, Xte, "rbf", m, d, seed)
        kpca, _ = code.run_kernel_pca(Xtr, Xte, "rbf", d, sigma)
    return {"sub": np.asarray(sub), "nys": np.asarray(nys), "kpca": np.asarray(kpca),
            "lin": released_linear_pca(Xtr, Xte, d, seed)}


def released_linear_pca(Xtr, Xte, d: int, seed: int) -> np.ndarray:
    """The released code's Linear PCA column (nystrompca's ``run_linear_pca``) with NumPy's
    global generator seeded with ``seed`` and restored afterwards. The code fits
    scikit-learn's PCA without a random_state, which on the wide bag-of-words sets (dailykos,
    nips) takes the randomized SVD and draws from that global generator: unseeded, the
    column moved by up to 1e-4 from run to run, with whatever ran before in the process."""
    from nystrompca.experiments.methods_experiments import run_linear_pca

    state = np.random.get_state()
    np.random.seed(seed)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.asarray(run_linear_pca(Xtr, Xte, d))
    finally:
        np.random.set_state(state)
