"""``croupier shuffle --file``'s quick path: the file shuffle without Typer's start-up.

Shuffling a file is a job done many times a day from scripts, and a short one is
dominated by start-up: Typer, click and pydantic take longer to import than numpy.
:func:`run_quick` reads the file shuffle's own options with
:func:`croupier.cli.quick_options.parse_options` and runs
:func:`croupier.cli.shuffle_file_run.shuffle_records_command`, the very function the
Typer command calls.  Anything else (items, ``--deck``, ``--cards``, ``--json``,
``--entropy``, a named ``--method``, ``--help``, a usage error, standard input
without ``--file``) returns ``None``: the Typer command reads those, so help, usage
errors and every other form behave as they always did.

>>> quick_values(["--file", "in.txt", "-n", "3", "-z", "--seed=s"])["head_count"]
3
>>> quick_values(["a", "b"]) is None, quick_values(["--file", "x", "--json"]) is None
(True, True)
>>> quick_values(["--seed", "s"]) is None  # no --file: Typer applies the standard input rule
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.cli.quick_options import Option, flag_table, long_flags, parse_options

__all__ = ["FILE_OPTIONS", "quick_values", "run_quick"]

FILE_OPTIONS: tuple[Option, ...] = (
    Option("file", ("--file",), "text", "The file to shuffle ('-': standard input)."),
    Option("out_path", ("--out", "-o"), "text", "Write here (atomically)."),
    Option("seed", ("--seed",), "text", "Seed text (reproducible)."),
    Option("memory", ("--memory",), "text", "The memory to use."),
    Option("records", ("--records",), "text", "'lines' or N-byte records."),
    Option("zero", ("--zero-terminated", "-z"), "flag", "NUL-terminated records.", default=False),
    Option("head_count", ("--head-count", "--count", "-n"), "int", "A sample of at most K."),
    Option("method", ("--method", "-m"), "choice", "auto only.", default="auto", choices=("auto",)),
    Option("overwrite", ("--overwrite",), "flag", "Replace the output.", default=False),
    Option("quiet", ("--quiet",), "flag", "Print nothing but errors.", default=False),
    Option("bits", ("--bits",), "flag", "Print the bits used.", default=False),
)
"""The options :func:`run_quick` reads: those of ``croupier shuffle`` (the same flags,
checked by the tests) that the default file shuffle takes."""

_FLAGS = flag_table(FILE_OPTIONS)


def quick_values(argv: Sequence[str]) -> dict[str, Any] | None:
    """The file shuffle's options in ``argv`` (after ``shuffle``), or ``None`` when the
    Typer command must read them."""
    values: dict[str, Any] = {option.dest: option.default for option in FILE_OPTIONS}
    positional = parse_options(argv, _FLAGS, values)
    if positional is None or positional or values["file"] is None:
        return None
    if values["head_count"] is not None and values["head_count"] < 0:
        return None  # Typer's own range error
    return values


def run_quick(argv: Sequence[str]) -> int | None:
    """Run ``croupier shuffle`` with ``argv`` when it is a default file shuffle (the exit
    code), else ``None``."""
    values = quick_values(argv)
    if values is None:
        return None
    from croupier.cli.quick_run import run_guarded

    def run() -> int:
        from croupier.cli.output import file_or_standard_output
        from croupier.cli.shuffle_file_run import shuffle_records_command

        shuffle_records_command(
            values["file"], file_or_standard_output(values["out_path"]), memory=values["memory"],
            records=values["records"], zero=values["zero"], head_count=values["head_count"],
            seed=values["seed"], overwrite=values["overwrite"], quiet=values["quiet"],
            bits=values["bits"], as_json=False,
        )  # fmt: skip
        return 0

    return run_guarded(run, quiet=bool(values["quiet"]), flags=long_flags(FILE_OPTIONS))
