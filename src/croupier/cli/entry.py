"""The console-script entry point of ``croupier`` (and of ``python -m croupier``).

Two things happen here rather than in :mod:`croupier.cli.app`, because they
must hold before the command line is even imported and after it has returned:

* Ctrl-C while the program is still starting (importing Typer and the command)
  ends it quietly with exit code 130 — no traceback;
* standard output is flushed and checked before exit: output that could not be
  written (a full disk, ``> /dev/full``) is an ``error:`` line and a non-zero exit,
  never a silently truncated file with exit code 0.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

__all__ = ["main"]

INTERRUPTED = 130
"""The exit code after Ctrl-C (128 + SIGINT), as shells report it."""


def _quit_quietly(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(INTERRUPTED)


def _detach_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so the exit-time flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def main() -> None:
    """Run ``croupier`` with ``sys.argv`` and exit with its code."""
    previous = signal.signal(signal.SIGINT, _quit_quietly)
    try:
        from croupier.cli.app import run
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        code = run()
    except KeyboardInterrupt:
        code = INTERRUPTED
    try:
        sys.stdout.flush()
    except OSError as exc:
        _detach_stdout()
        print(f"error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        code = code or 2
    sys.exit(code)
