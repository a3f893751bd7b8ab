"""One module per paper: its claims as declarations (``CLAIMS``), their
experiments and figures, and its errata in the project's own words (``PAPER``).
Every module here whose name does not start with ``_`` is discovered by
:mod:`kpca_suite.suites.registry`; ``_template.py`` shows how to add one."""
