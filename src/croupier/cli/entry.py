"""The console-script entry point of ``croupier`` (and of ``python -m croupier``).

Two things happen here rather than in :mod:`croupier.cli.app`, because they
must hold before the command line is even imported and after it has returned:

* Ctrl-C while the program is still starting (importing Typer and the command)
  ends it quietly with exit code 130 — no traceback;
* standard output becomes croupier's own checked stream
  (:func:`croupier.cli.output.install`) and is flushed and checked before exit:
  output that could not be written (a full disk, ``> /dev/full``) is one
  ``error:`` line and a non-zero exit, never a silently truncated file with exit
  code 0, even with ``PYTHONUNBUFFERED`` set.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

__all__ = ["main"]

INTERRUPTED = 130
"""The exit code after Ctrl-C (128 + SIGINT), as shells report it."""


def _quit_quietly(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(INTERRUPTED)


def main() -> None:
    """Run ``croupier`` with ``sys.argv`` and exit with its code.

    ``croupier dealer`` and ``croupier shuffle --file`` first try their quick paths
    (:data:`croupier.cli.quick_run.QUICK_PATHS`), which read the arguments without
    Typer: a short run then starts in a fraction of the time.  Help and usage errors go
    through the whole command line as before.
    """
    previous = signal.signal(signal.SIGINT, _quit_quietly)
    try:
        from croupier.cli import output

        output.install()
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        from croupier.cli.quick_run import run_quick_path

        code = run_quick_path(sys.argv[1:])
        if code is None:
            from croupier.cli.app import run

            code = run()
    except KeyboardInterrupt:
        code = INTERRUPTED
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        output.output_failed()
    except OSError as exc:
        output.output_failed()  # reported once: the rest is dropped, so exit cannot fail again
        from croupier.cli.failures import one_line

        failure = output.OutputError(exc.errno, exc.strerror)
        print(f"error: {one_line(failure.describe())}", file=sys.stderr)
        code = code or 2
    sys.exit(code)
