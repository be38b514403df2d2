"""``croupier deal``'s quick path: a deal without Typer's start-up.

``croupier deal`` is the program's main job, and a short run is all start-up:
Typer, click and pydantic took several times as long to import as the deal
itself.  :func:`run_quick` reads the options of ``croupier deal`` with
:func:`croupier.cli.quick_options.parse_options` and runs
:func:`croupier.cli.deal_run.run_deal`, the very function the Typer command
calls.  Whatever it does not read with certainty (``--help``, an unknown flag, a
value that is not one, a count below 1, more than one GAME, the cluster options)
returns ``None``: the Typer command then reads the arguments, and prints the help
or the one-line usage error, so the two paths never disagree.

>>> values = quick_values(["holdem", "-p", "6", "--format", "JSON"])
>>> values["game"], values["players"], values["fmt"]
('holdem', 6, 'json')
>>> quick_values(["--help"]) is None, quick_values(["-n", "0"]) is None
(True, True)
>>> quick_values(["bridge", "skat"]) is None, quick_values(["--workers", "2"]) is None
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.cli.quick_options import Option, flag_table, long_flags, parse_options
from croupier.formats.registry import run_formats

__all__ = ["DEAL_OPTIONS", "ENGINE_NAMES", "FORMAT_NAMES", "STRATEGY_NAMES", "quick_values"]

FORMAT_NAMES = (*run_formats(), "pbn-games")
"""Every ``--format``: the run formats of :mod:`croupier.formats.registry`, and the former
name of ``pbn`` (:data:`croupier.cli.deal_cmd.FORMAT_NAMES`, checked by the tests)."""

ENGINE_NAMES = ("bulk", "deal")
"""Every ``--engine`` (:data:`croupier.runs.ENGINES`)."""

STRATEGY_NAMES = ("auto", "rejection", "stacking")
"""Every ``--strategy`` (:data:`croupier.simulate.run.Strategy`)."""

DEAL_OPTIONS: tuple[Option, ...] = (
    Option("players", ("--players", "-p"), "int", "Number of players."),
    Option("hands", ("--hands",), "text", "Hand sizes."),
    Option("deck", ("--deck",), "text", "Deck preset."),
    Option("count", ("--count", "-n"), "int", "How many deals.", default=1),
    Option("method", ("--method", "-m"), "text", "Deal method of the deal engine."),
    Option("seed", ("--seed",), "text", "Seed text."),
    Option("entropy", ("--entropy",), "text", "Your own randomness."),
    Option("fmt", ("--format", "-f"), "choice", "Output format.", choices=FORMAT_NAMES),
    Option("as_json", ("--json",), "flag", "Print JSON.", default=False),
    Option("bits", ("--bits",), "flag", "Print the bits used.", default=False),
    Option("scheme", ("--scheme",), "text", "Numbering scheme.", default="croupier"),
    Option("engine", ("--engine",), "choice", "bulk or deal.", choices=ENGINE_NAMES),
    Option("out", ("--out", "-o"), "path", "Write to this file."),
    Option("overwrite", ("--overwrite",), "flag", "Replace the output.", default=False),
    Option("quiet", ("--quiet",), "flag", "Print nothing but errors.", default=False),
    Option("where", ("--where",), "text", "A dealer expression."),
    Option("predeal", ("--predeal",), "text", "Cards given first."),
    Option(
        "strategy",
        ("--strategy",),
        "choice",
        "auto, rejection or stacking.",
        default="auto",
        choices=STRATEGY_NAMES,
    ),
    Option("first_board", ("--first-board",), "int", "Number of the first board."),
    Option("event", ("--event", "-e"), "text", "The Event tag."),
    Option("lf", ("--lf",), "flag", "LF line ends.", default=False),
    Option("show_stock", ("--show-stock",), "flag", "Show the stock.", default=False),
    Option("workers", ("--workers",), "int", "Dask workers.", quick=False),
    Option("scheduler", ("--scheduler",), "text", "Dask scheduler.", quick=False),
    Option("chunk", ("--chunk",), "int", "Rows per task.", quick=False),
)
"""The options of ``croupier deal`` (the same flags and parameter names, checked by the
tests); the cluster options are left to Typer."""

_FLAGS = flag_table(DEAL_OPTIONS)


def quick_values(argv: Sequence[str]) -> dict[str, Any] | None:
    """The options of ``croupier deal`` in ``argv`` (after ``deal``), by parameter name, or
    ``None`` when the Typer command must read them."""
    values: dict[str, Any] = {option.dest: option.default for option in DEAL_OPTIONS}
    positional = parse_options(argv, _FLAGS, values)
    if positional is None or len(positional) > 1 or values["count"] < 1:
        return None  # Typer's usage error (an extra argument, the range of --count) or help
    values["game"] = positional[0] if positional else None
    return values


def run_quick(argv: Sequence[str]) -> int | None:
    """Run ``croupier deal`` with ``argv`` (the exit code), or ``None`` when the Typer
    command must read the arguments."""
    values = quick_values(argv)
    if values is None:
        return None
    from croupier.cli.deal_run import run_deal
    from croupier.cli.quick_run import run_guarded

    flags = long_flags(DEAL_OPTIONS)
    return run_guarded(lambda: run_deal(**values), quiet=bool(values["quiet"]), flags=flags)
