"""The claims, the pipeline that judges them, the adapters of other implementations,
and the CLI. ``check`` (from :mod:`suites.conformance`) runs claims with someone
else's estimator and ``assert_holds`` asserts on its verdicts; ``check_faults`` (from
:mod:`suites.faults`) runs the claims' planted faults. They are imported on first use."""

import importlib

#: The public names and the module each is imported from on first use.
_FROM = {"check": "conformance", "assert_holds": "conformance", "NothingChecked": "conformance", "check_faults": "faults"}

__all__ = list(_FROM)


def __getattr__(name):
    if name in _FROM:
        return getattr(importlib.import_module(f"{__name__}.{_FROM[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
