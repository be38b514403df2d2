"""Running a command read by a quick path (:mod:`croupier.cli.quick_options`), with the
program's error policy but without Typer.

:func:`run_guarded` turns what can go wrong into what ``croupier``'s full command line
prints for it: one ``error:`` line and exit code 2 for bad input, 130 after Ctrl-C,
a quiet end when the reader of standard output goes away, the library's warnings
once each as ``warning:`` lines (none with ``--quiet``), and standard output flushed
and checked before a successful exit.  Every line goes through
:func:`croupier.cli.failures.one_line`, so key material is hidden as on the full
command line.

>>> from croupier.errors import CroupierError
>>> def bad() -> int:
...     raise CroupierError("count= must be at least 1")
>>> import contextlib, io
>>> err = io.StringIO()
>>> with contextlib.redirect_stderr(err):
...     code = run_guarded(bad, quiet=False, flags={"count": "--count"})
>>> code, err.getvalue()
(2, 'error: --count must be at least 1\\n')
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence

from croupier.cli.running import INTERRUPTED
from croupier.errors import CroupierError

__all__ = ["QUICK_PATHS", "run_guarded", "run_quick_path"]

QUICK_PATHS = {
    "deal": "croupier.cli.deal_quick",
    "dealer": "croupier.cli.dealer_run",
    "shuffle": "croupier.cli.shuffle_quick",
}
"""The commands with a quick path, and the module whose ``run_quick`` reads them."""


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _line(text: str, flags: Mapping[str, str] | None = None) -> str:
    """``text`` as one line of an ``error:`` or ``warning:`` (key material hidden; ``name=``
    written as the flag), by :mod:`croupier.cli.failures`, imported when there is one."""
    from croupier.cli.failures import as_flags, one_line

    return one_line(text) if flags is None else as_flags(one_line(text), flags)


def run_guarded(call: Callable[[], int], *, quiet: bool, flags: Mapping[str, str]) -> int:
    """Run ``call`` and return its exit code, reporting failures as the program does;
    ``flags`` names the flag of each parameter (``count=`` in a message becomes
    ``--count``)."""
    from croupier.cli.output import OutputError, output_failed

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DeprecationWarning)
        try:
            code = call()
        except CroupierError as exc:
            _stderr(f"error: {_line(str(exc), flags)}")
            code = 2
        except KeyboardInterrupt:
            code = INTERRUPTED
        except BrokenPipeError:
            output_failed()
            code = 0
        except OutputError as exc:
            output_failed()
            _stderr(f"error: {_line(exc.describe())}")
            code = 2
        except (OSError, UnicodeError) as exc:
            from croupier.files import describe_os_error

            _stderr(f"error: {_line(describe_os_error(exc))}")
            code = 2
    if not quiet:
        for message in dict.fromkeys(_line(str(w.message)) for w in caught):
            _stderr(f"warning: {message}")
    if code == 0:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            output_failed()
        except OSError as exc:
            from croupier.files import describe_os_error

            output_failed()
            reason = exc.describe() if isinstance(exc, OutputError) else describe_os_error(exc)
            _stderr(f"error: {_line(reason)}")
            return 2
    return code


def run_quick_path(args: Sequence[str]) -> int | None:
    """Run ``croupier ARGS`` by its command's quick path: the exit code, or ``None`` when
    the command has none or the full command line must read these arguments."""
    where = QUICK_PATHS.get(args[0]) if args else None
    if where is None:
        return None
    run_quick: Callable[[Sequence[str]], int | None] = importlib.import_module(where).run_quick
    return run_quick(args[1:])
