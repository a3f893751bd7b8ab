"""What several hallgren21 families share."""

from __future__ import annotations

from ...claim import Outcome


def _mplt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _reported(summary, measured):
    """A part of a judge that reports numbers and never decides: status ``holds``."""
    return Outcome("holds", summary, [], measured, {})
