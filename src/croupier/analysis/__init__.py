"""Exact distributions, mixing, statistical tests and plots for shuffles and deals.

* :func:`exact_report` — the exact probability of every outcome of a method
  on a small deck, its total variation distance to uniform, reachable
  outcomes and obstructions (:mod:`croupier.analysis.exact`);
* :func:`repeat_report` — repeated shuffling as an exact Markov chain
  (:mod:`croupier.analysis.markov`);
* :func:`riffle_mixing_curve` — exact distances after k riffles of any deck
  (:mod:`croupier.analysis.mixing`);
* :func:`monte_carlo` — card x position, bridge and poker tests on real decks
  (:mod:`croupier.analysis.stats`); plots in :mod:`croupier.analysis.plots`.

>>> str(exact_report("swap-any", 3).tv)
'1/18'
>>> round(float(riffle_mixing(52, 7).tv), 3)
0.334
"""

from croupier.analysis.exact import ExactAnalysis, exact_analysis
from croupier.analysis.methods import AnalysisMethod, analysis_methods, get_analysis_method
from croupier.analysis.mixing import (
    MixingPoint,
    eulerian_numbers,
    riffle_mixing,
    riffle_mixing_curve,
    riffles_needed,
)
from croupier.analysis.run import (
    MonteCarloReport,
    RepeatReport,
    bits_profile,
    exact_report,
    monte_carlo,
    repeat_report,
)

__all__ = [
    "AnalysisMethod",
    "ExactAnalysis",
    "MixingPoint",
    "MonteCarloReport",
    "RepeatReport",
    "analysis_methods",
    "bits_profile",
    "eulerian_numbers",
    "exact_analysis",
    "exact_report",
    "get_analysis_method",
    "monte_carlo",
    "repeat_report",
    "riffle_mixing",
    "riffle_mixing_curve",
    "riffles_needed",
]
