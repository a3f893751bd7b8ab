"""Population models with exact spectra, effective dimensions, the bounds and
rate table of Sterge et al. 2020, and slope fits with bootstrap CIs.

Works on arrays and small records (dataclasses); imports :mod:`kernels` only.
The other papers' theory lives in its own submodules, imported from there:
:mod:`theory.mehler` (Gaussian kernel on Gaussian data), :mod:`theory.rf_objective`
and :mod:`theory.ullah_lemmas` (Ullah et al. 2018), :mod:`theory.hallgren_bounds`
(Hallgren 2021), :mod:`theory.dof`, :mod:`theory.periodic` and :mod:`theory.table1`
(Bach 2013).
"""

from .bounds import Theorem41Conditions, corollary_t, ekpca_bound_eq17, nystrom_bound_eq15, theorem41_conditions
from .effective_dimension import (effective_dimension, empirical_effective_dimension, exp_effdim_asymptote,
                                  max_effective_dimension, poly_effdim_slope)
from .population import FourierModel, basis_from_coefficients, default_J, ekpca_population_error, smaller_gram
from .rates import RateRow, exp_grid, poly_grid, rate_row, smallest_n
from .slopes import SlopeFit, fit_line, fit_loglog, loglog_line, octaves, verdict_from_ci

__all__ = [
    "FourierModel", "basis_from_coefficients", "default_J", "ekpca_population_error", "smaller_gram",
    "effective_dimension", "max_effective_dimension", "empirical_effective_dimension",
    "poly_effdim_slope", "exp_effdim_asymptote",
    "nystrom_bound_eq15", "ekpca_bound_eq17", "theorem41_conditions", "Theorem41Conditions", "corollary_t",
    "RateRow", "rate_row", "poly_grid", "exp_grid", "smallest_n",
    "SlopeFit", "fit_loglog", "fit_line", "loglog_line", "verdict_from_ci", "octaves",
]
