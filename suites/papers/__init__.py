"""One package per paper: ``__init__.py`` declares ``PAPER`` (key, citation, errata
in the project's own words) and ``CLAIMS``, gathered from one module per family of
claims, each holding its claims' parameters, estimators, experiments, planted faults
and declarations. Every package here whose name does not start with ``_`` is
discovered by :mod:`kpca_suite.suites.registry`; ``_template/`` shows the shape."""
