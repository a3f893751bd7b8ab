"""A mutation campaign: realistic bugs kept as data (mutants.py) and a runner (run.py)."""
