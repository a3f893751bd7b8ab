"""kpca-suite: benchmark and theory-validation suite for scalable kernel PCA and
low-rank kernel approximation.

The distribution installs one namespace. The four folders at the repository root
install as sub-packages of it (pyproject.toml maps them):

``kpca_suite.kernels``  jitted kernel blocks, feature maps and sketch updates;
``kpca_suite.methods``  scikit-learn-shaped estimators;
``kpca_suite.theory``   population models, bounds and slope fits;
``kpca_suite.suites``   the claims, the pipeline that judges them, and the CLI.

Importing ``kpca_suite`` loads no paper module, data set or jitted code: the
sub-packages are imported on first attribute access.
"""

import importlib

__version__ = "0.1.0"
__all__ = ["kernels", "methods", "theory", "suites"]


def __getattr__(name):
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
