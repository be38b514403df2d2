"""What every long-running command shares: the output sink, the progress bar and Ctrl-C.

``croupier deal`` and ``croupier dealer`` write many deals; both write them
through a :class:`Sink` (standard output, or a file written atomically),
show a rich progress bar on stderr only when a person watches
(:func:`is_terminal`), and stop cleanly after the current batch on the first
Ctrl-C (:func:`stop_on_ctrl_c` sets :attr:`RunState.stop`).

>>> state = RunState()
>>> state.written, state.stop
(0, False)
>>> with progress_bar(10, show=False) as advance:
...     advance(10)
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import IO, TYPE_CHECKING

from croupier.durations import duration_text

if TYPE_CHECKING:
    from croupier.files import AtomicFile

__all__ = [
    "INTERRUPTED",
    "PROGRESS_LINE_SECONDS",
    "PROGRESS_MIN_DEALS",
    "Advance",
    "RunState",
    "Sink",
    "is_terminal",
    "progress_bar",
    "progress_lines",
    "progress_wanted",
    "stdout_bytes",
    "stop_on_ctrl_c",
]

INTERRUPTED = 130
"""The exit code of a run that Ctrl-C ended early (128 + SIGINT, as shells report it)."""

Advance = Callable[[int], None]
"""Moves the progress bar on by that many deals (does nothing when none is shown)."""


class Sink:
    """Where the output goes: standard output, or the file of ``--out`` (written atomically).

    >>> Sink(None).line("to standard output")
    to standard output
    """

    def __init__(self, file: AtomicFile | None) -> None:
        self.file = file

    def line(self, text: str = "") -> None:
        """Write ``text`` and a line end."""
        self.chunk(text + "\n")

    def chunk(self, text: str) -> None:
        """Write ``text`` as it is."""
        if self.file is None:
            import typer  # imported here: croupier dealer starts without Typer

            typer.echo(text, nl=False)
        else:
            self.file.write(text.encode("utf-8"))

    def binary(self) -> IO[bytes]:
        """The byte stream behind the output (what was written as text comes first)."""
        if self.file is None:
            return stdout_bytes()
        return self.file.file


def is_terminal(stream: IO[str]) -> bool:
    """Whether ``stream`` is a terminal (``False`` for anything that cannot say).

    >>> import io
    >>> is_terminal(io.StringIO())
    False
    """
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


PROGRESS_MIN_DEALS: dict[str, int] = {"deal": 20_000, "bulk": 1_000_000}
"""Runs of at least this many deals (by engine: a fraction of a second or more) show a
progress bar (see :func:`progress_wanted`)."""


def progress_wanted(
    count: int,
    engine: str,
    *,
    quiet: bool,
    stderr_is_terminal: bool,
    output_is_terminal: bool,
) -> bool:
    """Whether a run shows a progress bar on stderr.

    Only a long run (:data:`PROGRESS_MIN_DEALS` deals of the engine or more), only when
    stderr is a terminal (a person watches it), never with ``--quiet``, and
    not when the deals themselves scroll past on that terminal.

    >>> watched = {"stderr_is_terminal": True, "output_is_terminal": False}
    >>> progress_wanted(10**7, "bulk", quiet=False, **watched)
    True
    >>> progress_wanted(10**5, "bulk", quiet=False, **watched)  # a fraction of a second
    False
    >>> progress_wanted(10**5, "deal", quiet=False, **watched)  # several seconds
    True
    >>> progress_wanted(10**7, "bulk", quiet=True, **watched)
    False
    >>> piped = {"stderr_is_terminal": False, "output_is_terminal": False}
    >>> progress_wanted(10**7, "bulk", quiet=False, **piped)
    False
    """
    return (
        count >= PROGRESS_MIN_DEALS[engine]
        and not quiet
        and stderr_is_terminal
        and not output_is_terminal
    )


def stdout_bytes() -> IO[bytes]:
    """Standard output's byte stream (what was printed as text goes out first)."""
    sys.stdout.flush()
    return sys.stdout.buffer


def _no_progress(done: int) -> None:
    """The :data:`Advance` of a run without a progress bar."""


@contextmanager
def progress_bar(total: int, show: bool, description: str = "dealing") -> Iterator[Advance]:
    """A rich progress bar on stderr while the run lasts, if ``show``; else nothing."""
    if not show:
        yield _no_progress
        return
    # rich.progress is imported only when a bar is shown: it would cost every run start-up time.
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = (BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    console = Console(stderr=True)
    # redirect_stdout=False: the deals go to the real standard output, never above the bar
    with Progress(
        *columns, console=console, transient=True, redirect_stdout=False, redirect_stderr=False
    ) as bar:
        task = bar.add_task(description, total=total)

        def advance(done: int) -> None:
            bar.advance(task, done)

        yield advance


PROGRESS_LINE_SECONDS = 30.0
"""Seconds between the progress lines of :func:`progress_lines` (the first comes after as
long: a shorter run prints none)."""


@contextmanager
def progress_lines(
    total: int,
    description: str,
    unit: str,
    *,
    every: float = PROGRESS_LINE_SECONDS,
    clock: Callable[[], float] = time.monotonic,
    stream: IO[str] | None = None,
) -> Iterator[Advance]:
    """Progress at a low rate for a run nobody watches on a terminal (a log, a pipe):
    one line on stderr (or ``stream``) every ``every`` seconds, with the time left.

    >>> import io
    >>> ticks = iter(range(0, 1000, 20))
    >>> out = io.StringIO()
    >>> with progress_lines(1000, "sampling", "trials", clock=lambda: next(ticks),
    ...                     stream=out) as advance:
    ...     for _ in range(4):
    ...         advance(100)
    >>> print(out.getvalue(), end="")
    sampling: 200 of 1,000 trials (20.0%), about 3 minutes left
    sampling: 400 of 1,000 trials (40.0%), about 2 minutes left
    """
    start = clock()
    shown = start
    done = 0

    def advance(more: int) -> None:
        nonlocal shown, done
        done += more
        now = clock()
        if now - shown < every or done >= total:
            return
        shown = now
        left = (now - start) * (total - done) / max(done, 1)
        line = (
            f"{description}: {done:,} of {total:,} {unit} ({100 * done / total:.1f}%), "
            f"about {duration_text(left)} left"
        )
        print(line, file=sys.stderr if stream is None else stream, flush=True)

    yield advance


class RunState:
    """A run in progress: deals (and bits) written so far, whether Ctrl-C asked it to stop."""

    def __init__(self) -> None:
        self.written = 0
        self.bits = 0  # random bits of the deals written (bulk engine: whole bits)
        self.stop = False


@contextmanager
def stop_on_ctrl_c(run: RunState) -> Iterator[None]:
    """The first Ctrl-C sets ``run.stop`` (the run ends after what it is writing); a second
    one interrupts at once.  Outside the main thread signals cannot be caught: nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_ctrl_c(signum: int, frame: FrameType | None) -> None:
        if run.stop:
            raise KeyboardInterrupt
        run.stop = True

    previous = signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
