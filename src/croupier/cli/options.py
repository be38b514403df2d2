"""Options shared by every ``croupier`` command, and the one table of short flags.

A short flag means the same long option in every command that has it
(:data:`SHORT_FLAGS`; ``tests/test_cli_app.py`` checks every command against
it).  Commands build their options from the helpers here so the flag, its
short form and its wording are written once.

>>> SHORT_FLAGS["-n"]
'--count'
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

__all__ = [
    "PROGRAM_FLAGS",
    "SHORT_FLAGS",
    "BitsOpt",
    "EntropyOpt",
    "JsonOpt",
    "OverwriteOpt",
    "QuietOpt",
    "SeedOpt",
    "count_option",
    "format_option",
    "method_option",
    "out_option",
]

#: Every short flag croupier uses, and the one long option it stands for.
SHORT_FLAGS: dict[str, str] = {
    "-h": "--help",
    "-n": "--count",
    "-f": "--format",
    "-o": "--out",
    "-m": "--method",
    "-p": "--players",
    "-s": "--style",
    "-d": "--descending",
    "-c": "--cards",
    "-b": "--boards",
    "-e": "--event",
    "-z": "--zero-terminated",
}


#: Commands that take another program's command line as its users type it: there a short
#: flag means what it means in that program (``croupier dealer -p 10`` produces ten deals,
#: as ``dealer -p 10`` does), and the others keep their meaning from :data:`SHORT_FLAGS`.
PROGRAM_FLAGS: dict[str, dict[str, str]] = {
    "dealer": {
        "-g": "--generate",
        "-p": "--produce",
        "-s": "--dealer-seed",
        "-v": "--no-summary",
        "-m": "--progress",
        "-q": "--no-printpbn",
        "-u": "--upper-case",
        "-t": "--timeout",
        "-V": "--dealer-version",
        "-e": "--exhaust",
        "-l": "--library",
        "-0": "--no-swap",
        "-2": "--swap2",
        "-3": "--swap3",
    },
}


def _short(long: str) -> list[str]:
    """``[long]`` plus its short flag from :data:`SHORT_FLAGS`, if it has one."""
    shorts = [s for s, name in SHORT_FLAGS.items() if name == long]
    return [long, *shorts]


def option(long: str, help: str, **kwargs: Any) -> Any:
    """A ``typer.Option`` for ``long`` with its short flag from the table.

    >>> opt = option("--count", "How many.")
    >>> (opt.default, *opt.param_decls)  # in ``Annotated``, Typer reads the first as a flag
    ('--count', '-n')
    """
    return typer.Option(*_short(long), help=help, **kwargs)


def count_option(help: str) -> Any:
    """``--count/-n``: how many results (at least 1)."""
    return option("--count", help, min=1)


def format_option(help: str) -> Any:
    """``--format/-f``: the output format."""
    return option("--format", help)


def method_option(help: str) -> Any:
    """``--method/-m``: the algorithm."""
    return option("--method", help)


def out_option(help: str) -> Any:
    """``--out/-o``: where to write."""
    return option("--out", help)


JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print JSON (the same information, machine-readable).")
]
SeedOpt = Annotated[
    str | None,
    typer.Option(
        "--seed", help="Reproducible: seed text (or hex:... bytes); same seed, same output."
    ),
]
EntropyOpt = Annotated[
    str | None,
    typer.Option("--entropy", help="Your own randomness: dice:..., coins:..., hex:..., bits:..."),
]
BitsOpt = Annotated[bool, typer.Option("--bits", help="Also print how many random bits were used.")]
OverwriteOpt = Annotated[
    bool, typer.Option("--overwrite", help="Replace existing output files (never by default).")
]


def _quiet(ctx: typer.Context, value: bool) -> bool:
    """``--quiet`` also tells the program (the root context's state, if it has a ``quiet``)
    to leave out the warnings it prints after the command (a deprecated name, say)."""
    state = ctx.find_root().obj
    if value and hasattr(state, "quiet"):
        state.quiet = True
    return value


QuietOpt = Annotated[
    bool,
    typer.Option(
        "--quiet",
        help="Print nothing but errors and the output asked for (no notes, "
        "warnings or progress bar).",
        callback=_quiet,
    ),
]
"""``--quiet``: every command has it (``tests/test_quiet.py`` runs each one with it)."""
