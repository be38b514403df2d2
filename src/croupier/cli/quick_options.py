"""Reading a command line without Typer: the quick paths of ``croupier dealer`` and
``croupier shuffle --file``.

Importing Typer, click and pydantic takes about half the start-up time of a short
run.  A command with a quick path describes its options once, as a table of
:class:`Option`; the Typer command is built from (or checked against) the same
table, and :func:`parse_options` reads a command line with it.  Whatever it does
not read with certainty (``--help``, an unknown flag, a value that is not one) makes
it return ``None``: the Typer command then reads the arguments, and prints the help
or the one-line usage error, so the two paths never disagree.

>>> table = flag_table((Option("count", ("--count", "-n"), "int", "How many."),
...                     Option("quiet", ("--quiet",), "flag", "Quiet.", default=False)))
>>> values = {"count": None, "quiet": False}
>>> parse_options(["-n3", "x", "--quiet"], table, values), values
(['x'], {'count': 3, 'quiet': True})
>>> parse_options(["--count", "three"], table, {}) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from croupier.frozen import frozen_dataclass

__all__ = ["Kind", "Option", "flag_table", "long_flags", "parse_options"]

Kind = Literal["flag", "count", "int", "float", "text", "path", "choice", "swap"]
"""What an option takes: nothing (``flag``; ``count`` counts), or a value of this kind."""


@frozen_dataclass
class Option:
    """One option of a command: where its value goes, its flags (the long one first),
    what it takes, its default and its help."""

    dest: str
    flags: tuple[str, ...]
    kind: Kind
    help: str
    default: Any = None
    choices: tuple[str, ...] = ()
    metavar: str | None = None
    quick: bool = True
    """Whether :func:`parse_options` reads it (others, such as cluster options, are left
    to Typer)."""


_VALUED = ("int", "float", "text", "path", "choice", "swap")


def flag_table(options: Sequence[Option]) -> dict[str, Option]:
    """Every flag of ``options`` and its option."""
    return {flag: option for option in options for flag in option.flags}


def long_flags(options: Sequence[Option]) -> dict[str, str]:
    """The long flag of every option's ``dest`` (an error names the flag, not ``name=``)."""
    return {option.dest: option.flags[0] for option in options}


def _value(option: Option, text: str) -> Any:
    """``text`` read as the option's value; :class:`ValueError` when it is not one (digits
    of other scripts, which Python reads and Typer refuses, are left to Typer too)."""
    if option.kind in ("int", "float") and not text.isascii():
        raise ValueError(text)
    if option.kind == "int":
        return int(text, 10)
    if option.kind == "float":
        value = float(text)
        if value != value:  # NaN
            raise ValueError(text)
        return value
    if option.kind == "choice":
        found = [c for c in option.choices if c == text.lower()]
        if not found:
            raise ValueError(text)
        return found[0]
    if option.kind == "swap":
        if text not in ("0", "2", "3"):
            raise ValueError(text)
        return int(text)
    if option.kind == "path":
        from pathlib import Path

        return Path(text)
    return text


def _apply(option: Option, values: dict[str, Any], text: str | None) -> None:
    if option.kind == "count":
        values[option.dest] += 1
    elif option.kind == "flag":
        values[option.dest] = True
    else:
        assert text is not None
        values[option.dest] = _value(option, text)


def parse_options(
    argv: Sequence[str],
    flags: Mapping[str, Option],
    values: dict[str, Any],
    *,
    specials: Callable[[str, dict[str, Any]], bool] | None = None,
) -> list[str] | None:
    """Read ``argv`` into ``values`` (by each option's ``dest``): the positional arguments,
    or ``None`` when Typer must read the command line.

    Long options take ``--name value`` or ``--name=value``; short ones ``-g 10``,
    ``-g10`` or, for flags, ``-vm`` (as getopt reads them); ``--`` ends the options.
    Repeated options: the last value counts, as in Typer; ``count`` options count.
    ``specials``, when given, reads an argument of its own first (``True``: taken).
    """
    positional: list[str] = []
    args = list(argv)
    i = 0
    try:
        while i < len(args):
            arg = args[i]
            i += 1
            if arg == "--":
                positional.extend(args[i:])
                break
            if specials is not None and specials(arg, values):
                continue
            if arg.startswith("--"):
                name, eq, text = arg.partition("=")
                option = flags.get(name)
                if option is None or not option.quick:
                    return None
                if option.kind in _VALUED:
                    if not eq:
                        if i >= len(args):
                            return None
                        text = args[i]
                        i += 1
                    _apply(option, values, text)
                elif eq:
                    return None  # a flag given a value: Typer says so
                else:
                    _apply(option, values, None)
                continue
            if arg.startswith("-") and len(arg) > 1:
                j = 1
                while j < len(arg):
                    option = flags.get("-" + arg[j])
                    if option is None or not option.quick:
                        return None
                    if option.kind in _VALUED:
                        text = arg[j + 1 :]
                        if not text:
                            if i >= len(args):
                                return None
                            text = args[i]
                            i += 1
                        _apply(option, values, text)
                        break
                    _apply(option, values, None)
                    j += 1
                continue
            positional.append(arg)
    except ValueError:
        return None
    return positional
