"""The console-script entry point of ``croupier`` (and of ``python -m croupier``).

Six things happen here rather than in :mod:`croupier.cli.app`, because they
must hold before the command line is even imported and after it has returned:

* Ctrl-C while the program is still starting (importing Typer and the command)
  ends it quietly with exit code 130 — no traceback;
* a command with a quick path (:data:`croupier.cli.quick_run.QUICK_PATHS`) lets numpy's
  OpenBLAS threads sleep as soon as they are idle (:data:`QUICK_BLAS_ENV`, unless the
  environment says otherwise): by default they spin for about a tenth of a second
  after numpy's import, waiting for linear algebra that a deal never asks for, and on
  a machine with few cores they take the processor from the start-up itself;
* the C allocator keeps the memory a run frees for the run's next arrays
  (:func:`program`, with :func:`croupier._core.allocator.keep_freed_memory`: blocks under
  :data:`MMAP_FROM` come from the heap, and up to :data:`TRIM_FROM` freed bytes stay
  there).  By default glibc hands freed blocks of a few hundred KiB back to the system
  and asks for them again, zeroed, a page fault every 4 KiB: a dealer script that
  evaluates one batch of deals after another spent a third of its time there.  The
  peak memory stays the same; a program that imports croupier (or calls :func:`main`)
  is left as it is;
* cyclic garbage is collected every :data:`GC_THRESHOLD` new container objects rather
  than Python's default 700: start-up creates hundreds of thousands of objects that stay
  (modules, classes, functions, tables), and the default examined them again and again
  (milliseconds of a short run); a run itself makes few reference cycles;
* standard output becomes croupier's own checked stream
  (:func:`croupier.cli.output.install`) and is flushed and checked before exit:
  output that could not be written (a full disk, ``> /dev/full``) is one
  ``error:`` line and a non-zero exit, never a silently truncated file with exit
  code 0, even with ``PYTHONUNBUFFERED`` set;
* a quick path's process ends as soon as its output is flushed (:func:`program`, the
  console script, with :func:`_end_now`; :func:`main` called in a process of someone
  else's returns by ``SystemExit`` as usual): the interpreter's own finalization
  (every module, class and table torn down, one by one) took some 20 ms of a 0.3 s
  file shuffle and has nothing left to do for croupier then, whose files are written
  and closed, whose temporaries are removed and whose worker threads are idle once a
  command returns.  Where a thread of anyone else's still runs, it exits as usual.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
from types import FrameType

__all__ = ["main", "program"]

INTERRUPTED = 130
"""The exit code after Ctrl-C (128 + SIGINT), as shells report it."""

GC_THRESHOLD = 10_000
"""New container objects between collections of the youngest generation (Python: 700)."""

MMAP_FROM = 32 * 2**20
"""Blocks of this many bytes or more get pages of their own (freed at once)."""

TRIM_FROM = 64 * 2**20
"""Freed bytes kept at the top of the heap, at most, before they go back to the system."""

QUICK_BLAS_ENV = {"OPENBLAS_THREAD_TIMEOUT": "4"}
"""The environment of a quick path's numpy, where not set already: OpenBLAS's idle
threads wait 2**4 cycles, not 2**28, before they sleep (they still do the work of any
linear algebra)."""


def _quit_quietly(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(INTERRUPTED)


def _end_now(code: int) -> None:
    """End the process with ``code`` at once, standard error flushed (standard output was),
    when no thread but croupier's own workers is left; else return (the caller exits as
    usual).  croupier's worker pools (threads named ``croupier-...``) are only given work
    that is waited for, so once a command has returned they are idle."""
    threading = sys.modules.get("threading")
    if threading is not None:
        current = threading.current_thread()
        for thread in threading.enumerate():
            if thread is not current and not thread.name.startswith("croupier-"):
                return
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    os._exit(code)


def program() -> None:
    """The ``croupier`` program (the console script and ``python -m croupier``): :func:`main`,
    a quick path's process ending as soon as its output is out (:func:`_end_now`), and the C
    allocator keeping freed memory (a setting of the whole process: :func:`main` called in
    someone else's process leaves it alone)."""
    from croupier._core.allocator import keep_freed_memory

    keep_freed_memory(MMAP_FROM, TRIM_FROM)
    main(end_at_once=True)


def main(*, end_at_once: bool = False) -> None:
    """Run ``croupier`` with ``sys.argv`` and exit with its code.

    ``croupier deal``, ``croupier dealer`` and ``croupier shuffle --file`` first try their
    quick paths (:data:`croupier.cli.quick_run.QUICK_PATHS`), which read the arguments
    without Typer: a short run then starts in a fraction of the time.  Help and usage errors go
    through the whole command line as before.
    """
    youngest, *older = gc.get_threshold()
    if 0 < youngest < GC_THRESHOLD:
        gc.set_threshold(GC_THRESHOLD, *older)
    previous = signal.signal(signal.SIGINT, _quit_quietly)
    try:
        from croupier.cli import output

        output.install()
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        from croupier.cli.quick_run import QUICK_PATHS, run_quick_path

        if sys.argv[1:2] and sys.argv[1] in QUICK_PATHS and "numpy" not in sys.modules:
            for name, value in QUICK_BLAS_ENV.items():
                os.environ.setdefault(name, value)
        code = run_quick_path(sys.argv[1:])
        quick = code is not None
        if code is None:
            from croupier.cli.app import run

            code = run()
    except KeyboardInterrupt:
        code, quick = INTERRUPTED, False
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
    if end_at_once and quick and isinstance(code, int):
        _end_now(code)
    sys.exit(code)
