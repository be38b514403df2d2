"""Constraint dealing and simulations in dealer's input language.

* :func:`parse_script` / :func:`parse_expression` read dealer scripts and
  expressions (``docs/dealer-language.md``); :func:`format_script` writes them
  back.
* :func:`compile_expression` / :func:`compile_condition` evaluate them over
  deal arrays, vectorised.
* :func:`deal_where`, :func:`run_script` and :class:`Simulation` deal exactly
  uniformly among the deals that satisfy a condition and a :class:`Predeal`,
  by rejection or exact smart stacking (``docs/constraint-dealing.md``,
  ``docs/smart-stacking.md``).
* :class:`ActionRunner` carries out a script's actions (dealer's output, byte
  for byte) and gathers a :class:`Report` of statistics
  (``docs/simulation-output.md``); :mod:`croupier.simulate.double_dummy`
  solves deals double dummy (optional extra ``dd``).

>>> from croupier.simulate import deal_where, parse_script
>>> script = parse_script("produce 10\\ncondition hcp(north) >= 20\\naction printoneline")
>>> script.produce, str(script.condition)
(10, 'hcp(north) >= 20')
>>> deals = deal_where("hcp(north) >= 20", 3, seed="package")
>>> len(deals)
3
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from croupier.lazy_names import LazyNames

if TYPE_CHECKING:
    from croupier.simulate.actions import ActionRunner, dealer_summary
    from croupier.simulate.ast import Expr, Script
    from croupier.simulate.compile import (
        Compiled,
        compile_condition,
        compile_expression,
        scales_of,
    )
    from croupier.simulate.parse import ScriptError, parse_expression, parse_script
    from croupier.simulate.predeal import Predeal, PredealError
    from croupier.simulate.run import (
        RunBatch,
        Simulation,
        SimulationError,
        SimulationResult,
        deal_where,
    )
    from croupier.simulate.sampler import RejectionSampler, Sampler
    from croupier.simulate.script_run import run_script
    from croupier.simulate.stacking import StackingSampler, plan_stacking
    from croupier.simulate.stats import Report
    from croupier.simulate.unparse import format_script

# Each name is imported from its module on first use, so that importing one module of
# the package (croupier dealer's run) does not import them all.
_HOMES = {
    "ActionRunner": "actions",
    "dealer_summary": "actions",
    "Expr": "ast",
    "Script": "ast",
    "Compiled": "compile",
    "compile_condition": "compile",
    "compile_expression": "compile",
    "scales_of": "compile",
    "ScriptError": "parse",
    "parse_expression": "parse",
    "parse_script": "parse",
    "Predeal": "predeal",
    "PredealError": "predeal",
    "RunBatch": "run",
    "Simulation": "run",
    "SimulationError": "run",
    "SimulationResult": "run",
    "deal_where": "run",
    "run_script": "script_run",
    "RejectionSampler": "sampler",
    "Sampler": "sampler",
    "StackingSampler": "stacking",
    "plan_stacking": "stacking",
    "Report": "stats",
    "format_script": "unparse",
}


_LAZY = LazyNames(globals(), _HOMES)


def __getattr__(name: str) -> Any:
    return _LAZY.get(name)


def __dir__() -> list[str]:
    return _LAZY.listing()


__all__ = [
    "ActionRunner",
    "Compiled",
    "Expr",
    "Predeal",
    "PredealError",
    "RejectionSampler",
    "Report",
    "RunBatch",
    "Sampler",
    "Script",
    "ScriptError",
    "Simulation",
    "SimulationError",
    "SimulationResult",
    "StackingSampler",
    "compile_condition",
    "compile_expression",
    "deal_where",
    "dealer_summary",
    "format_script",
    "parse_expression",
    "parse_script",
    "plan_stacking",
    "run_script",
    "scales_of",
]
