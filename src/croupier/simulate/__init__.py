"""Constraint dealing in dealer's input language: the parser (more layers build on it).

:func:`parse_script` reads a whole dealer script into a :class:`Script`;
:func:`parse_expression` reads one expression.  See ``docs/dealer-language.md``.

>>> from croupier.simulate import parse_script
>>> script = parse_script("produce 10\\ncondition hcp(north) >= 20\\naction printoneline")
>>> script.produce, str(script.condition)
(10, 'hcp(north) >= 20')
"""

from croupier.simulate.ast import Expr, Script
from croupier.simulate.compile import Compiled, compile_condition, compile_expression, scales_of
from croupier.simulate.parse import ScriptError, parse_expression, parse_script

__all__ = [
    "Compiled",
    "Expr",
    "Script",
    "ScriptError",
    "compile_condition",
    "compile_expression",
    "parse_expression",
    "parse_script",
    "scales_of",
]
