"""kpca-suite tests (a package so that helper modules such as
``tests.toy_claim`` and ``tests.claims`` are importable by worker processes)."""
