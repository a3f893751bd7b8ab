"""A planted regression in another library, for :mod:`tests.slowdowns.release_check`:
scikit-learn's ``KernelPCA(eigen_solver='randomized')`` as a release whose randomized solver
stopped early would run it, with no power iteration (``iterated_power=0``: one product of K
with the Gaussian test matrix instead of the default's several). On a slowly decaying
spectrum the top eigenvectors it returns are then only roughly those of K."""

from kpca_suite.suites.adapters import _kernel_pca


def kernelpca_randomized_early_stop(n_components, budget, kernel, random_state):
    """``KernelPCA(eigen_solver='randomized', iterated_power=0)``: centred (``budget`` unused)."""
    return _kernel_pca("randomized", n_components, kernel, random_state).set_params(iterated_power=0)
