"""The options of ``croupier dealer``, written once: the Typer command and the quick parser.

:data:`OPTIONS` is the one table of the command's options (flags, kind, default,
help).  ``cli/dealer_cmd.py`` builds the Typer command from it (``croupier
dealer --help``, the registry, usage errors), and :func:`quick_parse` reads a
command line with it without importing Typer, click or pydantic, which take
about half the start-up time of a short run: ``croupier dealer one.dlr`` parses
its arguments here and runs at once.  Whatever :func:`quick_parse` does not
read with certainty (``--help``, a usage error, the cluster options) it leaves
to the Typer command, which then prints the help or the one-line error, so the
two never disagree.

dealer's own flags (``dealer [-023ehuvmqV] [-p n] [-g n] [-s seed] [-l n] [-t n]``)
are all here, as dealer users type them; those without a meaning in croupier
(``-e``, ``-l``) are refused with a line that says why.

>>> opts = quick_parse(["x.dlr", "-p", "5", "-vq", "--seed=s", "-3"])
>>> opts["script_path"], opts["produce"], opts["no_summary"], opts["no_printpbn"], opts["swap"]
('x.dlr', 5, 1, 1, 3)
>>> quick_parse(["x.dlr", "--help"]) is None, quick_parse(["x.dlr", "-p", "five"]) is None
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.cli.quick_options import Option, flag_table, long_flags, parse_options

__all__ = [
    "FORMATS",
    "OPTIONS",
    "STRATEGIES",
    "SWAPS",
    "SWAP_LONGS",
    "Option",
    "defaults",
    "parameter_flags",
    "quick_parse",
]

FORMATS = ("dealer", "pbn", "oneline", "table")
"""What ``croupier dealer`` writes: dealer's own output, PBN games, one line per deal, or
only the statistics as tables."""

STRATEGIES = ("auto", "rejection", "stacking")
"""How deals are found (:data:`croupier.simulate.run.Strategy`)."""

SWAPS = {"-0": 0, "-2": 2, "-3": 3}
"""dealer's swapping flags: 0 (no swapping), 2 (East-West) or 3 (East, South, West)."""

SWAP_LONGS = {"-0": "--no-swap", "-2": "--swap2", "-3": "--swap3"}
"""The long flag of each of dealer's swapping flags."""

OPTIONS: tuple[Option, ...] = (
    Option(
        "generate", ("--generate", "-g"), "int", "Look at most at this many deals (dealer's -g)."
    ),
    Option("produce", ("--produce", "-p"), "int", "Produce this many deals (dealer's -p)."),
    Option(
        "dealer_seed", ("--dealer-seed", "-s"), "int", "dealer's -s: a numeric seed (reproducible)."
    ),
    Option(
        "seed",
        ("--seed",),
        "text",
        "Reproducible: seed text (or hex:... bytes); same seed, same output.",
    ),
    Option(
        "no_summary",
        ("--no-summary", "-v"),
        "count",
        "No closing lines after the output (dealer's -v; given twice, they are back).",
        default=0,
    ),
    Option(
        "no_printpbn",
        ("--no-printpbn", "-q"),
        "count",
        "dealer's -q: leave out what printpbn prints (given twice, it is back).",
        default=0,
    ),
    Option(
        "progress",
        ("--progress", "-m"),
        "count",
        "Progress bar (dealer's -m), also when stderr is no terminal. Default: a bar on a "
        "terminal for runs of more than about a second.",
        default=0,
    ),
    Option("swap", ("--swap",), "swap", "dealer's swapping: 0, 2 or 3 (-0, -2, -3).", default=0),
    Option(
        "upper_case",
        ("--upper-case", "-u"),
        "flag",
        "dealer's -u: upper-case AKQJT (dealer 20211121 and croupier always print them so).",
        default=False,
    ),
    Option(
        "timeout",
        ("--timeout", "-t"),
        "float",
        "dealer's -t: give up after this many seconds if no deal was produced (exit 1).",
    ),
    Option(
        "version",
        ("--dealer-version", "-V"),
        "flag",
        "dealer's -V: print the version and exit.",
        default=False,
    ),
    Option(
        "exhaust",
        ("--exhaust", "-e"),
        "flag",
        "dealer's -e (exhaust mode): refused, as dealer 20211121 refuses it.",
        default=False,
    ),
    Option(
        "library",
        ("--library", "-l"),
        "int",
        "dealer's -l (deals from GIB's library.dat): refused, with the reason.",
    ),
    Option(
        "strategy",
        ("--strategy",),
        "choice",
        "auto (default: smart stacking when it pays), rejection or stacking.",
        default="auto",
        choices=STRATEGIES,
    ),
    Option(
        "fmt",
        ("--format", "-f"),
        "choice",
        f"Output format: {', '.join(FORMATS)}.",
        default="dealer",
        choices=FORMATS,
    ),
    Option(
        "dd",
        ("--dd",),
        "flag",
        "With --format pbn: add each deal's double-dummy table and par (needs the dd extra).",
        default=False,
    ),
    Option(
        "plot",
        ("--plot",),
        "path",
        "Also draw every frequency table (.png or .svg; needs matplotlib).",
    ),
    Option(
        "as_json",
        ("--json",),
        "flag",
        "Print JSON (the same information, machine-readable).",
        default=False,
    ),
    Option("out", ("--out", "-o"), "path", "Write to this file (atomically), not stdout."),
    Option(
        "overwrite",
        ("--overwrite",),
        "flag",
        "Replace existing output files (never by default).",
        default=False,
    ),
    Option(
        "quiet",
        ("--quiet",),
        "flag",
        "Print nothing but errors and the output asked for (no notes, warnings or progress bar).",
        default=False,
    ),
    Option(
        "workers",
        ("--workers",),
        "int",
        "Run on a local Dask cluster of N worker processes (needs the cluster extra).",
        quick=False,
    ),
    Option(
        "scheduler",
        ("--scheduler",),
        "text",
        "Run on the running Dask cluster at this address (tcp://host:8786).",
        quick=False,
    ),
    Option(
        "chunk",
        ("--chunk",),
        "int",
        "Rows per task on a cluster (the result never depends on it).",
        quick=False,
    ),
)


def defaults() -> dict[str, Any]:
    """Every option's default, and the script: standard input, as dealer reads it."""
    values: dict[str, Any] = {option.dest: option.default for option in OPTIONS}
    values["script_path"] = "-"
    return values


def parameter_flags() -> dict[str, str]:
    """The long flag of every option's parameter name (errors name the flag, not ``name=``).

    >>> parameter_flags()["produce"]
    '--produce'
    """
    return long_flags(OPTIONS)


_BY_FLAG = flag_table(OPTIONS)
_SWAP_BY_LONG = {long: short for short, long in SWAP_LONGS.items()}


def quick_parse(argv: Sequence[str]) -> dict[str, Any] | None:
    """``croupier dealer``'s arguments (after ``dealer``) read with :data:`OPTIONS`, or
    ``None`` when the Typer command must read them (help, an error, a cluster option).

    Long options take ``--name value`` or ``--name=value``; short ones ``-g 10``,
    ``-g10`` or, for flags, ``-vm`` (as dealer's getopt reads them); ``-0``, ``-2``
    and ``-3`` choose dealer's swapping, the last one given winning; ``--`` ends
    the options.  Repeated options: the last value counts, as in the Typer
    command; ``-v``, ``-q`` and ``-m`` count (dealer toggles them).

    >>> quick_parse(["-g10", "--strategy", "REJECTION"])["generate"]
    10
    >>> quick_parse([])["script_path"]
    '-'
    >>> quick_parse(["x", "y"]) is None, quick_parse(["x", "--workers", "2"]) is None
    (True, True)
    """
    values = defaults()
    read = parse_options(argv, _BY_FLAG, values, specials=_swap)
    if read is None or len(read) > 1:
        return None
    if read:
        values["script_path"] = read[0]
    return values


def _swap(arg: str, values: dict[str, Any]) -> bool:
    """dealer's ``-0``, ``-2``, ``-3`` (and their long flags): the swapping mode."""
    if arg in SWAPS or arg in _SWAP_BY_LONG:
        values["swap"] = SWAPS[_SWAP_BY_LONG.get(arg, arg)]
        return True
    return False
