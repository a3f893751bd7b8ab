"""The claims, the pipeline that judges them, the adapters of other implementations,
and the CLI. ``check`` (from :mod:`suites.conformance`) runs claims with someone
else's estimator; it is imported on first use."""

__all__ = ["check"]


def __getattr__(name):
    if name == "check":
        from .conformance import check
        return check
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
