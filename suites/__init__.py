"""The claims, the pipeline that judges them, the adapters of other implementations,
and the CLI. ``check`` (from :mod:`suites.conformance`) runs claims with someone
else's estimator and ``assert_holds`` asserts on its verdicts; they are imported on
first use."""

__all__ = ["check", "assert_holds"]


def __getattr__(name):
    if name in __all__:
        from . import conformance
        return getattr(conformance, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
