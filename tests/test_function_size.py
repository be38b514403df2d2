"""No function or method in src/croupier is longer than :data:`MAX_LINES` lines.

A long function mixes steps that read better as helpers with one purpose each
(option checks, choosing the input, writing the output); a command keeps its
parameter list, which is the command line, and hands the work to helpers.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "croupier"

MAX_LINES = 100
"""The most lines a function may take, from its ``def`` line to its last line."""

#: Functions still over the limit, as ``path:name`` under src/croupier, each with the reason
#: it is still here.  The test below fails on any other long function, and on an entry here
#: that is no longer over the limit, so this list only ever shrinks.
KNOWN_LONG: dict[str, str] = {}


def _lengths(source: str) -> list[tuple[str, int, int]]:
    """``(name, first line, lines)`` of every function and method in ``source``, nested too."""
    return [
        (node.name, node.lineno, (node.end_lineno or node.lineno) - node.lineno + 1)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def _long_functions() -> dict[str, str]:
    """``path:name`` of every function over the limit, with where it is and how long."""
    found: dict[str, str] = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        for name, line, lines in _lengths(path.read_text(encoding="utf-8")):
            if lines > MAX_LINES:
                found[f"{rel}:{name}"] = f"src/croupier/{rel}:{line} {name} ({lines} lines)"
    return found


def test_no_function_is_longer_than_the_limit() -> None:
    found = _long_functions()
    new = [where for key, where in found.items() if key not in KNOWN_LONG]
    assert not new, (
        f"functions longer than {MAX_LINES} lines (split them into helpers with one purpose "
        "each):\n  " + "\n  ".join(new)
    )
    fixed = sorted(set(KNOWN_LONG) - set(found))
    assert not fixed, f"no longer over {MAX_LINES} lines; remove from KNOWN_LONG: {fixed}"


def test_the_measure_counts_every_line_of_a_function() -> None:
    body = "".join(f"    x = {i}\n" for i in range(MAX_LINES))
    source = f"def long():\n{body}\nclass C:\n    async def short(self):\n        pass\n"
    assert _lengths(source) == [("long", 1, MAX_LINES + 1), ("short", MAX_LINES + 4, 2)]
